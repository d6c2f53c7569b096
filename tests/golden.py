"""Golden playthroughs: a JSONL log per game, replayed and compared line by line.

Regenerate after an intended rule change with REGOLD=1 (and read the diff).
"""
from __future__ import annotations

import io
import json
import os

from interpreter import load_game
from interpreter.agents import make_agents
from interpreter.tools.log import replay, write_log
from tests.shipped import load


def write_golden(spec: str, players: int, seed: int, path: str, variant=None):
    game = load_game(spec, variant=variant)
    names = ["random"] * players
    buf = io.StringIO()
    write_log(game, players, seed, names, make_agents(names, seed), buf)
    with open(path, "w", encoding="utf-8") as f:
        f.write(buf.getvalue())


def check_golden(path: str, spec: str, players: int, seed: int, variant=None):
    """Assert the stored playthrough still happens exactly; REGOLD=1 rewrites it."""
    if os.environ.get("REGOLD") or not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_golden(spec, players, seed, path, variant)
    ok, message = replay(path, load)      # a shipped game is loaded once (tests/shipped.py)
    assert ok, message
    with open(path, encoding="utf-8") as f:
        head = json.loads(f.readline())
    assert (head["players"], head["seed"], head["variant"]) == (players, seed, variant)

