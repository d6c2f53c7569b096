"""max, min, index_of, occurrences, first, last, any and all of a list proven to hold at most SHORT_WALK
items are written as Python's list operations (codegen.py `short_list`): the same
values and the same errors in the same words with by_short_lists on and off; only
the meter counts less (such a list's look-up is not metered, as `in` on it is not).
A list that may be longer, or is not proven a list, goes through the builtin."""
import re

import pytest

from interpreter.engine.codegen import SHORT_WALK, ExpressionSource
from interpreter.engine.game import load_game
from tests.engine.test_cache_equivalence import SPECS
from tests.engine.test_codegen_loops import outcome
from tests.generated import generated_sources
from tests.switches import on_and_off, same_games

LONG = SHORT_WALK + 1
SPEC = f'''game: Lists
players: {{min: 2, max: 4}}
cards:
  tile:
    in: bag
    list:
      - {{name: a}}
      - {{name: b}}
zones:
  bag: {{visibility: public}}
constants:
  four: [3, 1, 4, 1]
  mixed: [1, "x", 3]
  long: {list(range(LONG))}
per_player:
  points: {{start: 0}}
globals:
  total: {{start: 0}}
functions:
  leader: {{params: [xs], expr: "index_of(xs, max(xs)) if occurrences(xs, max(xs)) == 1 else none"}}
  top: {{params: [], expr: "leader([p.points + count(four) for p in players])"}}
  piles: {{params: [], expr: "[bag, bag]"}}
  pile: {{params: [], expr: "first(piles())"}}
flow: |
  total = 9 if top() == none or pile() != bag else top()
scoring:
  score: "total"
'''

# snippets on short lists, each with the meter it gives with the switch on and off
METERED = [
    ("max([n for n in four])", 0, 4),           # the walk is short (by_short_walks): max's own meter only
    ("min([n + 1 for n in four if n > 1])", 0, 2),
    ("max([n for n in four if n > 9])", 0, 0),  # no item: none
    ("min([])", 0, 0),
    ("max([none, 2])", 0, 2),                   # a none is left out
    ("min([none, none])", 0, 2),
    ("index_of([n for n in four], 1)", 0, 4),
    ("index_of([n for n in four], 7)", 0, 4),   # not there: none
    ("index_of([1, 'x'], 'x')", 0, 2),
    ("occurrences([n for n in four], 1)", 0, 4),
    ("occurrences([n for n in four], 'a')", 0, 4),
    ("occurrences([[1], [1]], [1])", 0, 2),
    ("index_of([t for t in bag], b)", 0, 2),
    ("index_of(four, 4)", 0, 4),                # a constant list
    ("first([n for n in four if n > 3])", 0, 1),
    ("last([n for n in four])", 0, 4),
    ("first([n for n in four if n > 9])", 0, 0),  # no item: none
    ("any([n > 3 for n in four])", 0, 4),
    ("all([n > 3 for n in four])", 0, 4),
    ("all([])", 0, 0),
    ("first(([n for n in four]))", 0, 4),       # in brackets: the same list
    ("[max([n, 1]) for n in four]", 4, 12),     # the walk calls a builtin: metered
    ("leader([n for n in four])", 16, 16),      # a parameter: any value, the builtins
    ("leader([5, 5, 1])", 6, 6),
    ("max([n for n in long])", 2 * LONG, 2 * LONG),       # may be longer: the builtin
    ("occurrences(long, 3)", LONG, LONG),
]
# snippets that fail, alike with the switch on and off
FAILING = ["first([1], 2)", "any([1, 2], 3)", "max([n for n in mixed])", "min([1, 'x'])", "max([[1], 2])", "index_of([1, 2])",
           "occurrences([1], 1, 2)", "max([n for n in four], 1, 2)", "max([n // 0 for n in four])",
           "index_of([n for n in four], [n for n in 3])", "max([n for n in 3])"]


def games(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, ExpressionSource, "by_short_lists", **kwargs)


@pytest.mark.parametrize("step, on, off", METERED)
def test_a_short_list_gives_the_builtins_value_unmetered(step, on, off, monkeypatch):
    short, general = games(monkeypatch, path="lists.yaml", text=SPEC)
    first = outcome(short, step)
    monkeypatch.setattr(ExpressionSource, "by_short_lists", False)   # the step compiles as it runs
    second = outcome(general, step)
    assert first[0] == second[0] and first[0][0] == "value"
    assert (first[1], second[1]) == (on, off)


@pytest.mark.parametrize("loops", [True, False])
@pytest.mark.parametrize("step", FAILING)
def test_a_short_list_fails_alike(step, loops, monkeypatch):
    monkeypatch.setattr(ExpressionSource, "by_loops", loops)    # as a loop and as a comprehension
    short, general = games(monkeypatch, path="lists.yaml", text=SPEC)
    first = outcome(short, step)
    monkeypatch.setattr(ExpressionSource, "by_short_lists", False)
    assert first[0] == outcome(general, step)[0] and first[0][0] == "error"


def test_values_are_exact():
    """What the written operations give (not only alike on and off)."""
    game = load_game("lists.yaml", text=SPEC)
    values = [outcome(game, step)[0][1] for step, *_ in METERED[:14]]
    assert outcome(game, "count(four) * 100 + count(long)")[0] == ("value", 417)   # folded: lengths
    assert values == [4, 4, None, None, 2, None, 1, None, 1, 2, 0, 2, 1, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_spec_plays_alike(players, monkeypatch):
    short, general = games(monkeypatch, path="lists.yaml", text=SPEC)
    a, b = short.new_state(players, 0), general.new_state(players, 0)
    assert a.scores() == b.scores() and a.to_json(spec=False) == b.to_json(spec=False)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_short_lists(spec, monkeypatch):
    short, general = games(monkeypatch, path=spec)
    same_games(short, general)


def test_a_short_list_is_written_with_no_call():
    sources = generated_sources(SPEC, "lists.yaml", start=True)
    top = sources["<rulespec function top>"]
    assert "_LX" not in top and "_f" not in top.replace("_fn", "")
    assert re.search(r"_PYMAX\((_w\d+)\) if None not in \1 and \1 else _SX\(_PYMAX, \1\)", top)
    assert re.search(r"(_w\d+)\.index\((_w\d+)\) if \(\2 := .*\) in \1 else None", top)
    assert re.search(r"_w\d+\.count\(\(_PYMAX", top)
    # a short list written out from a function (in brackets) is as short
    assert re.search(r"\((_w\d+)\[0\] if \(\1 := \(\[_k\d+, _k\d+\]\)\) else None\)",
                     sources["<rulespec function pile>"])
    appends = [line for line in top.split("\n") if ".append(" in line]
    assert appends and not any("len(_k" in line for line in appends)    # count(four): a constant
