"""Refused actions say why: the condition, its values, and the line it is written on."""
from __future__ import annotations

import io
import random

import pytest

from interpreter.cli import main
from rulespec.errors import IllegalAction

from tests.market_source import MARKET, line_of
from tests.shipped import shipped


@pytest.fixture(scope="module")
def game():
    return shipped(MARKET)


def refused(state, label) -> IllegalAction:
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(label)
    assert state.to_json() == before, "a refused action must leave the state alone"
    return info.value


def states(game, seeds=range(6), players=3):
    """Every decision point of a few random games, as (state, rng) pairs."""
    for seed in seeds:
        state, rng = game.new_state(players, seed), random.Random(seed)
        while not state.is_terminal():
            yield state
            options = state.legal_actions()
            state.apply(options[rng.randrange(len(options))])


def test_too_expensive_to_buy_names_the_condition_values_and_line(game):
    when = line_of("when: player.coins >= c.cost")
    for state in states(game):
        if state.pending.kind != "action":
            continue
        p = state.current_player()
        coins = state.pv["coins"][p]
        for card in state.zones["market"]:
            cost = game.cards[card]["cost"]
            label = f"buy {card} for {cost}"
            if coins < cost and label not in state.pending.labels:
                e = refused(state, label)
                assert e.file == MARKET and e.line == when
                assert f"`player.coins >= c.cost` is false: player.coins = {coins}, c.cost = {cost}" in e.message
                assert "action buy refuses it" in e.message and "legal: " in e.message
                return
    pytest.fail("no refused purchase found")


def test_an_action_refused_by_one_part_of_an_and_names_only_that_part(game):
    for state in states(game):
        if state.pending.kind == "action" and "pray" not in state.pending.labels:
            where = state.pv["where"][state.current_player()]
            if where == "temple":
                continue
            e = refused(state, "pray")
            assert f"`player.where == temple` is false: player.where = {where}" in e.message
            assert "player.coins >= 3" not in e.message
            assert e.line == line_of("when: player.where == temple")
            return
    pytest.fail("no refused prayer found")


def test_a_menu_option_names_its_if(game):
    for state in states(game, seeds=range(40)):
        if state.pending.kind == "menu" and len(state.pending.labels) == 2:
            coins = state.pv["coins"][state.current_player()]
            e = refused(state, "give all but 1 coin for 2 prestige")
            assert f"is not offered now: `player.coins >= 6` is false: player.coins = {coins}" in e.message
            assert e.line == line_of('"give all but 1 coin for 2 prestige" if')
            return
    pytest.fail("no menu without its conditional option found")


def test_bids_numbers_and_unknown_words(game):
    kinds = set()
    for state in states(game):
        kind = state.pending.kind
        if kind in kinds:
            continue
        if kind == "bid":
            e = refused(state, "bid 999")
            assert "the most" in e.message and "`bidder.coins`" in e.message
        elif kind == "number":
            e = refused(state, "7")
            assert "the number is chosen from 0 to 2" in e.message
        elif kind == "action":
            e = refused(state, "fly")
            assert "no action of this turn (buy, sell, walk, pray) has an option called 'fly'" in e.message
            e = refused(state, "buy the moon")
            assert "action buy offers one option per `c in market`" in e.message
        else:
            continue
        assert e.file == MARKET and e.line
        kinds.add(kind)
    assert kinds == {"bid", "number", "action"}


def test_never_a_bare_invalid_move(game):
    """Whatever is asked, the refusal says which player, what is legal, and where."""
    for i, state in enumerate(states(game, seeds=range(2))):
        for label in ("nonsense", "done", "bid -1", 99, "buy corn#1 for 1"):
            if label in state.pending.labels:
                continue
            e = refused(state, label)
            assert e.message.startswith(f"{label!r} is not a legal option for P")
            assert "legal: " in e.message and e.file == MARKET and e.line


def test_the_human_prompt_explains_and_asks_again():
    feed = io.StringIO("\n".join(["1", "1", "pray"] + ["1"] * 3000) + "\n")
    out = io.StringIO()
    code = main(["play", MARKET, "--players", "2", "--seed", "3", "--agents", "human,first"],
                out, io.StringIO(), feed)
    assert code == 0
    text = out.getvalue()
    assert f"(its `when:` at {MARKET}:{line_of('when: player.where == temple')})" in text
    assert "'pray' is not one of the options: " in text and "`player.where == temple` is false" in text
