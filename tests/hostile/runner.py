"""Run hostile inputs in this process, one after another, under a memory cap.

    python -m tests.hostile.runner JOBS.json

JOBS.json is a list of [label, kind, path, argv]: kind "cli" runs
`interpreter.cli.main(argv)` (cwd: the repository root), kind "save" loads the
file with `Game.state_from_json` into the market game and plays on from it.
Each job gets CPU seconds of this process's CPU time (SIGPROF): a job that loops
for ever uses them up however loaded the machine is, while a job that only
waits for a busy machine is not cut short. WALL seconds (SIGALRM) stay as the
backstop for a job that hangs without computing (blocked on a read). The process
gets MEMORY bytes of address space (RLIMIT_AS), so a runaway allocation fails
here, not on the machine. One
JSON line per job goes to stdout as it finishes: {label, code, output, seconds, cpu}.
A crash of the whole process shows as the job that started and never finished.
"""
from __future__ import annotations

import io
import json
import os
import resource
import signal
import sys
import time
import traceback

MEMORY = 4 * 2**30
CPU = 30        # seconds of CPU time: every job takes well under 5 alone
WALL = 600      # a wall-clock backstop, far above CPU on a machine shared 6 ways


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout("wall" if signum == signal.SIGALRM else "cpu")


def _limit(cpu: int, wall: int) -> None:
    """Start (or with 0, 0 stop) both clocks of a job."""
    signal.setitimer(signal.ITIMER_PROF, cpu)
    signal.alarm(wall)


def run_cli(argv) -> tuple[int, str]:
    from interpreter.cli import main
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO("1\n" * 50))
    return code, out.getvalue() + err.getvalue()


def run_save(path) -> tuple[int, str]:
    """1 for a save refused as corrupt; 0 when it loads and plays on to the end."""
    from interpreter.engine.game import load_game
    from rulespec.errors import CorruptFile, RulespecError
    game = load_game("tests/games/market.yaml")
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            state = game.state_from_json(f.read())
    except CorruptFile as e:
        return 1, e.format()
    try:
        for _ in range(2000):
            if state.is_terminal():
                break
            state.apply(0)
        return 0, f"played on: scores {state.scores()}"
    except RulespecError as e:
        return 1, "a save that loads must play on: " + e.format()


def main(jobs_file) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGPROF, _alarm)
    with open(jobs_file) as f:
        jobs = json.load(f)
    root = os.getcwd()
    for label, kind, path, argv in jobs:
        print(json.dumps({"started": label}), flush=True)
        start, cpu = time.monotonic(), time.process_time()
        _limit(CPU, WALL)
        try:
            code, output = run_cli(argv) if kind == "cli" else run_save(path)
        except _Timeout as e:
            code, output = "timeout", (f"did not finish in {CPU} s of CPU time" if e.args == ("cpu",)
                                       else f"did not finish in {WALL} s (wall clock)")
        except BaseException:       # noqa: BLE001 — the very thing this runner looks for
            code, output = "crash", traceback.format_exc()
        finally:
            _limit(0, 0)
            os.chdir(root)
        print(json.dumps({"label": label, "code": code, "output": output[-3000:],
                          "seconds": round(time.monotonic() - start, 2),
                          "cpu": round(time.process_time() - cpu, 2)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
