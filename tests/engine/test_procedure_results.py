"""What `x = p()` stores: the value p's `return` gives, or none when p ends without
one, never a value an earlier call left behind. A procedure's `return` puts its
value in the caller's frame; a call whose value no one assigned (`five()` as a
statement) left it there, and a later `got = maybe(0)`, whose procedure ended
without `return`, stored that 5."""
from __future__ import annotations

import random

import pytest

from interpreter.engine.compile import Compiler
from interpreter.engine.game import Game, load_game

SPEC = """game: Results
players: {min: 2, max: 2}
per_player:
  wins: {start: 0}
procedures:
  five:
    params: []
    do: |
      return 5
  maybe:
    params: [n]
    do: |
      if n > 0:
          return n
  # quiet: asks no one, so straight lines call it as one function
  score_none:
    params: [p]
    do: |
      five()
      got = maybe(0)
      if got == none:
          p.wins += 1
  # asks between the calls: its frame stops at a decision and is resumed
  asking:
    params: [p]
    do: |
      five()
      x = choose one of [1, 2] by p as "Which?"
      got = maybe(0)
      if got == none:
          p.wins += 10
flow: |
  five()
  got = maybe(0)
  if got == none:
      players[0].wins += 100
  score_none(players[0])
  asking(players[0])
  end game "done"
scoring:
  score: p.wins
"""

SWITCHES = [(None, None), (Compiler, "quiet_locals"), (Compiler, "env_free"), (Game, "straight")]


@pytest.mark.parametrize("owner, switch", SWITCHES,
                         ids=["shipped", "no-quiet-locals", "no-env-free", "statement-by-statement"])
def test_a_procedure_that_ends_without_return_gives_none(monkeypatch, owner, switch):
    if owner is not None:
        monkeypatch.setattr(owner, switch, False)
    game = load_game("results.yaml", text=SPEC)
    for seed in range(3):
        state, rand = game.new_state(2, seed), random.Random(seed)
        while not state.is_terminal():
            state.apply(rand.randrange(len(state.legal_actions())))
        assert state.scores() == [111, 0], (seed, state.scores())
