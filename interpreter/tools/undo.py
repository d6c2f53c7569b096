"""Taking back a decision, within what the table would allow.

A person at the terminal may undo back to their own previous decision, but
not past anything undo would let them learn and then use: another seat's
decision (a sealed bid, once made, is not to be outbid by taking one's own
back), a chance outcome (a shuffle, a roll, a random pick) or a card that
left a zone they could not see (a draw from a face-down deck shows a card;
undoing would show it twice).

All are detected from the states alone, so playing costs nothing extra: the
decision count says how many decisions were taken, the seat's own history
how many were its own; the random generator's state changes exactly when
chance is used, and a card that leaves a hidden zone is a difference between
two snapshots.
"""
from __future__ import annotations


def barrier(saved, now, seat: int) -> str | None:
    """Why `now` cannot go back to `saved` for `seat`, or None when it can."""
    if saved.rng != now.rng:
        return "since then chance was used (a shuffle, a roll or a random pick)"
    for zone, cards in saved.zones.items():
        if saved._sees(zone, seat):
            continue
        left = [c for c in cards if now.loc.get(c) != zone]
        if left:
            return f"since then a card left {zone.base}, which you could not see"
    return None


def restore(state, saved) -> None:
    """Make `state` (the object the game loop holds) be `saved` again, in place.

    The record of events and the trace stay those of the game being played.
    """
    put_back(state, saved.clone())
    state.record("undo", player=saved.pending.player if saved.pending else None,
                 to=saved.decisions)


def put_back(state, copy) -> None:
    """Make `state` be `copy` again, in place, with nothing recorded: `copy` is a
    clone no one else holds (it becomes part of `state`). The record of events and
    the trace stay those of the game being played."""
    for slot in type(state).__slots__:
        if slot not in ("events", "trace"):
            setattr(state, slot, getattr(copy, slot))


class History:
    """One seat's own decisions: a copy of the state before each one."""

    def __init__(self):
        self.saved: list = []

    def remember(self, state) -> None:
        # Every later decision (anyone's) happened after this one: drop copies
        # from a branch that was undone.
        self.saved = [s for s in self.saved if s.decisions < state.decisions]
        self.saved.append(state.clone())

    def undo(self, state, seat: int) -> str | None:
        """Go back to this seat's previous decision; None when done, else why not."""
        earlier = [s for s in self.saved if s.decisions < state.decisions]
        if not earlier:
            return "there is no earlier decision of yours to go back to"
        target = earlier[-1]
        for later in [s for s in self.saved if s.decisions > target.decisions] + [state]:
            reason = barrier(target, later, seat)
            if reason:
                return f"cannot undo: {reason}"
        own = sum(target.decisions <= s.decisions < state.decisions for s in self.saved)
        if state.decisions - target.decisions > own:
            return ("cannot undo: since then another player has decided, "
                    "and taking yours back would let you answer them")
        restore(state, target)
        self.saved = [s for s in self.saved if s.decisions < target.decisions] + [target]
        return None
