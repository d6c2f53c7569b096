"""A game that cannot go on fails fast and says how to go on (rulespec/limits.py's
step budget, 100,000 by default: the shipped games need under 1,000 between two
decisions); a spec's `limits: {steps: N}` still raises it."""
from __future__ import annotations

import pytest

from interpreter import load_game
from rulespec.errors import RuleError
from rulespec.limits import Limits
from tests.cpu import cpu_bound

TURN_LOOP = """game: A8
players: {min: 2, max: 2}
flow: |
  while true:
      for p in players:
          turn p: nothing
actions:
  nothing:
    when: "false"
    do: pass
"""


def test_the_default_step_budget_is_far_above_what_games_need_and_far_below_a_hang():
    assert Limits().steps == 100_000


def test_a_while_around_turns_nobody_can_take_stops_within_a_second_of_work():
    game = load_game("a8.yaml", text=TURN_LOOP)
    with cpu_bound(3), pytest.raises(RuleError) as info:   # was ~12 s at 1,000,000 steps
        game.new_state(2, 0)
    message = info.value.message
    assert "ran 100,000 steps without asking anyone anything" in message
    assert "`limits: {steps: 1000000}`" in message
    assert "The last turn passed was P2's at a8.yaml:6:11" in message


def test_limits_steps_still_raises_the_budget():
    game = load_game("a8.yaml", text=TURN_LOOP + "limits: {steps: 150000}\n")
    with pytest.raises(RuleError, match="ran 150,000 steps"):
        game.new_state(2, 0)
