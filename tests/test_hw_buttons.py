"""Button sources without threads: keyboard (synthetic pygame events), scripted, multi, registry."""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from hardware import BUTTON_NAMES, ButtonEvent, ButtonSource, MultiButtonSource, SourceStatus, make_button_source  # noqa: E402
from hardware.button_keyboard import KeyboardButtonSource  # noqa: E402
from hardware.button_scripted import ScriptedButtonSource, parse_script  # noqa: E402
from hw_helpers import FakeClock, kinds  # noqa: E402


def key(kind: int, code: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0)


def test_button_names() -> None:
    assert BUTTON_NAMES == ("HOLD1", "HOLD2", "HOLD3", "HOLD4", "HOLD5", "OK", "UP", "DOWN", "BACK", "ABANDON", "HINT")


# -- keyboard -----------------------------------------------------------------------------
@pytest.fixture
def keyboard() -> tuple[KeyboardButtonSource, FakeClock]:
    clock = FakeClock(10.0)
    source = KeyboardButtonSource(hold_time=0.8, clock=clock)
    source.start()
    return source, clock


@pytest.mark.parametrize(
    "code, button",
    [(pygame.K_1, "HOLD1"), (pygame.K_5, "HOLD5"), (pygame.K_RETURN, "OK"), (pygame.K_SPACE, "OK"),
     (pygame.K_UP, "UP"), (pygame.K_DOWN, "DOWN"), (pygame.K_BACKSPACE, "BACK"), (pygame.K_ESCAPE, "ABANDON"),
     (pygame.K_a, "ABANDON"), (pygame.K_h, "HINT")],
)
def test_keyboard_short_press(keyboard, code: int, button: str) -> None:
    source, clock = keyboard
    assert source.feed(key(pygame.KEYDOWN, code)) is True
    assert source.poll() == []  # nothing until the key goes up
    clock.advance(0.1)
    source.feed(key(pygame.KEYUP, code))
    events = source.poll()
    assert kinds(events) == [("press", button), ("release", button)]
    assert all(e.source == "keyboard" and e.timestamp == clock.t for e in events)


def test_keyboard_long_press_is_a_hold_not_a_press(keyboard) -> None:
    source, clock = keyboard
    source.feed(key(pygame.KEYDOWN, pygame.K_RETURN))
    clock.advance(0.5)
    assert source.poll() == []
    clock.advance(0.4)
    events = source.poll()
    assert kinds(events) == [("hold", "OK")]
    assert events[0].timestamp == pytest.approx(10.8)
    source.feed(key(pygame.KEYDOWN, pygame.K_RETURN))  # key repeat while held: ignored
    clock.advance(1.0)
    assert source.poll() == []  # one hold per press
    source.feed(key(pygame.KEYUP, pygame.K_RETURN))
    assert kinds(source.poll()) == [("release", "OK")]


def test_keyboard_key_held_down_for_minutes_is_named_as_stuck_until_it_comes_up(keyboard) -> None:
    """A book left on Enter: one hold, then 'OK button stuck: call staff' until the key comes up."""
    source, clock = keyboard
    source.feed(key(pygame.KEYDOWN, pygame.K_RETURN))
    events = []
    for _ in range(60):
        clock.advance(1.0)
        events += source.poll()
    assert kinds(events) == [("hold", "OK")] and source.status.warning == "OK button stuck: call staff"
    source.feed(key(pygame.KEYUP, pygame.K_RETURN))
    assert kinds(source.poll()) == [("release", "OK")] and source.status.warning == ""


def test_keyboard_hold_detected_at_keyup_when_not_polled_meanwhile(keyboard) -> None:
    source, clock = keyboard
    source.feed(key(pygame.KEYDOWN, pygame.K_3))
    clock.advance(2.0)
    source.feed(key(pygame.KEYUP, pygame.K_3))
    assert kinds(source.poll()) == [("hold", "HOLD3"), ("release", "HOLD3")]


def test_keyboard_ignores_unmapped_keys_and_other_events(keyboard) -> None:
    source, _ = keyboard
    assert source.feed(key(pygame.KEYDOWN, pygame.K_z)) is False
    assert source.feed(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(0, 0))) is False
    assert source.feed(key(pygame.KEYUP, pygame.K_UP)) is True  # up without down: nothing
    assert source.poll() == []


def test_keyboard_focus_loss_releases_keys(keyboard) -> None:
    source, _ = keyboard
    source.feed(key(pygame.KEYDOWN, pygame.K_UP))
    source.feed(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert kinds(source.poll()) == [("release", "UP")]
    source.feed(key(pygame.KEYUP, pygame.K_UP))
    assert source.poll() == []


def test_keyboard_not_started_ignores_input() -> None:
    source = KeyboardButtonSource()
    assert not source.status.connected
    assert source.feed(key(pygame.KEYDOWN, pygame.K_RETURN)) is False


def test_keyboard_custom_keys_from_config() -> None:
    clock = FakeClock(10.0)
    source = make_button_source({"type": "keyboard", "keys": {"x": "OK", "q": "abandon"}, "hold_time": 0.3},
                                clock=clock)
    source.start()
    source.feed(key(pygame.KEYDOWN, pygame.K_q))  # type: ignore[attr-defined]
    source.feed(key(pygame.KEYUP, pygame.K_q))  # type: ignore[attr-defined]
    source.feed(key(pygame.KEYDOWN, pygame.K_RETURN))  # type: ignore[attr-defined] - not mapped any more
    assert kinds(source.poll()) == [("press", "ABANDON"), ("release", "ABANDON")]
    with pytest.raises(ValueError, match="unknown key name"):
        make_button_source({"type": "keyboard", "keys": {"nosuchkey": "OK"}})
    with pytest.raises(ValueError, match="unknown button"):
        make_button_source({"type": "keyboard", "keys": {"x": "FIRE"}})


# -- scripted -----------------------------------------------------------------------------
SCRIPT = """\
# a short game
press OK
hold HOLD3      # keep the third die

wait-throw
press hold1
release ok
wait 2.5
"""


def test_scripted_format_parses_events_and_directives() -> None:
    steps = parse_script(SCRIPT.splitlines())
    assert [(s.kind, s.name, s.args, s.line) for s in steps] == [
        ("press", "OK", (), 2),
        ("hold", "HOLD3", (), 3),
        ("directive", "wait-throw", (), 5),
        ("press", "HOLD1", (), 6),
        ("release", "OK", (), 7),
        ("directive", "wait", ("2.5",), 8),
    ]


@pytest.mark.parametrize(
    "bad, line, message",
    [
        ("press OK\npress FIRE\n", 2, "unknown button 'FIRE'"),
        ("\n\npress\n", 3, "expected 'press <BUTTON>'"),
        ("press OK UP\n", 1, "expected"),
        ("# fine\n42 OK\n", 2, "not an event"),
        ("hold OK\n!!!\n", 2, "not an event"),
        ("prëss OK\n", 1, "not an event"),
    ],
)
def test_scripted_invalid_lines_name_their_line(bad: str, line: int, message: str) -> None:
    with pytest.raises(ValueError, match=f"line {line}: .*{message}" if message != "expected" else f"line {line}"):
        ScriptedButtonSource.from_text(bad)


def test_scripted_file_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("press OK\npress NOPE\n")
    with pytest.raises(ValueError, match=r"game\.txt line 2"):
        make_button_source({"type": "scripted", "path": str(path)})
    with pytest.raises(ValueError, match="cannot read"):
        make_button_source({"type": "scripted", "path": str(tmp_path / "missing.txt")})


def test_scripted_paces_one_per_poll_and_directive_ends_a_batch(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(SCRIPT)
    clock = FakeClock(3.0)
    source = make_button_source({"type": "scripted", "path": str(path)}, clock=clock)
    assert source.poll() == []  # not started
    source.start()
    assert kinds(source.poll()) == [("press", "OK")]
    assert source.poll()[0].timestamp == 3.0

    batched = ScriptedButtonSource.from_text(SCRIPT, per_poll=0)
    batched.start()
    first = batched.poll()
    assert kinds(first) == [("press", "OK"), ("hold", "HOLD3"), ("directive", "wait-throw")]
    assert kinds(batched.poll()) == [("press", "HOLD1"), ("release", "OK"), ("directive", "wait")]
    assert batched.finished and batched.status == SourceStatus(True, "script finished")
    assert batched.poll() == []
    batched.rewind()
    assert len(batched.poll()) == 3


def test_scripted_from_list_in_config() -> None:
    source = make_button_source({"type": "scripted", "script": ["press UP", "press DOWN"], "per_poll": 0})
    source.start()
    assert kinds(source.poll()) == [("press", "UP"), ("press", "DOWN")]
    with pytest.raises(ValueError, match="exactly one"):
        make_button_source({"type": "scripted"})


# -- multi & registry ---------------------------------------------------------------------
class BrokenSource:
    name = "broken"
    status = SourceStatus(False, "exploded")

    def start(self) -> None:
        raise RuntimeError("boom")

    def stop(self) -> None:
        raise RuntimeError("boom again")

    def poll(self) -> list[ButtonEvent]:
        return []


def test_multi_merges_by_time_and_survives_a_broken_source() -> None:
    clock = FakeClock(5.0)
    keyboard = KeyboardButtonSource(clock=clock)
    script = ScriptedButtonSource.from_text("press UP\n", clock=lambda: 4.0)
    multi = MultiButtonSource([BrokenSource(), keyboard, script])
    multi.start()  # the broken source does not prevent the others
    assert multi.feed(key(pygame.KEYDOWN, pygame.K_DOWN)) is True
    multi.feed(key(pygame.KEYUP, pygame.K_DOWN))
    events = multi.poll()
    assert [(e.source, e.kind, e.name) for e in events] == [
        ("scripted", "press", "UP"), ("keyboard", "press", "DOWN"), ("keyboard", "release", "DOWN"),
    ]
    status = multi.status
    assert status.connected and "broken: exploded" in status.message
    multi.stop()


def test_registry_builds_multi_and_passes_injections(tmp_path: Path) -> None:
    clock = FakeClock(1.0)
    source = make_button_source(
        {"type": "multi", "sources": [{"type": "keyboard"}, {"type": "scripted", "script": "press OK"}]},
        clock=clock,
    )
    assert isinstance(source, MultiButtonSource) and isinstance(source, ButtonSource)
    source.start()
    assert [(e.name, e.timestamp) for e in source.poll()] == [("OK", 1.0)]
    with pytest.raises(ValueError, match="unknown buttons type"):
        make_button_source({"type": "joystick"})
    with pytest.raises(ValueError, match="unknown key"):
        make_button_source({"type": "keyboard", "hold": 1})
    with pytest.raises(ValueError, match="non-empty"):
        make_button_source({"type": "multi", "sources": []})


def test_importing_hardware_does_not_import_other_packages() -> None:
    import subprocess
    import sys

    code = ("import sys, hardware; bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('vision', 'display', 'controller', 'pygame', 'gpiozero', 'serial', 'picamera2')); print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "[]"


def test_hardware_sources_never_import_vision_display_or_controller() -> None:
    import re

    root = Path(__file__).resolve().parents[1] / "hardware"
    pattern = re.compile(r"^\s*(from|import)\s+(vision|display|controller)\b", re.MULTILINE)
    offenders = [p.name for p in root.glob("*.py") if pattern.search(p.read_text())]
    assert offenders == []
    assert len(list(root.glob("*.py"))) > 10  # the glob really looked at the package


def test_toml_examples_in_docs_build_sources(tmp_path: Path) -> None:
    import re
    import tomllib

    from gpiozero.pins.mock import MockFactory

    from hardware import make_frame_source

    doc = (Path(__file__).resolve().parents[1] / "docs" / "hardware.md").read_text()
    blocks = re.findall(r"```toml\n(.*?)```", doc, re.DOTALL)
    built = []
    for block in blocks:
        data = tomllib.loads(block)
        if "camera" in data:
            built.append(make_frame_source(data["camera"]))
        if "buttons" in data:
            config = data["buttons"]
            if config["type"] == "scripted":  # the documented path does not exist here
                script = tmp_path / "game.txt"
                script.write_text("press OK\n")
                config = {**config, "path": str(script)}
            built.append(make_button_source(config, pin_factory=MockFactory()))
    assert len(blocks) >= 9 and len(built) == len(blocks)


def test_scripted_example_in_docs_is_valid() -> None:
    import re

    doc = (Path(__file__).resolve().parents[1] / "docs" / "hardware.md").read_text()
    example = re.search(r"```\n(# Classic poker dice, one round.*?)```", doc, re.DOTALL)
    assert example is not None   # (test_table_e2e plays it through `dicetable play --fixtures`)
    steps = parse_script(example.group(1).splitlines())
    assert [s.name for s in steps] == ["game", "throw", "keep", "throw", "throw", "screenshot", "choose"]
    assert {s.kind for s in steps} == {"directive"}


def test_every_source_accepts_feed_so_the_display_can_offer_events_to_any() -> None:
    from gpiozero.pins.mock import MockFactory

    event = key(pygame.KEYDOWN, pygame.K_RETURN)
    sources = [
        make_button_source({"type": "gpio", "pins": {"OK": 17}}, pin_factory=MockFactory()),
        make_button_source({"type": "serial", "port": "loop://"}),
        make_button_source({"type": "scripted", "script": "press OK"}),
    ]
    for source in sources:
        assert isinstance(source, ButtonSource)
        assert source.feed(event) is False


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_a_source_refuses_nan_and_inf_for_its_times(tmp_path: Path, value: float) -> None:
    """TOML writes nan and inf, and both passed `positive` (nan fails every comparison): a
    hold_time of nan made every press short, an fps of inf a camera with no pause."""
    from hardware import make_frame_source
    from hardware.button_serial import SerialButtonSource

    with pytest.raises(ValueError, match=r"\[buttons\] hold_time must be a finite number"):
        make_button_source({"type": "keyboard", "hold_time": value})
    with pytest.raises(ValueError, match=r"\[camera\] fps must be a finite number"):
        make_frame_source({"type": "folder", "path": str(tmp_path), "fps": value})
    for key in ("read_timeout_s", "reconnect_initial_s", "reconnect_max_s"):
        with pytest.raises(ValueError, match=rf"\[buttons\] {key} must be a finite number"):
            SerialButtonSource("/dev/ttyNONEXISTENT", **{key: value})


def test_multi_names_a_stuck_button_of_any_panel_while_the_others_keep_it_connected() -> None:
    """A panel with a stuck OK beside a working box: the table still takes presses (connected) and
    the screen names the stuck button (the warning); before, a multi status had no place for it."""
    clock = FakeClock(0.0)
    panel = KeyboardButtonSource(clock=clock, name="panel")
    spare = KeyboardButtonSource(clock=clock, name="spare")
    multi = MultiButtonSource([panel, spare])
    multi.start()
    panel.feed(key(pygame.KEYDOWN, pygame.K_RETURN))
    clock.advance(11.0)
    multi.poll()
    assert multi.status.connected and multi.status.message == ""
    assert multi.status.warning == "OK button stuck: call staff"
