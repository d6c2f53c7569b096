"""Simple constants compiled as Python literals (codegen.py `literals`): an int, none
or a bool is loaded as a constant, not a global `_kN`; a text keeps its name, so no
text of the spec enters the source. The same values and errors in the same words,
and the same games, with by_literals on and off."""
import builtins
import re

import pytest

import interpreter.engine.codegen as codegen
from interpreter.engine.codegen import ExpressionSource, literals
from interpreter.engine.values import Seat
from tests.engine.test_cache_equivalence import SPECS
from tests.switches import evaluated, on_and_off, same_games

SPEC = '''game: Literals
players: {min: 2, max: 2}
constants:
  big: 100000000000000000000
  odd: -7
  sizes: {small: 1, large: 7}
globals:
  total: {start: 0}
  flag: {start: true}
  seen: {start: none}
flow: |
  total = total + 5 * sizes.large - big // 100000000000000000000
  seen = "done" if flag and seen == none else 3
scoring:
  score: "total"
'''
STEPS = ["1 // 0", "3 % 0", "-(3) + 2 * 4", "none + 1", "true + 1", "5.x", "total.x", "[1, 2][5]",
         "big * big", "odd + 1", "sizes.small - 9", "1 if flag else none", "[n + 1 for n in [1, none]]",
         "count(range(3)) == 3", '"a" + 1']


def games(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, ExpressionSource, "by_literals", **kwargs)


@pytest.mark.parametrize("step", STEPS)
def test_literals_give_the_same_value_or_error(step, monkeypatch):
    on, off = games(monkeypatch, path="literals.yaml", text=SPEC)
    first = evaluated(on, step)
    monkeypatch.setattr(ExpressionSource, "by_literals", False)   # the step compiles as it runs
    assert first == evaluated(off, step)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_literals(spec, monkeypatch):
    on, off = games(monkeypatch, path=spec)
    same_games(on, off)


def test_only_numbers_none_and_bools_are_written_as_literals():
    ns = {"_k1": 5, "_k2": None, "_k3": True, "_k4": "five", "_k5": 2 ** 70, "_k6": Seat(1),
          "_k7": 0.5, "_k8": [1], "_k9": -3}
    text = "f(_k1, _k2, _k3, _k4, _k5, _k6, _k7, _k8, _k9, _k10, x_k1, _k11x)"
    assert literals(text, ns) == "f((5), (None), (True), _k4, _k5, _k6, _k7, _k8, (-3), _k10, x_k1, _k11x)"


def test_the_source_holds_literals_and_no_text():
    sources, real = [], builtins.compile

    def spy(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)
    codegen.compile = spy
    try:
        from interpreter.engine.game import load_game
        load_game(path="literals.yaml", text=SPEC).new_state(2, 0)
    finally:
        del codegen.compile
    text = "\n".join(s for s in sources if isinstance(s, str))
    assert "(5)" in text and "(None)" in text
    assert "done" not in text and "total" not in text and re.search(r"st\.g\[_k\d+\]", text)


def test_an_operand_of_is_keeps_its_name():
    """`{a} is not None` with a constant for `a` would be `(2) is not None`: Python
    warns of it (SyntaxWarning, on the user's stderr) and an int's identity is not a
    new literal's, so an operand of `is` keeps its name."""
    ns = {"_k1": 2, "_k2": None}
    assert literals("(_k1 is not None and _k1 is _k2 and x is _k1 and _k1 + _k1)", ns) == \
        "(_k1 is not None and _k1 is _k2 and x is _k1 and (2) + (2))"


def test_constant_arguments_compile_with_no_warning(recwarn):
    text = ('game: T\nplayers: {min: 2, max: 2}\nglobals: {g: {start: 0}}\n'
            'flow: |\n  g = max(2, 2) + min(3, 4)\n  end game "x"\nscoring:\n  score: g\n')
    from interpreter.engine.game import load_game
    assert load_game(path="w.yaml", text=text).new_state(2, 0).scores() == [5, 5]
    assert not [w for w in recwarn if issubclass(w.category, SyntaxWarning)]
