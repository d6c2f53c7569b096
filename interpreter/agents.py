"""Agents: who decides for a seat. Each has `choose(state) -> Option`."""
from __future__ import annotations

import random as _random

from .errors_ import RulespecError


class RandomAgent:
    """Uniform over the legal options, from its own seeded generator."""
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = _random.Random(seed)

    def choose(self, state):
        options = state.legal_actions()
        return options[self.rng.randrange(len(options))]


class FirstAgent:
    """Always the first legal option: a cheap, fully predictable opponent."""
    name = "first"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, state):
        return state.legal_actions()[0]


class HumanAgent:
    """A person at a terminal: numbered options, their own view, asks again on bad input
    (saying why an option is not legal), and `undo` goes back to their previous decision."""
    name = "human"

    def __init__(self, seed: int = 0, stdin=None, stdout=None):
        import sys

        from .undo import History
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.history = History()

    def choose(self, state):
        self.history.remember(state)
        options = self._show(state)
        while True:
            print("> ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise RulespecError("input ended before the game did")
            answer = line.strip()
            for option in options:   # an exact label first: options may themselves be numbers
                if option.label == answer:
                    return option
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            if answer == "undo":
                problem = self.history.undo(state, state.current_player())
                if problem is None:
                    options = self._show(state)
                else:
                    print(problem, file=self.stdout)
                continue
            self._refuse(state, answer, options)

    def _show(self, state):
        seat = state.current_player()
        options = state.legal_actions()
        print(state.describe(seat), file=self.stdout)
        print(f"\n{state.game.seat_name(seat)}, choose (or type undo):", file=self.stdout)
        for i, option in enumerate(options, 1):
            print(f"  {i}. {option.label}", file=self.stdout)
        return options

    def _refuse(self, state, answer, options):
        """Say why `answer` is not legal: the refusing rule and its line, when there is one."""
        from .explain import refusal
        if not answer or answer.isdigit():
            print(f"'{answer}' is not an option: type a number from 1 to {len(options)} "
                  f"or an option's exact text.", file=self.stdout)
            return
        print(refusal(state, answer).format(), file=self.stdout)


AGENTS = {"random": RandomAgent, "first": FirstAgent, "human": HumanAgent}

from .search import GreedyAgent, MCTSAgent  # noqa: E402  (search agents: search.py)
AGENTS.update({"greedy": GreedyAgent, "mcts": MCTSAgent})


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
            AGENTS[base](0, option)
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
