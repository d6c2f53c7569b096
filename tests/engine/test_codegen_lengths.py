"""`+` on lists and texts of a proven class (codegen.py `joined`): the result's class
is not tested (a list or text plus anything is one of its class or raises), and
its size not either where both lengths have bounds whose sum is within the size
limit (`sized`): the same values, and the same errors in the same words at the
same FILE:LINE:COL, with by_lengths on and off, below, at and past the limit."""

import pytest

from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.game import load_game
from interpreter.engine.values import Seat, Zone
from interpreter.engine.visibility import HIDDEN, HiddenCard
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.engine.test_codegen_bounds import outcome
from tests.generated import generated_sources
from tests.switches import on_and_off, same_games

SPEC = '''game: Joins
players: {min: 2, max: 2}
limits: {size: SIZE}
symbols: [a, b, c, d]
constants:
  four: [a, b, c, d]
  word: "abcd"      # quoted: a text
cards:
  tokens:
    in: deck
    list:
      - {name: t, count: 3}
zones:
  deck: {visibility: public}
globals:
  out: {start: none}
  loose: {start: LOOSE}
  picked: {start: 0}
functions:
  each: {params: [w], expr: "[[w, x] for x in four if x != w]"}
  joined: {params: [p], expr: "EXPR"}
  either: {params: [p], expr: "[x for x in (four if p == players[0] else [])]"}
  maybe: {params: [p], expr: "[x for x in (four if p == players[0] else loose)]"}
actions:
  pick:
    for: m in (each(a) + [[a, b]] if picked == 0 else [])    # walked with no test: a list either way
    label: '"pick"'
    do: |
      picked += 1
  go:
    when: joined(player) != none     # in a turn's fused options too, speculating
    label: '"go"'
    do: |
      out = joined(player)
flow: |
  for p in players:
      out = EXPR
  out = joined(players[0])
  for p in players:
      turn p: go
  turn players[0]: pick
'''
# expression -> (the sum of its operands' length bounds, at most: None where not
# all are bounded; its length when evaluated)
JOINS = {
    "word + word": (8, 8),
    "four + four": (8, 8),
    "[x for x in four] + [x for x in four]": (8, 8),
    "[x for x in four if x != a] + [x for x in four]": (8, 7),     # below its bound
    "[c for c in deck] + [c for c in deck] + [c for c in deck]": (9, 9),
    "each(a) + each(b) + (each(c) if p == players[0] else [])": (12, 9),
    "(four if p == players[0] else []) + [p, p, p, p]": (8, 8),
    "[word + c for c in deck] + [text(12) + word]": (4, 4),
    "word + text(12) + [c for c in deck][0]": (4 + 3 + 3, 4 + 2 + 3),    # a card: t#1
    "text(p) + word + word": (10, 10),
    "loose + four": (None, None),
    "four + loose": (None, None),
    "word + loose + word": (None, None),
}


def spec(expr, size) -> str:
    loose = '"xy"' if expr.startswith("word + loose") else "[]"     # a text, or a list
    return SPEC.replace("EXPR", expr).replace("SIZE", str(size)).replace("LOOSE", loose)


def games(monkeypatch, expr, size):
    return on_and_off(monkeypatch, ExpressionSource, "by_lengths", path="joins.yaml", text=spec(expr, size))


def sizes(expr) -> list:
    """Size limits around the expression's bound and its length: one under, at, one over."""
    bound, length = JOINS[expr]
    around = {n + d for n in (bound, length) if n is not None for d in (-1, 0, 1)}
    return sorted(n for n in around | {20} if n >= 6)   # the spec's own texts need 6


@pytest.mark.parametrize("expr, size", [(e, n) for e in JOINS for n in sizes(e)])
def test_a_join_is_the_same_value_or_error(expr, size, monkeypatch):
    fast, slow = games(monkeypatch, expr, size)
    assert outcome(fast) == outcome(slow)


@pytest.mark.parametrize("expr", [e for e in JOINS if "loose" in e])
@pytest.mark.parametrize("value", [[], [1, 2, 3, 4, 5], "", "xyzzy", 1, 2.5, None, True, Seat(1),
                                   {"a": 1}, [[1], 2], Zone("deck"), HiddenCard("?"), HIDDEN])
def test_a_join_with_a_value_of_any_class_is_the_same_value_or_error(expr, value, monkeypatch):
    """A list or text plus a global set by hand to a value of any class, as no rule
    could (the checker refuses a list plus a text): the class of the result is not
    tested, and the `+` gives the same value or raises alike."""
    for size in (10, 13):
        seen = []
        for game in games(monkeypatch, expr, size):
            st = game.new_state(2, 0)
            st.g["loose"] = value
            try:
                seen.append(("value", game.calls["joined"](st, Seat(0))))
            except Exception as e:   # noqa: BLE001 — compared as raised, class and words
                seen.append(("error", type(e).__name__, str(e)))
        assert seen[0] == seen[1]


def test_a_join_past_the_limit_fails_where_it_passes_it():
    """A sum of bounds over the limit keeps the size test: the length below its
    bound (7 of 8) passes at 7 and fails at 6, at the join."""
    expr = "[x for x in four if x != a] + [x for x in four]"
    assert outcome(load_game(path="joins.yaml", text=spec(expr, 7)))[0] == "state"
    with pytest.raises(RulespecError, match=r"the length of a list would be 7, over the limit of 6 "
                                            r"\(limits: size\)") as raised:
        load_game(path="joins.yaml", text=spec(expr, 6)).new_state(2, 0)
    assert "joins.yaml:" in str(raised.value)


@pytest.mark.parametrize("expr, length", [("word + word", 8), ("text(p) + word + word", 10),
                                          ("each(a) + each(b) + (each(c) if p == players[0] else [])", 9)])
def test_what_the_limit_refuses_is_refused(expr, length):
    with pytest.raises(RulespecError, match=f"length of a (list|text) would be {length}, over the limit of {length - 1}"):
        load_game(path="joins.yaml", text=spec(expr, length - 1)).new_state(2, 0)


def _joined_source(expr, size):
    source = generated_sources(spec(expr, size), "joins.yaml", start=True)["<rulespec function joined>"]
    return source.split("except (KeyError, TypeError):")[-1]    # the exact version


def test_bounded_joins_test_nothing():
    """Within the limit the joins of bounded operands test nothing; one under it, their
    size only (the class is proven); with by_lengths off, the class and the size."""
    assert "_SIZE" not in _joined_source("[x for x in four] + [x for x in four]", 8)
    tested = _joined_source("[x for x in four if x != a] + [x for x in four]", 7)
    assert tested.count("len(_r") == 1 and "__class__ is list" not in tested
    written = "each(a) + each(b) + (each(c) if p == players[0] else [])"      # inline, as loops
    assert _joined_source(written, 12).count("_SIZE") == 0
    assert _joined_source(written, 11).count("_SIZE") == 1     # the last join: 8 + 4 > 11
    assert _joined_source("word + loose + word", 10).count("_SIZE") == 2


def test_with_lengths_off_joins_test_class_and_size(monkeypatch):
    monkeypatch.setattr(ExpressionSource, "by_lengths", False)
    source = _joined_source("[x for x in four] + [x for x in four]", 8)
    assert source.count(".__class__ is list and len(") == 1


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_lengths(spec, monkeypatch):
    fast, slow = on_and_off(monkeypatch, ExpressionSource, "by_lengths", path=spec)
    same_games(fast, slow)


@pytest.mark.parametrize("value", [[], ["x"], "xyzzy", 3, None])
def test_an_if_of_lists_is_walked_as_one(value, monkeypatch):
    """A comprehension over `a if c else b`: proven a list where both are (no test
    of its class), walked by _items where one is not (a global set by hand to a
    text or number: the same error as with the proofs and joins off)."""
    seen = []
    for switch in ("by_lengths", "by_proofs"):
        for game in on_and_off(monkeypatch, ExpressionSource, switch, path="joins.yaml", text=spec("word", 20)):
            st = game.new_state(2, 0)
            st.g["loose"] = value
            row = []
            for fn, seat in (("either", 0), ("either", 1), ("maybe", 0), ("maybe", 1)):
                try:
                    row.append(("value", game.calls[fn](st, Seat(seat))))
                except Exception as e:   # noqa: BLE001 — compared as raised, class and words
                    row.append(("error", type(e).__name__, str(e)))
            seen.append(row)
    assert all(row == seen[0] for row in seen)
    assert seen[0][:2] == [("value", ["a", "b", "c", "d"]), ("value", [])]


def test_a_turn_walks_an_if_of_lists_with_no_test():
    source = generated_sources(spec("word", 20), "joins.yaml", start=True)
    options = next(text for name, text in source.items() if name.startswith("<rulespec turn options pick"))
    assert "_items(" not in options and ".__class__ is list" not in options


HAZARD = '''game: Tags
players: {min: 2, max: 2}
limits: {size: 20}
cards:
  tokens:
    in: deck
    list:
      - {name: t, count: 3}
zones:
  deck: {visibility: public}
globals:
  flag: {start: true}
  seen: {start: "none yet"}
per_card:
  mark: {start: 1}
functions:
  tag: {params: [c], expr: '(c if flag else "y") + "!" + text(c.mark + c.mark)'}
flow: |
  for c in deck:
      seen = tag(c)
'''


@pytest.mark.parametrize("c", ["t#1", "x" * 19, "x" * 20, 5])
def test_what_an_if_is_proven_for_a_while_is_not_kept(c, monkeypatch):
    """tag's parameter is proven a card by one test at its entry (for its body
    written again); its if, the same text in the body as it is, then keeps no
    bound: a text that is not a card, too long to join, fails at the join."""
    seen = []
    for game in on_and_off(monkeypatch, ExpressionSource, "by_lengths", path="tags.yaml", text=HAZARD):
        st = game.new_state(2, 0)
        try:
            seen.append(("value", game.calls["tag"](st, c)))
        except Exception as e:   # noqa: BLE001 — compared as raised, class and words
            seen.append(("error", type(e).__name__, str(e)))
    assert seen[0] == seen[1]
    if c == "x" * 20:
        assert "over the limit of 20" in seen[0][2]
