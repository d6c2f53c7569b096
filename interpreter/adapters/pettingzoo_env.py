"""PettingZoo environments for any spec, so researchers can train on it.

    pip install -e '.[pettingzoo]'
    from interpreter.adapters.pettingzoo_env import env, parallel_env
    e = env("tests/games/market.yaml", players=3)            # AEC: one seat at a time
    p = parallel_env("tests/games/market.yaml", players=3)           # secret choices at once

Agents are "player_0".."player_{n-1}" (seats). What each gets:

- observation: {"observation": float32 vector, "action_mask": int8 vector}. The
  vector is encoding.ObservationLayout (docs/observations.md): built from
  `state.view(seat)` only, so hidden information stays hidden, holding only the
  features that can change; `env.unwrapped.layout.describe()` gives
  (offset, length, name, meaning) of each part.
- actions: Discrete(vocabulary size). Action i is the i-th id of the spec's fixed
  action vocabulary (interpreter/adapters/encoding.py: ActionVocabulary, built
  per spec, variant and player count), so one action keeps its id in every
  state and every game; `env.unwrapped.vocab.names[i]` names it. The mask is 1
  at the ids of the options legal now for that seat, all 0 for a seat that
  does not decide now. An id the mask refuses raises ValueError, and so does
  an action that is no id: anything but an int or a numpy integer (a bool, a
  float, a text), or None for an agent that must act (None is the action only
  of an agent that is done, as PettingZoo's API has it).
- rewards: at the end, what the engine's MCTS maximises (agents/search.py,
  `win_shares`): 1 to a sole winner, 1/k to each of k tied winners, 0 to the
  others and to all when nobody may win; 0 before.
- reset: a game that is over before anyone decides (every decision forced) has
  nothing to train on, so `reset` raises RulespecError naming the spec, players
  and seed, rather than hand PettingZoo an environment with no agent to act.

The parallel environment (RulespecParallelEnv, PettingZoo's ParallelEnv) is for
secret simultaneous decisions (a `secretly for p in players:` round: each
decision is `Decision.secret`, hidden from the other seats). A step takes an
action from every seat with a mask: when the pending decision is secret, every
other seat whose secret decision of the same round follows it acts in the same
step (their masks come from a look-ahead copy of the state that answers the
earlier secret decisions with stand-ins, which is sound because a secret choice
cannot see another; the observation is the real state's view). Actions are
applied in the engine's order; a seat whose decision is not reached yet in the
step (a seat before it picks several cards) keeps its action until it is, and
gets an all-0 mask meanwhile. A decision that is not secret is one seat's step:
the others get all-0 masks and their actions are ignored (a no-op), which is
PettingZoo's way for turn-based games too. An action that the real state
refuses when it is applied (options that depended on an earlier secret choice)
raises ValueError.
"""
from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from rulespec.errors import RulespecError
from ..agents.search import win_shares
from ..engine.game import load_game
from .encoding import BOUND, PROBE_GAMES, ActionVocabulary, ObservationLayout, as_action_id

LOOKAHEAD = 1_000     # decisions a parallel step's look-ahead may answer with stand-ins


def env(spec, players: int, variant=None, render_mode=None, probe_games=PROBE_GAMES):
    """The AEC environment of a spec (a path or a compiled Game) for `players` seats."""
    return RulespecEnv(spec, players, variant, render_mode, probe_games)


def parallel_env(spec, players: int, variant=None, render_mode=None, probe_games=PROBE_GAMES):
    """The parallel environment of a spec: secret simultaneous decisions in one step."""
    return RulespecParallelEnv(spec, players, variant, render_mode, probe_games)


@functools.lru_cache(maxsize=16)
def _layout(game, players) -> ObservationLayout:
    """One layout per game and player count: building one plays probe games."""
    return ObservationLayout(game, players)


class _Table:
    """What both environments share: the game, the layout, the vocabulary, the spaces."""

    def _setup(self, spec, players, variant, render_mode, probe_games):
        self.game = load_game(spec, variant=variant) if isinstance(spec, str) else spec
        self.n, self.render_mode = players, render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.layout = _layout(self.game, players)
        self.vocab = ActionVocabulary(self.game, players, probe_games)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.vocab.size,), np.int8)})
        self._action_space = spaces.Discrete(self.vocab.size)
        self._next_seed = 0
        self.state = None

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def _new_game(self, seed):
        if seed is None:
            seed, self._next_seed = self._next_seed, self._next_seed + 1
        else:
            self._next_seed = seed + 1
        self.state = self.game.new_state(self.n, seed)
        if self.state.is_terminal():
            raise RulespecError(
                f"{self.game.file}: with {self.n} players and seed {seed} the game is over before "
                f"anyone decides (ended by {self.state.ended_by}): there is nothing to train on")

    def _observation(self, seat, mask) -> dict:
        return {"observation": self.layout.encode(self.state.view(seat), seat),
                "action_mask": mask if mask is not None else np.zeros(self.vocab.size, np.int8)}

    def action_names(self) -> dict[int, str]:
        """The ids legal now and their names, e.g. {12: "action buy card:wine#1"}."""
        return {i: self.vocab.names[i] for i in self.vocab.ids(self.state)}

    def render(self):
        if self.render_mode == "ansi":
            return self.state.describe()
        return None

    def close(self):
        pass


class RulespecEnv(_Table, AECEnv):
    """The AEC environment (see the module docstring)."""
    metadata = {"name": "rulespec_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, spec, players: int, variant=None, render_mode=None, probe_games=PROBE_GAMES):
        AECEnv.__init__(self)
        self._setup(spec, players, variant, render_mode, probe_games)

    def reset(self, seed=None, options=None):
        self._new_game(seed)
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
        mask = self.vocab.mask(self.state).astype(np.int8) if self.state.current_player() == seat else None
        return self._observation(seat, mask)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:    # PettingZoo's action for an agent that is done, not for one that decides
            raise ValueError(f"{agent} decides now and was given no action (None)")
        option = self.vocab.option_for(self.state, action)   # ValueError when masked or not an id
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        self.state.apply(option)
        self._select()
        self._accumulate_rewards()


class RulespecParallelEnv(_Table, ParallelEnv):
    """The parallel environment (see the module docstring)."""
    metadata = {"name": "rulespec_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, spec, players: int, variant=None, render_mode=None, probe_games=PROBE_GAMES):
        self._setup(spec, players, variant, render_mode, probe_games)
        self.agents = []
        self._kept: dict[int, int] = {}    # seat -> action id for a decision not reached yet
        self._movers: dict[int, np.ndarray] = {}

    def reset(self, seed=None, options=None):
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self._kept = {}
        self._movers = self.movers()
        return self._observations(), {a: {} for a in self.agents}

    def movers(self) -> dict[int, np.ndarray]:
        """Seats that act in the next step and their int8 masks (module docstring)."""
        st = self.state
        if st.is_terminal():
            return {}
        first = st.current_player()
        found = {first: self.vocab.mask(st).astype(np.int8)}
        if not st.pending.secret:
            return found
        ahead, last = st.clone(), first
        for _ in range(LOOKAHEAD):
            ahead.apply(0)   # a stand-in answer: a secret choice cannot see another
            if ahead.is_terminal() or not ahead.pending.secret:
                break
            seat = ahead.current_player()
            if seat == last:
                continue     # the same seat's next decision of this round
            if seat in found or seat in self._kept:
                break        # the round is over, or that seat already acted
            found[seat], last = self.vocab.mask(ahead).astype(np.int8), seat
        return found

    def step(self, actions):
        for seat, mask in self._movers.items():
            agent = self.possible_agents[seat]
            if agent not in actions or actions[agent] is None:
                raise ValueError(f"{agent} decides now and was given no action")
            action = as_action_id(actions[agent])
            if not (0 <= action < self.vocab.size and mask[action]):
                raise ValueError(f"action {action} is masked for {agent} now")
            self._kept[seat] = action
        st = self.state
        while not st.is_terminal() and st.current_player() in self._kept:
            st.apply(self.vocab.option_for(st, self._kept.pop(st.current_player())))
        self._movers = self.movers()
        live = list(self.agents)
        observations = self._observations()
        shares = win_shares(st) if st.is_terminal() else [0] * self.n
        rewards = {a: shares[self.possible_agents.index(a)] for a in live}
        terminations = {a: st.is_terminal() for a in live}
        truncations = {a: False for a in live}
        if st.is_terminal():
            self.agents = []
        return observations, rewards, terminations, truncations, {a: {} for a in live}

    def _observations(self) -> dict:
        return {agent: self._observation(seat, self._movers.get(seat))
                for seat, agent in enumerate(self.possible_agents) if agent in self.agents}

