"""Random playouts: with the spec's invariants checked after every decision, or
with the saved state at every decision (every_state)."""
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


def every_state(game, seed) -> list:
    """The saved state at every decision of a random game, and each one's copy loaded
    and answered."""
    st, rng, out = game.new_state(2, seed), random.Random(seed), []
    while not st.is_terminal():
        choice = rng.randrange(len(st.legal_actions()))
        copy = game.state_from_json(st.to_json())
        copy.apply(choice)
        out += [st.to_json(spec=False), copy.to_json(spec=False)]
        st.apply(choice)
    return out + [st.to_json(spec=False)]
