"""A loop written as lines meters a list's walk inline (codegen.py `metered`), as
_items and _range_items meter it: the same values, the same items walked (the
meter), the same error in the same words, with by_meter on and off."""
import re

import pytest

from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.game import load_game
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.engine.test_codegen_loops import SPEC, STEPS, outcome
from tests.switches import on_and_off, same_games

# walks of what is not a list (a zone, a map, a text, a number, none) and of ranges
# of what is not a whole number, at a comprehension written as a loop
MORE_STEPS = ['[t for t in [u for u in shelf]]', '[k for k in [c for c in prices]]', 'walks(prices)',
              'reds("abc")', 'reds(none)', 'reds(prices)', 'ranges(2.5)', 'ranges(true)', 'ranges(-3)',
              'ranges(100000000)', 'nested(shelf)', 'firsts(prices, "red")']


def games(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, ExpressionSource, "by_meter", **kwargs)


@pytest.mark.parametrize("step", STEPS + MORE_STEPS)
def test_an_inline_meter_walks_and_meters_alike(step, monkeypatch):
    inline, called = games(monkeypatch, path="loops.yaml", text=SPEC)
    first = outcome(inline, step)
    monkeypatch.setattr(ExpressionSource, "by_meter", False)   # the step compiles as it runs
    assert first == outcome(called, step)


@pytest.mark.parametrize("flow", [
    'for t in seen:\n    total += count(t)',
    'for t in bag:\n    total += 1',
    'for k in prices:\n    total += prices[k]',
    'for t in seen[0][0]:\n    total += 1',
    'for i in range(count(bag)):\n    total += i',
    'for i in range(seen[0][0]):\n    total += 1',
    'for i in range(-1):\n    total += 1',
    'for i in range(100000000):\n    total += 1',
])
def test_a_statements_walk_is_the_same_or_fails_alike(flow, monkeypatch):
    text = SPEC.split("flow: |")[0] + "flow: |\n" + "".join("  " + line + "\n" for line in flow.split("\n")) \
        + "scoring:\n  score: \"total\"\n"
    seen = []
    for game in games(monkeypatch, path="loops.yaml", text=text):
        try:
            st = game.new_state(2, 0)
            seen.append(("total", st.g["total"], game.meter[0]))
        except RulespecError as e:
            seen.append(("error", str(e)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_the_inline_meter(spec, monkeypatch):
    inline, called = games(monkeypatch, path=spec)
    same_games(inline, called)


def test_a_lists_walk_is_metered_with_no_call():
    import builtins
    import interpreter.engine.codegen as codegen
    sources = []
    real = builtins.compile

    def spy(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)
    codegen.compile = spy
    try:
        load_game("loops.yaml", text=SPEC).new_state(2, 0)
    finally:
        del codegen.compile
    text = "\n".join(s for s in sources if isinstance(s, str))
    assert re.search(r"_m\d+\[0\] = _t\d+ = _m\d+\[0\] \+ len\(_L\d+\)\n", text)       # a list's length
    assert re.search(r"_m\d+\[0\] = _t\d+ = _m\d+\[0\] \+ _L\d+\n", text)             # a range's
    assert "for _v" in text and not re.search(r"for _v\d+ in _items\(st, ", text.split("lambda")[0])


def test_a_range_walked_by_a_lowered_comprehension_is_metered_inline():
    """`range(n)` in a comprehension written as a loop (`_loop`) is walked as a range
    with its meter inline, as a statement's `for` walks it, with no call of _RI in
    the usual case: it was handed `metered` as a parse node, and so always called."""
    from tests.generated import generated_sources
    text = ('game: T\nplayers: {min: 2, max: 2}\nglobals: {g: {start: 0}, n: {start: 3}}\n'
            'flow: |\n  g = count([i for i in range(n) if i > 0 and [j for j in range(n)] != []])\n'
            '  end game "x"\nscoring:\n  score: g\n')
    source = "\n".join(generated_sources(text, "t.yaml", start=True).values())
    assert len(re.findall(r"_L\d+ = range\(_L\d+\)", source)) >= 2     # both walks
    assert load_game("t.yaml", text=text).new_state(2, 0).scores() == [2, 2]
