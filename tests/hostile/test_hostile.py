"""The hostile corpus (issue 14): every file through every tool that reads it.

Specs go through `validate`, `play` (greedy and MCTS agents, so `heuristic:`
runs, and a log) and `simulate --check-invariants`; scenario files through
`scenario`; logs through `replay`; saves through `state_from_json` and on to the
end of the game; command lines through `main`. Each must end with exit 0, 1 or
2 and print no `Traceback`, `MemoryError` or `RecursionError`, within 30 s of CPU
time and 4 GB (tests/hostile/runner.py, two child processes that share the jobs).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.hostile import make_corpus
from tests.paths import ROOT

HERE = Path(__file__).parent
WORK = Path(tempfile.mkdtemp(prefix="rulespec-hostile-"))
FORBIDDEN = ("Traceback", "MemoryError", "RecursionError")
PROCESSES = 2


def _spec_jobs(path: Path) -> list:
    name = path.name
    log = str(WORK / (path.stem + ".jsonl"))
    return [
        (f"validate {name}", "cli", str(path), ["validate", str(path)]),
        (f"play {name}", "cli", str(path), ["play", str(path), "--players", "2", "--seed", "1",
                                             "--agents", "greedy,mcts:4:0", "--json", "--log", log]),
        (f"simulate {name}", "cli", str(path), ["simulate", str(path), "--players", "2", "-n", "2",
                                                 "--jobs", "1", "--check-invariants", "--json"]),
    ]


def jobs() -> list:
    out = []
    for path in sorted((HERE / "specs").glob("*.yaml")):
        out += _spec_jobs(path)
    for path in make_corpus.generated(WORK):    # large: what they test is read, at validate
        out.append((f"validate {path.name}", "cli", str(path), ["validate", str(path)]))
    for path in sorted((HERE / "scenarios").glob("*.yaml")):
        out.append((f"scenario {path.name}", "cli", str(path), ["scenario", str(path)]))
    for path in sorted((HERE / "logs").glob("*.jsonl")):
        out.append((f"replay {path.name}", "cli", str(path), ["replay", str(path)]))
    for path in sorted((HERE / "saves").glob("*.json")):
        out.append((f"save {path.name}", "save", str(path), None))
    for path in sorted((HERE / "cli").glob("*.json")):
        argv = json.loads(path.read_text())
        argv = [str((HERE / "cli" / a).resolve()) if a.startswith("../") else a for a in argv]
        out.append((f"cli {path.name}", "cli", str(path), argv))
    return out


JOBS = jobs()


@pytest.fixture(scope="module")
def results() -> dict:
    """Run every job in PROCESSES children; {label: result}."""
    shares = [JOBS[i::PROCESSES] for i in range(PROCESSES)]
    children = []
    for i, share in enumerate(shares):
        job_file = WORK / f"jobs-{i}.json"
        job_file.write_text(json.dumps(share))
        children.append(subprocess.Popen([sys.executable, "-m", "tests.hostile.runner", str(job_file)],
                                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         text=True))
    found = {}
    for child in children:
        output, _ = child.communicate(timeout=1800)
        started = None
        for line in output.splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue    # a worker's own noise; the job's output is in its record
            if "started" in record:
                started = record["started"]
            elif "label" in record:
                found[record["label"]] = record
                started = None
        if started is not None:
            found[started] = {"label": started, "code": "died", "output": output[-3000:]}
    return found


@pytest.mark.parametrize("label", [job[0] for job in JOBS])
def test_hostile_input_ends_cleanly(results, label):
    record = results.get(label)
    assert record is not None, f"{label}: never ran (an earlier job killed its process?)"
    assert record["code"] in (0, 1, 2), f"{label}: {record['code']}\n{record['output']}"
    for word in FORBIDDEN:
        assert word not in record["output"], f"{label}: printed {word}\n{record['output']}"


def test_the_corpus_is_large_and_varied():
    kinds = {job[0].split()[0] for job in JOBS}
    files = {job[2] for job in JOBS}
    assert kinds == {"validate", "play", "simulate", "scenario", "replay", "save", "cli"}
    assert len(files) >= 100


def test_the_runner_stops_a_job_that_never_ends(tmp_path):
    """The guard itself: a flow that loops for ever (its own limits set out of reach)
    is stopped by the runner's CPU clock, named as a timeout, and the next job runs."""
    forever = tmp_path / "forever.yaml"
    forever.write_text(make_corpus.spec("g = 0\nwhile true:\n    g += 1",
                                        limits="{steps: 1000000000000, seconds: 1000000}"))
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([["forever", "cli", str(forever), ["play", str(forever), "--players", "2"]],
                                ["after", "cli", str(forever), ["validate", str(forever)]]]))
    done = subprocess.run([sys.executable, "-c", "import sys, tests.hostile.runner as r; r.CPU = 1; "
                           "r.main(sys.argv[1])", str(jobs)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    records = {r["label"]: r for r in map(json.loads, done.stdout.splitlines()) if "label" in r}
    assert records["forever"]["code"] == "timeout", done.stdout + done.stderr
    assert records["forever"]["output"] == "did not finish in 1 s of CPU time"
    # the profiling timer counts in the kernel's ticks, process_time by its own clock:
    # under load the stop came at 0.99 s by the latter, and at 0.89 s with four busy
    # processes on two cores (both are CPU time, not wall): far from early all the same
    assert records["forever"]["cpu"] >= 0.75 and records["after"]["code"] == 0
