"""A builtin whose value is always of one class (codegen.py `_RESULT_PROOF`: tally a
map, keys, sort, unique, ... a list, others a list of seats) is proven that: a map
it gives is walked, metered, read and asked `get` with no test of its class or
call of _items. The same values, items walked (the meter) and errors in the same
words with proofs (by_proofs) on and off, and with the inline meter (by_meter)."""
import re

import pytest

from interpreter.engine.codegen import ExpressionSource
from tests.engine.test_codegen_loops import SPEC, outcome
from tests.generated import generated_sources
from tests.switches import on_and_off

STEPS = ['[k for k in tally(["a", "b", "a"])]', 'sum([tally(["x", "x", "y"])[k] for k in tally(["x", "x", "y"])])',
         'get(tally(["a"]), "a", 0)', 'get(tally(["a"]), "z")', 'get(tally(["a"]), [1], 0)',
         'get(with_key(tally(["a"]), "b", 2), "b")', '[k for k in tally([[1]])]', 'tally(3)',
         '[p for p in others(players[0]) if p != 7]', '[k for k in keys(prices) if prices[k] > 1]',
         '[x * 2 for x in sort([3, 1])]', '[x for x in unique([1, 1, 2])]', '[x for x in flatten([[1], [2]])]',
         'count([x for x in remove([1, 2], 1)])', 'max(reverse([1, 2]))', '[x for x in append([1], 2)]',
         '[x for x in rotate([1, 2, 3], 2)]', '[x for x in rotate([1, 2, 3], 5)]', '[t for t in cards(bag)]',
         '[[u for u in tally([t, t])] for t in bag]', 'get(3, 1)', 'get(prices, "red")']


@pytest.mark.parametrize("switch", ["by_proofs", "by_meter"])
@pytest.mark.parametrize("step", STEPS)
def test_a_builtins_proven_value_gives_the_same(step, switch, monkeypatch):
    fast, slow = on_and_off(monkeypatch, ExpressionSource, switch, path="loops.yaml", text=SPEC)
    first = outcome(fast, step)
    monkeypatch.setattr(ExpressionSource, switch, False)   # the step compiles as it runs
    assert first == outcome(slow, step)


def test_values_are_exact():
    from interpreter.engine.game import load_game
    game = load_game("loops.yaml", text=SPEC)
    assert [outcome(game, step) for step in STEPS[:4]] == [
        (("value", ["a", "b"]), 3 + 2), (("value", 3), 3 + 2 + 2 * 3 + 2), (("value", 1), 1), (("value", None), 1)]


def test_a_map_from_tally_is_walked_and_read_with_no_test():
    text = SPEC.split("flow: |")[0] + (
        'flow: |\n  total = sum([tally(["x", "x", "y"])[k] for k in tally(["x", "x", "y"])])'
        ' + get(tally(["a"]), "a", 0)\nscoring:\n  score: "total"\n')
    source = next(s for s in generated_sources(text, "loops.yaml", start=True).values() if ".get(" in s)
    walked = re.search(r"(_L\d+) = _f\d+\(st, \[_k\d+, _k\d+, _k\d+\]\)", source)[1]
    assert re.search(rf"_m\d+\[0\] \+ len\({walked}\)\n(.*\n){{2,3}}\s*for _v\d+ in {walked}:", source)
    assert re.search(r"_f\d+\(st, \[_k\d+\]\)\.get\(_k\d+, _k\d+\)", source)
    assert "_items(" not in source and "__class__ is dict" not in source
