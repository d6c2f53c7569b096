"""Agents: who decides for a seat.

Each agent has `choose(state) -> Option`. basic.py holds random and first,
human.py the person at a terminal, search.py greedy and MCTS over
determinizations. `parse_agents` and `make_agents` turn the CLI's
`--agents` text into agents.

May import: interpreter.engine, interpreter.tools (undo), rulespec.
"""
from __future__ import annotations

from ..engine.rng import MASK, mix
from .basic import FirstAgent, RandomAgent
from .human import HumanAgent
from .search import GreedyAgent, MCTSAgent

__all__ = ["AGENTS", "parse_agents", "make_agents", "agent_seed", "RandomAgent", "FirstAgent",
           "HumanAgent", "GreedyAgent", "MCTSAgent"]

AGENTS = {"random": RandomAgent, "first": FirstAgent, "human": HumanAgent,
          "greedy": GreedyAgent, "mcts": MCTSAgent}


def parse_agents(text: str, players: int) -> list[str]:
    """'random' means every seat; 'a,b,c' names one agent per seat."""
    names = [a.strip() for a in (text or "random").split(",") if a.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--agents names {len(names)} agents for {players} players")
    for name in names:
        if name.split(":")[0] not in AGENTS:
            raise ValueError(f"unknown agent '{name}'; agents are: {', '.join(AGENTS)}")
        base, _, option = name.partition(":")
        if option:   # 'mcts:200': the agent checks its own option (ValueError says why)
            try:
                AGENTS[base](0, option)
            except TypeError:
                raise ValueError(f"agent '{base}' takes no option, not '{name}'") from None
    return names


def make_agents(names: list[str], seed: int, **io) -> list:
    """Agents for each seat, each seeded with agent_seed(seed, seat). Every caller
    (play, simulate on any backend, serve, the tests' goldens) makes agents here, so
    a seed means the same agents everywhere."""
    agents = []
    for seat, name in enumerate(names):
        cls = AGENTS[name.split(":")[0]]
        own = agent_seed(seed, seat)
        option = name.partition(":")[2]
        if cls is HumanAgent:
            agents.append(cls(own, **io))
        else:
            agents.append(cls(own, option) if option else cls(own))
    return agents


def agent_seed(seed: int, seat: int) -> int:
    """The seed (a natural number, for random.Random) of seat `seat`'s agent in the
    game of `seed`: another, unrelated stream for each (seed, seat) pair.

    Injective on all pairs of ints: each is folded to a natural number (zigzag:
    0, -1, 1, -2, ... → 0, 1, 2, 3, ...), Cantor's pairing makes the two one natural
    number, and SplitMix64's `mix` (engine/rng.py, a bijection of 64-bit words)
    scrambles its low 64 bits, so neighbouring pairs start far apart. `seed * 1000 +
    seat` did neither: random.Random takes abs() of its seed, so seat 0 at seed -5
    drew what it drew at 5, and seed 1 seat 0 was seed 0 seat 1000."""
    a, b = _natural(seed), _natural(seat)
    paired = (a + b) * (a + b + 1) // 2 + b
    return (paired & ~MASK) | mix(paired & MASK)


def _natural(n: int) -> int:
    """Zigzag: the ints onto the natural numbers, one to one."""
    n = int(n)
    return 2 * n if n >= 0 else -2 * n - 1
