"""Chance nodes: random outcomes as branches of the game tree (explicit chance).

By default the state's generator decides every roll, pick and shuffle, so games
and logs replay as they always have. A state made with
`game.new_state(players, seed, chance="explicit")` stops instead at each random
event, as it stops at a decision: `state.is_chance_node()` is true,
`state.current_player()` is CHANCE (-1, OpenSpiel's chance player id),
`state.chance_outcomes()` lists `(outcome, probability)` and
`state.apply_chance(outcome)` takes one. That is what exact enumeration, CFR
and expectimax need (OpenSpiel, "chance nodes"; Lanctot et al., 2019).

The events and their outcomes:
- `roll(n)`: the number rolled, 1..n, each 1/n;
- `random_of(list)`: the item's label (`display`), 1/len each (equal labels add up);
- a shuffle is exposed as the draws that reveal it. In explicit mode the state's
  generator decides nothing: `shuffle(zone)` puts the zone's cards in the spec's
  order and makes them one unordered group (`Explicit.group`: which of them lies
  at which of their positions is unknown, every assignment equally likely).
  Each read of a position held by a group card -- `draw`, `top`, `first`/`last`
  of a zone, `zone[i]`, `index_of`, `reverse`, `rotate` (functions.py, and
  `_index` in codegen.py) -- is a "draw" chance node over the group's card
  names, each with its share (`reveal`); the card named takes that position
  and leaves the group. A group of equal cards asks nothing (certain).
  Cards put on top of or under a group are known; cards moved out of a group
  together stay a group where they land (`taking`). Reads that do not depend
  on order ask nothing: count, has, find, `in`, and walking a zone (cards(),
  `for c in zone`), which sees a group in the spec's card order.

An event may fire in the middle of an instruction (`x = roll(6) + roll(6)`). The
run loop keeps a copy of the state before each instruction; when an event has no
answer yet it puts the copy back and stops, and `apply_chance` runs the
instruction again with the answers given so far, consumed in order.
"""
from __future__ import annotations

from rulespec import ast
from rulespec.errors import IllegalAction
from .values import slotted_state

CHANCE = -1


class ChanceNeeded(Exception):
    """Raised by a chance builtin with no answer yet; the run loop turns it into a
    chance node. Not an error: it never leaves the engine."""

    def __init__(self, kind: str, outcomes: list):
        super().__init__(kind)
        self.kind, self.outcomes = kind, outcomes   # outcomes: [(value, probability)]

    def __reduce__(self):      # a state's waiting node (Explicit.node) pickles with it
        return ChanceNeeded, (self.kind, self.outcomes)


class Explicit:
    """A state's explicit-chance book-keeping: the answers given to the instruction
    being run, how many it has used, the node waiting, and the unordered groups.

    `group` maps a card to its group's id: the cards of one group lie in one zone,
    and which of them sits at which of their positions is not known yet (every
    assignment equally likely). A card in no group has a known position."""
    __slots__ = ("answers", "used", "node", "group", "groups")
    __getstate__ = slotted_state

    def __init__(self):
        self.answers, self.used, self.node = [], 0, None
        self.group, self.groups = {}, 0     # card -> group id; ids handed out so far

    def copy(self) -> "Explicit":
        other = Explicit()
        other.answers, other.used, other.node = list(self.answers), self.used, self.node
        other.group, other.groups = dict(self.group), self.groups
        return other

    def take(self, kind: str):
        """The next answer of this instruction, or None when it needs one."""
        if self.used < len(self.answers):
            wanted, value = self.answers[self.used]
            self.used += 1
            if wanted == kind:
                return value
        return None


def roll(st, sides: int) -> int:
    answer = st.explicit.take("roll")
    if answer is None:
        raise ChanceNeeded("roll", [(k, 1 / sides) for k in range(1, sides + 1)])
    return answer


def pick(st, labels: list[str]) -> int:
    """The index picked among items shown as `labels`."""
    answer = st.explicit.take("pick")
    if answer is None:
        shares: dict = {}
        for label in labels:
            shares[label] = shares.get(label, 0) + 1 / len(labels)
        raise ChanceNeeded("pick", list(shares.items()))
    return labels.index(answer)


def shuffled(st, zone) -> None:
    """Make every card of `zone` one unordered group. The list is put in the spec's
    card order, so no seed shows through a read that walks the zone (cards(),
    `for c in zone`): in explicit mode the state's generator decides nothing."""
    order = _spec_order(st.game)
    cards = st.zones[zone]
    cards.sort(key=order.__getitem__)
    _regroup(st.explicit, cards)


def _spec_order(game) -> dict:
    order = getattr(game, "_chance_order", None)
    if order is None:
        order = {card: i for i, card in enumerate(game.cards)}
        game._chance_order = order
    return order


def _regroup(ex: Explicit, cards: list) -> None:
    """`cards` become a group of their own (one card alone is known: no group)."""
    if len(cards) < 2:
        for c in cards:
            ex.group.pop(c, None)
        return
    ex.groups += 1
    for c in cards:
        ex.group[c] = ex.groups


def _name(card: str) -> str:
    return card.partition("#")[0]


def reveal(st, zone, i) -> None:
    """Fix the card at position `i` of `zone` (0 the top, -1 the bottom) before a
    rule reads it. When that position belongs to an unordered group this is a
    chance node (kind "draw") over the names of the group's cards, each with its
    share; the card named (of equal ones, the first in the spec's card order) is
    swapped into position `i` and leaves the group, so
    the rest stay unordered over the remaining positions (uniform before, uniform
    after). A known position, a group of equal cards, or `i` out of range asks
    nothing."""
    ex = st.explicit
    if not ex.group or type(i) is not int:
        return
    cards = st.zones[zone]
    if not -len(cards) <= i < len(cards):
        return
    here = cards[i]
    gid = ex.group.get(here)
    if gid is None:
        return
    members = [c for c in cards if ex.group.get(c) == gid]
    shares = _shares(st, members)
    if len(shares) == 1:    # all alike: the name is certain, nothing to ask
        answer = shares[0][0]
    else:
        answer = ex.take("draw")
        if answer is None:
            raise ChanceNeeded("draw", shares)
    order = _spec_order(st.game)    # of equal cards, the first in the spec comes up
    found = min((c for c in members if _name(c) == answer), key=order.__getitem__)
    j = cards.index(found)
    cards[j], cards[i] = here, found
    members.remove(found)
    del ex.group[found]
    if len(members) < 2:
        _regroup(ex, members)


def _shares(st, members: list) -> list:
    """[(card name, share)] of `members`, names in the spec's order (so the outcomes
    of equal groups are listed alike)."""
    counts: dict = {}
    for card in sorted(members, key=_spec_order(st.game).__getitem__):
        name = _name(card)
        counts[name] = counts.get(name, 0) + 1
    return [(name, k / len(members)) for name, k in counts.items()]


def reveal_from_top(st, zone, card) -> None:
    """Fix positions of `card`'s group from the top down until `card`'s own is known
    (index_of reads it). Each step is a reveal."""
    ex = st.explicit
    cards = st.zones[zone]
    if not isinstance(card, str):
        return
    while ex.group.get(card) is not None and card in cards:
        gid = ex.group[card]
        reveal(st, zone, next(i for i, c in enumerate(cards) if ex.group.get(c) == gid))


def reveal_all(st, zone) -> None:
    """Fix every position of `zone` (a read of its whole order: reverse, rotate)."""
    for i in range(len(st.zones[zone])):
        reveal(st, zone, i)


def taking(st, cards) -> None:
    """Cards about to be moved (to the top or the bottom of any zone). Those moved
    out of one group at once stay unordered among themselves, as a new group where
    they land; one alone is known. A group left with one card is known too."""
    ex = st.explicit
    if not ex.group:
        return
    moved: dict = {}
    for c in (cards if isinstance(cards, list) else [cards]):
        gid = ex.group.get(c) if isinstance(c, str) else None
        if gid is not None:
            moved.setdefault(gid, []).append(c)
    for gid, out in moved.items():
        left = [c for c in st.zones[st.loc[out[0]]] if ex.group.get(c) == gid and c not in out]
        _regroup(ex, list(dict.fromkeys(out)))
        if len(left) < 2:
            _regroup(ex, left)


def outcome_index(node: ChanceNeeded, outcome) -> int:
    """Which of the node's outcomes `outcome` is; IllegalAction names the legal ones."""
    for i, (value, _) in enumerate(node.outcomes):
        if value == outcome or str(value) == str(outcome):
            return i
    raise IllegalAction(f"{outcome!r} is not an outcome of this {node.kind}; outcomes: "
                        f"{', '.join(str(v) for v, _ in node.outcomes)}")


# ------------------------------------------------------------ where chance can happen
RANDOM = frozenset({"draw", "roll", "random_of", "top"})   # builtins that can raise ChanceNeeded
POSITIONAL = frozenset({"first", "last", "index_of", "reverse", "rotate"})   # when given a zone
_BLOCKS = frozenset({"body", "orelse"})   # statements run as instructions of their own


def plan(programs: dict, rules, kinds=None) -> dict:
    """{program key: per instruction, whether it may stop at a chance node}, so the
    run loop copies the state only before those (a copy per instruction made explicit
    chance about five times slower than sampling). Empty, so every instruction
    counts, when an expression rule (a function, a `when`, a label, an end
    condition) may stop at one: those run inside other instructions. A position
    read of a zone (top, first/last/index_of/reverse/rotate of a zone, zone[i]) may
    stop too; `kinds` (rulespec's KindTable) tells a zone from a list, and a value
    of unknown kind counts as a zone."""
    def may(node):
        return _calls_random(node, kinds)
    if any(rule.kind == "expression" and may(rule.tree) for rule in rules):
        return {}
    return {key: [may(getattr(instr, "node", None)) for instr in program.code]
            for key, program in programs.items()}


def may_stop(game, program, pc) -> bool:
    """Whether instruction `pc` of `program` may stop at a chance node (plan())."""
    points = game.chance_points.get(program.key)
    return points is None or points[pc]


def _calls_random(node, kinds=None) -> bool:
    """Whether `node`, but not the statements nested in it, may raise ChanceNeeded
    (None, an instruction with no statement: assume it may)."""
    if node is None:
        return True
    if isinstance(node, ast.Call) and (node.func in RANDOM or (
            node.func in POSITIONAL and node.args and _maybe_zone(node.args[0], kinds))):
        return True
    if isinstance(node, ast.Index) and _maybe_zone(node.obj, kinds):
        return True
    return any(_calls_random(child, kinds) for name in node.__slots__ if name not in _BLOCKS
               for child in ast._children(getattr(node, name)))


def _maybe_zone(node, kinds) -> bool:
    kind = kinds.of(node) if kinds is not None else None
    return kind is None or kind.base in ("zone", "any")


# ------------------------------------------------------------ the run loop's copy
KEPT = ("g", "pv", "cv", "zones", "loc", "rng", "stack", "pending", "over", "ended_by",
        "phase", "decisions", "fired", "skipped")


def keep(st) -> tuple:
    """What an instruction may change, copied, to put back if chance interrupts it."""
    copy = st.clone()
    return copy, len(st.events) if st.events is not None else 0


def put_back(st, kept: tuple, need: ChanceNeeded) -> None:
    copy, events = kept
    for name in KEPT:
        setattr(st, name, getattr(copy, name))
    if st.events is not None:
        del st.events[events:]
    st.explicit.group, st.explicit.groups = copy.explicit.group, copy.explicit.groups
    st.explicit.used = 0
    st.explicit.node = need
