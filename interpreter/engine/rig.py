"""Rigged chance: the next outcomes fixed by value, for scenario tests.

A scenario says "the next roll is 3", "the shuffle puts wine#2 on top", "the
next card drawn is spice" instead of hunting for a seed whose random numbers
happen to give them, so a test survives any change to the generator.

The hook is kept off the hot path: `State.rig` is None in every game but a
rigged one, and each chance builtin tests that once. Rigging never skips the
random generator: the draw is made as usual and then overridden, so the
generator's state after a rigged outcome is the same as after a free one, and
a rigged game is as deterministic as any other.
"""
from __future__ import annotations

from rulespec.errors import RuleError

KINDS = ("roll", "shuffle", "draw", "pick")


class Rig:
    """A queue of outcomes, each (kind, value), used up in the order the rules meet
    chance. kind is one of KINDS; value: roll -> int, shuffle -> [card or name],
    draw -> card or name, pick -> the label of the item (its display)."""

    __slots__ = ("queue",)

    def __init__(self, outcomes=()):
        self.queue = list(outcomes)

    def copy(self) -> "Rig":
        return Rig(self.queue)

    def __bool__(self):
        return bool(self.queue)

    def take(self, kind: str, what: str):
        """The value rigged for this chance event, or None when the next rigged
        outcome is not of this kind (draws only: a draw from an ordered deck is not
        chance, so it may pass unrigged). Raises RuleError on any other mismatch."""
        wanted, value = self.queue[0]
        if wanted != kind:
            if kind == "draw":
                return None
            raise RuleError(f"rigged a {wanted} ({value!r}) but the rules' next chance event "
                            f"is a {kind} ({what})")
        self.queue.pop(0)
        return value


def matches(card: str, wanted: str) -> bool:
    """A rigged card is named by its id (spice#2) or by its name (spice: any one)."""
    return card == wanted or card.partition("#")[0] == wanted


def roll(st, sides: int, value: int) -> int:
    wanted = st.rig.take("roll", f"a roll of 1 to {sides}")
    if not isinstance(wanted, int) or not 1 <= wanted <= sides:
        raise RuleError(f"rigged roll {wanted!r} is not a side of this {sides}-sided die")
    return wanted


def shuffle(st, zone) -> None:
    """Put the rigged cards on top of `zone`, first named on top, in place."""
    names = st.rig.take("shuffle", f"a shuffle of {zone}")
    cards = st.zones[zone]
    top = []
    for name in names:
        found = next((c for c in cards if c not in top and matches(c, name)), None)
        if found is None:
            raise RuleError(f"rigged shuffle: no {name!r} in {zone} to put on top")
        top.append(found)
    cards[:] = top + [c for c in cards if c not in top]


def draw(st, src) -> None:
    """Bring the rigged card to the top of `src`, when a draw is rigged next."""
    name = st.rig.take("draw", f"a draw from {src}")
    if name is None:
        return
    cards = st.zones[src]
    found = next((c for c in cards if matches(c, name)), None)
    if found is None:
        raise RuleError(f"rigged draw: no {name!r} in {src}")
    cards.remove(found)
    cards.insert(0, found)


def pick(st, labels: list[str], index: int) -> int:
    wanted = str(st.rig.take("pick", f"a random pick among {len(labels)}"))
    if wanted not in labels:
        raise RuleError(f"rigged pick {wanted!r} is not among {', '.join(labels)}")
    return labels.index(wanted)
