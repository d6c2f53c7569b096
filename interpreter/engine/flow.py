"""The resumable flow: frames, programs, decisions and the run loop.

A rule compiles to a Program: a flat list of instructions (closures) with
jumps. Where execution stands is data in the state — a stack of Frames, each
(program, pc, locals) — so a game can stop at any decision, be copied or
saved, and go on from exactly there.

An instruction that needs a player's decision sets `state.pending`, steps its
frame's pc back onto itself and returns. `State.apply` puts the chosen value
in the frame's locals under "$in" and runs the instruction again, which now
takes the value and carries on.
"""
from __future__ import annotations

import dis
import functools
import operator
from collections.abc import Sequence
from time import monotonic

from rulespec.errors import LimitError, RuleError
from . import chance, faults
from .changes import Watcher, tell
from .functions import METER_CHUNK, seat, start_meter
from .values import cards_in, decode, encode, slotted_state
from .visibility import private_choice

IN = "$in"      # where a decision's answer waits for its instruction
LINK_DEPTH = 24     # instructions one linked form may run (Program.finish)
RET = "$ret"    # where a procedure's return value lands in its caller
_new = object.__new__   # Frames, Options and Decisions made as their slots (no __init__ call)


class Program:
    """One rule's block as instructions.

    Immediate end conditions are checked at rule boundaries, never between two
    statements of one effect: after each statement of the flow and of a phase
    (a *stepping* program: its `end_checks` name what to check after each
    instruction), and when a procedure, action or trigger finishes while no
    action or trigger is running beneath it (its `exit_checks`). A procedure or
    trigger started inside an action is part of that action: its writes count
    in the action's `exit_checks`, checked when the action is over.
    """
    __slots__ = ("key", "rule", "code", "lines", "written", "end_checks", "exit_checks",
                 "pushes", "stepping", "atomic", "straight", "fused", "swaps", "links", "fast",
                 "checks_any", "loop", "entry", "for_loops", "path", "waits", "starts", "keyed",
                 "holds")

    def __init__(self, key: str, rule: str, path: tuple | None = None):
        self.key = key          # "phase:market", "action:buy", ...
        self.rule = rule        # readable name of the rule, for messages
        self.path = path        # its rule's path in the spec (("phases", "market", "do")), None for a snippet
        self.code: list = []    # instructions: f(state, frame)
        self.lines: list = []   # (file, line) of each instruction
        self.written: list = []  # what it may change (rulespec.effects), None: anything
        self.end_checks: list = []  # per instruction: the end conditions to check after it
        self.checks_any = True      # whether any instruction has end checks (finish)
        self.exit_checks: tuple = ()  # the end conditions to check when the block is over
        self.pushes: set = set()      # keys of the procedures and triggers it starts
        self.stepping = key == "flow" or key.startswith(("phase:", "snippet:", "scenario:"))
        self.atomic = key.startswith(("action:", "trigger:"))
        # (start, end, f): instructions start..end-1 written as one generated function f
        # (compile.py's straight lines); `fast` is `code` with those in use (finish)
        self.straight: list = []
        # pc -> (f, partner): f does instruction pc and then instruction partner, which
        # always runs right after it (a loop's start or jump back, and its step)
        self.fused: dict = {}
        # pc -> f: the sampled run's form of instruction pc, the same in every way
        # that can be seen (a `turn` that runs a quiet action as a function)
        self.swaps: dict = {}
        # pc -> make(form, go): instruction pc's form that goes straight on into the
        # instruction it leaves for, without a turn of the run loop (see finish)
        self.links: dict = {}
        self.fast: list = self.code
        # (fast, its size, end_checks or None where none is checked): what the
        # sampled run loop reads when a frame comes on top (finish)
        self.loop: tuple = ()
        # (form, depth): what the loop runs first in a new frame of this program,
        # None where an end check follows it (a linked `phase` statement runs it:
        # compile.py's _phase_link), set by finish
        self.entry = None
        # (its key in the frame's env, first pc, last pc, its variable, whether it is
        # a `secretly for`) of each `for` loop: a frame holds the key exactly while its
        # pc is in first..last, and counts the secret ones there in "$secret" (a save's
        # check: save_checks.py, which also checks the items against the variable's kind)
        self.for_loops: list = []
        # Where a frame of this program can stand, for a save's check (save_checks.
        # check_stack): `waits`, the pcs of the instructions that ask a player (the top
        # frame stands at one while a decision waits); `starts`, pc -> {key of a
        # program whose frame the instruction before pc (a turn: at pc) starts: whether
        # that frame is secret inside an open `secretly` block}, where a frame stands
        # while the frame it started runs above it; `keyed`, an engine key of the frame
        # ($turn, $several, $auction) -> (the pc of the one instruction that keeps it,
        # the kind of a several-choice's picks and offers, else None); `holds`, a pc of
        # `waits` or `starts` -> the locals surely given a value there
        self.waits: set = set()
        self.starts: dict = {}
        self.keyed: dict = {}
        self.holds: dict = {}

    def emit(self, instr, where, written=None) -> int:
        self.code.append(instr)
        self.lines.append(where)
        self.written.append(written)
        return len(self.code) - 1

    def start(self, pc: int, key: str, in_secret_block: bool) -> None:
        """A frame of program `key` may run above a frame of this one standing at pc;
        in_secret_block: that frame is secret when the frame beneath counts an open
        `secretly` block (a procedure's, an action's), not only when it is secret."""
        self.starts.setdefault(pc, {})[key] = in_secret_block

    def fuse(self, pc: int, partner: int, fn) -> None:
        """Offer fn for instruction pc followed by instruction partner (finish decides)."""
        self.fused[pc] = (fn, partner)

    def link(self, pc: int, make) -> None:
        """Offer make(form, go, ahead) -> f or None: a form of instruction pc (whose
        form in use is `form`) that runs the instruction it leaves for at once, as
        the run loop would next; go(q) is instruction q's form to run so, or None
        where the loop must run it. With `ahead`, f may go on only to instructions
        after pc (see finish)."""
        self.links[pc] = make

    def finish(self) -> None:
        """Choose the forms the sampled run loop uses: fused instructions and
        straight-line functions, each standing for its instructions when no end
        condition is checked after any of them (so the game ends at the same point
        either way); then the linked forms (Program.link, a straight line's end, a
        statement of its own written as a straight line where that links it), which
        go on into the next instruction when neither is followed by end checks and
        the next is in the program: the loop would run it next, with nothing checked
        between. Forms that go on only forwards are made last instruction first, and
        each may go on into such a form (at most LINK_DEPTH deep); one that may go
        backwards (a jump back) goes on into no linked form and stands only where the
        loop runs it, as may a straight line no linked form goes on into. So each
        turn of the loop runs a bounded stretch and the step budget and clock
        still stop a loop. Call after plan_end_checks."""
        base = list(self.code)
        checks = self.end_checks
        self.checks_any = any(checks)
        for pc, fn in self.swaps.items():
            base[pc] = fn
        for pc, (fn, partner) in self.fused.items():
            if not checks[pc] and not checks[partner]:
                base[pc] = fn
        single = {}
        for start, end, fn in self.straight:
            if not any(checks[start:end]):
                if getattr(fn, "single", False):
                    single[start] = fn    # used only where it goes on (below)
                else:
                    base[start] = fn
        size = len(base)
        depth = [1] * size      # how many instructions base[pc] may run, itself and on
        deepest = [0]
        entered = set()         # the instructions some linked form goes on into

        def go(q):
            if q >= size or checks[q] or depth[q] >= LINK_DEPTH:
                return None
            deepest[0] = max(deepest[0], depth[q])
            entered.add(q)
            return base[q]
        later = []
        for pc in range(size - 1, -1, -1):
            if checks[pc]:
                continue
            deepest[0] = 0
            fn = base[pc]
            if getattr(fn, "straight", False):
                fn.then[0][3][0] = go(fn.then[0][2])
            elif pc in single and fn is self.code[pc]:
                then = go(single[pc].then[0][2])
                if then is not None:
                    single[pc].then[0][3][0] = then
                    base[pc] = single[pc]
            elif pc in self.links:
                ahead = self.links[pc](fn, go, True)
                if ahead is not None:
                    base[pc] = ahead
                    # a form going on into another program's instruction says how deep
                    deepest[0] = max(deepest[0], getattr(ahead, "depth", 0))
                else:
                    later.append(pc)
            depth[pc] += deepest[0]
        fast = list(base)
        for pc in later:    # those that may go backwards, where the loop runs them
            fast[pc] = self.links[pc](base[pc], go, False) or base[pc]
        for pc, fn in enumerate(base):
            # a straight line only the loop runs may go on into such a form too
            if getattr(fn, "straight", False) and pc not in entered:
                then = fn.then[0]
                if then[3][0] is not None and fast[then[2]] is not base[then[2]]:
                    then[3][0] = fast[then[2]]
        self.fast = fast
        self.loop = (self.fast, size, checks if self.checks_any else None)
        self.entry = (fast[0], depth[0]) if size and not checks[0] and depth[0] < LINK_DEPTH else None

    def plan_end_checks(self, conditions, reach=frozenset()) -> None:
        """conditions: [(name, closure, reads)]. A stepping program keeps, per
        instruction, those whose reads the instruction may write; any other
        keeps, for its end, those whose reads `reach` meets (what the block and
        the procedures and triggers it starts may write; None: anything)."""
        if self.stepping:
            self.end_checks = [_affected(conditions, written) for written in self.written]
            return
        self.end_checks = [()] * len(self.code)
        self.exit_checks = _affected(conditions, reach)


def _affected(conditions, written) -> tuple:
    return tuple((name, cond) for name, cond, reads in conditions
                 if written is None or reads is None or written & reads)


class Frame:
    """Where one block stands: its program's key `proc`, the next instruction `pc`,
    its locals `env` and whether it runs `secret`ly. Frames made on the hot path
    (a clone's copy, a phase's or an action's frame) are made as their object and
    four slots, without a call of __init__ (through type() a Python __init__ costs
    about a third of a small frame's making)."""
    __slots__ = ("proc", "pc", "env", "secret")

    def __init__(self, proc: str, env: dict, secret: bool = False, pc: int = 0):
        self.proc, self.env, self.secret, self.pc = proc, env, secret, pc

    def __reduce__(self):
        """Pickle as a call of Frame: every protocol (0 and 1 refuse a slotted class
        with no state of its own)."""
        return Frame, (self.proc, self.env, self.secret, self.pc)

    def copy(self) -> "Frame":
        frame = _new(Frame)
        frame.proc, frame.env, frame.secret, frame.pc = self.proc, dict(self.env), self.secret, self.pc
        return frame

    def to_data(self):
        return [self.proc, self.pc, self.secret, {k: encode(v) for k, v in self.env.items()}]

    @classmethod
    def from_data(cls, data):
        proc, pc, secret, env = data
        return cls(proc, {k: decode(v) for k, v in env.items()}, secret, pc)


class Option:
    """A legal action: what `State.apply` accepts, its place `index` among the
    decision's options, and its readable `label` (made when first read: an agent
    that picks by index never pays for the words). Compares, hashes, unpacks and
    prints like the pair (label, index)."""
    __slots__ = ("_decision", "index")
    __getstate__ = slotted_state

    def __init__(self, decision: "Decision", index: int):
        self._decision, self.index = decision, index

    @property
    def label(self) -> str:
        return self._decision.labels[self.index]

    def _pair(self) -> tuple:
        return (self.label, self.index)

    def __str__(self):
        return self.label

    def __repr__(self):
        return f"Option(label={self.label!r}, index={self.index})"

    def __eq__(self, other):
        if isinstance(other, Option):
            other = other._pair()
        return self._pair() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self):
        return hash(self._pair())

    def __iter__(self):
        return iter(self._pair())

    def __getitem__(self, i):
        return self._pair()[i]

    def __len__(self):
        return 2


class Options(Sequence):
    """The legal actions of one decision, as State.legal_actions returns them: a
    read-only sequence of Option, each made when it is first read. A random agent
    reads one option of a decision's several, so the others are never made: a list
    of them all cost up to 3% more time a random game (benchmarks/ab.py; per game
    in docs/performance.md, round 11).

    As the list it replaced: indexes (IndexError past either end, TypeError for
    an index that is not an int), slices and `copy()` and `+` give lists, iterates,
    `in`, `index`, `count`, equal to a list of the same options, and one Option
    per place however often it is read (`options[0] is options[0]`). Unlike a
    list it cannot change (`list(options)` for one that can: to shuffle, sort or
    pop). Empty where no decision waits (EMPTY_OPTIONS)."""
    __slots__ = ("_decision", "_made")     # _made: None, the one Option read, or each place's once read
    __getstate__ = slotted_state

    def __len__(self) -> int:
        return len(self._decision.values)

    def __getitem__(self, i):
        if i.__class__ is not int:
            if isinstance(i, slice):
                return [self[k] for k in range(len(self._decision.values))[i]]
            if not hasattr(i, "__index__"):
                raise TypeError(f"option indices must be integers or slices, not {type(i).__name__}")
            i = operator.index(i)
        decision = self._decision
        size = len(decision.values)
        if i < 0:
            i += size
        if not 0 <= i < size:
            raise IndexError(f"option index out of range: {size} options")
        made = self._made
        if made is None:    # the first read (a random agent's only one): no list
            option = self._made = _new(Option)
            option._decision, option.index = decision, i
            return option
        if made.__class__ is Option:    # a second place read: a list for every place
            if made.index == i:
                return made
            first, made = made, [None] * size
            made[first.index] = first
            self._made = made
        option = made[i]
        if option is None:      # made in place: a call of a shared maker per option is what Options saves
            option = made[i] = _new(Option)
            option._decision, option.index = decision, i
        return option

    def __iter__(self):
        for i in range(len(self._decision.values)):
            yield self[i]

    def index(self, value, start=0, stop=None):
        try:
            return list(self).index(value, start, len(self) if stop is None else stop)
        except ValueError:
            raise ValueError(f"{value!r} is not one of these options") from None

    def copy(self) -> list:
        return list(self)

    def __add__(self, other):
        return list(self) + list(other) if isinstance(other, (list, Options)) else NotImplemented

    def __radd__(self, other):
        return other + list(self) if isinstance(other, list) else NotImplemented

    def __eq__(self, other):
        if isinstance(other, Options):
            other = list(other)
        return list(self) == other if isinstance(other, list) else NotImplemented

    __hash__ = None     # as a list's: equal to one, so not hashable

    def __repr__(self):
        return repr(list(self))


class Decision:
    """A pending decision: who decides, and the legal options (labels and values).

    `labels` may be made when first read: given None (or a list with None for some
    options), `namer(decision)` makes the full list then. A namer reads no state
    (StaticTable.display_options, .name_options in game.py): a decision's labels are the same
    whenever they are read, from whichever copy of the game stands at it."""
    __slots__ = ("player", "_labels", "values", "kind", "secret", "where", "_namer")

    def __init__(self, player, labels, values, kind, secret=False, where=None, namer=None):
        self.player, self._labels, self.values = player, labels, values
        self.kind, self.secret, self.where, self._namer = kind, secret, where, namer

    @property
    def labels(self) -> list[str]:
        labels = self._labels
        if labels is None or self._namer is not None:
            labels = self._labels = unique_labels(self._namer(self))
            self._namer = None
        return labels

    def given_labels(self) -> list:
        """The labels given when the decision was made, None for those made later."""
        return list(self._labels) if self._labels is not None else [None] * len(self.values)

    def __reduce__(self):
        # a namer is its game's compiled code: a pickle (or copy) carries the labels made
        return Decision, (self.player, self.labels, self.values, self.kind, self.secret, self.where)

    def to_data(self):
        return {"player": self.player, "labels": self.labels,
                "values": [encode(v) for v in self.values], "kind": self.kind,
                "secret": self.secret, "where": self.where}

    @classmethod
    def from_data(cls, d):
        return cls(d["player"], d["labels"], [decode(v) for v in d["values"]], d["kind"],
                   d["secret"], d.get("where"))


# legal_actions where no decision waits: an Options of none (read-only, so one serves all)
EMPTY_OPTIONS = _new(Options)
EMPTY_OPTIONS._decision, EMPTY_OPTIONS._made = Decision(None, [], [], "none"), None


def unique_labels(labels: list[str]) -> list[str]:
    """Equal labels get ' (2)', ' (3)' so every option can be named."""
    if len(set(labels)) == len(labels):
        return labels
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out


def ask(st, fr, player, values, labels=None, kind="one", namer=None, fresh=False):
    """Offer `values` to `player`. Returns the value at once when there is no real
    choice (one option, unless the state asks forced decisions too); otherwise
    suspends and returns NOTHING. labels: None (each value displayed when first
    asked, or all made by `namer`), or one per value, None where `namer` makes it
    when first asked. fresh: `values` is a new list nobody else holds (the
    decision keeps it; otherwise it keeps a copy)."""
    player = seat(st, player)
    size = len(values)
    if not size:
        raise RuleError("there is nothing to choose from")
    game = st.game
    if size > game.bounds.size:
        raise LimitError(f"a decision of {size:,} options, over the limit of "
                        f"{game.bounds.size:,} (limits: size)")
    forced = size == 1 and not st.ask_forced
    if forced and st.trace is None:     # no labels made: nobody reads them
        return values[0]
    if labels is None:
        if namer is None:
            namer = game.display_options
    elif namer is None:
        labels = unique_labels(labels)
    if forced:      # a trace says it
        secret = {"secret": True} if fr.secret or fr.env.get("$secret") else {}
        label = Decision(int(player), labels, list(values), kind, namer=namer).labels[0]
        # a label reading the decider's own values reads '?' to the others, as a secret
        # choice's does (visibility.decision_text remakes it; a record cannot)
        private = (kind == "action" and values[0].__class__ is tuple and values[0][0] in game.private_labels
                   or private_choice(game, kind, game.programs[fr.proc].lines[fr.pc - 1][1], values[0]))
        tell(st, "forced", st.game.seat_name(int(player)), label,
             seat=int(player), **secret,
             on=[int(player), bool(secret) or private, _zones_of(st, values[0])])   # for redact_change
        return values[0]
    fr.pc = pc = fr.pc - 1
    # Decision(...) as its slots, without a call of __init__ (every decision comes here)
    st.pending = decision = _new(Decision)
    decision.player, decision._labels, decision.values = int(player), labels, values if fresh else list(values)
    decision.kind, decision.where, decision._namer = kind, game.programs[fr.proc].lines[pc], namer
    env = fr.env
    decision.secret = fr.secret or ("$secret" in env and env["$secret"] != 0)
    return NOTHING


def _zones_of(st, value) -> list:
    """The zones holding the cards in `value` (a card, or a list, pair or map holding
    cards: values.cards_in)."""
    return [z for c in cards_in(st.game.cards, value) if (z := st.loc.get(c)) is not None]


class _Nothing:
    __slots__ = ()

    def __repr__(self):
        return "NOTHING"


NOTHING = _Nothing()


def run(st, action=NOTHING, finish_when_done: bool = True) -> None:
    """Run until a decision is pending or the game is over.

    With `action`, the pending decision is answered first: this is State.apply
    (an Option of the decision, its label or its index; anything else is refused,
    saying why: IllegalAction), one call per decision where apply calling run made two.

    The usual game (no trace watching each instruction, no chance nodes to put an
    instruction back for) runs here; the others in _run_stepped. The same
    instructions, end checks, step budget and clock in the same order; this loop
    differs in running a program's `fast` forms (fused, straight-line and linked
    instructions, Program.finish), in looking a frame's program up once while that
    frame stays on top (Program.loop), and in looking at the budget and the clock in one test, every
    1,024 steps or at the budget."""
    if action is not NOTHING:   # State.apply: the answer put where the asking instruction takes it
        decision = st.pending
        # an Option of this very decision, or an index of it, is taken without its
        # labels (an agent picking by index never pays for them); anything else by
        # its label (State._index_of). A game with a decision pending is never over
        # (State.finish clears it, a save holding both is refused: state._check_flow)
        if action.__class__ is Option and action._decision is decision and decision is not None:
            index = action.index
        elif action.__class__ is int and decision is not None and 0 <= action < len(decision.values):
            index = action
        else:
            index = st._index_of(action)
        value = decision.values[index]
        if st.events is not None:     # labels are made only when read (Decision)
            st.record("decision", player=decision.player, label=decision.labels[index],
                      secret=decision.secret)
        st.pending = None
        st.decisions += 1
        st.stack[-1].env[IN] = value
    elif st.pending is not None or st.over:
        return      # nothing runs: a decision waits, or the game is over
    if st.trace is not None or st.explicit is not None or st.staged:
        # (a scenario staging a position checks no end condition: the per-statement
        # run does that, so this loop checks them with no test of its own)
        _run_stepped(st, finish_when_done)
        return
    game = st.game
    programs = game.programs
    stack = st.stack
    steps = 0
    look = game.first_look   # the next step count at which to look (1,024, or past the budget)
    # start_meter, on the same clock read, written in place: the list's last item
    # is already the game's limits' seconds (start_meter put it there)
    meter = game.meter
    meter[0] = 0
    meter[1] = METER_CHUNK
    meter[2] = monotonic() + meter[3]
    fr = program = None
    try:
        # nothing is pending here (a decision that waits returns at once), and a
        # game that ends clears the stack (State.finish)
        while stack:
            fr = stack[-1]
            program = programs[fr.proc]
            code, size, end_checks = program.loop
            pc = fr.pc
            if pc >= size:      # the frame is over
                stack.pop()
                if program.exit_checks and not st.over and _at_boundary(programs, stack):
                    _check_end(st, program.exit_checks, None)
                continue
            while True:     # this frame's instructions, until it is left or a decision waits
                fr.pc = pc + 1
                code[pc](st, fr)
                if end_checks is not None:
                    checks = end_checks[pc]
                    if checks and not st.over:
                        _check_end(st, checks, None)
                steps += 1
                if steps >= look:
                    budget = game.step_budget
                    if steps > budget:
                        raise LimitError(_budget_message(st, budget))
                    if not steps & 1023 and monotonic() > meter[2]:   # the clock, every 1,024 steps
                        raise LimitError(f"the game ran {game.bounds.seconds:g} seconds without asking "
                                         f"anyone anything (limits: seconds): a loop that never ends?")
                    look = min((steps | 1023) + 1, budget + 1)
                if st.pending is not None:
                    return      # a decision waits: the stack holds its frame, nothing to finish
                if not stack or stack[-1] is not fr:
                    break
                pc = fr.pc
                # the frame is over: as above, written out twice on purpose (one helper
                # for both cost +0.39% instructions a decision, measured in round 10)
                if pc >= size:
                    stack.pop()
                    if program.exit_checks and not st.over and _at_boundary(programs, stack):
                        _check_end(st, program.exit_checks, None)
                    break
        if not stack and not st.over and finish_when_done:
            st.finish("the flow ended")
    except GameEnded:   # the stack is cleared: nothing runs on
        return
    except OSError:     # a full disk under a log writer: not the rules' fault
        raise
    except Exception as e:   # noqa: BLE001 — any fault of a rule, said in words (faults.py)
        env = fr.env if fr is not None else None
        quiet = _failing_quiet(e)
        if quiet is not None:
            program, pc, env = programs[quiet[0]], quiet[1], quiet[2]
        elif program is not None and pc < len(program.fast):
            program, pc, env = _failing_at(programs, program, pc, env, e)
        raise faults.explain(e, st, program, pc, env) from None


def _run_stepped(st, finish_when_done: bool) -> None:
    """`run` one instruction of `code` at a time, each watched (trace) and each
    put back when a random event waits for an explicit chance outcome."""
    # The change observer snapshots the state here, so changes made between
    # two runs (an answer stored by apply) are credited to the next instruction.
    watch = Watcher(st) if st.trace is not None else None
    game = st.game
    programs, budget = game.programs, game.step_budget
    stack = st.stack
    ends = not st.staged    # a scenario staging a position checks no end condition
    steps = 0
    deadline = monotonic() + game.bounds.seconds
    start_meter(game)
    fr = program = None
    pc = 0
    explicit = st.explicit    # chance nodes (chance.py): each instruction may be put back
    kept = None
    try:
        while stack and st.pending is None and not st.over:
            fr = stack[-1]
            program = programs[fr.proc]
            pc = fr.pc
            if pc >= len(program.code):
                stack.pop()
                if program.exit_checks and ends and not st.over and _at_boundary(programs, stack):
                    _check_end(st, program.exit_checks, watch)
                continue
            if explicit is not None:
                kept = chance.keep(st) if chance.may_stop(game, program, pc) else None
            fr.pc = pc + 1
            program.code[pc](st, fr)
            if explicit is not None:
                explicit.answers.clear()
                explicit.used = 0
            if watch is not None:
                watch.after(program, pc)
            checks = program.end_checks[pc]
            if checks and ends and not st.over:
                _check_end(st, checks, watch)
            steps += 1
            if steps > budget:
                raise LimitError(_budget_message(st, budget))
            if not steps & 1023 and monotonic() > deadline:   # the clock, every 1,024 steps
                raise LimitError(f"the game ran {game.bounds.seconds:g} seconds without asking "
                                f"anyone anything (limits: seconds): a loop that never ends?")
        if not stack and not st.over and finish_when_done:
            st.finish("the flow ended")
            if watch is not None:
                watch.flow_ended()
    except chance.ChanceNeeded as need:   # a random event waits: the instruction runs again
        if kept is None:
            raise AssertionError(f"chance at {program.key}:{pc}, judged chance-free") from None
        chance.put_back(st, kept, need)
    except OSError:     # a closed pipe or full disk under a trace printer: not the rules' fault
        raise
    except Exception as e:   # noqa: BLE001 — any fault of a rule, said in words (faults.py)
        raise faults.explain(e, st, program, pc, fr.env if fr is not None else None) from None



def _failing_at(programs, program, pc, env, error) -> tuple:
    """(program, pc, env) of the instruction whose statement raised `error`, run by
    the loop as instruction `pc` of `program` in a frame whose locals are `env`: for
    a linked form (Program.link) that raised in the instruction it went on into, that
    one's (a `then` entry (code, line, at, cell[, key]) with a program key says that
    instruction is that program's, run in the frame the form made, its local
    `frame`); for a straight-line function, the one its failing generated line
    stands for (so the error is placed and explained as the per-statement run
    would), else `pc` itself."""
    instruction = program.fast[pc]
    tb = error.__traceback__
    while tb is not None:
        for code, line, at, cell, *into in getattr(instruction, "then", ()):
            if tb.tb_frame.f_code is code and tb.tb_lineno == line:
                instruction, pc = cell[0], at
                if into:
                    program, env = programs[into[0]], tb.tb_frame.f_locals["frame"].env
                break
        tb = tb.tb_next
    return program, _failing_line(instruction, pc, error), env


def _failing_line(instruction, pc, error) -> int:
    """The pc a straight-line function's failing generated line stands for, else pc."""
    pcs = getattr(instruction, "pcs", None)
    if pcs is None:
        return pc
    code, line = instruction.__code__, None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is code:
            line = tb.tb_lineno
        tb = tb.tb_next
    return pcs.get(line, pc)


def _failing_quiet(error):
    """(program key, pc, env) of the statement of a quiet procedure (compile.py's
    plan_quiet) that raised `error`, the innermost such; None if none did."""
    found = None
    tb = error.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        if code.co_name.startswith("_quiet"):
            fn = frame.f_globals.get(code.co_name)
            fn = getattr(fn, "__wrapped__", fn)    # quiet_exit's wrapper may stand in its place
            if fn is not None and getattr(fn, "__code__", None) is code:
                found = (fn.program, fn.pcs.get(tb.tb_lineno, 0), _quiet_env(fn, frame.f_locals))
        tb = tb.tb_next
    return found


def _quiet_env(fn, local) -> dict | None:
    """The env of quiet function `fn` whose frame's locals are `local`: its own, or
    for one written without env (compile.py's env_free) the locals that have a value,
    as env would hold them (every store into a local was written to both)."""
    names = getattr(fn, "env_locals", None)
    if names is None:
        return local.get("env")
    return {name: local[ident] for name, ident in names if ident in local}


@functools.lru_cache(maxsize=None)
def call_lines(code, name) -> list:
    """The lines of `code` that load variable `name` (a local or a free one), in
    order: the last is where a linked form calls the instruction it goes on into
    (its `then`, read by _failing_at)."""
    return sorted({i.positions.lineno for i in dis.get_instructions(code)
                   if i.opname in ("LOAD_DEREF", "LOAD_FAST") and i.argval == name})


def jump_link(target, pc):
    """Program.link's maker for the jump at pc to target[0]: the jump and the
    instruction there, as one."""
    def make(form, go, ahead):
        then = go(target[0]) if ahead == (target[0] > pc) else None
        if then is None:
            return None
        to = target[0] + 1

        def jump_on(st, fr):
            fr.pc = to
            then(st, fr)
        jump_on.then = [(jump_on.__code__, call_lines(jump_on.__code__, "then")[-1], target[0], [then])]
        return jump_on
    return make


class Suspended(list):
    """What a quiet procedure's function (compile.py) returns when it stopped at a
    decision: the frames of the quiet procedures it was in, the innermost first,
    each at the instruction to go on from, as the per-statement run would have them
    on the stack. No rule value is of this class."""
    __slots__ = ()


def straight_look(st, steps: int) -> None:
    """A `while` in straight-line code has gone round `steps` times: the step budget
    and the clock stop it as they stop the run loop."""
    game = st.game
    if steps > game.step_budget:
        raise LimitError(_budget_message(st, game.step_budget))
    if monotonic() > game.meter[2]:    # start_meter's deadline for this decision
        raise LimitError(f"the game ran {game.bounds.seconds:g} seconds without asking "
                         f"anyone anything (limits: seconds): a loop that never ends?")


class GameEnded(Exception):
    """The game ended at a quiet procedure's end (quiet_exit): the sampled run
    stops what called it, as the per-statement run stops with the stack cleared."""


_NEVER = object()    # what no function returns


def quiet_exit(fn, checks, unfired=_NEVER):
    """Quiet procedure or trigger function `fn` with the end conditions its frame's
    end would check (Program.exit_checks), checked where the frame's end would check
    them: not while an action or trigger runs beneath it, on the stack or, `inside`,
    as a quiet action's or trigger's function (compile.py) that called it. unfired:
    what a trigger's function returns where its `when` does not hold (None), whose
    frame is dropped with nothing checked (game._fires)."""
    def call(st, secret, inside, *args):
        result = fn(st, secret, inside, *args)
        if result.__class__ is Suspended:   # its frame is not over
            return result
        if result is unfired:
            return result
        if not inside and not st.staged and not st.over and _at_boundary(st.game.programs, st.stack):
            _check_end(st, checks, None)
            if st.over:
                raise GameEnded
        return result
    call.__wrapped__ = fn    # _failing_quiet finds fn's statements through the wrapper
    return call


def _budget_message(st, budget) -> str:
    message = (f"the game ran {budget:,} steps without asking anyone anything (limits: steps): "
               f"a loop that never ends? (If the rules really need more between two decisions, "
               f"raise it: `limits: {{steps: {budget * 10}}}`)")
    if st.skipped is not None:
        who, file, line, col = st.skipped
        message += (f" The last turn passed was {who}'s at {file}:{line}:{col}: no action "
                    f"of that `turn` was legal")
    return message


def skip_turn(st, player, where, fallback: bool) -> None:
    """A `turn` in which `player` has no legal action: say so (trace and log),
    and remember it for the step budget's message. where: (file, line, col)."""
    who = st.game.seat_name(int(player))
    st.skipped = (who, *where)
    if st.trace is not None:
        tell(st, "pass", who, "its `else` runs" if fallback else "passes", seat=int(player))


def _at_boundary(programs, stack) -> bool:
    """A block just finished: is it a rule boundary, i.e. not part of an action
    or trigger still running beneath it?"""
    for frame in stack:
        if programs[frame.proc].atomic:
            return False
    return True


def _check_end(st, checks, watch) -> None:
    for name, cond in checks:
        try:
            holds = cond(st, {})
        except Exception as e:   # noqa: BLE001 — said in words, at the condition
            raise faults.explain_expression(e, st, cond, {}, f"end condition {name}") from None
        if holds:
            st.finish(name)
            if watch is not None:
                watch.ended(name)
            return


def guarded(fn, what: str, number: bool = False):
    """fn(state, env) evaluated outside the run loop (a score, tie-break, invariant,
    heuristic, scenario check), the one way such an expression is evaluated: any
    fault becomes a located RuleError in words naming `what` ("scoring score"), as
    in the run loop (faults.py); with `number`, so does a result that is not a
    finite number (a score of none, or of text). Keeps fn's node, mark and scope."""
    def evaluate(st, env):
        start_meter(st.game)
        try:
            value = fn(st, env)
        except Exception as e:   # noqa: BLE001 — any fault of a rule, said in words
            raise faults.explain_expression(e, st, fn, env, what) from None
        if number and not (type(value) in (int, bool) or (type(value) is float and value - value == 0)):
            raise faults.explain_expression(RuleError(f"{what} must be a number, not "
                                                      f"{faults.show(value, st)}"), st, fn, env, what)
        return value
    for attr in ("node", "mark", "scope"):
        if hasattr(fn, attr):
            setattr(evaluate, attr, getattr(fn, attr))
    return evaluate
