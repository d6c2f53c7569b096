"""simulate stops when its first games all fail alike (analysis/simulate.py's
SAME_FAILURES): the error once, why it stopped, exit 1, no summary; a spec that
fails for some seeds only is played out and summarised as before."""
from __future__ import annotations

import io

from interpreter.analysis.simulate import SAME_FAILURES
from interpreter.cli import main

LOOP = """game: Loop
players: {min: 2, max: 2}
globals:
  n: {start: 0}
signals: {ping: []}
triggers:
  echo:
    on: ping
    when: n >= 0
    do: |
      n += 1
      signal ping()
flow: |
  signal ping()
  end game "done"
limits: {steps: 3000}
"""

SOMETIMES = """game: Sometimes
players: {min: 2, max: 2}
per_player:
  pts: {start: 0}
scoring:
  score: p.pts
flow: |
  players[0].pts = 10 // (roll(2) - 1)
  end game "done"
"""


def simulate(tmp_path, text, *argv):
    spec = tmp_path / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["simulate", str(spec), "--players", "2", "--jobs", "1", *argv], out, err)
    return code, out.getvalue(), err.getvalue(), str(spec)


def test_a_run_whose_first_games_all_fail_alike_stops_and_says_so(tmp_path):
    code, out, err, spec = simulate(tmp_path, LOOP, "-n", "50", "--seed", "3")
    assert code == 1 and out == ""
    first, why = err.strip().split("\n")
    assert first.startswith(f"{spec}:1") and "error: the game ran 3,000 steps without asking" in first
    assert why == (f"simulate stopped: the first {SAME_FAILURES} games (seeds 3 to 7) all failed "
                   f"with this error, so the others would too; `rulespec play {spec} --players 2 "
                   f"--seed 3` plays one")


def test_a_run_failing_for_some_seeds_only_is_played_out(tmp_path):
    code, out, err, _ = simulate(tmp_path, SOMETIMES, "-n", "20")
    assert code == 1 and "simulate stopped" not in err
    assert "20 games" in out and "errors (" in out and "division" in out.lower()
