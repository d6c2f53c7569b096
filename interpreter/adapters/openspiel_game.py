"""Any spec as an OpenSpiel game (extra `[openspiel]`: the `open-spiel` package).

    from interpreter.adapters.openspiel_game import load_openspiel
    game = load_openspiel("tests/games/kuhn.yaml")          # a pyspiel.Game
    state = game.new_initial_state()

or, through OpenSpiel's registry (the module registers the short name
"rulespec" when imported):

    pyspiel.load_game("rulespec", {"spec": "tests/games/kuhn.yaml", "players": 2})

What OpenSpiel sees (Lanctot et al., "OpenSpiel", 2019, for the terms):

- game type: sequential (a `secretly` round is a row of secret decisions, each
  hidden from the other seats); explicit stochastic when any rule calls `roll`,
  `random_of` or `shuffle` or a probe game met a chance node (the state is made
  with chance="explicit": interpreter/engine/chance.py), else deterministic;
  imperfect information when anything may be hidden from a seat (a zone or a
  variable not public, a `secretly` round), else perfect; zero-sum when the
  scores summed to 0 in every probe game (below) and were not all 0, else
  general-sum (`zero_sum=` overrides); rewards at the end only.
- returns: each seat's score (`scoring: score`), 0 before the end. A zero-sum
  claim is checked at every end: a game whose scores do not sum to 0 raises
  RulespecError rather than mislead a solver.
- utility bounds: the declared `min`/`max` of the per-player variable the score
  reads when the score is one (`score: p.chips`, `chips: {min: -2, max: 2}`),
  else +-UTILITY_BOUND; `utility_bounds=(low, high)` overrides. A return outside
  them raises RulespecError.
- actions: ids of the spec's fixed action vocabulary
  (interpreter/adapters/encoding.py: ActionVocabulary for this player count), so
  an action keeps its id in every state and every game; legal_actions are the
  ids of the legal options, sorted (options sharing an id are one action: the
  first); `action_to_string` is the option's label, or the id's name
  (`vocab.names`) where it is not legal; num_distinct_actions is the
  vocabulary's size.
- chance outcomes: a draw's outcome is the card name's index among the spec's
  card names (in the spec's order: stable for the spec); a roll's or a pick's
  outcome is the number of card names + its position in `chance_outcomes()` (a
  roll of k: k - 1 after them). max_chance_outcomes covers every card name plus
  twice the most roll or pick outcomes the probe games met (more raises
  RulespecError, naming the bound).
- max_game_length: decisions (chance outcomes not counted); a game still running
  after that many decisions ends, "cut off", scored as it stands.
- information state string (perfect recall): every past decision as the seat
  read it (`visibility.decision_text`: '?' for another seat's secret choice),
  then the seat's view now. Observation string: the seat's view now; with no
  private information asked for (`IIGObservationType(private_info=NONE)`), a
  spectator's view. Observation tensor: ObservationLayout's vector of that view
  (interpreter/adapters/encoding.py; `layout.describe()` names each offset); no
  information-state tensor. Views come from `state.view(seat)` only
  (interpreter/engine/visibility.py), so nothing hidden from the seat reaches it.
  Limit: a card the seat saw once and cannot see now is remembered only through
  the decisions that named it.

- serialization (`pyspiel.serialize_game_and_state`): the game by its name and
  parameters (a relative spec path is read from the working folder), the state
  by its history, replayed. A spec is validated, compiled and probed once per
  text, variant and player count, so loading it again is quick.

Probe games: PROBE_GAMES seeded games with uniformly random decisions and chance
outcomes drawn by their probabilities, played once per spec text, variant and
player count.
"""
from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path

import numpy as np
import pyspiel

from rulespec import validate
from rulespec.ast import Call, Secretly, walk
from rulespec.errors import RulespecError
from ..engine import visibility
from ..engine.game import Game
from .encoding import ActionVocabulary, ObservationLayout

SHORT_NAME = "rulespec"
PROBE_GAMES = 8
UTILITY_BOUND = 1e6
MAX_GAME_LENGTH = 20_000   # as `simulate --cutoff`'s default
_SCORE_VARIABLE = re.compile(r"\s*p\.(\w+)\s*$")

_PARAMETERS = {"spec": "", "players": 0, "variant": "", "max_game_length": MAX_GAME_LENGTH}
_RANDOM = {"roll", "random_of", "shuffle"}   # the builtins that make chance nodes (chance.py)


def load_openspiel(spec: str, players: int | None = None, variant: str | None = None,
                   utility_bounds: tuple[float, float] | None = None, zero_sum: bool | None = None,
                   max_game_length: int = MAX_GAME_LENGTH) -> "RulespecGame":
    """The spec at path `spec` (variant `variant`) as a pyspiel.Game with `players`
    seats (default: the spec's fewest). `utility_bounds` and `zero_sum` override what
    the spec and the probe games say (module docstring). Raises SpecErrors for an
    invalid spec, RulespecError for a player count the spec does not allow."""
    params = {"spec": str(spec), "players": players or 0, "variant": variant or "",
              "max_game_length": max_game_length}
    return RulespecGame(params, utility_bounds=utility_bounds, zero_sum=zero_sum)


class RulespecGame(pyspiel.Game):
    """A spec as an OpenSpiel Python game; see the module's docstring for the mapping."""

    def __init__(self, params=None, utility_bounds=None, zero_sum=None):
        params = {**_PARAMETERS, **(params or {})}
        if not params["spec"]:
            raise RulespecError("the rulespec OpenSpiel game needs a spec: {'spec': 'PATH'}")
        game, self.n, probe, hidden = _compiled(params["spec"], _text(params["spec"]),
                                                params["variant"] or None, params["players"])
        self.rules_game = game
        self.vocab = _vocabulary(game, self.n)
        self.card_names = list(dict.fromkeys(c.partition("#")[0] for c in game.cards))
        self.max_length = params["max_game_length"]
        self.zero_sum = probe.zero_sum if zero_sum is None else zero_sum
        self.bounds = utility_bounds or _utility_bounds(game)
        self.initial = game.new_state(self.n, 0, chance="explicit")
        params["players"] = self.n
        super().__init__(self._type(hidden, probe), self._info(probe), params)

    def _type(self, hidden, probe) -> pyspiel.GameType:
        kind = pyspiel.GameType
        return kind(
            short_name=SHORT_NAME, long_name=f"rulespec: {self.rules_game.name}",
            dynamics=kind.Dynamics.SEQUENTIAL,
            chance_mode=(kind.ChanceMode.EXPLICIT_STOCHASTIC if probe.chance
                         else kind.ChanceMode.DETERMINISTIC),
            information=(kind.Information.IMPERFECT_INFORMATION if hidden
                         else kind.Information.PERFECT_INFORMATION),
            utility=kind.Utility.ZERO_SUM if self.zero_sum else kind.Utility.GENERAL_SUM,
            reward_model=kind.RewardModel.TERMINAL,
            max_num_players=self.rules_game.max_players, min_num_players=self.rules_game.min_players,
            provides_information_state_string=True, provides_information_state_tensor=False,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification=_PARAMETERS)

    def _info(self, probe) -> pyspiel.GameInfo:
        low, high = self.bounds
        self.num_actions = self.vocab.size
        self.num_outcomes = max(1, len(self.card_names) + 2 * probe.most_other_outcomes) \
            if probe.chance else 0
        return pyspiel.GameInfo(
            num_distinct_actions=self.num_actions, max_chance_outcomes=self.num_outcomes,
            num_players=self.n, min_utility=float(low), max_utility=float(high),
            utility_sum=0.0 if self.zero_sum else None, max_game_length=self.max_length)

    def new_initial_state(self):
        """The game after set-up, at its first decision or chance node."""
        return RulespecState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Strings and the observation tensor from the seat's view (module docstring)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return ViewObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                            _layout(self.rules_game, self.n))


def _text(path: str) -> str | None:
    """The spec's text, for the cache's key (None: unreadable; validate says why)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


@functools.lru_cache(maxsize=16)
def _compiled(path: str, text: str, variant, players: int) -> tuple:
    """(compiled game, players, probe, hides anything), once per spec text, variant and
    player count: OpenSpiel loads the game again from its name to deserialize a state."""
    checked = validate(path, variant=variant, text=text)
    game = Game(checked)
    players = players or game.min_players
    if not game.min_players <= players <= game.max_players:
        raise RulespecError(f"{game.file}: {game.name} is for {game.min_players} to "
                            f"{game.max_players} players, not {players}")
    probe = _probe(game, players)
    probe.chance = probe.chance or _has_chance(checked)
    return game, players, probe, _hides_anything(game, checked)


@functools.lru_cache(maxsize=16)
def _layout(game, players: int) -> ObservationLayout:
    """The observation layout, once per compiled game and player count (probe games)."""
    return ObservationLayout(game, players)


@functools.lru_cache(maxsize=16)
def _vocabulary(game, players: int) -> ActionVocabulary:
    """The action vocabulary, once per compiled game and player count (probe games)."""
    return ActionVocabulary(game, players)


class _Held:
    """The engine's state inside an OpenSpiel state. OpenSpiel clones a Python state
    by deep-copying its attributes: the copy is the engine's own clone(). It
    serializes one by pickling them: a pickled _Held is only a mark that the state
    is to be rebuilt by replaying the history OpenSpiel restores beside it.
    state None: not made yet (the initial state, or the one to rebuild)."""
    __slots__ = ("state", "rebuild")

    def __init__(self, state=None, rebuild=False):
        self.state, self.rebuild = state, rebuild

    def __deepcopy__(self, memo):
        return _Held(None if self.state is None else self.state.clone(), self.rebuild)

    def __reduce__(self):
        return _Held, (None, True)


class _Seen:
    """What each seat, then a spectator, read of the decisions so far; shared
    between clones (never changed in place: a new decision makes a new _Seen)."""
    __slots__ = ("steps",)

    def __init__(self, steps=()):
        self.steps = steps    # (per-seat texts, the _Seen before) or ()

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):                 # flat, so a long game does not nest deep
        return _Seen.of, (self.texts(),)

    @staticmethod
    def of(texts: list) -> "_Seen":
        seen = _Seen()
        for t in texts:
            seen = seen.add(t)
        return seen

    def add(self, texts: tuple) -> "_Seen":
        return _Seen((texts, self))

    def texts(self) -> list[tuple]:
        """Per decision so far, oldest first: the text each seat read."""
        out, node = [], self
        while node.steps:
            texts, node = node.steps
            out.append(texts)
        return out[::-1]


class RulespecState(pyspiel.State):
    """One game in progress; the engine's state is `self.rules_state`."""

    def __init__(self, game: RulespecGame):
        super().__init__(game)
        self._held = _Held()    # made on first use: OpenSpiel's clone replaces it at once
        self._seen = _Seen()

    @property
    def rules_state(self):
        held = self._held
        if held.state is None:
            held.state = self._g.initial.clone()
            for action in self.history() if held.rebuild else ():
                self._step(held.state, action)
            held.rebuild = False
        return held.state

    @property
    def _g(self) -> RulespecGame:
        return self.get_game()

    def current_player(self):
        st = self.rules_state
        if st.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if st.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return int(st.current_player())

    def _legal_actions(self, player):
        return sorted(set(self._g.vocab.ids(self.rules_state)))

    def chance_outcomes(self):
        st = self.rules_state
        return [(self._outcome_id(st, i, value), p) for i, (value, p) in enumerate(st.chance_outcomes())]

    def _outcome_id(self, st, position, value) -> int:
        game, kind = self._g, st.explicit.node.kind
        if kind == "draw":
            return game.card_names.index(value)
        outcome = len(game.card_names) + position
        if outcome >= game.num_outcomes:
            raise RulespecError(f"{game.rules_game.file}: a {kind} with more outcomes than "
                                f"max_chance_outcomes {game.num_outcomes}, measured by probe games")
        return outcome

    def _outcome_value(self, st, action):
        for i, (value, _) in enumerate(st.chance_outcomes()):
            if self._outcome_id(st, i, value) == action:
                return value
        raise RulespecError(f"{action} is not a chance outcome here")

    def _apply_action(self, action):
        st = self.rules_state
        if not st.is_chance_node():
            option = self._g.vocab.option_for(st, action)
            texts = tuple(visibility.decision_text(st, option, seat) for seat in [*range(st.n), None])
            self._seen = self._seen.add(texts)
        self._step(st, action)

    def _step(self, st, action) -> None:
        """Apply one OpenSpiel action (a chance outcome's id or an option's) to `st`."""
        if st.is_chance_node():
            st.apply_chance(self._outcome_value(st, action))
            return
        st.apply(self._g.vocab.option_for(st, action))
        if st.decisions >= self._g.max_length and not st.is_terminal():
            st.finish("cut off")

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return str(self._outcome_value(self.rules_state, action))
        st, vocab = self.rules_state, self._g.vocab
        if action in vocab.ids(st):
            return vocab.option_for(st, action).label
        return vocab.names[action]     # OpenSpiel may name an action of another state

    def is_terminal(self):
        return self.rules_state.is_terminal()

    def returns(self):
        st = self.rules_state
        if not st.is_terminal():
            return [0.0] * st.n
        scores = [float(s) for s in st.scores()]
        _check_returns(self._g, scores)
        return scores

    def information_state(self, seat) -> str:
        """Every decision so far as `seat` read it, then its view (None: a spectator)."""
        read = [t[-1 if seat is None else seat] for t in self._seen.texts()]
        return "\n".join(["decisions: " + " | ".join(read), self.view_text(seat)])

    def view_text(self, seat) -> str:
        """The seat's view (None: a spectator's) as canonical JSON."""
        return json.dumps(self.rules_state.view(seat), sort_keys=True, separators=(",", ":"))

    def __str__(self):
        """The whole state, hidden parts too (the engine's save text): OpenSpiel's tools
        key states by it (get_all_states), so different states must read differently."""
        return self.rules_state.to_json(spec=False)


class ViewObserver:
    """OpenSpiel's PyObserver interface (open_spiel/python/observation.py): strings,
    and without perfect recall the observation tensor: ObservationLayout's vector
    (interpreter/adapters/encoding.py) of the seat's view, or of a spectator's
    view read from the seat's place when no private information is asked for.
    No information-state tensor (perfect recall): tensor None then."""

    def __init__(self, iig_obs_type, layout):
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE
        self.layout = layout
        self.tensor, self.dict = None, {}
        if not self.perfect_recall:
            self.tensor = np.zeros(layout.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor is not None:
            view = state.rules_state.view(player if self.private else None)
            self.tensor[:] = self.layout.encode(view, player)

    def string_from(self, state, player):
        seat = player if self.private else None
        return state.information_state(seat) if self.perfect_recall else state.view_text(seat)


# ------------------------------------------------------------------ what the spec says
def _hides_anything(game, checked) -> bool:
    """Whether some seat may be kept from seeing something: a zone or a variable
    that is not public, or a `secretly` round."""
    zones = [("hidden" if d is None else (d or {}).get("visibility", "hidden"))
             for d in game.zone_decls.values()]
    zones += [(d or {}).get("visibility", "owner") for d in game.player_zone_decls.values()]
    variables = [d.get("visibility", "public") for section in game.decls.values() for d in section.values()]
    if any(v != "public" for v in zones + variables):
        return True
    return any(isinstance(node, Secretly) for rule in checked.rules for node in walk(rule.tree))


def _has_chance(checked) -> bool:
    """Whether any rule calls a builtin that makes chance nodes (reached or not)."""
    return any(isinstance(node, Call) and node.func in _RANDOM
               for rule in checked.rules for node in walk(rule.tree))


def _utility_bounds(game) -> tuple[float, float]:
    """The declared min and max of the per-player variable the score is, where declared."""
    match = _SCORE_VARIABLE.match(str((game.data.get("scoring") or {}).get("score", "")))
    decl = game.decls["per_player"].get(match.group(1), {}) if match else {}
    low, high = decl.get("min"), decl.get("max")
    return (float(low) if isinstance(low, (int, float)) else -UTILITY_BOUND,
            float(high) if isinstance(high, (int, float)) else UTILITY_BOUND)


def _check_returns(game: RulespecGame, scores: list[float]) -> None:
    low, high = game.bounds
    if any(not low <= s <= high for s in scores):
        raise RulespecError(f"{game.rules_game.file}: scores {scores} outside the utility bounds "
                            f"[{low}, {high}] (pass utility_bounds=, or declare the score's min/max)")
    if game.zero_sum and abs(sum(scores)) > 1e-9:
        raise RulespecError(f"{game.rules_game.file}: scores {scores} do not sum to 0, but every "
                            f"probe game's did, so the game was loaded as zero-sum")


class _Probe:
    """What PROBE_GAMES random games met: chance, the most outcomes of a roll or
    pick, and whether every game's scores summed to 0 (and were not all 0)."""

    def __init__(self):
        self.chance, self.most_other_outcomes = False, 0
        self.zero_sum, self.scored = True, False


def _probe(game, players: int) -> _Probe:
    found = _Probe()
    for seed in range(PROBE_GAMES):
        st, rand = game.new_state(players, seed, chance="explicit"), random.Random(seed)
        while not st.is_terminal():
            if st.is_chance_node():
                found.chance = True
                outcomes = st.chance_outcomes()
                if st.explicit.node.kind != "draw":
                    found.most_other_outcomes = max(found.most_other_outcomes, len(outcomes))
                values, weights = zip(*outcomes)
                st.apply_chance(rand.choices(values, weights)[0])
                continue
            st.apply(rand.randrange(len(st.legal_actions())))
        scores = st.scores()
        found.zero_sum = found.zero_sum and sum(scores) == 0
        found.scored = found.scored or any(scores)
    found.zero_sum = found.zero_sum and found.scored   # all-zero scores prove nothing
    return found


pyspiel.register_game(
    pyspiel.GameType(
        short_name=SHORT_NAME, long_name="rulespec: any spec",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=20, min_num_players=1,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=_PARAMETERS),
    RulespecGame)
