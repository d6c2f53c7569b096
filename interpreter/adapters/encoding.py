"""Fixed action ids and compact observations for any spec, for learning frameworks.

ActionVocabulary: every legal option of every decision of a spec (for one player
count) gets one integer id, the same in every state and every game:

    vocab = ActionVocabulary(game, players=3)
    vocab.size                    # ids are 0 .. size-1
    vocab.names[i]                # a readable name per id: "action buy card:coin#2"
    vocab.ids(state)              # ids of state.legal_actions(), in the engine's order
    vocab.mask(state)             # numpy bool array (size,): True where an id is legal now
    vocab.id_of(state, option)    # an Option, its label, or its index -> id
    vocab.option_for(state, i)    # id -> the Option to pass to state.apply
    vocab.key_of(i)               # the id's key (a tuple), see "Keys" below

Keys. An option is named by what it does, not by its position:
- a turn's action: ("action", NAME) for an action without `for`, ("action", NAME,
  VALUE) for one bound by `for x in ...`; "done" of a `turn ... until done` is ("done",).
- a menu option (`choose by p as "...": option "Yes": ...`): ("menu", FILE, LINE, LABEL),
  its site and its written label (two menus asking yes/no are told apart).
- any other choice (choose one / several / number, a bid): ("pick", VALUE), the value
  chosen, whatever the question: picking card coin#2 is one id everywhere.
VALUE is a canonical form of a runtime value: ("seat", i), ("card", ID),
("zone", "hand@1"), ("word", TEXT), ("n", INT), ("bool", b), ("none",), and for a
list ("list", VALUE, ...). A card is named by its id (`coin#2`), not its name, so
an id is never shared by two options of one decision.

How the ids are built (deterministic: they depend only on the spec, variant,
player count and probe_games, byte for byte):
1. Named keys, read from the compiled game, nothing guessed: the atoms a value may
   be — every seat of this player count, every card, every zone, every word (the
   spec's symbols, card names, board nodes, declared string values, every string literal in its
   rules), true and false, and every integer from the smallest to the largest the
   spec writes (at least 0..NUMBERS); each action without `for` once, each action
   with `for` once per atom; each menu option of each menu; each atom as a pick.
2. Shapes, for values the rules compute during play and the spec cannot name
   statically: lists (a [piece, cell] pair) and text built by `+` ("influence X
   at Y for 2", a coordinate "4,-2"). Such a value
   is read as a row of tokens: each item of a list, each piece of a text (split at
   spaces and commas: a card id, a whole number, or a word). Its key is ("shape",
   HEAD, TOKEN, ...), HEAD ("action", NAME) or ("pick",). Seeded random games
   (uniform options, seeds 0..probe_games-1) find, per head and length, the tokens
   met at each position; each is widened — a card to every card of its section of
   `cards:`, a seat to every seat, a named number to the named range, a number
   piece to the range met at any number position of its shape (mirrored about 0
   when one was negative); a word stays as met — and the keys
   are every combination. So a computed option has one id whatever else is
   offered beside it, the same in every state and game.
Ids: named keys in sorted order, then shapes in sorted order.

An option with no id (a shape or a word the probe games never met) raises
UnnamedOption naming the spec construct (FILE:LINE of the decision, its kind and
the option's label); build with more probe_games.
Two options of one decision with the same key (a `choose one of` over a list that
holds a value twice) share one id: `option_for` gives the first.
"""
from __future__ import annotations

import dataclasses
import itertools
import random
import re
from functools import cached_property

import numpy as np

from rulespec import ast
from rulespec.errors import RulespecError
from ..engine import visibility
from ..engine.flow import Option
from ..engine.values import Seat, Zone

NUMBERS = 100       # integers 0..NUMBERS are always named (counts, bids, coins)
PROBE_GAMES = 60    # seeded random games that find the shapes of computed options
PIECES = re.compile(r"[^\s,]+|,")   # a computed text's pieces: words, numbers, commas
SEPARATED = re.compile(r"[\s,]")
PROBE_DECISIONS = 5_000   # a probe game stops after this many decisions


def as_action_id(action) -> int:
    """`action` as a vocabulary id: an int or a numpy integer (what an action mask's
    sample gives). Raises ValueError naming the value and its type for anything else:
    int() would read 1.5 as id 1, "3" as id 3 and True as id 1, each a legal move
    nobody chose."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    raise ValueError(f"an action is an integer id, not {action!r} ({type(action).__name__})")


class UnnamedOption(RulespecError):
    """A legal option the action vocabulary has no id for."""


class ActionVocabulary:
    """The fixed action ids of one spec for one player count (see the module doc).

    game: a compiled Game (engine.game.load_game); players: the player count.
    Raises RulespecError when `players` is outside the spec's range."""

    def __init__(self, game, players: int, probe_games: int = PROBE_GAMES):
        if not game.min_players <= players <= game.max_players:
            raise RulespecError(f"{game.file}: {game.name} is for {game.min_players}-"
                                f"{game.max_players} players, not {players}")
        self.game, self.players = game, players
        self.menus = _menu_sites(game)          # (file, line) -> written labels
        self.atoms = set(_atoms(game, players))
        named = set(self._named_keys())
        self.sections: dict = {}
        for card, attrs in game.cards.items():
            self.sections.setdefault(attrs.get("kind"), []).append(card)
        shapes = set(self._shape_keys(probe_games)) - named
        self.keys: list[tuple] = sorted(named, key=repr) + sorted(shapes, key=repr)
        self.named_size = len(named)
        self._id = {key: i for i, key in enumerate(self.keys)}
        self.size = len(self.keys)

    # ------------------------------------------------------------ the public API
    @cached_property
    def names(self) -> list[str]:
        """A readable name per id, e.g. "action buy card:coin#2", "menu market.yaml:12 Bet"."""
        return [_name(key) for key in self.keys]

    def key_of(self, action_id: int) -> tuple:
        return self.keys[action_id]

    def ids(self, state) -> list[int]:
        """The id of each of state.legal_actions(), in the same order. Raises
        UnnamedOption for an option the vocabulary cannot name."""
        decision = state.pending
        if not state.legal_actions():
            return []
        return [self._lookup(state, i) for i in range(len(decision.values))]

    def id_of(self, state, option) -> int:
        """The id of one legal option: an Option, its label, or its index."""
        return self._lookup(state, state._index_of(option))

    def mask(self, state) -> np.ndarray:
        """bool array of shape (size,): True at the id of each legal option now
        (all False at a chance node, at the end, or when nothing is pending)."""
        out = np.zeros(self.size, dtype=bool)
        out[self.ids(state)] = True
        return out

    def option_for(self, state, action_id: int) -> Option:
        """The legal Option with this id. ValueError when it is not legal now, or
        not an id at all (action_id)."""
        action_id = as_action_id(action_id)
        for index, found in enumerate(self.ids(state)):
            if found == action_id:
                return state.legal_actions()[index]
        name = self.names[action_id] if 0 <= action_id < self.size else "no such id"
        raise ValueError(f"action {action_id} ({name}) is not legal now")

    # ------------------------------------------------------------ keys
    def key(self, state, index: int) -> tuple:
        """The key of option `index` of the pending decision (see the module doc)."""
        d = state.pending
        value = d.values[index]
        if d.kind == "menu":
            file, line = d.where
            return ("menu", file, line, self.menus[(file, line)][value])
        named = self._named(state.game, d.kind, value)
        if named is not None:
            return named
        return self._shape(state.game, d.kind, value)

    def _named(self, game, kind, value) -> tuple | None:
        """A value's named key, or None when it is not made of one atom."""
        if kind == "action":
            if value == "done":
                return ("done",)
            name, bound = value
            if bound is None:
                return ("action", name)
            atom = canonical(game, bound)
            return ("action", name, atom) if atom in self.atoms else None
        atom = canonical(game, value)
        return ("pick", atom) if atom in self.atoms else None

    def _lookup(self, state, index: int) -> int:
        key = self.key(state, index)
        found = self._id.get(key)
        if found is None:
            d = state.pending
            file, line = d.where or (self.game.file, 0)
            raise UnnamedOption(
                f"the action vocabulary of {self.game.name} ({self.players} players) "
                f"has no id for the {d.kind} option {d.labels[index]!r} ({_name(key)}): a value the "
                f"rules compute during play, of a shape or with a word its {PROBE_GAMES} probe "
                f"games never met; build the vocabulary with more probe_games", file=file, line=line)
        return found

    def _named_keys(self):
        atoms = sorted(self.atoms, key=repr)
        yield ("done",)
        for name, action in self.game.actions.items():
            if action.var is None:
                yield ("action", name)
            else:
                yield from (("action", name, atom) for atom in atoms)
        for (file, line), labels in self.menus.items():
            yield from (("menu", file, line, label) for label in labels)
        yield from (("pick", atom) for atom in atoms)

    def _shape(self, game, kind, value) -> tuple:
        """The shape key of a computed value (module doc, step 2)."""
        if kind == "action":
            name, bound = value
            return ("shape", "action", name) + self._tokens(game, bound)
        return ("shape", "pick") + self._tokens(game, value)

    def _tokens(self, game, value) -> tuple:
        if isinstance(value, (list, tuple)):
            return tuple(t for v in value for t in self._tokens(game, v))
        atom = canonical(game, value)
        if atom[0] != "word" or (atom in self.atoms and not SEPARATED.search(value)):
            return (atom,)
        # A text with spaces or commas is always read as pieces, even when the spec
        # also writes it ("1,2" is a node of a declared board): else "1,2" and "6,2"
        # of one computed list take different shapes and "1,-4" fits neither.
        return tuple(_piece(game, p) for p in PIECES.findall(value))

    def _shape_keys(self, probe_games: int):
        """Every combination of the widened tokens met at each position of each
        shape in seeded uniformly random games (module doc, step 2)."""
        seen: dict[tuple, list[set]] = {}
        for seed in range(probe_games):
            st, rand = self.game.new_state(self.players, seed), random.Random(seed)
            while not st.is_terminal() and st.decisions < PROBE_DECISIONS:
                d = st.pending
                for value in d.values if d.kind != "menu" else ():
                    if self._named(st.game, d.kind, value) is None:
                        key = self._shape(st.game, d.kind, value)
                        head = key[:3] if key[1] == "action" else key[:2]
                        slots = seen.setdefault((head, len(key)), [set() for _ in key[len(head):]])
                        for slot, token in zip(slots, key[len(head):]):
                            slot.add(token)
                st.apply(rand.randrange(len(d.values)))
        for (head, _), slots in seen.items():
            span = _number_span(slots)
            yield from (head + combo for combo in
                        itertools.product(*(self._widen(slot, span) for slot in slots)))

    def _widen(self, tokens: set, span: range) -> list:
        """A position's tokens, each widened to its class (module doc, step 2)."""
        out = set()
        if any(t[:2] == ("piece", "n") for t in tokens):
            out.update(("piece", "n", k) for k in span)
        for token in tokens:
            if token[0] == "card":
                out.update(("card", c) for c in self.sections[self.game.cards[token[1]].get("kind")])
            elif token[0] == "seat":
                out.update(("seat", s) for s in range(self.players))
            elif token[0] == "n" and token in self.atoms:
                out.update(a for a in self.atoms if a[0] == "n")
            else:
                out.add(token)
        return sorted(out, key=repr)


def _number_span(slots: list[set]) -> range:
    """The numbers every number piece of one shape may take: the range met at any of
    its positions, and when one was negative, mirrored about 0. Probe games meet the
    middle of a range more often than its edges (a coordinate "5,-4" of a board
    turned and offset), and one shape's numbers are alike (both axes of a coordinate),
    so a position is widened to the whole shape's range, not its own."""
    met = [t[2] for slot in slots for t in slot if t[:2] == ("piece", "n")]
    if not met:
        return range(0)
    if min(met) < 0:
        reach = max(abs(n) for n in met)
        return range(-reach, reach + 1)
    return range(min(met), max(met) + 1)


def _piece(game, piece: str) -> tuple:
    """A piece of a computed text: a card, a whole number, or a word kept as met."""
    if piece in game.cards:
        return ("card", piece)
    if piece.lstrip("-").isdigit():
        return ("piece", "n", int(piece))
    return ("piece", "w", piece)


def canonical(game, value) -> tuple:
    """A runtime value as a vocabulary key part (the module doc's VALUE)."""
    if isinstance(value, Seat):
        return ("seat", int(value))
    if isinstance(value, Zone):
        return ("zone", str(value))
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("n", value)
    if value is None:
        return ("none",)
    if isinstance(value, str):
        return ("card", value) if value in game.cards else ("word", value)
    if isinstance(value, (list, tuple)):
        return ("list", *(canonical(game, v) for v in value))
    if isinstance(value, dict):
        return ("map", *sorted(((canonical(game, k), canonical(game, v)) for k, v in value.items()),
                               key=repr))
    return ("other", repr(value))


def _name(key: tuple) -> str:
    kind, *rest = key
    if kind == "menu":
        file, line, what = rest
        return f"{kind} {file.rsplit('/', 1)[-1]}:{line} {what}"
    if kind == "shape":   # a computed text's pieces read as the text: "4,-2"
        words = [str(p[2]) if p[0] == "piece" else _part(p) for p in rest[1:]]
        return " ".join([rest[0]] + words).replace(" , ", ",")
    return " ".join([kind] + [_part(p) for p in rest])


def _part(part) -> str:
    if isinstance(part, tuple):
        if part[0] == "list":
            return "[" + ", ".join(_part(p) for p in part[1:]) + "]"
        return ":".join(str(p) for p in part) if len(part) > 1 else part[0]
    return str(part)


def _atoms(game, players: int):
    """Every value a choice may take that the spec names statically (module doc, step 1)."""
    yield from (("seat", s) for s in range(players))
    yield from (("card", c) for c in game.cards)
    yield from (("zone", str(z)) for z in game.new_state(players, 0).zones)
    low, high, words = 0, NUMBERS, _words(game)
    for number in _numbers(game):
        low, high = min(low, number), max(high, number)
    yield from (("n", n) for n in range(low, high + 1))
    yield from (("word", w) for w in sorted(words - set(game.cards)))
    yield from (("bool", b) for b in (False, True))


def _words(game) -> set[str]:
    words = {str(s) for s in game.data.get("symbols") or []} | {"done", "pass"} | set(game.cards_by_name)
    for board in game.boards.values():
        words.update(str(node) for node in getattr(board, "graph", {}) or [])
    for section in game.decls.values():
        for decl in section.values():
            for value in [decl.get("start")] + list(decl.get("one_of") or []):
                if isinstance(value, str):
                    words.add(value)
    for node in _rule_nodes(game):
        if isinstance(node, ast.String):
            words.add(node.value)
    return words


def _numbers(game):
    """Integers the spec writes: in its rules (capped at the size limit) and its declarations."""
    cap = game.bounds.size
    for node in _rule_nodes(game):
        if isinstance(node, ast.Number) and isinstance(node.value, int) and abs(node.value) <= cap:
            yield node.value
    for section in game.decls.values():
        for decl in section.values():
            if type(decl.get("start")) is int and abs(decl["start"]) <= cap:
                yield decl["start"]


def _rule_nodes(game):
    """Every AST node of every compiled rule (each instruction's statement, walked)."""
    seen = set()
    todo = [getattr(instr, "node", None) for program in game.programs.values() for instr in program.code]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        if isinstance(node, list):
            todo.extend(node)
            continue
        if not isinstance(node, ast.Node):
            continue
        seen.add(id(node))
        yield node
        todo.extend(getattr(node, f.name) for f in dataclasses.fields(node))


def _menu_sites(game) -> dict[tuple, list[str]]:
    """(file, line) of each compiled menu -> its option labels as written."""
    sites = {}
    for program in game.programs.values():
        for instr, where in zip(program.code, program.lines):
            node = getattr(instr, "node", None)
            if isinstance(node, ast.Menu):
                sites[tuple(where)] = [o.label for o in node.options]
    return sites


# ====================================================================== observations
OBSERVATION_GAMES = 8   # seeded random games that find the zone and card features that vary
OBSERVE_EVERY = 3       # ... observed every third decision and at the end (views cost time)
BOUND = 1e6             # every feature is clipped to [-BOUND, BOUND]


class ObservationLayout:
    """A seat's observation as a float32 vector, built from `state.view(seat)` only.

    game: a compiled Game; players: the player count. `encode(view, seat)` gives an
    array of shape (size,); `describe()` says what each offset holds. The full
    layout, in this order (seats are rotated so the observer comes first: "+0" is
    the observer, "+1" the next seat, ...):
      to_move (1 if the observer decides now), phase (index+1 of the phase),
      each global, each per-player value per seat, each zone's card count, then
      its count of each card kind (a `cards:` section, in the spec's order: what
      the view gives of a zone the observer cannot see, a card's back), then its
      count of each card name, each per-card value of each card.
    Values as numbers: a number itself, true/false 1/0, none 0, a word its index+1
    in the spec's words (-2 for text the spec never writes), a player its seat+1,
    a list or map its length, anything the seat cannot see -1.
    What is kept (the rest never changes, so it is dropped):
    - a global, per-player or per-card feature: when some rule of the spec may
      write that variable (rulespec.effects; a rule whose writes cannot be told
      keeps them all) — read from the spec, so it holds in every game;
    - to_move, phase, and each zone, kind and card-name count: when it differed between
      two observations in OBSERVATION_GAMES seeded random games (seeds 0.., every
      seat's observation before every OBSERVE_EVERY-th decision and at the end); a
      card-name count widened to its class: a zone (as the observer reads it:
      hand@+1 is the next seat's hand) keeps its count of every card name of each
      `cards:` section one of whose names varied there. A zone never seen to change
      (a board's fixed spaces) and a section never seen in a zone are dropped.
    """

    def __init__(self, game, players: int, probe_games: int = OBSERVATION_GAMES):
        self.game, self.n = game, players
        self.globals = list(game.decls["globals"])
        self.per_player = list(game.decls["per_player"])
        self.zones = list(game.new_state(players, 0).zones)   # this player count's zones, fixed order
        self.card_names = sorted(game.cards_by_name)
        self.kinds = list(game.data.get("cards") or {})   # `cards:` sections, the spec's order
        self.name_of = {card: attrs.get("name", card.split("#")[0]) for card, attrs in game.cards.items()}
        self.words = {word: i + 1 for i, word in enumerate(sorted(_words(game)))}
        self.phases = {name: i + 1 for i, name in enumerate(game.data.get("phases") or {})}
        self.per_card = list(game.decls["per_card"])
        self.cards = list(game.cards)
        self.features = list(self._features())     # (name, meaning, source) of the full layout
        self.full_size = len(self.features)
        keep = self._written() | self._widened(self._varying(probe_games))
        self.index = np.array(sorted(keep), dtype=np.intp)
        self.size = len(self.index)

    # ------------------------------------------------------------ the public API
    def encode(self, view: dict, seat: int) -> np.ndarray:
        """float32 array of shape (size,) for `seat`, from its view (State.view(seat))."""
        return self.encode_full(view, seat)[self.index]

    def describe(self) -> list[tuple[int, int, str, str]]:
        """(offset, length, name, meaning) of each part of the vector, in order."""
        return [(offset, 1, self.features[i][0], self.features[i][1])
                for offset, i in enumerate(self.index)]

    def encode_full(self, view: dict, seat: int) -> np.ndarray:
        """The full layout (full_size,), constant features included."""
        out = np.zeros(self.full_size, np.float32)
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
            kinds = visibility.kind_counts(self.game, cards) if visible else cards["kinds"]
            for kind, count in kinds.items():
                out[i + 1 + self._kind_index[kind]] = count
            i += 1 + len(self.kinds)
            if visible:
                for card in cards:
                    out[i + self._name_index[self.name_of[card]]] += 1
            i += len(self.card_names)
        shown = view.get("cards", {})
        for card in self.cards:
            values = shown.get(card, {})
            for name in self.per_card:
                out[i] = self.number(values.get(name, "?"))
                i += 1
        return np.clip(out, -BOUND, BOUND)

    def number(self, value) -> float:
        """One encoded view value as a number (see the class doc)."""
        if value == "?":
            return -1.0
        if isinstance(value, (bool, int, float)):
            return float(value)
        if value is None:
            return 0.0
        if isinstance(value, str):
            return float(self.words.get(value, -2))
        if isinstance(value, dict) and "$seat" in value:
            return float(value["$seat"] + 1)
        if isinstance(value, dict):   # an encoded map or zone
            inner = value.get("$map", value.get("$dict", value))
            return float(len(inner))
        if isinstance(value, list):
            return float(len(value))
        return 0.0

    # ------------------------------------------------------------ the layout
    @cached_property
    def _name_index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.card_names)}

    @cached_property
    def _kind_index(self) -> dict[str, int]:
        return {kind: i for i, kind in enumerate(self.kinds)}

    def _features(self):
        """(name, meaning, source) per offset of the full layout; source says which
        keep rule applies: ("var", section, name), ("zone", zone as the observer reads
        it, card name), ("kind", that zone, kind) or ("seen",)."""
        yield "to_move", "1 when the observer decides now, else 0", ("seen",)
        yield "phase", "the current phase: its index+1 in the spec's phases, 0 before any", ("seen",)
        for name in self.globals:
            yield f"global {name}", f"global `{name}` (-1 when hidden)", ("var", "g", name)
        for name in self.per_player:
            for k in range(self.n):
                whose = "the observer" if k == 0 else f"the seat {k} after the observer"
                yield f"player+{k} {name}", f"`{name}` of {whose} (-1 when hidden)", ("var", "pv", name)
        for zone in self.zones:
            where = zone.base if zone.seat is None else f"{zone.base}@+{zone.seat}"
            yield f"zone {where} count", f"how many cards are in {where}", ("seen",)
            for kind in self.kinds:
                yield (f"zone {where} kind {kind}", f"how many {kind} cards are in {where} "
                       f"(their backs show it, seen or not)", ("kind", where, kind))
            for card_name in self.card_names:
                yield (f"zone {where} {card_name}", f"how many {card_name} cards are in {where} "
                       f"(0 when the observer cannot see into it)", ("zone", where, card_name))
        for card in self.cards:
            for name in self.per_card:
                yield (f"card {card} {name}", f"`{name}` of card {card} (-1 when the observer cannot see it)",
                       ("var", "cv", name))

    def _written(self) -> set[int]:
        """Offsets of variables some rule may write (all of them if any rule's
        writes cannot be told)."""
        written = set()
        for program in self.game.programs.values():
            for names in program.written:
                if names is None:
                    return {i for i, f in enumerate(self.features) if f[2][0] == "var"}
                written.update(names)
        return {i for i, (_, _, source) in enumerate(self.features)
                if source[0] == "var" and (source[1], source[2]) in written}

    def _varying(self, probe_games: int) -> set[int]:
        """Offsets of the ("seen",) features that differed between two observations in
        the seeded random games (the class doc)."""
        seen = np.array([f[2][0] != "var" for f in self.features])
        low = np.full(self.full_size, np.inf, np.float32)
        high = np.full(self.full_size, -np.inf, np.float32)
        for seed in range(probe_games):
            st, rand = self.game.new_state(self.n, seed), random.Random(seed)
            while True:
                if st.decisions % OBSERVE_EVERY == 0 or st.is_terminal():
                    for seat in range(self.n):
                        vector = self.encode_full(st.view(seat), seat)
                        np.minimum(low, vector, out=low)
                        np.maximum(high, vector, out=high)
                if st.is_terminal() or st.decisions >= PROBE_DECISIONS:
                    break
                st.apply(rand.randrange(len(st.pending.values)))
        return set(np.flatnonzero(seen & (high > low)).tolist())

    def _widened(self, varying: set[int]) -> set[int]:
        """`varying`, widened so a count the probe games missed is kept too: a zone
        keeps its count of every card name of each `cards:` section one of whose
        names varied there."""
        live: dict[str, set] = {}
        for i in varying:
            source = self.features[i][2]
            if source[0] == "zone":
                live.setdefault(source[1], set()).add(self._section.get(source[2], source[2]))
        kept = {i for i in varying if self.features[i][2][0] in ("seen", "kind")}
        for i, (_, _, source) in enumerate(self.features):
            if source[0] == "zone" and self._section.get(source[2], source[2]) in live.get(source[1], ()):
                kept.add(i)
        return kept

    @cached_property
    def _section(self) -> dict[str, str]:
        """card name -> the `cards:` section that declares it."""
        return {entry["name"]: kind for kind, decl in (self.game.data.get("cards") or {}).items()
                for entry in decl["list"]}

    def _rotated_zones(self, seat):
        """Zones in the layout's order, a player's zone read from the observer's seat."""
        for zone in self.zones:
            if zone.seat is None:
                yield zone
            else:
                yield Zone(f"{zone.base}@{(zone.seat + seat) % self.n}")
