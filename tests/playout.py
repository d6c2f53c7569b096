"""Random playouts with the spec's invariants checked after every decision."""
from __future__ import annotations

import random

MAX_DECISIONS = 100_000


def play_random(game, players: int, seed: int, check_invariants: bool = True):
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    _check(state, seed, check_invariants)
    while not state.is_terminal():
        options = state.legal_actions()
        assert options, f"seed {seed}: decision {state.decisions} has no legal option"
        state.apply(options[rng.randrange(len(options))])
        _check(state, seed, check_invariants)
        assert state.decisions < MAX_DECISIONS, f"seed {seed}: the game does not end"
    return state


def _check(state, seed, enabled):
    if enabled:
        broken = state.check_invariants()
        assert not broken, f"seed {seed}, decision {state.decisions}: invariant {broken[0]!r} broken"
