"""Players' names from anywhere: Nguyễn Thị Minh, محمد, דוד, 王小明, and the ways they come in.

The bundled font has Latin-1, Latin Extended-A, Greek and Cyrillic. A Vietnamese name was drawn
"Nguy?n Th? Minh" and a config seat so named offered as "Player 1"; Hebrew and Arabic were drawn
"???" and "?ح??" although the machine's own font (DejaVu, on Raspberry Pi OS and Debian) has
their letters. The tests of letters from the machine's fonts are skipped on a machine without one.
"""
from __future__ import annotations

import unicodedata

import pygame
import pytest

from controller.config import parse_config
from controller.setup_menu import SetupMenu
from display import draw, theme

VIETNAMESE = "Nguyễn Thị Minh"


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def machine_has(ch: str) -> bool:
    """Whether the machine's DejaVu Sans (the font Raspberry Pi OS and Debian ship) has `ch`."""
    import pygame.freetype

    pygame.freetype.init()
    path = pygame.font.match_font("dejavusans", bold=True)
    return bool(path) and pygame.freetype.Font(path, 12).get_metrics(ch)[0] is not None


needs_dejavu = pytest.mark.skipif(not all(machine_has(c) for c in "ễש\ufee3"),
                                  reason="no font of this machine's has Vietnamese, Hebrew and Arabic")


def ink(s: str, size: int = 30) -> pygame.Surface:
    surface = pygame.Surface((800, 80))
    draw.text(surface, s, (0, 0), size)
    return surface


def same_ink(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


@needs_dejavu
@pytest.mark.parametrize("name", [VIETNAMESE, "Trần Văn Đức", "דוד", "محمد", "Ελένη", "Łukasz"])
def test_a_name_is_drawn_with_its_own_letters_where_a_font_of_the_machine_has_them(name):
    """Drawn "Nguy?n Th? Minh", "???", "?ح??": each letter no font drew was a question mark."""
    assert "?" not in draw.printable(name)
    assert not same_ink(ink(name), ink("?" * len(name)))


@needs_dejavu
def test_a_seat_named_in_vietnamese_in_the_config_is_offered_as_written():
    """The config's "Nguyễn Thị Minh" was warned of and offered on the menu as "Player 1"."""
    config = parse_config(f'[table]\ngame = "thirteen"\nplayers = ["{VIETNAMESE}", "محمد", "Ann"]\n')
    assert not config.warnings
    menu = SetupMenu(defaults=config.table)
    assert menu.players() == (VIETNAMESE, "محمد", "Ann")
    assert menu.message is None


@needs_dejavu
def test_hebrew_and_arabic_are_drawn_right_to_left_and_arabic_joined():
    """The screen draws left to right: "שרה" came out "הרש" backwards, Arabic's letters unjoined.
    A name's right-to-left run is reversed where it stands in the table's English line."""
    from display.glyphs import visual

    assert visual("שרה") == "הרש"
    assert visual("שרה: throw all 5 dice") == "הרש: throw all 5 dice"
    assert visual("Ann and שרה share round 1") == "Ann and הרש share round 1"
    assert visual("דוד כהן") == "ןהכ דוד"                       # two words: the second on the left
    assert visual("בן-דוד") == "דוד-ןב"
    # a list of names in the table's line keeps its order: each name is read right to left
    assert visual("Winners: שרה, דוד כהן") == "Winners: הרש, ןהכ דוד"
    # محمد: MEEM initial, HAH medial, MEEM medial, DAL final, drawn from the right
    assert visual("محمد") == "\ufeaa\ufee4\ufea4\ufee3"
    # سلام: SEEN initial, LAM-ALEF as one final ligature (ALEF joins nothing after it), MEEM alone
    assert visual("سلام") == "\ufee1\ufefc\ufeb3"
    assert visual("Zoë") == "Zoë" and visual("Дмитрий") == "Дмитрий"


@needs_dejavu
@pytest.mark.parametrize("line", ["Nguyễn: throw all 5 dice", "محمد and דוד share round 1", "Zoë", "Ann"])
def test_a_line_is_measured_as_it_is_drawn(line):
    """The layouts measure with `font.size`: a line with letters from another font must measure
    the width it is drawn at, or a name measured to fit its column overflows it."""
    for size in (20, 31, 48):
        f = theme.font(size, True)
        assert f.size(line)[0] == f.render(line, True, (255, 255, 255)).get_width()


# ------------------------------------------------------------------ names typed with the buttons
STROKED = {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L"}      # (no plain letter in their decomposition)

def _type(menu: SetupMenu, name: str) -> None:
    """Type `name` over the seat being edited as a player would: UP or DOWN to each letter's plain
    letter (the short way round), a long DOWN until its accent, OK; OK on the end mark."""
    from controller.setup_menu import END, LETTERS

    edit = menu.editing
    for letter in name + END:
        base = letter if letter in LETTERS else STROKED.get(letter) or unicodedata.normalize("NFD", letter)[0]
        current = edit.chars[edit.pos] if edit.chars[edit.pos] in LETTERS else "A"
        steps = (LETTERS.index(base) - LETTERS.index(current)) % len(LETTERS)
        for _ in range(steps if steps <= len(LETTERS) // 2 else len(LETTERS) - steps):
            menu.on_button("press", "UP" if steps <= len(LETTERS) // 2 else "DOWN")
        for _ in range(20):
            if edit.chars[edit.pos] == letter:
                break
            menu.on_button("hold", "DOWN")
        assert edit.chars[edit.pos] == letter, (name, letter, edit.chars[edit.pos])
        menu.on_button("press", "OK")


@pytest.mark.parametrize("name", ["Zoë", "Søren", "Łukasz", "José-María", "Thaïs Ñúñez", "Ștefan"])
def test_a_name_with_accents_is_typed_with_the_buttons(name):
    """The letter cycle had A-Z, a-z, digits and -'. only: Zoë could only be typed "Zoe", Søren
    "Soren". A long DOWN turns a letter into its accented forms."""
    menu = SetupMenu(defaults=parse_config('[table]\ngame = "thirteen"\nplayers = ["A", "Bob"]\n').table)
    menu.on_button("press", "OK")                    # game
    menu.on_button("press", "OK")                    # count
    while not (menu.view().setup and [i for i in menu.view().setup if i.selected][0].label == "Seat 1"):
        menu.on_button("press", "DOWN")
    menu.on_button("press", "OK")
    _type(menu, name)
    assert menu.editing is None and menu.players() == (name, "Bob")


def test_a_long_down_on_a_letter_without_accents_is_a_down_and_up_goes_on_from_the_plain_letter():
    menu = SetupMenu(defaults=parse_config('[table]\ngame = "thirteen"\nplayers = ["b", "e"]\n').table)
    menu.on_button("press", "OK")
    menu.on_button("press", "OK")
    while [i for i in menu.view().setup if i.selected][0].label != "Seat 2":
        menu.on_button("press", "DOWN")
    menu.on_button("press", "OK")
    edit = menu.editing
    menu.on_button("hold", "DOWN")
    menu.on_button("hold", "DOWN")
    assert edit.chars[0] == "é"                      # e, è, é
    menu.on_button("press", "UP")                    # from é: the letter after e
    assert edit.chars[0] == "f"
    menu.on_button("press", "BACK")                  # (cancel)
    while [i for i in menu.view().setup if i.selected][0].label != "Seat 1":
        menu.on_button("press", "UP")
    menu.on_button("press", "OK")
    menu.on_button("hold", "DOWN")                   # b has no accents: a DOWN, as before
    assert menu.editing.chars[0] == "a"


@needs_dejavu
@pytest.mark.parametrize("letters", ["Ễ", "ễ", "ỄỆ", "Ậ", "ỵ", "כהן"])
def test_a_letter_from_another_font_is_drawn_whole_within_its_line(letters):
    """DejaVu's letters are taller than the bundled font's: Ễ (two marks over a capital) stood
    above the line and its marks were cut off, and Hebrew's ן below it. Its run is drawn smaller
    where a letter stands above the line, the line taller where one reaches below: the ink drawn
    is the glyphs' ink."""
    for size in (20, 31, 64):
        f = theme.font(size, True)
        line = f.render(letters, True, (255, 255, 255))
        (fb, _), = f._runs(letters)                  # the machine's font, as the line uses it
        whole = fb.render(letters, True, (255, 255, 255))
        drawn = int((pygame.surfarray.array_alpha(line) > 0).sum())
        ink = int((pygame.surfarray.array_alpha(whole) > 0).sum())
        assert drawn == ink, (size, letters, drawn, ink)


# ------------------------------------------------------------------ names no font of the machine draws
def no_font_has(ch: str) -> bool:
    from controller.names import undrawable

    return undrawable(ch) == ch


needs_no_cjk = pytest.mark.skipif(not (no_font_has("王") and no_font_has("🎲")),
                                  reason="this machine has a font with Chinese letters or emoji")


@needs_no_cjk
def test_an_emoji_after_a_name_is_left_out_and_each_seat_without_letters_said():
    """"Zoë 🎲" in the config was offered as "Player 1" (the emoji no font draws cost her her
    name), and of two such seats the menu said only the last."""
    config = parse_config('[table]\ngame = "classic"\nplayers = ["Zoë 🎲", "王小明", "Ann", "🎲🎲"]\n')
    assert "'Zoë'" in config.warnings[0] and "Player 2" in config.warnings[1]
    menu = SetupMenu(defaults=config.table)
    assert menu.players()[:4] == ("Zoë", "Player 2", "Ann", "Player 4")
    said = menu.message.text
    assert all(f"Seat {n}'s" in said for n in (1, 2, 4)) and "Seat 3" not in said, said


@needs_no_cjk
def test_a_name_left_without_its_emoji_that_another_seat_has_takes_a_free_name():
    menu = SetupMenu(defaults=parse_config('[table]\ngame = "classic"\nplayers = ["Ann", "Ann 🎲"]\n').table)
    assert menu.players()[:2] == ("Ann", "Player 2")


# ------------------------------------------------------------------ names written apart, drawn alike
@pytest.mark.parametrize("size", [(320, 240), (800, 480), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("pair", [("Anna", "\u0410nna"), ("Elena", "\u0415lena"), ("Pavel", "Pave\u04cf")],
                         ids=["Cyrillic A", "Cyrillic E", "Cyrillic palochka"])
def test_two_names_drawn_alike_over_the_sheet_are_told_apart(pair, size):
    """A seat typed on a Russian keyboard ("Аnna": its А Cyrillic) is another name than "Anna"
    but is drawn the same: the two columns were headed "Anna" and "Anna", the players could not
    tell whose was whose. Names are told apart as drawn, not as written."""
    from display import sheet as sheet_module
    from test_names_on_screen import drawn

    names = [pair[0], pair[1], "Bob"]
    table = {"columns": names, "rows": [{"label": "Round 1", "cells": [{"text": "3", "kind": "score"}] * 3}]}
    surface = pygame.Surface(size)
    with pytest.MonkeyPatch.context() as mp:
        seen = drawn(mp, sheet_module)
        sheet_module.draw_table(surface, table, pygame.Rect(0, 0, int(size[0] * 0.55), size[1]),
                                theme.scale(surface), names)
    (a, _), (b, _) = seen[:2]
    # as a player reads them (a Cyrillic А is a pixel narrower than a Latin A, no more)
    read = str.maketrans("\u0410\u0415\u04cf", "AEl")
    assert a.translate(read) != b.translate(read), (a, b)
