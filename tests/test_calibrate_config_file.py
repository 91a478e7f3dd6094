"""Re-calibrating over a café's own config file: what the staff wrote around the calibration
(their tuning, the comments heading the next section) outlives it."""
from __future__ import annotations

import tomllib

from controller.config import load_config
from controller.calibrate import load_calibration, save_calibration
from vision.calibrate import Calibration

CAFE = """# The Blue Door café, table 2
[table]
game = "classic"

[vision]
# measured on 2026-11-20, redo after moving the lamp
tray = [10, 10, 600, 440]
die_px = 50.0
frame_size = [640, 480]
walls = ["left", "top"]
settle = { still_frames = 9 }   # our camera runs at 20 fps

# ---------------------------------------------------------------- display
# The screen: full screen on the bar's monitor, names as the regulars like them.
[display]
fullscreen = true
"""


def test_recalibrating_keeps_the_settle_tuning_and_the_next_sections_comments(tmp_path):
    """Before: `settle` (a hand-tuned still_frames) was dropped with the old calibration, the
    table going back to its default without a word, and the two comment lines heading
    [display] were deleted."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(CAFE, encoding="utf-8")
    cal = Calibration(tray=(40, 30, 600, 450), die_px=61.0, frame_size=(640, 480), walls=["left"])
    save_calibration(cal, cfg)
    text = cfg.read_text(encoding="utf-8")
    assert load_calibration(cfg) == cal
    config = load_config(cfg)
    assert config.vision.settle_config().still_frames == 9 and not config.warnings
    assert "settle = { still_frames = 9 }   # our camera runs at 20 fps\n" in text
    assert "# measured on 2026-11-20, redo after moving the lamp\n" in text
    assert ("\n\n# ---------------------------------------------------------------- display\n"
            "# The screen: full screen on the bar's monitor, names as the regulars like them.\n"
            "[display]\nfullscreen = true\n") in text
    assert tomllib.loads(text)["display"] == {"fullscreen": True}
    assert text.startswith("# The Blue Door café, table 2\n[table]\ngame = \"classic\"\n\n[vision]\n")
    save_calibration(cal, cfg)                                     # again: the same file
    assert cfg.read_text(encoding="utf-8") == text
