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


BOUNDED = "game: T\nplayers: {{min: 2, max: 2}}\nglobals:\n  x: {decl}\nflow: |\n  {line}\n"


@pytest.mark.parametrize("decl, line, message, col", [
    ('{start: "five", min: 0}', "x += 1", 'start is text "five", but min: 0 makes x a number', 7),
    ('{start: "five", min: 0, max: 3}', 'x = "six"', "cannot store a text in x", 7),
    ("{start: 1, max: 3, one_of: [1, a]}", "pass", 'one_of holds text "a", but max: 3 makes x a number',
     37),
    ("{start: true, min: 0}", "pass", "start is true or false true, but min: 0", 7),
])
def test_min_or_max_make_a_number(decl, line, message, col):
    # a text start joined with the bound's number was "any value": validate passed,
    # and play failed at the first store or sum
    with pytest.raises(SpecErrors) as info:
        validate("t.yaml", text=BOUNDED.format(decl=decl, line=line))
    found = [(e.message, e.col) for e in info.value.errors]
    assert any(message in m and c == col for m, c in found), found


def test_min_with_no_start_or_a_number_start_is_a_number():
    text = BOUNDED.format(decl="{start: none, min: 0}", line="x = 2")
    assert validate("t.yaml", text=text).kinds.kind_of("x") == or_none(NUMBER)
    text = BOUNDED.format(decl="{start: 2, min: 0, one_of: [2, 3]}", line="x = 3")
    assert validate("t.yaml", text=text).kinds.kind_of("x") == NUMBER


def test_a_variant_giving_a_bounded_variable_a_text_start_is_refused():
    text = MARKET.read_text(encoding="utf-8").replace("\nvariants:\n", (
        "\nvariants:\n  broken:\n    changes: {per_player: {coins: {start: \"five\"}}}\n"), 1)
    validate("m.yaml", text=text)
    with pytest.raises(SpecErrors) as info:
        validate("m.yaml", variant="broken", text=text)
    assert ['start is text "five", but min: 0 makes coins a number'] == [
        e.message for e in info.value.errors]


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


# ------------------------------------------ a card is its id, never its name or kind
CARDS = """\
game: B
players: {{min: 2, max: 2}}
symbols: [red, blue]
constants: {{fav: apple}}
cards:
  k:
    in: deck
    attrs: {{colour: red}}
    list: [{{name: apple, count: 3, colour: red}}, {{name: berry, count: 3, colour: blue}}, {{name: plum}}]
zones:
  deck: {{visibility: hidden}}
player_zones:
  hand: {{visibility: owner}}
per_player:
  pts: {{start: 0}}
scoring:
  score: p.pts
flow: |
  c = top(deck)
  {line}
  end game "x"
"""


def card_errors(line):
    text = CARDS.format(line=line)
    try:
        validate("b.yaml", text=text)
    except SpecErrors as info:
        return [e.message for e in info.errors]
    return []


@pytest.mark.parametrize("line, message", [
    # the designer's example (b8_name_in_zone.yaml): both passed, and were never true
    ("if apple in players[0].hand:\n      pass",
     "`apple in players[0].hand` is never true: apple names 3 cards, apple#1..apple#3, and a card "
     "is its id, not its name: `has(players[0].hand, apple)` tells whether it holds a card of that name"),
    ("for c in players[0].hand:\n      if c == apple:\n          pass",
     "`c == apple` is never true: apple names 3 cards, apple#1..apple#3, and a card is its id, not "
     "its name: compare `name(c) == apple`"),
    ("x = c != \"berry\"", "`c != \"berry\"` is always true: \"berry\" names 3 cards"),
    ("x = fav == c", "`fav == c` is never true: fav (apple) names 3 cards"),
    ("x = c == k", "k is a kind of card, and a card is its id, not its kind: compare `kind(c) == k`"),
    ("x = c == red", "no card has the id red: compare `c.colour == red`"),
    ("x = k not in cards(deck)", "is always true: k is a kind of card, and a card is its id, not its "
                                 "kind: compare `k not in [kind(c) for c in cards(deck)]`"),
    ("x = c in [apple, plum]", "apple never matches c in `c in [apple, plum]`"),
    ("move(apple, players[0].hand)", "move() needs a card here, and apple names 3 cards, "
                                     "apple#1..apple#3, and a card is its id, not its name: "
                                     "`move_named(FROM, apple, TO)`"),
    ("x = occurrences(cards(deck), berry)", "`occurrences([name(c) for c in cards(deck)], berry)`"),
    ("x = has(deck, k)", "has() looks for cards by name, and k is a kind of card"),
    ("x = find(deck, \"apple#2\")", "find() looks for cards by name, and apple#2 is a card's id: its name is apple"),
])
def test_a_card_compared_with_a_name_it_never_is_is_refused(line, message):
    found = card_errors(line)
    assert any(message in m for m in found), found


@pytest.mark.parametrize("line", [
    "x = c == plum",            # a name of one card is that card's id
    "x = plum in deck",
    "x = c == \"apple#2\"",
    "x = name(c) == apple and kind(c) == k and c.colour == red",
    "x = has(deck, apple) or apple in [name(d) for d in cards(deck)]",
    "x = count(named(berry)) + occurrences([name(d) for d in cards(deck)], apple)",
    "x = c.name != berry",
])
def test_names_of_one_card_and_comparisons_of_names_stay_valid(line):
    assert card_errors(line) == []


PROCEDURE = """\
game: P
players: {{min: 2, max: 2}}
per_player:
  pts: {{start: 0}}
procedures:
  pr: {{params: [a], do: "{body}"}}
scoring:
  score: p.pts
flow: |
  y = pr(1)
  players[0].pts = y + 1
  end game "x"
"""


def test_the_value_of_a_procedure_that_returns_none_is_refused():
    # it passed; play said `cannot add none and 1` on the line after
    with pytest.raises(SpecErrors) as info:
        validate("p.yaml", text=PROCEDURE.format(body="pass"))
    [err] = info.value.errors
    assert err.message.startswith("pr() gives no value: no `return` in its `do:` returns one, so `y` "
                                  "would always be none") and (err.line, err.col) == (10, 7)


def test_a_procedure_that_may_end_without_a_value_gives_that_kind_or_none():
    text = PROCEDURE.format(body="if a > 0: return a")
    kinds = validate("p.yaml", text=text).kinds
    assert kinds.results[("procedures", "pr")] == or_none(NUMBER)
    text = PROCEDURE.format(body="if a > 0: return a\\nelse: return 0")
    assert validate("p.yaml", text=text).kinds.results[("procedures", "pr")] == NUMBER
