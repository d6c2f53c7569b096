"""max and min without `by` written inline for their usual cases (codegen.py
`_extreme`: one list, or two values neither none) give what the builtin gives:
the same value or the same error in the same words, each argument evaluated
once, in order, with the kinds' fast paths on and off."""
import pytest

from interpreter.engine.codegen import ExpressionSource
from tests.engine.test_codegen_kinds import SPEC, games
from tests.switches import evaluated

STEPS = ["max([3, 1, 2])", "min([3, 1, 2])", "max([])", "min([])", "max([none, 2])", "min([none])",
         "max([1, 'a'])", "max([[1], [0, 5]])", "max(1, 2)", "min(1, 2)", "max(2, 2)",
         "max(none, 2)", "min(2, none)", "max(none, none)", "max(1, 'a')", "min('a', 'b')",
         "max(3)", "min(bag)", "max(prices)", "max(count(bag), 1)", "min(count(bag), size(prices))",
         "max([t for t in bag])", "min([size(prices), count(bag)])", "max(second([1]), colour_of(3))",
         "min(colour_of(3), second([1]))", "max(1, 2, 3)", "min([1, 2], [0])",
         "[max(x, 1) for x in [0, 2]]", "[x for x in [max([1, 2]), min(0, 1)]]",
         "max(colour_of('a'), colour_of('b'))", "max(total, count(reds(bag)))"]


@pytest.mark.parametrize("step", STEPS)
def test_max_and_min_inline_give_the_builtins_value_or_error(step, monkeypatch):
    fast, slow = games(monkeypatch, path="kinds.yaml", text=SPEC)
    first = evaluated(fast, step)
    monkeypatch.setattr(ExpressionSource, "by_kinds", False)   # the step compiles as it runs
    assert first == evaluated(slow, step)


def test_max_and_min_are_written_inline(monkeypatch):
    # (a list proven short is written as Python's max: test_codegen_short_lists.py)
    monkeypatch.setattr(ExpressionSource, "by_short_lists", False)
    import builtins
    import re
    import interpreter.engine.codegen as codegen
    from interpreter.engine.game import load_game
    sources = []
    real = builtins.compile

    def spy(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)
    codegen.compile = spy
    try:
        game = load_game(path="kinds.yaml", text=SPEC)
        game.snippet("max([t for t in bag]) + min(count(bag), total) + max(second([[1], [2]]))", "expression")
    finally:
        del codegen.compile
    text = "\n".join(s for s in sources if isinstance(s, str))
    assert re.search(r"_LX\(_PYMAX, st, (_w\d+)\) if \(\1 := ", text)    # a list, tested
    assert re.search(r"_w(\d+)\.append\(_v\d+\)\n.*_LX\(_PYMAX, st, _w\1\)(?! if)", text, re.S)   # one made here: not
    assert re.search(r"_PYMIN\((_w\d+), (_w\d+)\) if \(\1 := .*\) is \1 and \(\2 := .*\) is not None and \1 is not None", text)
