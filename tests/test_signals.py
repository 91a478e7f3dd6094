"""`systemctl stop` and `timeout` send SIGTERM: the program must stop, even headless.

SDL once turned SIGTERM into a window event that a headless loop never read, so the demo ran
on after `timeout` expired. This runs the real command and stops it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


def test_sigterm_stops_the_headless_demo(tmp_path):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--game", "school", "--headless",
                             "--screenshots", str(tmp_path)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        line = ""
        while "School" not in line and time.monotonic() < deadline:  # the game has started
            line = proc.stdout.readline()
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code != 0 and proc.returncode is not None
