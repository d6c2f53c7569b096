"""A compiled game: the spec's rules as closures, built once, shared by every state."""
from __future__ import annotations

import hashlib
import re
import weakref
from itertools import repeat

from rulespec import ast as rulespec_ast
from rulespec import effects, validate
from rulespec.shown import private_labels
from rulespec.builtins import EFFECTS
from rulespec.identity import spec_id
from rulespec.definite import assigned_before, unassigned_reads
from rulespec.purity import EffectFinder, refusal
from rulespec.scope import assigned_names, for_variable
from rulespec.taint import local_labels

from rulespec.errors import RuleError, RulespecError
from . import chance, faults
from rulespec.kinds import family, known, surely_fits
from rulespec.limits import Limits
from .boards import Board
from .codegen import literals, seat_test
from .compile import Compiler, NotStraight
from .flow import Frame, Option, Options, Program, guarded, quiet_exit
from .functions import _items, start_meter
from .values import Seat, display

_new = object.__new__
STEP_BUDGET = Limits.steps     # the default; a spec's `limits: {steps: N}` changes it


def spec_hash(source: str) -> str:
    """A spec file's text as logs and saves name it: 16 hex digits of its SHA-256."""
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def load_game(path, variant: str | None = None, text: str | None = None) -> "Game":
    """Load, check and compile a spec; raises SpecErrors when it is not valid."""
    return Game(validate(path, variant=variant, text=text))


class Action:
    def __init__(self, name, var, items, when, label, candidates=None, stateless_label=False):
        self.name, self.var, self.items, self.when, self.label = name, var, items, when, label
        self.key = "action:" + name
        self.candidates = candidates or self._candidates   # generated where it can be
        # a label that reads nothing a game changes is made only when someone reads it
        self.stateless_label = stateless_label
        # f(st, player, value): a label that reads the state, its `for` value and player
        # given as arguments (codegen label_function; Game._compile sets it), or None
        self.by_arguments = None

    def options(self, st, player, values: list, labels: list) -> None:
        """Add this action's legal (action, bound value) choices and their labels
        (None for a stateless label: Game.name_options makes it when asked)."""
        name = self.name
        if self.stateless_label:
            found = self.candidates(st, player)
            values.extend([(name, value) for value in found])
            labels.extend([None] * len(found))
            return
        for value in self.candidates(st, player):
            env = {"player": player, self.var: value} if self.var else {"player": player}
            values.append((name, value))
            labels.append(self._label(st, env, value))

    def label_of(self, st, player, value) -> str:
        """The label of option `value` for `player`, made now from `st`."""
        if self.by_arguments is not None:
            label = self.by_arguments(st, player, value)
            return label if label.__class__ is str else display(label, st.game.player_names)
        env = {"player": player, self.var: value} if self.var else {"player": player}
        if self.label is not None:
            label = self.label(st, env)
            return label if label.__class__ is str else display(label, st.game.player_names)
        return self._label(st, env, value)

    def stateless_label_of(self, table, player, value) -> str:
        """The label of option `value`, made from `table` (a StaticTable: no state)."""
        env = {"player": player, self.var: value} if self.var else {"player": player}
        try:
            return self._label(table, env, value)
        except Exception as e:   # noqa: BLE001 — said in words, at the label
            raise faults.explain_expression(e, table, self.label, env, f"action {self.name}") from None

    def _candidates(self, st, player) -> list:
        """The `for` values that pass `when`, by the closures (explain.py's way too)."""
        env = {"player": player}
        values = _items(st, self.items(st, env)) if self.items else [None]
        out = []
        for value in values:
            if self.var:
                env = {"player": player, self.var: value}
            if self.when is None or self.when(st, env):
                out.append(value)
        return out

    def _label(self, st, env, value):
        if self.label is not None:
            return display(self.label(st, env), st.game.player_names)
        if self.var:
            return f"{self.name} {display(value, st.game.player_names)}"
        return self.name

    def fault(self, error, st, player):
        """`error`, raised while listing this action's options for `player`, as a
        RuleError at the part of its `for`, `when` or label that fails."""
        rule = f"action {self.name}"
        env = {"player": player}
        parts = [(self.items, env)] if self.items else []
        try:
            values = _items(st, self.items(st, env)) if self.items else [None]
        except Exception:   # noqa: BLE001 — the `for` itself fails
            values = []
        for value in values:
            bound = {**env, self.var: value} if self.var else env
            parts += [(f, bound) for f in (self.when, self.label) if f is not None]
        for function, bound in parts:
            try:
                function(st, dict(bound))
            except Exception as e:   # noqa: BLE001
                return faults.explain_expression(e, st, function, bound, rule)
        return faults.explain_expression(error, st, self.when or self.items, env, rule)

    def frame(self, player, bound, parent: Frame) -> Frame:
        """The frame of this action chosen with `bound`, made as its slots (flow.Frame)."""
        frame = _new(Frame)
        frame.proc, frame.pc = self.key, 0
        frame.env = {"player": player, self.var: bound} if self.var else {"player": player}
        frame.secret = parent.secret or bool(parent.env.get("$secret"))
        return frame


class StaticTable:
    """What a label that reads no state may read of a game in progress: the game, its
    seats and their number (which never change). Anything else is not here."""
    __slots__ = ("game", "seats", "n")

    def __init__(self, game, n: int):
        self.game, self.n, self.seats = game, n, [Seat(i) for i in range(n)]

    def display_options(self, decision) -> list[str]:
        """A decision's labels made from its values (a namer: see flow.Decision)."""
        return self.game.display_options(decision)

    def name_options(self, decision) -> list[str]:
        """A turn's labels: those given when it was asked, and the stateless ones
        made now (a namer: see flow.Decision)."""
        actions, player = self.game.actions, Seat(decision.player)
        labels = decision.given_labels()
        for i, label in enumerate(labels):
            if label is None:
                choice = decision.values[i]
                if choice == "done":    # `until done`: given as None when every label is
                    labels[i] = "done"
                    continue
                name, value = choice
                labels[i] = actions[name].stateless_label_of(self, player, value)
        return labels


class Game:
    # Straight-line functions for blocks that cannot ask anyone (compile.py); off
    # only where a test compares a game with them and without them.
    straight = True

    def __init__(self, checked):
        spec, names, data = checked.spec, checked.names, checked.spec.data
        self.spec, self.names, self.data = spec, names, data
        self.kinds = checked.kinds
        # the parsed rules, for what a save's check reads of them (what values a rule
        # can store in each local: save_checks, rulespec/local_values.py)
        self.rules = checked.rules
        self._tables: dict[int, StaticTable] = {}
        self.file, self.variant, self.name = spec.file, spec.variant, data["game"]
        self.min_players, self.max_players = data["players"]["min"], data["players"]["max"]
        self.spec_hash = spec_hash(spec.source)
        self.spec_id = spec_id(data)   # by content: comments and layout do not count
        self.bounds = Limits.of(data)
        self.meter = [0, 0, 0.0, 0.0]     # functions.start_meter: items walked, next look, deadline
        start_meter(self)
        self.step_budget = self.bounds.steps     # sets first_look too
        self.boards = {n: Board(n, d) for n, d in (data.get("boards") or {}).items()}
        self._build_cards(data)
        self.decls = {s: {k: _decl(v) for k, v in (data.get(s) or {}).items()}
                      for s in ("globals", "per_player", "per_card")}
        # every card's start value of each per-card variable, copied by each new state
        # (a copy of a made map costs a sixth of building it from the card ids again)
        self.card_starts = {k: dict.fromkeys(self.cards, d["start"])
                            for k, d in self.decls["per_card"].items()}
        self.zone_decls = data.get("zones") or {}
        self.player_zone_decls = data.get("player_zones") or {}
        self.limits = {k: v.get("limit") for k, v in {**self.zone_decls, **self.player_zone_decls}.items()
                       if (v or {}).get("limit") is not None}
        self.reshuffle_from = {k: v["reshuffle_from"] for k, v in
                               {**self.zone_decls, **self.player_zone_decls}.items()
                               if (v or {}).get("reshuffle_from")}
        self.triggers_on: dict[str, list[str]] = {}
        for tname, trig in (data.get("triggers") or {}).items():
            self.triggers_on.setdefault(trig["on"], []).append(tname)
        self.player_names = list(data["players"].get("names") or [])
        self._kinds = checked.kinds     # chance.plan tells a zone from a list by them
        self._compile(checked.rules)
        # labels others read as made from what they see (visibility.decision_text)
        self.private_labels = private_labels(spec, checked.rules, names)
        # lines of the choices whose options read the decider's own values: '?' to the others
        # (validate's shown-text check found them)
        self.private_choices = checked.private_choices
        self.menu_keys = tuple(self.menu_keys)   # rules compiled later (scenarios) add none

    def _build_cards(self, data):
        self.cards: dict[str, dict] = {}
        self.cards_by_name: dict[str, list[str]] = {}
        self.card_start: dict[str, str] = {}
        self.starting_zones: dict[int, tuple] = {}   # players -> state.py's _starting_zones
        declared = data.get("cards") or {}
        total = sum(entry.get("count", 1) for decl in declared.values() for entry in decl["list"])
        if total > self.bounds.cards:   # counted before a single card is made
            raise self.spec.error(f"the spec declares {total:,} cards, over the limit of "
                                  f"{self.bounds.cards:,} (limits: cards)", ("cards",))
        for kind, decl in declared.items():
            defaults = decl.get("attrs") or {}
            for entry in decl["list"]:
                count = entry.get("count", 1)
                for i in range(1, count + 1):
                    cid = entry["name"] if count == 1 else f"{entry['name']}#{i}"
                    if cid in self.cards:
                        raise self.spec.error(f"two cards are called '{cid}'", ("cards", kind))
                    attrs = {**defaults, **{k: v for k, v in entry.items() if k != "count"}}
                    self.cards[cid] = {**attrs, "id": cid, "kind": kind}
                    self.cards_by_name.setdefault(entry["name"], []).append(cid)
                    self.card_start[cid] = decl["in"]
        # the builtins' lookups by name (find, move_named, one_of_each), made once
        self.name_of: dict[str, str] = {cid: attrs["name"] for cid, attrs in self.cards.items()}
        self.ids_called: dict[str, frozenset] = {n: frozenset(ids) for n, ids in self.cards_by_name.items()}

    # ---------------------------------------------------------------- compile
    def _compile(self, rules, quiet=True):
        """Compile every rule; quiet=False: no quiet procedure functions (compile.py's
        plan_quiet), when one is past what Python compiles."""
        by_path = {r.path: r for r in rules}
        # spec functions' trees: a scenario's expression is refused an effect reached through
        # them, here and by the check of a scenario file (rulespec.scenario.rule_errors)
        self.function_trees = {p[1]: r.tree for p, r in by_path.items() if p[0] == "functions"}
        self._effects = EffectFinder(self.function_trees)
        compiler = Compiler(self, self.names)
        self.programs: dict[str, Program] = {}
        self._snippets: list[tuple] = []    # statement snippets, in order: a pickle replays them
        self.calls = {}     # spec function name -> f(state, *args)
        self.menu_keys = []  # "menu:RULE: LABEL" for every menu option, for rule coverage

        def expr(path):
            rule = by_path.get(path)
            if rule is None:
                return None
            compiler.mark = lambda line, col: self.spec.text_position(rule.path, line, col)
            tree = rule.tree.right if path[-1] == "for" else rule.tree
            scope = set(rule.scope) | assigned_names(rule.tree, self.names)
            function = compiler.expr(tree, scope)
            # where it came from, for errors at play in words (faults.py)
            function.node, function.mark, function.scope = tree, compiler.mark, scope
            return function

        def outside(path, what, number=False):
            """An expression evaluated outside the run loop, its faults located."""
            fn = expr(path)
            return None if fn is None else guarded(fn, what, number)

        def candidates(name, var):
            items, when = by_path.get(("actions", name, "for")), by_path.get(("actions", name, "when"))
            rule = when or items
            if rule is None:
                return None
            compiler.mark = lambda line, col: self.spec.text_position(rule.path, line, col)
            scope = set(rule.scope) | assigned_names(rule.tree, self.names)
            return compiler.candidates(var, items.tree.right if items else None,
                                       when.tree if when else None, scope)

        def by_arguments(name, var):
            """An action's label as f(st, player, value), or None (codegen label_function)."""
            rule = by_path.get(("actions", name, "label"))
            if rule is None or var is None:
                return None
            compiler.mark = lambda line, col: self.spec.text_position(rule.path, line, col)
            return compiler.label_function(rule.tree, set(rule.scope) | assigned_names(rule.tree, self.names), var)

        def function(name):
            rule = by_path[("functions", name, "expr")]
            compiler.mark = lambda line, col: self.spec.text_position(rule.path, line, col)
            return compiler.spec_function(name, rule.tree,
                                          set(rule.scope) | assigned_names(rule.tree, self.names))

        def program(key, label, path, prelude=None):
            rule = by_path[path]
            compiler.mark = lambda line, col: self.spec.text_position(rule.path, line, col)
            compiler.program = prog = Program(key, label, path)
            if prelude:
                prog.emit(prelude, (self.file, self.spec.mark(path)[0]), frozenset())
            compiler.assigned = assigned_before(rule.tree, self.names, rule.scope)
            compiler.block(rule.tree.body, set(rule.scope) | assigned_names(rule.tree, self.names))
            compiler.assigned = {}
            self.programs[key] = prog

        def quiet_scope(key):
            kind, name = key.split(":", 1)
            section = {"proc": "procedures", "action": "actions", "trigger": "triggers"}[kind]
            rule = by_path[(section, name, "do")]
            compiler.mark = lambda line, col: self.spec.text_position(rule.path, line, col)
            return set(rule.scope) | assigned_names(rule.tree, self.names)

        try:
            compiler.know_functions({name: by_path[("functions", name, "expr")].tree
                                     for name in self.names.functions})
            for name in self.names.functions:
                self.calls[name] = function(name)
            bodies = {name: by_path[("procedures", name, "do")].tree.body
                      for name in self.data.get("procedures") or {}}
            acts = {name: by_path[("actions", name, "do")].tree.body
                    for name in self.data.get("actions") or {}}
            trigs = {name: by_path[("triggers", name, "do")].tree.body
                     for name in self.data.get("triggers") or {}}
            if self.straight and quiet:
                compiler.plan_quiet(bodies, quiet_scope, acts, trigs)
            program("flow", "the flow", ("flow",))
            for name in self.data.get("phases") or {}:
                program("phase:" + name, f"phase {name}", ("phases", name, "do"))
            for name in self.data.get("procedures") or {}:
                program("proc:" + name, f"procedure {name}", ("procedures", name, "do"))
            self.actions = {}
            for name, decl in (self.data.get("actions") or {}).items():
                var = for_variable(decl["for"]) if "for" in decl else None
                label = by_path.get(("actions", name, "label"))
                self.actions[name] = Action(name, var, expr(("actions", name, "for")),
                                            expr(("actions", name, "when")),
                                            expr(("actions", name, "label")),
                                            candidates(name, var),
                                            self._stateless(label, ("actions", name, var)))
                if not self.actions[name].stateless_label:
                    self.actions[name].by_arguments = by_arguments(name, var)
                program("action:" + name, f"action {name}", ("actions", name, "do"))
            whens = {}
            for name in self.data.get("triggers") or {}:
                when = whens[name] = expr(("triggers", name, "when"))
                program("trigger:" + name, f"trigger {name}", ("triggers", name, "do"),
                        prelude=_fires(when, "trigger:" + name))
            self.end_conditions = [(n, expr(("end", n, "when"))) for n in self.data.get("end") or {}]
            try:
                compiler.write_quiet(bodies, quiet_scope, acts,
                                     {name: (body, whens[name]) for name, body in trigs.items()})
            except (SyntaxError, RecursionError, MemoryError, NotStraight):   # past what Python compiles
                return self._compile(rules, quiet=False)
            self._plan_end_checks(by_path)
            for name, ident in compiler.quiet.items():   # its end checks, as when its frame ends
                checks = self.programs["proc:" + name].exit_checks
                if checks:
                    compiler.source.ns[ident] = quiet_exit(compiler.source.ns[ident], checks)
            for name, ident in compiler.quiet_triggers.items():   # None: `when` did not hold
                checks = self.programs["trigger:" + name].exit_checks
                if checks:
                    compiler.source.ns[ident] = quiet_exit(compiler.source.ns[ident], checks, unfired=None)
            self.chance_points = chance.plan(self.programs, rules, self._kinds)
            self.local_labels = _local_labels(self.spec, rules, self.names, compiler._for_keys)
            self.invariants = [(n, outside(("invariants", n), f"invariant {n}"))
                               for n in self.data.get("invariants") or {}]
            scoring = self.data.get("scoring") or {}
            self.score = outside(("scoring", "score"), "scoring score", True) if "score" in scoring else None
            self.eligible = (outside(("scoring", "eligible"), "scoring eligible")
                             if "eligible" in scoring else None)
            self.tiebreaks = [outside(("scoring", "tiebreaks", i), f"tie-break {i + 1}", True)
                              for i in range(len(scoring.get("tiebreaks") or []))]
            self.heuristic = outside(("heuristic",), "heuristic", True) if "heuristic" in self.data else None
        except RulespecError as e:
            if compiler.mark and e.line is not None and e.file is None:
                e.line, e.col = compiler.mark(e.line, e.col)
                e.file = self.file
            raise

    def __reduce__(self):
        """A game pickles as what it was compiled from: its spec's text, file name and
        variant, its step budget and the statement snippets compiled into it since
        (their program keys count the programs before them). Unpickling compiles that
        once per process (_unpickled_game): the states of one game sent to a worker one
        by one share the worker's one Game. In this process the Game comes back that
        was pickled first with the same fields (this one, unless the same spec was
        loaded twice)."""
        key = (self.file, self.variant, self.spec.source, self._step_budget, tuple(self._snippets))
        _LOADED.setdefault(key, self)
        return _unpickled_game, key

    @property
    def step_budget(self) -> int:
        """The steps the run loop may take without asking anyone (limits: steps)."""
        return self._step_budget

    @step_budget.setter
    def step_budget(self, steps: int) -> None:
        # the step count at which the run loop first looks at the budget and the
        # clock: at 1,024, or past a smaller budget (flow.run reads it per decision)
        self._step_budget = steps
        self.first_look = 1024 if steps >= 1024 else steps + 1

    def _stateless(self, label, var) -> bool:
        """Whether an action's label reads nothing a game changes, so it may be made
        when asked instead of for every option: no name of state, no function of
        the spec, no builtin with an effect, and every part of a known kind that
        holds no zone (whose cards are state). The default label (name and value
        displayed) always qualifies. var: the action's `for` parameter key, or None."""
        if label is None:
            return True
        kinds, names = self.kinds, self.names
        if kinds is None or effects.reads(label.tree, names) != frozenset():
            return False
        parts = [kinds.params.get(var)] if var[2] is not None else []
        for node in rulespec_ast.walk(label.tree):
            if isinstance(node, rulespec_ast.Call) and (node.func in names.functions
                                                        or node.func in EFFECTS or node.kwargs):
                return False
            if isinstance(node, rulespec_ast.Name) and names.resolve(node.id, {"player", var[2]})[0] in (
                    "current_phase", "zone", "global"):
                return False
            parts.append(kinds.of(node))
        return all(_plain_kind(k) for k in parts)

    def display_options(self, decision) -> list[str]:
        """A decision's labels made from its values (a namer: see flow.Decision),
        the same for every player count: flow.ask names with it, without looking
        up the table of the state's count at every decision."""
        names = self.player_names
        return [display(v, names) for v in decision.values]

    def table(self, n: int) -> StaticTable:
        table = self._tables.get(n)
        if table is None:
            table = self._tables[n] = StaticTable(self, n)
        return table

    def _plan_end_checks(self, by_path):
        """Tell each instruction which end conditions its writes could make true."""
        trees = {n: by_path[("functions", n, "expr")].tree for n in self.names.functions
                 if ("functions", n, "expr") in by_path}
        self._end_reads = [(name, cond, effects.reads(by_path[("end", name, "when")].tree,
                                                      self.names, trees))
                           for name, cond in self.end_conditions]
        for program in self.programs.values():
            program.plan_end_checks(self._end_reads, self._reach(program))
        # phases first: a `phase` statement's form goes on into its phase's first
        # instruction only once that phase is finished (compile.py's _phase_link)
        for program in sorted(self.programs.values(), key=lambda p: not p.key.startswith("phase:")):
            program.finish()

    def _reach(self, program) -> frozenset | None:
        """What a block may write, with the procedures and triggers it starts (and
        theirs); None: anything."""
        found, seen, todo = set(), {program.key}, [program]
        while todo:
            p = todo.pop()
            for written in p.written:
                if written is None:
                    return None
                found |= written
            for key in p.pushes - seen:
                seen.add(key)
                todo.append(self.programs[key])
        return frozenset(found)

    def checker(self, section: str, name: str, stored=None):
        """A function that lets a value through or says which bound, or which
        declared kind, it breaks. stored: the kind validate gives the value stored
        (a rulespec.kinds.Kind; None: unknown), so that a store it proves is not
        checked for its kind (see held_kind)."""
        decl = self.decls[section][name]
        low, high, one_of = decl.get("min"), decl.get("max"), decl.get("one_of")
        held = self.held_kind(section, name, stored)
        if low is None and high is None and one_of is None and held is None:
            return lambda v: v
        is_held = _HOLDS[family(held)] if held is not None else None

        def check(v):
            if is_held is not None and not is_held(v) and (v is not None or not held.none):
                raise RuleError(self._not_held(section, name, held, v))
            try:
                if low is not None and v < low:
                    raise RuleError(f"{name} would become {v}, below its minimum {low}")
                if high is not None and v > high:
                    raise RuleError(f"{name} would become {v}, above its maximum {high}")
            except TypeError:   # not a number: say so in words
                bound = f"minimum {low}" if low is not None else f"maximum {high}"
                raise RuleError(f"{name} would become {faults.show(v)}, but it holds numbers "
                                f"(its {bound})") from None
            if one_of is not None and v not in one_of:
                raise RuleError(f"{name} would become {display(v)}, not one of {display(one_of)}")
            return v
        return check

    def held_kind(self, section: str, name: str, stored=None):
        """The kind a store into variable `name` must be checked against at play, or
        None when it needs no check: the variable's kind is not declared (its start
        value, `type:`, `min`/`max`, as rulespec.infer's fixed), its `one_of` checks
        already, or `stored`, the kind of the value, proves it fits
        (rulespec.kinds.surely_fits). What validate cannot prove -- a value that may
        be none, or a local that holds a number here and a text there -- is checked
        where it is stored, not where it is later misused."""
        kinds, key = self._kinds, (section, name)
        if kinds is None or key not in kinds.fixed or self.decls[section][name].get("one_of") is not None:
            return None
        held = kinds.variables.get(key)
        if not known(held) or held.base == "none" or surely_fits(stored, held):
            return None
        return held

    def _not_held(self, section, name, held, v) -> str:
        """The message of a store of `v` where `name`, declared to hold `held`, cannot
        keep it: 'pts would become none, but it holds numbers (declared at 5:3): ...'."""
        line, col = self._kinds.declared_at.get((section, name), (None, None))
        where = f" (declared at {line}:{col})" if line else ""
        fix = (f": test for none before storing, or declare it `type: {held.words()} or none`"
               if v is None else "")
        return f"{name} would become {faults.show(v)}, but it holds {held.plural()}{where}{fix}"

    # ------------------------------------------------------------------ play
    def new_state(self, players: int, seed: int = 0, record: bool = False, trace=None, rig=None,
                  forced: str = "take", chance: str = "sample"):
        """A new game, run up to its first decision. `record` keeps every event
        (decisions, chance outcomes, notes) in `state.events` for logs; `trace`
        receives every state change with its rule (interpreter/engine/changes.py);
        `rig` (engine/rig.py Rig) fixes the set-up's chance outcomes.

        `forced`: what happens at a decision with one legal option. "take" (the
        default) takes it without stopping (a traced game reports it: "P1 must:
        done"); "ask" stops there like at any decision, so API users and
        enumerators see every position where someone decides.

        `chance`: "sample" (the default) lets the state's generator decide every
        roll, pick and shuffle; "explicit" makes each one a chance node that
        `chance_outcomes()` lists and `apply_chance(outcome)` answers
        (interpreter/engine/chance.py). Raises RulespecError for a player count the
        game does not allow, ValueError for another `forced` or `chance`."""
        from .state import State
        if not self.min_players <= players <= self.max_players:
            raise RulespecError(f"{self.name} is for {self.min_players} to {self.max_players} "
                                f"players, not {players}")
        if forced not in ("take", "ask"):
            raise ValueError(f"forced must be 'take' or 'ask', not {forced!r}")
        if chance not in ("sample", "explicit"):
            raise ValueError(f"chance must be 'sample' or 'explicit', not {chance!r}")
        return State.new(self, players, seed, record, trace, rig, ask_forced=forced == "ask",
                         explicit_chance=chance == "explicit")

    def snippet(self, text: str, kind: str, names=(), scenario: bool = False, step: str = "expect"):
        """Compile a DSL string from outside the spec (a scenario step): an expression
        gives a closure f(state, env); statements give a program key to run.
        `names` are locals the caller puts in env (a scenario's `let:` names);
        `scenario` statements may not take cards from hidden player zones unasked
        (functions.move: their program key starts with "scenario:"). `step`: the
        scenario step key an expression is (expect, let or play_until), for the
        words of a refusal. Raises RuleError for an effect in an expression
        (purity.refusal), an unknown call, or a read of a local never set."""
        from rulespec.dsl import parse_expression, parse_statements
        compiler = Compiler(self, self.names)
        if kind == "expression":
            tree = parse_expression(text)
            self._known_calls(tree)
            for node, chain in self._effects.calls(tree)[:1]:
                raise RuleError(refusal(node, chain, ("scenarios", 0, "steps", 0, step)),
                                line=node.line, col=node.col)
            return guarded(compiler.expr(tree, assigned_names(tree, self.names) | set(names)),
                           "a scenario step")
        tree = parse_statements(text)
        self._known_calls(tree)
        for name, node, message in unassigned_reads(tree, self.names, set(names)):
            raise RuleError(message, line=node.line, col=node.col)
        key = f"{'scenario' if scenario else 'snippet'}:{len(self.programs)}"
        compiler.program = Program(key, "a scenario step")
        compiler.block(tree.body, assigned_names(tree, self.names) | set(names))
        compiler.program.plan_end_checks(self._end_reads)
        compiler.program.finish()
        self.programs[key] = compiler.program
        self._snippets.append((text, kind, tuple(names), scenario))   # compiled: a pickle replays it
        return key

    def compile_expression(self, node, scope):
        """An AST expression as f(state, env), compiled now (faults.py evaluates the
        parts of a failing rule one by one)."""
        return Compiler(self, self.names).expr(node, set(scope))

    def _known_calls(self, tree) -> None:
        """A snippet is not checked with the spec: refuse calls of nothing known, and a
        procedure called inside an expression (a statement of its own, or `x = p(...)`,
        as the checker allows: rulespec.check)."""
        from rulespec.builtins import SIGNATURES
        from rulespec.loader import did_you_mean
        from rulespec import ast
        known = set(SIGNATURES) | set(self.names.functions) | set(self.names.procedures)
        statements = {id(n.call) for n in ast.walk(tree) if isinstance(n, ast.CallStmt)} | \
            {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.func not in known:
                raise RuleError(f"unknown function '{node.func}'{did_you_mean(node.func, known)}",
                                line=node.line, col=node.col)
            if isinstance(node, ast.Call) and node.func in self.names.procedures and id(node) not in statements:
                raise RuleError(f"procedure '{node.func}' may ask players to decide, so it can only "
                                f"be called as a statement (or as `x = {node.func}(...)`, in a `do:` step)",
                                line=node.line, col=node.col)

    def state_from_json(self, text: str, name: str = "<save>"):
        """A state saved by State.to_json; CorruptFile (placed at `name`, the save's
        file) for text that is not a sound save of this game."""
        from .state import State
        return State.from_json(self, text, name)

    def options_for(self, st, player, action_names) -> tuple[list, list]:
        """A turn's legal choices: (action, bound value) each, and their labels."""
        values, labels = [], []
        for name in action_names:
            try:
                self.actions[name].options(st, player, values, labels)
            except Exception as e:   # noqa: BLE001 — said in words, at the failing part
                raise self.actions[name].fault(e, st, player) from None
        return values, labels

    def turn_options(self, action_names):
        """options(st, player) -> (values, labels) for a `turn` of `action_names`: what
        options_for gives, in the same order, but labels None where every label is
        stateless (StaticTable.name_options makes them when read), and None for
        each stateless one in a list. When every action's candidates are generated
        (codegen.candidates) they are fused into one generated function: one call,
        no list per action; an error in it is said by options_for, at the failing
        action, as without fusing. Otherwise options_for itself."""
        names = list(action_names)
        spaces = {id(fn.__globals__): fn.__globals__ for fn in (self.actions[n].candidates for n in names)
                  if getattr(fn, "parts", None) is not None}
        if not names or len(spaces) > 1 or any(_parts(self.actions[n]) is None for n in names):
            return lambda st, player: self.options_for(st, player, names)
        return self._fused(names, next(iter(spaces.values()), {}))

    def _fused(self, names, space):
        """One generated function f(st, player) -> (values, labels) for the actions
        `names` (generated candidates, in namespace `space`), in their order: values
        [(action, value), ...], labels None, or a list with the labels that read the
        state made (label_of, in order) and None for the rest. Where an action's
        candidates were also written for a player proven a seat (codegen.candidates'
        `seat`), the function tests the player once and takes those for a seat. An
        error in it is said by options_for, at the failing action (it runs the
        actions again, one by one, unfused), as without fusing; labels and error
        are made in it, not in a function around it: a call less at every turn."""
        # speculating (codegen by_speculation) where every action's candidates are pure
        spec = all(_parts(self.actions[n]) == (None, None, None)
                   or getattr(self.actions[n].candidates, "speculative", None) is not None for n in names)
        players, lines, marks = self._fused_lines(names, seat=False, spec=spec)
        quick = {n for n, name in marks if self.actions[name].by_arguments is not None}
        done = self._labels_made(marks, quick) + ["return _turn_values, _turn_labels"]
        body = [f"{' = '.join(players)} = _turn_player", "_turn_values = []"]
        if any(getattr(self.actions[n].candidates, "seat", None) for n in names):
            _, seat_lines, _ = self._fused_lines(names, seat=True, spec=spec)
            body += [f"if {seat_test('_turn_player')}:", *("    " + line for line in seat_lines + done)]
        local = {"_turn_fault": lambda st, player: self.options_for(st, player, names)}
        local.update((f"_turn_label{n}", self.actions[name].by_arguments if n in quick
                      else self.actions[name].label_of) for n, name in marks)
        if quick:
            local["_turn_show"] = display
        local.update((f"_turn_each{i}", repeat(name)) for i, name in enumerate(names)
                     if f"_turn_each{i}" in "".join(lines))
        body = "\n        ".join(body + lines + done)
        # an error: options_for raises it, at the failing action; speculating, a
        # KeyError or TypeError may be the speculation's, and options_for's answer is the exact one
        fault = "return _turn_fault(st, _turn_player)" if spec else "_turn_fault(st, _turn_player)\n        raise"
        source = (f"def _turn_options(st, _turn_player, {', '.join(f'{k}={k}' for k in local)}):\n"
                  f"    try:\n        {body}\n"
                  f"    except Exception:\n        {fault}\n")
        exec(compile(literals(source, space), f"<rulespec turn options {' '.join(names)}>", "exec"),  # noqa: S102 — generated names only
             space, local)
        return local["_turn_options"]

    @staticmethod
    def _labels_made(marks, quick) -> list:
        """_fused's lines that make the labels reading the state: for each mark (n,
        action) the values in _turn_found{n}, whose options start at _turn_at{n};
        for n in `quick`, by the label's function of arguments, displayed here
        (what Action.label_of does), not by a call of label_of."""
        lines = ["_turn_labels = None"]
        for n, _ in marks:
            made = f"_turn_label{n}(st, _turn_player, _turn_v)"
            if n in quick:
                made = f"_turn_l if (_turn_l := {made}).__class__ is str else _turn_show(_turn_l, st.game.player_names)"
            lines += [f"if _turn_found{n}:",
                      "    if _turn_labels is None:",
                      "        _turn_labels = [None] * len(_turn_values)",
                      f"    for _turn_i, _turn_v in enumerate(_turn_found{n}, _turn_at{n}):",
                      f"        _turn_labels[_turn_i] = {made}"]
        return lines

    def _fused_lines(self, names, seat, spec=False):
        """(player names, lines, marks) of _fused's body: the candidates as written
        for any player, or (seat) for a player proven a seat where they differ;
        (spec) as written speculating (codegen `candidates`)."""
        players, lines, run, marks = ["_turn_p"], [], [], []
        for name in names:
            action = self.actions[name]
            player, value, tail = _parts(action)
            players.append(player or "_turn_p")
            loops = getattr(action.candidates, "loops", None)
            written = getattr(action.candidates, "seat", None)
            if spec and getattr(action.candidates, "speculative", None) is not None:
                (player, value, tail), loops, written = action.candidates.speculative
            if seat and written:
                (player, value, tail), loops = written
            if loops is not None:   # as loops (codegen.lowered): no comprehension's frame
                lines += [f"_turn_values += [{', '.join(run)}]"] * bool(run)
                lines += self._looped(name, action, loops, marks, f"_turn_each{names.index(name)}")
                run = []
                continue
            if value is not None:
                found = f"[{value} {tail}]"
                pairs = f"*[({name!r}, {value}) {tail}]"
            elif tail is not None:
                found = f"([None] if {tail} else [])"
                pairs = f"*((({name!r}, None),) if {tail} else ())"
            else:
                found, pairs = "[None]", f"({name!r}, None)"
            if action.stateless_label:
                run.append(pairs)
                continue
            mark = f"_turn_found{len(marks)}"
            lines += [f"_turn_values += [{', '.join(run)}]"] * bool(run) + [f"{mark} = {found}",
                      f"_turn_at{len(marks)} = len(_turn_values)",
                      f"_turn_values += [({name!r}, _turn_v) for _turn_v in {mark}]"]
            marks.append((len(marks), name))
            run = []
        lines += [f"_turn_values += [{', '.join(run)}]"] * bool(run)
        return players, lines, marks

    @staticmethod
    def _looped(name, action, loops, marks, each) -> list:
        """_fused's lines for one action whose candidates are loops (lines ending in
        a `for` or `if`, and the value it binds): each value appended to the one
        list as (action, value), and to a list of its own when its label reads
        the state (a mark in `marks`, as for a comprehension). A plain walk whose
        every item is a value adds them all at once, paired in C with `each`
        (the name of itertools.repeat(action)), not one append per item."""
        first, item = loops
        add = [f"_turn_values.append(({name!r}, {item}))"]
        walk = re.fullmatch(r"for (_v\d+) in (.+):", first[-1]) if first else None
        if action.stateless_label and walk and walk[1] == item:
            return first[:-1] + [f"_turn_values += zip({each}, {walk[2]})"]
        if action.stateless_label:
            return first + ["    " + line for line in add]
        n = len(marks)
        marks.append((n, name))
        return [f"_turn_found{n} = []", f"_turn_at{n} = len(_turn_values)", *first,
                *("    " + line for line in [f"_turn_found{n}.append({item})", *add])]

    def seat_name(self, seat: int) -> str:
        return self.player_names[seat] if seat < len(self.player_names) else f"P{seat + 1}"


def _parts(action):
    """The generated source of an action's candidates (codegen.candidates' parts);
    an action with neither `for` nor `when` has one, None, always; None when its
    candidates are left to closures."""
    if action.items is None and action.when is None:
        return None, None, None
    return getattr(action.candidates, "parts", None)


def _plain_kind(kind) -> bool:
    """A known kind that holds no zone at any depth."""
    if kind is None or kind.base in ("any", "nothing", "zone"):
        return False
    return all(_plain_kind(k) for k in (kind.item, kind.key) if k is not None)


# What a value of each family of kinds is at play (engine/values.py): a player is a
# Seat, an int; a card, zone, cell or board is its name, a str.
_HOLDS = {"number": lambda v: isinstance(v, (int, float)) and v.__class__ is not bool,
          "text": lambda v: isinstance(v, str), "bool": lambda v: v.__class__ is bool,
          "list": lambda v: isinstance(v, (list, tuple)), "map": lambda v: isinstance(v, dict)}


def _decl(value) -> dict:
    return value if isinstance(value, dict) and "start" in value else {"start": value}




_PROGRAMS = {"phases": "phase:", "procedures": "proc:", "actions": "action:", "triggers": "trigger:"}


def _local_labels(spec, rules, names, for_keys) -> dict:
    """{program key: {env key: labels}}: who may read each local of a frame
    (rulespec/taint.py); a loop's item list ("$forN") carries its loop's labels."""
    out = {}
    for path, env in local_labels(spec, rules, names).items():
        key = "flow" if path == ("flow",) else _PROGRAMS[path[0]] + path[1]
        out[key] = {k: v for k, v in env.items() if isinstance(k, str)}
        out[key].update((for_keys[id(k)], v) for k, v in env.items()
                        if not isinstance(k, str) and id(k) in for_keys)
    return out


def _fires(when, key):
    """A trigger's first instruction: it stops unless `when` holds, and counts the
    times it fires (rule coverage)."""
    def fires(st, fr):
        if when is not None and not when(st, fr.env):
            st.stack.pop()
        else:
            st.fired[key] = st.fired.get(key, 0) + 1
    if when is not None:   # an error in `when` is reported at it (faults.py)
        fires.node, fires.mark, fires.scope = when.node, when.mark, when.scope
    return fires


# Games compiled by this process, by what a pickle names them by (Game.__reduce__)
_LOADED: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _unpickled_game(file, variant, source, steps, snippets) -> Game:
    """The Game a pickle names (Game.__reduce__'s fields): the one this process holds
    for them, or a new one compiled from the spec text, never read from `file` (the
    pickle is the whole game: a worker needs no copy of the spec). Raises SpecErrors
    when the text no longer validates (a pickle made by another rulespec version)."""
    key = (file, variant, source, steps, snippets)
    game = _LOADED.get(key)
    if game is None or (game.step_budget, tuple(game._snippets)) != (steps, snippets):
        # (a game registered when pickled may have been changed since)
        game = load_game(file, variant=variant, text=source)
        game.step_budget = steps
        for text, kind, names, scenario in snippets:
            game.snippet(text, kind, names, scenario)
        _LOADED[key] = game
    return game


__all__ = ["Game", "Option", "Options", "load_game", "Seat"]
