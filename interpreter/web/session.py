"""One game at the web table: the state, who sits where, each seat's log and page.

Kept apart from HTTP (app.py) so it can be tested and timed alone. Every page a
seat receives is rendered from `seat_table` (tools/table.py), which reads the
state only through the seat's view; the log a seat reads is filled, as events
happen, with `visible_event` for that seat. A seat's token is a secret
(`secrets.token_urlsafe`); app.py refuses a request whose token is not that seat's.

The game moves only through `_advance` (a person's answer, an undo, a bot's
move), and a page is drawn only through `_guarded`: a rule's fault there (any
RulespecError but a refused answer) stops the game for every seat, with the
located message `play` would print; any other exception is an engine bug, shown
as "internal error" with its traceback on the server's console alone.
"""
from __future__ import annotations

import secrets
import sys
import traceback

from rulespec.errors import IllegalAction, RulespecError

from ..agents import make_agents
from ..engine.visibility import HIDDEN_TEXT, decision_text
from ..tools.present import Presentation
from ..tools.table import seat_table, visible_event
from ..tools.undo import History, put_back
from .render import fault_fragment, page_fragment

LOG_SHOWN = 300    # log entries sent with a page (the newest)
INTERNAL_ERROR = "internal error: the game stopped (the server's console has the details)"


class Session:
    """A game being played at the table.

    agent_names: one per seat ('human' seats are people at their own URL).
    console: where a fault is reported for whoever runs the server (default stderr).
    Raises ValueError for an unknown agent (agents.parse_agents says which), and
    the RulespecError of a rule that fails before the first decision: no table
    is set for a game that cannot start (`serve` exits 1, as `play` would).
    """

    def __init__(self, game, players: int, seed: int, agent_names: list[str], console=None):
        self.game, self.players, self.seed = game, players, seed
        self.pres = Presentation(game)
        self.names = list(agent_names)
        bots = make_agents([n if n != "human" else "first" for n in agent_names], seed)
        self.bots = {s: a for s, a in enumerate(bots) if agent_names[s] != "human"}
        self.humans = [s for s, n in enumerate(agent_names) if n == "human"]
        self.tokens = {s: secrets.token_urlsafe(18) for s in self.humans}
        self.histories = {s: History() for s in self.humans}
        self.state = game.new_state(players, seed, record=True, trace=_ignore)
        self.logs: dict[int, list] = {s: [] for s in range(players)}
        self.messages: dict[int, str] = {}
        self.fault: str | None = None    # what stopped the game, shown to every seat
        self.console = console
        self.version = 0
        self._said: list[list[str]] = []   # each decision taken, as each seat reads it
        self._pages: dict[int, tuple] = {}
        self._drain()

    # ------------------------------------------------------------- access
    def token_ok(self, seat: int, token: str | None) -> bool:
        """True only for the token of this human seat (compared in constant time)."""
        # compare_digest takes only ASCII text: as bytes any token (`é`, a lone
        # surrogate from JSON) is compared, and a wrong one refused, never an error
        return (seat in self.tokens and isinstance(token, str)
                and secrets.compare_digest(self.tokens[seat].encode(),
                                           token.encode("utf-8", "surrogatepass")))

    # ------------------------------------------------------------- moves
    def running(self) -> bool:
        """True while the game may still move: not over, not stopped by a fault."""
        return self.fault is None and not self.state.is_terminal()

    def act(self, seat: int, labels: list[str]) -> None:
        """Seat answers its pending decision with one label, or several for a
        'several' decision (each is taken in turn, then `done` when it is offered).
        Raises IllegalAction when it is not this seat's decision or a label is not
        legal; a rule's fault sets `fault` instead (see _advance)."""
        self._advance(lambda: self._act(seat, labels), refusals=(IllegalAction,))

    def _act(self, seat: int, labels: list[str]) -> None:
        state = self.state
        if state.current_player() != seat:
            raise IllegalAction("it is not your decision")
        if not labels:
            raise IllegalAction("choose something first")
        # An answer is taken whole or not at all: a label refused after others of a
        # 'several' were taken puts the game back as it was, so a refused request
        # leaves nothing behind (no decision, no log line, no undo point).
        before, events, said = state.clone(), len(state.events), len(self._said)
        several = state.pending.kind == "several"
        try:
            for label in labels:
                if state.current_player() != seat:
                    break
                self._apply(label)
            if (several and state.current_player() == seat and state.pending.kind == "several"
                    and "done" in state.pending.labels and "done" not in labels):
                self._apply("done")
        except IllegalAction:
            if state.decisions != before.decisions:
                put_back(state, before)
                del state.events[events:], self._said[said:]
            raise
        self.histories[seat].remember(before)
        self.messages.pop(seat, None)
        self._drain()

    def undo(self, seat: int) -> None:
        """Take back seat's last decision where tools/undo.py allows, else say why not."""
        self._advance(lambda: self._undo(seat))

    def _undo(self, seat: int) -> None:
        problem = self.histories[seat].undo(self.state, seat)
        self.messages[seat] = problem or "Your last decision is taken back."
        self._drain()

    def bot_to_move(self):
        seat = self.state.current_player()
        return seat if seat in self.bots else None

    def bot_step(self) -> bool:
        """Let the bot whose decision it is decide; False when it is no bot's turn
        (or the game stopped). A bot's illegal choice is a fault, not a refusal:
        no person is there to choose again."""
        seat = self.bot_to_move() if self.fault is None else None
        if seat is None:
            return False
        self._advance(lambda: self._bot_move(seat))
        return True

    def _bot_move(self, seat: int) -> None:
        self._apply(self.bots[seat].choose(self.state))
        self._drain()

    def _advance(self, step, refusals: tuple = ()) -> None:
        """Move the game by `step`: the one way it moves, so a fault anywhere in a
        move stops the game instead of failing one request or a bot's task.
        `refusals` pass through to the caller (a person's illegal answer)."""
        if self.fault is None:
            self._guarded(step, refusals)

    def _guarded(self, step, refusals: tuple = ()):
        """step(), or None when it failed and the game was stopped by it."""
        try:
            return step()
        except refusals:
            raise
        except RulespecError as e:     # a bug in the spec: located, as `play` prints it
            self._stop(e.format(), e.format())
        except Exception:              # a bug in the engine: its details are not the players'
            self._stop(INTERNAL_ERROR, traceback.format_exc())
        return None

    def _stop(self, shown: str, logged: str) -> None:
        """Stop the game with `shown` on every page and `logged` on the console, once."""
        if self.fault is not None:     # a page that cannot be drawn after the fault: said already
            return
        self.fault = shown
        print(logged.rstrip("\n"), file=self.console or sys.stderr, flush=True)
        try:    # the moves up to the fault, in each seat's log; the state may be half-changed
            self._drain()
        except Exception:   # noqa: BLE001  the log is a courtesy; the fault is shown anyway
            self.state.events.clear()
            self._said.clear()
            self.version += 1

    def _apply(self, option) -> None:
        """Take a decision, keeping how each seat reads it (visibility.decision_text):
        once it is taken, the state no longer says what was hidden when it was."""
        state = self.state
        if isinstance(option, int):
            option = state.legal_actions()[option]
        said = [decision_text(state, option, s) for s in range(self.players)]
        taken = state.decisions
        try:
            state.apply(option)
        finally:
            # kept only for a decision the state took (and so recorded), even when a
            # rule after it failed; a refused option is no decision and said nothing
            if state.decisions != taken:
                self._said.append(said)

    def _as_read(self, event: dict, said, seat: int) -> dict:
        """A decision event with its label as `seat` reads it ('?' to the others when
        it is not known: a decision not taken through _apply)."""
        decision = event["decision"]
        label = said[seat] if said else decision["label"] if decision["player"] == seat else HIDDEN_TEXT
        return {"decision": dict(decision, label=label)}

    def _drain(self) -> None:
        """Each seat's log takes what it may see of the new events, now, while the
        state still says where each card is."""
        state = self.state
        for event in state.events:
            said = (self._said.pop(0) if self._said else None) if "decision" in event else None
            for seat in range(self.players):
                seen = self._as_read(event, said, seat) if "decision" in event else event
                shown = visible_event(state, seen, seat, self.pres)
                if shown is None:
                    continue
                log = self.logs[seat]
                if log and (log[-1]["text"], log[-1]["where"]) == (shown["text"], shown["where"]):
                    log[-1] = dict(log[-1], times=log[-1].get("times", 1) + 1)   # ten cards dealt: one line
                else:
                    log.append(shown)
        state.events.clear()
        self._said.clear()
        self.version += 1

    # ------------------------------------------------------------- pages
    def table(self, seat: int) -> dict:
        table = seat_table(self.state, seat, self.pres)
        table["log"] = self.logs[seat][-LOG_SHOWN:]
        table["message"] = self.messages.get(seat)
        table["bots"] = sorted(self.bots)
        table["can_undo"] = bool(self.histories.get(seat) and self.histories[seat].saved)
        table["fault"] = self.fault
        if self.fault is not None:     # a stopped game asks nothing more
            table["question"], table["can_undo"] = None, False
        return table

    def page(self, seat: int) -> str:
        """The seat's table as an HTML fragment, rendered once per version; the
        fault alone when the table cannot be drawn (a failing presentation rule,
        or a state a fault left half-changed)."""
        cached = self._pages.get(seat)
        if cached and cached[0] == self.version:
            return cached[1]
        html = self._guarded(lambda: page_fragment(self.state, self.table(seat), self.pres))
        if html is None:
            html = fault_fragment(self.fault)
        self._pages[seat] = (self.version, html)
        return html


def _ignore(record) -> None:
    """The trace sink: records reach the log through state.events."""
