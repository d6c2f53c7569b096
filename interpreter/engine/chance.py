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
- a shuffle is exposed as the draws that reveal it: `shuffle(zone)` only marks
  the zone unordered, and each `draw` from an unordered zone is a chance node
  over the card names it holds, each with its share of the cards. Cards moved
  onto an unordered zone by anything but a shuffle end this: later draws take
  the order the generator left (a known limit, documented in spec-format.md).

An event may fire in the middle of an instruction (`x = roll(6) + roll(6)`). The
run loop keeps a copy of the state before each instruction; when an event has no
answer yet it puts the copy back and stops, and `apply_chance` runs the
instruction again with the answers given so far, consumed in order.
"""
from __future__ import annotations

from rulespec import ast
from rulespec.errors import IllegalAction

CHANCE = -1


class ChanceNeeded(Exception):
    """Raised by a chance builtin with no answer yet; the run loop turns it into a
    chance node. Not an error: it never leaves the engine."""

    def __init__(self, kind: str, outcomes: list):
        super().__init__(kind)
        self.kind, self.outcomes = kind, outcomes   # outcomes: [(value, probability)]


class Explicit:
    """A state's explicit-chance book-keeping: the answers given to the instruction
    being run, how many it has used, the node waiting, the unordered zones."""
    __slots__ = ("answers", "used", "node", "unordered")

    def __init__(self):
        self.answers, self.used, self.node, self.unordered = [], 0, None, set()

    def copy(self) -> "Explicit":
        other = Explicit()
        other.answers, other.used, other.node = list(self.answers), self.used, self.node
        other.unordered = set(self.unordered)
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
    st.explicit.unordered.add(zone)


def draw(st, src) -> None:
    """Bring the card drawn to the top of an unordered zone (none: not a chance event)."""
    if src not in st.explicit.unordered:
        return
    cards = st.zones[src]
    if not cards:
        return
    answer = st.explicit.take("draw")
    if answer is None:
        held, counts = set(cards), {}
        for card in st.game.cards:    # in the spec's order, so outcomes are listed alike
            if card in held:
                name = card.partition("#")[0]
                counts[name] = counts.get(name, 0) + 1
        raise ChanceNeeded("draw", [(name, k / len(cards)) for name, k in counts.items()])
    found = next(c for c in cards if c.partition("#")[0] == answer)
    cards.remove(found)
    cards.insert(0, found)


def placed_on(st, zone) -> None:
    """Cards put on a zone by anything but a shuffle: its order is no longer chance."""
    st.explicit.unordered.discard(zone)


def outcome_index(node: ChanceNeeded, outcome) -> int:
    """Which of the node's outcomes `outcome` is; IllegalAction names the legal ones."""
    for i, (value, _) in enumerate(node.outcomes):
        if value == outcome or str(value) == str(outcome):
            return i
    raise IllegalAction(f"{outcome!r} is not an outcome of this {node.kind}; outcomes: "
                        f"{', '.join(str(v) for v, _ in node.outcomes)}")


# ------------------------------------------------------------ where chance can happen
RANDOM = frozenset({"draw", "roll", "random_of"})   # the builtins that can raise ChanceNeeded
_BLOCKS = frozenset({"body", "orelse"})   # statements run as instructions of their own


def plan(programs: dict, rules) -> dict:
    """{program key: per instruction, whether it may stop at a chance node}, so the
    run loop copies the state only before those (a copy per instruction made explicit
    chance about five times slower than sampling). Empty, so every instruction
    counts, when an expression rule (a function, a `when`, a label, an end
    condition) may call a random builtin: those run inside other instructions."""
    if any(rule.kind == "expression" and _calls_random(rule.tree) for rule in rules):
        return {}
    return {key: [_calls_random(getattr(instr, "node", None)) for instr in program.code]
            for key, program in programs.items()}


def may_stop(game, program, pc) -> bool:
    """Whether instruction `pc` of `program` may stop at a chance node (plan())."""
    points = game.chance_points.get(program.key)
    return points is None or points[pc]


def _calls_random(node) -> bool:
    """Whether `node`, but not the statements nested in it, calls a random builtin
    (None, an instruction with no statement: assume it may)."""
    if node is None:
        return True
    if isinstance(node, ast.Call) and node.func in RANDOM:
        return True
    return any(_calls_random(child) for name in node.__slots__ if name not in _BLOCKS
               for child in ast._children(getattr(node, name)))


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
    st.explicit.unordered = copy.explicit.unordered
    st.explicit.used = 0
    st.explicit.node = need
