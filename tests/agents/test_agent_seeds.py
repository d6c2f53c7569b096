"""Each (seed, seat) seeds its agent with a stream of its own (agents.agent_seed)."""
from __future__ import annotations

import random

import pytest

from interpreter.agents import agent_seed, make_agents
from interpreter.engine.rng import MASK


def first_draws(seed: int, seats: int = 6, draws: int = 2) -> list[tuple]:
    """What each seat's random agent draws first, made as play and simulate make it."""
    return [tuple(agent.rng.random() for _ in range(draws))
            for agent in make_agents(["random"] * seats, seed)]


@pytest.mark.parametrize("seed", [1, 5, 1000, 2**40, 2**64 + 3])
def test_a_negative_seed_and_its_positive_give_other_agents(seed):
    # seed*1000+seat gave seat 0 at -5 what it gave at 5 (random.Random takes abs())
    assert all(a != b for a, b in zip(first_draws(seed), first_draws(-seed)))


def test_seeds_0_to_999_and_seats_0_to_5_give_distinct_streams():
    # seed*1000+seat also made seed 1 seat 0 seed 0 seat 1000's agent
    seen = [draw for seed in range(1000) for draw in first_draws(seed, draws=1)]
    assert len(set(seen)) == len(seen) == 6000


def test_agent_seed_is_one_to_one_natural_and_mixed():
    pairs = [(s, k) for s in [*range(-300, 300), 2**63, -2**63, 2**64, -2**64, 10**30, -10**30]
             for k in range(8)]
    seeds = [agent_seed(s, k) for s, k in pairs]
    assert len(set(seeds)) == len(pairs)
    assert all(isinstance(n, int) and n >= 0 for n in seeds)   # Random's abs() changes none
    # neighbours land far apart: low words differ in about half their 64 bits
    flips = [bin((agent_seed(s, 0) ^ agent_seed(s + 1, 0)) & MASK).count("1") for s in range(200)]
    assert 24 < sum(flips) / len(flips) < 40


def test_the_same_seed_and_seat_give_the_same_agent():
    assert first_draws(7) == first_draws(7)
    assert random.Random(agent_seed(7, 2)).random() == first_draws(7, draws=1)[2][0]
