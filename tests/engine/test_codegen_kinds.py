"""Generated code specialised by the checker's kinds (codegen.py `kind`) plays the
same games as the general code, and a value the kind did not foresee (a
scenario step's argument the spec's own calls never pass) takes the general
way: the same result, or the same error in the same words."""
import re

import pytest

from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.game import load_game
from tests.engine.test_cache_equivalence import SPECS, transcript
from tests.shipped import shipped
from tests.switches import evaluated, on_and_off, same_games

SPEC = '''game: Kinds
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
functions:
  colour_of: {params: [t], expr: "t.colour"}
  reds: {params: [z], expr: "[t for t in z if t.colour == 'red']"}
  price: {params: [m, k], expr: "m[k]"}
  holds: {params: [xs, x], expr: "x in xs"}
  size: {params: [xs], expr: "count(xs)"}
  second: {params: [xs], expr: "xs[1]"}
  pair: {params: [a, b], expr: "[a, b]"}
  joined: {params: [a, b], expr: "a + b"}
  shout: {params: [t], expr: "t + '!'"}
flow: |
  total = count(joined([1], [2])) + (1 if shout("a") == "a!" else 0) - 3
  total += count([pair(x, x) for x in [1, 2] if pair(x, x) == [x, x]]) - 2
  total += count(reds(bag)) + price(prices, colour_of(top(bag))) + size(prices) + size(second([[1], [2, 3]]))
  if holds(prices, "red") and holds(bag, top(bag)) and not holds([1, 2], 3):
      total += size(bag)
scoring:
  score: "total"
'''

# scenario steps whose arguments are of kinds the spec's calls never pass
STEPS = ['colour_of("a")', 'colour_of("c")', 'colour_of("nowhere")', "colour_of(3)",
         "colour_of(players[0])", "colour_of([1])", "colour_of(prices)", "colour_of(none)",
         "reds(shelf)", "reds([\"a\", \"b\"])", "reds(3)", "reds(prices)",
         'price(["x", "y"], 1)', 'price(prices, "green")', "price(bag, 0)", 'price(3, 1)',
         "holds([1, 2], 2)", 'holds(bag, "a")', "holds(3, 1)", 'holds("abc", "a")',
         "size(bag)", "size([1, 2, 3])", "size(3)", 'size("abc")', "size(none)",
         "second(bag)", "second(prices)", "second([4, 5])", "second(3)",
         'price(second([1]), colour_of(3))', 'price(prices, colour_of(top(bag)))',
         'holds(bag, colour_of(none))', 'pair(total, total)', 'pair(second([1]), 1)',
         "joined([1], [2])", "joined(1, 2)", 'joined("a", "b")', "joined([1], 2)", "joined(none, [1])",
         'shout("a")', "shout(3)", "shout([1])",
         "name(3)", 'name("nowhere")', 'kind("a")', "name([1])", "name(top(bag))", "name(bag)"]


def games(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, ExpressionSource, "by_kinds", **kwargs)


def test_the_spec_plays_alike_with_and_without_kinds(monkeypatch):
    fast, slow = games(monkeypatch, path="kinds.yaml", text=SPEC)
    assert fast.new_state(2, 0).scores() == slow.new_state(2, 0).scores()
    assert fast.new_state(2, 0).scores()[0] == 2 + 1 + 2 + 2 + 3   # reds a and c, red costs 1, two prices, [2, 3], three tiles


@pytest.mark.parametrize("step", STEPS)
def test_a_value_of_an_unforeseen_kind_takes_the_general_way(step, monkeypatch):
    fast, slow = games(monkeypatch, path="kinds.yaml", text=SPEC)
    first = evaluated(fast, step)
    monkeypatch.setattr(ExpressionSource, "by_kinds", False)   # the step compiles as it runs
    assert first == evaluated(slow, step)


def test_the_kinds_choose_the_fast_paths():
    """The specialised source: a card attribute from its table, a map's item and
    `in` inline, a zone walked directly, a list's count its length, a small spec
    function's body at its call."""
    import builtins
    import interpreter.engine.codegen as codegen
    sources = []
    real = builtins.compile

    def spy(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)
    codegen.compile = spy
    try:
        load_game("kinds.yaml", text=SPEC)
    finally:
        del codegen.compile
    text = "\n".join(sources)
    assert "_attr(" in text and "_index(" in text     # kept for the rest
    assert "__class__ is dict else _index(" in text
    assert "[*st.zones[" in text
    assert "__class__ is list else" in text and "len(" in text
    assert re.search(r"in _ca|_cm\d+\[", text)     # the table, or its CardTable (by_missing)
    # small functions are written out where they are called (pair, the 7th, is);
    # one with a comprehension (reds, the 2nd) is called
    assert "_fn1(st" in text and "_fn6(st" not in text


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_kinds(spec, monkeypatch):
    fast, slow = games(monkeypatch, path=spec)
    same_games(fast, slow)


def test_a_deep_chain_of_indexes_is_written_once_per_level():
    """A map index's fast path and its general way both read the key: the key is
    bound once, so the source grows with the depth, not twice per level."""
    depth = 30
    expr = 'm[' * depth + '"a"' + ']' * depth
    spec = f'''game: Deep
players: {{min: 2, max: 2}}
constants:
  m: {{a: "a"}}
globals:
  x: {{start: "b"}}
flow: |
  x = {expr}
scoring:
  score: "1 if x == 'a' else 0"
'''
    game = load_game("deep.yaml", text=spec)
    assert game.new_state(2, 0).scores() == [1, 1]


# ---------------------------------------------------------------- proofs
# Values proven of their class by how they are made (codegen.py `proof`): a zone's
# walk gives card ids, players' walk seats, a parameter tested once at a function's
# entry (or a turn's player at its options' entry) its class, a constant its own.
# Their reads test nothing; any other value takes the body written as before.
PROVEN = '''game: Proofs
players: {min: 2, max: 2}
cards:
  tile:
    in: bag
    attrs: {colour: red, worth: 1}
    list:
      - {name: a, colour: red, worth: 2}
      - {name: b, colour: blue}
      - {name: c, shade: dark}
zones:
  bag: {visibility: public}
player_zones:
  hand: {visibility: public}
constants:
  prices: {red: 1, blue: 2}
  steps: [1, 2, 3]
  levels: {low: {cost: 1}, high: {cost: 3}}
per_player:
  coins: {start: 3}
per_card:
  marked: {start: false}
globals:
  total: {start: 0}
functions:
  rich: {params: [p], expr: "p.coins + count(p.hand) + p.coins"}
  hand_worth: {params: [p], expr: "sum([t.worth for t in p.hand if t.colour == 'red']) + p.coins"}
  dark: {params: [t], expr: "t.shade == 'dark' or t.marked or t.shade == 'light'"}
  worth_of: {params: [t], expr: "t.worth * 2 + t.worth + (1 if t.marked else 0)"}
  shades: {params: [z], expr: "[t.shade for t in z if t.worth > 0 and name(t) == 'c' and t.shade != 'x']"}
  priced: {params: [], expr: "prices.red + prices['blue'] + steps[1] + count(steps) + (1 if 'a' in bag else 0)"}
  missing: {params: [k], expr: "prices[k] + steps[k]"}
  seats: {params: [], expr: "[q.coins + count(q.hand) for q in players]"}
  piles: {params: [p, i], expr: "count([p.hand, p.hand][i]) + count([z for z in [p.hand, bag] if count(z) >= 0][i]) + sum([count(z) for z in [bag, p.hand]])"}
  affordable: {params: [p], expr: "[t for t in bag if t.worth <= p.coins + total and count([u for u in p.hand if u != t and p.coins >= total]) >= 0]"}
  lookups: {params: [k, i], expr: "levels[k]['cost'] * 2 + levels[k]['cost'] + [4, 5, 6][i] + (1 if k in ['low', 'mid'] else 0)"}
actions:
  take:
    for: t in bag
    when: t.colour == "red" and player.coins > count(player.hand) and not t.marked
    do: "move(t, player.hand)"
  mark:
    for: t in player.hand
    when: t.worth > 0 and player.coins > 0
    do: "t.marked = true"
  stop:
    when: "player.coins > 0 and count(player.hand) >= 0"
    do: "player.coins -= 1"
flow: |
  total = rich(players[0]) + hand_worth(players[1]) + worth_of("a") + count(shades(bag)) + priced() + sum(seats())
  while total < 40:
      turn players[0]: take, mark, stop
      total += 1 + (1 if dark("c") else 0)
scoring:
  score: "total + hand_worth(p) + lookups('high', 2) + piles(p, 1) + count(affordable(p))"
'''

PROVEN_STEPS = ["rich(players[1])", "rich(1)", "rich(7)", 'rich("a")', "rich([1])",
                "hand_worth(players[0])", "hand_worth(0)", 'hand_worth("a")', "hand_worth(none)",
                'dark("a")', 'dark("c")', 'dark("nowhere")', "dark(3)", "dark(players[0])", "dark(bag)",
                'worth_of("a")', 'worth_of("b")', 'worth_of("c")', 'worth_of("x")', "worth_of(2)",
                "worth_of([1])", "shades(bag)", "shades(hand)", "priced()", "affordable(players[0])", "affordable(players[1])", "affordable(0)",
                'affordable("a")', "piles(players[0], 1)", "piles(players[1], 3)", "piles(1, 0)",
                'piles(players[0], "a")', "piles(none, 0)", 'lookups("low", 0)', 'lookups("mid", 0)', 'lookups("high", 5)',
                'lookups(3, 0)', 'lookups("low", "a")', 'lookups(prices, 1)', 'missing("red")', 'missing("green")', "missing(1)",
                "missing(5)", "seats()"]


def games_with_proofs(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, ExpressionSource, "by_proofs", **kwargs)


def test_the_spec_plays_alike_with_and_without_proofs(monkeypatch):
    fast, slow = games_with_proofs(monkeypatch, path="proofs.yaml", text=PROVEN)
    assert transcript(fast, 2, 0) == transcript(slow, 2, 0)


@pytest.mark.parametrize("step", PROVEN_STEPS)
def test_a_value_not_proven_takes_the_body_as_before(step, monkeypatch):
    fast, slow = games_with_proofs(monkeypatch, path="proofs.yaml", text=PROVEN)
    first = evaluated(fast, step)
    monkeypatch.setattr(ExpressionSource, "by_proofs", False)   # the step compiles as it runs
    assert first == evaluated(slow, step)


def test_proven_values_are_read_with_no_test():
    """The sources: a parameter tested once at entry, a zone's cards read from a
    full card table with no test, a partial one with its key's test only, a
    turn's options written again for a seat."""
    import builtins
    import interpreter.engine.codegen as codegen
    import interpreter.engine.game as game_module
    sources = []
    real = builtins.compile

    def spy(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)
    codegen.compile = game_module.compile = spy
    try:
        load_game("proofs.yaml", text=PROVEN).new_state(2, 0)
    finally:
        del codegen.compile, game_module.compile
    text = "\n".join(s for s in sources if isinstance(s, str))
    assert re.search(r"if (_a\d+)\.__class__ is _Seat and -1 < \1 < st\.n:", text)   # a seat parameter's entry
    assert re.search(r" if (_a\d+)\.__class__ is str and \1 in _CARDS else ", text)    # a card's, in a lambda
    assert "if _turn_player.__class__ is _Seat and -1 < _turn_player < st.n:" in text
    assert "[*st.zones[_PZ[" in text    # a seat's hand walked with no test
    assert re.search(r"_h\d+ = st\.pv\[_k\d+\]\[_a\d+\]\n", text)    # a seat's variable read once before a loop
    assert re.search(r"_h\d+ = st\.g\[_k\d+\]\n", text)    # a global's
    # the seat's branch of hand_worth: its cards' attributes read from full tables, no test
    worth = next(s for s in sources if isinstance(s, str) and s.startswith("def _fn(") and "_Seat and" in s
                 and "for " in s)
    fast = _block_under(worth, "_Seat and")     # the lines under the entry's test
    assert "[*st.zones[_PZ[" in fast and "_ca" in fast and "__class__ is str and _v" not in fast


def _block_under(source, test) -> str:
    """The lines of `source` indented under its first line holding `test`."""
    lines = source.split("\n")
    at = next(i for i, line in enumerate(lines) if test in line)
    depth = len(lines[at]) - len(lines[at].lstrip())
    block = []
    for line in lines[at + 1:]:
        if len(line) - len(line.lstrip()) <= depth:
            break
        block.append(line)
    return "\n".join(block)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_proofs(spec, monkeypatch):
    fast, slow = games_with_proofs(monkeypatch, path=spec)
    for seed in range(2):
        players = fast.min_players + 1 + seed
        assert transcript(fast, players, seed) == transcript(slow, players, seed)


# ------------------------------------------------------------ keyed calls
# sort, max and min with by= written as generated code, their key a lambda
# (codegen.py `keyed`), against the closure compiler's (compile._by_item)
KEYED_STEPS = ["sort(players, by=it.coins)", "sort(players, by=[it.coins, 0 - it], descending=true)",
               "sort(bag, by=it.worth)", "sort(bag, by=name(it), descending=count(bag) > 1)",
               "sort([3, 1, 2], by=0 - it)", "sort([3, 1, 2], descending=true)", "sort([1, 'a'], by=it)",
               "sort([none, 2, 1], by=it)", "sort([[1, 2], [1, 1], []], by=it)", "sort(bag, by=it.nothing)",
               "sort(3, by=it)", "sort(bag, by=count([t for t in bag if t == it]))",
               "max(bag, by=it.worth)", "min(bag, by=it.worth)", "max([], by=it)", "min([2, 1, 1], by=it)",
               "max([[2], [1, 5]], by=it)", "max(bag, by=it.shade)", "max(3, by=it)", "max(1, 2)",
               "[x for x in sort(bag, by=name(it))]", "[x for x in sort([none, 2, 1], by=it)]",
               "[x for x in max([[2], [1, 5], none], by=it)]",
               "[sort([y, 1], by=0 - it) for y in [3, 2]]", "sort(sort(bag, by=it.worth), by=rich(players[0]))",
               "hand_worth(first(sort(players, by=hand_worth(it))))", "max(players, by=piles(it, 0))"]


@pytest.mark.parametrize("step", KEYED_STEPS)
def test_a_keyed_call_gives_the_same_value_or_error(step, monkeypatch):
    fast = load_game(path="proofs.yaml", text=PROVEN)
    first = evaluated(fast, step)
    monkeypatch.setattr(ExpressionSource, "by_keys", False)
    assert first == evaluated(load_game(path="proofs.yaml", text=PROVEN), step)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_keyed_calls(spec, monkeypatch):
    fast = shipped(spec)
    monkeypatch.setattr(ExpressionSource, "by_keys", False)
    slow = load_game(spec)
    monkeypatch.undo()
    for seed in range(2):
        players = fast.min_players + 2 * seed
        assert transcript(fast, players, seed) == transcript(slow, players, seed)
