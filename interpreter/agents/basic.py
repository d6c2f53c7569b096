"""The simplest agents: uniform random and always-the-first-option.

Every agent has `choose(state) -> Option` and is built as `Agent(seed)` or
`Agent(seed, option_text)`.
"""
from __future__ import annotations

import random as _random

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
