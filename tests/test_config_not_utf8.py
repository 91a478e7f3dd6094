"""A config file saved in another encoding than UTF-8: Windows' "ANSI" (a café's laptop, a seat
named Zoë or Café) or Notepad's "Unicode" (UTF-16). Before, the ANSI file was not read at all:
the table started with the built-in defaults (another camera, the keyboard for buttons) and the
staff read "'utf-8' codec can't decode byte 0xeb in position 39"; the UTF-16 file was a "not valid
TOML" problem at every line."""
from __future__ import annotations

import pytest

from controller.check import FAIL, OK, check_config
from controller.config import ConfigError, load_config
from controller.calibrate import save_calibration
from vision.calibrate import Calibration

CAFE = ('[table]\ngame = "classic"\nplayers = ["Zoë", "Bar"]\n\n'
        '[camera]\ntype = "folder"\npath = "/srv/tray"\n\n[buttons]\ntype = "keyboard"\n')


def test_an_ansi_config_keeps_every_line_but_the_one_it_cannot_read(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_bytes(CAFE.replace("\n", "\r\n").encode("cp1252"))
    config = load_config(cfg, lenient=True)
    assert config.table.game == "classic"
    assert config.camera == {"type": "folder", "path": "/srv/tray"}
    assert config.buttons == {"type": "keyboard"}
    assert config.table.players == ()                   # (that line left out: its default)
    [problem] = config.problems
    assert problem.startswith(f"{cfg}: line 3 is not UTF-8 text")
    assert "save it as UTF-8" in problem and 'line 3: players = ["Zo\ufffd", "Bar"]' in problem
    assert "codec" not in problem and "0xeb" not in problem


def test_read_strictly_it_names_the_line(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_bytes(CAFE.encode("latin-1"))
    with pytest.raises(ConfigError, match="line 3 is not UTF-8 text"):
        load_config(cfg)


def test_check_names_the_line_and_what_to_do(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_bytes(CAFE.encode("cp1252"))
    config, found = check_config(cfg)
    assert [f.level for f in found] == [FAIL]
    assert "line 3 is not UTF-8 text" in found[0].text and "Encoding UTF-8" in found[0].text
    assert config is not None and config.camera["type"] == "folder"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_config_with_its_mark_is_read_whole(tmp_path, encoding):
    cfg = tmp_path / "config.toml"
    text = CAFE.replace("\n", "\r\n")
    cfg.write_bytes(("\ufeff" + text).encode(encoding) if encoding.endswith("be") else text.encode(encoding))
    config = load_config(cfg, lenient=True)
    assert config.problems == () and config.table.players == ("Zoë", "Bar")
    _, found = check_config(cfg)
    assert [f.level for f in found] == [OK]


def test_calibrating_into_an_ansi_config_says_what_to_do(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_bytes(CAFE.encode("cp1252"))
    cal = Calibration(tray=(40, 30, 600, 450), die_px=61.0, frame_size=(640, 480), walls=["left"])
    with pytest.raises(ValueError, match="is not UTF-8 text .*save it as UTF-8 first"):
        save_calibration(cal, cfg)
    assert cfg.read_bytes() == CAFE.encode("cp1252")     # (left as it was)


def test_the_menu_names_the_line_and_the_table_keeps_the_rest(tmp_path):
    """Before: "Config file mistake, left out: cannot read the config file: 'utf-8' codec can't
    decode byte 0xeb in position 39: ..." over a menu of the built-in defaults."""
    import argparse
    from pathlib import Path

    from controller.table_app import TableApp

    (tmp_path / "cam").mkdir()
    fixture = Path(__file__).parent / "fixtures" / "table" / "d12345.jpg"
    (tmp_path / "cam" / "d12345.jpg").write_bytes(fixture.read_bytes())
    cfg = tmp_path / "config.toml"
    cfg.write_bytes(CAFE.replace("/srv/tray", str(tmp_path / "cam"))
                    .replace('game = "classic"', f'game = "classic"\njournal_dir = "{tmp_path}/games"')
                    .encode("cp1252"))
    app = TableApp.from_args(argparse.Namespace(config=str(cfg), fullscreen=False, headless=True))
    try:
        assert app.config.table.game == "classic" and app.config.camera["type"] == "folder"
        message = app.menu.view().message
        assert message.level == "error" and message.text.startswith(
            "Config file mistake, left out: line 4 is not UTF-8 text. The table uses the defaults for them.")
    finally:
        app.frames.close()
