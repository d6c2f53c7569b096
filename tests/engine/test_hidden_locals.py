"""A rule's locals never carry what a seat may not see to it.

Found by an audit: tests/engine/peek_unchecked.yaml holds the hidden deck's top card
in a local `c` while P1 decides, and refusing 'bet' said `c.power = 9` (the real
card, changing with the seed) through the API, the terminal and the web table.
Locals now read as hidden where rulespec/taint.py says so (a card a seat does
not see, a value made from an owner-only or hidden value, a secret pick), in
explanations (visibility.seat_state).
"""
from __future__ import annotations

import functools
import io
import re

from unittest.mock import patch

import pytest

from interpreter.cli import main
from interpreter.engine import visibility
from interpreter.engine.explain import refusal
from interpreter.engine.game import load_game
from rulespec import check as check_module
from rulespec.errors import IllegalAction
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

PEEK = TESTS / "engine" / "peek_unchecked.yaml"
SECRET = TESTS / "engine" / "secret_locals_unchecked.yaml"


def shown_text_unchecked():
    """validate without its check of shown text (rulespec/shown.py), which refuses
    peek's menu for reading the hidden card: the locals hidden at play are the second
    defence, and these tests hold it alone to the same promise."""
    return patch.object(check_module, "check_shown_text", lambda *args, **kwargs: [])


@functools.cache
def load(path):
    with shown_text_unchecked():
        return load_game(path)


def peek_refusal(seed) -> str:
    st = load(PEEK).new_state(2, seed=seed)
    with pytest.raises(IllegalAction) as refused:
        st.apply("bet")
    return refused.value.format()


# ------------------------------------------------------------------ the channels
def test_the_api_does_not_show_the_hidden_card_a_local_holds():
    messages = {peek_refusal(seed) for seed in range(6)}
    assert len(messages) == 1, messages    # the same whatever the hidden card is
    message = messages.pop()
    assert not re.search(r"c\.power = \d", message) and "c.power = ?" in message
    assert "legal: pass, fold" in message


def test_the_terminal_does_not_show_it():
    out, err = io.StringIO(), io.StringIO()
    with shown_text_unchecked():
        code = main(["play", str(PEEK), "--players", "2", "--seed", "2", "--agents", "human,random"],
                    out, err, io.StringIO("bet\npass\n"))
    screen = out.getvalue()
    assert code == 0, err.getvalue()
    assert "'bet' is not one of the options" in screen
    assert not re.search(r"c\.power = \d", screen) and "c.power = ?" in screen


def test_the_web_table_does_not_show_it():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.web.app import create_app
    from interpreter.web.session import Session
    session = Session(load(PEEK), 2, 2, ["human", "human"])
    with TestClient(create_app(session, pause=0.01)) as client:
        reply = client.post("/api/seat/1/act", json={"token": session.tokens[0], "labels": ["bet"]}).json()
    html = reply["html"]
    assert "is not offered now" in html and not re.search(r"c\.power = \d", html)


# ------------------------------------------------------------------ what counts as hidden
def secret_round_refusal(first_pick) -> str:
    """P2's refusal of 'boast' after P1 secretly picked `first_pick` (its gold is 7)."""
    st = load(SECRET).new_state(2, seed=0)
    st.apply("quiet")
    st.apply(first_pick)
    return refusal(st, "boast").format()


def test_a_secret_pick_and_an_owner_value_held_in_locals_stay_hidden():
    red, blue = secret_round_refusal("red"), secret_round_refusal("blue")
    assert red == blue
    assert "pick = " not in red and "g = " not in red and "by what you cannot see" in red


def test_the_labels_say_who_may_read_each_local():
    labels = load(SECRET).local_labels["flow"]
    assert labels["pick"] == {"?"} and labels["g"] == {"?"} and labels["p"] == frozenset()
    zena = shipped(str(ROOT / "games" / "zena.yaml"), "advanced").local_labels
    assert zena["phase:advanced_placement"]["pick"] == {"?"}
    assert zena["phase:advanced_placement"]["picks"] == {"?"}


def test_a_local_a_seat_may_read_keeps_its_value_in_explanations():
    """Public locals stay useful: only the unseen is blanked."""
    st = load(SECRET).new_state(2, seed=0)
    mine = visibility.seat_state(st, 0)
    assert mine.stack[-1].env["p"] == 0     # the round's seat: public
    assert repr(mine.stack[-1].env["pick"]) == visibility.HIDDEN_TEXT


# ------------------------------------------------------------------ twins
def twins_differing_in_hidden_locals():
    """(seat, state, twin): the twins differ only in what the seat cannot see,
    locals included."""
    peek = load(PEEK)
    for seed in range(3):
        st = peek.new_state(2, seed=seed)
        twin = st.clone()
        twin.zones["deck"] = list(reversed(st.zones["deck"]))
        twin.stack[-1].env["c"] = twin.zones["deck"][0]
        yield 0, st, twin
    secret = load(SECRET)
    for first, other in (("red", "blue"), ("blue", "red")):
        st = secret.new_state(2, seed=0)
        st.apply("quiet")
        st.apply(first)
        twin = secret.new_state(2, seed=0)
        twin.apply("quiet")
        twin.apply(other)
        yield 1, st, twin


@pytest.mark.parametrize("case", range(5))
def test_a_seat_is_told_the_same_whatever_the_locals_hide(case):
    seat, st, twin = list(twins_differing_in_hidden_locals())[case]
    assert st.stack[-1].env != twin.stack[-1].env or st.zones != twin.zones    # the real states differ
    label = "boast" if seat else "bet"
    assert refusal(st, label).format() == refusal(twin, label).format()
    mine, other = visibility.seat_state(st, seat), visibility.seat_state(twin, seat)
    assert [repr(sorted(f.env.items())) for f in mine.stack] == [repr(sorted(f.env.items())) for f in other.stack]
