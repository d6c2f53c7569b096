"""One game at the web table: the state, who sits where, each seat's log and page.

Kept apart from HTTP (app.py) so it can be tested and timed alone. Every page a
seat receives is rendered from `seat_table` (tools/table.py), which reads the
state only through the seat's view; the log a seat reads is filled, as events
happen, with `visible_event` for that seat. A seat's token is a secret
(`secrets.token_urlsafe`); app.py refuses a request whose token is not that seat's.
"""
from __future__ import annotations

import secrets

from rulespec.errors import IllegalAction

from ..agents import make_agents
from ..engine.visibility import HIDDEN_TEXT, decision_text
from ..tools.present import Presentation
from ..tools.table import seat_table, visible_event
from ..tools.undo import History
from .render import page_fragment

LOG_SHOWN = 300    # log entries sent with a page (the newest)


class Session:
    """A game being played at the table.

    agent_names: one per seat ('human' seats are people at their own URL).
    Raises ValueError for an unknown agent (agents.parse_agents says which).
    """

    def __init__(self, game, players: int, seed: int, agent_names: list[str]):
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
    def act(self, seat: int, labels: list[str]) -> None:
        """Seat answers its pending decision with one label, or several for a
        'several' decision (each is taken in turn, then `done` when it is offered).
        Raises IllegalAction when it is not this seat's decision or a label is not legal."""
        state = self.state
        if state.current_player() != seat:
            raise IllegalAction("it is not your decision")
        if not labels:
            raise IllegalAction("choose something first")
        self.histories[seat].remember(state)
        several = state.pending.kind == "several"
        for label in labels:
            if state.current_player() != seat:
                break
            self._apply(label)
        if (several and state.current_player() == seat and state.pending.kind == "several"
                and "done" in state.pending.labels and "done" not in labels):
            self._apply("done")
        self.messages.pop(seat, None)
        self._drain()

    def undo(self, seat: int) -> None:
        problem = self.histories[seat].undo(self.state, seat)
        self.messages[seat] = problem or "Your last decision is taken back."
        self._drain()

    def bot_to_move(self):
        seat = self.state.current_player()
        return seat if seat in self.bots else None

    def bot_step(self) -> bool:
        """Let the bot whose decision it is decide; False when it is no bot's turn."""
        seat = self.bot_to_move()
        if seat is None:
            return False
        self._apply(self.bots[seat].choose(self.state))
        self._drain()
        return True

    def _apply(self, option) -> None:
        """Take a decision, keeping how each seat reads it (visibility.decision_text):
        once it is taken, the state no longer says what was hidden when it was."""
        state = self.state
        if isinstance(option, int):
            option = state.legal_actions()[option]
        self._said.append([decision_text(state, option, s) for s in range(self.players)])
        state.apply(option)

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
        return table

    def page(self, seat: int) -> str:
        """The seat's table as an HTML fragment, rendered once per version."""
        cached = self._pages.get(seat)
        if cached and cached[0] == self.version:
            return cached[1]
        html = page_fragment(self.state, self.table(seat), self.pres)
        self._pages[seat] = (self.version, html)
        return html


def _ignore(record) -> None:
    """The trace sink: records reach the log through state.events."""
