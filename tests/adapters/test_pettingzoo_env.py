"""The PettingZoo AEC adapter passes PettingZoo's own API test on every game, and
its observations come from the player's view only. Needs the `pettingzoo` extra."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from interpreter.adapters.pettingzoo_env import env
from tests.paths import ROOT, TESTS

MARKET = str(TESTS / "games" / "market.yaml")
GAMES = sorted(str(p) for p in (ROOT / "games").glob("*.yaml")) + [MARKET]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("spec", GAMES, ids=lambda p: Path(p).stem)
def test_pettingzoo_api_test(spec):
    api_test(env(spec, players=3), num_cycles=100)


def test_mask_marks_the_legal_options_and_rewards_the_winner():
    e = env(MARKET, players=2)
    e.reset(seed=4)
    rewards = {a: 0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, done, truncated, _ = e.last()
        rewards[agent] += reward
        if done:
            e.step(None)
            continue
        legal = len(e.unwrapped.state.legal_actions())
        assert obs["action_mask"].sum() == legal and obs["action_mask"][:legal].all()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    winners = e.unwrapped.state.winner()
    assert winners and all(rewards[f"player_{s}"] == 1 / len(winners) for s in winners)
    assert sum(rewards.values()) == pytest.approx(1.0)   # the win, split among the winners


def test_observations_hide_what_the_player_cannot_see():
    e = env(MARKET, players=2)
    e.reset(seed=1)
    state = e.unwrapped.state
    mine, theirs = e.observe("player_0")["observation"], e.observe("player_1")["observation"]
    hand, deck = state.zones["hand@1"], state.zones["deck"]
    other = next(i for i, c in enumerate(deck) if c.split("#")[0] != hand[0].split("#")[0])
    hand[0], deck[other] = deck[other], hand[0]   # change only P2's hidden cards
    assert np.array_equal(mine, e.observe("player_0")["observation"])
    assert not np.array_equal(theirs, e.observe("player_1")["observation"])   # P2 sees it


TIE = """
game: Tie
players: {min: 2, max: 3}
per_player:
  points: {start: 0}
flow: |
  for p in players:
      turn p: wait, nap
actions:
  wait: {do: pass}
  nap: {do: pass}
scoring:
  score: p.points
"""

FORCED = """
game: Forced
players: {min: 2, max: 2}
flow: |
  for p in players:
      turn p: wait
actions:
  wait: {do: pass}
"""


def test_a_full_tie_splits_the_reward_as_mcts_does():
    from interpreter import load_game
    from interpreter.agents.search import win_shares
    e = env(load_game("tie.yaml", text=TIE), players=3)
    e.reset(seed=0)
    rewards = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        _, reward, done, truncated, _ = e.last()
        rewards[agent] += reward
        e.step(None if done or truncated else 0)
    shares = win_shares(e.unwrapped.state)
    assert shares == [1 / 3] * 3
    assert [rewards[f"player_{s}"] for s in range(3)] == pytest.approx(shares)


def test_a_reset_that_lands_on_a_finished_game_names_the_spec():
    from interpreter import load_game
    from rulespec.errors import RulespecError
    e = env(load_game("forced.yaml", text=FORCED), players=2)
    with pytest.raises(RulespecError, match=r"forced\.yaml: with 2 players and seed 5 the game is over "
                                            r"before anyone decides"):
        e.reset(seed=5)


def test_observations_carry_public_per_card_values():
    """Zena's cubes on each card and the area it sits in reach every seat's observation."""
    from interpreter.engine.values import Zone
    e = env(str(ROOT / "games" / "zena.yaml"), players=3)
    e.reset(seed=2)
    state = e.unwrapped.state
    card = next(c for c in state.zones["play"]) if state.zones["play"] else None
    if card is None:   # put one card in play, as the table would show it
        card = state.zones["action_deck"][0]
        state.zones["action_deck"].remove(card)
        state.zones["play"].append(card)
        state.loc[card] = Zone("play")
    before = [e.observe(a)["observation"].copy() for a in e.possible_agents]
    state.cv["cubes"][card] = [1, 2]
    after = [e.observe(a)["observation"] for a in e.possible_agents]
    assert all(not np.array_equal(b, a) for b, a in zip(before, after))
