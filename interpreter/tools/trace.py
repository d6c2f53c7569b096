"""Tracing: every state change, as it happens, with the rule that caused it.

Switched on per state (`game.new_state(..., trace=sink)`, a callable that
receives each change record; None, the default, means off). The records come
from the engine's change observer (interpreter/engine/changes.py, which also
says their shape); this module reads, prints and announces them.
"""
from __future__ import annotations

from rulespec.errors import RulespecError
from ..engine.changes import diff, snapshot, zone_name  # noqa: F401  (re-exported for tools)
from ..engine.values import display

ARROW = "\u2192"


# ------------------------------------------------------------------ reading
def format_change(change: dict, names=None) -> str:
    """One change as a line: `coins[P2] 5 → 7  action sell  game.yaml:112`."""
    where = f"{change.get('file')}:{change.get('line')}" if change.get("line") else change.get("file") or ""
    what, kind = change["what"], change.get("kind")
    if kind == "order":
        body = f"{what} reordered"
    elif kind == "end":
        body = f"game over: {change['to']}"
    elif kind in MESSAGES:
        body = MESSAGES[kind](what, change.get("to"))
    else:
        body = f"{what} {_show(change.get('from'), names)} {ARROW} {_show(change.get('to'), names)}"
    return f"{body}  {change.get('rule')}  {where}".rstrip()


# records that say what happened without a change of their own (engine/changes.py tell)
MESSAGES = {
    "forced": lambda who, option: f"{who} must: {option}",
    "pass": lambda who, instead: f"{who} has no legal action in `turn`: {instead}",
    "log": lambda _, text: f"log: {text}",
}


def _show(value, names) -> str:
    from ..engine.values import decode
    try:
        return display(decode(value), names)
    except RulespecError:
        return str(value)


def printer(stream, names=None):
    """A trace sink that prints each change on its own line, as it happens."""
    def sink(change):
        print("  " + format_change(change, names), file=stream)
    return sink


def messages(stream, names=None, seats=()):
    """A sink that prints only the records a person at the table should hear of
    (forced decisions, passed turns, `log(...)` lines), for the people at
    `seats`: another seat's forced option is not named (it may show a hidden
    card), nor is a secret one."""
    def sink(change):
        kind = change.get("kind")
        if kind not in MESSAGES:
            return
        if kind == "forced" and (change.get("seat") not in seats or change.get("secret")):
            change = {**change, "to": "its only option"}
        print("  " + format_change(change, names), file=stream)
    return sink


def for_seat(sink, game, seat: int):
    """A sink that passes on only what `seat` may see of each change
    (visibility.redact_change): `play --trace --seat K`."""
    from ..engine.visibility import redact_change

    def seen(change):
        shown = redact_change(game, change, seat)
        if shown is not None:
            sink(shown)
    return seen


def collector(into: list):
    """A trace sink that keeps the records (for tests and tools)."""
    return into.append


def quiet(change) -> None:
    """A sink that prints nothing: the changes go only to the log's events."""


class _Announcing:
    """Wraps an agent so each decision is printed before the changes it causes."""

    def __init__(self, agent, stream, seat=None):
        self.agent, self.stream, self.seat = agent, stream, seat
        self.name = getattr(agent, "name", "agent")

    def choose(self, state):
        option = self.agent.choose(state)
        seat = state.current_player()
        if self.seat is None:
            shown = getattr(option, "label", option)
        else:   # a secret choice, or a card the reader cannot see, reads '?'
            from ..engine.visibility import decision_text
            shown = decision_text(state, option, self.seat)
        print(f"{state.game.seat_name(seat)} chooses {shown!s}", file=self.stream)
        return option


def announcing(agents: list, stream, seat: int | None = None) -> list:
    """Wrap agents so each decision is printed; with `seat`, as that seat may read it."""
    return [_Announcing(a, stream, seat) for a in agents]
