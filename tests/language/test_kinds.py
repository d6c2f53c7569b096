"""Kinds of value (rulespec/kinds.py, rulespec/infer.py): inference, the public API, the checks."""
from __future__ import annotations

import pytest

from rulespec import SpecErrors, ast, validate
from rulespec.kinds import (BOOL, CARD, NUMBER, SEAT, TEXT, ZONE, fits, join, list_of, map_of,
                            of_value, or_none, parse_kind)
from tests.paths import ROOT

MARKET = ROOT / "tests" / "games" / "market.yaml"


def test_words():
    assert str(list_of(CARD)) == "a list of cards"
    assert str(or_none(CARD)) == "a card or none"
    assert str(map_of(TEXT, NUMBER)) == "a map of texts to numbers"
    assert str(BOOL) == "true or false"
    assert list_of(SEAT).words() == "list of players"


@pytest.mark.parametrize("text, kind", [
    ("number", NUMBER), ("card or none", or_none(CARD)), ("list of players", list_of(SEAT)),
    ("map of texts to numbers", map_of(TEXT, NUMBER)), ("list of list of cards", list_of(list_of(CARD))),
])
def test_parse_kind(text, kind):
    assert parse_kind(text) == kind


def test_join_and_fits():
    assert join(of_value(None), CARD) == or_none(CARD)
    assert join(of_value([]), list_of(SEAT)) == list_of(SEAT)
    assert join(NUMBER, TEXT).base == "any"
    assert join(CARD, TEXT) == TEXT
    assert fits(SEAT, NUMBER) and fits(CARD, TEXT) and not fits(TEXT, NUMBER)
    assert not fits(ZONE, NUMBER) and fits(or_none(NUMBER), NUMBER)


def test_market_kinds_public_api():
    checked = validate(MARKET)
    kinds = checked.kinds
    assert kinds.kind_of("coins") == NUMBER
    assert kinds.kind_of("hand") == ZONE
    assert kinds.kind_of("sale_value") == map_of(TEXT, NUMBER)
    assert kinds.kind_of("c", rule=("actions", "sell", "do")) == CARD
    assert kinds.kind_of("p", rule=("procedures", "pay", "do")) == SEAT
    assert kinds.results[("functions", "wealth")] == NUMBER
    # every expression node of every rule has a kind, nearly all of them known
    nodes = [n for r in checked.rules for n in ast.walk(r.tree) if kinds.of(n) is not None]
    assert len(nodes) > 200
    assert sum(kinds.of(n).base in ("any", "nothing") for n in nodes) <= len(nodes) // 20


SPEC = """\
game: T
players: {{min: 2, max: 2}}
zones: {{deck: {{}}}}
player_zones: {{hand: {{}}}}
cards:
  goods: {{in: deck, attrs: {{value: 1}}, list: [{{name: corn, count: 3}}]}}
globals:
  leader: none
  picked: {{start: none, type: card or none}}
  bag: []
per_player:
  coins: {{start: 3, min: 0}}
flow: |
  leader = players[0]
  bag = append(bag, top(deck))
  {line}
"""


def errors_of(line):
    with pytest.raises(SpecErrors) as info:
        validate("t.yaml", text=SPEC.format(line=line))
    return info.value.errors


def test_inferred_from_use():
    kinds = validate("t.yaml", text=SPEC.format(line="pass")).kinds
    assert kinds.kind_of("leader") == or_none(SEAT)
    assert kinds.kind_of("bag") == list_of(or_none(CARD))
    assert kinds.kind_of("picked") == or_none(CARD)


@pytest.mark.parametrize("line, message", [
    ("x = leader.coins + bag", "cannot add a number and a list of cards or none"),
    ("picked = 3", "cannot store a number in picked (picked: a card or none, declared at 9:3)"),
    ("x = top(deck).value + \"a\"", "cannot add a number and a text (top(...).value: a number, a card attribute declared at 6:29)"),
    ("if bag:\n      pass", "an `if` condition must be true or false, not a list of cards or none"),
    ("x = [1, 2][\"a\"]", "a list's index must be a number, not a text"),
    ("x = count(3)", "count() needs a list, a zone or a map as its argument, not a number"),
    ("x = deck.value", "a zone has no attribute '.value'"),
    ("players[0].hand = 3", "cannot assign to '.hand'"),
    ("x = -\"a\"", "`-` must be a number, not a text"),
    ("x = 1 < \"a\"", "cannot order a number and a text with '<'"),
    ("x = 3 in 4", "'in' needs a list, a zone or a map on its right, not a number"),
    ("x = \"a\" in [1, 2]", "cannot look for a text in a list of numbers"),
    ("turn 3 > 2: pass_it", "`turn` must be a player, not true or false"),
    ("for p in 3:\n      pass", "`for ... in` needs a list, a zone or a map, not a number"),
])
def test_refused_with_both_kinds(line, message):
    found = [e.message for e in errors_of(line)]
    assert any(message in m for m in found), found


def test_bad_type_word():
    text = SPEC.format(line="pass").replace("type: card or none", "type: cardd")
    with pytest.raises(SpecErrors) as info:
        validate("t.yaml", text=text)
    assert "unknown type 'cardd'" in info.value.errors[0].message


@pytest.mark.parametrize("expression", ["1" + " + 1" * 300, "not " * 300 + "true", "-" * 300 + "1",
                                        "[" * 300 + "1" + "]" * 300],
                         ids=["sum", "not", "neg", "list"])
def test_nesting_deeper_than_the_limit_is_refused_where_it_starts(expression):
    # play used to die with SyntaxError: too many nested parentheses
    text = f"game: T\nplayers: {{min: 2, max: 2}}\nglobals: {{x: none}}\nflow: |\n  x = {expression}\n"
    with pytest.raises(SpecErrors) as info:
        validate("t.yaml", text=text)
    [err] = info.value.errors
    assert "levels deep" in err.message and err.line == 5 and err.col >= 7


def test_nesting_below_the_limit_plays():
    from interpreter import load_game
    text = ("game: T\nplayers: {min: 2, max: 2}\nglobals: {x: 0}\nflow: |\n"
            f"  x = {'1' + ' + 1' * 190}\n  x = x + count({'[' * 90}1{']' * 90})\n  end game\n"
            "scoring:\n  score: x\n")
    state = load_game("t.yaml", text=text).new_state(2, seed=1)
    assert state.scores() == [192, 192]


def test_a_variable_only_ever_none_takes_none():
    text = SPEC.format(line="pass").replace("  bag: []\n", "  bag: []\n  gone: none\n").replace(
        "  leader = players[0]\n", "  leader = players[0]\n  gone = none\n")
    assert str(validate("t.yaml", text=text).kinds.kind_of("gone")) == "none"


def test_the_message_shown_in_spec_format_md_is_the_one_validate_prints():
    import io
    import re

    from interpreter.cli import main
    doc = (ROOT / "docs" / "spec-format.md").read_text(encoding="utf-8")
    shown = re.search(r"^(tests/specs/invalid/kind_\w+\.yaml):\d+:\d+: error: .*$", doc, re.M)
    out = io.StringIO()
    main(["validate", shown.group(1)], out, io.StringIO())
    assert out.getvalue().strip() == shown.group(0)


@pytest.mark.parametrize("expression, score, value", [
    ("1" + " + 1" * 201, "x", 202), ("not " * 210 + "true", "1 if x else 2", 1)],
    ids=["sum of 202", "210 nots"])
def test_the_issues_deep_expressions_validate_and_play(expression, score, value):
    # they passed validate, then play died with SyntaxError: too many nested parentheses
    from interpreter import load_game
    text = ("game: T\nplayers: {min: 2, max: 2}\nglobals: {x: none}\nflow: |\n"
            f"  x = {expression}\n  end game\nscoring:\n  score: {score}\n")
    state = load_game("t.yaml", text=text).new_state(2, seed=1)
    assert state.scores() == [value, value]
