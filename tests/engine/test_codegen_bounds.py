"""`x += y` and `x -= y` for a variable with numeric bounds test their usual case
once (codegen.py `checked_update`): the same values stored, and the same error in
the same words, the integer bound's before the variable's, with by_bounds on and off."""
import re

import pytest

from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.game import load_game
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.switches import on_and_off, same_games

SPEC = '''game: Bounds
players: {min: 2, max: 2}
limits: {integer_digits: 12}
globals:
  level: {start: 5, min: 0, max: 10}
  floor: {start: 5, min: 0}
  ceiling: {start: 5, max: 10}
  wide: {start: 0, min: -1000000000000000000000, max: 1000000000000000000000}
  free: {start: 0}
per_player:
  coins: {start: 5, min: 0}
flow: |
  STEP
scoring:
  score: "level"
'''

STEPS = ["level += 5", "level -= 5", "level += 6", "level -= 6", "level += 11 // 2", "level -= 0 - 5",
         "floor += 999999999990", "floor += 999999999999", "floor -= 6", "floor += 1000000000000",
         "ceiling -= 999999999999", "ceiling -= 1000000000010", "ceiling += 6", "ceiling += 5",
         "wide += 999999999999", "wide += 1000000000000", "wide -= 1000000000000", "wide -= 999999999999",
         "free += 1000000000000", "free += 3",
         "players[0].coins -= 5", "players[0].coins -= 6", "players[1].coins += 999999999994",
         "players[1].coins += 999999999999"]


def games(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, ExpressionSource, "by_bounds", **kwargs)


def outcome(game):
    try:
        st = game.new_state(2, 0)
    except RulespecError as e:
        return ("error", str(e))
    return ("state", st.to_json(spec=False))


@pytest.mark.parametrize("step", STEPS)
def test_a_bounded_update_stores_or_fails_alike(step, monkeypatch):
    fast, slow = games(monkeypatch, path="bounds.yaml", text=SPEC.replace("STEP", step))
    assert outcome(fast) == outcome(slow)


def test_out_of_bounds_updates_fail():
    """The fast path lets nothing through that the bounds refuse."""
    for step in ["level += 6", "level -= 6", "floor -= 6", "ceiling += 6", "players[0].coins -= 6",
                 "free += 1000000000000", "wide += 1000000000000"]:
        with pytest.raises(RulespecError):
            load_game(path="bounds.yaml", text=SPEC.replace("STEP", step)).new_state(2, 0)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_one_bounds_test(spec, monkeypatch):
    fast, slow = games(monkeypatch, path=spec)
    same_games(fast, slow)


def test_an_update_tests_its_bounds_once(monkeypatch):
    import builtins
    import interpreter.engine.codegen as codegen
    monkeypatch.setattr(ExpressionSource, "by_literals", False)     # bounds as the `_k` names written
    sources = []
    real = builtins.compile

    def spy(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)
    codegen.compile = spy
    try:
        load_game(path="bounds.yaml", text=SPEC.replace("STEP", "level += 5\n  floor -= 1")).new_state(2, 0)
    finally:
        del codegen.compile
    text = "\n".join(s for s in sources if isinstance(s, str))
    assert re.search(r"\(_r(\d+) := st\.g\[_k\d+\] \+ \(_k\d+\)\)\.__class__ is int and _k\d+ <= _r\1 <= _k\d+ else _chk", text)
    assert re.search(r"\(_r(\d+) := st\.g\[_k\d+\] - \(_k\d+\)\)\.__class__ is int and _k\d+ <= _r\1 < _IB else _chk", text)
