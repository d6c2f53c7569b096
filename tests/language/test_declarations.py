"""Declarations that would silently mean something else than written are refused
(rulespec/check.py _check_references), each at its line."""
from __future__ import annotations

import pytest

from rulespec import SpecErrors, validate

HEAD = "game: T\nplayers: {min: 2, max: 2}\n"
FLOW = "flow: |\n  end game \"x\"\n"


@pytest.mark.parametrize("section, message", [
    ("globals:\n  s: {start: 0, visibility: owner}\n",
     "4:17: error: global 's' belongs to no seat, so `visibility: owner` would hide it from everyone"),
    ("zones:\n  deck: {visibility: owner}\n",
     "4:10: error: 'owner' is not allowed here; use one of: public, hidden"),
    ("boards:\n  b:\n    hex: [[0, 0, red], [1, 0, red], [0, 0, blue]]\n",
     "5:37: error: two cells of board 'b' at 0,0 (entries 1 and 3)"),
])
def test_a_declaration_that_would_mean_something_else_is_refused(section, message):
    with pytest.raises(SpecErrors) as caught:
        validate("t.yaml", text=HEAD + section + FLOW)
    assert f"t.yaml:{message}" in str(caught.value)


def test_a_card_may_be_named_by_a_keyword():    # its name is read as text, never written bare
    validate("t.yaml", text=HEAD + "cards:\n  k: {in: deck, list: [{name: one, count: 2}]}\n"
             "zones:\n  deck: {}\n" + FLOW)


def test_what_the_visibility_table_allows_stays_valid():
    validate("t.yaml", text=HEAD + "globals:\n  s: {start: 0, visibility: hidden}\n"
             "per_player:\n  t: {start: 0, visibility: owner}\nzones:\n  deck: {visibility: hidden}\n"
             "boards:\n  b:\n    hex: [[0, 0, red], [1, 0, red]]\n" + FLOW)


@pytest.mark.parametrize("section, where", [
    ("globals:\n  to: {start: 0}\n", "4:3"),
    ("constants:\n  limit: 3\n", "4:3"),
    ("symbols: [red, number]\n", "3:16"),
    ("functions:\n  until: {params: [x], expr: \"x\"}\n", "4:3"),
])
def test_a_keyword_declared_as_a_name_is_refused_where_declared(section, where):
    # before, the error came only at a use ("'to' is a keyword and cannot be used as a name")
    with pytest.raises(SpecErrors) as caught:
        validate("t.yaml", text=HEAD + section + FLOW)
    assert f"t.yaml:{where}: error: '" in str(caught.value)
    assert "is a keyword of the rules language, so no rule could name it" in str(caught.value)
