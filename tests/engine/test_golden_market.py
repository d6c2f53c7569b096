"""Golden playthroughs of market.yaml at 2, 3 and 4 players.

The logs in tests/golden/ were written once; replaying each must give the very
same lines. After an intended rule change: REGOLD=1 pytest tests/test_golden_market.py,
then read the diff of tests/golden/.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden import check_golden
from tests.paths import ROOT

SPEC = "tests/games/market.yaml"     # relative: the logs name the spec the way it was given
SEED = 2024


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_playthrough(players):
    path = f"tests/golden/market-{players}p.jsonl"
    check_golden(path, SPEC, players, SEED)
    lines = [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines()]
    assert lines[0]["spec"] == SPEC and lines[0]["players"] == players
    assert sum("decision" in x for x in lines) == lines[-1]["result"]["decisions"] > 20
    assert lines[-1]["result"]["ended_by"] in ("round limit", "prestige goal")
