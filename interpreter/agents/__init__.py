"""Agents: who decides for a seat.

Each agent has `choose(state) -> Option`. basic.py holds random and first,
human.py the person at a terminal, search.py greedy and MCTS over
determinizations. `parse_agents` and `make_agents` turn the CLI's
`--agents` text into agents.

May import: interpreter.engine, interpreter.tools (undo), rulespec.
"""
from __future__ import annotations

from .basic import FirstAgent, RandomAgent
from .human import HumanAgent
from .search import GreedyAgent, MCTSAgent

__all__ = ["AGENTS", "parse_agents", "make_agents", "RandomAgent", "FirstAgent", "HumanAgent",
           "GreedyAgent", "MCTSAgent"]

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
    """Agents for each seat; random agents get a seed derived from the game's and the seat."""
    agents = []
    for seat, name in enumerate(names):
        cls = AGENTS[name.split(":")[0]]
        agent_seed = seed * 1000 + seat
        option = name.partition(":")[2]
        if cls is HumanAgent:
            agents.append(cls(agent_seed, **io))
        else:
            agents.append(cls(agent_seed, option) if option else cls(agent_seed))
    return agents
