"""Greek and Cyrillic names typed with the buttons, Latin ones no slower.

The letter cycle had A-Z, a-z, digits and -'. (a long DOWN: a letter's accents): Ελένη and
Дмитрий could not be typed at all, though the screen draws both. A long DOWN on the "_" that
ends the name turns that letter's alphabet (Latin, Greek, Cyrillic); UP/DOWN go through it, and
the next letter keeps it. Presses measured with the strategy below (fewest UP/DOWN the short way
round, long DOWNs, one OK a letter and one to end): Zoë 91, Søren 138, José-María 229 as before;
Ελένη 129, Дмитрий 223, Γιώργος 155 (none before: not reachable).
"""
from __future__ import annotations

import unicodedata

import pytest

from controller.config import parse_config
from controller.setup_menu import END, SetupMenu

STROKED = {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L"}


def _open_seat(players: str, seat: str = "Seat 1") -> SetupMenu:
    menu = SetupMenu(defaults=parse_config(f'[table]\ngame = "thirteen"\nplayers = [{players}]\n').table)
    menu.on_button("press", "OK")                    # game
    menu.on_button("press", "OK")                    # count
    while [i for i in menu.view().setup if i.selected][0].label != seat:
        menu.on_button("press", "DOWN")
    menu.on_button("press", "OK")
    return menu


def _cycle(menu: SetupMenu) -> tuple[str, ...]:
    from controller import setup_menu

    edit = menu.editing
    if hasattr(setup_menu, "letter_cycle"):
        return setup_menu.letter_cycle(edit.alphabet)
    return setup_menu.LETTERS


def _step(menu: SetupMenu, target: str) -> int:
    """UP or DOWN, the short way round, from the letter under the cursor to `target`; the presses."""
    edit = menu.editing
    cycle = _cycle(menu)
    current = edit.chars[edit.pos]
    current = current if current in cycle else (STROKED.get(current) or unicodedata.normalize("NFD", current)[0])
    steps = (cycle.index(target) - cycle.index(current)) % len(cycle)
    up = steps <= len(cycle) // 2
    for _ in range(steps if up else len(cycle) - steps):
        menu.on_button("press", "UP" if up else "DOWN")
    return steps if up else len(cycle) - steps


def _type(menu: SetupMenu, name: str) -> int:
    """Type `name` over the seat being edited as a player would, each letter reached from what is
    under the cursor; the presses it took."""
    edit = menu.editing
    presses = 0
    for letter in name + END:
        base = STROKED.get(letter) or unicodedata.normalize("NFD", letter)[0]
        if base not in _cycle(menu) and edit.chars[edit.pos] != END:
            presses += _step(menu, END)              # another alphabet: by the end mark
        for _ in range(3):                           # on the end mark: the letter's alphabet
            if base in _cycle(menu):
                break
            menu.on_button("hold", "DOWN")
            presses += 1
        assert base in _cycle(menu), (name, letter)
        presses += _step(menu, base)
        for _ in range(20):
            if edit.chars[edit.pos] == letter:
                break
            menu.on_button("hold", "DOWN")
            presses += 1
        assert edit.chars[edit.pos] == letter, (name, letter, edit.chars[edit.pos])
        menu.on_button("press", "OK")
        presses += 1
    return presses


@pytest.mark.parametrize("name", ["Ελένη", "Γιώργος", "Дмитрий", "Ёлка", "Ігор", "Їжак", "Zoë Ελένη", "Анна-Мария"])
def test_a_greek_or_cyrillic_name_is_typed_with_the_buttons(name):
    menu = _open_seat('"A", "Bob"')
    _type(menu, name)
    assert menu.editing is None and menu.players() == (name, "Bob")


def test_the_next_letter_keeps_the_alphabet_and_the_prompt_names_it():
    menu = _open_seat('"A", "Bob"')
    menu.on_button("press", "OK")                    # past "A": the end mark
    assert "Greek, Cyrillic" in menu.view().prompt.hint
    menu.on_button("hold", "DOWN")                   # Greek
    assert "(Greek letters)" in menu.view().prompt.text
    menu.on_button("press", "UP")
    assert menu.editing.chars[1] == "Α"              # Greek capital alpha, not Latin A
    menu.on_button("press", "OK")
    menu.on_button("press", "UP")
    assert menu.editing.chars[2] == "Α"              # the next letter: Greek too
    menu.on_button("press", "OK")
    menu.on_button("hold", "DOWN")                   # Cyrillic
    menu.on_button("press", "UP")
    assert menu.editing.chars[3] == "А" and "(Cyrillic letters)" in menu.view().prompt.text
    menu.on_button("press", "OK")
    menu.on_button("press", "OK")
    assert menu.players()[0] == "AΑΑА"


def test_a_greek_name_opened_again_goes_on_in_greek():
    menu = _open_seat('"Ελένη", "Bob"')
    for _ in "Ελένη":
        menu.on_button("press", "OK")
    menu.on_button("press", "DOWN")                  # from the end mark, back: Greek's last sign
    menu.on_button("press", "UP")
    menu.on_button("press", "UP")
    assert menu.editing.chars[5] == "Α"


@pytest.mark.parametrize("name, presses", [("Zoë", 91), ("Søren", 138), ("José-María", 229), ("Ann", 59)])
def test_latin_names_take_no_more_presses_than_before(name, presses):
    menu = _open_seat('"A", "Bob"')
    edit = menu.editing
    menu.on_button("press", "DOWN")                  # from "A" to the end mark: the count from an empty seat
    assert edit.chars[0] == END
    assert _type(menu, name) == presses
