"""Errors at the cause (issue 15): an unclosed bracket at the bracket, no cascade
of unreachable rules after a syntax error, expected tokens quoted and summarised,
YAML errors in plain words at the faulty line, and exact positions in every YAML
scalar style."""
from __future__ import annotations

import pytest

from rulespec import validate
from rulespec.dsl import parse_expression, parse_statements
from rulespec.errors import RulespecError, SpecErrors
from tests.paths import TESTS

MARKET = (TESTS / "games" / "market.yaml").read_text(encoding="utf-8")


def errors_of(text: str) -> list[RulespecError]:
    with pytest.raises(SpecErrors) as info:
        validate("game.yaml", text=text)
    return info.value.errors


def where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, col) of the nth occurrence of needle in text."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


# ------------------------------------------------------------ brackets, cascades
def test_a_missing_bracket_is_one_error_at_the_open_bracket():
    broken = MARKET.replace("  while true:\n      round += 1",
                            "  while count(players > 0:\n      round += 1")
    found = errors_of(broken)
    assert len(found) == 1, [e.format() for e in found]   # no "unreachable phase" after it
    (error,) = found
    assert (error.line, error.col) == where(broken, "(players > 0")
    assert "this `(` is never closed" in error.message


def test_a_syntax_error_in_a_turn_does_not_make_its_actions_unreachable():
    broken = MARKET.replace("turn p until done: buy, sell, walk, pray",
                            "turn p until done buy, sell, walk, pray")
    (error,) = errors_of(broken)
    assert "syntax error" in error.message and "unreachable" not in error.message


def test_a_real_unreachable_action_is_still_reported():
    broken = MARKET.replace("turn p until done: buy, sell, walk, pray",
                            "turn p until done: buy, sell, walk")
    assert any("unreachable action 'pray'" in e.message for e in errors_of(broken))


@pytest.mark.parametrize("text, line, col, message", [
    ("x = [1, 2\ny = 3", 1, 5, "this `[` is never closed; a `]` is missing"),
    ("x = f([1, 2)", 1, 7, "this `[` is not closed (a `)` comes first, at line 1 col 12)"),
    ("x = 1)", 1, 6, "`)` closes no bracket"),
    ('x = "(" + f(1', 1, 12, "this `(` is never closed"),   # a bracket in a string is text
])
def test_brackets_are_reported_where_they_open(text, line, col, message):
    with pytest.raises(RulespecError) as info:
        parse_statements(text)
    assert (info.value.line, info.value.col) == (line, col)
    assert message in info.value.message


# Every position a syntax error names is in the same frame as the error's own:
# the rule's text for a bare parse, the spec file once validate reports it.
@pytest.mark.parametrize("old, new, opener, closer", [
    ('"max([p.prestige for p in players]) >= prestige_goal"',       # quoted
     '"max([p.prestige for p in players)) >= prestige_goal"', "[p.prestige", ")) >="),
    ("player.coins >= c.cost and count(player.hand) < hand_limit",  # plain
     "player.coins >= c.cost and count(player.hand] < hand_limit", "(player.hand]", "] < hand"),
    ("      round += 1\n      phase bets",                             # a block scalar
     "      round += f(1,\n        2]\n      phase bets", "(1,\n", "2]\n"),
])
def test_a_second_position_in_a_syntax_error_is_in_the_file(old, new, opener, closer):
    broken = MARKET.replace(old, new, 1)
    (error,) = errors_of(broken)
    assert (error.line, error.col) == where(broken, opener)
    line, col = where(broken, closer)
    col += 1 if closer.startswith("2") else 0    # the `]` after the 2
    assert f"comes first, at line {line} col {col})" in error.message


def test_a_folded_expression_names_the_closing_bracket_on_its_own_line():
    with pytest.raises(RulespecError) as info:
        parse_expression("f([1,\n 2)")
    assert (info.value.line, info.value.col) == (1, 3)
    assert "comes first, at line 2 col 3)" in info.value.message


def test_unexpected_indentation_is_reported_at_the_indented_line():
    with pytest.raises(RulespecError) as info:
        parse_statements("if x:\n    y = 1\n      z = 2")
    assert (info.value.line, info.value.col) == (3, 7)
    assert info.value.message.startswith("syntax error: unexpected indentation")


# ------------------------------------------------------------ expected tokens
def test_expected_tokens_are_quoted_and_summarised_in_words():
    with pytest.raises(RulespecError) as info:
        parse_expression("f(1, )")
    assert info.value.message.startswith("syntax error: unexpected `)`; expected an expression")
    with pytest.raises(RulespecError) as info:
        parse_statements("if x\n    y = 1")
    assert info.value.message == "syntax error: unexpected end of line; expected `:`"


def test_expected_tokens_are_never_cut():
    with pytest.raises(RulespecError) as info:
        parse_statements("x = 1 2")
    message = info.value.message
    assert "expected an operator" in message and "..." not in message
    assert message.count("`") >= 2 * 12       # every alternative, each quoted


# ------------------------------------------------------------ YAML in plain words
@pytest.mark.parametrize("text, line, col, words", [
    ("game: x\nplayers:\n  min: 2\n max: 4\n", 4, 2, "indentation (1 space) matches no key"),
    ("game: x\nitems:\n  - a\n  b: 2\n", 4, 3, "a `key: value` line among list items"),
    ("game: x\nb\nc: 2\n", 2, 1, "is its `:` missing?"),
    ("game: x\nplayers:\n\tmin: 2\n", 3, 1, "a tab in the indentation"),
    ("game: \"x\nplayers: 2\n", 1, 7, "this quote is never closed"),
    ("game: x\nplayers: {min: 2, max: 4\nflow: y\n", 2, 10, "this `{` is never closed"),
    ("game: x\nflow: a: b\n", 2, 8, "a `:` that starts no key here"),
])
def test_yaml_errors_are_in_plain_words_at_the_faulty_line(text, line, col, words):
    (error,) = errors_of(text)
    assert (error.line, error.col) == (line, col), error.format()
    assert words in error.message and "<block" not in error.message


# ------------------------------------------------------------ positions in every style
PARTS = ['variant != "x" and round > 1 and', 'variant != "y" and round == 2 and',
         'variant != "z" and round < 9']
END = '    when: "max([p.prestige for p in players]) >= prestige_goal"\n'


def styled(style: str, parts: list[str]) -> str:
    """The end condition's `when:` written in one YAML scalar style over three lines."""
    if style == "plain":
        return f"    when: {parts[0]}\n" + "".join(f"      {p}\n" for p in parts[1:])
    if style in ("'", '"'):
        esc = [p.replace('"', "''") if style == "'" else p.replace('"', '\\"') for p in parts]
        return (f"    when: {style}{esc[0]}\n" + "".join(f"      {p}\n" for p in esc[1:-1])
                + f"      {esc[-1]}{style}\n")
    if style == "flow":
        return "    {when: " + "\n".join([parts[0]] + [f"      {p}" for p in parts[1:]]) + "}\n"
    indent = {"|2": 8, "|4": 10, ">2": 6}.get(style, 6)   # |2, |4: two deeper than needed
    return f"    when: {style}\n" + "".join(" " * indent + p + "\n" for p in parts)


@pytest.mark.parametrize("style", ["plain", "'", '"', "|", "|-", "|2", "|4", ">", ">-", ">2", "flow"])
@pytest.mark.parametrize("typo", [0, 1, 2])
def test_a_typo_on_each_line_of_each_style_is_reported_at_its_place(style, typo):
    parts = list(PARTS)
    parts[typo] = parts[typo].replace("round", "zork", 1)
    body = styled(style, parts)
    if style == "flow":
        text = MARKET.replace("  prestige goal:\n" + END, "  prestige goal:\n" + body) \
            .replace("  prestige goal:\n    {when:", "  prestige goal: {when:")
    else:
        text = MARKET.replace(END, body)
    (error,) = [e for e in errors_of(text) if "zork" in e.message]
    assert (error.line, error.col) == where(text, "zork"), style


@pytest.mark.parametrize("style", [">", ">-"])
@pytest.mark.parametrize("typo", [0, 1, 2])
def test_a_typo_in_a_folded_expression_with_more_indented_lines(style, typo):
    """`>` keeps a more-indented line's own spaces and the breaks around it (YAML 1.2,
    8.1.3), as Siena's goods_worth is written."""
    parts = list(PARTS)
    parts[typo] = parts[typo].replace("round", "zork", 1)
    body = f"    when: {style}\n      {parts[0]}\n" + "".join(f"          {p}\n" for p in parts[1:])
    text = MARKET.replace(END, body)
    (error,) = [e for e in errors_of(text) if "zork" in e.message]
    assert (error.line, error.col) == where(text, "zork"), style


@pytest.mark.parametrize("style", ["|", "|-", "|2", "|4"])
@pytest.mark.parametrize("typo", [0, 1, 2])
def test_a_typo_in_statements_is_reported_at_its_place(style, typo):
    lines = ["player.coins -= c.cost", "move(c, player.hand)", "player.coins += 0"]
    lines[typo] = lines[typo].replace("player", "plaeyr", 1)
    old = "    do: |\n      player.coins -= c.cost\n      move(c, player.hand)\n"
    indent = {"|2": 6, "|4": 8}.get(style, 6)
    text = MARKET.replace(old, f"    do: {style}\n" + "".join(" " * indent + s + "\n" for s in lines))
    assert text != MARKET
    (error,) = [e for e in errors_of(text) if "plaeyr" in e.message]
    assert (error.line, error.col) == where(text, "plaeyr"), style


# ------------------------------------------------------------ messages in words
@pytest.mark.parametrize("text, line, col, message", [
    ('if true:\nend game "x"\n', 2, 1, "an indented block is missing"),
    ("while true:\n\n# nothing\nx = 1\n", 4, 1, "an indented block is missing"),
    ("if x:\n    y = 1\nelse:\nz = 2\n", 4, 1, "an indented block is missing"),
    ("x = 1.5\n", 1, 5, "`1.5`: numbers in rules are whole numbers"),
    ("x = y + .5\n", 1, 9, "`.5`: numbers in rules are whole numbers"),
    ("x = 2.\n", 1, 5, "`2.`: numbers in rules are whole numbers"),
])
def test_an_empty_block_and_a_decimal_are_said_in_words(text, line, col, message):
    with pytest.raises(RulespecError) as info:
        parse_statements(text)
    assert (info.value.line, info.value.col) == (line, col)
    assert message in info.value.message


def test_an_attribute_after_a_number_is_not_called_a_decimal():
    with pytest.raises(RulespecError) as info:
        parse_statements("x = players.5\n")
    assert "whole numbers" not in info.value.message


@pytest.mark.parametrize("call, said", [
    ("sort([3, 1, 2], bye=it)", "sort() takes no keyword 'bye'; it takes by, descending (did you mean 'by'?)"),
    ("max([1, 2], by=it, descendng=true)", "max() takes no keyword 'descendng'; it takes by"),
    ("count([1, 2], by=it)", "count() takes no keyword 'by'"),
])
def test_a_wrong_keyword_is_one_error_naming_the_keywords_taken(call, said):
    """No cascade: `it` in a misspelt lazy keyword's value is not also 'unknown name'."""
    text = ("game: T\nplayers: {min: 2, max: 2}\nper_player: {pts: {start: 0}}\n"
            f"flow: |\n  xs = {call}\n  end game \"x\"\nscoring: {{score: p.pts}}\n")
    [error] = errors_of(text)
    assert error.message == said and (error.line, error.col) == (5, 8)
