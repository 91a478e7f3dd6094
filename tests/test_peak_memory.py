"""The demo's and the table benchmark's memory figure is the program's own peak."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.peak_memory import peak_rss_mb, resident_mb

ROOT = Path(__file__).resolve().parents[1]
CHILD = ("import json, resource; from controller.peak_memory import peak_rss_mb; "
         "print(json.dumps([peak_rss_mb(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))")


def test_peak_is_positive_and_grows_with_use():
    """The block is big enough to pass the peak the tests before it left (the whole suite had
    reached 344 MB and was back under it: 64 MB more did not raise the high-water mark)."""
    before = peak_rss_mb()
    now = resident_mb()
    headroom = max(0.0, before - now) if now == now else 0.0          # (NaN where /proc is absent)
    block = bytearray(int(64 + headroom) * 1024 * 1024)
    block[::4096] = b"x" * len(block[::4096])      # touch every page
    assert before > 0 and peak_rss_mb() >= before + 50
    del block


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux /proc only")
def test_a_program_started_from_a_big_one_reports_its_own_peak():
    """On Linux getrusage's figure carries the parent's peak (150 MB and more here) over exec;
    ours must not."""
    block = bytearray(150 * 1024 * 1024)
    block[::4096] = b"x" * len(block[::4096])
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, cwd=ROOT, check=True)
    own, _inherited = json.loads(out.stdout)
    del block
    assert own < 100
