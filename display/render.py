"""`render(surface, view)`: draw one TableView. Pure drawing: no state, no game knowledge.

Layout (landscape): the tray and the question on the left, the score sheet on the right; a
message banner across the top when the table has something to say; the final standings in big
type when the game is over.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Sequence

import pygame

from . import menu_cue, theme
from .banner_beside import banner_over_sheet
from .banner_fit import banner_pages
from .device_names import on_screen
from .caption_fit import caption_lines
from .card import card_frame, card_layout, draw_card
from .draw import bgr_to_surface, fit_rect, panel, text, wrap
from .final_fit import FinalFit, final_fit
from .labels import distinct_cuts
from .menu_question import menu_question
from .question_room import question_room
from .menu_rows import menu_label, menu_window, row_heights, row_texts
from .prompt_fit import prompt_fit
from .prompt_parts import question_start, whole_part_lines
from .setup_fit import row_rooms, rows_room
from .sheet import draw_sheet
from .status_fit import status_line, title_room
from .tray_things import draw_things
from .word_break import wrap_whole
from .view import DieMark, HelpView, MessageView, PromptView, TableView, TrayView


def render(surface: pygame.Surface, view: TableView) -> None:
    """Draw the whole view."""
    render_static(surface, view)
    render_tray(surface, view)


def _frame(surface: pygame.Surface) -> tuple[float, int, pygame.Rect]:
    """The scale, the header's height and the body's rect of a screen this size."""
    s = theme.scale(surface)
    w, h = surface.get_size()
    margin = int(10 * s)
    header_h = int(52 * s)
    return s, header_h, pygame.Rect(margin, header_h + margin, w - 2 * margin, h - header_h - 2 * margin)


def _play_columns(body: pygame.Rect, s: float, banner_h: int = 0, prompt_need: int | None = None,
                  menu: bool = True, idle: bool = False) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """The play screen's tray, the lower left (banner and prompt) and the sheet's column. A
    message banner (`banner_h` high) takes the room the prompt leaves empty (it needs
    `prompt_need`; None: all it has) first, then up to 2/5 of the tray's height, then the rest
    from the prompt. (Under the banner the prompt once kept room for only two menu rows, even at
    1920x1080; then the banner took the tray's room while a short prompt left its panel
    two-thirds empty: the camera image 375 px wide at 1920 rather than 535.) A prompt with no
    menu (`menu` False) also takes what it lacks from the tray when the same 2/5 are enough for
    it to show whole (a correction's at 320x240), never to show a few more of its lines. Over an
    `idle` tray (nothing on it to read) the prompt takes what it lacks, menu rows too, up to 3/4
    of the tray's height."""
    margin = int(10 * s)
    left_w = int(body.width * 0.42)
    tray_h = int(body.height * 0.48)
    lower_h = body.height - tray_h - margin
    spare = lower_h if prompt_need is None else max(0, lower_h - prompt_need)
    cap = tray_h * 3 // 4 if idle else tray_h * 2 // 5
    if prompt_need is not None and (idle or not menu and banner_h + prompt_need - lower_h <= cap):
        spare = lower_h - prompt_need       # (then all of it shows; else the tray keeps its room)
    tray_h -= min(max(0, banner_h - spare), cap)
    tray = pygame.Rect(body.x, body.y, left_w, tray_h)
    lower = pygame.Rect(body.x, body.y + tray_h + margin, left_w, body.height - tray_h - margin)
    right = pygame.Rect(body.x + left_w + margin, body.y, body.width - left_w - margin, body.height)
    return tray, lower, right


def _columns_for(surface: pygame.Surface, view: TableView) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """`_play_columns` of this screen with this view's banner and prompt. A prompt with no menu
    (a correction, a reading to check) takes up to 2/5 of the tray's height when its panel is
    too short for it: at 320x240 the correction's prompt showed "Correct die 1: UP..." and
    none of its hint (hold OK: done, what BACK does), over a tray whose caption already names
    the dice. (A menu scrolls in the room it has: the tray keeps its size for it, unless the
    tray has nothing to show but the camera's picture.)"""
    s, _, body = _frame(surface)
    left_w = int(body.width * 0.42)
    if _tray_idle(view.tray) and view.prompt is not None and view.prompt.options:
        # a menu over a tray with nothing on it to read (Objective cards' secret card, chosen
        # before the throw): at 320x240 the menu showed one of its five cards at a time
        need = _prompt_need(view.prompt, left_w, s, _players(view))
        banner_h = _banner_layout(view.message, left_w, s)[2] if view.message else 0
        return _play_columns(body, s, banner_h, need, idle=True)
    prompt, beside, need = _prompt_placed(surface, view)
    if not view.message or beside:
        if prompt is not None and not prompt.options:
            return _play_columns(body, s, 0, need, menu=False)
        return _question_whole(body, s, 0, prompt, _play_columns(body, s), _players(view))
    banner_h = _banner_layout(view.message, left_w, s)[2]
    return _question_whole(body, s, banner_h, prompt,
                           _play_columns(body, s, banner_h, need, menu=prompt is None or bool(prompt.options)),
                           _players(view))


def _question_whole(body: pygame.Rect, s: float, banner_h: int, prompt: PromptView | None,
                    columns: tuple[pygame.Rect, pygame.Rect, pygame.Rect], players: Sequence[str]
                    ) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """`columns`, or where the question over a menu cannot be read whole in them (under a
    banner, or over a cursor's row with a note: Thirteen's "Bob: choose a c..." at 320x240) the
    columns with the tray giving up what the question's fewest lines and the cursor's row lack,
    when 2/5 of the tray's height are enough (display.question_room)."""
    least = _question_least(prompt, columns[1].width, s, players)
    if least is None or columns[1].height - banner_h >= least:
        return columns
    taken = _play_columns(body, s, banner_h, least, menu=False)
    return taken if taken[1].height - banner_h >= least else columns


def _question_least(prompt: PromptView | None, width: int, s: float, players: Sequence[str]) -> int | None:
    """The least height of a prompt panel `width` wide that shows the question over `prompt`'s
    menu whole over its cursor's row (display.question_room); None with no menu, or no form of
    the question in three lines."""
    if prompt is None or not prompt.options:
        return None
    pad, big, text_step, _, _, line_h = _prompt_metrics(s)
    inner = width - 2 * pad
    prompt = prompt_apart(prompt, players, inner, s)
    heights = row_heights(prompt.options, inner, theme.legible(30, s), line_h)
    sel = next((i for i, o in enumerate(prompt.options) if o.selected), 0)
    return question_room(prompt.text, lambda q: wrap(q, big, inner, bold=True), pad, text_step, int(6 * s),
                         heights[sel])


def _prompt_placed(surface: pygame.Surface, view: TableView) -> tuple[PromptView | None, bool, int]:
    """The prompt this play view shows (its `short` form where the whole question is cut),
    whether its banner goes at the top of the sheet's column (display.banner_beside), and the
    height to ask of the lower left for it. At 320x240 a reading's question (*Is this right?
    Check die 4 (outlined): I am not sure of it. OK accepts · hold OK to correct · BACK to throw
    again*) showed *Is this right? Check die 4*, and under a glare banner, in a 58 px panel,
    *Is this right? Ch...*: what to press was never on screen. The question shows whole under
    the banner if it can, else alone with the banner beside; else the same in its short form
    (the dice to check left to the banner and to their outlines and tags on the tray). Only
    for a prompt with no menu; the banner stays put while the HINT card has the sheet's place
    (its pages are counted for the whole column)."""
    prompt = view.prompt
    s, _, body = _frame(surface)
    left_w = int(body.width * 0.42)
    players = _players(view)
    if prompt is None or prompt.options:
        need = _prompt_need(prompt, left_w, s, players)
        if view.message and not view.help and not _tray_idle(view.tray) \
                and _menu_banner_beside(body, s, prompt, view.message, need, players):
            return prompt, True, need
        return prompt, False, need
    banner_h = _banner_layout(view.message, left_w, s)[2] if view.message else 0
    forms = [prompt] + [replace(prompt, text=prompt.short)] * bool(prompt.short)
    for form in forms:
        need, least = _prompt_need(form, left_w, s, players), _prompt_least(form, left_w, s, players)
        for asked in (need, least):
            _, under, right = _play_columns(body, s, banner_h, asked, menu=False)
            if under.height - banner_h >= least:
                return form, False, asked
        if view.message and not view.help:
            over_sheet = _banner_layout(view.message, right.width, s)[2]
            # (the whole hint too where the tray can spare it: a secret choice's gate under "Cy has
            # chosen" at 320x240 kept "press OK to see..." in a panel 8 px short of its second line)
            for asked in (need, least):
                _, alone, _ = _play_columns(body, s, 0, asked, menu=False)
                if banner_over_sheet(alone.height >= asked, over_sheet, right.height):
                    return form, True, asked
    form = forms[-1]
    return form, False, _prompt_need(form, left_w, s, players)


def _menu_banner_beside(body: pygame.Rect, s: float, prompt: PromptView | None, message: MessageView, need: int,
                        players: Sequence[str]) -> bool:
    """Whether a banner goes at the top of the sheet's column over a menu's prompt: where under
    it the question cannot be read whole over the cursor's row, even with the tray's 2/5 (at
    320x240 Thirteen's "Bob: choose a c..." under "Ann scored 40 in 4 of a kind after throw 2"),
    and alone it can (display.banner_beside, display.question_room)."""
    least = _question_least(prompt, int(body.width * 0.42), s, players)
    if least is None:
        return False
    banner_h = _banner_layout(message, int(body.width * 0.42), s)[2]
    under = _question_whole(body, s, banner_h, prompt, _play_columns(body, s, banner_h, need), players)[1]
    if under.height - banner_h >= least:
        return False
    alone = _question_whole(body, s, 0, prompt, _play_columns(body, s), players)
    over_sheet = _banner_layout(message, alone[2].width, s)[2]
    return banner_over_sheet(alone[1].height >= least, over_sheet, alone[2].height)


def _prompt_least(prompt: PromptView | None, width: int, s: float, players: Sequence[str] = ()) -> int:
    """The height a prompt with no menu needs for its question whole and its hint's first line
    (the hint's others joined onto it and cut with "...", as `_prompt` draws them)."""
    if prompt is None:
        return 0
    pad, big, text_step, hint_size, hint_step, _ = _prompt_metrics(s)
    prompt = prompt_apart(prompt, players, width - 2 * pad, s)
    lines = len(wrap(prompt.text, big, width - 2 * pad, bold=True))
    return 2 * pad + lines * text_step + hint_step * bool(_hint_lines(prompt.hint, hint_size, width - 2 * pad))


def _tray_idle(tray: TrayView | None) -> bool:
    """Whether the tray shows only the camera's picture: no die outlined, no caption (no dice
    to read, hold or check: a choice made before the throw)."""
    return tray is not None and tray.image is not None and not tray.dice and not tray.caption


def _players(view: TableView) -> tuple[str, ...]:
    """The players of the game on screen, in seat order (none on the setup menu)."""
    return tuple((view.sheet or {}).get("players") or ())


def _prompt_need(prompt: PromptView | None, width: int, s: float, players: Sequence[str] = ()) -> int:
    """The height `_prompt` needs to show `prompt` whole (every menu row, no "more")."""
    if prompt is None:
        return 0
    pad, big, text_step, hint_size, hint_step, row_h = _prompt_metrics(s)
    prompt = prompt_apart(prompt, players, width - 2 * pad, s)
    # (a menu keeps three of the question's lines; with none the question shows whole, as `_prompt`
    # draws it: counted as three, a reading's six-line question at 320x240 was cut to three)
    questions = wrap(prompt.text, big, width - 2 * pad, bold=True)
    need = 2 * pad + len(questions[:3] if prompt.options else questions) * text_step
    need += hint_step * len(_hint_lines(prompt.hint, hint_size, width - 2 * pad))
    if prompt.options:
        need += int(6 * s) + sum(row_heights(prompt.options, width - 2 * pad, theme.legible(30, s), row_h))
    return need


def prompt_apart(prompt: PromptView, players: Sequence[str], width: int, s: float) -> PromptView:
    """`prompt` with its player's name cut apart from the other `players`' where a word of it is
    wider than a line of the panel (`width`): wrapped alone on a line and cut at its end,
    "Maximilian-Alexandra: your choice is secret" began "Maximilian-Alex...", which her
    neighbour Maximilian-Alexander could be as well."""
    if not prompt.player or prompt.player not in players:
        return prompt
    _, big, _, hint_size, _, _ = _prompt_metrics(s)
    return replace(prompt, text=_name_apart(prompt.text, prompt.player, players, theme.font(big, True), width),
                   hint=_name_apart(prompt.hint, prompt.player, players, theme.font(hint_size), width))


def _name_apart(line: str, player: str, players: Sequence[str], font: pygame.font.Font, width: int) -> str:
    """`line` with `player`'s name cut apart from the others' where a word of it does not fit
    `width` in `font` with the "'s:" after it."""
    room = width - font.size("'s:")[0]
    if player not in line or all(font.size(word)[0] <= room for word in player.split()):
        return line
    return line.replace(player, distinct_cuts(list(players), font, max(1, room))[list(players).index(player)])


def _prompt_metrics(s: float) -> tuple[int, int, int, int, int, int]:
    """The prompt panel's padding, text size and line step, hint size and line step, menu row
    height: one place for `_prompt`, which draws with them, and `_prompt_need`, which measures."""
    # (the sizes `text` draws at: at 320x240 the question was wrapped and stepped for 18 px type
    # drawn at 20, and the menu's 20 px labels stepped by 17 px rows)
    big = theme.legible(36, s)
    hint_size = theme.legible(26, s)
    row_h = max(int(34 * s), int(theme.min_text(s) * 1.1))
    return int(12 * s), big, int(big * 0.95), hint_size, int(hint_size * 1.12), row_h


def tray_rect(surface: pygame.Surface, view: TableView) -> pygame.Rect | None:
    """Where the camera image goes, on a play screen (None on the others)."""
    if view.mode != "play":
        return None
    return _columns_for(surface, view)[0]


def render_static(surface: pygame.Surface, view: TableView) -> None:
    """Everything but the tray: what changes a few times a minute (sheet, prompt, banner), where
    the tray's camera image changes every frame (see `Screen.show`)."""
    s, header_h, body = _frame(surface)
    surface.fill(theme.BG)
    w, h = surface.get_size()
    margin = int(10 * s)
    # (the title takes the room the status can spare: display.status_fit)
    title = text(surface, view.title, (margin, margin), int(44 * s), theme.TEXT, bold=True,
                 max_width=title_room(view.title, view.status, w, 4 * margin, theme.min_text(s), _players(view)))
    if view.status:
        # a long status keeps its first part (where the game is) and its last (what to do now),
        # then only the last, then its longest start that fits, in type no smaller than the least
        # legible, cut only as a last resort (display.status_fit)
        room = w - title.right - 3 * margin
        size, line = status_line(view.status, int(34 * s), theme.min_text(s), room, _players(view))
        text(surface, line, (w - margin, margin + int(4 * s)), size, theme.ACCENT,
             anchor="topright", max_width=room, min_size=size)
    if view.mode == "final":
        _final(surface, view, body, s)
    elif view.mode == "setup":
        if view.message:
            # above the rows, not over them: the first row is often the one under the cursor
            _banner(surface, view.message, pygame.Rect(body.x, body.y, body.width, body.height), s)
            body = _under_banner(body, view.message, s)
        if view.help:
            draw_card(surface, view.help, body, s)
        else:
            _setup(surface, view, body, s)
    else:
        _, lower, right = _columns_for(surface, view)
        prompt, beside, _ = _prompt_placed(surface, view)
        if view.message and beside:
            used = _banner(surface, view.message, right, s)
            right = pygame.Rect(right.x, right.y + used, right.width, right.height - used)
        elif view.message:
            used = _banner(surface, view.message, lower, s)
            lower = pygame.Rect(lower.x, lower.y + used, lower.width, lower.height - used)
        _prompt(surface, prompt, lower, s, _players(view))
        _sheet_or_help(surface, view, right, s)


def render_tray(surface: pygame.Surface, view: TableView) -> pygame.Rect | None:
    """The tray (camera image, dice outlined, caption) inside its own rect, which it paints
    whole and never draws outside; returns that rect (None when the screen has no tray)."""
    rect = tray_rect(surface, view)
    if rect is None:
        return None
    clip = surface.get_clip()
    surface.set_clip(rect)
    try:
        _tray(surface, view.tray, rect, theme.scale(surface))
    finally:
        surface.set_clip(clip)
    return rect


def _tray(surface: pygame.Surface, tray: TrayView | None, rect: pygame.Rect, s: float) -> None:
    panel(surface, rect, theme.PANEL)
    if tray is None or tray.image is None:
        text(surface, "No camera image", rect.center, int(30 * s), theme.MUTED, anchor="center")
        return
    img = tray.image
    ih, iw = img.shape[:2]
    # (on two lines where one would cut it: its values whole, the picture a line shorter)
    captions = caption_lines(tray.caption, theme.min_text(s), rect.width - int(20 * s))
    caption_step = theme.font(max(int(34 * s), theme.min_text(s)), True).get_linesize()
    caption_h = int(38 * s) + (len(captions) - 1) * caption_step if captions else 0
    area = pygame.Rect(rect.x + 4, rect.y + 4, rect.width - 8, rect.height - 8 - caption_h)
    dst = fit_rect((iw, ih), area)
    if dst.width < 1 or dst.height < 1:
        return                           # no room for the image (a screen far too flat): nothing to draw
    surf = pygame.transform.smoothscale(bgr_to_surface(img), dst.size)
    surface.blit(surf, dst)
    k = dst.width / iw
    draw_things(surface, tray.things, dst, k, s)
    boxes = [pygame.Rect(dst.x + int(m.box[0] * k), dst.y + int(m.box[1] * k), max(4, int((m.box[2] - m.box[0]) * k)),
                         max(4, int((m.box[3] - m.box[1]) * k))) for m in tray.dice]
    marks = tray_marks(tray, boxes, dst, s, area)
    held_font = theme.font(theme.min_text(s), True)
    held_word, held_short = (held_font.render(w, True, theme.BG) for w in ("HELD", HELD_LETTER))
    # a HELD mark narrower than the word is the letter (`tray_marks` chose it for want of room);
    # a die too small even for the letter is its own mark (`HeldDie`): filled, under every tag
    held_tags = [None if h is None else (held_word if h.width >= held_word.get_width() + 6
                                         and not isinstance(h, HeldDie) else held_short)
                 for *_, h in marks]
    for *_, held_rect in marks:
        if isinstance(held_rect, HeldDie) and held_rect.width > 0:
            pygame.draw.rect(surface, theme.HELD, held_rect)
            pygame.draw.rect(surface, theme.BG, held_rect, 1)
    for mark, r, (tag, tag_rect, badge, held_rect), held_tag in zip(tray.dice, boxes, marks, held_tags):
        colour = theme.DOUBT if mark.doubtful else (theme.HELD if mark.held else theme.SCORE)
        width, outline = max(2, int(4 * s)), r.inflate(6, 6)
        if mark.selected:
            # twice as thick (outwards, off the face): the cursor's yellow and a sure die's green
            # are one colour to a red-green colour-blind player
            colour, outline, width = theme.ACCENT, outline.inflate(2 * width, 2 * width), 2 * width
        elif held_tag is held_short:
            width *= 2                    # no room for the word: the letter, a thick frame (inwards: no room taken)
        pygame.draw.rect(surface, colour, outline, width, border_radius=6)
        pygame.draw.rect(surface, colour, tag_rect.inflate(8, 2), border_radius=5)
        if isinstance(held_rect, HeldDie):      # (ringed, as the letter's pill was: not by colour alone)
            pygame.draw.rect(surface, theme.BG, tag_rect.inflate(8, 2), 1, border_radius=5)
        surface.blit(tag, tag_rect)
        if badge is not None:
            num, badge_rect = badge
            pygame.draw.circle(surface, theme.HELD if mark.held else theme.TEXT, badge_rect.center,
                               badge_rect.width // 2)
            surface.blit(num, num.get_rect(center=badge_rect.center))
    for (*_, held_rect), held_tag in zip(marks, held_tags):   # last: on its own die, never left off
        if held_rect is not None and not isinstance(held_rect, HeldDie):
            pygame.draw.rect(surface, theme.HELD, held_rect, border_radius=4)
            pygame.draw.rect(surface, theme.BG, held_rect, 1, border_radius=4)
            surface.blit(held_tag, held_tag.get_rect(center=held_rect.center))
    for i, line in enumerate(captions):
        text(surface, line, (rect.x + int(10 * s), rect.bottom - caption_h + i * caption_step), int(34 * s),
             theme.TEXT, bold=True, max_width=rect.width - int(20 * s))


def tray_marks(tray: TrayView, boxes: list[pygame.Rect], dst: pygame.Rect, s: float,
               room: pygame.Rect | None = None) -> list[tuple]:
    """Per die (its box in `boxes`): its face tag and the tag's rect (above the die, below it at
    the image's top), its HOLD disc ((number, rect), or None), its HELD mark's rect (or None).

    A disc covers no face tag, its own included (placed avoiding only the others, "3" hid a
    poker die's own "J"), no other die and no disc before it. The HELD mark goes on its own
    die, centred: placed beside a disc it sat under the next die (read as that die held), and
    with no room beside (under a banner) it was left off; moved up or down on it off another
    held die's (`apart_held`). Where the word still covers another die, its face tag or a disc
    (small or touching dice, a tray squeezed by a banner: "K" was hidden under HELD), the die
    gets the short mark instead (`held_letter`), and `_tray` draws its frame twice as thick.
    Where even the letter covers another die, a tag, a disc or another held mark wherever it
    goes on its die (~10 px dice, a tray squeezed by a banner over a long menu: the H of the
    middle of three held dice in a column lay over those above and below), the die is its own
    mark (`HeldDie`), filled in the held colour inside its thick frame, its face tag ringed.
    Face tags and discs are placed by `place_labels`, inside `room` (the tray's picture area;
    by default `dst`, the image). (Trays whose marks covered nothing are drawn as before, to the pixel.)"""
    tags, badges = place_labels(tray, boxes, dst if room is None else room, s)
    held_size = theme.font(theme.min_text(s), True).size("HELD")
    out = []
    for i, (mark, r) in enumerate(zip(tray.dice, boxes)):
        badge = badges[i]
        held_rect = None
        if mark.held:
            held_rect = pygame.Rect(0, 0, held_size[0] + 6, held_size[1] + 2)
            held_rect.center = r.center
        out.append((tags[i][0], tags[i][1], badge, held_rect))
    out = apart_held(out, boxes)
    letter = theme.font(theme.min_text(s), True).size(HELD_LETTER)
    for i, (tag, tag_rect, badge, held_rect) in enumerate(out):
        if held_rect is None:
            continue
        others = [b for j, b in enumerate(boxes) if j != i] + [t.inflate(8, 2) for j, (_, t) in enumerate(tags)
                                                                 if j != i]
        discs = [m[2][1] for j, m in enumerate(out) if j != i and m[2] is not None]
        held = [m[3] for j, m in enumerate(out) if j != i and m[3] is not None]     # (the later ones: words yet)
        if held_rect.collidelist(others + discs + held) >= 0:
            avoid = others + discs + [m[3] for m in out[:i] if m[3] is not None]
            short = held_letter(boxes[i], letter, avoid)
            if short.collidelist(avoid) >= 0:
                short = held_die(boxes[i], [b for j, b in enumerate(boxes) if j != i])
            out[i] = (tag, tag_rect, badge, short)
    return out


class HeldDie(pygame.Rect):
    """The HELD mark of a die too small even for the letter: the die's own box, filled (in a
    thick frame, under every face tag and disc), never over another die."""


def held_die(r: pygame.Rect, others: list[pygame.Rect]) -> HeldDie:
    """The die at `r` as its own HELD mark: its box, shrunk off any other die's it overlaps (dice
    a pixel apart rounded onto each other on a 320x240 screen), empty if it cannot be."""
    rect = pygame.Rect(r)
    while rect.collidelist(others) >= 0 and min(rect.size) > 2:
        rect.inflate_ip(-2, -2)
    if rect.collidelist(others) >= 0:
        rect = pygame.Rect(r.center, (0, 0))
    return HeldDie(rect)


HELD_LETTER = "H"


def held_letter(r: pygame.Rect, size: tuple[int, int], others: list[pygame.Rect]) -> pygame.Rect:
    """The rect of the short HELD mark (`HELD_LETTER` in a pill, type `size`) on the die at `r`,
    for a die too crowded for the word: the word covered the next die and its face tag, hiding
    its value. Centred on the die, else slid across or up or down it off `others` (other dice, their tags),
    its centre always on its own die; the die's thick frame says it is held as well."""
    rect = pygame.Rect(0, 0, size[0] + 6, size[1] + 2)
    rect.center = r.center
    if rect.collidelist(others) < 0:
        return rect
    for d in range(1, max(r.width, r.height) // 2):
        for step in ((d, 0), (-d, 0), (0, -d), (0, d)):
            moved = rect.move(step)
            if r.collidepoint(moved.center) and moved.collidelist(others) < 0:
                return moved
    return rect


def apart_held(marks: list[tuple], boxes: list[pygame.Rect]) -> list[tuple]:
    """`marks` with no HELD mark over another: a mark wider than its die (small dice, a tray
    squeezed by a banner) ran into the next held die's ("HELDHELD" on two held dice side by
    side). The later one goes below the earlier one, or above it, whichever moves them less,
    the later one first and the earlier one for the rest, every mark's centre staying on its
    own die; where even that does not part them they stay as they were."""
    rects = [m[3] for m in marks]
    for i in range(len(rects)):
        for j in range(i):
            mine, other = rects[i], rects[j]
            if mine is None or other is None or not mine.colliderect(other):
                continue
            options = []
            for sign in (1, -1):                                 # mine below the other, or above it
                need = other.bottom + 1 - mine.top if sign > 0 else mine.bottom + 1 - other.top
                room_mine = boxes[i].bottom - 1 - mine.centery if sign > 0 else mine.centery - boxes[i].top
                room_other = other.centery - boxes[j].top if sign > 0 else boxes[j].bottom - 1 - other.centery
                move = min(need, max(0, room_mine))
                rest = need - move
                moved = other.move(0, -sign * rest)
                if rest <= max(0, room_other) and not any(moved.colliderect(rects[k]) for k in range(i)
                                                          if k != j and rects[k] is not None):
                    options.append((need, mine.move(0, sign * move), moved))
            if options:
                _, rects[i], rects[j] = min(options, key=lambda o: o[0])
    return [(tag, tag_rect, badge, held) for (tag, tag_rect, badge, _), held in zip(marks, rects)]


def face_tag(mark: DieMark) -> str:
    """The face tag's text: a die read unsurely says so, "3?" (its orange outline alone was one
    colour with the sure dice's green to a red-green colour-blind player). A die outlined only
    for the lamp's glare but read surely has no "?": the reader is sure of it."""
    return mark.label if not mark.doubtful or mark.sure or mark.label.endswith("?") else mark.label + "?"


# Type of the face tags and HOLD numbers, as a share of their usual size, tried in turn until
# every die's tag and number has a place of its own (10 dice touching on a 320x240 screen);
# never below `theme.MIN_FONT`.
LABEL_SCALES = (1.0, 0.85, 0.72, 0.6, 0.5, 0.4)


def place_labels(tray: TrayView, boxes: list[pygame.Rect], room: pygame.Rect, s: float
                 ) -> tuple[list[tuple[pygame.Surface, pygame.Rect]], list[tuple[pygame.Surface, pygame.Rect] | None]]:
    """Each die's face tag (type, rect of the text; its pill is the rect `.inflate(8, 2)`) and
    HOLD disc (number, rect; None for a die without one), none over another and all inside
    `room`. Die 1's "6", drawn above it, was half hidden under the disc of die 3 touching it
    from above (School, the demo), and tags ran off the image at its edges and into each other
    in a column. Tags first (the values), each above its die, else below, left or right, else
    the nearest free place; then the discs (`hold_badge`). Where some label finds no free place,
    all are drawn smaller (`LABEL_SCALES`); at the smallest, the last try is kept."""
    for k in LABEL_SCALES:
        tags, discs, free = _place_labels_at(tray, boxes, room, s, k)
        if free:
            break
    return tags, discs


def _place_labels_at(tray: TrayView, boxes: list[pygame.Rect], room: pygame.Rect, s: float, k: float
                     ) -> tuple[list, list, bool]:
    """`place_labels` with type at `k` times its usual size; the last item: every label placed
    free of the others and inside `room`."""
    free, labels, tags = True, [], []
    for i, (mark, r) in enumerate(zip(tray.dice, boxes)):
        size = max(theme.MIN_FONT, int(max(int(30 * s), theme.min_text(s), int(r.height * 0.55)) * k))
        tag = theme.font(size, True).render(face_tag(mark), True, theme.BG)
        dice = [b.inflate(6, 6) for j, b in enumerate(boxes) if j != i]
        pill = place_tag(tag.get_rect().inflate(8, 2), r, room, dice, labels)
        free = free and room.contains(pill) and pill.collidelist(labels) < 0
        labels.append(pill)
        tags.append((tag, pill.inflate(-8, -2)))
    discs = []
    for i, (mark, r) in enumerate(zip(tray.dice, boxes)):
        if not mark.position:
            discs.append(None)
            continue
        # which HOLD button is this die's: a disc of its own under the die, else beside or
        # above it, never on another die (a small disc at every outline's left sat on the
        # corner of the die before it when dice were staggered); blue when the die is held
        others = [b.inflate(6, 6) for j, b in enumerate(boxes) if j != i]
        badge = hold_badge(mark.position, r, room, others + labels, s, k, labels)
        free = free and room.contains(badge[1]) and badge[1].collidelist(labels) < 0
        labels.append(badge[1])
        discs.append(badge)
    return tags, discs, free


def place_tag(pill: pygame.Rect, r: pygame.Rect, room: pygame.Rect, dice: list[pygame.Rect],
              labels: list[pygame.Rect]) -> pygame.Rect:
    """The face tag's pill (size of `pill`) for the die at `r`: above it (below it at the top
    of `room`, as it always was) where it covers no label, else below, left or right of it off
    the other `dice` and `labels`, else the nearest free place (over a die if it must), else
    above it, moved into `room`."""
    above = pill.copy()
    above.midbottom = (r.centerx, r.y - 1)
    if above.top < room.top:
        above.top = r.bottom + 1
    if room.contains(above) and above.collidelist(labels) < 0:
        return above
    beside = place_beside(pill, r, room, dice + labels + [r], gap=1)
    if beside is not None:
        return beside
    near = nearest_free(pill.size, r, room, dice + labels + [r]) or nearest_free(pill.size, r, room, labels)
    return near if near is not None else above.clamp(room)


def nearest_free(size: tuple[int, int], r: pygame.Rect, room: pygame.Rect, avoid: list[pygame.Rect]
                 ) -> pygame.Rect | None:
    """A rect of `size` inside `room`, touching none of `avoid`, its centre as near the centre of
    `r` as a few-pixel grid allows (None: no such place)."""
    w, h = size
    if w > room.width or h > room.height:
        return None
    step = max(2, min(w, h) // 4)
    xs = sorted(set(range(room.left, room.right - w + 1, step)) | {room.right - w})
    ys = sorted(set(range(room.top, room.bottom - h + 1, step)) | {room.bottom - h})
    cx, cy = r.center
    spots = sorted(((x + w / 2 - cx) ** 2 + (y + h / 2 - cy) ** 2, x, y) for x in xs for y in ys)
    for _, x, y in spots:
        rect = pygame.Rect(x, y, w, h)
        if rect.collidelist(avoid) < 0:
            return rect
    return None


def hold_badge(position: int, r: pygame.Rect, area: pygame.Rect, avoid: list[pygame.Rect],
               s: float, k: float = 1.0, labels: list[pygame.Rect] | None = None
               ) -> tuple[pygame.Surface, pygame.Rect]:
    """The HOLD number of a die drawn at `r` (type at `k` times its usual size) and the disc it
    goes in: under the die, else left, right or above it, the first place inside `area` that
    touches none of `avoid` (the other dice, the face tags, the discs drawn so far); else the
    nearest place off them and its own die, else the nearest off `labels` (tags and discs: it
    may cover a die, never a label: on its own die's lower edge it hid die 1's "6" above which
    it lay); when none is free, on the die's own lower edge (never on another die), moved down
    off its own face tag if it would cover it."""
    img = theme.font(max(theme.MIN_FONT, int(max(int(42 * s), 26) * k)), True).render(str(position), True, theme.BG)
    side = max(img.get_width(), img.get_height()) + 2
    rect = place_beside(pygame.Rect(0, 0, side, side), r, area, avoid)
    if rect is None:
        rect = nearest_free((side, side), r, area, avoid + [r])
    if rect is None and labels is not None:
        rect = nearest_free((side, side), r, area, labels)
    if rect is None:
        rect = pygame.Rect(0, 0, side, side)
        rect.midbottom = (r.centerx, r.bottom - 2)
        for tag in avoid:
            if rect.colliderect(tag) and tag.bottom <= r.top + 2:      # a tag over a die smaller than the disc
                rect.top = tag.bottom + 1
    return img, rect


def place_beside(rect: pygame.Rect, r: pygame.Rect, area: pygame.Rect, avoid: list[pygame.Rect],
                 gap: int = 4) -> pygame.Rect | None:
    """`rect` moved under `r`, else left, right or above it: the first place inside `area` that
    touches none of `avoid` (None: nowhere)."""
    for anchor, point in (("midtop", (r.centerx, r.bottom + gap)), ("midright", (r.left - gap, r.centery)),
                          ("midleft", (r.right + gap, r.centery)), ("midbottom", (r.centerx, r.top - gap))):
        moved = rect.copy()
        setattr(moved, anchor, point)
        if area.contains(moved) and moved.collidelist(avoid) < 0:
            return moved
    return None


def _prompt(surface: pygame.Surface, prompt: PromptView | None, rect: pygame.Rect, s: float,
            players: Sequence[str] = ()) -> None:
    panel(surface, rect, theme.PANEL)
    if prompt is None:
        return
    pad, big, text_step, hint_size, hint_step, line_h = _prompt_metrics(s)
    x, y, width = rect.x + pad, rect.y + pad, rect.width - 2 * pad
    prompt = prompt_apart(prompt, players, width, s)
    # (the hints and "more below" were 17 and 14 px at 800x480, the hint's overflow shrunk further:
    # not readable from the table; now at the legible minimum, on as many lines as they take: the
    # menu scrolls in the rows left)
    more_size = theme.min_text(s)
    more_w = theme.font(more_size).size("more below")[0] + int(16 * s)
    questions = wrap(prompt.text, big, width, bold=True)
    # a menu keeps its rows: the question has three lines at most above it; with no menu (a reading
    # to confirm), as many as the panel holds: "Is this right? Check dice 1, 2, 3, 4 and 5 ...
    # BACK to throw again" lost its fourth line, "throw again", in a half-empty panel
    cap = min(len(questions), 3 if prompt.options else len(questions))
    hints = _hint_lines(prompt.hint, hint_size, width)
    heights = row_heights(prompt.options, width, theme.legible(30, s), line_h)
    sel = next((i for i, o in enumerate(prompt.options) if o.selected), 0)
    cursor_h = heights[sel] if heights else line_h

    def need(t: int, h: int, marked: bool, lines: Sequence[str] | None = None) -> int:
        # ("more above" and "more below" at the ends of the question's and the hint's last lines, when
        # those are whole and leave room; lines of their own, else; `lines`: the question's, when
        # not all of `questions`)
        lines = questions if lines is None else lines
        inline = (0 < t == len(lines) and theme.font(big, True).size(lines[-1])[0] + more_w <= width
                  and 0 < h == len(hints) and theme.font(hint_size).size(hints[-1])[0] + more_w <= width)
        more_h = int(more_size * 1.1) if marked else 0
        return t * text_step + h * hint_step + _menu_least(prompt, cursor_h, int(6 * s), more_h, inline)

    def kept(t: int, h: int, marked: bool) -> tuple[list[str], bool, int]:
        # the question kept to `t` lines, whether it is cut there, and the hint's lines left beside it
        # (a question kept to a shorter start may leave the hint a line more)
        lines, cut = _question_kept(prompt.text, questions, t, big, width)
        while h < len(hints) and need(len(lines), h + 1, marked) <= rect.height - 2 * pad:
            h += 1
        return lines, cut, h

    def hint_whole(h: int) -> bool:
        return h == len(hints) or bool(whole_part_lines(prompt.hint, hints, h))

    def laid_out(question_first: bool) -> tuple[list[str], int, bool, int]:
        # the question's lines and the hint's count drawn, the "more" lines, and how many of the two are cut
        n_text, n_hint, marked = prompt_fit(cap, len(hints), rect.height - 2 * pad, need,
                                            keys_in_question=question_first)
        lines, cut, n_hint = kept(n_text, n_hint, marked)
        if n_hint and not hint_whole(n_hint) and not (prompt.short and not prompt.options):
            # where the hint's first part would be cut, a shorter start of the question that leaves it
            # whole: "Ann: throw 3 dice again" and "Throw, then let the dice settle" rather than
            # "Ann: throw 3 dice again (throw 2 of 3)" and "Throw, then l..." (never a question that
            # says what to press: "Is this right? OK accepts · hold OK to correct ..." keeps its keys)
            for t in range(n_text - 1, 0, -1):
                shorter, shorter_cut, h = kept(t, n_hint, marked)
                if not shorter_cut and hint_whole(h):
                    lines, cut, n_hint = shorter, False, h
                    break
        # (cut on its one line, the question loses who acts and what: that counts in a tie)
        return (lines, n_hint, marked, 2 * (cut + (0 < n_hint and not hint_whole(n_hint))) + (cut and len(lines) == 1),
                cut)

    # the hint's later lines go before the question's, as they did; with no menu the question's go
    # first where that cuts fewer of the two, or as many but not the question on its one line: at
    # 320x240 "Ann: throw all 5..." was cut beside three lines of hint, Classic's "Ann: throw the
    # o..." beside a blank line (a secret choice's "... press OK to see your choices" keeps its hint)
    layout = laid_out(bool(prompt.short) and not prompt.options)
    if not prompt.options and not prompt.short:
        question_first = laid_out(True)
        if question_first[3] < layout[3]:
            layout = question_first
    if prompt.options and layout[4]:
        # (a question over a menu before the hint: "Ann: choose a r..." over two lines of hint)
        layout = _over_menu(prompt, hints, rect.height - 2 * pad, cap, lambda q: wrap(q, big, width, bold=True),
                            need, line_h) or layout
    questions, n_hint, marked = layout[:3]
    hints = _hint_kept(prompt.hint, hints, n_hint)
    last = pygame.Rect(x, y, width, 0)
    for line in questions:
        last = text(surface, line, (x, y), big, theme.ACCENT, bold=True, max_width=width)
        y += text_step
    hint_h = hint_step * len(hints)
    # "more above"/"more below" go at the end of the prompt's last line and of the hint's last
    # line when those leave room: lines of their own cost a menu row under a banner
    above_inline = last.width + more_w <= width
    below_inline = bool(hints) and theme.font(hint_size).size(hints[-1])[0] + more_w <= width
    if prompt.options:
        y += int(6 * s)
        # ("more below" has a line of its own: over the last row it hid that row's points)
        fits = rect.bottom - pad - hint_h - y >= sum(heights)
        more_h = 0 if fits or below_inline or not marked else int(more_size * 1.05)
        room_h = rect.bottom - pad - hint_h - more_h - y
        start, end = menu_window(heights, sel, room_h)
        above_words = start > 0 and (marked or above_inline)
        if above_words:
            # (a line of its own under the prompt: drawn in the panel's corner it ran into the
            # prompt's text on a small screen; at the end of the question's last line it is drawn
            # once the cue below is known)
            if not above_inline:
                text(surface, "more above", (rect.right - pad, y), more_size, theme.MUTED, anchor="topright")
                y += int(more_size * 1.1)
                room_h = rect.bottom - pad - hint_h - more_h - y
            start, end = menu_window(heights, sel, room_h)
        # rows hidden where the words find no room: the rows give up a margin for a triangle
        # (display.menu_cue; at 320x240 nothing said that the menu went on)
        rows_w = width
        if (start > 0 and not above_words) or (end < len(prompt.options) and not (marked or below_inline)):
            narrow = width - menu_cue.gutter(s)
            narrow_heights = row_heights(prompt.options, menu_cue.text_width(width, narrow), theme.legible(30, s),
                                         line_h, menu_cue.points_gap(theme.legible(30, s)))
            # (never where the cursor's row would take a line more than the room: its note under it)
            if narrow_heights[sel] <= max(room_h, heights[sel]):
                rows_w, heights = narrow, narrow_heights
                start, end = menu_window(heights, sel, room_h)
        # a triangle for either end, triangles for both: "more above" at the end of the question's
        # last line over a triangle pointing down read as two different cues (menu_cue.one_kind)
        above_words = menu_cue.one_kind(above_words, rows_w < width)
        if above_words and above_inline:
            text(surface, "more above", (rect.right - pad, last.bottom), more_size, theme.MUTED,
                 anchor="bottomright")
        shown = prompt.options[start:end]
        first_row = last_row = None
        for i, opt in enumerate(shown, start):
            label_w = menu_cue.label_room(opt, width, rows_w, theme.legible(30, s))
            opt = menu_label(opt, rows_w, theme.min_text(s), label_w)
            lines = row_texts(opt, menu_cue.text_width(width, rows_w), theme.legible(30, s),
                              menu_cue.points_gap(theme.legible(30, s)) if rows_w < width else None)
            row = pygame.Rect(x - 4, y, rows_w + 8, heights[i] - 2)
            first_row, last_row = (row if first_row is None else first_row), row
            if opt.selected:
                pygame.draw.rect(surface, theme.ACCENT, row, border_radius=6)
            colour = theme.BG if opt.selected else (theme.TEXT if opt.enabled else theme.MUTED)
            size = int(30 * s)
            room = label_w if len(lines) > 1 or not opt.note else None
            label = text(surface, lines[0], (x + 4, y + line_h // 2), size, colour, bold=opt.selected,
                         anchor="midleft", max_width=room)
            if len(lines) > 1:      # the note on a line of its own, under the label
                text(surface, lines[1], (x + 4 + int(16 * s), y + line_h + line_h // 2), size, colour,
                     bold=opt.selected, anchor="midleft", max_width=rows_w - 8 - int(16 * s))
            if not opt.enabled:
                strike_out(surface, label, colour, s)
            if opt.points is not None:
                pc = theme.BG if opt.selected else theme.PREVIEW
                right = x + rows_w - menu_cue.points_inset(width, rows_w)
                text(surface, str(opt.points), (right, y + line_h // 2), size, pc, bold=True, anchor="midright")
            y += heights[i]
        below_words = menu_cue.one_kind(end < len(prompt.options) and (marked or below_inline), rows_w < width)
        if rows_w < width and first_row is not None:
            menu_cue.draw_cue(surface, x + width + 4, first_row if start > 0 and not above_words else None,
                              last_row if end < len(prompt.options) and not below_words else None, s)
        if below_words:
            if below_inline:
                text(surface, "more below", (rect.right - pad, rect.bottom - pad), more_size, theme.MUTED,
                     anchor="bottomright")
            else:
                text(surface, "more below", (rect.right - pad, rect.bottom - pad - hint_h), more_size,
                     theme.MUTED, anchor="bottomright")
    for i, line in enumerate(hints):
        text(surface, line, (x, rect.bottom - pad - hint_h + int(2 * s) + i * hint_step), hint_size, theme.MUTED,
             max_width=width)


def _over_menu(prompt: PromptView, hints: list[str], height: int, cap: int, lines_of: Callable[[str], list[str]],
               need: Callable[..., int], row_h: int) -> tuple[list[str], int, bool] | None:
    """The question's lines, the hint's count and whether the menu's "more" lines are drawn, for a
    menu whose question `_prompt`'s usual order cuts: the question whole first (in the fewest words
    of display.menu_question where the game's leave no room for the whole hint and a second row of
    the menu, `row_h`), then the
    menu's cursor row, then the hint's first whole parts, then the "more" lines, all within
    `height` as `need(question lines, hint lines, more, lines)` counts them. None where no form
    of the question fits whole."""
    most = max((t for t in range(1, cap + 1) if need(t, 0, False) <= height), default=0)
    lines = menu_question(prompt.text, lines_of, most,
                          lambda t: need(t, len(hints), False) + row_h <= height) if most else None
    if lines is None:
        return None
    t = len(lines)
    n_hint = max((h for h in range(len(hints) + 1) if need(t, h, False, lines) <= height), default=0)
    if n_hint < len(hints):
        n_hint = whole_part_lines(prompt.hint, hints, n_hint)
    return lines, n_hint, need(t, n_hint, True, lines) <= height


def _question_kept(question: str, lines: list[str], n_text: int, big: int, width: int) -> tuple[list[str], bool]:
    """The question's lines drawn when only `n_text` of its `lines` fit, and whether the last is
    cut: its longest start that ends a sentence or a clause (display.prompt_parts); where none
    fits, what does not goes on the last line kept, cut there with "..." (the player sees there
    is more)."""
    if not 0 < n_text < len(lines):
        return lines[:n_text], False
    start = question_start(question, lambda q: len(wrap(q, big, width, bold=True)) <= n_text)
    if start:
        return wrap(start, big, width, bold=True), False
    return lines[:n_text - 1] + [" ".join(lines[n_text - 1:])], True


def _hint_kept(hint: str, lines: list[str], n_hint: int) -> list[str]:
    """The hint's lines drawn when only `n_hint` of its `lines` fit: its first whole parts; where
    not even the first fits, the rest on the last line kept, cut there with "..."."""
    if not 0 < n_hint < len(lines):
        return lines[:n_hint]
    whole = whole_part_lines(hint, lines, n_hint)
    return lines[:whole] if whole else lines[:n_hint - 1] + [hint_rest(hint, lines, n_hint - 1)]


def strike_out(surface: pygame.Surface, label: pygame.Rect, colour, s: float) -> None:
    """A line through a menu entry the rules would refuse now (`OptionView.enabled` False:
    "Keep all" where a throw is due). Its grey alone told it from the others' white, 2:1, and
    under the cursor nothing did: the same black on yellow, refused only once OK was pressed."""
    y = label.top + label.height * 11 // 20          # the middle of the letters' x-height
    pygame.draw.line(surface, colour, (label.left, y), (label.right - 1, y), max(2, int(3 * s)))


def _menu_least(prompt: PromptView, row_h: int, gap: int, more_h: int, more_inline: bool) -> int:
    """The least height the menu takes: its cursor's row (`row_h`: two lines for a note under it),
    and "more above" and "more below" on lines of their own when it may have rows not shown and
    they find no room at the ends of the question's and the hint's last lines (`more_inline`)."""
    if not prompt.options:
        return 0
    return gap + row_h + (2 * more_h if len(prompt.options) > 1 and not more_inline else 0)


def _hint_lines(hint: str, size: int, width: int) -> list[str]:
    """The buttons' hint in lines that fit `width`, broken between its " · " parts (a whole hint
    shrunk onto one line of a small screen was too small to read across a table), every part on
    a line: what a player is not told, he cannot do ("hold OK: correct Maximiliana's dice" and
    "HINT: how to play" were left off a hint cut at 2 lines under a menu, 3 without). A part too
    wide for a line alone goes on between its words ("hold OK: play again (8 names)" on the setup
    menu: cut, it hid the names and the parts after it). Never shrunk: the overflow put on the
    last line used to be, to 10 px at 800x480."""
    if not hint:
        return []
    f = theme.font(size)
    lines: list[str] = []
    for part in hint.split(" · "):
        if lines and f.size(f"{lines[-1]} · {part}")[0] <= width:
            lines[-1] = f"{lines[-1]} · {part}"
        elif f.size(part)[0] > width:
            lines.extend(wrap(part, size, width))
        else:
            lines.append(part)
    return lines


def hint_rest(hint: str, lines: Sequence[str], k: int) -> str:
    """The hint from its line `k` (of `lines`, `_hint_lines` of it) to its end, as written: the
    lines left off are put on the last line kept, cut there with "...". Joined by " · ", a part
    wrapped over two lines read "Taken only with OK: the · g..." (480x320, a glare reading)."""
    pos = 0
    for line in lines[:k + 1]:
        at = hint.find(line, pos)
        if at < 0:
            return " · ".join(lines[k:])
        pos = at + len(line)
    return hint[at:]


BANNER_LINES = 4      # the most lines a banner draws: a longer message loses its end


def _banner_lines(text: str, width: int, s: float) -> tuple[int, list[str]]:
    """The banner's type size and all the lines of `text`: in type from 30 down to 24 (x scale,
    never below the legible minimum) so that the message takes as few lines as it can; a word
    too wide for a line (a device's path) broken into lines (display.word_break), never shrunk
    and cut."""
    least = theme.min_text(s)
    text = on_screen(text)      # (a device's by-id path in plain words: display.device_names)
    for size in range(max(int(30 * s), least), max(int(24 * s), least) - 1, -1):
        lines = wrap_whole(text, size, width - int(24 * s), bold=True)
        if len(lines) <= 2:
            break
    return size, lines


def _banner_layout(message: MessageView, width: int, s: float) -> tuple[int, list[str], int]:
    """The banner's type size, lines (at most `BANNER_LINES`) and height (with the gap under it):
    the height of the tallest of the pages it turns with (`MessageView.pages`), so that the
    tray, the sheet or the standings under it stay put while the pages turn (a page of one
    line after one of four moved them up by three lines, and back with the next move's notes)."""
    size, lines = _banner_lines(message.text, width, s)
    lines = lines[:BANNER_LINES]
    return size, lines, max([_banner_height(message.text, width, s)]
                            + [_banner_height(page, width, s) for page in message.pages])


def _banner_height(text: str, width: int, s: float) -> int:
    """The height of a banner of `width` drawing `text`, with the gap under it."""
    size, lines = _banner_lines(text, width, s)
    return size * len(lines[:BANNER_LINES]) + int(12 * s) + int(8 * s)


@lru_cache(maxsize=8)
def _banner_width(mode: str, size: tuple[int, int]) -> tuple[float, int]:
    """The scale of a screen of `size` and the width of its `mode` screen's banner: the play
    screen's lower left; the final screen's standings panel or, when they need the room, the
    sheet's column (the narrower)."""
    surface = pygame.Surface(size)
    s, _, body = _frame(surface)
    if mode == "final":
        left, right = _final_columns(body, s)
        return s, min(left.width - 2 * int(10 * s), right.width)
    return s, _play_columns(body, s)[1].width


def banner_holds(text: str, mode: str, size: tuple[int, int]) -> bool:
    """Whether `text` is drawn whole in the banner of a `mode` ("play" or "final") screen of `size`."""
    s, width = _banner_width(mode, tuple(size))
    return len(_banner_lines(text, width, s)[1]) <= BANNER_LINES


def note_pages(notes: Sequence[str], mode: str, size: tuple[int, int]) -> list[str]:
    """A move's notes as pages that the banner of a `mode` screen of `size` draws whole, for the
    controller to show in turn (display.banner_fit)."""
    return list(_note_pages(tuple(notes), mode, tuple(size)))


@lru_cache(maxsize=64)
def _note_pages(notes: tuple[str, ...], mode: str, size: tuple[int, int]) -> tuple[str, ...]:
    """(`note_pages`, measured once: the final screen asks for its tie-break's every frame)"""
    # (in screen words before it is cut into pages: a path's command cut between two pages
    # was not found on either)
    return tuple(banner_pages([on_screen(note) for note in notes], lambda text: banner_holds(text, mode, size)))


def _banner(surface: pygame.Surface, message: MessageView, area: pygame.Rect, s: float) -> int:
    """A message box at the top of `area`; returns the height it took (plus a gap)."""
    colour = {"warning": theme.WARN_BG, "error": theme.ERROR_BG}.get(message.level, theme.INFO_BG)
    size, lines, used = _banner_layout(message, area.width, s)
    rect = pygame.Rect(area.x, area.y, area.width, used - int(8 * s))
    pygame.draw.rect(surface, colour, rect, border_radius=10)
    pygame.draw.rect(surface, theme.TEXT, rect, 2, border_radius=10)
    y = rect.y + int(6 * s)
    for line in lines:
        text(surface, line, (rect.centerx, y), size, theme.TEXT, bold=True, anchor="midtop",
             max_width=rect.width - int(16 * s))
        y += size
    return used


def _final_columns(body: pygame.Rect, s: float) -> tuple[pygame.Rect, pygame.Rect]:
    """The final screen's standings and the sheet's column."""
    left = pygame.Rect(body.x, body.y, int(body.width * 0.45), body.height)
    gap = int(10 * s)
    return left, pygame.Rect(left.right + gap, body.y, body.right - left.right - gap, body.height)


def _final(surface: pygame.Surface, view: TableView, body: pygame.Rect, s: float) -> None:
    left, right = _final_columns(body, s)
    panel(surface, left)
    pad = int(10 * s)
    # names the font draws alike ("??") told apart by the seat numbers of the sheet's header
    seated = list((view.sheet or {}).get("players") or [])
    names = [st.name for st in view.standings]
    seats = [seated.index(n) + 1 if n in seated else i + 1 for i, n in enumerate(names)]
    whole = distinct_cuts(names, theme.font(theme.min_text(s), True), 10 ** 6, seats)
    winners = [(label, seat) for st, label, seat in zip(view.standings, whole, seats) if st.winner]
    # what the buttons do now (a new game; undo the last choice), at the panel's foot
    hint_size = theme.legible(28, s)
    hint_step = int(hint_size * 1.2)
    hints = view.prompt.hint.split(" · ") if view.prompt and view.prompt.hint else []
    # each part on the lines it takes (at 320x240 "hold OK: correct Maximilianus's dice" was cut
    # to "hold OK: correct...", whose dice never said): counted in lines by `need`; on one line
    # each, cut, as before, where the lines would leave off a part that one line each keeps
    wrapped = [wrap(part, hint_size, left.width - int(40 * s)) or [part] for part in hints]
    hint_lines = wrapped
    head_width = left.width - int(32 * s)
    message = view.message

    def heading(fit: FinalFit) -> tuple[int, list[str], int]:
        size, lines = winners_heading(winners, theme.min_text(s) if fit.small_heading else int(56 * s),
                                      theme.min_text(s), head_width, list(zip(whole, seats)))
        return size, lines, int(60 * s) if size == int(56 * s) else int(size * 1.1)

    def need(fit: FinalFit) -> int:
        top = pad + _banner_layout(message, left.width - 2 * pad, s)[2] if message and fit.message_here else int(16 * s)
        _, lines, step = heading(fit)
        return (top + len(lines) * step + int(10 * s) + len(view.standings) * _least_row(s) + int(10 * s)
                + int(14 * s) + sum(map(len, hint_lines[:fit.hints])) * hint_step)

    fit = final_fit(len(hints), message is not None, left.height, need)
    if wrapped != [[part] for part in hints]:
        hint_lines = [[part] for part in hints]
        flat = final_fit(len(hints), message is not None, left.height, need)
        if flat.hints <= fit.hints:
            hint_lines = wrapped
        else:
            fit = flat
    y = left.y + int(16 * s)
    if message and fit.message_here:
        # at the top of the standings' own panel, above them: laid over the screen, "Game
        # abandoned. The log keeps every move." hid the first standing and the sheet's header
        y = left.y + pad + _banner(surface, message, pygame.Rect(left.x + pad, left.y + pad,
                                                                  left.width - 2 * pad, left.height), s)
    elif message and not view.help:
        # (over the HINT card it would hide the card's top: it is back when the card is closed)
        used = _banner(surface, message, right, s)
        right = pygame.Rect(right.x, right.y + used, right.width, right.height - used)
    head_size, head, head_step = heading(fit)
    for line in head:
        text(surface, line, (left.x + int(16 * s), y), head_size, theme.WINNER, bold=True, max_width=head_width)
        y += head_step
    y += int(10 * s)
    hints = [(line, k) for k, lines in enumerate(hint_lines[:fit.hints]) for line in lines]
    foot = left.bottom - int(14 * s) - len(hints) * hint_step
    for i, (hint, k) in enumerate(hints):
        text(surface, hint, (left.x + int(20 * s), foot + i * hint_step), hint_size,
             theme.ACCENT if k == 0 else theme.MUTED, max_width=left.width - int(40 * s))
    room = max(1, len(view.standings))
    line_h = min(int(64 * s), (foot - y - int(10 * s)) // room)
    # the names cut (at the least size `text` shrinks them to, in bold, the widest) so that they stay apart
    # in the room the score leaves them (at 320x240 "1. Maximili..." ran into its "381")
    least = theme.font(theme.min_text(s), True)
    size = max(int(line_h * 0.8), theme.min_text(s))
    widths = [min(int(left.width * 0.65), left.width - int(50 * s) - theme.font(size, True).size(str(st.score))[0])
              for st in view.standings]
    names = distinct_cuts(names, least, [w - least.size(f"{st.place}. ")[0] for st, w in zip(view.standings, widths)],
                          seats)
    for st, name, width in zip(view.standings, names, widths):
        colour = theme.WINNER if st.winner else theme.TEXT
        text(surface, f"{st.place}. {name}", (left.x + int(20 * s), y), size, colour, bold=st.winner,
             max_width=width)
        text(surface, str(st.score), (left.right - int(20 * s), y), size, colour, bold=True, anchor="topright")
        y += line_h
    _sheet_or_help(surface, view, right, s)


def _least_row(s: float) -> int:
    """The least step between two standings: the least legible type's line, and a px."""
    return theme.font(theme.min_text(s), True).get_linesize() + 1


def winners_heading(winners: list[tuple[str, int]], size: int, least: int, width: int,
                    everyone: list[tuple[str, int]] | None = None) -> tuple[int, list[str]]:
    """"Winner: Ann" (each winner's name and seat) wrapped to `width` at `size`, and that size,
    on two lines at most. Tied winners whose names take more are all on the second line, cut
    apart, at the least legible size `least`: wrapped on three lines at 320x240, "Winners:
    Maximilian, Bartholomew" was drawn without its third, the second winner left off.

    A winner's name wider than a line is cut apart from `everyone`'s (every player's name and
    seat): cut by `text` at the line's end, "Maximilian-Alexander" won as "Maximilian-Alex...",
    the name of the second, Maximilian-Alexandra, as well."""
    if not winners:
        return size, []
    if everyone:
        winners = apart_from_everyone(winners, everyone, theme.font(size, True), width)
    word = "Winner:" if len(winners) == 1 else "Winners:"
    lines = wrap(f"{word} " + ", ".join(label for label, _ in winners), size, width, bold=True)
    if len(lines) <= 2:
        return size, lines
    font = theme.font(least, True)
    each = (width - font.size(", ")[0] * (len(winners) - 1)) // len(winners)
    return least, [word, ", ".join(distinct_cuts([label for label, _ in winners], font, max(1, each),
                                                 [seat for _, seat in winners]))]


def apart_from_everyone(winners: list[tuple[str, int]], everyone: list[tuple[str, int]], font: pygame.font.Font,
                        width: int) -> list[tuple[str, int]]:
    """The winners' names (name, seat), when one has a word too wide for a line of `width` in
    `font` (with the "," after it), cut so that no other player's name would be cut alike."""
    room = width - font.size(",")[0]
    # (a name of words wider than the line together is wrapped between them, whole)
    if all(font.size(word)[0] <= room for label, _ in winners for word in label.split()):
        return winners
    cuts = dict(zip((seat for _, seat in everyone),
                    distinct_cuts([label for label, _ in everyone], font, room, [seat for _, seat in everyone])))
    return [(cuts.get(seat, label), seat) for label, seat in winners]


def _under_banner(body: pygame.Rect, message: MessageView, s: float) -> pygame.Rect:
    """The setup screen's room for its rows (or the card) under the banner of `message`."""
    used = _banner_layout(message, body.width, s)[2]
    return pygame.Rect(body.x, body.y + used, body.width, body.height - used)


def help_rect(surface: pygame.Surface, mode: str, message: MessageView | None = None) -> pygame.Rect:
    """Where the HINT card goes on this screen: in place of the menu (setup: under the banner of
    `message`, if any), else of the sheet (the play and final screens' banners are elsewhere)."""
    s, _, body = _frame(surface)
    if mode == "setup":
        return _under_banner(body, message, s) if message else body
    if mode == "final":
        return _final_columns(body, s)[1]
    return _play_columns(body, s)[2]


def help_pages(help: HelpView, mode: str, size: tuple[int, int], message: MessageView | None = None) -> int:
    """How many pages `help` takes on a screen of `size` showing `mode` (and `message`): the
    controller turns them with HINT and closes the card after the last, so it must know where
    that is. (The setup menu's banner was left out: at 320x240 under "Camera: ... Retrying..."
    School's card took 6 pages, counted 5, and its last was closed unread.)"""
    surface = pygame.Surface(size)
    frame = card_frame(help, help_rect(surface, mode, message), theme.scale(surface))
    return len(card_layout(help, frame).pages)


def _sheet_or_help(surface: pygame.Surface, view: TableView, rect: pygame.Rect, s: float) -> None:
    """The score sheet's place: the HINT card while it is asked for, else the sheet."""
    if view.help:
        draw_card(surface, view.help, rect, s)
    elif view.sheet:
        draw_sheet(surface, view.sheet, rect, s)


@dataclass(frozen=True)
class SetupFoot:
    """What the setup screen draws under its rows: the row under the cursor explained, the hint."""

    about: tuple[str, ...]               # the lines explaining the row under the cursor
    about_size: int
    about_h: int
    hints: tuple[str, ...]               # the buttons' hint, in lines
    hint_size: int
    hint_step: int
    height: int                          # the room they take at the body's foot


def _setup_foot(view: TableView, body: pygame.Rect, s: float, rows: int = 0) -> SetupFoot:
    """The setup screen's foot (one place for `_setup`, which draws it, and `setup_rows`), short
    enough to leave `rows` rows their least height (`setup_least_row`): the description's lines
    left off, the last first, then the hint's last lines (joined to the one before, cut there
    with "..."). At 320x240 under a config mistake's four-line banner, the foot left the menu
    10 px: its cursor's bar 6 px high over its words."""
    foot = _whole_setup_foot(view, body, s)
    least = rows_room(rows, setup_least_row(s), int(20 * s))
    while rows and body.height - foot.height < least and (foot.about or len(foot.hints) > 1):
        if foot.about:
            about = foot.about[:-1]
            height = foot.height - foot.about_h - (int(10 * s) if not about else 0)
            foot = replace(foot, about=about, height=height)
        else:
            hints = foot.hints[:-2] + (" · ".join(foot.hints[-2:]),)
            foot = replace(foot, hints=hints, height=foot.height - foot.hint_step)
    return foot


def _whole_setup_foot(view: TableView, body: pygame.Rect, s: float) -> SetupFoot:
    """The setup screen's foot, every line of it."""
    # what the row under the cursor means (a house rule's description), when the page title does
    # not already say it: a line of its own above the buttons' hint
    about = view.prompt.text if view.prompt and view.prompt.text != view.title else ""
    # (on two lines rather than shrunk onto one: a house rule's description of ~100 letters
    # came out at 10 px on an 800 x 480 screen)
    # (wrapped at the size it is drawn at: at 320x240 it was wrapped for 11 px and drawn at the
    # legible least, each line cut mid-sentence; a third line is joined to the second, cut with "...")
    about_size = max(int(30 * s), theme.min_text(s))
    about_lines = wrap(about[:1].upper() + about[1:], about_size, body.width - int(32 * s)) if about else []
    about_lines = about_lines[:1] + [" ".join(about_lines[1:])] if len(about_lines) > 2 else about_lines
    about_h = int(about_size * 1.15)
    # the buttons' hint on as many lines as its parts take, like the play screen's: on one line
    # shrunk to fit, "hold OK: play again (8 names)" pushed "HINT: how to play" off its end
    hint_size = theme.legible(28, s)
    hint_step = int(hint_size * 1.12)
    hint = view.prompt.hint or view.prompt.text if view.prompt else ""
    hints = _hint_lines(hint, hint_size, body.width - int(32 * s))
    foot = int(40 * s) + max(0, len(hints) - 1) * hint_step
    foot += len(about_lines) * about_h + (int(10 * s) if about_lines else 0)
    return SetupFoot(tuple(about_lines), about_size, about_h, tuple(hints), hint_size, hint_step, foot)


def setup_least_row(s: float) -> int:
    """The least height of a setup row: the cursor's bar (the row less 4 px) holding its type at
    the least legible size, a px clear above and below. At 320x240 a house rule's two lines of
    description left ten rows 13 px each: the cursor's yellow bar 9 px high under type 14 px
    high, its row unreadable."""
    return theme.font(theme.min_text(s), True).get_height() + 6


def setup_rows(view: TableView, size: tuple[int, int]) -> int:
    """How many rows the setup screen of `size` draws at `setup_least_row` or more under this
    view's banner and above its foot, for the menu to show no more than that (at least 1)."""
    return _setup_rows(view.title, view.prompt, view.message, tuple(size))


@lru_cache(maxsize=32)
def _setup_rows(title: str, prompt: PromptView | None, message: MessageView | None, size: tuple[int, int]) -> int:
    surface = pygame.Surface(size)
    s, _, body = _frame(surface)
    if message:
        body = _under_banner(body, message, s)
    foot = _setup_foot(TableView("setup", title, prompt=prompt), body, s)
    return max(1, (body.height - foot.height) // setup_least_row(s) - 1)


def _setup(surface: pygame.Surface, view: TableView, body: pygame.Rect, s: float) -> None:
    panel(surface, body)
    y = body.y + int(20 * s)
    foot = _setup_foot(view, body, s, len(view.setup))
    line_h = min(int(60 * s), max(1, (body.height - foot.height) // max(1, len(view.setup) + 1)))
    if line_h < setup_least_row(s) and view.setup:
        # (a foot kept whole under a long banner: the rows at their least height under the top margin)
        line_h = max(1, (body.height - foot.height - int(20 * s)) // len(view.setup))
    size = max(int(line_h * 0.75), theme.min_text(s))
    for item in view.setup:
        row = pygame.Rect(body.x + int(16 * s), y, body.width - int(32 * s), line_h - 4)
        if item.selected:
            pygame.draw.rect(surface, theme.ACCENT, row, border_radius=8)
        colour = theme.BG if item.selected else theme.TEXT
        # (the label takes the room its value leaves: "Two pairs accepts ful... yes" at 320x240)
        label_room, value_room = row_rooms(item.label, item.value, size, row.width - 2 * int(12 * s), int(16 * s))
        text(surface, item.label, (row.x + int(12 * s), row.centery), size, colour, bold=True, anchor="midleft",
             max_width=label_room)
        text(surface, item.value, (row.right - int(12 * s), row.centery), size, colour, anchor="midright",
             max_width=value_room)
        y += line_h
    for i, line in enumerate(foot.about):
        text(surface, line, (body.x + int(16 * s), body.bottom - foot.height + int(4 * s) + i * foot.about_h),
             foot.about_size, theme.ACCENT, max_width=body.width - int(32 * s))
    for i, line in enumerate(foot.hints):
        text(surface, line, (body.x + int(16 * s),
                             body.bottom - int(40 * s) - (len(foot.hints) - 1 - i) * foot.hint_step),
             foot.hint_size, theme.MUTED, max_width=body.width - int(32 * s))
