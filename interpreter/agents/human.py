"""A person at the terminal, shown the game as the web table shows it (tools/present.py).

At each decision they read what changed since their last one (others' moves,
rolls, payouts, each with its rule and line), their own status, and the
question in words with numbered options. They may type a number, an
option's text or the start of it, `options` (the question again), `help`,
`info N` (the card behind option N, or any card by its id), `status`
(everyone's public state), or `undo`. An answer that is none of these is
refused in words — what it is not, why when a rule refuses it, and how to
see the options — and the question is asked again. Everything shown is what
their seat may see: tools/table.py's seat_table and visible_event.
"""
from __future__ import annotations

from rulespec.errors import RulespecError

ANSWER_CHARS = 4096     # the longest line read as one answer (options' labels are far shorter)

HELP = """Type the number of an option to choose it (a number is always an option's
place in the list, even where options are themselves numbers), or its text: the
start of it is enough when no other option starts the same way.
  options     the question and its options again
  info N      the card behind option N (or: info CARD-ID), with all its attributes
  status      everyone's public status, the table and your cards
  undo        take back your last decision, when the rules allow it
  help        this text"""


class HumanAgent:
    """A person at a terminal: the question in words, what changed since their last
    decision, their own status; asks again on bad input (saying why an option is
    not legal); `undo` goes back to their previous decision."""
    name = "human"

    def __init__(self, seed: int = 0, stdin=None, stdout=None):
        import sys

        from ..tools.undo import History
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.history = History()
        self.heard: list = []      # events since the last decision: {"change": ...} / {"decision": ...}
        self.pres = None
        self.seat = None           # at_the_table says which (None reads as a spectator)

    # -------------------------------------------------- what the table tells
    def hear(self, record: dict) -> None:
        """A change record (engine/changes.py) from the game's trace."""
        if record.get("kind") not in ("forced", "pass", "log"):   # those are printed as they happen
            self.heard.append({"change": record})

    def hear_decision(self, player: int, label: str, secret: bool) -> None:
        self.heard.append({"decision": {"player": player, "label": label, "secret": secret}})

    # -------------------------------------------------------------- choose
    def choose(self, state):
        self.history.remember(state)
        options = self._show(state)
        while True:
            print("> ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline(ANSWER_CHARS + 1)   # /dev/zero is one endless line
            if not line:
                raise RulespecError("input ended before the game did")
            if len(line) > ANSWER_CHARS and not line.endswith("\n"):
                raise RulespecError(f"an answer of more than {ANSWER_CHARS:,} characters on one "
                                    f"line: that is no option; input stopped")
            answer = line.strip()
            option = self._read(state, answer, options)
            if option is not None:
                return option
            if answer == "undo":
                options = state.legal_actions()

    def _read(self, state, answer, options):
        """The option `answer` picks, or None after answering a command or saying
        why it picks none."""
        # A number is the option's place in the list shown, always: where the
        # options are themselves numbers ("0", "1", "2"), reading "1" as a label
        # here and as a place elsewhere would answer a different question.
        if answer.isascii() and answer.isdigit():
            if _number(answer) and 1 <= int(answer) <= len(options):   # int() of 5,000 digits fails
                return options[int(answer) - 1]
            self._refuse(state, answer, options)
            return None
        exact = [o for o in options if o.label == answer]
        if exact:
            return exact[0]
        if self._command(state, answer, options):
            return None
        starting = _starting_with(answer, options)
        if len(starting) == 1:
            print(f"  ({starting[0].label})", file=self.stdout)   # what the short answer chose
            return starting[0]
        if len(starting) > 1:
            self._say(f"'{answer}' is the start of {len(starting)} options: "
                      + ", ".join(o.label for o in starting),
                      f"Type more of its text, or a number from 1 to {len(options)}")
        else:
            self._refuse(state, answer, options)
        return None

    def _command(self, state, answer, options) -> bool:
        """help, info, status, undo; False when `answer` is none of them."""
        word, _, rest = answer.partition(" ")
        if word in ("help", "?"):
            print(HELP, file=self.stdout)
        elif answer == "options":
            self._show(state)
        elif word == "info":
            self._info(state, rest.strip(), options)
        elif word == "status":
            self._status(state)
        elif word == "undo":
            problem = self.history.undo(state, state.current_player())
            if problem is None:
                self.heard.clear()
                self._show(state)
            else:
                print(problem, file=self.stdout)
        else:
            return False
        return True

    def _presentation(self, state):
        from ..tools.present import Presentation
        if self.pres is None or self.pres.game is not state.game:
            self.pres = Presentation(state.game)
        return self.pres

    def _show(self, state):
        from ..tools.table import seat_table, visible_event
        pres = self._presentation(state)
        seat = state.current_player()
        out = self.stdout
        news = [visible_event(state, e, seat, pres) for e in self.heard]
        self.heard.clear()
        lines = []
        for n in news:   # equal lines in a row (ten cards dealt face down) read as one
            if not n:
                continue
            line = f"{n['text']}" + (f"   ({n['where']})" if n["where"] else "")
            if lines and lines[-1][0] == line:
                lines[-1][1] += 1
            else:
                lines.append([line, 1])
        if lines:
            print("\nSince your last decision:", file=out)
            for line, times in lines:
                print(f"  {line}" + (f"   ×{times}" if times > 1 else ""), file=out)
        table = seat_table(state, seat, pres)
        me = table["players"][seat]
        print(f"\n{me['name']} ({table['phase']}): " + ", ".join(f"{v['label']} {v['text']}" for v in me["vars"]),
              file=out)
        for zone in table["zones"]:
            if zone["owner"] == seat and zone["cards"]:
                print(f"  your {zone['title']}: " + ", ".join(c["text"] for c in zone["cards"]), file=out)
        question = table["question"]
        print(f"\n{question['prompt']}   (help: commands)", file=out)
        for i, option in enumerate(question["options"], 1):
            print(f"  {i}. {option['text']}" + (f"  [{option['label']}]" if option["card"] else ""), file=out)
        return state.legal_actions()

    def _status(self, state):
        """Everyone's public status and the table, in words (only what this seat sees)."""
        from ..tools.table import seat_table
        table = seat_table(state, state.current_player(), self._presentation(state))
        out = self.stdout
        for p in table["players"]:
            print(f"{p['name']}: " + ", ".join(f"{v['label']} {v['text']}" for v in p["vars"]), file=out)
        if table["globals"]:
            print("table: " + ", ".join(f"{v['label']} {v['text']}" for v in table["globals"]), file=out)
        for zone in table["zones"]:
            owner = f" of {table['players'][zone['owner']]['name']}" if zone["owner"] is not None else ""
            if zone["cards"]:
                print(f"  {zone['title']}{owner}: " + ", ".join(c["text"] for c in zone["cards"]), file=out)
            elif zone["count"]:
                kinds = f" ({zone['kinds']})" if zone["kinds"] else ""
                print(f"  {zone['title']}{owner}: {zone['count']} face down{kinds}", file=out)

    def _info(self, state, what, options):
        pres = self._presentation(state)
        card = None
        if _number(what) and 1 <= int(what) <= len(options):
            label = options[int(what) - 1].label   # a card, or an action naming one
            card = next((w for w in [label] + label.split() if w in state.game.cards), label)
        elif what:
            card = what
        if card not in state.game.cards:
            print("info N shows the card behind option N; info CARD-ID any card by its id", file=self.stdout)
            return
        shown = pres.card(card)
        print(f"{shown['text']} ({shown['kind']}): " +
              ", ".join(f"{k} {v}" for k, v in shown["details"].items()), file=self.stdout)

    def _refuse(self, state, answer, options):
        """Say that `answer` is not one of the options, and why when a rule refuses
        it (the rule and its line, from what this seat may see)."""
        from ..engine.explain import why_refused
        from ..engine.visibility import seat_state
        reason = None
        # a typed number is a place in the list, so the range of a number decision's
        # labels ("chosen from 0 to 2") explains only an answer such as -1
        if answer and not answer.isdigit() and (state.pending.kind != "number"
                                                or answer.lstrip("-").isdigit()):
            reason = why_refused(seat_state(state, state.current_player()), answer)
        self._say(f"'{answer}' is not one of the options" + (f": {reason}" if reason else ""),
                  f"Type a number from 1 to {len(options)} or an option's text")

    def _say(self, problem: str, how: str):
        """One refusal, in the same words whatever was typed: the problem, how to
        answer, and how to see the options again."""
        print(f"{problem}.\n  {how}; `options` shows them again, `help` the commands.",
              file=self.stdout)


class Telling:
    """Wraps another seat's agent so the people at the table hear its decisions
    (a secret one only as 'decided'; visible_event decides what each reads)."""

    def __init__(self, inner, listeners):
        self.inner, self.listeners = inner, listeners
        self.name = getattr(inner, "name", "agent")

    def choose(self, state):
        from ..engine.visibility import decision_text
        option = self.inner.choose(state)
        seat, secret = state.current_player(), state.pending.secret
        picked = state.legal_actions()[option] if isinstance(option, int) else option
        for listener in self.listeners:   # each as its seat reads it, now, before it is taken
            listener.hear_decision(seat, decision_text(state, picked, listener.seat), secret)
        return option


def at_the_table(agents: list, trace=None):
    """(agents, trace) for a game with people: each human hears the others'
    decisions and every change record; `trace` (another sink) still gets them."""
    humans = [a for a in agents if isinstance(a, HumanAgent)]
    if not humans:
        return agents, trace
    for human in humans:
        human.seat = agents.index(human)
    wrapped = [a if isinstance(a, HumanAgent) else Telling(a, humans) for a in agents]
    for human in humans:   # people hear each other's decisions too
        others = [h for h in humans if h is not human]
        if others:
            wrapped[agents.index(human)] = Telling(human, others)

    def sink(record):
        if trace is not None:
            trace(record)
        for human in humans:
            human.hear(record)
    return wrapped, sink


def _starting_with(answer: str, options) -> list:
    """The options whose label starts with `answer`, ignoring case; one whose whole
    label it is, alone (`bid 1` is not also the start of `bid 10`)."""
    if not answer:
        return []
    low = answer.casefold()
    whole = [o for o in options if o.label.casefold() == low]
    return whole[:1] or [o for o in options if o.label.casefold().startswith(low)]


def _number(answer: str) -> bool:
    """Digits that int() reads: ASCII only ('²' is a digit to str.isdigit)."""
    return answer.isascii() and answer.isdigit() and len(answer) < 10
