"""A walk of a constant list of at most SHORT_WALK items whose body walks nothing goes
unmetered (codegen.py `short_walk`), as a zone's walk does: the same values and the
same errors in the same words with by_short_walks on and off; only the meter counts
less. A walk whose body holds a walk, a spec function's call or a walking builtin is
metered still, so walks nested in walks meter all but the innermost, and a spec
that nests constant walks without end still gets its LimitError from the clock."""
import re

import pytest

import interpreter.engine.functions as functions
from interpreter.engine.codegen import SHORT_WALK, ExpressionSource
from interpreter.engine.game import load_game
from rulespec.errors import LimitError, RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.engine.test_codegen_loops import outcome
from tests.generated import generated_sources
from tests.switches import on_and_off, same_games

LONG = SHORT_WALK + 1
SPEC = f'''game: Short
players: {{min: 2, max: 2}}
cards:
  tile:
    in: bag
    list:
      - {{name: a}}
      - {{name: b}}
zones:
  bag: {{visibility: public}}
constants:
  four: [1, 2, 3, 4]
  mixed: [1, "x", 3]
  tiles: [a, b, a]
  long: {list(range(LONG))}
  prices: {{red: 1, blue: 2}}
globals:
  total: {{start: 0}}
functions:
  twice: {{params: [n], expr: "n * 2"}}
  evens: {{params: [z], expr: "[n for n in four if n % 2 == 0 and n != z]"}}
flow: |
  total = count([n for n in four if n > 1]) + count(evens(2)) + sum([twice(n) for n in four])
  for n in four:
      total += n
scoring:
  score: "total"
'''

# snippets walking constants, each with the meter it gives with the switch on and off
METERED = [
    ("[n for n in four]", 0, 4),
    ("[n * 2 for n in four if n != 3]", 0, 4),
    ("[name(t) for t in tiles]", 0, 3),
    ("[[n for n in four] for m in four]", 4, 20),           # the outer walk holds a walk
    ("[[[n for n in four] for m in four] for k in four]", 20, 84),
    ("[n for n in four if n in [m for m in four]]", 4, 20),
    ("[twice(n) for n in four]", 4, 4),                     # a spec function's call
    ("[count(bag) for n in four]", 4, 4),                   # a builtin outside _FLAT_CALLS
    ("[n for n in long]", LONG, LONG),                      # more than SHORT_WALK items
    ("[k for k in prices]", 2, 2),                          # a map: its keys, metered
    ("evens(0)", 0, 4),
]
# snippets that fail, or walk what is not a short constant list
FAILING = ["[n // 0 for n in four]", "[n + 1 for n in mixed]", "[t.colour for t in tiles]",
           "[n for n in four if n.x]", "[four[n] for n in four]", "[n for n in prices if n > 1]",
           "[n for n in 3]", "[n * n for n in long if n > 2]"]


def games(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, ExpressionSource, "by_short_walks", **kwargs)


@pytest.mark.parametrize("step, on, off", METERED)
def test_a_short_walk_gives_the_same_value_unmetered(step, on, off, monkeypatch):
    short, metered = games(monkeypatch, path="short.yaml", text=SPEC)
    first = outcome(short, step)
    monkeypatch.setattr(ExpressionSource, "by_short_walks", False)   # the step compiles as it runs
    second = outcome(metered, step)
    assert first[0] == second[0] and first[0][0] == "value"
    assert (first[1], second[1]) == (on, off)


@pytest.mark.parametrize("loops", [True, False])
@pytest.mark.parametrize("step", FAILING)
def test_a_short_walk_fails_alike(step, loops, monkeypatch):
    monkeypatch.setattr(ExpressionSource, "by_loops", loops)    # as a loop and as a comprehension
    short, metered = games(monkeypatch, path="short.yaml", text=SPEC)
    first = outcome(short, step)
    monkeypatch.setattr(ExpressionSource, "by_short_walks", False)
    assert first[0] == outcome(metered, step)[0]


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_short_walks(spec, monkeypatch):
    short, metered = games(monkeypatch, path=spec)
    same_games(short, metered)


def test_a_short_walk_is_written_with_no_meter():
    sources = generated_sources(SPEC, "short.yaml", start=True)
    evens = sources["<rulespec function evens>"]
    four = re.search(r"for _v\d+ in (_k\d+):", evens)[1]      # walked as it is
    assert "meter" not in evens and "_items" not in evens
    # the walk calling twice (written out, a call all the same) is metered inline
    assert re.search(rf"\+ len\({four}\)\n(.*\n){{3}}\s*for _v\d+ in {four}:\n\s*_w\d+\.append\(\(_mul",
                     "\n".join(sources.values()))


def test_nested_constant_walks_still_read_the_clock(monkeypatch):
    """Eight constant walks nested: 16**8 items at the innermost, of which only the
    outer seven levels meter; the clock stops it all the same (looked at every 1,000
    items here, to end soon after the limit's second)."""
    monkeypatch.setattr(functions, "METER_CHUNK", 1000)
    text = "[a == 0 for a in k]"
    for v in "bcdefgh":
        text = f"[{text} == [] for {v} in k]"     # no builtin that meters the list it is given
    spec = (f"game: Deep\nplayers: {{min: 2, max: 2}}\nlimits: {{seconds: 1}}\n"
            f"constants:\n  k: {list(range(1, SHORT_WALK + 1))}\nglobals:\n  g: {{start: none}}\n"
            f"flow: |\n  g = {text}\nscoring:\n  score: \"0\"\n")
    game = load_game("deep.yaml", text=spec)
    with pytest.raises(LimitError, match=r"limits: seconds"):
        game.new_state(2, 0)
    assert isinstance(LimitError("x"), RulespecError)
