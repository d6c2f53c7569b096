"""Two readings of games/castles.yaml rest on facts the rules keep, checked here
after every decision of random games:

- a round ends when a player's round-th stack is empty (phases.play_round), the
  same as "`round` stacks emptied" because stacks empty from the left;
- a refill looks for five of a colour only in the new tile's colour
  (procedures.refill_display), because no colour stays at five on display while
  five neutral tiles are left to replace them.

A scenario may stage a state without these facts (tests/scenarios/castles do, for
a step): the facts are the rules', not the spec's invariants.
"""
from __future__ import annotations

import random

import pytest

from interpreter.engine.compile import Compiler
from rulespec.dsl import parse_expression
from tests.paths import ROOT
from tests.shipped import shipped

FACTS = {
    "stacks empty from the left": "all([(count(p.stack1) == 0 or count(p.stack2) > 0) and "
                                  "(count(p.stack2) == 0 or count(p.stack3) > 0) for p in players])",
    "no colour at five while neutral tiles last": "count(neutral_stacks) < 5 or count(crowded_colours()) == 0",
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_facts_hold_after_every_decision(players):
    game = shipped(str(ROOT / "games" / "castles.yaml"))
    compiler = Compiler(game, game.names)
    facts = {name: compiler.expr(parse_expression(text), set()) for name, text in FACTS.items()}
    for seed in range(40):
        st, rng = game.new_state(players, seed), random.Random(seed)
        while not st.is_terminal():
            if st.g["round"] > 0:       # from the first display on
                for name, holds in facts.items():
                    assert holds(st, {}), f"seed {seed}, decision {st.decisions}: {name}"
            options = st.legal_actions()
            st.apply(options[rng.randrange(len(options))])
