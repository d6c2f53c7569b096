"""`and` / `or` stop at the first operand that decides, and give true or false.

Rules lean on this: `c != none and c.cost > 2` must not read `.cost` of none.
"""
import pytest

from interpreter import load_game

SPEC = """\
game: Logic
players: {min: 2, max: 2}
globals:
  n: {start: 0}
flow: |
  n = 1
"""


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    path = tmp_path_factory.mktemp("logic") / "logic.yaml"
    path.write_text(SPEC, encoding="utf-8")
    game = load_game(path)
    return game, game.new_state(2, seed=0)


@pytest.mark.parametrize("text,value", [
    ("n == 1 and n > 0", True),
    ("n == 1 and n > 0 and n < 1", False),
    ("n == 2 and 1 // 0 == 0", False),          # the second operand is never evaluated
    ("n == 1 or 1 // 0 == 0", True),
    ("n == 2 or n == 3 or n == 1", True),
    ("n == 2 or n == 3", False),
    ("n and 5", True),                          # a truth value, not the last operand
    ("0 or none", False),
])
def test_logic(state, text, value):
    game, st = state
    result = game.snippet(text, "expression")(st, {})
    assert result is value
