"""Speculating, `+` and `-` on numbers keep small ints (codegen.py `small_arith`): a
sum of small ints is added with no test while it cannot reach the integer bound,
and any other value (a float, a bool, a text, an int near the bound) gives the
speculation up, so the exact version adds it, with its errors in its words at
the same place: the same values and errors with by_small on and off."""

import re

import pytest

import interpreter.engine.game as game_module
from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.values import Seat
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.engine.test_codegen_bounds import outcome
from tests.generated import generated_sources
from tests.switches import on_and_off, same_games

BOUND = 10 ** 40
SPEC = '''game: Small
players: {min: 2, max: 2}
limits: {integer_digits: 40}
constants:
  points: {lord: 3, lady: 2}
  shape: {a: 0, b: 0}     # names the keys a map may have
  huge: 1000000000000000000000000000000
per_player:
  m: {start: {a: A, b: B}}
  n: {start: 0}
functions:
  total: {params: [p], expr: "(points.lord + p.m.a if p.m.a != 0 else 0) + (points.lady + p.m.b) - 1"}
  spread: {params: [p], expr: "p.m.a - p.m.b - points.lord"}
  doubled: {params: [p], expr: "p.m.a + p.m.a + huge"}
actions:
  go:
    when: FN(player) != 12345     # in a turn's fused options, speculating
    label: '"go"'
    do: |
      player.n = FN(player)
flow: |
  for p in players:
      turn p: go
scoring:
  score: "p.n"
'''
NEAR = BOUND - 4      # total: 3 + NEAR + 2 + 0 - 1 == BOUND: one more than the bound allows


def spec(a, b, fn) -> str:
    """SPEC with p.m starting at {a: a, b: b} and each p.n set to fn(p)."""
    return SPEC.replace("A", str(a)).replace("B", str(b)).replace("FN", fn)


def games(monkeypatch, a=1, b=2, fn="total"):
    text = spec(a, b, fn)
    return on_and_off(monkeypatch, ExpressionSource, "by_small", path="small.yaml", text=text)


@pytest.mark.parametrize("fn", ["total", "spread", "doubled"])
@pytest.mark.parametrize("a, b", [(1, 2), (0, 5), (-7, 3), (NEAR - 1, 0), (NEAR, 0), (-NEAR, -9),
                                  (BOUND // 2, BOUND // 2), (BOUND - 1, 1),
                                  (BOUND - 10 ** 30, 0), (-BOUND, 0)])
def test_a_sum_is_the_same_value_or_error(a, b, fn, monkeypatch):
    """Small ints, ints past the small bound, sums one past the integer bound (a spec
    holds no fraction: validate refuses one): the same state, or the same error in
    the same words at the same FILE:LINE:COL."""
    fast, slow = games(monkeypatch, a, b, fn)
    assert outcome(fast) == outcome(slow)


def test_what_the_bounds_refuse_is_refused():
    """The fast path lets nothing through that the limits refuse."""
    for a, b, fn in [(NEAR, 0, "total"), (BOUND - 1, 1, "total"), (-NEAR, BOUND - 3, "spread"),
                     (BOUND // 2, 0, "doubled"), (BOUND - 10 ** 30, 0, "doubled")]:
        text = spec(a, b, fn)
        with pytest.raises(RulespecError, match=r"limits: integer_digits|too large to hold"):
            game_module.load_game(path="small.yaml", text=text).new_state(2, 0)


@pytest.mark.parametrize("value", [{"a": 1, "b": 2}, {"a": True, "b": False}, {"a": "x", "b": "y"},
                                   {"a": [1], "b": [2]}, {"a": Seat(1), "b": 1}, {"a": None, "b": 1},
                                   {"a": 2.5, "b": 1}, {"a": BOUND - 6, "b": 1}, {"a": 1}])
def test_a_value_the_kinds_do_not_foresee_gives_the_same_value_or_error(value, monkeypatch):
    """p.m set by hand, as no rule could: a bool, a text, a list, a seat or none
    where the checker's kind says a number; the speculating version gives up and
    the exact one says the same."""
    seen = []
    for game in games(monkeypatch):
        st = game.new_state(2, 0)
        st.pv["m"][0] = value
        row = []
        for fn in ("total", "spread", "doubled"):
            try:
                row.append(("value", game.calls[fn](st, Seat(0))))
            except Exception as e:   # noqa: BLE001 — compared as raised, class and words
                row.append(("error", type(e).__name__, str(e)))
        seen.append(row)
    assert seen[0] == seen[1]
    if value == {"a": 1, "b": 2}:
        assert seen[0] == [("value", 7), ("value", -4), ("value", 2 + 10 ** 30)]



def test_small_ints_are_added_with_no_test():
    """total's speculating version tests each of its two inner sums once for a small
    int and adds them, and takes 1 away, with no test; its exact version tests every
    sum for an int within the bound."""
    source = generated_sources(spec(1, 2, "total"), "small.yaml", start=True)
    fast, exact = source["<rulespec function total>"].split("except (KeyError, TypeError):")
    assert fast.count("_MISS()") == 2 and "_IB" not in fast
    assert exact.count("_NIB <") == 4 and "_MISS" not in exact


def test_a_constant_maps_item_is_a_constant(monkeypatch):
    """points.lord and points.lady, a constant map's number items read by constant keys,
    are constants when compiled (codegen `_constant_item`), read from no map at play;
    with proofs off (`by_proofs`, whose games test_codegen_kinds compares) they are
    read as before."""
    def total():
        return generated_sources(spec(1, 2, "total"), "small.yaml", start=True)["<rulespec function total>"]
    assert not re.search(r"_k\d+\)?\[_k\d+\]", total())
    monkeypatch.setattr(ExpressionSource, "by_proofs", False)
    assert "_attr(st, _k" in total()


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_small_ints(spec, monkeypatch):
    fast, slow = on_and_off(monkeypatch, ExpressionSource, "by_small", path=spec)
    same_games(fast, slow)
