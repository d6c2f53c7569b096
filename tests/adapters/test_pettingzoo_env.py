"""The PettingZoo AEC adapter passes PettingZoo's own API test on every game, and
its observations come from the player's view only. Needs the `pettingzoo` extra."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from interpreter.adapters.pettingzoo_env import env, parallel_env
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

MARKET = str(TESTS / "games" / "market.yaml")
GAMES = sorted(str(p) for p in (ROOT / "games").glob("*.yaml")) + [MARKET]
TEST_SPECS = sorted(str(p) for p in (TESTS / "games").glob("*.yaml"))


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
        legal = e.unwrapped.vocab.ids(e.unwrapped.state)
        assert obs["action_mask"].sum() == len(legal) and obs["action_mask"][legal].all()
        others = [a for a in e.agents if a != agent]
        assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
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
        e.step(None if done or truncated else int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
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


def test_an_action_is_its_vocabulary_id_in_every_state():
    """Tic-tac-toe: marking one cell is the same action number whatever the board holds."""
    e = env(str(TESTS / "games" / "tictactoe.yaml"), players=2)
    e.reset(seed=0)
    vocab = e.unwrapped.vocab
    first = e.unwrapped.action_names()
    e.step(next(iter(first)))
    later = e.unwrapped.action_names()
    assert len(later) == 8 and all(first[i] == name for i, name in later.items())
    assert e.action_space(e.agent_selection).n == vocab.size
    with pytest.raises(ValueError, match="is not legal now"):
        e.step(next(i for i in first if i not in later))


def _zena_at_its_first_decision():
    e = env(str(ROOT / "games" / "zena.yaml"), players=3)
    e.reset(seed=1)
    return e


# what int() would have read as another id (1.5 as 1, "3" as 3, True as 1): each named
@pytest.mark.parametrize("bad", [1.5, 1.0, "3", True, np.bool_(True), np.float64(2.0), [1]],
                         ids=repr)
def test_an_action_that_is_no_integer_id_is_refused_naming_it(bad):
    e = _zena_at_its_first_decision()
    before = e.unwrapped.state.to_json()
    with pytest.raises(ValueError, match=f"not {re.escape(repr(bad))} \\({type(bad).__name__}\\)"):
        e.step(bad)
    assert e.unwrapped.state.to_json() == before
    p = parallel_env(str(ROOT / "games" / "zena.yaml"), players=3)
    obs, _ = p.reset(seed=1)
    movers = [a for a in p.agents if obs[a]["action_mask"].any()]
    legal = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in movers}
    with pytest.raises(ValueError, match=f"not {re.escape(repr(bad))}"):
        p.step({**legal, movers[0]: bad})
    assert p.unwrapped.state.to_json() == before


def test_none_is_no_action_for_an_agent_that_must_act_but_is_for_one_that_is_done():
    e = _zena_at_its_first_decision()
    agent = e.agent_selection
    with pytest.raises(ValueError, match=f"{agent} decides now and was given no action"):
        e.step(None)
    legal = np.flatnonzero(e.last()[0]["action_mask"])
    e.step(np.int64(legal[0]))           # a numpy integer, as a mask's sample gives, is an id
    assert e.unwrapped.state.decisions == 1
    # at the end PettingZoo passes None for every agent that is done (api_test does)
    e = env(MARKET, players=2)
    e.reset(seed=4)
    for agent in e.agent_iter():
        obs, _, done, truncated, _ = e.last()
        e.step(None if done or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == []


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("spec", GAMES + TEST_SPECS, ids=lambda p: Path(p).stem)
def test_parallel_api_test(spec):
    players = 3 if spec in GAMES else shipped(spec).min_players
    parallel_api_test(parallel_env(spec, players=players), num_cycles=300)


def _secret_steps(p, seed):
    """Plays a parallel game with the first legal action; yields each step's movers."""
    obs, _ = p.reset(seed=seed)
    while p.agents:
        movers = {a for a in p.agents if obs[a]["action_mask"].any()}
        yield movers, p.unwrapped.state.pending
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) if a in movers else 0 for a in p.agents}
        obs, *_ = p.step(actions)


def test_secret_choices_of_a_round_are_one_step():
    """Zena's `secretly for p in players` rounds: every seat acts in one step; a step
    of a decision that is not secret has one mover."""
    p = parallel_env(str(ROOT / "games" / "zena.yaml"), players=3)
    together = 0
    for movers, pending in _secret_steps(p, seed=3):
        assert movers, "every step has someone to act"
        if not pending.secret:
            assert movers == {f"player_{pending.player}"}
        elif len(movers) == 3:
            together += 1
    assert together >= 1


def test_market_secret_bets_are_one_step_for_all_seats():
    """Market's secret bets are one decision per seat: each such round is one step
    in which all three seats act; every other step has exactly one mover."""
    p = parallel_env(MARKET, players=3)
    rounds = 0
    for movers, pending in _secret_steps(p, seed=2):
        if pending.secret:
            assert len(movers) == 3
            rounds += 1
        else:
            assert movers == {f"player_{pending.player}"}
    assert rounds >= 2


def test_a_parallel_game_is_the_game_the_engine_plays():
    """The same choices through the parallel env and through State.apply end alike."""
    spec = str(ROOT / "games" / "zena.yaml")
    p = parallel_env(spec, players=3)
    list(_secret_steps(p, seed=5))
    st = shipped(spec).new_state(3, 5)
    vocab = p.unwrapped.vocab
    while not st.is_terminal():   # the first legal id, as the parallel run took
        st.apply(vocab.option_for(st, min(vocab.ids(st))))
    assert st.scores() == p.unwrapped.state.scores() and st.decisions == p.unwrapped.state.decisions


def test_the_readme_recipe_runs(monkeypatch):
    """README.md, For researchers: the PettingZoo block (AEC and parallel) plays to the end."""
    from tests.doc_blocks import blocks
    recipe = next(b for b in blocks(ROOT / "README.md") if "parallel_env" in b.body)
    assert recipe.marker.get("checked-by") == "tests/adapters/test_pettingzoo_env.py"
    monkeypatch.chdir(ROOT)
    space = {}
    exec(compile(recipe.body, recipe.where, "exec"), space)
    assert space["e"].unwrapped.state.is_terminal() and space["p"].unwrapped.state.is_terminal()
    assert sum(space["rewards"].values()) == pytest.approx(1.0) or not space["p"].unwrapped.state.winner()
