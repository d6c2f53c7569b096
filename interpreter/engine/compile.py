"""AST -> programs, once, when a game loads.

Each statement method of `Compiler` is named after the grammar alias (and AST
`rule`) it compiles and appends instructions `f(state, frame)` to a Program.
Expressions become one generated function each (codegen.py, `src_<rule>`),
and so do the busiest instructions: procedure calls, if/while tests, and
assignments to a variable (`_generated_store`; an item of a list or map keeps
its closure setter). The two expression methods left here, `call` with keyword
arguments and `comprehension` around one, are the closures codegen falls back
on.
"""
from __future__ import annotations

import operator
import re

from rulespec import ast, effects
from rulespec.builtins import LAZY

from rulespec.errors import RuleError
from rulespec.kinds import AUCTION, NOTHING as NOTHING_KIND, NUMBER, _item, list_of
from rulespec.limits import check_number
from .flow import IN, NOTHING, RET, Decision, Frame, Program, Suspended, ask, call_lines, jump_link, skip_turn, straight_look
from .flow import _at_boundary as at_boundary, _check_end as check_end
from .functions import FUNCTIONS, _items, int_range, seat as _seat
from .quiet_locals import DECISIONS as _DECISIONS, QuietLocals
from .values import Seat, display, sort_key as _key

new_object = object.__new__    # a Decision or Frame made as its slots, without a call of __init__
ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul,
         "//": operator.floordiv, "%": operator.mod}


def _count(n):
    """How many `choose N of` picks: a whole number 0 or more, else RuleError (a
    negative count asked nothing, silently)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise RuleError(f"cannot choose {display(n)} of a list: the count is a whole number, 0 or more")
    return n


class Compiler(QuietLocals):
    # A map's or list's item stored by generated code (_item_store_lines), not by
    # closures; off only where a test compares games with it and without it.
    item_stores = True
    # A quiet function's locals read from Python locals (quiet_locals.py), each store
    # written to both, so env stays exact for whatever reads it (frames made where it
    # stops, closures, errors); off only where a test compares games with it and without it.
    quiet_locals = True
    # A quiet function's local stored at one place alone is proven what that store's
    # value is (quiet_locals.py `_carry_once`); off only where a test compares games
    # with it and without it.
    once_proofs = True
    # A sampled turn with one legal option (no real choice) takes it and goes on in
    # the same call, where the run loop would run the turn again with it next, nothing
    # checked between (_turn_form); off only where a test compares games with it and without it.
    one_option_here = True
    # A quiet procedure's or action's function that cannot stop at a decision and gives
    # its env to nothing (no closure reads it, no local is read where it may have no
    # value: the text names no `env`) keeps its locals in Python locals alone, with no
    # env made or written (quiet_locals.py; needs quiet_locals); off only where a test
    # compares games with it and without it.
    env_free = True
    # A `phase` statement's sampled form pushes the phase's frame and runs the phase's
    # first instruction in the same call (_phase_link), as the run loop would next;
    # off only where a test compares games with it and without it.
    phase_links = True

    def __init__(self, game, names):
        self.game = game
        self.names = names
        self.program: Program | None = None
        self.file = game.file
        self.mark = None
        self._temp = 0
        self.scope = set()
        # None: compile no straight-line forms (the game's `straight` switch is off)
        self.straight_lines = [] if getattr(game, "straight", True) else None
        self.source = None      # codegen.ExpressionSource, made on first use
        # quiet procedures (plan_quiet): name -> the generated name of the function that
        # runs the whole body, called directly by straight-line code
        self.quiet: dict[str, str] = {}
        self._in_quiet = False  # writing a quiet procedure's function, not a frame's
        self._spans: dict = {}  # id(statement) -> (its first pc, the pc after it)
        self.asking: set = set()   # quiet procedures that may ask (and so stop: Suspended)
        # quiet actions: name -> the generated name of the function the turn calls
        # (plan_quiet), and name -> that function once written (write_quiet)
        self.quiet_actions: dict[str, str] = {}
        self.action_functions: dict = {}
        # quiet triggers: name -> the generated name of the function a quiet `signal`
        # calls (plan_quiet); their `when` functions, given to write_quiet
        self.quiet_triggers: dict[str, str] = {}
        self._quiet_key = None     # the program key of the quiet procedure being written
        self._for_keys: dict = {}  # id(for statement) -> its frame's loop key ("$for3")
        self._menu_targets: dict = {}  # id(menu) -> its options' first pcs (cells)
        # id(assignment) -> f(state, env): one whose target generated code cannot
        # write (a map's or list's item), as its closures do it
        self._env_forms: dict = {}
        self._suspends = False     # the lines being written may suspend at a decision
        # the loops open around the lines being written that may suspend: (loop key,
        # items name, index name), filled in env where they stop (_stop_lines)
        self._loops: list = []
        self._secret_loops = 0     # `secretly for` loops the lines being written are in
        # writing a quiet function with quiet_locals: local name -> its Python local, for
        # the locals that surely hold env's value at the line being written (assigned on
        # every path there, through the lines' own stores); None otherwise
        self._synced: dict | None = None
        # the locals the quiet function being written stores into at one place alone
        self._once: frozenset | set = frozenset()
        # writing a quiet function without env (env_free); whether its calls keep a
        # procedure's value for a later `x = procedure(...)` as env does (_quiet_call)
        self._env_free = False
        self._stale_ret = False
        # procedures with a `return` (plan_quiet): any other's function returns
        # NOTHING (or Suspended), so a call of it leaves no value in env
        self._returning: set | None = None
        # id(statement) -> the locals surely given a value when it starts (rulespec.
        # definite.assigned_before), set per rule by its caller; what the statement
        # being compiled has: a frame standing at its decision or call holds them
        self.assigned: dict = {}
        self._have = None

    # ------------------------------------------------------------- plumbing
    def where(self, node):
        return (self.file, self.mark(node.line, node.col)[0] if self.mark else node.line)

    def temp(self, stem: str) -> str:
        self._temp += 1
        return f"${stem}{self._temp}"

    def expr(self, node, scope):
        """An expression as f(state, env): generated Python (codegen.py) where it can be."""
        return self._source().function(node, scope)

    def candidates(self, var, items, when, scope):
        """An action's legal bindings as f(state, player), or None (see codegen)."""
        return self._source().candidates(var, items, when, scope)

    def know_functions(self, trees: dict) -> None:
        """Tell the code generator every spec function's body ({name: tree}) before
        any is compiled (which of them are pure: codegen `know_functions`)."""
        self._source().know_functions(trees)

    def label_function(self, node, scope, var):
        """An action's label as f(state, player, value), or None (see codegen)."""
        return self._source().label_function(node, scope, var)

    def spec_function(self, name, node, scope):
        """A spec function as f(state, *args)."""
        return self._source().spec_function(name, node, scope)

    def _source(self):
        if self.source is None:
            from .codegen import ExpressionSource
            self.source = ExpressionSource(self)
        return self.source

    def block(self, stmts, scope):
        self.scope = scope    # for rulespec.effects: which names are locals
        # straight statements in a row: [first pc, lines, pcs, compound statements, the
        # pc after, whether its last statement may suspend]; the first is the run from
        # its start, each other the rest of it after a statement that may stop at a
        # decision, where a frame goes on when answered (so its rest is one function,
        # not one turn of the run loop per statement, a procedure's frame per call)
        runs = []
        for stmt in stmts:
            start = self.here()
            self._have = self.assigned.get(id(stmt))
            getattr(self, stmt.rule)(stmt, scope)
            self.scope = scope
            self._spans[id(stmt)] = (start, self.here())
            if self.straight_lines is None:
                continue
            written = self._written(stmt, scope, start)
            if written is None:
                for run in runs:
                    self._straight(run)
                runs = []
                continue
            if stmt.rule in _COMPOUND:   # alone too: Program.finish may refuse the run
                self._straight([start, written[0], written[1], 1, self.here(), written[2]])
            if not runs and stmt.rule == "turn" and stmt.until_done:
                # no run starts at a turn that asks again after each action: its answers
                # resume there, and its own form (linked on into the run after it) does
                # less per answer than a run that calls it and returns
                continue
            # a decision of this block is answered at its own instruction: a run starts
            # there (the decision takes the answer and the run goes on), not after it
            asks = stmt.rule in _DECISIONS or stmt.rule == "menu" or stmt.rule == "turn" and not stmt.until_done
            if not runs or (runs[-1][5] or asks) and len(runs) < RESUMED_RUNS:
                runs.append([start, [], [], 0, 0, False])
            for run in runs:
                run[1] += written[0]
                run[2] += written[1]
                run[3] += stmt.rule in _COMPOUND or self._calls_procedure(stmt)
                run[4] = self.here()
            runs[-1][5] = written[2] and not asks
        for run in runs:
            self._straight(run)

    # ------------------------------------------------------- straight lines
    def _calls_procedure(self, stmt) -> bool:
        """A call of a (quiet) procedure, or a signal whose triggers are quiet: worth a
        straight function on its own, which calls them without a frame."""
        if stmt.rule == "signal":
            keys = self._signal_keys(stmt)
            return bool(keys) and all(self._quiet_trigger(k) for k in keys)
        call = stmt.call if stmt.rule == "call_stmt" else getattr(stmt, "value", None)
        return isinstance(call, ast.Call) and call.func in self.names.procedures

    def _written(self, stmt, scope, start):
        """(lines, pcs) of `stmt` (instructions start..here) as Python with its own
        `for` and `if`, when nothing in it can ask anyone, start a rule that may,
        end the game or loop without end; else None."""
        lines, pcs = [], []
        self._suspends, self._loops = False, []
        try:
            end = self._lines(stmt, scope, start, 0, lines, pcs)
        except NotStraight:
            return None
        if end != self.here():
            raise AssertionError(f"straight lines of line {stmt.line} end at {end}, not {self.here()}")
        return lines, pcs, self._suspends

    def _straight(self, run) -> None:
        """Offer the program a run of straight statements [start, lines, pcs, compound,
        end, suspends] (instructions start..end-1) as one generated function
        (Program.finish decides whether to use it), when it stands for two
        instructions or more. One that may suspend at a decision returns there: the
        frames of the quiet procedures it was in are on the stack (Suspended)."""
        if run is None:
            return
        start, lines, pcs, compound, end, suspends = run
        if end == start:    # `pass`: no instruction
            return
        single = end - start < 2 and not compound   # Program.finish uses it where it links
        # it goes on into the next instruction when Program.finish links it (then[0])
        then = [None]
        name = self._source().fresh("then", then)
        lines = lines + [f"fr.pc = {end}", f"if {name}[0] is not None:",
                         f"    fr.pc = {end + 1}", f"    {name}[0](st, fr)"]
        first = 3
        try:
            fn = self._source().statement(lines, (self.program.lines[start][1], None))
        except (SyntaxError, RecursionError, MemoryError):   # past what Python compiles: keep the steps
            return
        # faults: the generated line an exception came from -> the instruction it stands for
        fn.pcs = dict(enumerate(pcs + [pcs[-1]] * 3, start=first))
        fn.straight, fn.single = True, single
        fn.then = [(fn.__code__, first + len(pcs) + 3, end, then)]
        self.program.straight.append((start, end, fn))

    def _lines(self, stmt, scope, pc, depth, lines, pcs) -> int:
        """Python lines for `stmt`, whose first instruction is `pc`; returns the pc
        after its instructions. Raises NotStraight for a statement it cannot write."""
        if depth > STRAIGHT_DEPTH:
            raise NotStraight
        source, pad = self._source(), "    " * depth
        rule = stmt.rule
        if self._synced is not None:    # the locals its expressions read as Python locals
            source.locals = dict(self._synced)
        if rule in ("assign", "aug_assign"):
            if isinstance(stmt.value, ast.Call) and stmt.value.func in self.names.procedures:
                if rule == "aug_assign":
                    raise NotStraight
                return self._quiet_assign(stmt, scope, pc, pad, lines, pcs)
            body = self._store_lines(stmt, stmt.value, stmt.op[0] if rule == "aug_assign" else None, scope)
            if body is None and id(stmt) in self._env_forms:
                body = [f"{source.fresh('store', self._env_forms[id(stmt)])}(st, env)"]
                self._unsync(stmt.target, scope)    # its closure stores into env alone
            if body is None:
                raise NotStraight
            self._add(lines, pcs, [pad + line for line in body], pc)
            return pc + 1
        if rule == "call_stmt":
            if stmt.call.func in self.names.procedures:
                self._call_pc = pc
                self._add(lines, pcs, [pad + line for line in self._quiet_call(stmt.call, scope)], pc)
                return pc + 1
            first, call = source.lowered(stmt.call, scope)
            self._add(lines, pcs, [pad + line for line in first + [call]], pc)
            return pc + 1
        if rule == "pass_":
            return pc
        if rule == "signal":
            self._signal_pc = pc
            self._add(lines, pcs, [pad + line for line in self._signal_lines(stmt, scope)], pc)
            return pc + 1
        if rule == "return_":
            first, value = source.lowered(stmt.value, scope) if stmt.value is not None else ([], "None")
            self._add(lines, pcs, [pad + line for line in first], pc)
            if self._in_quiet:
                self._add(lines, pcs, [f"{pad}return {value}"], pc)
            else:   # as return_'s instruction: the value to the caller, the block ended
                ret = source.const(RET)
                self._add(lines, pcs, [f"{pad}_r = {value}", f"{pad}if len(st.stack) > 1:",
                                       f"{pad}    st.stack[-2].env[{ret}] = _r",
                                       f"{pad}fr.pc = len(st.game.programs[fr.proc].code)",
                                       f"{pad}return"], pc)
            return pc + 1
        if rule == "if_stmt":
            first, cond = source.lowered(stmt.cond, scope)
            self._add(lines, pcs, [pad + line for line in first] + [f"{pad}if {cond}:", f"{pad}    pass"], pc)
            start = self._fork()
            if self._never(stmt.cond):   # a body that never runs: its instructions skipped
                after = self._spans[id(stmt.body[-1])][1] if stmt.body else pc + 1
            else:
                after = self._body(stmt.body, scope, pc + 1, depth + 1, lines, pcs)
            ends = [self._fork()]
            if stmt.orelse:
                self._synced = self._fork(start)
                self._add(lines, pcs, [f"{pad}else:", f"{pad}    pass"], pc)
                after = self._body(stmt.orelse, scope, after + 1, depth + 1, lines, pcs)
            self._join(start if not stmt.orelse else self._fork(), *ends)
            return after
        if rule in ("for_stmt", "secretly"):
            return self._for_lines(stmt, scope, pc, depth, lines, pcs)
        if rule == "while_stmt":
            self._unsync_all(self._drops(stmt.body, scope))   # as at its test's every turn
            source.locals = self._fork() if self._synced is not None else source.locals
            count = source.fresh("n")
            self._add(lines, pcs, [f"{pad}{count} = 0", f"{pad}while {source.source(stmt.cond, scope)}:",
                                   f"{pad}    {count} += 1", f"{pad}    if not {count} & 1023:",
                                   f"{pad}        {source.fresh('look', straight_look)}(st, {count})"], pc)
            # instructions: the test, the body, the jump back
            start = self._fork()
            after = self._body(stmt.body, scope, pc + 1, depth + 1, lines, pcs) + 1
            self._synced = start
            return after
        if rule in _DECISIONS:
            after = self._decision_lines(pc, pad, lines, pcs)
            self._unsync(stmt.target, scope)    # answered at once, its instruction stored it in env
            return after
        if rule == "turn" and not stmt.orelse:
            return self._decision_lines(pc, pad, lines, pcs, turn=True)
        if rule == "menu":
            return self._menu_lines(stmt, scope, pc, depth, lines, pcs)
        raise NotStraight

    def _menu_lines(self, stmt, scope, pc, depth, lines, pcs) -> int:
        """A menu: its instruction (which sets the pc to the chosen option's block),
        then the block the pc names, each ending where the menu's jump to its end
        would go."""
        pad, targets = "    " * depth, self._menu_targets[id(stmt)]
        self._decision_lines(pc, pad, lines, pcs)
        chosen = self._source().fresh("t")
        self._add(lines, pcs, [f"{pad}{chosen} = {self._asked_in}.pc"], pc)
        after = pc + 1
        start, ends = self._fork(), []
        for i, (option, target) in enumerate(zip(stmt.options, targets)):
            self._synced = self._fork(start)
            self._add(lines, pcs, [f"{pad}{'if' if i == 0 else 'elif'} {chosen} == {target[0]}:"], pc)
            after = self._body(option.body, scope, target[0], depth + 1, lines, pcs) + 1
            ends.append(self._fork())
        self._join(start, *ends)
        return after

    def _for_lines(self, stmt, scope, pc, depth, lines, pcs) -> int:
        """A `for` or `secretly for` (instructions: start, step, the body, the jump
        back). One whose body may suspend keeps the frame's loop key in env, where a
        frame's loop keeps it, filled in ([items, next index]) where the body stops
        (_stop_lines). A secret one counts itself in env's "$secret" as for_stmt's
        start and end do, so a decision in it, or a frame made for one, is secret."""
        source, pad = self._source(), "    " * depth
        var, items, index = source.fresh("v"), source.fresh("items"), source.fresh("i")
        key = source.const(self._for_keys[id(stmt)])
        secret = stmt.rule == "secretly"
        # its items read what held before it; its test and body what holds at every
        # turn (its variable just stored, less what the body may store into env alone)
        before, drops = self._fork(), self._drops(stmt.body, scope)
        proof = self._item_proof(stmt, scope)
        if self._synced is not None:
            self._unsync_all(drops)
            var = self._synced[stmt.var] = self._ident(stmt.var)
        turn = self._fork()
        if proof is not None:
            source.proven[var] = proof
        outer, self._suspends = self._suspends, False
        body, body_pcs = [], []
        self._loops.append((key, items, index))
        self._secret_loops += secret
        try:
            after = self._body(stmt.body, scope, pc + 2, depth + 1, body, body_pcs)
        finally:
            self._loops.pop()
            self._secret_loops -= secret
        suspends = self._suspends
        self._suspends = outer or suspends
        source.proven.pop(var, None)     # before the loop, its variable is what it was
        if before is not None:
            source.locals = before
            self._synced = {n: i for n, i in before.items() if n not in drops}
        if (suspends or secret) and source.ranged(stmt.iter) is not None:
            first, iterable = source.lowered(stmt.iter, scope)    # its items a list: kept in env
            iterable = f"list(_items(st, {iterable}))"
        else:   # a range for range(n) (codegen.loop_items); a list (a copy) otherwise
            first, iterable = source.loop_items(stmt.iter, scope)
        first = [pad + line for line in first]
        count = [f"{pad}env['$secret'] = env.get('$secret', 0) + 1"] if secret else []
        if suspends:
            self._add(lines, pcs, [f"{pad}env[{key}] = None", *first, f"{pad}{items} = {iterable}",
                                   *count, f"{pad}{index} = 0", f"{pad}for {var} in {items}:",
                                   f"{pad}    {index} += 1"], pc)
        elif secret:
            self._add(lines, pcs, first + [f"{pad}{items} = {iterable}", *count,
                                           f"{pad}for {var} in {items}:"], pc)
        else:
            self._add(lines, pcs, first + [f"{pad}for {var} in {iterable}:"], pc)
        if not self._env_free:
            self._add(lines, pcs, [f"{pad}    env[{source.const(stmt.var)}] = {var}"], pc + 1)
        if getattr(stmt, "where", None) is not None:
            source.locals = turn if turn is not None else source.locals
            if proof is not None:
                source.proven[var] = proof
            first, where = source.lowered(stmt.where, scope)
            source.proven.pop(var, None)
            self._add(lines, pcs, [f"{pad}    {line}" for line in first]
                      + [f"{pad}    if not ({where}):", f"{pad}        continue"], pc + 1)
        lines.extend(body)
        pcs.extend(body_pcs)
        if suspends:
            self._add(lines, pcs, [f"{pad}del env[{key}]"], after)
        if secret:
            self._add(lines, pcs, [f"{pad}env['$secret'] -= 1"], after)
        return after + 1

    def _stop_lines(self) -> list:
        """Where the lines stop at a decision: each open loop's place, into its key."""
        return [f"    env[{key}] = [{items}, {index}]" for key, items, index in reversed(self._loops)]

    def _decision_lines(self, pc, pad, lines, pcs, turn=False) -> int:
        """A decision (choose one, a number, several, a menu): its own instruction run here.
        When it waits for an answer, the frame it stands in is made (inside a quiet
        procedure: its function has none) and the lines return (Suspended). A `turn`
        (with no `else`) runs its sampled run's form (_turn_form) and returns too
        where it did not end at once (its pc is not the next one: a decision waits,
        or its one option waits to be run by the run loop), and where its action's end
        checks ended the game (the stack cleared: the run loop runs nothing more). In
        a quiet function its frame is new, with no answer: it runs no action there."""
        source = self._source()
        key = self._quiet_key
        program = self.game.programs[key] if key else self.program
        decide = source.fresh("decide", program.swaps[pc] if turn else program.code[pc])
        self._suspends = True
        at = "fr" if key is None else source.fresh("f")
        stop = "if st.pending is not None:"
        if turn:    # a frame's lines: its action may have ended the game
            stop = f"if {at}.pc != {pc + 1} or st.pending is not None{' or st.over' if key is None else ''}:"
        if key is None:
            body = [f"fr.pc = {pc + 1}", f"{decide}(st, fr)", stop, *self._stop_lines(), "    return"]
        else:
            frame = at
            body = [*self._frame_lines(frame, source.const(key), "env", "secret", pc + 1),
                    f"{decide}(st, {frame})", stop, *self._stop_lines(),
                    f"    return {source.fresh('Suspended', Suspended)}([{frame}])"]
        self._add(lines, pcs, [pad + line for line in body], pc)
        self._asked_in = "fr" if key is None else frame   # the frame it ran in, for a menu
        return pc + 1

    def _frame_lines(self, target, key, env, secret, pc) -> list:
        """Lines making `target` what Frame(key, env, secret, pc) makes (texts of
        generated code), as its object and four slots: a frame made where a quiet
        function stops, without a call of Frame.__init__ (see Frame)."""
        source = self._source()
        return [f"{target} = {source.fresh('new', new_object)}({source.fresh('Frame', Frame)})",
                f"{target}.proc, {target}.env, {target}.secret, {target}.pc = {key}, {env}, {secret}, {pc}"]

    def _quiet_call(self, call, scope, assign=False) -> list:
        """Lines calling quiet procedure `call.func`'s function, its return value left
        in env as its `return` leaves it in the caller's frame (see return_) where
        anything may read it there; in a function without env (env_free), in
        `_result` alone. assign: the call of `x = procedure(...)`."""
        name = self.quiet.get(call.func)
        if name is None:
            raise NotStraight
        source = self._source()
        params = self.names.procedures[call.func]
        args = "".join(f", {source.source(a, scope)}" for a in call.args[:len(params)])
        result = self._result = source.fresh("r")
        tail = [f"if {result} is not {source.fresh('nothing', NOTHING)}:",
                f"    env[{source.const(RET)}] = {result}"]
        returns = self._returns(call.func)
        forget = []
        if not returns or self._env_free and (assign or not self._stale_ret):
            # no value to leave, or nothing reads it from env: an assignment takes it
            # from the call, and no later one could find it left there (_stale_ret)
            tail = []
        else:   # an earlier call's value goes first (a call that stops comes back past the tail)
            forget = [f"env.pop({source.const(RET)}, None)"]
        # whether an action or trigger is known to run beneath the call, though not
        # on the stack (a quiet action's function): its end checks wait (quiet_exit)
        inside = self._inside()
        if call.func not in self.asking:
            return forget + [f"{result} = {name}(st, False, {inside}{args})"] + tail
        # it may stop at a decision: the caller's frame goes on after the call (pc + 1)
        self._suspends = True
        key, pc = self._quiet_key, self._call_pc
        # as a call's frame is made (enter): secret in a secret frame or round
        secret = ("secret or bool(env.get('$secret'))" if self._secret_loops else "secret") if key \
            else "fr.secret or bool(env.get('$secret'))"
        if key:
            frame = source.fresh("f")
            stop = ["    " + line for line in self._frame_lines(frame, source.const(key), "env", "secret", pc + 1)]
            stop += [f"    {result}.append({frame})", f"    return {result}"]
        else:
            stop = [f"    fr.pc = {pc + 1}", f"    st.stack.extend(reversed({result}))", "    return"]
        return forget + [f"{result} = {name}(st, {secret}, {inside}{args})",
                         f"if {result}.__class__ is {source.fresh('Suspended', Suspended)}:"] + self._stop_lines() + stop + tail

    def _quiet_assign(self, stmt, scope, pc, pad, lines, pcs) -> int:
        """`target = procedure(...)`: the call (instruction pc), then the store of
        what it returned (pc + 1), as assign's two instructions do."""
        place = self._source().target(stmt.target, scope, self.stored_kind(stmt))
        if place is None:
            raise NotStraight
        self._call_pc = pc
        self._add(lines, pcs, [pad + line for line in self._quiet_call(stmt.value, scope, assign=True)], pc)
        before, where, check = place
        value = f"env.pop({self._source().const(RET)}, None)"
        if self._env_free:   # as env.pop: what it returned, or none
            result, nothing = self._result, self._source().fresh("nothing", NOTHING)
            value = f"({result} if {result} is not {nothing} else None)"
        store = [f"{self._kept(stmt.target, scope, where)} = {check.format(value) if check else value}"]
        self._add(lines, pcs, [pad + line for line in before + store], pc + 1)
        return pc + 2

    def _inside(self) -> str:
        """The `inside` argument of a quiet function called by the lines being written:
        whether an action or trigger is known to run beneath the call, though not on
        the stack (a quiet action's or trigger's function), so its end checks wait
        (quiet_exit); in a quiet procedure, what its own caller said."""
        key = self._quiet_key or ""
        return "True" if key.startswith(("action:", "trigger:")) else ("inside" if key else "False")

    def _quiet_trigger(self, key: str):
        """The generated function's name for the quiet trigger of program key
        "trigger:NAME", or None when that trigger is not quiet."""
        return self.quiet_triggers.get(key.removeprefix("trigger:"))

    def _signal_keys(self, stmt) -> list:
        """The program keys of the triggers a `signal` starts, in declared order."""
        return ["trigger:" + t for t in self.game.triggers_on.get(stmt.name, [])]

    def _signal_lines(self, stmt, scope) -> list:
        """Lines for `signal`, where each of its triggers is quiet: its values made as
        signal's instruction makes them (every argument, then every keyword), then
        each trigger's function called in declared order with its own copy, as its
        frame would run on top of the sender's, one after the other (over the frames
        of those after it: only the last's end checks its end). One that stops
        at a decision leaves its frames, then those of the triggers not yet run (at
        their start), then the sender's after the signal, as signal's instruction and
        the run loop leave them."""
        keys = self._signal_keys(stmt)
        if not all(self._quiet_trigger(k) for k in keys):
            raise NotStraight
        source = self._source()
        params = self.names.signals[stmt.name]
        lines, held = [], []
        for arg in list(stmt.args) + list(stmt.kwargs.values()):
            first, value = source.lowered(arg, scope)
            held.append(source.fresh("a"))
            lines += first + [f"{held[-1]} = {value}"]
        values = source.fresh("sv")
        lines.append(f"{values} = {{{', '.join(f'{source.const(p)}: {h}' for p, h in zip(params, held))}}}")
        lines += [f"{values}[{source.const(k)}] = {h}" for k, h in zip(stmt.kwargs, held[len(stmt.args):])]
        key = self._quiet_key
        secret, inside = ("secret" if key else "fr.secret"), self._inside()
        frame = source.fresh("Frame", Frame)
        for i, trigger in enumerate(keys):
            result = source.fresh("r")
            # the frames of the triggers after it lie beneath its frame: they are part
            # of a trigger still running, so its end checks wait (flow._at_boundary)
            under = inside if i == len(keys) - 1 else "True"
            call = self._quiet_trigger(trigger)
            lines.append(f"{result} = {call}(st, {secret}, {under}, dict({values}))")
            if trigger not in self.asking:
                continue
            self._suspends = True
            rest = ", ".join(f"{frame}({source.const(k)}, dict({values}), {secret})" for k in keys[i + 1:])
            lines += [f"if {result}.__class__ is {source.fresh('Suspended', Suspended)}:", *self._stop_lines()]
            lines += [f"    {result}.extend([{rest}])"] if rest else []
            if key:
                lines += [f"    {result}.append({frame}({source.const(key)}, env, secret, {self._signal_pc + 1}))",
                          f"    return {result}"]
            else:
                lines += [f"    fr.pc = {self._signal_pc + 1}", f"    st.stack.extend(reversed({result}))",
                          "    return"]
        return lines

    def plan_quiet(self, bodies: dict, prepare, actions: dict | None = None,
                   triggers: dict | None = None) -> None:
        """Find the quiet procedures (bodies: name -> statements): those that can
        ask no one, start no rule that may, loop without end or call themselves
        (a block under an `if` on a constant that is false does not count). Straight
        lines call them directly, as one generated function each (write_quiet).
        Triggers (name -> statements) are quiet alike, with no `return` (whose value
        lands in the frame beneath it); a `signal` whose triggers all are is written
        as calls of their functions. prepare(key) readies the compiler for that
        procedure's ("proc:NAME"), action's ("action:NAME") or trigger's
        ("trigger:NAME") text and returns its scope. actions: name -> statements of
        the actions, whose quiet ones a `turn` runs as functions. Call before
        compiling any program."""
        self._returning = {n for n, b in bodies.items()
                           if any(isinstance(node, ast.Return) for s in b for node in ast.walk(s))}
        # procedures by name, triggers by program key ("trigger:NAME": no procedure's)
        bodies = {**bodies, **{"trigger:" + n: b for n, b in (triggers or {}).items()
                               if not any(isinstance(node, ast.Return) for s in b for node in ast.walk(s))}}
        scopes = {name: prepare(name if name.startswith("trigger:") else "proc:" + name) for name in bodies}
        quiet, grown = {}, True
        while grown:    # a procedure is quiet once everything it calls is
            grown = False
            for name, body in bodies.items():
                self.scope = scopes[name]
                if name not in quiet and all(self._may_be_quiet(s, quiet, 0) for s in body):
                    quiet[name] = None
                    grown = True
        asking, grown = set(), True
        while grown:    # one that may ask, or calls one that may
            grown = False
            for name in quiet:
                self.scope = scopes[name]
                if name not in asking and self._may_ask(bodies[name], asking):
                    asking.add(name)
                    grown = True
        source = self._source()
        self.quiet = {name: source.fresh("quiet") for name in quiet if not name.startswith("trigger:")}
        self.quiet_triggers = {name.removeprefix("trigger:"): source.fresh("quiet")
                               for name in quiet if name.startswith("trigger:")}
        self.asking = asking
        for name, body in (actions or {}).items():
            self.scope = prepare("action:" + name)
            if all(self._may_be_quiet(s, quiet, 0) for s in body):
                self.quiet_actions[name] = source.fresh("quiet")
        self.scope = set()

    def _may_ask(self, stmts, asking) -> bool:
        """Whether statements of a quiet procedure may ask someone (_may_be_quiet's)."""
        for stmt in stmts:
            rule = stmt.rule
            if rule in _DECISIONS or rule in ("menu", "turn"):
                return True
            call = stmt.call if rule == "call_stmt" else getattr(stmt, "value", None)
            if isinstance(call, ast.Call) and call.func in asking:
                return True
            if rule == "signal" and any(k in asking for k in self._signal_keys(stmt)):
                return True
            if rule == "if_stmt":
                if self._may_ask(stmt.orelse, asking) or (
                        not self._never(stmt.cond) and self._may_ask(stmt.body, asking)):
                    return True
            elif rule in ("for_stmt", "while_stmt", "secretly") and self._may_ask(stmt.body, asking):
                return True
        return False

    def write_quiet(self, bodies: dict, prepare, actions: dict | None = None,
                    triggers: dict | None = None) -> None:
        """Write plan_quiet's functions, after every program is compiled (their lines
        stand for the procedures' instructions). prepare(name) readies the compiler
        for that procedure's text and returns its scope. triggers: name ->
        (statements, its `when` as f(state, env) or None). Raises SyntaxError,
        RecursionError or MemoryError for a body past what Python compiles, and
        NotStraight for one plan_quiet misjudged."""
        self._in_quiet = True
        try:
            for key, name, ident, body in (
                    [("proc:" + n, n, i, bodies[n]) for n, i in self.quiet.items()]
                    + [("action:" + n, n, i, actions[n]) for n, i in self.quiet_actions.items()]
                    + [("trigger:" + n, n, i, triggers[n]) for n, i in self.quiet_triggers.items()]):
                self.scope = prepare(key)
                self._quiet_key = key
                self._quiet_function(key, ident, body, self.scope)
            ns = self._source().ns
            self.action_functions.update({n: ns[i] for n, i in self.quiet_actions.items()})
        finally:
            self._in_quiet, self._quiet_key = False, None

    def _may_be_quiet(self, stmt, quiet, depth) -> bool:
        """Whether `_lines` writes `stmt`, given the procedures known quiet so far."""
        rule, procedures = stmt.rule, self.names.procedures
        if depth > STRAIGHT_DEPTH:
            return False
        if rule in ("assign", "aug_assign"):
            target, value = stmt.target, stmt.value
            if not isinstance(value, ast.Call) or value.func not in procedures:
                return True     # an item of a map or list: its closures (_env_forms)
            return rule == "assign" and value.func in quiet and (
                isinstance(target, ast.Name) or isinstance(target, ast.Attr) and (
                    target.name in self.names.per_player or target.name in self.names.per_card))
        if rule == "call_stmt":
            return stmt.call.func not in procedures or stmt.call.func in quiet
        if rule in ("pass_", "return_") or rule in _DECISIONS:
            return True
        if rule == "signal":    # its triggers run as functions (_signal_lines)
            return all(k in quiet for k in self._signal_keys(stmt))
        if rule == "turn":     # its actions run where it is answered, by the run loop
            return not stmt.orelse
        if rule == "menu":
            return all(self._may_be_quiet(s, quiet, depth + 1) for o in stmt.options for s in o.body)
        if rule in ("if_stmt", "for_stmt", "while_stmt", "secretly"):
            body = stmt.body + (stmt.orelse if rule == "if_stmt" else [])
            if rule == "if_stmt" and self._never(stmt.cond):
                body = stmt.orelse
            return all(self._may_be_quiet(s, quiet, depth + 1) for s in body)
        return False

    def _never(self, cond) -> bool:
        """Whether test `cond` is false whatever the state: false, none, a constant
        of the spec that is false or none, or an `and` of which one part is."""
        if isinstance(cond, ast.Const):
            return cond.value is False or cond.value is None
        if isinstance(cond, ast.Name):
            kind, value = self.names.resolve(cond.id, set(self.scope))
            return kind == "constant" and (value is False or value is None)
        if isinstance(cond, ast.And):
            return any(self._never(item) for item in cond.items)
        return False

    def _quiet_function(self, key, ident, body, scope) -> None:
        """The whole body of quiet procedure, action or trigger `key` ("proc:NAME") as
        a generated function f(state, secret, inside, *params) (secret: its frame's,
        see Frame; inside: an action's or trigger's function runs beneath it, which
        the stack does not show, see quiet_exit; params: a procedure's arguments, an
        action's player and value, a trigger's env), bound under `ident`. It returns what its
        `return` gives, NOTHING when it ends without one. A trigger's (body given as
        (statements, when)) first does its frame's first instruction (game._fires):
        it returns None where `when` does not hold, else counts the firing. Its lines
        stand for the instructions of the key's program as `_lines` counts them
        (block checks the count as it compiles). One without env (env_free) carries
        its locals' names (`env_locals`: ((name, Python local), ...)), from which the
        error path makes the env it evaluates a failing statement in; None otherwise."""
        free = (self.env_free and self.quiet_locals and not key.startswith("trigger:")
                and not self._may_ask(body, self.asking))
        text, pcs, names = self._quiet_text(key, ident, body, scope, free)
        if free and _ENV.search(text):    # something reads env after all: write it
            text, pcs, names = self._quiet_text(key, ident, body, scope, False)
            free = False
        source = self._source()
        from .codegen import literals
        code = compile(literals(text, source.ns), f"<rulespec {key}>", "exec")
        exec(code, source.ns)  # noqa: S102 — source built only from generated identifiers
        fn = source.ns[ident]
        fn.pcs = dict(enumerate(pcs + [pcs[-1]], start=2))
        fn.program = key
        fn.env_locals = names if free else None

    def _quiet_text(self, key, ident, body, scope, free) -> tuple:
        """(the text of _quiet_function's function, the pc of each of its body's lines,
        ((local name, Python local), ...)); free: with no env (env_free)."""
        lines, pcs = [], []
        self._suspends, self._loops = False, []
        source = self._source()
        start = 0
        if key.startswith("trigger:"):
            body, when = body
            test = [f"if not {source.fresh('when', when)}(st, env):", "    return None"] if when else []
            fired = source.const(key)
            self._add(lines, pcs, test + [f"st.fired[{fired}] = st.fired.get({fired}, 0) + 1"], 0)
            start = 1
        self._idents, self._synced = {}, ({} if self.quiet_locals else None)
        self._env_free, self._stale_ret = free, free and self._assigns_call(body)
        nothing = source.fresh("nothing", NOTHING)
        try:
            params, entry_lines, entry = self._entry_lines(key, body, scope)
            sites = self._store_sites(body, scope)     # a parameter is stored at entry too
            self._once = {name for name, n in sites.items() if n == 1 and name not in self._idents}
            self._add(lines, pcs, entry_lines, start)
            at_entry = self._fork()
            general, general_pcs = [], []
            self._body(body, scope, start, 0, general, general_pcs)
            self._proven_body(body, scope, start, (entry, at_entry), general, lines, pcs, nothing)
            lines += general
            pcs += general_pcs
            names = tuple(self._idents.items())
        finally:
            for local in self._idents.values():     # proven by _carry_once: not past this function
                source.forget(local)
            self._idents, self._synced, source.locals, self._once = {}, None, {}, frozenset()
            self._env_free = self._stale_ret = False
        text = "\n".join([f"def {ident}({', '.join(['st', 'secret', 'inside', *params])}):"]
                         + ["    " + line for line in lines] + [f"    return {nothing}"])
        return text, pcs, names

    def _assigns_call(self, stmts) -> bool:
        """Whether statements store what a procedure returns (`x = procedure(...)`)."""
        return any(node.rule == "assign" and isinstance(node.value, ast.Call)
                   and node.value.func in self.names.procedures
                   for stmt in stmts for node in ast.walk(stmt))

    def _proven_body(self, body, scope, start, entry, general, lines, pcs, nothing) -> None:
        """Where the parameters the body reads twice or more (`entry`: (name -> Python
        local, `_synced` at entry)) that it only tests for a card, or only for a seat,
        are tested for it once there,
        the body written again for them proven so (codegen `proof`: none of its reads
        tests them), ahead of the `general` lines that any other values take: when
        that saves three tests or more (one in a loop counts twice), as a spec
        function's entry guard does for two (codegen._entry_guard): in a procedure,
        tests in an `if` and its `else` count both, though one of them runs."""
        from .codegen import seat_test
        source, text = self._source(), "\n".join(general)
        entry, at_entry = entry
        proofs = {}
        for name, ident in (entry or {}).items():
            # a card's test: of its id, or of a text before its CardTable read (codegen _text_case)
            seat = text.count(f"{ident}.__class__ is _Seat")
            card = text.count(f"{ident}.__class__ is str and {ident} in ") + text.count(f"{ident}.__class__ is str else ")
            if bool(seat) != bool(card) and not self._stores_into(body, name):
                proofs[ident] = "seat" if seat else "card"
        if not proofs:
            return
        source.proven.update(proofs)
        self._synced, self._suspends, self._loops = dict(at_entry), False, []
        fast, fast_pcs = [], []
        try:
            self._body(body, scope, start, 1, fast, fast_pcs)
        except NotStraight:     # nested past what one function holds: the general lines only
            return
        finally:
            for ident in proofs:
                del source.proven[ident]
        if _class_tests(general) - _class_tests(fast) < 3:
            return
        guard = " and ".join(seat_test(i) if proof == "seat" else f"{i}.__class__ is str and {i} in _CARDS"
                             for i, proof in proofs.items())
        self._add(lines, pcs, [f"if {guard}:"], start)
        lines += fast
        pcs += fast_pcs
        self._add(lines, pcs, [f"    return {nothing}"], fast_pcs[-1])

    def _body(self, stmts, scope, pc, depth, lines, pcs) -> int:
        lines.append("    " * depth + "pass")
        pcs.append(pc)
        for stmt in stmts:
            pc = self._lines(stmt, scope, pc, depth, lines, pcs)
        return pc

    @staticmethod
    def _add(lines, pcs, new, pc) -> None:
        lines.extend(new)
        pcs.extend([pc] * len(new))

    def emit(self, node, instr, writes=True) -> int:
        # explain.py reads these to say why a decision refused an option; a
        # decision's `as "..."` prompt is read through instr.node too (prompt());
        # faults.py reads all three to place and explain an error at play.
        instr.node, instr.mark, instr.scope = node, self.mark, self.scope
        written = effects.writes(node, self.names, self.scope) if writes else frozenset()
        pc = self.program.emit(instr, self.where(node), written)
        target = getattr(instr, "target", None)
        if target is not None and self.straight_lines is not None:
            self.program.link(pc, jump_link(target, pc))
        return pc

    def here(self) -> int:
        return len(self.program.code)

    def _waits(self, pc: int) -> None:
        """Instruction pc asks a player: a save's top frame may stand there."""
        self.program.waits.add(pc)
        self._holds(pc)

    def _starts(self, pc: int, key: str, in_secret_block: bool) -> None:
        """A frame standing at pc may have a frame of `key` above it (Program.start)."""
        self.program.start(pc, key, in_secret_block)
        self._holds(pc)

    def _holds(self, pc: int) -> None:
        if self._have is not None:
            self.program.holds[pc] = self._have

    def jump_to(self, cell):
        def jump(st, fr):
            fr.pc = cell[0]
        jump.target = cell   # emit links it to the instruction it jumps to (Program.link)
        return jump

    # ---------------------------------------------------------- expressions
    def call(self, node, scope):
        func = node.func
        args = [self.expr(a, scope) for a in node.args]
        if func in self.names.functions:
            return self._user_function(func, args)
        fn = FUNCTIONS[func]
        if node.kwargs:
            return self._call_with_keywords(fn, args, node.kwargs, scope)
        if len(args) == 1:
            a0 = args[0]
            return lambda st, env: fn(st, a0(st, env))
        if len(args) == 2:
            a0, a1 = args
            return lambda st, env: fn(st, a0(st, env), a1(st, env))
        return lambda st, env: fn(st, *[a(st, env) for a in args])

    def _call_with_keywords(self, fn, args, kwargs, scope):
        eager = {k: self.expr(v, scope) for k, v in kwargs.items() if k not in LAZY}
        lazy = {k: self.expr(v, scope | {"it"}) for k, v in kwargs.items() if k in LAZY}

        if len(args) == 1:      # sort(xs, by=...), max(xs, by=...): the usual call
            a0 = args[0]

            def call_one(st, env):
                kw = {k: f(st, env) for k, f in eager.items()} if eager else {}
                for k, f in lazy.items():
                    kw[k] = _by_item(st, env, f)
                return fn(st, a0(st, env), **kw)
            return call_one

        def call(st, env):
            kw = {k: f(st, env) for k, f in eager.items()}
            for k, f in lazy.items():
                kw[k] = _by_item(st, env, f)
            return fn(st, *[a(st, env) for a in args], **kw)
        return call

    def _user_function(self, func, args):
        calls = self.game.calls   # filled as functions compile: they may call each other

        def call(st, env):
            return calls[func](st, *[a(st, env) for a in args])
        return call

    def comprehension(self, node, scope):
        inner = scope | {node.var}
        it, elt = self.expr(node.iter, scope), self.expr(node.elt, inner)
        cond = self.expr(node.cond, inner) if node.cond is not None else None
        var = node.var

        def comp(st, env):
            local = dict(env)
            out = []
            for x in _items(st, it(st, env)):
                local[var] = x
                if cond is None or cond(st, local):
                    out.append(elt(st, local))
            return out
        return comp

    # ----------------------------------------------------------- assignment
    def kind(self, node):
        """The kind validate gives expression `node` (rulespec.kinds.Kind), or None
        (a node it did not check: a scenario's)."""
        kinds = self.game._kinds
        return kinds.of(node) if kinds is not None else None

    def stored_kind(self, node):
        """The kind of what assignment or decision `node` stores (None: unknown), for
        the checks a store into a declared variable compiles (Game.held_kind)."""
        kinds = self.game._kinds
        if kinds is None:
            return None
        if isinstance(node, ast.AugAssign):     # the target's family, or an error
            return kinds.of(node.target)
        if isinstance(node, ast.Assign):
            value = node.value
            if isinstance(value, ast.Call) and value.func in self.names.procedures:
                return kinds.results.get(("procedures", value.func))
            return kinds.of(value)
        if isinstance(node, ast.ChooseOne):
            options = kinds.of(node.options)
            return _item(options) if options is not None else None
        return {ast.ChooseNumber: NUMBER, ast.ChooseSeveral: list_of(NOTHING_KIND),
                ast.Auction: AUCTION}.get(type(node))

    def setter(self, target, scope, stored=None):
        """f(state, env, value) that stores value where `target` names. stored: the
        kind of the values stored (stored_kind), so that a store into a declared
        variable that validate proves is not checked at play."""
        if isinstance(target, ast.Name):
            kind, _ = self.names.resolve(target.id, scope)
            n = target.id
            if kind == "global":
                check = self.game.checker("globals", n, stored)
                def set_global(st, env, v):
                    st.g[n] = check(v)
                return set_global

            def set_local(st, env, v):
                env[n] = v
            return set_local
        if isinstance(target, ast.Attr):
            return self._attr_setter(target, scope, stored)
        return self._index_setter(target, scope)

    def _attr_setter(self, target, scope, stored):
        obj, key = self.expr(target.obj, scope), target.name
        if key in self.names.per_player:
            check = self.game.checker("per_player", key, stored)

            def set_player(st, env, v):
                st.pv[key][_seat(st, obj(st, env))] = check(v)
            return set_player
        if key in self.names.per_card:
            check = self.game.checker("per_card", key, stored)

            def set_card(st, env, v):
                st.cv[key][obj(st, env)] = check(v)
            return set_card
        raise RuleError(f"cannot assign to '.{key}': only per-player and per-card variables "
                        f"can change", line=target.line, col=target.col)

    def _index_setter(self, target, scope):
        get_container, key = self.expr(target.obj, scope), self.expr(target.key, scope)
        store = self.setter(target.obj, scope, self.kind(target.obj))   # a copy of it

        def set_item(st, env, v):
            container = get_container(st, env)
            copy = dict(container) if isinstance(container, dict) else list(container)
            copy[key(st, env)] = v
            store(st, env, copy)
        return set_item

    # ----------------------------------------------------------- statements
    def assign(self, node, scope):
        value = node.value
        if isinstance(value, ast.Call) and value.func in self.names.procedures:
            self._call_procedure(value, scope)
            store = self.setter(node.target, scope, self.stored_kind(node))
            self.emit(node, lambda st, fr: store(st, fr.env, fr.env.pop(RET, None)))
            return
        fast = self._generated_store(node, node.value, None, scope)
        if fast is not None:
            self.emit(node, fast)
            return
        store, get = self.setter(node.target, scope, self.stored_kind(node)), self.expr(value, scope)
        self._env_forms[id(node)] = lambda st, env: store(st, env, get(st, env))
        self.emit(node, lambda st, fr: store(st, fr.env, get(st, fr.env)))

    def aug_assign(self, node, scope):
        fast = self._generated_store(node, node.value, node.op[0], scope)
        if fast is not None:
            self.emit(node, fast)
            return
        store, current = self.setter(node.target, scope, self.stored_kind(node)), self.expr(node.target, scope)
        value, op = self.expr(node.value, scope), self.arith_op(node.op[0])

        def update(st, fr):
            env = fr.env
            store(st, env, op(current(st, env), value(st, env)))
        self._env_forms[id(node)] = lambda st, env: store(st, env, op(current(st, env), value(st, env)))
        self.emit(node, update)

    def arith_op(self, op):
        """f(a, b) for `a op b`, held to the limits as generated arithmetic is."""
        limits = self.game.bounds
        if op == "*":
            from .codegen import checked_multiply
            return checked_multiply(limits)
        fn = ARITH[op]
        return lambda a, b: check_number(fn(a, b), limits)

    def _generated_store(self, node, value, op, scope):
        """`target = value` (op None) or `target op= value` as one generated
        instruction; None where the closures must do it."""
        lines = self._store_lines(node, value, op, scope)
        return None if lines is None else self._source().statement(lines, self._source().at(node))

    def _store_lines(self, node, value, op, scope):
        """The generated lines of a store (see _generated_store), or None."""
        source = self._source()
        if isinstance(node.target, ast.Index):
            return self._item_store_lines(node.target, value, op, scope) if self.item_stores else None
        place = source.target(node.target, scope, self.stored_kind(node))
        if place is None:
            return None
        lines, where, check = place
        if op is None:      # (an update reads its target first: its value is not lowered)
            first, new = source.lowered(value, scope)
            lines = lines + first
        else:
            operand = f"({source.source(value, scope)})"
            both = source.checked_update(op, where, operand, check) if check else None
            if both is not None:    # the arithmetic's test and the bounds' in one
                return lines + [f"{where} = {both}"]
            new = source.arith(op, self._current(node.target, where), operand)
        where = self._kept(node.target, scope, where)
        if op is None and check is None and self.once_proofs:
            self._carry_once(node.target, scope, new)
        return lines + [f"{where} = {check.format(new)}" if check else f"{where} = {new}"]

    def _item_store_lines(self, target, value, op, scope):
        """`m[k] = value` or `m[k] op= value` for m a global's or a local's name, or a
        per-player or per-card variable (`p.m`), as the closures (setter's set_item)
        do it, in their order: the value (an update reads m[k] first), then m, a copy
        of it (clones share values: no map or list changes in place), k, and the copy
        stored in m (whose owner `p` is evaluated again there, as set_player's is).
        None for any other target."""
        source = self._source()
        place = source.target(target.obj, scope, self.kind(target.obj)) \
            if isinstance(target.obj, (ast.Name, ast.Attr)) else None
        if place is None:
            return None
        before, where, check = place
        new, box = source.fresh("u"), source.fresh("m")
        if op is None:
            lines, value = source.lowered(value, scope)
            lines = lines + [f"{new} = {value}"]
        else:
            lines = [f"{new} = {source.arith(op, source.source(target, scope), f'({source.source(value, scope)})')}"]
        return lines + [
            f"{box} = {source.source(target.obj, scope)}",
            f"{box} = dict({box}) if isinstance({box}, dict) else list({box})",
            f"{box}[{source.source(target.key, scope)}] = {new}",
            *before, f"{self._kept(target.obj, scope, where)} = {check.format(box) if check else box}"]

    def call_stmt(self, node, scope):
        call = node.call
        if call.func in self.names.procedures:
            self._call_procedure(call, scope)
            return
        f = self.call(call, scope)
        self.emit(node, lambda st, fr: f(st, fr.env))

    def _call_procedure(self, call, scope):
        """Push the procedure's frame, its arguments built in one generated instruction."""
        source = self._source()
        params = self.names.procedures[call.func]
        self.program.pushes.add("proc:" + call.func)
        args = ", ".join(f"{source.const(p)}: {source.source(a, scope)}" for p, a in zip(params, call.args))
        frame = source.fresh("Frame", Frame)
        # what an earlier call returned goes: this one's `x = p()` reads none, not it,
        # when p ends without `return` (as _quiet_call does)
        forget = [f"env.pop({source.const(RET)}, None)"] if self._returns(call.func) else []
        pc = self.emit(call, source.statement(forget + [
            f"st.stack.append({frame}({source.const('proc:' + call.func)}, {{{args}}}, "
            f"fr.secret or bool(env.get('$secret'))))"], source.at(call)))
        self._starts(pc + 1, "proc:" + call.func, True)

    def _returns(self, name) -> bool:
        """Whether procedure `name` may `return` a value (all may, before prepare_quiet)."""
        return self._returning is None or name in self._returning

    def _branch(self, node, cond, cell, scope) -> int:
        """`if not cond: jump to cell[0]` as one generated instruction, emitted: the
        test of an if or a while. Returns its pc."""
        source = self._source()
        target, (first, test) = source.fresh("cell", cell), source.lowered(cond, scope)
        form = source.statement(first + [f"if not ({test}):", f"    fr.pc = {target}[0]"], source.at(node))
        pc = self.emit(node, form, writes=False)
        if self.straight_lines is not None:
            self.program.link(pc, self._branch_link(node, (first, test), cell, pc, form))
        return pc

    def _branch_link(self, node, test, cell, pc, plain):
        """Program.link's maker for the branch at pc: its test (lines computing its
        comprehensions, the test: codegen.lowered), then at once the instruction it
        leaves for (both lie ahead)."""
        source = self._source()
        first, test = test

        def make(form, go, ahead):
            if form is not plain or not ahead:
                return None
            lines, then = first + [f"if not ({test}):"], []
            for way, (at, pad) in enumerate(((cell[0], "    "), (pc + 1, ""))):
                next_form = go(at)
                if next_form is None:
                    lines += [f"{pad}fr.pc = {at}"]
                else:
                    lines += [f"{pad}fr.pc = {at + 1}", f"{pad}{source.fresh('then', next_form)}(st, fr)"]
                    then.append((len(lines) + 2, at, [next_form]))   # its line: 2 lines before
                if not way:
                    lines.append("    return")
            if not then:
                return None
            fn = source.statement(lines, source.at(node))
            fn.then = [(fn.__code__, line, at, box) for line, at, box in then]
            return fn
        return make

    def return_(self, node, scope):
        value = self.expr(node.value, scope) if node.value is not None else None

        def ret(st, fr):
            result = value(st, fr.env) if value else None
            stack = st.stack
            if len(stack) > 1:
                stack[-2].env[RET] = result
            fr.pc = len(st.game.programs[fr.proc].code)   # the run loop ends the block
        self.emit(node, ret, writes=False)

    def pass_(self, node, scope):
        pass

    def if_stmt(self, node, scope):
        orelse, end = [0], [0]
        self._branch(node, node.cond, orelse, scope)
        self.block(node.body, scope)
        if node.orelse:
            self.emit(node, self.jump_to(end), writes=False)
        orelse[0] = self.here()
        self.block(node.orelse, scope)
        end[0] = self.here()

    def while_stmt(self, node, scope):
        start, end = [self.here()], [0]
        self._branch(node, node.cond, end, scope)
        self.block(node.body, scope)
        self.emit(node, self.jump_to(start), writes=False)
        end[0] = self.here()

    def for_stmt(self, node, scope, secret=False):
        items, var = self.expr(node.iter, scope), node.var
        where = self.expr(node.where, scope) if getattr(node, "where", None) is not None else None
        key = self.temp("for")
        self._for_keys[id(node)] = key
        end = [0]

        def start(st, fr):
            fr.env[key] = [list(_items(st, items(st, fr.env))), 0]
            if secret:
                fr.env["$secret"] = fr.env.get("$secret", 0) + 1
        first = self.emit(node, start, writes=False)
        top = self.here()

        def step(st, fr):
            env = fr.env
            todo = env[key]
            while todo[1] < len(todo[0]):
                env[var] = todo[0][todo[1]]
                env[key] = todo = [todo[0], todo[1] + 1]
                if where is None or where(st, env):
                    return
            del env[key]
            if secret:
                env["$secret"] -= 1
            fr.pc = end[0]
        self.emit(node, step, writes=False)
        self.block(node.body, scope)
        back = self.emit(node, self.jump_to([top]), writes=False)
        end[0] = self.here()
        self.program.for_loops.append((key, top, back, var, secret))
        if self.straight_lines is not None:
            start_step, jump_step, link = _fused_for(key, var, items, where, secret, top + 1, end)
            self.program.fuse(first, top, start_step)
            self.program.fuse(back, top, jump_step)
            self.program.link(first, link)
            self.program.link(back, link)

    def secretly(self, node, scope):
        self.for_stmt(node, scope, secret=True)

    def run_phase(self, node, scope):
        key, name = "phase:" + node.name, node.name

        def enter(st, fr):      # Frame(key, {}, fr.secret), made as its slots
            st.phase = name
            frame = new_object(Frame)
            frame.proc, frame.env, frame.secret, frame.pc = key, {}, fr.secret, 0
            st.stack.append(frame)
        pc = self.emit(node, enter, writes=False)
        self._starts(pc + 1, key, False)
        if self.straight_lines is not None and self.phase_links:
            self.program.link(pc, _phase_link(self.game.programs, key, name, enter))

    def signal(self, node, scope):
        params = self.names.signals[node.name]
        args = [self.expr(a, scope) for a in node.args]
        kwargs = {k: self.expr(v, scope) for k, v in node.kwargs.items()}
        keys = ["trigger:" + t for t in self.game.triggers_on.get(node.name, [])]
        self.program.pushes.update(keys)

        def send(st, fr):
            env = fr.env
            values = dict(zip(params, [a(st, env) for a in args]))
            values.update({k: f(st, env) for k, f in kwargs.items()})
            for key in reversed(keys):   # pushed in reverse so the first declared runs first
                st.stack.append(Frame(key, dict(values), fr.secret))
        pc = self.emit(node, send, writes=False)
        for key in keys:
            self._starts(pc + 1, key, False)

    def end_game(self, node, scope):
        reason = node.reason or f"end game at line {self.where(node)[1]}"
        self.emit(node, lambda st, fr: st.finish(reason))

    # ------------------------------------------------------------ decisions
    def _decision(self, node, scope, offer, take):
        """An instruction that asks a player: offer(st, env) -> (player, values, labels, kind);
        take(st, env, value) stores the answer."""
        def decide(st, fr):
            env = fr.env
            if IN in env:
                take(st, env, env.pop(IN))
                return
            player, values, labels, kind = offer(st, env)
            value = ask(st, fr, player, values, labels, kind)
            if value is not NOTHING:
                take(st, env, value)
        self._waits(self.emit(node, decide))

    def choose_one(self, node, scope):
        options, by = self.expr(node.options, scope), self.expr(node.by, scope)
        store = self.setter(node.target, scope, self.stored_kind(node))
        seat, name = self._local(node.by, scope), self._local(node.target, scope)
        if self.straight_lines is None or seat is None or name is None:
            def decide(st, fr):     # _decision's, with its offer written in
                env = fr.env
                if IN in env:
                    store(st, env, env.pop(IN))
                    return
                value = ask(st, fr, by(st, env), _items(st, options(st, env)), None, "one")
                if value is not NOTHING:
                    store(st, env, value)
            self._waits(self.emit(node, decide))
            return

        game, limit, asked_at = self.game, self.game.bounds.size, []     # (limit: never changed)

        def decide_local(st, fr):
            # `x = choose one of ... by p`, x and p locals: read and written in env as
            # by and store would (a p with no value goes to by: its error in words)
            env = fr.env
            if IN in env:
                env[name] = env.pop(IN)
                return
            player = _seat(st, env[seat] if seat in env else by(st, env))
            values = _items(st, options(st, env))
            if 1 < len(values) <= limit:
                # flow.ask's usual case, written in: a real choice within the limit
                # waits here, its labels made by the game's display_options when read
                fr.pc = pc = fr.pc - 1
                if not asked_at:
                    asked_at.append(game.programs[fr.proc].lines[pc])
                decision = new_object(Decision)
                decision.player, decision._labels, decision.values = int(player), None, list(values)
                decision.kind, decision.where, decision._namer = "one", asked_at[0], game.display_options
                decision.secret = fr.secret or ("$secret" in env and env["$secret"] != 0)
                st.pending = decision
                return
            value = ask(st, fr, player, values, None, "one")
            if value is not NOTHING:
                env[name] = value
        self._waits(self.emit(node, decide_local))

    def _local(self, node, scope):
        """The name of a local that `node` is (a Name resolved to one), else None."""
        if isinstance(node, ast.Name) and self.names.resolve(node.id, scope)[0] == "local":
            return node.id
        return None

    def choose_number(self, node, scope):
        low, high, by = (self.expr(n, scope) for n in (node.low, node.high, node.by))
        store = self.setter(node.target, scope, self.stored_kind(node))
        self._decision(node, scope,
                       lambda st, env: (by(st, env), int_range(st, low(st, env), high(st, env) + 1,
                                                            "choose number"),
                                        None, "number"),
                       store)

    def choose_several(self, node, scope):
        count, options, by = (self.expr(n, scope) for n in (node.count, node.options, node.by))
        store, key, up_to = self.setter(node.target, scope, self.stored_kind(node)), self.temp("several"), node.up_to
        done = "done"

        def offer(st, env):
            if key not in env:
                env[key] = [[], list(_items(st, options(st, env))), _count(count(st, env))]
            picked, left, n = env[key]
            values = list(left) if len(picked) < n else []
            if up_to or len(picked) >= n or not left:
                values.append(done)
            return by(st, env), values, None, "several"

        def take(st, env, value):
            picked, left, n = env[key]
            if value == done and (up_to or len(picked) >= n or not left):
                del env[key]
                store(st, env, picked)
                return
            left = list(left)
            left.remove(value)
            env[key] = [picked + [value], left, n]
            if len(picked) + 1 >= n and not up_to:
                del env[key]
                store(st, env, picked + [value])
                return
            env[IN + "again"] = True
        self._several(node, offer, take, key)

    def _several(self, node, offer, take, key):
        """Like _decision, but the instruction repeats until `take` stops asking."""
        def decide(st, fr):
            env = fr.env
            while True:
                if IN in env:
                    take(st, env, env.pop(IN))
                    if not env.pop(IN + "again", False):
                        return
                player, values, labels, kind = offer(st, env)
                value = ask(st, fr, player, values, labels, kind, fresh=True)   # offer's new list
                if value is NOTHING:
                    return
                env[IN] = value
        pc = self.emit(node, decide)
        self._waits(pc)
        options = self.kind(node.options)   # what its picks and offers are (a save's check)
        self.program.keyed[key] = (pc, _item(options) if options is not None else None)

    def menu(self, node, scope):
        by = self.expr(node.by, scope)
        conds = [self.expr(o.cond, scope) if o.cond is not None else None for o in node.options]
        labels = [o.label for o in node.options]
        targets = [[0] for _ in node.options]
        self._menu_targets[id(node)] = targets
        end = [0]
        keys = [f"menu:{self.program.rule}: {label}" for label in labels]   # rule coverage
        if isinstance(getattr(self.game, "menu_keys", None), list):
            self.game.menu_keys.extend(keys)

        def decide(st, fr):
            env = fr.env
            if IN in env:
                chosen = env.pop(IN)
                st.fired[keys[chosen]] = st.fired.get(keys[chosen], 0) + 1
                fr.pc = targets[chosen][0]
                return
            legal = [i for i, c in enumerate(conds) if c is None or c(st, env)]
            value = ask(st, fr, by(st, env), legal, [labels[i] for i in legal], "menu", fresh=True)
            if value is not NOTHING:   # one legal option: taken at once
                st.fired[keys[value]] = st.fired.get(keys[value], 0) + 1
                fr.pc = targets[value][0]
        self._waits(self.emit(node, decide, writes=False))
        for option, target in zip(node.options, targets):
            target[0] = self.here()
            self.block(option.body, scope)
            self.emit(option, self.jump_to(end), writes=False)
        end[0] = self.here()

    def turn(self, node, scope):
        """A player's turn; with no legal action the turn passes (said in trace and
        log), or its `else` statement runs."""
        player, key = self.expr(node.player, scope), self.temp("turn")
        game = self.game
        where = (self.file, *(self.mark(node.line, node.col) if self.mark else (node.line, node.col)))
        fallback, end = [0] if node.orelse else None, [0]
        shared = ([None], {})     # Game.turn_options, made once actions are compiled; namer per n
        # a turn of a local seat (`turn p`) reads it from env itself, without the
        # expression's call (codegen writes a local as env[name] too)
        local = node.player.id if (isinstance(node.player, ast.Name)
                                   and self.names.resolve(node.player.id, scope)[0] == "local") else None
        turn = (game, key, (player, local), node.actions, node.until_done, where, fallback, shared,
                self.one_option_here)
        pc = self.emit(node, _turn_form(*turn, None))     # (the per-statement run's form)
        self._waits(pc)
        self.program.keyed[key] = (pc, None)
        for name in node.actions:   # an action's frame runs above the turn, come back to after it
            self._starts(pc, "action:" + name, True)
        if self.straight_lines is not None:
            self.program.swaps[pc] = form = _turn_form(*turn, self.action_functions)
            self.program.link(pc, _turn_link(turn, self.action_functions, form, pc))
        if fallback is not None:
            self.emit(node, self.jump_to(end), writes=False)
            fallback[0] = self.here()
            self.block(node.orelse, scope)
            end[0] = self.here()

    def auction(self, node, scope):
        among = self.expr(node.among, scope)
        opening = self.expr(node.opening, scope) if node.opening else (lambda st, env: 1)
        inner = scope | {"bidder"}
        raise_by = self.expr(node.raise_, inner) if node.raise_ else (lambda st, env: 1)
        limit = self.expr(node.limit, inner)
        starter = self.expr(node.starter, scope) if node.starter else None
        store, key = self.setter(node.target, scope, self.stored_kind(node)), self.temp("auction")

        def offer(st, env):
            if key not in env:
                env[key] = _auction_start(st, env, among, opening, starter)
            state = env[key] = dict(env[key])   # copied before changing: clones share frame values
            while True:
                bidder = _next_bidder(state)
                if bidder is None:
                    return None
                benv = {**env, "bidder": bidder}
                low = state["price"] + raise_by(st, benv) if state["high"] is not None else state["price"]
                high = limit(st, benv)
                if low <= high:
                    bids = int_range(st, low, high + 1, "bidding")
                    return bidder, ["pass"] + bids, None, "bid"     # labels: _bid_labels
                state["active"] = [b for b in state["active"] if b != bidder]

        def take(st, env, value):
            state = env[key] = dict(env[key])
            bidder = _next_bidder(state)
            if value == "pass":
                state["active"] = [b for b in state["active"] if b != bidder]
            else:
                state["high"], state["price"] = bidder, value
            state["turn"] += 1
            env[IN + "again"] = True

        def decide(st, fr):
            env = fr.env
            while True:
                if IN in env:
                    take(st, env, env.pop(IN))
                    env.pop(IN + "again", None)
                asked = offer(st, env)
                if asked is None:
                    state = env.pop(key)
                    winner = state["high"]
                    store(st, env, {"winner": winner, "price": state["price"] if winner is not None else 0})
                    return
                value = ask(st, fr, *asked, namer=_bid_labels, fresh=True)
                if value is NOTHING:
                    return
                env[IN] = value
        pc = self.emit(node, decide)
        self._waits(pc)
        self.program.keyed[key] = (pc, None)


# a name `env` in generated text: a function written without env reads it (env_free)
_ENV = re.compile(r"\benv\b")
# statements with a body, which _straight may write as one function
_COMPOUND = {"for_stmt", "if_stmt", "while_stmt", "secretly"}
# blocks nested in one straight-line function; Python refuses over 20 nested loops
STRAIGHT_DEPTH = 12
# runs of straight statements one block offers (Compiler.block): the whole, and the
# rests after statements that may stop at a decision, at most this many in all
RESUMED_RUNS = 4


def _class_tests(lines) -> int:
    """The class tests in generated lines, one inside a `for` or `while` counted twice."""
    count, loops = 0, []     # indents of the loops the line is in
    for line in lines:
        indent = len(line) - len(line.lstrip())
        while loops and loops[-1] >= indent:
            loops.pop()
        count += line.count("__class__ is") * (2 if loops else 1)
        if line.lstrip().startswith(("for ", "while ")):
            loops.append(indent)
    return count


class NotStraight(Exception):
    """A statement the straight-line compiler does not write."""


def _turn_form(game, key, player, actions, until_done, where, fallback, shared, one_here, functions,
               after=None):
    """A turn's instruction. The chosen action's frame is pushed for the run loop
    (come back to here when it is over), unless it is in `functions` (name -> its
    function: compile.py's plan_quiet; given only for the sampled run, None for the
    per-statement one): a quiet action runs as a function then, the same in every
    way that can be seen; its frame is made only when it stops at a decision
    (Suspended), and its end checks run where its frame's end would run them. A
    turn of one action then ends here, as come back to it would end (the end checks
    after this instruction run once, on the same state, where they ran twice).
    after: None, or (pc, form) of the next instruction, which a turn that ends
    runs at once, as the run loop would next (Program.link: _turn_link). one_here:
    where the sampled form finds one legal option, it takes it and goes on (runs
    the turn again with it) in the same call, as the run loop would next, where no
    end condition is checked after the turn and its frame is on top of the stack
    (not a quiet function's new frame) (Compiler.one_option_here)."""
    lister, namers = shared
    player, seat_local = player
    at, then = after or (None, None)
    known = []      # one instruction's fact, found once the game's end checks are planned
    chosen = {}     # action name -> (action, its function or None, its key, its var, its exit checks)
    asked_at = []   # (file, line) of this instruction: its decisions' `where`
    limit = game.bounds.size    # set before any rule is compiled, never changed
    take_one = one_here and functions is not None    # the sampled run's form only
    functions = {} if functions is None else functions

    def unchecked(fr):
        """No end condition is checked after this instruction: nothing can end the
        game between the action and the turn's next decision."""
        if not known:   # fr.pc is just past this instruction
            program = game.programs[fr.proc]
            known.append(not (program.checks_any and program.end_checks[fr.pc - 1]))
        return known[0]

    def action_of(name):
        """What an answer naming action `name` needs, looked up when it is first
        chosen (the programs' end checks are planned by then), not at each answer."""
        action = game.actions[name]
        found = chosen[name] = (action, functions.get(name), action.key, action.var,
                                game.programs[action.key].exit_checks)
        return found

    def decide(st, fr):
        env = fr.env
        if IN in env:   # answered: (action, value) or "done"
            choice = env.pop(IN)
            if choice.__class__ is not tuple and choice == "done":     # (no tuple == str in C)
                del env[key]
                if then is not None:
                    fr.pc = at + 1
                    then(st, fr)
                return
            name, bound = choice
            try:
                action, function, fired, var, checks = chosen[name]
            except KeyError:
                action, function, fired, var, checks = action_of(name)
            counts = st.fired
            counts[fired] = counts.get(fired, 0) + 1
            turn = env[key]
            who = turn[0]
            if function is None:
                env[key] = [who, True]   # a new list: clones share frame values
                fr.pc -= 1   # come back here when the action is over
                st.stack.append(action.frame(who, bound, fr))
                return
            if until_done and not turn[1]:  # [who, True] after the first action: kept
                env[key] = [who, True]
            secret = fr.secret or ("$secret" in env and env["$secret"] != 0)
            result = function(st, secret, True, who, bound) if var else function(st, secret, True, who)
            if result.__class__ is Suspended:
                if not until_done:
                    env[key] = [who, True]
                fr.pc -= 1      # come back to this turn when the action is over
                st.stack.extend(reversed(result))
                return
            if not until_done:
                del env[key]
            if checks and not st.staged and not st.over and at_boundary(game.programs, st.stack):
                check_end(st, checks, None)
            if not until_done:
                if then is not None and not st.over:
                    fr.pc = at + 1
                    then(st, fr)
                return
            if st.over or st.stack[-1] is not fr or not (known[0] if known else unchecked(fr)):
                fr.pc -= 1      # the run loop runs this turn again, after its end checks
                return
            p = who     # the turn goes on here, as the run loop would run it next
        else:
            turn = env.get(key)
            if turn is None or not turn[1]:
                # before the first action, who plays is asked again each time the
                # decision is (a scenario's `do:` may have changed it)
                p = _seat(st, env[seat_local] if seat_local is not None and seat_local in env
                          else player(st, env))
                env[key] = [p, False]
            else:
                p = turn[0]
                if not until_done:      # acted: the turn is over
                    del env[key]
                    if then is not None:
                        fr.pc = at + 1
                        then(st, fr)
                    return
        options = lister[0]
        if options is None:
            options = lister[0] = game.turn_options(actions)
        values, labels = options(st, p)
        if until_done:
            values.append("done")
            if labels is not None:
                labels.append("done")
        size = len(values)
        if not size:
            del env[key]
            skip_turn(st, p, where, fallback is not None)
            if fallback is not None:
                fr.pc = fallback[0]
            return
        try:
            namer = namers[st.n]
        except KeyError:
            namer = namers[st.n] = game.table(st.n).name_options
        if 1 < size <= limit:
            # flow.ask's usual case, written in (labels and namer as given: ask keeps
            # them so): a real choice within the limit waits here as the decision
            fr.pc = pc = fr.pc - 1
            if not asked_at:
                asked_at.append(game.programs[fr.proc].lines[pc])
            decision = new_object(Decision)
            decision.player, decision._labels, decision.values = int(p), labels, values
            decision.kind, decision.where, decision._namer = "action", asked_at[0], namer
            decision.secret = fr.secret or ("$secret" in env and env["$secret"] != 0)
            st.pending = decision
            return
        if size == 1 and take_one and not st.ask_forced and st.stack[-1] is fr and (
                known[0] if known else unchecked(fr)):
            # flow.ask takes the one option at once (no labels made), and the run loop
            # would run this turn again with it next, nothing checked between: run
            # it so here (not in a quiet function's new frame, off the stack)
            env[IN] = values[0]
            decide(st, fr)
            return
        value = ask(st, fr, p, values, labels, "action", namer, fresh=True)
        if value is not NOTHING:
            env[IN] = value
            fr.pc -= 1
    return decide


def _turn_link(turn, functions, plain, pc):
    """Program.link's maker for the turn at pc: its form that runs the instruction
    after it at once when the turn ends (_turn_form's `after`)."""
    def make(form, go, ahead):
        then = go(pc + 1) if form is plain and ahead else None
        if then is None:
            return None
        fn = _turn_form(*turn, functions, (pc + 1, then))
        fn.then = [(fn.__code__, line, pc + 1, [then]) for line in call_lines(fn.__code__, "then")]
        return fn
    return make


def _phase_link(programs, key, name, plain):
    """Program.link's maker for a `phase` statement (plain: its `enter`): a form that
    pushes the phase's frame and runs the phase's first instruction in it at once,
    as the run loop would next (its form in use, Program.entry), where nothing is
    checked after either. Made only where the phase's program is finished before
    the one holding the statement (Game._plan_end_checks finishes phases first), so
    a phase that enters itself, however deep, links no further than one round.
    programs: the game's key -> Program, filled in by the time forms are chosen."""
    def make(form, go, ahead):
        program = programs.get(key)
        entry = program.entry if program is not None else None
        if form is not plain or not ahead or entry is None:
            return None
        first, depth = entry

        def enter_on(st, fr):   # enter's frame, its pc past the instruction run here
            st.phase = name
            frame = new_object(Frame)
            frame.proc, frame.env, frame.secret, frame.pc = key, {}, fr.secret, 1
            st.stack.append(frame)
            first(st, frame)
        # (_failing_at: an error in `first` is the phase's, at its pc 0, in `frame`)
        enter_on.then = [(enter_on.__code__, call_lines(enter_on.__code__, "first")[-1], 0, [first], key)]
        enter_on.depth = depth
        return enter_on
    return make


def _fused_for(key, var, items, where, secret, body, end):
    """A `for` loop's start and its jump back, each fused with the step after it
    (Program.fuse): one instruction where the statement-by-statement run makes two.
    The env they leave is the one start and step, or jump and step, leave, keys
    in the same order (a save writes them in that order). Also Program.link's maker
    for both: their forms that go on into the body's first instruction, or the one
    after the loop, as the run loop would next."""
    start_step, jump_step = _for_forms(key, var, items, where, secret, body, end, None, None)
    made = {}

    def link(form, go, ahead):
        if form is not (start_step if ahead else jump_step):
            return None     # not fused (an end check follows), or the jump back ahead
        enter, leave = go(body), go(end[0])
        if enter is None and leave is None:
            return None
        if not made:
            made["start"], made["jump"] = forms = _for_forms(key, var, items, where, secret, body,
                                                             end, enter, leave)
            for fn in forms:
                code = fn.__code__
                fn.then = [(code, call_lines(code, "enter")[-1], body, [enter]),
                           (code, call_lines(code, "leave")[-1], end[0], [leave])]
        return made["start"] if form is start_step else made["jump"]
    return start_step, jump_step, link


def _for_forms(key, var, items, where, secret, body, end, enter, leave):
    """_fused_for's start and jump forms; enter, leave: the forms of the body's first
    instruction and of the one after the loop, to run at once, or None. Each walks
    the items and ends the loop itself (a call less per step than one shared walk
    or end)."""
    def start_step(st, fr):
        env = fr.env
        values = list(_items(st, items(st, env)))
        env[key] = [values, 0]
        if secret:
            env["$secret"] = env.get("$secret", 0) + 1
        i = 0
        while i < len(values):
            env[var] = values[i]
            i += 1
            if where is None or where(st, env):
                env[key] = [values, i]
                if enter is None:
                    fr.pc = body
                    return
                fr.pc = body + 1
                enter(st, fr)
                return
        del env[key]    # over: its key gone, the pc after it (or what is there, run)
        if secret:
            env["$secret"] -= 1
        if leave is None:
            fr.pc = end[0]
            return
        fr.pc = end[0] + 1
        leave(st, fr)

    def jump_step(st, fr):
        env = fr.env
        values, i = env[key]
        while i < len(values):
            env[var] = values[i]
            i += 1
            if where is None or where(st, env):
                env[key] = [values, i]
                if enter is None:
                    fr.pc = body
                    return
                fr.pc = body + 1
                enter(st, fr)
                return
        del env[key]    # over: its key gone, the pc after it (or what is there, run)
        if secret:
            env["$secret"] -= 1
        if leave is None:
            fr.pc = end[0]
            return
        fr.pc = end[0] + 1
        leave(st, fr)
    return start_step, jump_step


def _auction_start(st, env, among, opening, starter):
    """An auction's book-keeping as it opens: its bidders (`among`, each a seat of this
    game, else the RuleError `seat` gives), the opening price, the starter's bid."""
    order = [Seat(_seat(st, p)) for p in _items(st, among(st, env))]
    state = {"order": order, "active": list(order), "high": None,
             "price": opening(st, env), "turn": 0}
    if starter is not None:
        first = Seat(_seat(st, starter(st, env)))
        state["high"] = first
        if first in order:   # the starter opens, then the others bid after them
            state["turn"] = order.index(first) + 1
    return state


def _bid_labels(decision) -> list[str]:
    """A bid's labels, made when someone reads them (a namer: see flow.Decision): a
    random or search agent answers a bid of 60 prices without 60 strings."""
    return ["pass"] + [f"bid {b}" for b in decision.values[1:]]


def _next_bidder(state):
    """The next bidder still in, in order, who is not the high bidder; None ends it."""
    order, active, high, turn = state["order"], state["active"], state["high"], state["turn"]
    n = len(order)
    for i in range(n):
        bidder = order[(turn + i) % n]
        if bidder in active and bidder != high:
            state["turn"] = (turn + i) % n
            return bidder
    return None


def _by_item(st, env, f):
    """A lazy keyword's key function: f evaluated with `it` bound to the item. One
    copy of env serves every item, `it` rebound each time, as a comprehension binds
    its variable (the builtin calls the key at once, item after item)."""
    local = dict(env)

    def key(item):
        local["it"] = item
        return _key(f(st, local))
    return key

