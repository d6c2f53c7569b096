"""A proven card's attribute that not every card has is read from a CardTable (codegen
`missing_table`) with no test of the key: a card without it raises there what the
general read (`attribute_of`) raises, in the same words at the same place, and what
every value of the table is (here a list) is proven of the read, so its index is
plain too. The same values, errors and games with by_missing on and off."""

import re

import pytest

from interpreter.engine.codegen import ExpressionSource
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.generated import generated_sources
from tests.switches import on_and_off, same_games

SPEC = '''game: Missing
players: {min: 2, max: 2}
cards:
  gem:
    in: pile
    attrs: {worth: 2, costs: [1, 5]}
    list: [{name: ruby}, {name: opal, worth: 3, costs: [4]}]
  rock:
    in: ROCKS
    attrs: {weight: 3}
    list: [{name: flint}]
zones:
  pile: {visibility: public}
  heap: {visibility: public}
per_player:
  got: {start: 0}
functions:
  first_costs: {params: [], expr: "sum([c.costs[0] for c in pile if kind(c) == gem])"}
  worths: {params: [], expr: "sum([c.worth + c.costs[INDEX] for c in pile])"}
actions:
  take:
    for: c in pile
    when: kind(c) == gem and c.worth > 1 and c.costs[0] > 0
    label: '"take " + c'
    do: |
      player.got += worths()
      move(c, heap)
flow: |
  players[0].got = first_costs()
  for p in players:
      turn p: take
'''


def text(rocks="heap", index="0") -> str:
    return SPEC.replace("ROCKS", rocks).replace("INDEX", index)


def outcome(game):
    """The state after both turns (the first option each time), or the error's words."""
    try:
        st = game.new_state(2, 0)
        while not st.is_terminal():
            st.apply(0)
    except RulespecError as e:
        return ("error", str(e))
    return ("state", st.to_json(spec=False))


@pytest.mark.parametrize("rocks, index", [("heap", "0"), ("pile", "0"), ("heap", "1"), ("heap", "-1"),
                                          ("heap", "count(pile)")])
def test_a_read_is_the_same_value_or_error(rocks, index, monkeypatch):
    """Gems only; a rock in the pile (no worth, no costs: `take`'s test of its kind
    first keeps it from failing there, `worths` fails); an index past one gem's costs."""
    fast, slow = on_and_off(monkeypatch, ExpressionSource, "by_missing", path="missing.yaml",
                            text=text(rocks, index))
    assert outcome(fast) == outcome(slow)
    if rocks == "pile":
        assert outcome(fast)[0] == "error" and "flint has no 'worth' (in action take)" in outcome(fast)[1]
    elif index == "0":
        assert outcome(fast)[0] == "state"


def test_a_proven_cards_attribute_is_read_with_no_test(monkeypatch):
    """Every read of a card walked from a zone is one subscript of a CardTable, and its
    costs' index one more; with the switch off each tests the key and the list first."""
    def take():
        sources = generated_sources(text(), "missing.yaml", start=True)
        return "\n".join(s for name, s in sources.items() if name.startswith("<rulespec turn options"))
    fast = take()
    assert re.search(r"_cm\d+\[_v\d+\] > _k\d+", fast) and re.search(r"_cm\d+\[_v\d+\]\[_k\d+\] > ", fast)
    assert not re.search(r"in _ca\d+|__class__ is list", fast)
    monkeypatch.setattr(ExpressionSource, "by_missing", False)
    slow = take()
    assert "_cm" not in slow and re.search(r"in _ca\d+", slow) and "__class__ is list" in slow


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_card_tables_that_raise(spec, monkeypatch):
    fast, slow = on_and_off(monkeypatch, ExpressionSource, "by_missing", path=spec)
    same_games(fast, slow)


@pytest.mark.parametrize("names", ['[ruby, opal]', '[ruby, flint]', '[ruby, "nope"]', '[ruby, 3]', '[ruby, none]'])
def test_any_texts_attribute_is_the_same_value_or_error(names, monkeypatch):
    """A value not proven a card, read where the kinds say a card: an exact text is read
    from the CardTable with no test of the key (a card without it, a text that is no
    card: the same error), anything else the general way."""
    flow = f"flow: |\n  for n in {names}:\n      players[1].got += n.worth\n"
    spec = text().replace("flow: |\n", flow, 1)
    fast, slow = on_and_off(monkeypatch, ExpressionSource, "by_missing", path="missing.yaml", text=spec)
    assert outcome(fast) == outcome(slow)
    assert (outcome(fast)[0] == "state") == (names == '[ruby, opal]')
    sources = generated_sources(spec, "missing.yaml")
    assert any(re.search(r"\(_cm\d+\[(_\w+)\] if \(?\1( := [^)]+\))?\.__class__ is str else _attr", s)
               for s in sources.values())
