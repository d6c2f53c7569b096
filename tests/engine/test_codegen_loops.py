"""Comprehensions written as loops (codegen.py `lowered`) play the same games as
comprehensions: the same values, the same items walked and metered, the same
error raised by the same part in the same words, nothing evaluated that the
expression would skip (`and`, `or`, an `if`'s branches) and nothing skipped that
it evaluates (`any` of a list builds the whole list first)."""
import pytest

from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.game import load_game
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.switches import on_and_off, same_games

SPEC = '''game: Loops
players: {min: 2, max: 2}
cards:
  tile:
    in: bag
    attrs: {colour: red}
    list:
      - {name: a, colour: red}
      - {name: b, colour: blue}
      - {name: c}
zones:
  bag: {visibility: public}
  shelf: {visibility: public}
constants:
  prices: {red: 1, blue: 2}
globals:
  total: {start: 0}
  seen: {start: []}
functions:
  colour_of: {params: [t], expr: "t.colour"}
  reds: {params: [z], expr: "[t for t in z if t.colour == 'red']"}
  pair: {params: [a, b], expr: "[a, b]"}
  firsts: {params: [z, k], expr: "count([t for t in z if t.colour == k]) + count(prices) + sum([prices[c] for c in [t.colour for t in z]])"}
  nested: {params: [z], expr: "[[u for u in [t, t] if u != 'b'] for t in z if count([v for v in z if v == t]) == 1]"}
  either: {params: [z, k], expr: "k == 'x' or count([t for t in z if t.colour == k]) > 0"}
  pick: {params: [z, k], expr: "[t for t in z] if k == 'all' else [] if k == 'none' else reds(z)"}
  walks: {params: [z], expr: "[c for c in [t.colour for t in z] if c in [d for d in prices]]"}
  ranges: {params: [n], expr: "[[j for j in range(i)] for i in range(n)]"}
flow: |
  total = count(reds(bag)) + firsts(bag, "red") + count(nested(bag)) + (1 if either(bag, "blue") else 0)
  seen = [pick(bag, "all"), pick(bag, "none"), pick(bag, "red"), walks(bag)]
  if count([t for t in bag if colour_of(t) == "red"]) > 1 and any([t == "a" for t in bag]):
      total += 10
  for t in [u for u in bag if u != "b"]:
      seen = seen + [[name(x) for x in bag if x != t]]
  for i in range(count(bag) - 1):
      total += i + count(ranges(i))
  while count([s for s in seen if count(s) > 5]) == 0 and count(seen) < 9:
      seen = seen + [[1, 2, 3, 4, 5, 6]]
scoring:
  score: "total + count(seen)"
'''

# snippets each of whose comprehensions is written as a loop, several failing
STEPS = ['[t for t in bag]', '[t for t in 3]', 'count([t for t in bag if t.colour == "red"])',
         'any([t.colour == "red" for t in ["a", 3]])', 'all([t.colour == "blue" for t in ["a", 3]])',
         'sum([prices[t.colour] for t in bag])',
         'pair(colour_of(3), [t for t in 3])', 'pair([t for t in 3], colour_of(3))',
         'pair(colour_of("a"), [t for t in bag])', 'pair(colour_of(3), [t for t in [1, 2, 3]])',
         'pair([t for t in [1, 2, 3]], colour_of(3))', 'false and count([t for t in [1, 2]]) > 0',
         'true or count([t for t in [1, 2]]) > 0', '[1] if false else [t for t in [1, 2]]',
         '[t for t in [1, 2]] if false else [3]', 'count([t for t in [1, 2] if t > 5 and [u for u in [t]]])', 'pair(total, [t.colour for t in [3]])',
         'false and count([t for t in 3]) > 0', 'true and count([t for t in 3]) > 0',
         'true or [t for t in 3] == []', 'false or [t for t in 3] == []',
         '1 if true else [t for t in 3]', '[t for t in 3] if false else 1', '1 if [t for t in 3] else 2',
         '[[u for u in [t, t]] for t in bag]', '[t for t in [u for u in bag] if t in [v for v in bag]]',
         '[t for t in [u.colour for u in bag] if t in [v.colour for v in [3]]]',
         '[k for k in prices]', '[z for z in [bag, shelf] if count([t for t in z]) > 0]',
         '[t for t in bag if t.nothing]', '[t.nothing for t in bag if t == "c"]',
         'firsts(bag, "red")', 'firsts(3, "red")', 'firsts(bag, 3)', 'nested(bag)', 'nested(3)',
         'either(bag, "x")', 'either(3, "x")', 'either(3, "y")', 'pick(3, "none")', 'pick(3, "all")',
         'walks(bag)', 'walks([3])', 'reds([t for t in ["a", "b", "c"]])',
         '-[t for t in bag]', 'not [t for t in bag]', '[t for t in bag][1]', '[t for t in bag][5]',
         '[t for t in bag] + [t for t in 3]', 'count(bag) + count([t for t in bag]) * 2',
         # range(n) walked as a range, metered as its list
         '[i for i in range(3)]', '[i * 2 for i in range(count(bag)) if i != 1]', '[i for i in range(0)]',
         '[i for i in range(-2)]', '[i for i in range("a")]', '[i for i in range(none)]',
         '[i for i in range(2.0)]', '[i for i in range(true)]', '[i for i in range(100000000)]',
         'count([i for i in range(3)]) + count(range(4))', 'ranges(3)', 'ranges(-1)', 'ranges("x")']


def games(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, ExpressionSource, "by_loops", **kwargs)


def outcome(game, text):
    """What evaluating `text` gives, and how many items it walked (the meter, which
    the evaluation starts at 0: flow.guarded)."""
    st = game.new_state(2, 0)
    try:
        result = ("value", game.snippet(text, "expression")(st, {}))
    except RulespecError as e:
        result = ("error", str(e))
    return result, game.meter[0]


def test_the_spec_plays_alike_with_and_without_loops(monkeypatch):
    loops, comprehensions = games(monkeypatch, path="loops.yaml", text=SPEC)
    a, b = loops.new_state(2, 0), comprehensions.new_state(2, 0)
    assert a.scores() == b.scores() and a.to_json(spec=False) == b.to_json(spec=False)


@pytest.mark.parametrize("step", STEPS)
def test_a_lowered_comprehension_gives_the_same_value_or_error(step, monkeypatch):
    loops, comprehensions = games(monkeypatch, path="loops.yaml", text=SPEC)
    first = outcome(loops, step)
    monkeypatch.setattr(ExpressionSource, "by_loops", False)   # the step compiles as it runs
    assert first == outcome(comprehensions, step)


@pytest.mark.parametrize("flow", [
    'total = count(pair(prices[top(bag)], [t for t in seen[1]]))',
    'total = count(pair([t for t in seen[1]], prices[top(bag)]))',
    'if count(bag) > 0 and count([t for t in bag if prices[t] > 0]) > 0:\n    total = 1',
    'for t in [u for u in seen[2]]:\n    total += 1',
    'for t in bag where count([u for u in [t] if prices[u] > 0]) > 0:\n    total += 1',
    'total = count([t for t in bag]) + count(seen[4])',
    'seen = [t for t in bag if colour_of(t) == seen[3]]',
    'move(top(bag), [z for z in [shelf, bag]][2])',
    'total = 1 if count(bag) == 0 else count([t for t in bag if prices[t] > 0])',
    'while count([t for t in seen[0]]) == 0:\n    total += 1',
    'for i in range(seen[1]):\n    total += 1',
    'for i in range(count(bag)):\n    total += seen[i]',
    'for i in range(100000000):\n    total += 1',
])
def test_an_error_in_a_lowered_statement_is_placed_and_worded_alike(flow, monkeypatch):
    text = SPEC.split("flow: |")[0] + "flow: |\n" + "".join("  " + line + "\n" for line in flow.split("\n")) \
        + "scoring:\n  score: \"total\"\n"
    loops, comprehensions = games(monkeypatch, path="loops.yaml", text=text)
    errors = []
    for game in (loops, comprehensions):
        with pytest.raises(RulespecError) as caught:
            game.new_state(2, 0)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]


def test_the_comprehensions_are_written_as_loops():
    import builtins
    import interpreter.engine.codegen as codegen
    sources = []
    real = builtins.compile

    def spy(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)
    codegen.compile = spy
    try:
        load_game("loops.yaml", text=SPEC)
    finally:
        del codegen.compile
    functions = [s for s in sources if s.startswith("def _fn(")]
    assert len(functions) == 7      # all but colour_of and pair, which have none
    assert not any(map(_comprehensions, functions))
    assert any(map(_comprehensions, sources))   # an `if` that holds one in a `while` test keeps it


def _comprehensions(source) -> bool:
    """Whether compiling `source` makes a comprehension's code object."""
    def walk(code):
        yield code
        for c in code.co_consts:
            if hasattr(c, "co_consts"):
                yield from walk(c)
    return any(c.co_name == "<listcomp>" for c in walk(compile(source, "<test>", "exec")))


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_loops(spec, monkeypatch):
    loops, comprehensions = games(monkeypatch, path=spec)
    same_games(loops, comprehensions, seeds=3)


TURN = '''game: Turns
players: {min: 2, max: 2}
cards:
  tile:
    in: bag
    attrs: {colour: red}
    list:
      - {name: a, colour: red}
      - {name: b, colour: blue}
      - {name: c}
zones:
  bag: {visibility: public}
globals:
  bad: {start: 0}
actions:
  plain:
    do: "bad = 1"
  pick:
    for: t in [u for u in bag if u != "c"]
    when: count([v for v in bag if v.colour == t.colour]) > 0
    label: '"pick " + t + " " + text(count(bag))'
    do: "bad = 2"
  check:
    when: count([v for v in bag if v.colour == "red"]) > 1
    do: "bad = 3"
  broken:
    for: t in bag
    when: t.colour == "red" and count([v for v in BROKEN]) > 0
    do: "bad = 4"
flow: |
  turn 1 until done: plain, pick, check, broken
scoring:
  score: "bad"
'''


@pytest.mark.parametrize("broken", ["bag", "[bag, bag][5]"])
def test_a_turns_options_as_loops_are_the_same_options_or_the_same_error(broken, monkeypatch):
    """The fused turn options (game.turn_options) as loops: the same (action, value)
    pairs and labels, and the same error said at the same action, with its meter."""
    loops, comprehensions = games(monkeypatch, path="turns.yaml", text=TURN.replace("BROKEN", broken))
    seen = []
    for game in (loops, comprehensions):
        try:
            st = game.new_state(2, 0)
            options = st.legal_actions()
            seen.append(("options", st.pending.values, [o.label for o in options], game.meter[0]))
        except RulespecError as e:
            seen.append(("error", str(e)))
    assert seen[0] == seen[1]
    assert seen[0][0] == ("options" if broken == "bag" else "error")


def test_a_turns_options_are_written_as_loops():
    import builtins
    import interpreter.engine.game as game_module
    sources = []
    real = builtins.compile

    def spy(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)
    game_module.compile = spy
    try:
        load_game("turns.yaml", text=TURN.replace("BROKEN", "bag")).new_state(2, 0)
    finally:
        del game_module.compile
    fused = [s for s in sources if isinstance(s, str) and s.startswith("def _turn_options(")]
    assert len(fused) == 1 and not _comprehensions(fused[0])
