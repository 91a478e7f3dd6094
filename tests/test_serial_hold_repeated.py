"""A button box whose firmware sends its hold again while the button stays down (`H ABANDON` every
second, as some button libraries do while a button is held), with the ABANDON button jammed (a coin
in it, a spilt drink) or held long. Each H was a hold of its own: the second one abandoned the game
("Press ABANDON again within 5 seconds" / "Game abandoned"), 2 s after the button stuck, with nobody
at the table; and since each H took its time afresh, the button was never named as stuck. Now a
hold sent again with no release between is the same hold: logged once, the game untouched, and the
button named as stuck after 10 s. Driven through the box's real reader thread on a pyserial loop://
port and the table (`TableApp`), on a virtual clock."""
from __future__ import annotations

import logging
from typing import Any

import pytest
from hw_helpers import FakeClock, box_on_loop, wait_for

from hardware.button_serial import SerialButtonSource


@pytest.fixture
def box():
    yield from box_on_loop(20.0)


def send(source: SerialButtonSource, port: Any, clock: FakeClock, data: bytes) -> None:
    """The box sends `data` (whole lines) now; returns once the reader has read them."""
    port.write(data)
    wait_for(lambda: port.in_waiting == 0 and source.last_heard == clock.t, what="the box's lines read")


def thirteen(tmp_path: Any, source: SerialButtonSource, clock: FakeClock) -> Any:
    from test_table_e2e import NoFrames, table_app

    app = table_app(tmp_path, NoFrames(), source, clock=clock)
    app.step()
    return app


def test_a_jammed_abandon_whose_box_repeats_the_hold_does_not_abandon_the_game(box, tmp_path, caplog) -> None:
    from test_table_e2e import snapshot

    source, port, clock = box
    app = thirteen(tmp_path, source, clock)
    before = snapshot(app.flow)
    with caplog.at_level(logging.INFO, logger="hardware"):
        for _ in range(12):                         # jammed for 12 s: H ABANDON every second
            send(source, port, clock, b"H ABANDON\n")
            app.step()
            clock.advance(1.0)
            app.step()
        assert not app.flow.abandoned, "the game abandoned by a button jammed down (before: at the second H)"
        assert snapshot(app.flow) == before
        assert app.device_notice().text == "Buttons: ABANDON button stuck: call staff. The other buttons work."
        send(source, port, clock, b"R ABANDON\n")  # freed
        app.step()
        app.step()
        assert app.device_notice() is None
    assert snapshot(app.flow) == before
    repeats = [r for r in caplog.records if "again with no R" in r.getMessage()]
    assert len(repeats) == 1 and source.holds_repeated == 11      # said once, not at every H


def test_two_holds_with_their_releases_are_two(box, tmp_path) -> None:
    """ABANDON held, let go, held again within 5 s: the players mean it, the game is abandoned."""
    source, port, clock = box
    app = thirteen(tmp_path, source, clock)
    for _ in range(2):
        send(source, port, clock, b"H ABANDON\n")
        app.step()
        clock.advance(0.5)
        send(source, port, clock, b"R ABANDON\n")
        app.step()
        clock.advance(0.5)
    assert app.flow.abandoned


def test_a_hold_after_its_release_was_garbled_is_a_new_hold(box) -> None:
    """The release lost to line noise: the next hold of that button is the player's, not a repeat."""
    source, port, clock = box
    send(source, port, clock, b"H OK\n")
    clock.advance(0.5)
    port.write(b"R O\x00K\n")                       # (garbage: no line understood)
    wait_for(lambda: source.garbage_count == 1, what="the garbled release read")
    clock.advance(1.0)
    send(source, port, clock, b"H OK\n")
    assert [(e.kind, e.name) for e in source.poll()] == [("hold", "OK"), ("hold", "OK")]
