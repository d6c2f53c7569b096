"""An action's label that reads the state is made by a function of its player and
value (codegen `label_function`), tested once at entry for a card, not from an env
made per label: the same labels (the action vocabulary the adapters build on), the
same games and the same errors in the same words with by_arguments on and off."""

import random
import re

import pytest

from interpreter.engine.codegen import ExpressionSource
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.generated import generated_sources
from tests.switches import on_and_off, same_games

SPEC = '''game: Labels
players: {min: 2, max: 3}
globals:
  bonus: {start: 1}
cards:
  gem:
    in: pile
    attrs: {worth: 2}
    list: [{name: ruby}, {name: opal, worth: 3}, {name: jade}]
zones:
  pile: {visibility: public}
  heap: {visibility: public}
per_card:
  spots: {start: SPOTS}
  mark: {start: "!"}
per_player:
  got: {start: 0}
functions:
  words: {params: [c], expr: '"take " + c + " at " + c.spots[AT] + c.mark'}
actions:
  take:
    for: c in pile
    label: 'words(c)'
    do: |
      player.got += c.worth
      c.spots = ["heap"]
      move(c, heap)
  value:
    for: c in pile
    when: c.worth > 2
    label: 'c.worth + bonus'
    do: |
      bonus += 1
flow: |
  while count(pile) > 0:
      for p in players:
          if count(pile) > 0:
              turn p: take, value
'''


def spec(spots="[pile]", at="0") -> str:
    return SPEC.replace("SPOTS", spots).replace("AT", at)


def games(monkeypatch, spots="[pile]", at="0"):
    return on_and_off(monkeypatch, ExpressionSource, "by_arguments", path="labels.yaml", text=spec(spots, at))


def labels(game, seed=0, players=2) -> list:
    """Every decision's labels in a random game, or the error's words."""
    rng, out = random.Random(seed), []
    try:
        st = game.new_state(players, seed)
        while not st.is_terminal():
            options = st.legal_actions()
            out.append([o.label for o in options])
            st.apply(options[rng.randrange(len(options))])
    except RulespecError as e:
        out.append(("error", str(e)))
    return out


def test_the_labels_are_the_same(monkeypatch):
    fast, slow = games(monkeypatch)
    for seed in range(3):
        assert labels(fast, seed, 2 + seed % 2) == labels(slow, seed, 2 + seed % 2)
    assert labels(fast)[0] == ["take ruby at pile!", "take opal at pile!", "take jade at pile!", "4"]


@pytest.mark.parametrize("spots, at", [("[]", "0"), ("[pile]", "1"), ("[pile]", "-2")])
def test_a_label_that_fails_fails_alike(spots, at, monkeypatch):
    """An index past c.spots: in the same words at the same place."""
    fast, slow = games(monkeypatch, spots, at)
    assert labels(fast) == labels(slow)
    assert labels(fast)[-1][0] == "error"


def test_the_turn_makes_labels_by_the_functions_of_arguments(monkeypatch):
    """The fused options call the label functions, which test their card once at entry."""
    def written():
        sources = generated_sources(spec(), "labels.yaml", start=True)
        turn = next(s for name, s in sources.items() if name.startswith("<rulespec turn options"))
        return turn, [s for name, s in sources.items() if name.startswith("<rulespec label")]
    turn, made = written()
    assert "_turn_show" in turn and len(made) == 2
    # words(c): its card tested once at entry, its reads then with no test
    assert any(re.search(r"\) if (_a\d+)\.__class__ is str and \1 in _CARDS else \(", s) for s in made)
    monkeypatch.setattr(ExpressionSource, "by_arguments", False)
    turn, made = written()
    assert "_turn_show" not in turn and not made


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_labels_by_arguments(spec, monkeypatch):
    fast, slow = on_and_off(monkeypatch, ExpressionSource, "by_arguments", path=spec)
    same_games(fast, slow)
