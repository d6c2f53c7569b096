"""Validate's promise, tested at random: well- and ill-kinded expressions and
statements over the test game's names (tests/games/market.yaml) are put into
its `buy` action. A spec validate accepts plays 20 random games with no Python
exception and no message naming one; a spec it refuses gets located messages.
"""
from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import load_game
from rulespec import RuleError, SpecErrors, validate
from tests.paths import TESTS

MARKET = (TESTS / "games" / "market.yaml").read_text(encoding="utf-8")
BUY_DO = "    do: |\n      player.coins -= c.cost\n"
BUY_WHEN = "    when: player.coins >= c.cost and count(player.hand) < hand_limit\n"
assert BUY_DO in MARKET and BUY_WHEN in MARKET
PYTHON_ERRORS = re.compile(r"\b(\w+Error|Exception|Traceback|KeyError|StopIteration)\b")

# The names the `buy` action can see, by what they are; ill-kinded mixes come from
# putting any of them under any operator or builtin.
ATOMS = ["0", "3", "-1", '"a"', "true", "false", "none", "[]", "[1, 2]", "player", "c", "round",
         "first", "hand_limit", "sale_value", "deck", "market", "discard", "player.hand",
         "player.coins", "player.where", "player.sold_this_turn", "player.bet", "c.cost", "c.good",
         "town", "corn", "temple", "players", "nplayers", "wealth(player)"]
UNARY = ["not ({})", "-({})", "count({})", "top({})", "first({})", "sum({})", "abs({})",
         "range({})", "text({})", "others({})", "({}).coins", "({}).cost", "({}).hand", "({}).good",
         "[{}]", "max({})", "unique({})", "keys({})", "has({}, corn)", "next_player({})",
         "[y for y in ({})]", "cards({})", "next_node(town, {})", "owner({})"]
BINARY = ["({}) + ({})", "({}) - ({})", "({}) * ({})", "({}) // ({})", "({}) % ({})",
          "({}) == ({})", "({}) != ({})", "({}) < ({})", "({}) >= ({})", "({}) in ({})",
          "({}) and ({})", "({}) or ({})", "({})[{}]", "get({}, {})", "max({}, {})",
          "append({}, {})", "({}) if true else ({})", "[y for y in ({}) if ({}) != y]"]


def expressions():
    return st.recursive(
        st.sampled_from(ATOMS),
        lambda inner: st.one_of(
            st.tuples(st.sampled_from(UNARY), inner).map(lambda t: t[0].format(t[1])),
            st.tuples(st.sampled_from(BINARY), inner, inner).map(lambda t: t[0].format(t[1], t[2]))),
        max_leaves=6)


STATEMENTS = ["x = {}", "player.coins = {}", "player.coins += {}", "round = {}", "first = {}",
              "player.where = {}", "player.sold_this_turn = {}", "log({})", "move({}, discard)",
              "if {}:\n          pass", "for y in {}:\n          log(y)", "player.bet = {}"]


def spec_with(statement: str, condition: str | None) -> str:
    text = MARKET.replace(BUY_DO, BUY_DO.replace("    do: |\n", "    do: |\n      " + statement + "\n"))
    if condition is not None:
        text = text.replace(BUY_WHEN, BUY_WHEN.rstrip("\n") + f" and ({condition})\n")
    return text


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.sampled_from(STATEMENTS), expressions(), st.one_of(st.none(), expressions()))
def test_accepted_specs_play_and_refused_ones_are_located(template, expression, condition):
    text = spec_with(template.format(expression), condition)
    try:
        validate("market.yaml", text=text)
    except SpecErrors as e:
        for err in e.errors:
            assert err.file == "market.yaml" and err.line and err.col, err.format()
            assert not PYTHON_ERRORS.search(err.message), err.format()
        return
    game = load_game("market.yaml", text=text)
    for seed in range(20):
        _play(game, seed)


def _play(game, seed):
    """A random game; a located run-time error in words is acceptable (a data-dependent
    fault such as none where a card was needed), a Python exception is not."""
    rng = random.Random(seed)
    try:
        state = game.new_state(2 + seed % 3, seed)
        while not state.is_terminal() and state.decisions < 2000:
            options = state.legal_actions()
            state.apply(options[rng.randrange(len(options))])
        state.scores()
    except RuleError as e:
        assert e.line and not PYTHON_ERRORS.search(e.message), e.format()
