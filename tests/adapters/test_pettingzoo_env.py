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
    assert winners and all(rewards[f"player_{s}"] == 1 for s in winners)
    assert sum(rewards.values()) == len(winners) - (2 - len(winners))


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
