"""Spec functions written out at their calls, nested: a small function whose body
calls other small functions is written out with theirs (codegen.py
`inline_function`, `_note_inlinable`). Inlined or called, a call gives the same
value, evaluates its arguments once each and in order, and fails with the same
error in the same words at the same place; recursion stays a call; a function
that calls one compiled after it is written out with it at later calls."""
import builtins

import pytest

import interpreter.engine.codegen as codegen
from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.game import load_game
from rulespec.errors import RulespecError
from tests.switches import evaluated, on_and_off

SPEC = '''game: Nested
players: {min: 2, max: 2}
constants:
  prices: {corn: 2, wine: 3}
globals:
  total: {start: 0}
  rolls: {start: []}
  got: {start: 0}   # an update (+=) reads its target first: its value is not lowered
functions:
  # calls a function compiled after it
  early: {params: [x], expr: "late(x, x + 1) - 1"}
  price_of: {params: [m, k], expr: "m[k] * 10"}
  both: {params: [m, k], expr: "price_of(m, k) + price_of(m, k)"}
  twice_of: {params: [x], expr: "x + x"}
  # b's value before a's in the body, a's argument evaluated first at the call
  chain: {params: [a, b], expr: "twice_of(b) * 100 + twice_of(a)"}
  chained: {params: [a, b], expr: "chain(b, a) * 1000 + chain(a, b)"}
  ratio: {params: [a, b], expr: "a // b"}
  half_of: {params: [a], expr: "ratio(a, a - a) + 1"}
  count_down: {params: [n], expr: "0 if n <= 0 else count_down(n - 1) + 1"}
  even: {params: [n], expr: "true if n == 0 else odd(n - 1)"}
  odd: {params: [n], expr: "false if n == 0 else even(n - 1)"}
  late: {params: [a, b], expr: "b * 10 + a"}
  # comprehensions: written out where a statement computes them as loops
  evens: {params: [xs], expr: "[x for x in xs if x % 2 == 0]"}
  picked: {params: [xs, k], expr: "count(evens(xs)) * 100 + k + sum([x * k for x in xs])"}
  firsts: {params: [xs], expr: "[x[0] for x in xs]"}
procedures:
  settle:
    params: [xs]
    do: |
      got = picked(xs, 2)
flow: |
  total = chained(roll(6), roll(20)) + both(prices, "wine")
  rolls = [roll(6), chain(roll(6), roll(6)), roll(6)]
  total += count_down(5) + (1 if even(4) and odd(3) else 0) + early(roll(6)) * 1000000
  got = picked([roll(6), roll(6), 4], roll(6)) * 100000000 + count(firsts([[1], [2, 3]]))
  total += got
  rolls = rolls + evens([roll(6), roll(6), roll(6)]) + [picked(evens([roll(6), 2]), roll(6))]
scoring:
  score: "total"
'''

# scenario steps: each the same, inlined or called (errors raised two levels down)
STEPS = ['both(prices, "corn")', 'both(prices, "salt")', "both(3, 1)", "both([1, 2], 1)",
         "chained(1, 2)", 'twice_of("ab")', "chained(none, 1)", "chained(1, [2])",
         "half_of(4)", 'half_of("a")', "count_down(3)", "even(7)", "odd(7)",
         'price_of(prices, "wine") + both(prices, ratio(4, 0))', "early(2)", 'early("a")', "early([1])",
         "picked([1, 2, 3], 2)", "picked(3, 1)", 'picked([1, "a"], 2)', "picked([1], none)",
         "firsts([[1], 2])", "firsts(bag)", "evens(none)"]


def games(monkeypatch, text=SPEC):
    # by_kinds off: no inlining at all
    return on_and_off(monkeypatch, ExpressionSource, "by_kinds", "nested.yaml", text=text)


def test_nested_bodies_are_written_out_and_recursion_is_not():
    """The flow's statements call none of the chain's functions (their bodies are
    written out, two levels deep); recursion stays a call."""
    sources = []

    def spy(source, *args, **kwargs):
        sources.append(source)
        return builtins.compile(source, *args, **kwargs)
    codegen.compile = spy
    try:
        game = load_game("nested.yaml", text=SPEC)
    finally:
        del codegen.compile
    names = list(game.names.functions)
    call = {name: f"_fn{names.index(name)}(st" for name in names}
    flow = "\n".join(s for s in sources if s.startswith("def _s"))
    assert "roll" not in flow and flow.count("def _s") >= 3
    for name in ("price_of", "both", "twice_of", "chain", "chained", "early", "late",
                 "evens", "picked", "firsts"):
        assert call[name] not in flow, name
    # a function calling itself, or one calling it, is written out one level at most
    assert call["count_down"] in flow and (call["even"] in flow or call["odd"] in flow)


def test_a_nested_call_plays_as_the_called_one(monkeypatch):
    fast, slow = games(monkeypatch)
    a, b = fast.new_state(2, 0), slow.new_state(2, 0)
    assert a.scores() == b.scores() and a.g["rolls"] == b.g["rolls"]
    assert a.g["total"] == b.g["total"] and len(a.g["rolls"]) >= 4
    # roll(6) then roll(20), each once: chained(x, y) = chain(y, x) * 1000 + chain(x, y)
    x, y, *_, z, p, q, k = _rolls(fast, 2, 0, [6, 20, 6, 6, 6, 6, 6, 6, 6, 6])
    chained = (2 * x * 100 + 2 * y) * 1000 + 2 * y * 100 + 2 * x
    picked = (len([v for v in (p, q, 4) if v % 2 == 0]) * 100 + k + (p + q + 4) * k) * 100000000
    assert a.g["total"] == chained + 60 + 5 + 1 + ((z + 1) * 10 + z - 1) * 1000000 + picked + 2


def _rolls(game, players, seed, sides):
    """The rolls a fresh game of `seed` makes first, in order."""
    plain = load_game("plain.yaml", text=ROLLS.replace("SIDES", ", ".join(f"roll({n})" for n in sides)))
    return plain.new_state(players, seed).g["out"]


ROLLS = '''game: Rolls
players: {min: 2, max: 2}
globals:
  out: {start: []}
flow: |
  out = [SIDES]
scoring:
  score: "0"
'''


@pytest.mark.parametrize("step", STEPS)
def test_a_nested_call_fails_as_the_called_one(step, monkeypatch):
    fast, slow = games(monkeypatch)
    first = evaluated(fast, step)
    monkeypatch.setattr(ExpressionSource, "by_kinds", False)   # the step compiles as it runs
    assert first == evaluated(slow, step)


@pytest.mark.parametrize("call, words", [
    ('both(prices, "salt")', 'both({corn: 2, wine: 3} (a map), "salt" (text)) cannot be done: salt has'),
    ("half_of(3)", "half_of(3 (a number)) cannot be done: division by zero"),
    # raised in loops written out two levels down, or in one of the caller's
    ('picked([1, "a"], 2)', "picked([1, a] (a list), 2 (a number)) cannot be done: a value of the wrong"),
    ("picked(3, 1)", "expected a list or a zone, got 3"),
    ("count(firsts([[1], 2]))", "firsts([[1], 2] (a list)) cannot be done: a number has no items"),
    ('settle([1, "a"])', "picked([1, a] (a list), 2 (a number)) cannot be done: a value of the wrong"),
])
def test_an_error_two_levels_down_is_placed_and_said_as_before(call, words, monkeypatch):
    statement = call if call.startswith("settle") else f"total = {call}"     # a procedure's, or the flow's
    text = SPEC.replace("  total = chained(", f"  {statement}\n  total = chained(")
    fast, slow = games(monkeypatch, text)
    errors = []
    for game in (fast, slow):
        with pytest.raises(RulespecError) as caught:
            game.new_state(2, 0)
        errors.append(caught.value)
    assert str(errors[0]) == str(errors[1])
    assert (errors[0].line, errors[0].col) == (errors[1].line, errors[1].col) != (None, None)
    assert errors[0].message.startswith(words)
