"""Players' names from anywhere: Nguyễn Thị Minh, محمد, דוד, 王小明, and the ways they come in.

The bundled font has Latin-1, Latin Extended-A, Greek and Cyrillic. A Vietnamese name was drawn
"Nguy?n Th? Minh" and a config seat so named offered as "Player 1"; Hebrew and Arabic were drawn
"???" and "?ح??" although the machine's own font (DejaVu, on Raspberry Pi OS and Debian) has
their letters. The tests of letters from the machine's fonts are skipped on a machine without one.
"""
from __future__ import annotations

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
