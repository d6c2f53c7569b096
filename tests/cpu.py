"""A guard on this process's CPU time, for tests that check a limit is hit fast.

Wall-clock asserts fail on a loaded machine (CI shares 2 cores with other jobs) and
say nothing about a block that never returns. `cpu_bound(seconds)` counts the CPU
time this process spends in the block (SIGPROF, as tests/hostile/runner.py does),
which other jobs on the machine barely change, and stops the block with an
AssertionError as soon as it has used `seconds`: a loop without end fails the test
instead of hanging it."""
from __future__ import annotations

import signal
from contextlib import contextmanager


class _OverBudget(BaseException):
    """Raised from the SIGPROF handler: a BaseException, so no `except Exception`
    in the code under test (the run loop turns faults into RuleErrors) swallows it.
    It says what it is: a signal in the instant between the block's end and the
    timer's stop is raised outside the block and fails the test as itself."""


@contextmanager
def cpu_bound(seconds: float):
    """Run the block under a budget of `seconds` of this process's CPU time (user +
    system, every thread). Raises AssertionError when the budget runs out. Main
    thread only (signals); not nestable."""
    said = f"over {seconds:g} s of CPU time: a limit not hit, or hit late"

    def over(signum, frame):
        raise _OverBudget(said)

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _OverBudget:
        raise AssertionError(said) from None
    finally:
        signal.signal(signal.SIGPROF, previous)
