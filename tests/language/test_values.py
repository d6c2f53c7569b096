"""Start values and constants are rules-language values (rulespec/values.py)."""
from __future__ import annotations

import pytest

from interpreter import load_game
from rulespec import SpecErrors, validate

SPEC = """\
game: T
players: {min: 2, max: 2}
constants:
  start_chips: 4
  bonus: start_chips * 2 + 1
  order: [start_chips, none, merchant]
  label: "two"
globals:
  leader: none
  flag: {start: true}
  saved: {start: order}
per_player:
  chips: {start: start_chips}
  extra: bonus
  status: {start: merchant, one_of: [peasant, merchant]}
flow: |
  if leader != none:
      end game "leader is not none"
  for p in players:
      p.chips += bonus
  end game "done"
scoring:
  score: p.chips
"""


def test_none_constants_and_expressions_as_start_values():
    data = validate("t.yaml", text=SPEC).spec.data
    assert data["globals"] == {"leader": None, "flag": {"start": True}, "saved": {"start": [4, None, "merchant"]}}
    assert data["per_player"]["chips"] == {"start": 4}
    assert data["per_player"]["extra"] == 9
    assert data["constants"]["label"] == "two"    # quoted: text


def test_none_start_value_plays_as_none():
    state = load_game("t.yaml", text=SPEC).new_state(2, seed=1)
    assert state.is_terminal() and state.ended_by == "done"
    assert state.scores() == [13, 13]


@pytest.mark.parametrize("value, message, col", [
    ("two", "unknown word 'two'", 18),
    ("start_chip", "unknown word 'start_chip' (did you mean 'start_chips'?)", 18),
    ("start_chips + [1]", "arithmetic needs numbers; this is a list", 32),
    ("count(x)", "can only be a value, a constant's name or arithmetic", 18),
    ("a b", "quote it if it is text", 20),
])
def test_bad_start_words_are_located(value, message, col):
    text = f"game: T\nplayers: {{min: 2, max: 2}}\nconstants:\n  start_chips: 1\n  opening_coins: {value}\nflow: pass\n"
    with pytest.raises(SpecErrors) as info:
        validate("t.yaml", text=text)
    err = info.value.errors[0]
    assert message in err.message
    assert (err.line, err.col) == (5, col)


def test_a_constant_defined_through_itself():
    text = "game: T\nplayers: {min: 2, max: 2}\nconstants:\n  a: b\n  b: a\nflow: pass\n"
    with pytest.raises(SpecErrors) as info:
        validate("t.yaml", text=text)
    assert "defined through itself" in info.value.errors[0].message


def test_card_attribute_none_is_none():
    text = ("game: T\nplayers: {min: 2, max: 2}\nzones: {deck: {}}\ncards:\n  tiles:\n    in: deck\n"
            "    attrs: {crop: none}\n    list: [{name: farm, crop: grain}, {name: town}]\nflow: pass\n")
    game = load_game("t.yaml", text=text)
    assert game.cards["town"]["crop"] is None and game.cards["farm"]["crop"] == "grain"
