"""Running a call that may hang on a FIFO, for tests of code that must never wait on one.

A call that opens a FIFO the usual way waits for the other end for ever; a test must then fail
and say so, not hang the suite. The guard is a limit on a hang, not a measure of speed.
"""
from __future__ import annotations

import threading
from typing import Callable

import pytest

HANG_GUARD_S = 60


def outcome_of(call: Callable[[], object], unblock: Callable[[], None], what: str) -> BaseException | None:
    """What `call` raised (None: it returned), run on a thread; if it is still running after the
    guard, `unblock` frees it (opens the FIFO's other end) and the test fails with `what`."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            outcome.append(None)
        except BaseException as exc:            # noqa: BLE001 (what happened is the test's answer)
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(HANG_GUARD_S)
    if worker.is_alive():
        unblock()
        worker.join(10)
        pytest.fail(what)
    return outcome[0]
