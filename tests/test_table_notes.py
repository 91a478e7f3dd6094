"""What the players read after each move: every note a game writes on its sheet is shown in the
table's banner, joined with the move's others where they fit the screen's banner, else on pages
in turn; at the end of a game too, above the final standings."""
from __future__ import annotations

import random

import pygame
import pytest

from controller.autoplay import AutoPlayer
from controller.rules import new_game
from controller.rules.base import choose_input, dice_input
from controller.table import OVER, TableFlow
from controller.tablelog import TableLog
from display.banner_fit import MORE, banner_pages
from display.render import banner_holds
from table_helpers import Clock
from test_rules_school import column_script, turn

SIZES = [(800, 480), (1920, 1080), (320, 240)]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def flow_of(game: str, players: list[str], size=(800, 480), state=None) -> TableFlow:
    return TableFlow(state or new_game(game, players), TableLog(game, players), clock=Clock(), screen_size=size)


def banners(flow: TableFlow) -> list[str]:
    """The banner's texts from now on while nothing else happens: each page shown in turn."""
    shown = []
    while flow.message is not None:
        shown.append(flow.message.text)
        flow.clock.t += flow.message_seconds
        flow.tick()
    return shown


def words(texts: list[str]) -> list[str]:
    """The words of `texts` as read across pages (the "…" of a note cut between pages and the
    "·" between notes left out)."""
    return [w for t in texts for w in t.split() if w not in (MORE, "·")]


def contains(seq: list[str], part: list[str]) -> bool:
    return any(seq[i:i + len(part)] == part for i in range(len(seq) - len(part) + 1))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_schools_last_entry_shows_every_note_above_the_final_standings(size):
    """School's last entry leaves four notes: the entry, the Chance award, the column 3 award,
    "Game over". The banner showed the last two, and at the game's end not even those: the
    standings cleared it; the row award was never on screen."""
    script = column_script() * 3                   # Ann fills the columns one after another
    state = new_game("school", ["Ann"])
    for dice, key in script[:-1]:
        state = turn(state, dice, key)
    flow = flow_of("school", ["Ann"], size, state)
    last = turn(state, *script[-1])                 # (the notes the last entry leaves)
    notes = list(last.sheet().notes)
    assert len(notes) == 4 and "Ann won the Chance award: 16" in notes
    dice, key = script[-1]
    for data in (dice_input(0, [1, 2, 3, 4, 6]), {"type": "reroll", "player": 0, "keep": []}, dice_input(0, dice)):
        flow._apply(data)
    banners(flow)
    flow._apply(choose_input(0, key))
    assert flow.phase == OVER and flow.view().mode == "final"
    assert flow.view().message is not None                      # above the standings
    shown = banners(flow)
    assert all(banner_holds(text, "final", size) for text in shown)
    assert all(contains(words(shown), note.split()) for note in notes)
    assert flow.view().message is None                          # then the standings alone


def test_a_note_that_reads_as_one_of_the_last_hand_is_still_shown():
    """Pok'n Roll shows the last hand's notes until the next hand writes one: Ann abandoning in
    turn 1 of two hands running wrote "Turn 1: Ann abandons" twice, and the second was taken
    for one already shown (it was among the last hand's) and never on screen."""
    flow = flow_of("poknroll", ["Ann", "Bob", "Cy"])
    hand = [[6, 1, 1], "ABANDON", "CONTINUE", "CONTINUE", [6, 6]]
    rest = [[2], "CONTINUE", "CONTINUE", [2], [2, 3], [2, 3], [2, 3]]      # Bob and Cy play it out
    second = [[6, 1, 1], "CONTINUE", "CONTINUE", "ABANDON"]               # Bob deals: Ann decides last
    shown = []
    for x in hand + rest + second:
        p = flow.state.expects().player
        flow._apply(choose_input(p, x) if isinstance(x, str) else dice_input(p, x))
        shown += banners(flow)
    assert flow.state.hand == 2
    assert sum("Turn 1: Ann abandons" in text for text in shown) == 2


@pytest.mark.parametrize("size", [(320, 240), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game,players", [("school", ["Ann", "Bob"]), ("poknroll", ["Ann", "Bob", "Cy", "Dee"]),
                                          ("classic", ["Ann", "Bob", "Cy"]),
                                          ("objective-cards", ["Ann", "Bob", "Cy"]), ("thirteen", ["Ann", "Bob"])])
def test_every_note_of_a_game_is_on_the_banner_whole(game, players, size):
    """A game played to its end: every note its sheet ever held was on the banner, every word
    of it, on pages the banner draws whole at this size (at 320x240 an Objective cards round of
    captures takes three)."""
    flow = flow_of(game, players, size)
    bot = AutoPlayer(random.Random(2))
    notes, shown = set(), []
    while not flow.state.is_over:
        flow._apply(bot.next_input(flow.state))
        notes.update(flow.state.sheet().notes)
        pages = banners(flow)
        mode = "final" if flow.phase == OVER else "play"
        assert [text for text in pages if not banner_holds(text, mode, size)] == []
        shown += pages
    seen = words(shown)
    assert [n for n in notes if not contains(seen, n.split())] == []


@pytest.mark.parametrize("notes,room,pages", [
    (["a b c", "dd ee"], 20, ["a b c · dd ee"]),
    (["a b c", "dd ee", "ff"], 10, ["a b c", "dd ee · ff"]),
    (["one two three four five six"], 15, ["one two three …", "… four five six"]),
    (["one two three four five six"], 12, ["one two …", "… three …", "… four …", "… five six"]),
    # a word too long for a page is cut into pages (a device's /dev/serial/by-id/ path lost its end)
    (["averyveryverylongword x"], 8, ["aver …", "… yver …", "… yver …", "… ylon …", "… gwor …",
                                                  "… d x"]),
    (["see /dev/serial/by-id/usb-box-if00"], 16, ["see …", "… /dev/serial/ …", "… by-id/usb- …", "… box-if00"]),
])
def test_a_moves_notes_are_joined_while_they_fit_and_cut_between_words_when_one_does_not(notes, room, pages):
    assert banner_pages(notes, lambda text: len(text) <= room) == pages


def test_a_note_cut_short_by_a_message_about_the_dice_comes_back_after_it():
    """Classic's round won is on the banner when the next player's tray shows 4 dice: *I see 4
    dice* takes the banner, and the round's note is shown again once it has gone."""
    from test_table_flow import reading
    flow = flow_of("classic", ["Ann", "Bob"])
    for data in (dice_input(0, [6, 6, 6, 6, 6]), choose_input(0, "STAND"), dice_input(1, [1, 2, 3, 4, 6]),
                 choose_input(1, "STAND")):
        flow._apply(data)
    note = flow.message.text
    assert "Ann wins" in note
    flow.clock.t += 2
    flow.on_reading(reading([1, 2, 3, 4]))
    assert flow.message.level == "warning" and "4 dice" in flow.message.text
    assert banners(flow)[1:] == [note]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_tie_broken_is_said_whole_above_the_final_standings(size):
    """Pok'n Roll's standings with ties broken at the win and below: the words name both, and
    at 320x240, where the banner's four lines cut the rule off ("most '3ème tour"), they turn
    over pages that together say it all; at the larger sizes they are one page."""
    state = new_game("poknroll", ["Ann", "Bob", "Cy", "Dee"])
    state.boxes = ((2, 0, 0, 0, 0, 0, 0, 0, 1), (6, 0, 0, 0, 0, 0, 0, 0, 0),
                   (0, 0, 0, 0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0, 0, 4, 0))
    state.stage = "over"
    flow = flow_of("poknroll", list(state.players), size, state)
    view = flow.view()
    assert [(st.name, st.place) for st in view.standings] == [("Ann", 1), ("Bob", 2), ("Cy", 3), ("Dee", 4)]
    said = f"Tie-break: {state.result().tie_break}"
    assert "Cy, Dee tied on 4 points" in said
    pages = []
    while not pages or flow.view().message.text != pages[0]:
        pages.append(flow.view().message.text)
        flow.clock.t += flow.message_seconds
    assert all(banner_holds(text, "final", size) for text in pages)
    assert words(pages) == said.split()
    assert (len(pages) > 1) == (size == (320, 240))


def _tray_places(flow: TableFlow, size) -> list[tuple[str, tuple]]:
    """Each page of the banner from now on while nothing else happens, with where the play
    screen under it draws the tray (None on the final screen, where there is no tray)."""
    from display.render import tray_rect
    shown = []
    while flow.message is not None:
        rect = tray_rect(pygame.Surface(size), flow.view())
        shown.append((flow.message.text, None if rect is None else tuple(rect)))
        flow.clock.t += flow.message_seconds
        flow.tick()
    return shown


@pytest.mark.parametrize("game,players", [("objective-cards", ["Ann", "Bob", "Cy"]), ("school", ["Ann", "Bob"])])
def test_the_tray_stays_put_while_a_moves_notes_turn_their_pages(game, players, size=(320, 240)):
    """The banner was as tall as the page on it: a page of one line after one of three moved the
    tray, the prompt and the sheet up by two lines and back with the next move's notes. It is
    now as tall as the tallest page of the move's set."""
    flow = flow_of(game, players, size)
    bot = AutoPlayer(random.Random(2))
    turned = 0
    while not flow.state.is_over:
        flow._apply(bot.next_input(flow.state))
        pages = [place for _, place in _tray_places(flow, size) if place is not None]
        assert len(set(pages)) <= 1, pages
        turned += len(pages) > 1
    assert turned                                   # (pages did turn on the play screen)


@pytest.mark.parametrize("size", [(320, 240), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_warning_the_banner_cannot_hold_is_shown_in_pages_none_cut(size):
    """Bad input's message at 320x240 ("I see 4 dice; the game needs 5 ... Fix the tray, or hold
    OK to enter the values") was cut at the banner's fourth line: the players never read what to
    do. Now it turns pages, each for the message time, and every word of it is read; where the
    banner holds it (800x480), it is shown whole, as before, for the message time alone."""
    from test_table_flow import reading
    flow = flow_of("thirteen", ["Ann", "Bob"], size)
    flow.on_reading(reading([6, 6, 2, 3]))
    full = flow.message.text
    assert "I see 4 dice" in full and "hold OK to enter" in full
    shown = []
    while flow.message is not None:
        page = flow.view().message
        assert banner_holds(page.text, "play", size)
        if not shown or shown[-1] != page.text:
            shown.append(page.text)
        flow.clock.t += flow.message_seconds / 2
        flow.tick()
    assert words(shown) == full.split()
    assert (len(shown) > 1) == (size == (320, 240))
    if len(shown) > 1:
        assert flow.view().message is None


def test_a_moves_notes_are_on_the_banner_as_it_is_made_not_behind_an_earlier_moves_pages():
    """Objective cards at 320x240: round 1's cards resolved take two pages. Bob throws a second
    after the STOP and the three cards of round 2 are committed two seconds apart. The old
    banner dropped the first page as Bob's dice were read (unread, for good), and when Bob's
    card was revealed it showed round 1's last page, Bob's card queued behind it: the players
    read "Ann captured Cy's Full house" as what Bob's card had done, and Bob's card only after
    he had thrown again. Now the first page stays while the dice are read, and the notes of
    the reveal are on the banner as it is made, nothing of round 1 after them."""
    from test_table_flow import Press, make, play_steps, settle_and_confirm
    flow, clock = make("objective-cards", ("Ann", "Bob", "Cy"))
    flow.screen_size = (320, 240)
    shown: list[str] = []

    def later(seconds: float) -> None:
        """Time passing, half a second at a time, the banner's texts noted in turn."""
        for _ in range(int(seconds * 2)):
            text = flow.message and flow.message.text
            if text and (not shown or shown[-1] != text):
                shown.append(text)
            clock.t += 0.5
            flow.tick()

    play_steps(flow, clock, [6, 6, 2, 3, 5], "TWO_PAIRS", "ONE_PAIR", "FULL_HOUSE")
    flow.on_button(Press("HOLD1"))
    flow.on_button(Press("HOLD2"))
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.action == "reroll")
    flow.on_button(Press("OK"))
    play_steps(flow, clock, [3, 3, 1], "STOP")
    round_1 = list(flow.message.pages)
    assert len(round_1) == 2 and flow.message.text == round_1[0]
    later(1)
    settle_and_confirm(flow, clock, [1, 2, 3, 4, 4])           # (counts after 2 s)
    for key in ("NO_ODDS", "ONE_PAIR", "FULL_HOUSE"):
        later(2)
        play_steps(flow, clock, key)
    assert flow.message.text == "Bob revealed No odds (4)"
    later(30)
    assert shown == [round_1[0], "Bob has chosen (kept secret).", "Cy has chosen (kept secret).",
                     "Bob revealed No odds (4)"]


def _note_sets(game: str, players: list[str], size, pace: random.Random):
    """A game played to its end by automatic players, 0.5 to 3 s (`pace`) between a move and
    the next, the dice through the camera's path (read, shown, counted after 1.5 s): for each
    move that wrote notes, its pages as the banner holds them, the time until the next move
    that wrote notes (None: none came), and the banner's texts in that time, in turn."""
    from controller.table import CONFIRM
    from controller.table_banner import new_notes as _new_notes
    from display.render import note_pages
    from test_table_flow import reading
    flow = flow_of(game, players, size)
    bot = AutoPlayer(random.Random(2))
    sets, notes = [], flow.state.sheet().notes

    def watch() -> None:
        """A new set when the game has new notes; the banner's text to the set's."""
        nonlocal notes
        new = _new_notes(notes, flow.state.sheet().notes)
        notes = flow.state.sheet().notes
        if new:
            if sets:
                sets[-1][1] = flow.clock.t - sets[-1][3]
            sets.append([note_pages(new, "final" if flow.phase == OVER else "play", size), None, [], flow.clock.t])
        text = flow.view().message and flow.view().message.text
        if sets and text and (not sets[-1][2] or sets[-1][2][-1] != text):
            sets[-1][2].append(text)

    while not flow.state.is_over:
        data = bot.next_input(flow.state)
        if data["type"] == "dice":
            flow.on_reading(reading(list(flow.expect.held) + list(data["values"])))
        else:
            flow._apply(data)
        watch()
        while flow.phase == CONFIRM or flow.state.is_over and flow.message is not None:
            flow.clock.t += 0.5
            flow.tick()
            watch()
        for _ in range(pace.randint(1, 6)):
            flow.clock.t += 0.5
            flow.tick()
            watch()
    return [(pages, lasted, shown) for pages, lasted, shown, _ in sets]


@pytest.mark.parametrize("game,players", [("school", ["Ann", "Bob"]), ("poknroll", ["Ann", "Bob", "Cy", "Dee"]),
                                          ("objective-cards", ["Ann", "Bob", "Cy"]), ("thirteen", ["Ann", "Bob"])])
def test_in_fast_play_the_banner_shows_the_newest_moves_notes_whole_and_no_earlier_ones(game, players,
                                                                                        size=(320, 240)):
    """Moves made faster than a move's pages turn (0.5 to 3 s apart): in the old code a move's
    notes waited behind the pages still to come of the moves before (up to 3.5 s in Pok'n Roll),
    and a page went, unread, as the next dice were read. Now each move's notes are on the banner from the move on, their pages in turn,
    nothing of an earlier move among them, and every page shown when the next move with notes
    comes after them. (Classic's rounds take longer than their note: not here.)"""
    sets = _note_sets(game, players, size, random.Random(7))
    assert any(lasted is not None and lasted < len(pages) * 6.0 for pages, lasted, _ in sets)   # (fast)
    for pages, lasted, shown in sets:
        assert shown == pages[:len(shown)], (pages, shown)
        if lasted is None or lasted >= len(pages) * 6.0:
            assert shown == pages, (pages, lasted, shown)
