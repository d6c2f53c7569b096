"""A PettingZoo AEC environment for any spec, so researchers can train on it.

    pip install -e '.[pettingzoo]'
    from interpreter.adapters.pettingzoo_env import env
    e = env("tests/games/market.yaml", players=3)

Agents are "player_0".."player_{n-1}" (seats). What each gets:

- observation: {"observation": float32 vector, "action_mask": int8 vector}. The
  vector is built from `state.view(seat)` only, so hidden information stays
  hidden: whose turn it is, the phase, every public global, every per-player
  variable (seats rotated so the observer comes first; "?" where hidden), and for
  every zone its card count plus, where the seat may see it, how many of each
  card name it holds, and every per-card value of every card (-1 where the seat
  cannot see it: interpreter/engine/visibility.py decides, for this as for the
  view). Symbols become their index in the spec's vocabulary + 1, lists and
  maps their length, a player its seat + 1. The layout is fixed by the spec and
  player count.
- actions: Discrete(max_actions). Action i is the i-th legal option in the
  engine's order (labels: `env.unwrapped.option_labels()`). Labels are not a
  fixed set (they name cards, numbers, players), so the action space is
  positional; the mask marks the options that exist now. max_actions defaults to
  twice the most options seen in 20 seeded random games; a decision with more
  options offers only the first max_actions (pass a larger max_actions).
- rewards: at the end, what the engine's MCTS maximises (agents/search.py,
  `win_shares`): 1 to a sole winner, 1/k to each of k tied winners, 0 to the
  others and to all when nobody may win; 0 before.
- reset: a game that is over before anyone decides (every decision forced) has
  nothing to train on, so `reset` raises RulespecError naming the spec, players
  and seed, rather than hand PettingZoo an environment with no agent to act.
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulespec.errors import RulespecError
from ..agents.search import win_shares
from ..engine.game import load_game
from ..engine.values import Zone

BOUND = 1e6
PROBE_GAMES = 20


def env(spec, players: int, variant=None, max_actions=None, render_mode=None):
    return RulespecEnv(spec, players, variant, max_actions, render_mode)


class RulespecEnv(AECEnv):
    metadata = {"name": "rulespec_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, spec, players: int, variant=None, max_actions=None, render_mode=None):
        super().__init__()
        self.game = load_game(spec, variant=variant) if isinstance(spec, str) else spec
        self.n, self.render_mode = players, render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.layout = ObservationLayout(self.game, players)
        self.max_actions = max_actions or 2 * most_options(self.game, players)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8)})
        self._action_space = spaces.Discrete(self.max_actions)
        self._next_seed = 0
        self.state = None

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed=None, options=None):
        if seed is None:
            seed, self._next_seed = self._next_seed, self._next_seed + 1
        else:
            self._next_seed = seed + 1
        self.state = self.game.new_state(self.n, seed)
        if self.state.is_terminal():
            raise RulespecError(
                f"{self.game.file}: with {self.n} players and seed {seed} the game is over before "
                f"anyone decides (ended by {self.state.ended_by}): there is nothing to train on")
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self):
        st = self.state
        if st.is_terminal():
            self._end()
        else:
            self.agent_selection = self.possible_agents[st.current_player()]

    def _end(self):
        shares = win_shares(self.state)   # a tie splits the win, as MCTS scores it
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = shares[seat]
            self.terminations[agent] = True
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.max_actions, np.int8)
        if self.state.current_player() == seat:
            mask[:min(self.max_actions, len(self.state.legal_actions()))] = 1
        return {"observation": self.layout.encode(self.state.view(seat), seat), "action_mask": mask}

    def option_labels(self) -> list[str]:
        return [o.label for o in self.state.legal_actions()][:self.max_actions]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        options = self.state.legal_actions()
        index = int(action)
        if not 0 <= index < min(len(options), self.max_actions):
            raise ValueError(f"action {index} is masked: {agent} has {len(options)} options now")
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        self.state.apply(index)
        self._select()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return self.state.describe()
        return None

    def close(self):
        pass


def most_options(game, players) -> int:
    """The most legal options any decision offered in a few seeded random games."""
    most = 2
    for seed in range(PROBE_GAMES):
        st, rand = game.new_state(players, seed), random.Random(seed)
        while not st.is_terminal():
            count = len(st.legal_actions())
            most = max(most, count)
            st.apply(rand.randrange(count))
    return most


class ObservationLayout:
    """Where each thing a seat may see goes in the observation vector."""

    def __init__(self, game, players):
        self.game, self.n = game, players
        self.globals = list(game.decls["globals"])
        self.per_player = list(game.decls["per_player"])
        probe = game.new_state(players, 0)
        self.zones = list(probe.zones)   # every zone of this player count, in a fixed order
        self.names = sorted(game.cards_by_name)
        self.name_of = {card: attrs.get("name", card.split("#")[0]) for card, attrs in game.cards.items()}
        self.vocab = {word: i + 1 for i, word in enumerate(sorted(_words(game)))}
        self.phases = {name: i + 1 for i, name in enumerate(game.data.get("phases") or {})}
        self.per_card = list(game.decls["per_card"])
        self.cards = list(game.cards)
        self.size = 2 + len(self.globals) + len(self.per_player) * players + \
            len(self.zones) * (1 + len(self.names)) + len(self.cards) * len(self.per_card)

    def encode(self, view, seat) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        out[0] = 1.0 if view.get("to_move") == seat else 0.0
        out[1] = self.phases.get(view["phase"], 0)
        i = 2
        for name in self.globals:
            out[i] = self.number(view["globals"].get(name, "?"))
            i += 1
        order = [(seat + k) % self.n for k in range(self.n)]   # the observer first
        for name in self.per_player:
            values = view["players_vars"][name]
            for s in order:
                out[i] = self.number(values[s])
                i += 1
        for zone in self._rotated_zones(seat):
            cards = view["zones"][zone]
            visible = not isinstance(cards, dict)
            out[i] = len(cards) if visible else cards["count"]
            if visible:
                for card in cards:
                    out[i + 1 + self.names.index(self.name_of[card])] += 1
            i += 1 + len(self.names)
        shown = view.get("cards", {})
        for card in self.cards:
            values = shown.get(card, {})
            for name in self.per_card:
                out[i] = self.number(values.get(name, "?"))
                i += 1
        return np.clip(out, -BOUND, BOUND)

    def _rotated_zones(self, seat):
        """Zones in the layout's order, a player's zone read from the observer's seat."""
        for zone in self.zones:
            if zone.seat is None:
                yield zone
            else:
                yield Zone(f"{zone.base}@{(zone.seat + seat) % self.n}")

    def number(self, value) -> float:
        if value == "?":
            return -1.0
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, (int, float)):
            return float(value)
        if value is None:
            return 0.0
        if isinstance(value, str):
            return float(self.vocab.get(value, -2))
        if isinstance(value, dict) and "$seat" in value:
            return float(value["$seat"] + 1)
        if isinstance(value, (list, dict)):   # a list, or an encoded map / zone
            return float(len(value.get("$map", value)) if isinstance(value, dict) else len(value))
        return 0.0


def _words(game) -> set:
    """Every string a variable may plausibly hold: symbols, board nodes, declared values."""
    words = {str(s) for s in game.data.get("symbols") or []}
    for board in game.boards.values():
        words.update(str(node) for node in getattr(board, "graph", {}) or [])
    for section in game.decls.values():
        for decl in section.values():
            for value in [decl.get("start")] + list(decl.get("one_of") or []):
                if isinstance(value, str):
                    words.add(value)
    return words
