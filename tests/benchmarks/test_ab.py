"""benchmarks/ab.py: two checkouts of the engine in one process, each with its own modules.

Run in subprocesses: ab.py swaps the engine's modules in sys.modules, which a
test process sharing them with other tests must not see."""
from __future__ import annotations

import shutil
import subprocess
import sys

from tests.paths import ROOT

AB = ROOT / "benchmarks" / "ab.py"
MARKET = "tests/games/market.yaml"


def _copy_tree(to):
    """A second checkout: the engine and the spec, as a worktree of another commit holds them."""
    for part in ("interpreter", "rulespec"):
        shutil.copytree(ROOT / part, to / part, ignore=shutil.ignore_patterns("__pycache__"))
    (to / "tests" / "games").mkdir(parents=True)
    shutil.copy(ROOT / MARKET, to / MARKET)
    return to


def test_each_tree_plays_with_its_own_modules(tmp_path):
    other = _copy_tree(tmp_path / "other")
    script = f"""
import random, sys
sys.path.insert(0, {str(ROOT / 'benchmarks')!r})
import ab
from pathlib import Path
sides = [ab.load_tree(Path(t), {MARKET!r}, None, 3) for t in ({str(ROOT)!r}, {str(other)!r})]
for new_state, modules in sides:
    ab._use(modules)
    state, rand = new_state(5), random.Random(5)
    while not state.is_terminal():
        options = state.legal_actions()
        state.apply(options[rand.randrange(len(options))])
    print(modules["interpreter.engine.state"].__file__, type(state).__module__, len(state.to_json()))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    first, second = (line.split() for line in out.stdout.splitlines())
    assert first[0].startswith(str(ROOT / "interpreter")) and second[0].startswith(str(other))
    assert first[2] == second[2]    # the same code, the same game


def test_prints_each_side_and_refuses_a_tree_without_an_engine(tmp_path):
    other = _copy_tree(tmp_path / "other")
    run = subprocess.run([sys.executable, str(AB), str(ROOT), str(other), "--spec", MARKET,
                          "--players", "3", "--seconds", "0.3"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = run.stdout.splitlines()[1:]
    assert len(rows) == 2 and rows[0].startswith("0:") and rows[0].split()[-1] == "1.000"
    assert rows[1].startswith("1:") and float(rows[1].split()[-1]) > 0
    bad = subprocess.run([sys.executable, str(AB), str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "no interpreter/" in bad.stderr
