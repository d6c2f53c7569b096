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
    ("count(x)", "a constant calls no function but flatten(list of lists)", 18),
    ("start_chips[0]", "no item 0 in a number", 30),
    ("flatten([[x] for x in start_chips])", "expected a list here; this is a number", 40),
    ("flatten([[x] for x in [1, 2] if x])", "expected true or false; this is a number", 50),
    ("1 if start_chips < [1] else 2", "< compares numbers; this is a list", 37),
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


DERIVED = """\
game: T
players: {min: 2, max: 2}
symbols: [lord, lady, heir, north, south, east]
constants:
  pawns: [lord, lady, heir]
  areas: [north, south]
  # every pawn with every area, pawn by pawn
  pairs: flatten([[[w, a] for a in areas] for w in pawns])
  but_heir: flatten([[m] for m in pairs if m[0] != heir])
  lone: pairs[0][1] if lord in pawns and not (north not in areas) else none
flow: end game "done"
scoring:
  score: count(pairs)
variants:
  three_areas:
    description: one more area
    changes:
      constants:
        areas: [north, south, east]
"""


def test_a_constant_derived_from_others_by_comprehensions():
    constants = validate("t.yaml", text=DERIVED).spec.data["constants"]
    assert constants["pairs"] == [["lord", "north"], ["lord", "south"], ["lady", "north"],
                                  ["lady", "south"], ["heir", "north"], ["heir", "south"]]
    assert constants["but_heir"] == constants["pairs"][:4]
    assert constants["lone"] == "north"


def test_a_variant_that_changes_a_constant_changes_what_is_derived_from_it():
    constants = validate("t.yaml", text=DERIVED, variant="three_areas").spec.data["constants"]
    assert len(constants["pairs"]) == 9 and ["heir", "east"] in constants["pairs"]
    assert len(constants["but_heir"]) == 6
    state = load_game("t.yaml", text=DERIVED, variant="three_areas").new_state(2, seed=1)
    assert state.scores() == [9, 9]     # the rules read the derived value


def test_deriving_constants_walks_at_most_the_size_limit():
    """Each constant ten times the last: the walk stops, located, at the limit (a
    spec's own `limits: {size}`), not after a billion items."""
    chain = "".join(f"  c{i}: flatten([c{i - 1} for x in c0])\n" for i in range(1, 12))
    text = ("game: T\nplayers: {min: 2, max: 2}\nlimits: {size: 5000}\nconstants:\n"
            "  c0: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" + chain + "flow: pass\n")
    with pytest.raises(SpecErrors) as info:
        validate("t.yaml", text=text)
    first = info.value.errors[0]
    assert "constants walk over 5,000 list items (limits: size)" in first.message
    assert first.line == 8      # c3: c1 and c2 walked 1,120 items, c3 would walk 10,010


@pytest.mark.parametrize("where, written, says", [
    ("  start_chips: 4\n", "  start_chips: 0.5\n", "0.5 is a fraction: numbers in rules are whole numbers; "
                                                   "count in smaller units instead (tenths: 15 for 1.5)"),
    ("  flag: {start: true}\n", "  flag: {start: 2.0}\n", "2 is a fraction: numbers in rules are whole numbers; write 2"),
    ("  order: [start_chips, none, merchant]\n", "  order: [start_chips, 1000.0, merchant]\n",
     "1000 is a fraction: numbers in rules are whole numbers; write 1000"),
])
def test_a_fraction_entering_the_game_is_refused_where_it_is_written(where, written, says):
    """The language counts in whole numbers, as its grammar says of `1.5` in a rule: a
    fraction in a constant or start value validated, then scored 2.0, failed in
    `range` or `draw`, or was refused by the game's own save."""
    text = SPEC.replace(where, written)
    with pytest.raises(SpecErrors) as e:
        validate("t.yaml", text=text)
    (error,) = e.value.errors
    line = text.splitlines().index(written.rstrip("\n")) + 1
    assert (error.line, error.message) == (line, says)


def test_a_fraction_in_a_card_or_a_variants_change_is_refused_and_seconds_may_be_one():
    text = SPEC.replace("game: T\n", "game: T\nlimits: {seconds: 2.5}\nmeta: {weight: 2.3}\n") + (
        "cards:\n  goods:\n    in: deck\n    list:\n      - {name: silk, price: 1.5}\n"
        "zones:\n  deck: {visibility: public}\n"
        "variants:\n  rich:\n    changes:\n      constants: {start_chips: 4.5}\n")
    with pytest.raises(SpecErrors) as e:
        validate("t.yaml", text=text)
    assert sorted(err.path for err in e.value.errors) == [
        "$.cards.goods.list[0].price", "$.variants.rich.changes.constants.start_chips"]


CARDS = """\
game: T
players: {min: 2, max: 2}
cards:
  goods:
    in: deck
    attrs: {cost: 1, tags: []}
    list:
      - {name: corn, count: 3, cost: 2, tags: [food]}
      - {name: wine, cost: WINE}
zones:
  deck: {visibility: hidden}
globals:
  g: {start: 0}
flow: |
  for c in cards(deck):
      g += c.cost
  end game "done"
"""


def test_a_card_attribute_of_another_kind_than_the_others_is_refused_at_the_card():
    """`cost: e` (a typo) among numbers validated, then failed at play in the rule
    adding `c.cost`, far from the card."""
    text = CARDS.replace("WINE", "e")
    with pytest.raises(SpecErrors) as e:
        validate("t.yaml", text=text)
    (error,) = e.value.errors
    assert (error.line, error.path) == (9, "$.cards.goods.list[1].cost")
    assert error.message.startswith("cost is a text here ('e'), where the cards before give a number (line 6)")


@pytest.mark.parametrize("wine", ["3", "none", "3, tags: [drink, luxury]"])
def test_attributes_of_one_kind_or_none_are_accepted(wine):
    validate("t.yaml", text=CARDS.replace("WINE", wine))
