"""A panel of only UP, DOWN and OK: a long UP is BACK, a long DOWN is ABANDON.

The example config tells café staff that three buttons are enough. They are for playing (every
decision is on the menu), but without BACK a choice scored by mistake could not be taken back,
and without ABANDON a game the players leave could never be ended: the journal would bring it
back after every restart. A long press of UP or DOWN does nothing else (the cursor moves on a
short press), so it can stand for them on any panel; the screen's hints name the long press only
where the panel is known to lack the button.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from hardware.buttons import HOLD, PRESS

#: a long press of the key stands for a short press of the value
LONG_PRESS_STANDS_FOR = {"UP": "BACK", "DOWN": "ABANDON"}


def aliased(kind: str, name: str) -> tuple[str, str]:
    """A button event's (kind, name) as the table takes it: a long UP or DOWN is a BACK or an ABANDON."""
    stands_for = LONG_PRESS_STANDS_FOR.get(name)
    if kind == HOLD and stands_for is not None:
        return PRESS, stands_for
    return kind, name


def panel_buttons(buttons: Mapping[str, Any]) -> frozenset[str] | None:
    """The buttons a `[buttons]` config is known to have, or None when it cannot say.

    Only GPIO panels list theirs (their pins); a button box, a keyboard or a script may send any.
    Several sources together have the buttons of all of them, but a keyboard beside a panel or a
    box is the staff's spare (plugged in to set the table up, as `dicetable check` counts it): the
    screen names the buttons the players have, and a three-button panel with the example config's
    keyboard was told to press BACK and HINT.
    """
    kind = buttons.get("type")
    if kind == "gpio":
        pins = buttons.get("pins")
        return frozenset(pins) if isinstance(pins, Mapping) else None
    if kind == "multi":
        sources = [s for s in buttons.get("sources", ()) if isinstance(s, Mapping)]
        names: set[str] = set()
        for source in [s for s in sources if s.get("type") != "keyboard"] or sources:
            found = panel_buttons(source)
            if found is None:
                return None
            names |= found
        return frozenset(names)
    return None


def button_words(panel: frozenset[str] | None) -> dict[str, str]:
    """What the screen calls BACK and ABANDON on this panel: the button, or the long press for it."""
    words = {name: name for name in LONG_PRESS_STANDS_FOR.values()}
    if panel is not None:
        for key, name in LONG_PRESS_STANDS_FOR.items():
            if name not in panel:
                words[name] = f"hold {key}"
    return words


def has_hold_buttons(panel: frozenset[str] | None) -> bool:
    """Whether this panel may have HOLD1..5 (else the dice are held with the menu's die lines)."""
    return panel is None or any(name.startswith("HOLD") for name in panel)


def has_button(panel: frozenset[str] | None, name: str) -> bool:
    """Whether this panel may have the button `name` (a hint must not send players to one it lacks)."""
    return panel is None or name in panel


def without_missing(hint: str, panel: frozenset[str] | None, names: tuple[str, ...]) -> str:
    """`hint` ("UP/DOWN choose · HINT: how to play") without the parts that start with one of the
    buttons `names` this panel is known to lack."""
    parts = [p for p in hint.split(" · ") if not any(p.startswith(n) and not has_button(panel, n) for n in names)]
    return " · ".join(parts)


def reworded(text: str, words: Mapping[str, str]) -> str:
    """`text` with BACK and ABANDON named as this panel has them ("Press BACK" → "Hold UP")."""
    for name, word in words.items():
        if word != name:
            text = re.sub(rf"\bPress {name}\b", word[0].upper() + word[1:], text)
            text = re.sub(rf"\b{name}\b", word, text)
    return text
