"""A game in progress: plain data plus the API agents and tools use."""
from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import chain
from numbers import Integral
from pathlib import Path

from rulespec.errors import CorruptFile, IllegalAction, RulespecError
from rulespec.limits import SAVE_BYTES
from . import chance, rng, save_checks, visibility
from .flow import EMPTY_OPTIONS, Decision, Frame, Option, Options, run
from .shapes import loads, schema_problem
from .values import _PLAIN, Seat, Zone, _all_plain, decode, decode_values, display, encode, encode_values

SAVE_FORMAT = 1
_new = object.__new__


class State:
    __slots__ = ("game", "n", "seats", "g", "pv", "cv", "zones", "loc", "rng", "stack",
                 "pending", "over", "ended_by", "phase", "decisions", "events",
                 "trace",   # trace: None, or a sink for change records (changes.py)
                 "fired",   # fired: {"action:x" / "trigger:y": times it ran}, for rule coverage; not saved
                 "rig",     # rig: None, or the chance outcomes fixed by a scenario (rig.py); not saved
                 "staged",  # staged: end conditions are not checked (a scenario sets a position up); not saved
                 "ask_forced",  # True: a decision with one option is asked too (new_state's forced="ask")
                 "skipped",     # the last turn passed for want of a legal action, for messages; not saved
                 "explicit")    # None, or chance.Explicit: random events are chance nodes

    # ------------------------------------------------------------- creation
    @classmethod
    def new(cls, game, players: int, seed: int, record: bool = False, trace=None,
            rigged=None, ask_forced: bool = False, explicit_chance: bool = False) -> "State":
        st = cls.__new__(cls)
        st.game, st.n = game, players
        st.seats = [Seat(i) for i in range(players)]
        st.g = {k: d["start"] for k, d in game.decls["globals"].items()}
        st.pv = {k: [d["start"]] * players for k, d in game.decls["per_player"].items()}
        st.cv = {k: starts.copy() for k, starts in game.card_starts.items()}
        zones, loc = _starting_zones(game, players)
        st.zones = {z: list(cards) for z, cards in zones.items()}
        st.loc = dict(loc)
        st.rng = rng.seed_state(seed)
        st.stack = [Frame("flow", {})]
        st.pending, st.over, st.ended_by, st.phase = None, False, None, None
        st.decisions, st.events = 0, [] if record else None
        st.trace = trace
        st.fired = {}
        st.rig, st.staged = rigged, False
        st.ask_forced, st.skipped = ask_forced, None
        st.explicit = chance.Explicit() if explicit_chance else None
        try:
            run(st)
        except RulespecError as error:
            # a fault in the set-up leaves the caller no state to read the rules that
            # ran from, and simulate's coverage counts a failed game's rules too
            error.fired = dict(st.fired)
            raise
        return st

    def clone(self) -> "State":
        st = State.__new__(State)
        st.game, st.n, st.seats = self.game, self.n, self.seats
        st.g = dict(self.g)
        st.pv = {k: list(v) for k, v in self.pv.items()}
        st.cv = {k: dict(v) for k, v in self.cv.items()}
        st.zones = {k: list(v) for k, v in self.zones.items()}
        st.loc = dict(self.loc)
        st.rng = self.rng
        st.stack = [f.copy() for f in self.stack]
        st.pending, st.over, st.ended_by, st.phase = self.pending, self.over, self.ended_by, self.phase
        st.decisions, st.events = self.decisions, None
        st.trace = None   # a copy explores; only the game being played reports
        st.fired = dict(self.fired)
        st.rig = self.rig.copy() if self.rig else None
        st.staged = self.staged
        st.ask_forced, st.skipped = self.ask_forced, None
        st.explicit = self.explicit.copy() if self.explicit is not None else None
        return st

    def __getstate__(self):
        """What pickle keeps: every slot, but not the trace observer (a callback of this
        process, which clone() drops too). The game pickles as its spec (Game.__reduce__)."""
        slots = {k: getattr(self, k) for k in State.__slots__ if hasattr(self, k)}
        slots["trace"] = None
        return None, slots

    # ----------------------------------------------------------------- play
    def current_player(self):
        """The seat that must decide now, CHANCE (-1) at a chance node, or None once
        the game is over."""
        if self.explicit is not None and self.explicit.node is not None and not self.over:
            return chance.CHANCE
        if self.over or self.pending is None:
            return None
        return self.pending.player

    # ------------------------------------------------------ chance nodes
    def is_chance_node(self) -> bool:
        """True when a random event waits for its outcome (chance="explicit" only)."""
        return self.explicit is not None and self.explicit.node is not None and not self.over

    def chance_outcomes(self) -> list[tuple]:
        """[(outcome, probability)] of the waiting random event, probabilities summing
        to 1: a roll's numbers, a pick's item labels, a draw's card names. [] when no
        chance node waits."""
        if not self.is_chance_node():
            return []
        return list(self.explicit.node.outcomes)

    def apply_chance(self, outcome) -> None:
        """Take one outcome of the waiting random event and run on to the next
        decision or chance node. Raises IllegalAction when no chance node waits or
        `outcome` is not one of its outcomes."""
        if not self.is_chance_node():
            raise IllegalAction("no chance node is waiting")
        node = self.explicit.node
        value = node.outcomes[chance.outcome_index(node, outcome)][0]
        self.explicit.answers.append((node.kind, value))
        self.explicit.node = None
        run(self)

    def legal_actions(self) -> Sequence[Option]:
        """The options of the pending decision, in order: an Options sequence, each
        Option made when read (an agent picking one of them pays for that one);
        empty when none waits (the game is over, or a chance node waits)."""
        decision = self.pending
        if decision is None:    # (a pending decision is never either: test_fixed_cost)
            return EMPTY_OPTIONS
        options = _new(Options)
        options._decision, options._made = decision, None
        return options

    # State.apply(action): take an Option of the pending decision, its label or its
    # index, and run on to the next decision; refuse anything else, saying why
    # (IllegalAction). flow.run itself, given the action: one call per decision.
    apply = run

    def _index_of(self, action) -> int:
        if self.pending is None or self.over:
            raise IllegalAction("the game is over: no action is legal" if self.over
                                else "no decision is pending")
        if isinstance(action, Option):
            if action._decision is self.pending:    # an option of this very decision
                return action.index
            labels = self.pending.labels
            if action.index < len(labels) and labels[action.index] == action.label:
                return action.index
            action = action.label
        labels = self.pending.labels
        if isinstance(action, str) and action in labels:
            return labels.index(action)
        if isinstance(action, Integral) and not isinstance(action, bool) and 0 <= action < len(labels):
            return int(action)      # numpy's integers too: indices read from an action mask
        from .explain import refusal   # says which condition refused it, and where
        raise refusal(self, action)

    def finish(self, reason: str) -> None:
        self.over, self.ended_by = True, reason
        self.pending = None
        self.stack.clear()
        self.record("end", reason=reason)

    def check_end(self):
        """Check every end condition now (as after a rule that may change them all);
        finish on the first that holds. Returns its name, or None."""
        for name, holds in self.game.end_conditions:
            if not self.over and holds(self, {}):
                self.finish(name)
                return name
        return None

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        game = self.game
        if game.score is None:
            return [0] * self.n
        return [game.score(self, {"p": seat}) for seat in self.seats]

    def winner(self) -> list[int]:
        """Seats that win (more than one on a full tie); empty when nobody may win."""
        game = self.game
        eligible = [s for s in self.seats if game.eligible is None or game.eligible(self, {"p": s})]
        if not eligible:
            return []
        scores = self.scores()

        def rank(seat):
            return (scores[seat],) + tuple(tb(self, {"p": seat}) for tb in game.tiebreaks)
        best = max(rank(s) for s in eligible)
        return [int(s) for s in eligible if rank(s) == best]

    def round(self):
        return self.g.get("round")

    def check_invariants(self) -> list[str]:
        """Names of the spec's invariants that do not hold now."""
        return [name for name, holds in self.game.invariants if not holds(self, {})]

    # ------------------------------------------------------ chance and logs
    def chance(self, kind, *details):
        if self.events is not None:
            self.events.append({"chance": kind, "details": [encode(d) for d in details]})

    def note(self, message: str):
        if self.events is not None:
            self.events.append({"note": message})

    def record(self, kind, **fields):
        if self.events is not None:
            self.events.append({kind: fields})

    # ----------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict:
        """What `seat` may see (None: a spectator); interpreter/engine/visibility.py
        decides, and says the shape."""
        return visibility.view(self, seat)

    def _sees(self, zone: Zone, seat) -> bool:
        return visibility.sees_zone(self.game, zone, seat)

    def describe(self, seat=None) -> str:
        """A short readable summary for terminals."""
        view = self.view(seat)
        lines = [f"{self.game.name} — phase {self.phase or '-'}"]
        for k, v in view["globals"].items():
            lines.append(f"  {k}: {display(decode(v), self.game.player_names)}")
        for s in range(self.n):
            parts = [f"{k}={display(decode(v[s]))}" for k, v in view["players_vars"].items()]
            lines.append(f"  {self.game.seat_name(s)}: " + ", ".join(parts))
        for zone, cards in view["zones"].items():
            shown = _hidden_text(self.game, cards) if isinstance(cards, dict) else ", ".join(cards) or "-"
            lines.append(f"  [{zone}] {shown}")
        starts = {k: d["start"] for k, d in self.game.decls["per_card"].items()}
        for card, values in view["cards"].items():   # only what differs from the start
            parts = [f"{k}={display(decode(v), self.game.player_names)}" for k, v in values.items()
                     if decode(v) != starts[k]]
            if parts:
                lines.append(f"  {card}: " + ", ".join(parts))
        return "\n".join(lines)

    # ------------------------------------------------------------ save/load
    def to_json(self, spec: bool = True) -> str:
        """The state as save text; spec=False leaves out which spec text and content
        it was made with (a log's state digests: the game's state alone). Values of
        a plain type (_PLAIN: numbers, text, true/false, none) are written as they
        are, as encode would, without a call per value (a spec may have hundreds of
        per-card ones); tests/engine/test_quick_save.py compares the text with the
        plain walk's (values.slow_encode)."""
        names = {"spec": self.game.spec_hash, "spec_id": self.game.spec_id} if spec else {}
        # forced="ask" is written only when on, so every other save (and the state
        # digests in logs) stays as it was
        extra = {"ask_forced": True} if self.ask_forced else {}
        if self.explicit is not None:   # explicit chance: written only then, as ask_forced
            extra["chance"] = save_checks.explicit_data(self.explicit)
        return _SAVE_TEXT.encode({
            "format": SAVE_FORMAT, "game": self.game.name, **names,
            "variant": self.game.variant, "players": self.n,
            "globals": {k: v if type(v) in _PLAIN else encode(v) for k, v in self.g.items()},
            "per_player": {k: [x if type(x) in _PLAIN else encode(x) for x in v] for k, v in self.pv.items()},
            # a map of plain values is written as it is (the encoder only reads it)
            "per_card": {k: v if _all_plain(map(type, v.values())) else encode_values(v)
                         for k, v in self.cv.items()},
            "zones": self.zones, "rng": str(self.rng), "rng_version": rng.VERSION,
            "stack": [f.to_data() for f in self.stack],
            "pending": self.pending.to_data() if self.pending else None,
            "over": self.over, "ended_by": self.ended_by, "phase": self.phase,
            "decisions": self.decisions, **extra,
        })

    @classmethod
    def from_json(cls, game, text: str, name: str = "<save>") -> "State":
        """A state saved by to_json. Raises CorruptFile for text that is not a save of
        this game and spec (save.schema.json, then the game's declarations, then the
        rules: the pending decision must be the one they make there), placed at
        `name` (the save's file), never at the spec."""
        try:
            return cls._from_text(game, text)
        except CorruptFile as e:
            message = e.message
            if message.startswith("unexpected object"):    # values.decode's words
                message = "corrupt save file: " + message
            raise CorruptFile(message, file=e.file or name, line=e.line, col=e.col, path=e.path) from None

    @classmethod
    def _from_text(cls, game, text: str) -> "State":
        if len(text) > SAVE_BYTES:
            raise CorruptFile(f"corrupt save file: larger than {SAVE_BYTES // 2**20} MB")
        try:
            d = loads(text)
        except ValueError as e:
            raise CorruptFile(f"corrupt save file: not JSON ({_short(e)})") from None
        problem = None if _surely_fits(d) else schema_problem(SAVE_SCHEMA, d)
        if problem:
            raise CorruptFile(f"corrupt save file: {problem}")
        try:
            return cls._from_data(game, d)
        except CorruptFile:
            raise
        except (RulespecError, LookupError, TypeError, ValueError, RecursionError) as e:
            raise CorruptFile(f"corrupt save file: {type(e).__name__}: {_short(e)}") from None

    @classmethod
    def _from_data(cls, game, d) -> "State":
        if d["game"] != game.name:
            raise CorruptFile("corrupt save file: not a save of this game")
        if d.get("variant") != game.variant:
            raise CorruptFile(f"this save is of variant {d.get('variant')!r}, not {game.variant!r}")
        if d.get("spec") != game.spec_hash and d.get("spec_id") != game.spec_id:
            raise CorruptFile("the rules changed since this save was made (comments and layout "
                              "do not count); its game's log shows what the change does: "
                              "rulespec replay LOG --against SPEC")
        if not game.min_players <= d["players"] <= game.max_players:
            raise CorruptFile(f"corrupt save file: {d['players']} players, but {game.name} is for "
                              f"{game.min_players} to {game.max_players}")
        st = cls.__new__(cls)
        st.game, st.n = game, d["players"]
        st.seats = [Seat(i) for i in range(st.n)]
        _same_keys(d["globals"], game.decls["globals"], "globals")
        _same_keys(d["per_player"], game.decls["per_player"], "per_player")
        _same_keys(d["per_card"], game.decls["per_card"], "per_card")
        if any(len(v) != st.n for v in d["per_player"].values()):
            raise CorruptFile("corrupt save file: a per_player list's length is not the number of players")
        # d was parsed for this state alone: its lists and maps of plain values are
        # kept as they are, not copied
        st.g = {k: v if type(v) in _PLAIN else decode(v) for k, v in d["globals"].items()}
        st.pv = {k: v if _all_plain(map(type, v)) else [x if type(x) in _PLAIN else decode(x) for x in v]
                 for k, v in d["per_player"].items()}
        st.cv = {k: v if _all_plain(map(type, v.values())) else decode_values(v)
                 for k, v in d["per_card"].items()}
        # the zones a game of n seats has: its starting zones' names (made once per n)
        _same_keys(d["zones"], _starting_zones(game, st.n)[0], "zones")
        st.zones = {Zone(k): v for k, v in d["zones"].items()}
        st.loc = {c: z for z, cards in st.zones.items() for c in cards}
        if st.loc.keys() != game.cards.keys() or sum(map(len, st.zones.values())) != len(game.cards):
            raise CorruptFile("corrupt save file: the cards do not add up")
        if d.get("rng_version", 1) not in rng.SAME_STEPS:
            raise CorruptFile(f"this save was {rng.version_problem(d.get('rng_version'))}")
        st.rng = int(d["rng"])
        if st.rng > rng.MASK:   # (a step takes it modulo 2**64: another save's stream, edited)
            raise CorruptFile(f"corrupt save file: `rng`: the random generator's state is a 64-bit "
                              f"number, at most {rng.MASK}")
        st.stack = [Frame.from_data(f) for f in d["stack"]]
        st.pending = Decision.from_data(d["pending"]) if d["pending"] else None
        st.over, st.ended_by, st.phase = d["over"], d["ended_by"], d["phase"]
        if not st.over and st.ended_by is not None:
            raise CorruptFile("corrupt save file: `ended_by`: a game not over has ended by nothing")
        st.decisions, st.events = d["decisions"], None
        st.trace = None
        st.fired = {}
        st.rig, st.staged = None, False
        st.ask_forced, st.skipped = bool(d.get("ask_forced", False)), None
        st.explicit = None
        save_checks.check_values(st, game)
        save_checks.check_places(st, game, st.phase)
        _check_flow(st, game, "chance" in d)
        if "chance" in d:   # a game of explicit chance: its book-keeping, checked by replay
            save_checks.restore_explicit(st, game, d["chance"])
        if st.pending is not None:   # the rules make it again: an edited one is refused
            save_checks.rederive_pending(st, d["pending"])
        return st


SAVE_SCHEMA = str(Path(__file__).with_name("save.schema.json"))
# check_circular=False: what to_json writes is built afresh by encode, and rule values
# cannot hold themselves (no builtin changes a list in place); it saves ~15% of dumps
_SAVE_TEXT = json.JSONEncoder(separators=(",", ":"), check_circular=False)


_REQUIRED = frozenset(json.loads(Path(SAVE_SCHEMA).read_text(encoding="utf-8"))["required"])
_KNOWN = _REQUIRED | {"spec", "spec_id", "ask_forced", "rng_version", "chance"}
_DECISION = frozenset({"player", "labels", "values", "kind", "secret"})
_DECISION_KNOWN = _DECISION | {"where"}
_all_lists = frozenset({list}).issuperset
_all_maps = frozenset({dict}).issuperset
_all_text = frozenset({str}).issuperset
_TEXT_OR_NONE = frozenset({str, type(None)})
_WHERE_ITEMS = frozenset({str, int, type(None)}).issuperset


def _surely_fits(d) -> bool:
    """True when parsed save data certainly fits save.schema.json, checked a part at
    a time in C (a quarter to a tenth of the compiled check's time); False
    leaves the verdict, and its words, to schema_problem. It accepts only what the
    schema accepts (exact types: an integer written 1.0 goes to the full check);
    tests/engine/test_fast_schema_check.py holds it to that."""
    if d.__class__ is not dict or not _REQUIRED <= d.keys() <= _KNOWN:
        return False
    players, rng_text, decisions, stack = d["players"], d["rng"], d["decisions"], d["stack"]
    return (d["format"].__class__ is int and d["format"] == 1 and d["game"].__class__ is str
            and d["variant"].__class__ in _TEXT_OR_NONE and players.__class__ is int
            and 1 <= players <= 1000 and d["globals"].__class__ is dict
            and d["per_player"].__class__ is dict and _all_lists(map(type, d["per_player"].values()))
            and d["per_card"].__class__ is dict and _all_maps(map(type, d["per_card"].values()))
            and _zones_fit(d["zones"])
            and rng_text.__class__ is str and 0 < len(rng_text) <= 20 and rng_text.isascii()
            and rng_text.isdigit() and stack.__class__ is list and all(map(_frame_fits, stack))
            and (d["pending"] is None or _decision_fits(d["pending"]))
            and d["over"].__class__ is bool and d["ended_by"].__class__ in _TEXT_OR_NONE
            and d["phase"].__class__ in _TEXT_OR_NONE and decisions.__class__ is int
            and decisions >= 0 and d.get("spec", "").__class__ is str
            and d.get("spec_id", "").__class__ is str and d.get("ask_forced", False).__class__ is bool
            and d.get("rng_version", 0).__class__ is int and "chance" not in d)


def _zones_fit(zones) -> bool:
    if zones.__class__ is not dict or not _all_lists(map(type, zones.values())):
        return False
    try:        # every card a text: join refuses anything else, in C (a save has hundreds)
        "".join(chain.from_iterable(zones.values()))
    except TypeError:
        return False
    return True


def _frame_fits(frame) -> bool:
    return (frame.__class__ is list and len(frame) == 4 and frame[0].__class__ is str
            and frame[1].__class__ is int and frame[1] >= 0 and frame[2].__class__ is bool
            and frame[3].__class__ is dict)


def _decision_fits(pending) -> bool:
    if pending.__class__ is not dict or not _DECISION <= pending.keys() <= _DECISION_KNOWN:
        return False
    player, labels, values, where = pending["player"], pending["labels"], pending["values"], pending.get("where")
    return (player.__class__ is int and player >= 0 and labels.__class__ is list and len(labels) >= 2
            and _all_text(map(type, labels)) and values.__class__ is list and len(values) >= 2
            and pending["kind"].__class__ is str and pending["secret"].__class__ is bool
            and (where is None or where.__class__ is list and _WHERE_ITEMS(map(type, where))))


def _hidden_text(game, shown: dict) -> str:
    """A zone the seat cannot see, from its view: "6 hidden (5 action_card, 1 goal_card)";
    the kinds only in a game of several card kinds, where they say more than the count."""
    text = f"{shown['count']} hidden"
    if len(game.data.get("cards") or {}) < 2 or not shown["kinds"]:
        return text
    return text + " (" + ", ".join(f"{n} {kind}" for kind, n in shown["kinds"].items()) + ")"


def _short(e) -> str:
    text = str(e)
    return text if len(text) <= 200 else text[:200] + "..."


def _same_keys(saved: dict, declared: dict, section: str) -> None:
    if saved.keys() != declared.keys():     # compared as sets, none built
        odd = sorted(set(saved) ^ set(declared))[:3]
        raise CorruptFile(f"corrupt save file: {section} does not match the spec ({', '.join(odd)})")


def _check_flow(st, game, explicit: bool = False) -> None:
    """A save stands at a decision (a frame to resume, a pending choice of a real
    seat), at a chance node (`explicit`: a game of explicit chance; nothing
    pending) or is over (no frames, nothing pending); its frames are a stack the
    engine could have saved (save_checks.check_stack)."""
    if st.over:
        if st.stack or st.pending is not None:
            raise CorruptFile("corrupt save file: a game that is over has rules still running")
        return
    if not st.stack or (st.pending is None and not explicit):
        raise CorruptFile("corrupt save file: a game not over must stand at a decision")
    save_checks.check_stack(st, game, explicit)
    pending = st.pending
    if pending is not None and (pending.player >= st.n or len(pending.labels) != len(pending.values)):
        raise CorruptFile("corrupt save file: the pending decision names no seat of this game "
                          "or its labels and values differ in number")


def _starting_zones(game, players: int) -> tuple[dict, dict]:
    """({zone: [cards]}, {card: zone}) before set-up, for `players` seats: made once
    per game and player count (Zone values are made per zone, not per card), copied
    by every new state. Never changed: a state copies before it moves a card."""
    made = game.starting_zones.get(players)
    if made is None:
        zones = {Zone(z): [] for z in game.zone_decls}
        for z in game.player_zone_decls:
            for seat in range(players):
                zones[Zone(f"{z}@{seat}")] = []
        loc = {}
        named = {z: z for z in zones}     # one Zone value per zone, shared by its cards
        for card, zone in game.card_start.items():
            zone = named.get(zone) or Zone(zone)
            zones[zone].append(card)
            loc[card] = zone
        made = game.starting_zones[players] = (zones, loc)
    return made
