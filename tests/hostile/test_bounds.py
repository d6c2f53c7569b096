"""Hostile input that is refused or handled within bounds however large it is: a
replay stops at the first line where the log and the game part, reading no further;
a spec over a size limit is refused by name. Each input is built just past what it
tests; how fast the limits are is benchmarks/'s to measure, the CPU bounds here
only keep a regression from hanging the suite (tests/cpu.py)."""
from __future__ import annotations

import json
from pathlib import Path

from interpreter.tools.log import LogReader
from tests.cpu import cpu_bound
from tests.hostile.test_messages import run

BASE = Path(__file__).parent / "logs" / "_base.jsonl"


def _log(tmp_path, lines: list[str]) -> Path:
    log = tmp_path / "x.jsonl"
    log.write_text("\n".join(lines) + "\n")
    return log


def test_replay_stops_at_the_first_line_that_differs_and_reads_no_further(tmp_path):
    """Junk decisions after a good header: the game parts at line 2 (its first line
    is a shuffle); the lines after line 3 are not even JSON, and are never read."""
    head = BASE.read_text().splitlines()[0]
    junk = json.dumps({"decision": {"player": 0, "label": "done", "secret": False}})
    log = _log(tmp_path, [head, junk, junk] + ["not json"] * 20_000)
    with cpu_bound(20):
        code, out, err = run("replay", log)
    assert code == 1 and f"{log}:2: the log says" in err and "corrupt" not in err


def test_replay_stops_at_the_first_line_after_the_result(tmp_path):
    lines = BASE.read_text().splitlines()
    log = _log(tmp_path, lines + [json.dumps({"state": "0" * 16})] * 20_000 + ["not json"])
    with cpu_bound(20):
        code, out, err = run("replay", log)
    assert code == 1 and f"{log}:{len(lines) + 1}: the log has lines the game does not" in err


def test_a_corrupt_line_is_found_when_the_replay_reaches_it(tmp_path):
    lines = BASE.read_text().splitlines()
    lines[40] = "not json"
    code, out, err = run("replay", _log(tmp_path, lines))
    assert code == 1 and "corrupt log: line 41 is not JSON" in err


def test_the_log_reader_reads_a_line_when_asked_for_it(tmp_path):
    lines = BASE.read_text().splitlines()
    with LogReader(_log(tmp_path, lines[:3] + ["not json"])) as log:
        assert log.read == 1 and log.next_line() == json.loads(lines[1]) and log.read == 2
