"""State changes as records: the engine's one observer interface, and the
observer that turns each instruction into change records.

The run loop (flow.run) tells the state's `observer`, if any, after every
instruction (`after(program, pc)`), when an end condition fires
(`ended(name)`) and when the flow runs out (`flow_ended()`). Any object with
those three methods is an Observer; tools (the trace printer, the web table)
build on the records of the one defined here, `Watcher`, which
`Game.new_state(..., trace=sink)` attaches.

A record is plain JSON data:
    {"kind": "var", "what": "coins[P2]", "from": 5, "to": 7, "on": ["pv", "coins", 1],
     "rule": "action sell", "file": "game.yaml", "line": 112}
kind is var (a global, per-player or per-card variable), move (a card
changes zone), order (a zone is reordered, e.g. shuffled), phase, or end.
Three kinds report what happened without a change of its own (`tell`):
forced (a decision with one option taken at once: what is the seat, to the
option), pass (a turn with no legal action: what is the seat, to what
happened instead) and log (a `log(...)` line: to is its text).
"on" says what changed, for visibility.redact_change (a per-seat trace):
["g", name], ["pv", name, seat], ["cv", name, card, its zone] for a var;
[from zone, to zone] for a move; [zone] for an order; [seat, secret, zones of
the cards it picks] for a forced decision.
When the state also records events (logs), each record is added there too,
as {"change": record}, so a JSONL log carries the provenance of every change.
"""
from __future__ import annotations

from typing import Protocol

from .values import display, encode


class Observer(Protocol):
    """What the run loop tells an observer; all three are called with the
    state already changed."""

    def after(self, program, pc: int) -> None: ...
    def ended(self, name: str) -> None: ...
    def flow_ended(self) -> None: ...


class Watcher:
    """Told by flow.run after each instruction; reports what it changed.

    Every instruction is watched, not only those flagged `writes`: a condition
    may call draw() or roll() inside an expression.
    """

    def __init__(self, st):
        self.st = st
        self.before = snapshot(st)   # the state as last reported

    def after(self, program, pc) -> None:
        st = self.st
        self.before = _settle(st, self.before, lambda: _provenance(st, program, pc))

    def ended(self, name) -> None:
        self.before = _settle(self.st, self.before, lambda: _end_provenance(self.st.game, name))

    def flow_ended(self) -> None:
        self.before = _settle(self.st, self.before, lambda: ("the flow", self.st.game.file, None))


def _settle(st, before, provenance):
    """Report what changed since `before`; return the snapshot to compare with next.

    Comparing is cheap (C-level equality of dicts and lists); copying is done
    only when something changed.
    """
    changes = diff(st, before)
    if not changes:
        return before
    _report(st, changes, provenance())
    return snapshot(st)


def _provenance(st, program, pc) -> tuple:
    """(rule, file, line) of the instruction about to run.

    A procedure's change is credited to the procedure and to the rule that
    called it, since "procedure pay" alone rarely says why money moved.
    """
    file, line = program.lines[pc] if pc < len(program.lines) else (st.game.file, None)
    rule = program.rule
    if program.key.startswith("proc:"):
        for frame in reversed(st.stack):
            caller = st.game.programs[frame.proc]
            if not caller.key.startswith("proc:"):
                rule = f"{rule} (from {caller.rule})"
                break
    return rule, file, line


def tell(st, kind: str, what, to, **more) -> None:
    """Report a forced, pass or log record from inside the running instruction.
    Call only when `st.trace` is set. `more`: seat (whose decision or turn),
    secret (a forced decision inside `secretly`). A log record is not added to
    the events: the log line is already there as a note."""
    frame = st.stack[-1] if st.stack else None
    if frame is None:
        rule, file, line = "the flow", st.game.file, None
    else:
        program = st.game.programs[frame.proc]
        rule, file, line = _provenance(st, program, frame.pc - 1)   # pc is past it
    record = {"kind": kind, "what": what, "from": None, "to": to, **more,
              "rule": rule, "file": file, "line": line}
    if st.events is not None and kind != "log":
        st.events.append({"change": record})
    st.trace(record)


def _end_provenance(game, name) -> tuple:
    line, _ = game.spec.mark(("end", name, "when"))
    return f"end {name}", game.file, line


def _report(st, changes, provenance) -> None:
    if not changes:
        return
    rule, file, line = provenance
    for change in changes:
        change.update(rule=rule, file=file, line=line)
        if st.events is not None:
            st.events.append({"change": change})
        st.trace(change)


# ------------------------------------------------------- snapshots and diffs
def snapshot(st) -> tuple:
    """The state's data, copied just deep enough: values are never changed in
    place (values.py), but the containers holding them are."""
    return (dict(st.g), {k: list(v) for k, v in st.pv.items()},
            {k: dict(v) for k, v in st.cv.items()}, dict(st.loc),
            {k: list(v) for k, v in st.zones.items()}, st.phase, st.over)


def diff(st, before) -> list[dict]:
    g, pv, cv, loc, zones, phase, over = before
    out = []
    if g != st.g:
        for k, v in st.g.items():
            if g.get(k) != v:
                out += _var(k, g.get(k), v, ["g", k])
    if pv != st.pv:
        for key, values in st.pv.items():
            old = pv.get(key, [])
            for seat, v in enumerate(values):
                if seat >= len(old) or old[seat] != v:
                    out += _var(f"{key}[{st.game.seat_name(seat)}]", old[seat] if seat < len(old) else None, v,
                                ["pv", key, seat])
    if cv != st.cv:
        for key, values in st.cv.items():
            old = cv.get(key, {})
            for card, v in values.items():
                if old.get(card) != v:
                    out += _var(f"{key}[{card}]", old.get(card), v, ["cv", key, card, st.loc.get(card)])
    moved = set()
    if loc != st.loc:
        for card, zone in st.loc.items():
            if loc.get(card) != zone:
                moved.add(zone)
                moved.add(loc.get(card))
                out.append({"kind": "move", "what": card, "from": zone_name(st, loc.get(card)),
                            "to": zone_name(st, zone), "on": [loc.get(card), zone]})
    for zone, cards in st.zones.items() if zones != st.zones else ():
        if zone not in moved and zones.get(zone) != cards:
            out.append({"kind": "order", "what": zone_name(st, zone), "from": None, "to": "reordered",
                        "on": [zone]})
    if phase != st.phase:
        out.append({"kind": "phase", "what": "phase", "from": phase, "to": st.phase})
    if over != st.over and st.over:
        out.append({"kind": "end", "what": "game over", "from": None, "to": st.ended_by})
    return out


def _var(what, old, new, on) -> list[dict]:
    """One record per variable; a map that changed gives one per changed key
    (`frame[wine] 2 → 4`, not the whole map twice)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [{"kind": "var", "what": f"{what}[{display(k)}]", "from": encode(old.get(k)),
                 "to": encode(new.get(k)), "on": on}
                for k in list(old) + [k for k in new if k not in old] if old.get(k) != new.get(k)]
    return [{"kind": "var", "what": what, "from": encode(old), "to": encode(new), "on": on}]


def zone_name(st, zone) -> str | None:
    """'hand@1' reads as 'hand[P2]' (the seat's name, as in the rest of the trace)."""
    if zone is None:
        return None
    base, _, seat = str(zone).partition("@")
    return f"{base}[{st.game.seat_name(int(seat))}]" if seat else base
