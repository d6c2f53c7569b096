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
from .values import slotted_state

KINDS = ("roll", "shuffle", "draw", "pick")


class Rig:
    """Outcomes to come, each (kind, value); kind is one of KINDS; value: roll ->
    int, shuffle -> [card or name], draw -> card or name, pick -> the label of the
    item (its display).

    Each chance event takes the first queued outcome of its own kind, so rigging
    the start player's pick needs no word about the shuffles before it; a shuffle
    or draw outcome waits for a zone that holds the cards it names. What is never
    taken is reported by the scenario (`queue` stays non-empty)."""

    __slots__ = ("queue", "strict")
    __getstate__ = slotted_state

    def __init__(self, outcomes=(), strict: bool = False):
        self.queue = list(outcomes)
        self.strict = strict    # replaying a log: outcomes in exactly their order

    def copy(self) -> "Rig":
        return Rig(self.queue, self.strict)

    def __bool__(self):
        return bool(self.queue)

    def take(self, kind: str, fits=None):
        """The value of the first queued outcome of this kind (that `fits(value)`,
        when given), removed from the queue; None when there is none.

        A strict rig (a log's outcomes replayed on edited rules) only looks at the
        first outcome, and raises RuleError when this event does not fit it: the
        edited rules no longer meet chance where the logged game did."""
        if self.strict:
            return self._next(kind, fits)
        for i, (wanted, value) in enumerate(self.queue):
            if wanted == kind and (fits is None or fits(value)):
                del self.queue[i]
                return value
        return None


    def _next(self, kind, fits):
        wanted, value = self.queue[0]
        if kind == "draw":      # a draw is no chance event of its own in a log
            return None
        if wanted != kind or (fits is not None and not fits(value)):
            raise RuleError(f"the log's next chance outcome is {_logged(wanted, value)}, "
                            f"but these rules meet a {kind} here")
        return self.queue.pop(0)[1]


def _logged(kind, value) -> str:
    """A logged outcome in words: 'a shuffle of deck', 'a roll of 4 (d6)'."""
    if kind == "shuffle":
        return f"a shuffle of {value[0]}"
    if kind == "roll":
        return f"a roll of {value[1]} (d{value[0]})"
    return f"a pick of item {value[1] + 1} of {value[0]}"


def matches(card: str, wanted: str) -> bool:
    """A rigged card is named by its id (spice#2) or by its name (spice: any one)."""
    return card == wanted or card.partition("#")[0] == wanted


def roll(st, sides: int, value: int) -> int:
    if st.rig.strict:   # logged as [sides, value]
        return st.rig.take("roll", lambda logged: logged[0] == sides)[1]
    wanted = st.rig.take("roll")
    if wanted is None:
        return value
    if not isinstance(wanted, int) or not 1 <= wanted <= sides:
        raise RuleError(f"rigged roll {wanted!r} is not a side of this {sides}-sided die")
    return wanted


def _holds(cards, names) -> bool:
    left = list(cards)
    for name in names:
        found = next((c for c in left if matches(c, name)), None)
        if found is None:
            return False
        left.remove(found)
    return True


def shuffle(st, zone) -> None:
    """Put the rigged cards on top of `zone`, first named on top, in place."""
    cards = st.zones[zone]
    if st.rig.strict:   # logged as [zone, the whole order]
        cards[:] = st.rig.take("shuffle", lambda logged: logged[0] == zone
                               and sorted(logged[1]) == sorted(cards))[1]
        return
    names = st.rig.take("shuffle", lambda names: _holds(cards, names))
    if names is None:
        return
    top = []
    for name in names:
        top.append(next(c for c in cards if c not in top and matches(c, name)))
    cards[:] = top + [c for c in cards if c not in top]


def draw(st, src) -> None:
    """Bring the rigged card to the top of `src`, when a draw from it is rigged."""
    cards = st.zones[src]
    name = st.rig.take("draw", lambda name: _holds(cards, [name]))
    if name is not None:
        found = next(c for c in cards if matches(c, name))
        cards.remove(found)
        cards.insert(0, found)


def pick(st, labels: list[str], index: int) -> int:
    if st.rig.strict:   # a log records the index picked, and how many there were
        wanted = st.rig.take("pick", lambda logged: logged == [len(labels), logged[1]])
        return wanted[1]
    wanted = st.rig.take("pick", lambda label: str(label) in labels)
    return index if wanted is None else labels.index(str(wanted))
