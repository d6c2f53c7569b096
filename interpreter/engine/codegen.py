"""Expressions compiled to one Python function each, instead of a closure per node.

A closure per AST node costs a Python call per node on every evaluation; the
profile of a real game is dominated by those calls. Here an expression tree
becomes the source of one `lambda st, env: ...`, built from the checked AST.
Spec functions take their parameters as Python arguments, an action's legal
bindings are one comprehension, and the busiest instructions (see compile.py)
are one generated `def` each.

The spec is data and stays data: no text of the spec ever enters the
generated source. Every literal, name and key is put in the function's
namespace under a generated identifier (`_k3`), comprehension variables
become generated identifiers (`_v1`), and nodes this module does not
handle are compiled by the ordinary closure compiler and called (`_c2`).

The checker's kinds (rulespec/infer.py, `Checked.kinds`) choose the fast path
written for a node: a card's attribute read from one table per attribute, a
map's or list's item and `in` with no helper, a zone's cards walked directly,
a list's count its length, lists or texts joined with their size tested first.
A kind is a guess, never trusted: where the spec cannot decide it is unknown,
and a scenario step may pass a spec function what the spec's own calls never
do. So every fast path tests its value's class and falls back to the general
helper (`_attr`, `_index`, `_contains`, `_items`, the builtin), which gives
the same value or the same error in the same words. A value read by the test
and again by the path is bound once (`(_w1 := ...)`), or inside a
comprehension's iterable, where Python allows no assignment, by a loop of one.
Small spec functions are written out at their calls (`inline_function`), with
the small ones they call written out in them; where a statement's comprehensions
become loops (`lowered`), so do those of a small function it calls (`_through`).
`ExpressionSource.by_kinds = False` turns all of this off, for the test that
compares games with and without it (tests/engine/test_codegen_kinds.py).

A value proven of its class by how it is made (`proof`) needs no test: a zone's
walk gives card ids (every card is in one zone, and a zone holds nothing else),
players' walk seats, a constant is what it is, a seat's player zone a zone. A
spec function whose body tests a parameter for a seat or a card more than once
(or in a loop) is written twice: once for a parameter proven so by one test at
its entry, once as before for any other value (`_entry_guard`); a turn's options
likewise for a player that is a seat (`candidates`, game.py's _fused). The value,
the error and its words stay those of the general way. `by_proofs = False`
turns proofs off, for the test that compares games with and without them.
"""
from __future__ import annotations

import os
import re

from rulespec import ast
from rulespec.scope import CARD_FIELDS, LAYOUT_FIELDS, RESULT_KEYS

from rulespec.errors import RuleError
from rulespec.limits import check_number, too_big
from . import chance
from .functions import FUNCTIONS, _extreme, _items, _list_extreme, meter_check, seat
from .values import PLAIN_KEYS, Seat, Zone, display, player_zone, sort_key
from .visibility import HIDDEN_TEXT

_ARITH = {"+", "-", "*", "//", "%"}
# a value cheap to read twice: a local, a constant, a variable
_SIMPLE = re.compile(r"_[vakwh]\d+|_pl\d+|_it\d+|env\[_k\d+\]|st\.g\[_k\d+\]"
                     r"|st\.pv\[_k\d+\]\[(_[va]\d+|_pl\d+|env\[_k\d+\])\]")
# the class of a value of a known kind, for a test of it (a zone is a _Zone)
_CLASS = {"list": "list", "map": "dict", "zone": "_Zone"}
# a value whose reading can neither fail nor change anything: a local or a constant
# The class most values of a kind have at play, for a store's inline test of its kind
# (_checker): a number is an int, a text or card its str, and so on.
_USUAL_CLASS = {"number": "int", "text": "str", "card": "str", "cell": "str", "board": "str",
                "bool": "bool", "list": "list", "map": "dict"}

_CHEAP = re.compile(r"_[vakwh]\d+|_pl\d+|_it\d+")
# a local made by the generated code and assigned once, or a constant: what it is
# proven (`proven`, `lengths`) holds wherever its name is read
_FRESH = re.compile(r"_[kwvLrh]\d+")
_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
# a generated constant's name, in source to compile (`literals`)
_CONSTANT = re.compile(r"\b_k\d+\b")
# a proof (ExpressionSource.proof) -> the class a test of the value would test for
_PROVEN_CLASS = {"card": "str", "seat": "_Seat", "zone": "_Zone", "dict": "dict", "list": "list"}
_PROOF_OF_CLASS = {Zone: "zone", dict: "dict", list: "list"}
# builtin of one argument -> (the test of its usual case, its value then), inline
# (name() and kind() read their card attribute's table: see card_table)
_INLINE = {
    "name": ("{x}.__class__ is str and {x} in {table}", "{table}[{x}]"),
    "kind": ("{x}.__class__ is str and {x} in {table}", "{table}[{x}]"),
    "count": ("{x}.__class__ is _Zone", "len(st.zones[{x}])"),
}
# builtins whose value, when they give one, is always of one class (functions.py):
# a call of one is proven that (`proof`)
_RESULT_PROOF = {"tally": "dict", "with_key": "dict", "keys": "list", "cards": "list", "sort": "list",
                 "reverse": "list", "remove": "list", "unique": "list", "range": "list",
                 "append": "list", "rotate": "list", "flatten": "list", "one_of_each": "list",
                 "clockwise_from": "list:seat", "others": "list:seat"}
# AST levels one generated function holds. Python's parser refuses more than 200
# nested brackets and a level writes at most three, so a deeper expression is cut
# into parts, each its own generated function, called with the locals it may read.
SPLIT_DEPTH = 40
# builtins that change the state or draw by chance: code calling one is not run twice
_IMPURE = frozenset({"shuffle", "draw", "move", "move_bottom", "move_named", "roll", "random_of", "log"})
# AST nodes of a spec function small enough to be written out at each call, its own
# and with those of the spec functions written out in it
INLINE_NODES = 64
INLINE_TOTAL = 96
# A constant list of at most this many items is walked with no meter where the walk's
# body walks nothing (`short_walk`). The shipped games' constant walks have at most 10
# items; 16 bounds what such walks add between two looks at the clock: a metered chunk
# (functions.METER_CHUNK items) whose bodies each hold one unmetered walk does at most
# 16 times the work it did metered, as one walk of a 16-times-longer list would.
SHORT_WALK = 16
# the expression nodes a short walk's body may hold: none of them walks a list, calls a
# spec function, or runs a comprehension (an `in` or `+` of lists costs what it costs
# outside any walk, unmetered there too)
_FLAT_RULES = frozenset({"number", "string", "const", "name", "attr", "index", "list_", "neg",
                         "not_", "and_", "or_", "compare", "arith", "if_exp"})
# builtins a short walk's body may call: they walk nothing and call no spec function
_FLAT_CALLS = frozenset({"abs", "name", "kind"})


class ExpressionSource:
    """Turns one expression tree into Python source plus its namespace."""
    # Fast paths chosen by the checker's kinds (`kind`); off only where a test
    # compares games with them and without them.
    by_kinds = True
    # Comprehensions at statement level written as loops (`lowered`); off only where
    # a test compares games with them and without them (and with by_kinds off).
    by_loops = True
    # Values proven of their class (`proof`) read with no test of it; off only where a
    # test compares games with them and without them.
    by_proofs = True
    # sort, max and min with `by=` written here, their key a generated lambda (`keyed`),
    # not a closure; off only where a test compares games with it and without it.
    by_keys = True
    # A loop written as lines (a lowered comprehension, a statement's `for`) meters a
    # list's walk inline, as _items would (`metered`), with no call; off only where a
    # test compares games (and meter counts) with it and without it.
    by_meter = True
    # `x += y` for a variable with numeric bounds tests its usual case once
    # (`checked_update`); off only where a test compares games with it and without it.
    by_bounds = True
    # In a pure spec function and a turn's fused options, a map's key read as
    # `m[k]` with no test of m's class or of the key (`speculating`): a wrong guess can
    # only raise KeyError or TypeError, and then the exact version runs from the
    # start; off only where a test compares games with it and without it.
    by_speculation = True
    # Speculating, `+` and `-` on numbers keep a result that is an int well inside the
    # integer bound (a small int, `small_arith`) and add such ints with no test while
    # their sum cannot reach the bound; anything else gives the speculation up. Off only
    # where a test compares games with it and without it.
    by_small = True
    # A walk of a constant list of at most SHORT_WALK items, its body walking nothing
    # (`short_walk`), is not metered, as a zone's walk is not: its size is fixed by the
    # spec's text as a zone's by its components. Off only where a test compares games
    # with it and without it.
    by_short_walks = True
    # Simple constants compiled as Python literals (`literals`), not globals; off only
    # where a test compares games with them and without them, or reads generated
    # source for its `_k` names (tests/generated.py).
    by_literals = True
    # `+` on lists or texts of a proven class (`sized`) tests only the result's size,
    # and nothing where both lengths have bounds whose sum is within the size limit
    # (`joined`); off only where a test compares games with it and without it.
    by_lengths = True
    # max, min, index_of, occurrences, first, last, any and all of a list proven to
    # hold at most SHORT_WALK items (`sized`) written as Python's own list operations
    # (`short_list`), with no call and no meter, as `in` on such a list goes unmetered:
    # the same values and errors. Off only where a test compares games (and meter
    # counts) with it and without it.
    by_short_lists = True
    # A proven card's attribute that not every card has is read from a copy of its
    # table whose miss raises what `attribute_of` raises (`CardTable`), with no test
    # of the key, and what every value of the table is (a list...) is proven of the
    # read. Off only where a test compares games with it and without it.
    by_missing = True
    # An action's label that reads the state is made from its arguments (player,
    # value), with a test at entry (`label_function`), not from an env made per
    # label. Off only where a test compares games with it and without it.
    by_arguments = True

    def __init__(self, compiler):
        self.compiler = compiler
        self.names = compiler.names
        game = compiler.game
        limits = game.bounds
        # the checker's kinds (rulespec/infer.py) choose which fast path to try first
        self.kinds = getattr(game, "kinds", None)
        self.ns = {"_items": _items, "_RI": _range_items, "_SORT": _sort_by, "_MAX": _max_by, "_MIN": _min_by,
                   "_skey": sort_key, "_PLAINK": PLAIN_KEYS, "_contains": _contains, "_attr": attribute_of(game),
                   "_IB": limits.integer_bound, "_SIZE": limits.size, "_num": lambda r: check_number(r, limits),
                   "_mul": checked_multiply(limits),
                   "_index": _index, "_CARDS": game.cards, "_MCHECK": meter_check,
                   "_METER": game.meter,    # the game's one meter list, changed in place only
                   "_LX": _list_extreme, "_SX": _short_extreme, "_PYMAX": max, "_PYMIN": min, "_Seat": Seat, "_seat": seat, "_Zone": Zone,
                   "_PZ": {z: [player_zone(z, i) for i in range(game.max_players)]
                           for z in self.names.player_zones}}
        self.ns["_NIB"] = -limits.integer_bound     # an int's lower bound, negated once, not per test
        # a small int: strictly within +-_SMALL, so that 2**10 of them add up within the
        # integer bound (none where that bound is too small for it to matter)
        small = limits.integer_bound >> 10
        self.small = small if small >= 2 ** 32 else None
        self.ns.update(_SMALL=small, _NSMALL=-small, _MISS=_missed)
        # spec functions by generated name; those already compiled are bound now (a
        # scenario step compiled later calls them too), the others as they compile
        self._function_idents = {name: f"_fn{i}" for i, name in enumerate(self.names.functions)}
        for name, fn in getattr(game, "calls", {}).items():
            self.ns[self._function_idents[name]] = fn
        self.consts: dict = {}
        self.counter = 0
        self._code_names: dict = {}   # generated code's filename -> how many have had it (code_name)
        self._card_tables: dict = {}   # card attribute -> generated name of its table
        self._card_table_keys: dict = {}   # a card table's generated name -> its attribute (card_table)
        self._missing_tables: dict = {}    # a table's name -> its CardTable copy's (missing_table)
        self._int_bounds: dict = {}    # _checker's numeric template -> (checker, low, high)
        self._inlinable: dict = {}     # spec function -> how it is written at its calls (_measure)
        self._expanding: list = []     # the spec functions whose bodies are being written out
        # spec function compiled so far -> (body, scope, its nodes or None: never kept,
        # the spec functions it calls, whether it holds a comprehension)
        self._bodies: dict = {}
        self.locals: dict = {}      # comprehension variable -> python identifier
        self.depth = 0              # AST levels of the generated function being written
        self.has_env = True         # whether the code being written has `env` in scope
        self.in_iterable = 0        # >0 while writing a comprehension's iterable (no := there)
        self.speculating = False    # writing a version that a KeyError/TypeError gives up (`speculative`)
        self._pure: dict = {}       # spec function -> whether it is pure (`pure`)
        self.hoisted: dict = {}     # id(node) -> the local its value was computed into (lowered)
        # generated identifier -> what its value surely is, by how it was made, not by a
        # guess ("card": a card's id, from a zone's walk; "seat": from players' walk or a
        # parameter's test at entry; "zone"): its reads need no test (see `proof`)
        self.proven: dict = {}
        # generated source -> M where its value is surely a small int, |value| <= M, its
        # class int (not a bool nor a seat): by how it is made (`smallness`)
        self.small_ints: dict = {}
        # generated source -> (class, M): its value is surely a list or a text ("list",
        # "str"; its `+` gives one of that class or raises) of at most M items or
        # characters (M None: not known), by how it is made (`sized`)
        self.lengths: dict = {}
        # generated source of a list display, a comprehension, or an if of such (or of
        # `_FRESH` locals): what is kept of it holds wherever its text is written
        self.everywhere: set = set()
        # a card's id, or a hidden card's text in a seat's copy, has at most this many characters
        self.card_chars = max(len(c) for c in [HIDDEN_TEXT, *game.cards])
        self.walked = None          # what the items of the last `walk` are proven to be
        self.walk_most = None       # at most how many items the last `walk` or `_loop` gives
        self.looped = None          # what the elements of the last `_loop`'s list are proven to be
        self._constant_proofs: dict = {}   # id(constant list or map) -> (it, its proof)
        # the loops (`_loop`) being written, innermost last: [counter before its variable,
        # {read: local}] for the reads to compute once before it; None stops the search
        # (a part, a function of its own, cannot see those locals)
        self.loops: list = []
        n = self.names
        # keys a map value can have: a constant map's, an auction result's, a layout cell's
        self._map_keys = ({str(k) for v in n.constants.values() if isinstance(v, dict) for k in v}
                          | RESULT_KEYS | LAYOUT_FIELDS)
        # attribute names that may mean something other than a player's variable
        self._shadow_attrs = (set(n.player_zones) | set(n.per_card) | n.card_attrs | CARD_FIELDS
                              | self._map_keys)

    def function(self, node, scope):
        """f(state, env): an expression whose free names are looked up in env."""
        lines, source = self.lowered(node, scope)
        filename = self.code_name("expression", self.at(node))
        if lines:   # its comprehensions as loops: a def
            return self._define("def _expr(st, env):", lines + [f"return {source}"], filename)
        code = compile(literals(f"lambda st, env: {source}", self.ns), filename, "eval")
        return eval(code, self.ns)  # noqa: S307 — source built only from generated identifiers

    def spec_function(self, name, node, scope):
        """A spec function as f(state, *args): its parameters are Python arguments, so a
        call builds no env. A body with a part left to closures (which read env) is
        compiled the env way and wrapped."""
        params = self.names.functions[name]
        if _leaves_to_closures(node):
            by_env = self.function(node, scope)
            fn = lambda st, *args: by_env(st, dict(zip(params, args)))  # noqa: E731
        else:
            fn = self._by_arguments(node, scope, params, f"<rulespec function {name}>")
        self.ns[self._function_idents[name]] = fn
        self._note_inlinable(name, node, scope)
        return fn

    def label_function(self, node, scope, var):
        """An action's label as f(state, player, value), `var` (its `for` variable)
        bound to value: its names read from arguments, not from an env made per
        label, and (as a spec function's body) written again for a value proven a
        card or seat by one test at its entry (`_entry_guard`), so its reads and
        joins test nothing more. Its value as the label's expression gives it
        (Action.label_of displays it). None where a part is left to closures."""
        if not self.by_arguments or _leaves_to_closures(node):
            return None
        return self._by_arguments(node, scope, ["player", var], self.code_name("label", self.at(node)))

    def _by_arguments(self, node, scope, params, filename):
        """`node` as f(state, *args), its names `params` its arguments (spec_function)."""
        idents = [self.fresh("a") for _ in params]
        signature = f"st{''.join(', ' + i for i in idents)}"
        lines, source = self._function_body(node, scope, params, idents)
        if self.speculative(node):
            fast = self.speculate(lambda: self._function_body(node, scope, params, idents))
            if fast != (lines, source):
                lines, source = self._given_up(fast, (lines, source)), None
        if lines:   # its comprehensions as loops: a def
            return self._define(f"def _fn({signature}):", lines + [f"return {source}"] * (source is not None),
                                filename)
        code = compile(literals(f"lambda {signature}: {source}", self.ns), filename, "eval")
        return eval(code, self.ns)  # noqa: S307 — source built only from generated identifiers

    def _function_body(self, node, scope, params, idents):
        """(lines, expression) of a spec function's body, its parameters `idents`:
        lines to run first ([] for a lambda), then the value returned."""
        saved = dict(self.locals)
        self.locals.update(zip(params, idents))
        self.has_env = False
        try:
            lines, source = self.lowered(node, scope)
            guard, fast = self._entry_guard(node, scope, idents, lines, source)
        finally:
            self.locals, self.has_env = saved, True
        if guard is not None and not lines and not fast[0]:
            source = f"({fast[1]} if {guard} else {source})"
        elif guard is not None:
            lines = ([f"if {guard}:"] + ["    " + line for line in fast[0] + [f"return {fast[1]}"]]
                     + lines)
        return lines, source

    # ---------------------------------------------------------- speculation
    def speculative(self, *roots) -> bool:
        """Whether code of `roots` may be written a second time, speculating (see
        by_speculation): the switch is on and running it twice changes nothing (`pure`)."""
        return self.by_speculation and self.by_kinds and self._pure_body(*roots)

    def speculate(self, write):
        """What write() returns, written with `speculating` on."""
        saved, self.speculating = self.speculating, True
        try:
            return write()
        finally:
            self.speculating = saved

    @staticmethod
    def _given_up(fast, exact) -> list:
        """A def body's lines: the speculating version (lines, value) in a `try` that a
        KeyError or TypeError leaves for the exact one, run from the start. A `try`
        costs nothing in CPython 3.11 until something is raised; the speculating
        version reads nothing the exact one would not, in the same order, so an
        error of any other class is the exact version's own."""
        body = lambda part: part[0] + [f"return {part[1]}"]  # noqa: E731
        return (["try:"] + ["    " + line for line in body(fast)]
                + ["except (KeyError, TypeError):", "    pass"] + body(exact))

    def know_functions(self, trees: dict) -> None:
        """Learn which spec functions are pure (`_pure_body`), from {name: body tree}
        of all of them, before any is compiled: a function is pure when its body is,
        counting the functions it calls pure until one is shown not to be."""
        self._pure = dict.fromkeys(trees, True)
        changed = True
        while changed:
            changed = False
            for name, tree in trees.items():
                if self._pure[name] and not self._pure_body(tree):
                    self._pure[name], changed = False, True

    def _pure_body(self, *roots) -> bool:
        """Whether evaluating `roots` twice does what evaluating them once does: no
        builtin that changes the state or draws by chance, no part left to closures,
        and only spec functions known pure (`know_functions`). (Reading an unordered
        zone's position fixes it once: a second read asks nothing.)"""
        for root in roots:
            if root is None:
                continue
            for n in _walk(root):
                if _closure_only(n):
                    return False
                if isinstance(n, ast.Call) and (n.func in _IMPURE or n.func in self.names.functions
                                                and not self._pure.get(n.func, False)):
                    return False
        return True

    def _entry_guard(self, node, scope, idents, lines, source):
        """(test, (lines, expression)) or (None, None): a spec function's body written
        again for parameters proven seats or cards by one test at its entry (the
        body's own reads of them then test nothing), where the body (`lines`,
        `source`) saves two tests or more (a test in a loop counts twice). Only a
        parameter the kinds make a seat or a card (the body tests it for that
        class and no other) is tested; any other value takes the body as it is."""
        if not (self.by_kinds and self.by_proofs):
            return None, None
        text = "\n".join(lines + [source])
        proofs = {}
        for i in idents:
            # a card's test: of its id, or of a text before its CardTable read (_text_case)
            seat = text.count(f"{i}.__class__ is _Seat")
            card = text.count(f"{i}.__class__ is str and {i} in ") + text.count(f"{i}.__class__ is str else ")
            if bool(seat) != bool(card):
                proofs[i] = "seat" if seat else "card"
        if not proofs:
            return None, None
        self.proven.update(proofs)
        try:
            fast = self.lowered(node, scope)
        finally:
            for i in proofs:
                del self.proven[i]
        if _tests(lines, source) - _tests(*fast) < 2:    # too few tests saved to pay for one
            return None, None
        guard = " and ".join(seat_test(i) if proof == "seat"
                             else f"{i}.__class__ is str and {i} in _CARDS" for i, proof in proofs.items())
        return guard, fast

    def inline_function(self, name, args):
        """A call of a small spec function as its body, written where it is called:
        a call costs more than such a body. Its arguments are evaluated first, in
        order, as by a call: a local or constant stands for its parameter, anything
        else is bound once (`(body if (_w1 := ...) is _w1 and ... else None)`, see
        `let`). Inside a body being
        written, only the calls it was measured with (`_note_inlinable`) are written
        out too, so the writing ends. None when the function is not small, not
        compiled yet, or an argument cannot be bound here (in an iterable, where
        Python allows no assignment)."""
        kept = self._inlinable.get(name) if self.by_kinds else None
        params = self.names.functions[name]
        if (kept is None or kept[4] or len(args) != len(params) or name in self._expanding
                or self._expanding and name not in self._inlinable[self._expanding[-1]][3]):
            return None
        tree, scope = kept[:2]
        binds, given = [], {}
        for param, arg in zip(params, args):
            if _CHEAP.fullmatch(arg) and arg not in given.values():
                given[param] = arg
            elif self.in_iterable:
                return None
            else:
                given[param] = w = self.fresh("w")
                binds.append((w, arg))
                self._carry(arg, w)     # what the argument is proven, its parameter is
        saved = self.locals, self.has_env
        self.locals, self.has_env = given, False     # the body reads its parameters only
        self._expanding.append(name)
        try:
            source = self.source(tree, scope)
        finally:
            self.locals, self.has_env = saved
            self._expanding.pop()
        return let([f"({w} := {arg}) is {w}" for w, arg in binds], source) if binds else f"({source})"

    def _note_inlinable(self, name, node, scope) -> None:
        """Keep a spec function's body to write at its calls when it is small (see
        `_measure`). When a function compiled before calls this one, all are
        measured again, callees first: that one then counts this one in (and
        writes it out) at the calls compiled from now on."""
        nodes = list(_walk(node))
        generated = not any(map(_closure_only, nodes))
        calls = [n.func for n in nodes if isinstance(n, ast.Call) and n.func in self.names.functions]
        looped = any(isinstance(n, ast.Comprehension) for n in nodes)
        self._bodies[name] = (node, scope, len(nodes) if generated else None, calls, looped)
        if any(name in body[3] for other, body in self._bodies.items() if other != name):
            self._inlinable = {}
            for other in _callees_first({n: set(body[3]) & set(self._bodies) for n, body in self._bodies.items()}):
                self._measure(other)
        else:
            self._measure(name)

    def _measure(self, name) -> None:
        """Keep `name` when its body holds nothing left to closures, at most
        INLINE_NODES nodes of its own and INLINE_TOTAL with the bodies of the kept
        functions it calls (they are written out in it). Only those kept before it
        are written out in it, never itself (`inline_function`): its other calls
        stay calls, so a writing ends however functions call each other, and its
        size is the one counted. Kept: (body, scope, size, those it writes out,
        whether its body holds a comprehension, whether it or one of those does)."""
        node, scope, own, calls, looped = self._bodies[name]
        if own is None or own > INLINE_NODES:
            return
        size, callees, deep = own, set(), looped
        for callee in calls:
            kept = self._inlinable.get(callee) if callee != name else None
            if kept is not None:
                size += kept[2]
                callees.add(callee)
                deep = deep or kept[5]
        if size <= INLINE_TOTAL:
            self._inlinable[name] = (node, scope, size, callees, looped, deep)

    def _through(self) -> frozenset:
        """The spec functions whose calls `lowered` writes out here, their bodies'
        comprehensions as loops (`_inline_lines`): the kept ones that hold one (or
        write out one that does); inside a body being written out, those of them
        it was measured with."""
        if not (self.by_loops and self.by_kinds) or self.in_iterable:
            return frozenset()
        names = self._inlinable[self._expanding[-1]][3] if self._expanding else self._inlinable
        return frozenset(n for n in names if self._inlinable[n][5] and n not in self._expanding)

    def _inline_lines(self, result, call, scope) -> list:
        """Lines leaving in `result` the value of `call`, a call of a spec function
        in `_through`, written out: each argument evaluated in order, as by a call,
        into a local of its own (a local or constant stands for itself), then the
        body lowered with its parameters read from those. A body's comprehensions
        become loops here, where a call of it would be a frame and a comprehension
        another."""
        params = self.names.functions[call.func]
        if call.kwargs or len(call.args) != len(params):
            return [f"{result} = {self.source(call, scope)}"]
        lines, given = [], {}
        for param, arg in zip(params, call.args):
            first, src = self.lowered(arg, scope)
            lines += first
            if _CHEAP.fullmatch(src) and src not in given.values():
                given[param] = src
            else:
                given[param] = local = self.fresh("w")
                lines.append(f"{local} = {src}")
                self._carry(src, local)
        tree, inner = self._inlinable[call.func][:2]
        saved = self.locals, self.has_env
        self.locals, self.has_env = given, False     # the body reads its parameters only
        self._expanding.append(call.func)
        try:
            first, value = self.lowered(tree, inner)
        finally:
            self.locals, self.has_env = saved
            self._expanding.pop()
        self._carry(value, result)
        return lines + first + [f"{result} = {value}"]

    # ----------------------------------------------------------- statements
    def statement(self, body: list[str], where: tuple):
        """An instruction f(state, frame) from generated lines that use `env` (where a
        part left to closures finds every local, as in an expression); `where`: the
        spec's (line, col) or (line, None) it comes from (code_name)."""
        name = self.fresh("s")
        lines = [f"def {name}(st, fr):", "    env = fr.env"] + ["    " + line for line in body]
        code = compile(literals("\n".join(lines), self.ns), self.code_name("statement", where), "exec")
        exec(code, self.ns)  # noqa: S102 — source built only from generated identifiers
        return self.ns.pop(name)

    def target(self, node, scope, stored=None):
        """Where a value can be stored, as (lines to run first, Python place, check
        template or None: see _checker); None for targets left to closures (a map's
        or list's item). stored: the kind of the value stored (Compiler.stored_kind)."""
        game, names = self.compiler.game, self.names
        if isinstance(node, ast.Name):
            kind, _ = names.resolve(node.id, scope)
            if kind == "global":
                return [], f"st.g[{self.const(node.id)}]", self._checker(game, "globals", node.id, stored)
            return [], f"env[{self.const(node.id)}]", None
        if isinstance(node, ast.Attr) and node.name in names.per_player:
            section, table = "per_player", "st.pv"
        elif isinstance(node, ast.Attr) and node.name in names.per_card:
            section, table = "per_card", "st.cv"
        else:
            return None
        obj, src = self.fresh("o"), self.source(node.obj, scope)   # read once, though an update reads and writes it
        if table == "st.pv" and self.proof(src) != "seat" and self.kind(node.obj) != "seat":
            src = f"_seat(st, {src})"   # a number names a seat: is one there?
        return ([f"{obj} = {src}"],
                f"{table}[{self.const(node.name)}][{obj}]", self._checker(game, section, node.name, stored))

    def _checker(self, game, section, name, stored=None):
        """None (no bounds, and a kind the value's proves: Game.held_kind), or the
        check of a stored value as a template: "{}" stands for the value. A whole
        number within numeric bounds, or a value of the variable's usual class where
        only its kind is checked, passes inline; anything else goes through
        Game.checker, which lets it through or says which bound or kind it breaks."""
        decl = game.decls[section][name]
        low, high, one_of = decl.get("min"), decl.get("max"), decl.get("one_of")
        if low is None and high is None and one_of is None:
            held = game.held_kind(section, name, stored)
            if held is None:
                return None
            check, v = self.fresh("chk", game.checker(section, name, stored)), self.fresh("c")
            usual = _USUAL_CLASS.get(held.base)
            return f"({v} if ({v} := {{}}).__class__ is {usual} else {check}({v}))" if usual \
                else check + "({})"
        check = self.fresh("chk", game.checker(section, name, stored))
        if one_of is not None or not all(type(b) in (int, float) for b in (low, high) if b is not None):
            return check + "({})"
        v = self.fresh("c")
        bounds = " and ".join([f"{self.const(low)} <= {v}"] * (low is not None)
                              + [f"{v} <= {self.const(high)}"] * (high is not None))
        template = f"({v} if ({v} := {{}}).__class__ is int and {bounds} else {check}({v}))"
        self._int_bounds[template] = (check, low, high)
        return template

    def checked_update(self, op, a, b, check) -> str | None:
        """`a op b` (op + or -) as a store checked by `check` (_checker's template of a
        variable's numeric bounds) stores it: its usual case, a whole number within
        the bounds and the integer bound, tested once, not by arith's test and then
        the variable's; anything else goes through arith's other cases and then the
        variable's checker (Game.checker), which let it through or raise as before,
        the integer bound's error first. None where it does not apply (by_bounds off)."""
        known = self._int_bounds.get(check) if self.by_bounds and self.by_kinds else None
        if known is None or op not in ("+", "-") or self.in_iterable:
            return None
        fn, low, high = known
        bound = self.compiler.game.bounds.integer_bound
        r = self.fresh("r")
        lowest = f"{self.const(low)} <= {r}" if low is not None and low > -bound else f"_NIB < {r}"
        highest = f" <= {self.const(high)}" if high is not None and high < bound else " < _IB"
        rest = (f"({r} if {r}.__class__ is int and _NIB < {r} < _IB "
                f"else {r} if {r}.__class__ is str and len({r}) <= _SIZE else _num({r}))")
        return f"({r} if ({r} := {a} {op} {b}).__class__ is int and {lowest}{highest} else {fn}({rest}))"

    def candidates(self, var, items, when, scope):
        """An action's legal bindings as one function f(state, player) -> list: its
        `for` values that pass its `when` (no `for`: [None] or []), with no env built
        per candidate. None when a part is left to closures (they read env)."""
        if _leaves_to_closures(*(n for n in (items, when) if n is not None)):
            return None
        player = self.fresh("pl")

        def write():
            return self._candidates_written(var, items, when, scope, player)
        source, parts, loops, seat = write()
        code = compile(literals(f"lambda st, {player}: {source}", self.ns), self.code_name("candidates", self.at(items if items is not None else when)), "eval")
        found = eval(code, self.ns)  # noqa: S307 — source built only from generated identifiers
        # its source, for game.py's turn_options to fuse a turn's actions into one function:
        # (player name, value name or None, `for ... if ...` tail or the `when` test or None);
        # seat: (parts, loops) for a player that is a seat, or None when they are the same;
        # speculative: (parts, loops, seat) written speculating (by_speculation), for a
        # fused function that a KeyError or TypeError sends to the exact way; None when
        # the candidates are not pure
        found.parts, found.loops, found.seat = parts, loops, seat
        found.speculative = self.speculate(write)[1:] if self.speculative(items, when) else None
        return found

    def _candidates_written(self, var, items, when, scope, player):
        """(source, parts, loops, seat) of `candidates`, the player named `player`."""
        saved = dict(self.locals)
        self.locals["player"] = player
        self.has_env = False
        seat = None
        try:
            source, parts, loops = self._candidate_source(var, items, when, scope, player)
            if self.by_kinds and self.by_proofs and f"{player}.__class__ is _Seat" in repr((source, loops)):
                # written again for a player proven a seat by one test (the usual case)
                self.proven[player] = "seat"
                try:
                    fast, *seat = self._candidate_source(var, items, when, scope, player)
                finally:
                    del self.proven[player]
                source = f"({fast} if {seat_test(player)} else {source})"
        finally:
            self.locals, self.has_env = saved, True
        return source, parts, loops, seat

    def _candidate_source(self, var, items, when, scope, player):
        """(source of the candidates' list, parts, loops): see `candidates`."""
        if var is None:
            test = self.source(when, scope) if when is not None else None
            source = "[None]" if when is None else f"([None] if {test} else [])"
            parts = (player, None, test)
        else:
            walk = self.walk(items, scope, when)
            self.locals[var] = value = self.fresh("v")
            self._prove(value, self.walked)
            cond = f" if {self.source(when, scope | {var})}" if when is not None else ""
            source = f"[{value} {walk.format(value)}{cond}]"
            parts = (player, value, f"{walk.format(value)}{cond}")
        loops = self._candidate_loops(var, items, when, scope) if self._may_lower(items, when) else None
        return source, parts, loops

    def _candidate_loops(self, var, items, when, scope):
        """(lines, item): the candidates as statements (their comprehensions as loops,
        `lowered`) ending in a `for` or `if` whose body the caller ends with what it
        does with each `item` (game.py's _fused appends it to its one list). None
        without a `when` or `for` (nothing to lower)."""
        if var is not None and self.speculating and isinstance(when, ast.And):
            return self._invariant_first(var, items, when, scope)
        if var is not None:
            return self._loop(None, var, items, when, None, scope)
        if when is None:
            return None
        lines, test = self.lowered(when, scope)
        return lines + [f"if {test}:"], "None"

    def _invariant_first(self, var, items, when, scope):
        """_candidate_loops' (lines, item) for a `when` whose first parts do not read
        `var` (a global's test, the player's), speculating: those parts tested once, before
        the walk, which stops at its first item when they fail. Only a fused turn's
        options are written so (a failure there of any class runs the exact way), and
        only pure candidates (`speculative`): the same test every item would give."""
        n = next((i for i, part in enumerate(when.items)
                  if any(isinstance(x, ast.Name) and x.id == var for x in _walk(part))), len(when.items))
        if n == 0 or n == len(when.items):
            return self._loop(None, var, items, when, None, scope)
        first, rest = (w if len(w) > 1 else w[0]
                       for w in (when.items[:n], when.items[n:]))
        first = ast.And(when.line, when.col, first) if isinstance(first, list) else first
        rest = ast.And(when.line, when.col, rest) if isinstance(rest, list) else rest
        lines, test = self.lowered(first, scope)
        flag = self.fresh("w")
        loop, item = self._loop(None, var, items, rest, None, scope, stop=flag)
        return lines + [f"{flag} = {test}"] + loop, item

    # ------------------------------------------------------------ lowering
    def lowered(self, node, scope):
        """(lines, expression): `node` as statements that compute its comprehensions
        into locals, as loops, then the expression that reads them. In CPython 3.11
        a comprehension is a call and a frame of its own; a loop in the function
        that holds it is neither. ([], the expression) when there is nothing to lower.

        Evaluation is Python's, part for part: a comprehension is computed first
        only where it is evaluated unconditionally (not under `and`, `or`, an `if`'s
        branches, or another comprehension's element), and every part Python would
        evaluate before it is computed first too, in order, into a local of its own
        (`_hoists`). So the same values are read, the same items walked and metered
        (_items), the same error raised by the same part, and nothing evaluated
        that the expression would not."""
        hoists = self._hoists(node) if self._may_lower(node) else []
        through = self._through() if hoists else frozenset()
        lines, added = [], []
        try:
            for part in hoists:
                local = self.fresh("w")
                value = local
                if isinstance(part, ast.Comprehension):
                    lines += self._loop(local, part.var, part.iter, part.cond, part.elt, scope)
                    # a list of what its elements are proven, if they are (a zone's cards)
                    self._prove(local, "list:" + self.looped if self.looped else "list")
                    self.lengths[local] = ("list", self.walk_most)
                elif isinstance(part, (ast.And, ast.Or, ast.IfExp)) and _lowers(part, through):
                    first, value = self._branches(local, part, scope)
                    lines += first
                elif isinstance(part, ast.Call) and part.func in through:
                    lines += self._inline_lines(local, part, scope)
                else:
                    src = self.source(part, scope)
                    lines.append(f"{local} = {src}")
                    self._carry(src, local)
                self.hoisted[id(part)] = value
                # a part cut into a generated function of its own (SPLIT_DEPTH) is
                # passed the locals it may read: these too (no spec name has a NUL)
                self.locals["\0" + local] = local
                added.append((id(part), local))
            return lines, self.source(node, scope)
        finally:
            for key, local in added:
                del self.hoisted[key], self.locals["\0" + local]

    def _may_lower(self, *roots) -> bool:
        """Whether the parts under `roots` can be written as statements: all generated
        (none read env as closures do), each node met once (a shared node read in two
        places keeps one evaluation each), and not at a comprehension's iterable."""
        if not (self.by_loops and self.by_kinds) or self.in_iterable:
            return False
        seen = set()
        for root in roots:
            if root is None:
                continue
            for n in _walk(root):
                if id(n) in seen or _closure_only(n):
                    return False
                seen.add(id(n))
        return True

    def _hoists(self, node) -> list:
        """The parts of `node` to compute first, in Python's order of evaluation: each
        comprehension evaluated unconditionally, each part evaluated before one (a
        part that cannot fail nor change anything, a local or a constant, is left
        where it is); a call written out with its comprehensions as loops counts as
        one (`_through`). [] when `node` holds no such comprehension."""
        through = self._through()
        if (isinstance(node, ast.Comprehension) or _branches_lower(node, through)
                or isinstance(node, ast.Call) and node.func in through):
            return [node]
        parts = _evaluated_first(node)
        last = max((i for i, p in enumerate(parts) if _lowers(p, through)), default=None)
        if last is None:
            return []
        out = []
        for part in parts[:last]:
            if not self._settled(part):
                out += [h for h in self._hoists(part) if h is not part] + [part]
        return out + self._hoists(parts[last])

    def _settled(self, node) -> bool:
        """A value whose reading can neither fail nor change anything, nor be changed
        by what is evaluated after it: a local, a literal, a constant name."""
        if isinstance(node, (ast.Number, ast.String, ast.Const)):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.locals
        return False

    def _branches(self, result, node, scope):
        """(lines, expression) of an `and`, `or` or `if` whose later parts hold a
        comprehension: each part lowered under the `if` that Python's own
        short-circuit would test, its value left in `result`."""
        if isinstance(node, ast.IfExp):
            lines, test = self.lowered(node.cond, scope)
            arms, values = [], []
            for branch in (node.then, node.orelse):
                first, value = self.lowered(branch, scope)
                arms.append(["    " + line for line in first + [f"{result} = {value}"]])
                values.append(value)
            self._either(result, *values)
            return lines + [f"if {test}:"] + arms[0] + ["else:"] + arms[1], result
        go_on = f"if {result}:" if isinstance(node, ast.And) else f"if not {result}:"
        lines, pad = [], ""
        for i, item in enumerate(node.items):
            first, value = self.lowered(item, scope)
            if i:
                lines.append(pad + go_on)
                pad += "    "
            lines += [pad + line for line in first + [f"{result} = {value}"]]
        return lines, f"(not not {result})"    # the DSL's and/or give true or false

    def _loop(self, result, var, items, cond, elt, scope, stop=None):
        """Lines leaving in `result` the list `[elt for var in items if cond]` (elt
        None: var itself), walked as `walk` walks it: the iterable first, then each
        item's test, then its element, each lowered in its turn. `result` None:
        (lines, element), the loop's body left for the caller to end (no list).
        `stop`: a local whose falsity ends the walk at its first item."""
        n = self.ranged(items)
        lines, x = self.lowered(items if n is None else n, scope)
        most = self._most_items(x) if n is None else None
        start = self.counter     # locals made from here on may change from item to item
        value = self.fresh("v")
        head, bind, walked = (f"for {{}} in _RI(st, {x})", None, None) if n is not None else self._walk_head(items, x)
        if bind is not None:
            one = self.fresh("L")
            lines.append(f"{one} = {x}")
            self._carry(x, one)
            head, _, walked = self._walk_head(items, one, bound=True)
        if n is None and self.short_walk(x, cond, elt):
            walk, head = [], f"for {{}} in {x}"
        else:
            walk, head = self.metered(head, x)   # x: the walked source (range(n): n's)
        head = head.format(value) + ":"
        self._prove(value, walked)
        frame = [start, {}]
        self.loops.append(frame)
        saved = self.locals.get(var)
        self.locals[var] = value
        inner = scope | {var}
        try:
            body = [f"if not {stop}:", "    break"] if stop else []
            if cond is not None:
                test_lines, test = self.lowered(cond, inner)
                body += test_lines + [f"if not ({test}):", "    continue"]
            elt_lines, item = self.lowered(elt, inner) if elt is not None else ([], value)
            body += elt_lines + [f"{result}.append({item})"] * (result is not None)
            looped = self.proof(item)
        finally:
            self.loops.pop()
            if saved is None:
                del self.locals[var]
            else:
                self.locals[var] = saved
        lines += [f"{local} = {read}" for read, local in frame[1].items()] + walk
        lines += [f"{result} = []"] * (result is not None) + [head]
        lines += ["    " + line for line in body]
        self.looped = looped    # what every element appended is proven (lowered)
        self.walk_most = most   # and at most how many there are
        return lines if result is not None else (lines, item)

    def _define(self, head, body, filename):
        """The function `head` + `body` (lines, indented here), compiled under `filename`."""
        text = "\n".join([head] + ["    " + line for line in body])
        namespace = {}
        exec(compile(literals(text, self.ns), filename, "exec"), self.ns, namespace)  # noqa: S102 — generated identifiers only
        return next(iter(namespace.values()))

    def at(self, node) -> tuple:
        """(line, col) of `node` in the spec's file (the rule's mark), for code_name."""
        if node is None:
            return ()
        mark = self.compiler.mark
        return mark(node.line, node.col) if mark else (node.line, node.col)

    def code_name(self, kind: str, where: tuple) -> str:
        """A generated code object's filename: what it is and where in the spec it comes
        from, "<rulespec expression game.yaml:12:5>" (where: (line, col), col may be
        None). Unique within this source, "#2" on the second from one place, so per-file
        profiles and tracebacks name one code each. Users never see it: faults.py maps
        code objects, not their names, back to the spec."""
        file = os.path.basename(self.compiler.game.file or "spec")
        place = ":".join(str(p) for p in (file, *where) if p is not None)
        name = f"<rulespec {kind} {place}>"
        seen = self._code_names[name] = self._code_names.get(name, 0) + 1
        return name if seen == 1 else f"{name[:-1]} #{seen}>"

    def const(self, value) -> str:
        key = (type(value).__name__, repr(value))
        if key not in self.consts:
            self.counter += 1
            self.consts[key] = name = f"_k{self.counter}"
            self.ns[name] = value
        return self.consts[key]

    def fresh(self, stem, value=None) -> str:
        self.counter += 1
        name = f"_{stem}{self.counter}"
        if value is not None:
            self.ns[name] = value
        return name

    def source(self, node, scope) -> str:
        if self.hoisted and id(node) in self.hoisted:
            return self.hoisted[id(node)]
        if self.depth >= SPLIT_DEPTH:
            return self.part(node, scope)
        method = getattr(self, "src_" + node.rule, None)
        if method is None:
            return self.fallback(node, scope)
        self.depth += 1
        try:
            return method(node, scope)
        finally:
            self.depth -= 1

    def part(self, node, scope) -> str:
        """`node` as a generated function of its own, and the call to it: the state,
        env (or None where the code has none) and every local it may read."""
        saved, self.depth = self.depth, 0
        self.loops.append(None)
        try:
            body = self.source(node, scope)
        finally:
            self.depth = saved
            self.loops.pop()
        args = ["st", "env" if self.has_env else "None", *self.locals.values()]
        params = ["st", "env", *self.locals.values()]
        name = self.fresh("part")
        code = compile(literals(f"lambda {', '.join(params)}: {body}", self.ns), f"<rulespec part {name}>", "eval")
        self.ns[name] = eval(code, self.ns)  # noqa: S307 — source built only from generated identifiers
        return f"{name}({', '.join(args)})"

    def iterable(self, node, scope) -> str:
        """A comprehension's iterable, where Python allows no assignment expression."""
        self.in_iterable += 1
        try:
            return self.source(node, scope)
        finally:
            self.in_iterable -= 1

    def fallback(self, node, scope) -> str:
        # a closure reads every local from env (a quiet function keeps env exact, see
        # compile.py's quiet_locals), never a Python local of the code calling it
        saved, self.locals = self.locals, {}
        try:
            closure = getattr(self.compiler, node.rule)(node, scope)
        finally:
            self.locals = saved
        return f"{self.fresh('c', closure)}(st, env)"

    # --------------------------------------------------------------- leaves
    def src_number(self, node, scope):
        return self.const(node.value)

    src_string = src_const = src_number

    def src_name(self, node, scope):
        n = node.id
        if n in self.locals:
            return self.locals[n]
        kind, payload = self.names.resolve(n, scope)
        if kind == "local":
            return f"env[{self.const(n)}]"
        if kind == "global":     # every global is in st.g: a read that cannot fail
            return self.invariant(f"st.g[{self.const(n)}]", None)
        if kind == "players":
            return "st.seats"
        if kind == "nplayers":
            return "st.n"
        if kind == "current_phase":
            return "st.phase"
        if kind == "variant":
            return self.const(self.compiler.game.variant)
        if kind == "zone":
            return self.const(Zone(n))
        if kind in ("constant", "symbol", "board"):
            return self.const(payload if kind == "constant" else n)
        raise RuleError(f"unknown name '{n}'", line=node.line, col=node.col)

    # ---------------------------------------------------------- structures
    def src_attr(self, node, scope):
        obj, key = self.source(node.obj, scope), node.name
        if key in self.names.per_player and key not in self._shadow_attrs:
            if self.proof(obj) == "seat":
                return self.invariant(f"st.pv[{self.const(key)}][{obj}]", obj)
            if self.kind(node.obj) != "seat":   # a number names a seat: is one there?
                obj = f"_seat(st, {obj})"
            return f"st.pv[{self.const(key)}][{obj}]"
        k = self.const(key)
        # What `attribute_of` would do, inline for the kinds of value this key can be
        # read from (an `obj` read twice: a cheap one, or one bound once); the general
        # way for the rest, and for its error message. A known kind of `obj` keeps
        # only its own case: a guess the value belies takes the general way. A value
        # proven of its class (`proof`) keeps only that class's case, with no test of
        # the class, and none at all where nothing else could fail.
        cases = self._proven_cases(self._attr_cases(key, k, self.kind(node.obj)), obj, k)
        if self.speculating and len(cases) == 1 and cases[0][0] and cases[0][1] == f"{{o}}[{k}]":
            return f"({obj})[{k}]"      # a map's key, or a KeyError/TypeError (by_speculation)
        sure = self._sure_read(cases, obj)
        if sure is not None:     # a proven card's attribute: no test, but it may fault
            return sure
        if cases and cases[0][0] is None:     # surely this case: its value, no test, no fault
            read = cases[0][1].replace("{o}", obj)
            folded = self._constant_item(read)
            return folded if folded is not None else self.invariant(read, obj)
        read = self.twice(obj) if cases else None
        if read is None:
            return f"_attr(st, {obj}, {k})"
        first, o = read
        general = f"_attr(st, {o}, {k})"
        for i, (test, value) in reversed(list(enumerate(cases))):
            test, value = self._text_case(test, value)
            if i == 0:      # the first test evaluates `obj`, once
                test = test.replace("{o}", first, 1)
            general = f"({value.replace('{o}', o)} if {test.replace('{o}', o)} else {general})"
        return general

    def _text_case(self, test, value) -> tuple:
        """A card table's case (test, value) for any text: `{o}` tested for a text
        only, its attribute read from the table's CardTable copy (missing_table),
        whose miss raises what attribute_of raises for any text without it (a card
        without the attribute, a text that is no card). Other cases as they are."""
        table = re.fullmatch(r"\{o\}\.__class__ is str and \{o\} in (_ca\d+)", test) if self.by_missing else None
        if table is None or value != f"{table[1]}[{{o}}]":
            return test, value
        return "{o}.__class__ is str", f"{self.missing_table(table[1])}[{{o}}]"

    def _sure_read(self, cases, obj) -> str | None:
        """`obj`'s attribute read from a table that raises for a card without it (the
        copy `missing_table` makes), where `obj` is a proven card and `cases` its one
        table case: what `attribute_of` does, with no test. Not `invariant`: a read
        that may fault is not moved before the loops around it. None otherwise."""
        if not (self.by_missing and len(cases) == 1 and cases[0][0] is not None
                and self.proof(obj) == "card"):
            return None
        table = re.fullmatch(r"\{o\} in (_ca\d+)", cases[0][0])
        return f"{self.missing_table(table[1])}[{obj}]" if table else None

    def missing_table(self, name) -> str:
        """The generated name of a CardTable copy of card table `name`, proven (see
        `proof`) what its values all are."""
        copy = self._missing_tables.get(name)
        if copy is None:
            table = self.ns[name]
            key = self._card_table_keys[name]
            copy = self._missing_tables[name] = self.fresh("cm", CardTable(table, key, self.compiler.game.player_names))
            self._prove(copy, self._value_proof(dict(table)))
        return copy

    def _attr_cases(self, key, k, kind) -> list:
        """(class, further test or None, value) templates of `{o}.key`'s usual cases,
        first to try first; the class is the one `{o}` is tested for."""
        n, cases = self.names, []
        if kind in (None, "seat", "number"):
            if key in n.per_player:
                cases.append(("_Seat", None, f"st.pv[{k}][{{o}}]"))
            elif key in n.player_zones:
                cases.append(("_Seat", None, f"_PZ[{k}][{{o}}]"))
        if kind in (None, "card", "text"):
            if key in n.per_card:
                cases.append(("str", "{o} in _CARDS", f"st.cv[{k}][{{o}}]"))
            elif key in n.card_attrs or key in CARD_FIELDS:
                table = self.card_table(key)
                cases.append(("str", f"{{o}} in {table}", f"{table}[{{o}}]"))
        if kind == "map" or kind is None and key in self._map_keys:
            cases.append(("dict", f"{k} in {{o}}", f"{{o}}[{k}]"))
        return cases

    def _proven_cases(self, cases, obj, k) -> list:
        """(test or None, value) templates: `cases` as tests of `{o}`'s class, or,
        for `obj` proven of its class, only that class's case, with what is left to
        test of it (None: nothing; a card table that every card fills, a constant
        map's key, are known here)."""
        proof = self.proof(obj)
        if proof is None:
            return [(f"{{o}}.__class__ is {cls}" + (f" and {more}" if more else ""), value)
                    for cls, more, value in cases]
        cls = _PROVEN_CLASS[base(proof)]
        for case_cls, more, value in cases:
            if case_cls != cls:
                continue
            if more is None or more == "{o} in _CARDS":
                return [(None, value)]
            table = re.fullmatch(r"\{o\} in (_ca\d+)", more)
            if table and len(self.ns[table[1]]) == len(self.compiler.game.cards):
                return [(None, value)]
            if table and re.fullmatch(r"_k\d+", obj):     # a card named in the spec
                return [(None, value)] if self.ns[obj] in self.ns[table[1]] else []
            if cls == "dict" and re.fullmatch(r"_k\d+", obj):    # a constant map
                return [(None, value)] if self.ns[k] in self.ns[obj] else []
            return [(more, value)]
        return []

    def _constant_item(self, read) -> str | None:
        """A constant map's number or text item read by a constant key (`read` is
        `_kM[_kK]`), as a constant of its own: its value when compiled, as no rule
        changes a constant; None for any other read."""
        item = re.fullmatch(r"(_k\d+)\[(_k\d+)\]", read)
        value = self.ns[item[1]].get(self.ns[item[2]]) if item and self.ns[item[1]].__class__ is dict else None
        return self.const(value) if value.__class__ in (int, str) else None

    def invariant(self, read, obj) -> str:
        """`read` (one that cannot fail nor change anything: a global's value, a proven
        seat's variable, a proven card's attribute) of `obj` (None: of nothing), or,
        inside loops it does not change in (obj made before them), the local it is
        computed into once before the outermost of them (`_loop`)."""
        if not (self.by_kinds and self.by_proofs):
            return read
        made = _number(obj) if obj is not None else -1
        if made is None:
            return read
        frame = None
        for loop in reversed(self.loops):
            if loop is None or made > loop[0]:
                break
            frame = loop
        if frame is None:
            return read
        local = frame[1].get(read)
        if local is None:
            local = frame[1][read] = self.fresh("h")
            self._carry(read, local)
        return local

    def proof(self, src) -> str | None:
        """What the value of generated source `src` surely is, by how it is made:
        "card" (a card's id), "seat", "zone", "dict" or "list", a map or list whose
        every item is proven one thing "dict:P" or "list:P" (`base` is its class);
        None when not known. Unlike a kind (a guess), a proof needs no test: a
        zone's walk gives card ids, players' walk seats, a parameter tested once at
        a function's entry its class, a constant its own, an item of a list
        display or constant what all of its items are."""
        if not (self.by_kinds and self.by_proofs):
            return None
        known = self.proven.get(src)
        if known is not None:
            return known
        if re.fullmatch(r"_k\d+", src):
            return self._value_proof(self.ns[src])
        if src == "st.seats":
            return "list:seat"
        if src[:1] in "([" and _bracket_closes_last(src, 0):
            parts = _top_level_parts(src[1:-1])
            if src[0] == "(":       # (x): x's; a tuple: none
                return self.proof(parts[0]) if len(parts) == 1 else None
            if len(parts) == 1 and " for " in parts[0]:     # a comprehension
                return "list"
            return _common("list", [self.proof(p) for p in parts if p])
        seat = re.fullmatch(r"_PZ\[_k\d+\]\[(\w+)\]", src)
        if seat:
            return "zone" if self.proof(seat[1]) == "seat" else None
        if src.endswith("]"):       # obj[key]: what obj's items all are
            at = _opening_bracket(src)
            primary = at and len(_top_level_parts(src[:at].replace(" ", ","))) == 1   # no operator in it
            container = self.proof(src[:at]) if primary else None
            if container is not None and ":" in container:
                return container.split(":", 1)[1]
        return None

    def _value_proof(self, value) -> str | None:
        """What a constant value is, as a proof."""
        cls = value.__class__
        if cls is str:
            return "card" if value in self.compiler.game.cards else None
        if cls in (dict, list):
            key = id(value)
            if key not in self._constant_proofs:
                items = value.values() if cls is dict else value
                self._constant_proofs[key] = (value, _common(_PROOF_OF_CLASS[cls],
                                                             [self._value_proof(v) for v in items]))
            return self._constant_proofs[key][1]
        return _PROOF_OF_CLASS.get(cls)

    def card_table(self, key) -> str:
        """The generated name of {card id: its attribute `key`}, for the cards that have it:
        one lookup where `_CARDS[c][key]` takes two and a test of each."""
        name = self._card_tables.get(key)
        if name is None:
            table = {cid: attrs[key] for cid, attrs in self.compiler.game.cards.items() if key in attrs}
            name = self._card_tables[key] = self.fresh("ca", table)
            self._card_table_keys[name] = key
            self.ns[name] = table   # even when empty (fresh binds only a value that is not None)
        return name

    def kind(self, node) -> str | None:
        """The base of `node`'s kind ("card", "map", ...) when the checker knows it."""
        kind = self.kinds.of(node) if self.kinds is not None and self.by_kinds else None
        return kind.base if kind is not None and kind.base not in ("any", "nothing", "none") else None

    def twice(self, src):
        """(its first read, its later reads) for a value a test reads before its use:
        itself when cheap to read again, else bound once by an assignment expression;
        None inside a comprehension's iterable, where Python allows none."""
        if _CHEAP.fullmatch(src):
            return src, src
        if self.in_iterable:
            return (src, src) if _SIMPLE.fullmatch(src) else None
        w = self.fresh("w")
        self._carry(src, w)
        return f"({w} := {src})", w

    def _prove(self, local, proof) -> None:
        if proof is not None:
            self.proven[local] = proof

    def forget(self, local) -> None:
        """Nothing is known of `local` any more (proof, small int, length): what
        `_carry` said of it held for code written before."""
        for known in (self.proven, self.small_ints, self.lengths):
            known.pop(local, None)

    def _carry(self, src, local) -> None:
        """`local`, assigned `src`, is proven what `src` is."""
        proof = self.proof(src)
        if proof is not None:
            self.proven[local] = proof
        most = self.smallness(src)
        if most is not None:
            self.small_ints[local] = most
        known = self.sized(src)
        if known is not None:
            self.lengths[local] = known

    def src_index(self, node, scope):
        obj, key = self.source(node.obj, scope), self.source(node.key, scope)
        # a map's or list's item read inline when the checker knows it is one (a zone's
        # goes through _index, which may reveal a card: a chance node)
        cls = _CLASS.get(self.kind(node.obj))
        if base(self.proof(obj)) in ("dict", "list"):     # no test: what _index does with it
            return f"{obj}[{key}]"
        read = self.twice(obj) if cls in ("dict", "list") else None
        if read is None:
            return f"_index(st, {obj}, {key})"
        first, o = read
        if not _SIMPLE.fullmatch(key):   # both branches read the key: evaluated once, after obj
            if self.in_iterable:
                return f"_index(st, {obj}, {key})"
            y = self.fresh("w")
            bound = [] if first == o else [f"{first} is {o}"]     # obj is read before the key
            first, key = let(bound + [f"({y} := {key}) is {y}"], o), y
        return f"({o}[{key}] if {first}.__class__ is {cls} else _index(st, {o}, {key}))"

    def src_call(self, node, scope):
        if node.kwargs:
            return self.keyed(node, scope) if _keyed(node) else self.fallback(node, scope)
        args = [self.source(a, scope) for a in node.args]
        if node.func in self.names.functions:
            inline = self.inline_function(node.func, args)
            if inline is not None:
                return inline
            # bound by name when the function is compiled (functions may call each other)
            return f"{self._function_idents[node.func]}(st{''.join(', ' + a for a in args)})"
        short = self.short_list(node.func, args)
        if short is not None:
            return short
        if node.func == "get" and len(args) in (2, 3) and base(self.proof(args[0])) == "dict":
            return f"{args[0]}.get({', '.join(args[1:])})"     # what the builtin does
        fn = self.fresh("f", FUNCTIONS[node.func])
        general = f"{fn}(st{''.join(', ' + a for a in args)})"
        self._prove(general, _RESULT_PROOF.get(node.func))     # (its text names a fresh _f)
        if node.func == "text" and len(args) == 1:
            self._size_text(general, args[0])
        if node.func in ("max", "min") and self.by_kinds:
            extreme = self._extreme(node.func, fn, args)
            if extreme is not None:
                return extreme
        inline = _INLINE.get(node.func) if len(args) == 1 else None
        if node.func == "count" and inline is not None:
            constant = self.ns[args[0]] if re.fullmatch(r"_k\d+", args[0]) else None
            if constant.__class__ in (list, dict) and self.by_kinds:
                # a constant list's or map's count: its length, as the inline path below
                # gives it (a list's kind is known), computed here once
                return self.const(len(constant))
            # a list's or map's count is its length (with no walk to meter); a zone's, its cards'
            cls = _CLASS.get(self.kind(node.args[0]), "_Zone")
            inline = (f"{{x}}.__class__ is {cls}", "len(st.zones[{x}])" if cls == "_Zone" else "len({x})")
        elif node.func in ("name", "kind") and inline is not None:
            table = self.card_table(node.func)    # every card has both
            inline = tuple(t.replace("{table}", table) for t in inline)
        if inline is not None:      # an argument proven of the usual case's class: no test
            # (a list's or map's count only where its kind's path above is its length,
            # with no meter: elsewhere the builtin meters it as a walk)
            proof = base(self.proof(args[0]))
            surely = {("count", "zone"): "len(st.zones[{x}])", ("name", "card"): inline[1],
                      ("kind", "card"): inline[1]}.get((node.func, proof))
            if node.func == "count" and proof == cls and cls in ("list", "dict"):
                surely = "len({x})"
            if surely is not None:
                return surely.replace("{x}", args[0])
        read = self.twice(args[0]) if inline is not None else None
        if read is None:
            return general
        # The builtin's usual case inline, for an argument read twice (cheap, or bound
        # once); the call for the rest, and for its error message.
        test, value = inline
        first, x = read
        test = test.replace("{x}", first, 1).replace("{x}", x)
        return f"({value.replace('{x}', x)} if {test} else {fn}(st, {x}))"

    def short_list(self, func, args) -> str | None:
        """max(xs) or min(xs), index_of(xs, x), occurrences(xs, x), first(xs), last(xs),
        any(xs), all(xs) for `xs` proven a list of at most SHORT_WALK items (`sized`),
        as Python's list operations: what the builtin gives, with no call and no
        meter (at most SHORT_WALK comparisons in C, as `x in xs` makes unmetered):
        max or min of the items when none is none and there is one (else
        _short_extreme, which leaves nones out: none for no item), the first place
        of x or none, how often x is there, its first or last item or none. Each
        argument is evaluated once, in order. None where it does not apply (switch
        off, not such a list, an argument that cannot be bound in a comprehension's
        iterable)."""
        if not (self.by_short_lists and self.by_kinds and self.by_proofs):
            return None
        arity = {"max": 1, "min": 1, "index_of": 2, "occurrences": 2, "first": 1, "last": 1,
                 "any": 1, "all": 1}.get(func)
        known = self.sized(args[0]) if arity == len(args) else None
        if known is None or known[0] != "list" or known[1] is None or known[1] > SHORT_WALK:
            return None
        if func == "occurrences":   # xs, then x, evaluated before count looks
            return f"{args[0]}.count({args[1]})"
        if func in ("any", "all"):
            return f"{func}({args[0]})"
        if self.in_iterable and not all(_CHEAP.fullmatch(a) for a in args):
            return None
        if func == "index_of":
            xs, x = args
            if _CHEAP.fullmatch(x):     # x cheap: xs read first all the same
                first, xs = self.twice(xs)
                return f"({xs}.index({x}) if {x} in {first} else None)"
            if _CHEAP.fullmatch(xs):
                y = self.fresh("w")
                return f"({xs}.index({y}) if ({y} := {x}) in {xs} else None)"
            w, y = self.fresh("w"), self.fresh("w")
            return f"({w}.index({y}) if ({w} := {xs}) is {w} and ({y} := {x}) in {w} else None)"
        read = self.twice(args[0])
        if read is None:
            return None
        first, xs = read
        if func in ("first", "last"):
            return f"({xs}[{0 if func == 'first' else -1}] if {first} else None)"
        pick = "_PYMAX" if func == "max" else "_PYMIN"
        return f"({pick}({xs}) if None not in {first} and {xs} else _SX({pick}, {xs}))"

    def _extreme(self, func, fn, args) -> str | None:
        """max or min without `by`, the builtin's usual cases inline: of one list
        (functions._list_extreme, with no call of max_ first), or of two values,
        neither none (Python's max or min of them); the builtin `fn` for anything
        else. Each argument is evaluated once, in order. None where an argument
        cannot be bound (in a comprehension's iterable)."""
        pick = "_PYMAX" if func == "max" else "_PYMIN"
        if len(args) == 1:
            if base(self.proof(args[0])) == "list":     # a list surely: no test
                return f"_LX({pick}, st, {args[0]})"
            read = self.twice(args[0])
            if read is None:
                return None
            first, x = read
            return f"(_LX({pick}, st, {x}) if {first}.__class__ is list else {fn}(st, {x}))"
        if len(args) != 2:
            return None
        if all(_CHEAP.fullmatch(a) for a in args):
            a, b = args
            return f"({pick}({a}, {b}) if {a} is not None and {b} is not None else {fn}(st, {a}, {b}))"
        if self.in_iterable:
            return None
        a, b = self.fresh("w"), self.fresh("w")
        return (f"({pick}({a}, {b}) if ({a} := {args[0]}) is {a} and ({b} := {args[1]}) is not None "
                f"and {a} is not None else {fn}(st, {a}, {b}))")

    def keyed(self, node, scope):
        """sort(xs, by=key, descending=d), max(xs, by=key), min(xs, by=key): what the
        builtin gives with the closure compiler's key (`_by_item`): `descending` read
        first, then xs, then, item by item as the builtin asks, the key, here a
        generated lambda of `it` made a sort key as values.sort_key makes it."""
        desc = self.source(node.kwargs["descending"], scope) if "descending" in node.kwargs else "False"
        xs = self.source(node.args[0], scope)
        key = "None"
        if "by" in node.kwargs:
            it, saved = self.fresh("it"), self.locals.get("it")
            self.locals["it"] = it
            try:
                value = self.source(node.kwargs["by"], scope | {"it"})
            finally:
                if saved is None:
                    del self.locals["it"]
                else:
                    self.locals["it"] = saved
            if self.in_iterable:    # no assignment there, even in a lambda
                key = f"lambda {it}: _skey({value})"
            else:
                v = self.fresh("w")
                key = f"lambda {it}: ((1, {v}) if ({v} := {value}).__class__ in _PLAINK else _skey({v}))"
        if node.func == "sort":
            return f"_SORT(st, {desc}, {xs}, {key})"
        return f"_{node.func.upper()}(st, {xs}, {key})"

    def src_list_(self, node, scope):
        src = "[" + ", ".join(self.source(i, scope) for i in node.items) + "]"
        self.lengths[src] = ("list", len(node.items))
        self.everywhere.add(src)
        return src

    def src_comprehension(self, node, scope):
        if _leaves_to_closures(node):
            # a closure-compiled part would look its variable up in env, where a
            # generated comprehension does not put it: compile the whole as closures
            return self.fallback(node, scope)
        walk = self.walk(node.iter, scope, node.elt, node.cond)
        most = self.walk_most
        var = self.fresh("v")
        self._prove(var, self.walked)
        saved = self.locals.get(node.var)
        self.locals[node.var] = var
        try:
            elt = self.source(node.elt, scope | {node.var})
            cond = f" if {self.source(node.cond, scope | {node.var})}" if node.cond is not None else ""
        finally:
            if saved is None:
                del self.locals[node.var]
            else:
                self.locals[node.var] = saved
        src = f"[{elt} {walk.format(var)}{cond}]"
        self.lengths[src] = ("list", most)     # no more items than it walks
        self.everywhere.add(src)
        return src

    def walk(self, node, scope, *body) -> str:
        """`for {} in ...` over `node`'s items, metered (_items), but for a short walk
        of a constant list whose `body` (the nodes evaluated per item: condition,
        element) walks nothing (`short_walk`); a zone's cards are
        taken directly when the checker knows `node` is a zone (guarded: anything
        else goes through _items). A zone that is not cheap to read twice is bound
        by a loop of one (`for _L in (zone,)`): no assignment in an iterable.
        `walked` is then what each item is proven to be (see `proof`), or None,
        and `walk_most` at most how many there are (`_most_items`), or None.
        `range(n)`'s numbers are walked as a range (`ranged`)."""
        n = self.ranged(node)
        if n is not None:
            self.walked = self.walk_most = None
            return f"for {{}} in _RI(st, {self.iterable(n, scope)})"
        x = self.iterable(node, scope)
        head, prefix, self.walked = self._walk_head(node, x)
        self.walk_most = self._most_items(x)
        if self.short_walk(x, *body):
            return f"for {{}} in {x}"
        if prefix is not None:
            one = self.fresh("L")
            self._carry(x, one)
            head, _, _ = self._walk_head(node, one, bound=True)
            return f"for {one} in ({x},) {head}"
        return head

    def short_walk(self, x, *body) -> bool:
        """Whether a walk of generated value `x`, evaluating the nodes `body` (None:
        none) per item, goes unmetered: `x` is a constant list of at most SHORT_WALK
        items and nothing in `body` walks a list or calls a spec function (`_flat`).
        So walks nested in walks still meter all but the innermost, and unmetered
        work cannot multiply: a walk whose body holds one is metered itself."""
        if not (self.by_short_walks and re.fullmatch(r"_k\d+", x)):
            return False
        value = self.ns[x]
        return (value.__class__ is list and len(value) <= SHORT_WALK
                and all(self._flat(root) for root in body if root is not None))

    def _flat(self, root) -> bool:
        """Whether evaluating `root` can walk nothing: only _FLAT_RULES nodes and
        calls of _FLAT_CALLS builtins (no keywords, no spec function of that name)."""
        for n in _walk(root):
            if n.rule == "call":
                if n.kwargs or n.func not in _FLAT_CALLS or n.func in self.names.functions:
                    return False
            elif n.rule not in _FLAT_RULES:
                return False
        return True

    def ranged(self, node):
        """n, for `node` a call `range(n)` to walk as a range, metered as its list
        (_range_items): no list made. None for anything else."""
        if (isinstance(node, ast.Call) and node.func == "range" and len(node.args) == 1
                and not node.kwargs and self.by_loops and self.by_kinds):
            return node.args[0]
        return None

    def items_proof(self, x) -> str | None:
        """What each item of a `for` statement's walk of generated value `x` is proven
        to be: a zone's cards, a list's proven items; None when not known."""
        proof = self.proof(x)
        if proof == "zone":
            return "card"
        return proof[5:] or None if base(proof) == "list" else None

    def loop_items(self, node, scope):
        """(lines, Python iterable): the items a `for` statement walks, a copy of
        `_items`' list (the body may change what it walked: a zone), or, for
        `range(n)`, a range metered as its list. For a loop that never stops
        at a decision (a stopped one keeps its items in env, saved with the state)."""
        n = self.ranged(node)
        if n is not None:
            lines, x = self.lowered(n, scope)
            walk, head = self.metered(f"for {{}} in _RI(st, {x})", x)
            return lines + walk, head[len("for {} in "):]
        lines, x = self.lowered(node, scope)
        walk, head = self.metered(f"for {{}} in _items(st, {x})", x)
        return lines + walk, f"list({head[len('for {} in '):]})"

    def metered(self, head, x):
        """(lines, head): a loop's `head` over `_items(st, x)` or `_RI(st, x)` with its
        usual case written in lines before it (the loop's function has lines): a
        list's length, or range(x)'s for a whole number 0..size, added to the meter
        inline, the clock read where a chunk ends (meter_check), as _items and
        _range_items do, with no call; the walk then over the list itself or the
        range. Anything else goes through the call, for its items or its error.
        ([], head) for another head, or with by_meter off."""
        ranged = head == f"for {{}} in _RI(st, {x})"
        if not (self.by_meter and (ranged or head == f"for {{}} in _items(st, {x})")):
            return [], head
        # a list's items, or a map's keys (the walk of a map that _items would list:
        # no list or map changes in place), walked as they are
        proven = not ranged and base(self.proof(x)) in ("list", "dict")
        if proven and _CHEAP.fullmatch(x):
            walked, lines = x, []
        else:       # a local of its own: the general way assigns it
            walked = self.fresh("L")
            lines = [f"{walked} = {x}"]
        m, t = self.fresh("m"), self.fresh("t")
        size = walked if ranged else f"len({walked})"
        meter = [f"{m} = _METER", f"{m}[0] = {t} = {m}[0] + {size}",
                 f"if {t} > {m}[1]:", f"    _MCHECK({m})"]
        if proven:
            return lines + meter, f"for {{}} in {walked}"
        if ranged:
            test, usual, general = (f"{walked}.__class__ is int and 0 <= {walked} <= _SIZE",
                                    f"{walked} = range({walked})", f"{walked} = _RI(st, {walked})")
        else:
            test, usual, general = f"{walked}.__class__ is list", None, f"{walked} = _items(st, {walked})"
        lines += [f"if {test}:", *("    " + line for line in meter + [usual] * (usual is not None)),
                  "else:", f"    {general}"]
        return lines, f"for {{}} in {walked}"

    def _walk_head(self, node, x, bound=False):
        """(`for {} in ...` over `x`, node's value; None or "bind" when `x` must be
        read once first; the items' proof)."""
        proof = self.proof(x)
        if proof == "zone":     # a zone surely: its cards, card ids
            return f"for {{}} in [*st.zones[{x}]]", None, "card"
        if base(proof) == "list":    # metered as a list; its items what they are proven
            return f"for {{}} in _items(st, {x})", None, proof[5:] or None
        if self.kind(node) != "zone":
            return f"for {{}} in _items(st, {x})", None, None
        if not (bound or _SIMPLE.fullmatch(x)):
            return None, "bind", None
        return f"for {{}} in ([*st.zones[{x}]] if {x}.__class__ is _Zone else _items(st, {x}))", None, None

    # ------------------------------------------------------------ operators
    def src_neg(self, node, scope):
        return f"(-{self.source(node.operand, scope)})"

    def src_not_(self, node, scope):
        return f"(not {self.source(node.operand, scope)})"

    def src_and_(self, node, scope):   # `not not`: the DSL's and/or give true or false
        return "(not not (" + " and ".join(self.source(i, scope) for i in node.items) + "))"

    def src_or_(self, node, scope):
        return "(not not (" + " or ".join(self.source(i, scope) for i in node.items) + "))"

    def src_compare(self, node, scope):
        a, b = self.source(node.left, scope), self.source(node.right, scope)
        if node.op in _COMPARE:
            return f"({a} {node.op} {b})"
        test = f"({a} in {self.container(b, node.right, a)})"
        return test if node.op == "in" else f"(not {test})"

    def container(self, b, node, a=None) -> str:
        """What `in` looks through: `b` itself when the checker knows it is a list or
        a map (guarded), a zone's cards, else _contains. `a` (evaluated first in
        Python's `a in b`) must then be cheap, as the test reads `b` before it."""
        proof = base(self.proof(b))
        if proof in ("zone", "list", "dict"):   # no test of its class
            return f"st.zones[{b}]" if proof == "zone" else b
        cls = _CLASS.get(self.kind(node))
        read = self.twice(b) if cls is not None and (a is None or _CHEAP.fullmatch(a)) else None
        if read is None:
            return f"_contains(st, {b})"
        first, o = read
        value = f"st.zones[{o}]" if cls == "_Zone" else o
        return f"({value} if {first}.__class__ is {cls} else _contains(st, {o}))"

    def src_arith(self, node, scope):
        if node.op not in _ARITH:
            return self.fallback(node, scope)
        a, b = self.source(node.left, scope), self.source(node.right, scope)
        small = self.small_arith(node, a, b)
        return small if small is not None else self.arith(node.op, a, b, self.kind(node))

    def small_arith(self, node, a, b) -> str | None:
        """Speculating (by_speculation), `a + b` or `a - b` of numbers (the checker's
        kind) as a small int (see `small_ints`): with no test where both are small
        ints whose sum cannot reach the integer bound (a constant, a sum of such, one
        tested already); else its result tested for a small int once, where arith
        tests for an int within the bound, a text, or anything else. A result that
        is not a small int gives the speculation up (_MISS raises TypeError) and the
        exact version, run from the start, adds as arith does, with its errors in its
        words: the same value otherwise, since a small int is within the bound. None
        where it does not apply (by_small off, not speculating, not numbers)."""
        if not (self.speculating and self.by_small and self.small is not None and node.op in ("+", "-")
                and not self.in_iterable and self.kind(node) == "number"):
            return None
        most = [self.smallness(a), self.smallness(b)]
        if None not in most and sum(most) < self.compiler.game.bounds.integer_bound:
            src = f"({a} {node.op} {b})"
            self.small_ints[src] = sum(most)
            return src
        r = self.fresh("r")
        src = f"({r} if ({r} := {a} {node.op} {b}).__class__ is int and _NSMALL < {r} < _SMALL else _MISS())"
        self.small_ints[src] = self.small - 1
        return src

    def smallness(self, src) -> int | None:
        """M where generated source `src` is surely a small int, |value| <= M (see
        small_ints): one made so, a constant int, a constant map's int item; None
        when not known."""
        most = self.small_ints.get(src)
        if most is not None or not self.by_small or self.small is None:
            return most
        read = re.fullmatch(r"\(?(_k\d+)\)?(?:\[(_k\d+)\])?", src)
        value = self.ns[read[1]] if read else None
        if read and read[2] is not None:
            key = self.ns[read[2]]
            value = value.get(key) if value.__class__ is dict and key.__class__ in (str, int) else None
        return abs(value) if value.__class__ is int and abs(value) < self.small else None

    def arith(self, op, a, b, kind=None) -> str:
        """`a op b` held to the limits (rulespec/limits.py): an int result of + or -
        within the integer bound passes inline, the usual case; any other result goes
        through check_number, but for a text within the size limit (a label's words,
        also inline); a list or text (by `kind`, the checker's) is tested first for
        its size; `*` checks a text's or list's size before building it."""
        if op == "*":
            return f"_mul({a}, {b})"
        if op not in ("+", "-"):      # // and % make nothing larger
            return f"({a} {op} {b})"
        joined = self.joined(a, b) if op == "+" else None
        if joined is not None:
            return joined
        if self.in_iterable:
            return f"_num({a} {op} {b})"
        r = self.fresh("r")
        cls = {"list": "list", "text": "str"}.get(kind) if op == "+" else None
        if cls is not None:     # lists or texts joined (their kind known): within the size limit, inline
            return f"({r} if ({r} := {a} + {b}).__class__ is {cls} and len({r}) <= _SIZE else _num({r}))"
        return (f"({r} if ({r} := {a} {op} {b}).__class__ is int and _NIB < {r} < _IB "
                f"else {r} if {r}.__class__ is str and len({r}) <= _SIZE else _num({r}))")

    def joined(self, a, b) -> str | None:
        """`a + b` where `a` or `b` is proven a list, or a text (`sized`): a list plus
        anything gives a list or raises (TypeError; Hidden for a hidden value), a
        text plus anything a text or raises, as under arith's tests of the result's
        class, which are left out. Its size is tested as there (too long: _num's
        LimitError), and not at all where both have a bound on their lengths whose
        sum is within the size limit. None where neither class is proven or they
        differ (that `+` raises under arith's tests alike), and for a size to test in
        a comprehension's iterable (no assignment there)."""
        known = [self.sized(a), self.sized(b)]
        classes = {k[0] for k in known if k is not None}
        if len(classes) != 1:
            return None
        cls, (most_a, most_b) = classes.pop(), (k and k[1] for k in known)
        if most_a is not None and most_b is not None and most_a + most_b <= self.compiler.game.bounds.size:
            src, most = f"({a} + {b})", most_a + most_b
        elif self.in_iterable:
            return None
        else:
            r = self.fresh("r")
            src, most = f"({r} if len({r} := {a} + {b}) <= _SIZE else _num({r}))", None
        self.lengths[src] = (cls, most)
        if cls == "list":   # (a text has no proof of its own)
            self.proven[src] = "list"
        return src

    def sized(self, src) -> tuple | None:
        """(class, M) where generated source `src` is surely a list or a text
        ("list", "str") of at most M items or characters (M None: not known): one
        made so (`lengths`: a list display, a comprehension, a join, ...), a
        constant list or text, a card's id, players' list, a list proven so;
        None where its class is not proven, or by_lengths is off."""
        if not self.by_lengths:
            return None
        known = self.lengths.get(src)
        if known is not None:
            return known
        if re.fullmatch(r"_k\d+", src):
            value = self.ns[src]
            return (value.__class__.__name__, len(value)) if value.__class__ in (list, str) else None
        if src == "st.seats":
            return "list", self.compiler.game.max_players
        if src[:1] == "(" and _bracket_closes_last(src, 0):    # (x): x's (a tuple: none)
            parts = _top_level_parts(src[1:-1])
            return self.sized(parts[0]) if len(parts) == 1 else None
        proof = self.proof(src)
        if proof == "card":
            return "str", self.card_chars
        return ("list", None) if base(proof) == "list" else None

    def _most_items(self, x) -> int | None:
        """At most how many items a walk of generated value `x` gives: a zone's cards
        (no more than the game's: each card is in one zone), a list's bound
        (`sized`); None where not known."""
        if self.proof(x) == "zone":
            return len(self.compiler.game.cards)
        known = self.sized(x)
        return known[1] if known is not None and known[0] == "list" else None

    def _size_text(self, src, x) -> None:
        """`src`, a call text(x), is sized where x's text has a bound: a small int's
        (`smallness`: its digits and a sign), a seat's (its name, or P1...), a text's
        (the same text)."""
        most, known = self.smallness(x), self.sized(x)
        if most is not None:
            self.lengths[src] = ("str", len(str(most)) + 1)
        elif self.proof(x) == "seat":
            game = self.compiler.game
            names = game.player_names or [repr(Seat(i)) for i in range(game.max_players)]
            self.lengths[src] = ("str", max(map(len, names)))
        elif known is not None and known[0] == "str":
            self.lengths[src] = known

    def _either(self, src, then, orelse) -> None:
        """`src`, worth `then` or `orelse`, is proven what both are (of one class:
        that class) and sized as both are (the larger bound)."""
        # (a display's items may be proven for a while only: its class alone)
        proofs = [base(self.proof(x)) if x in self.everywhere else self.proof(x) for x in (then, orelse)]
        if None not in proofs and base(proofs[0]) == base(proofs[1]):
            self._prove(src, proofs[0] if proofs[0] == proofs[1] else base(proofs[0]))
        known = [self.sized(then), self.sized(orelse)]
        if None not in known and known[0][0] == known[1][0]:
            most = None if None in (known[0][1], known[1][1]) else max(known[0][1], known[1][1])
            self.lengths[src] = (known[0][0], most)

    def src_if_exp(self, node, scope):
        then, cond, orelse = (self.source(n, scope) for n in (node.then, node.cond, node.orelse))
        src = f"({then} if {cond} else {orelse})"
        most = [self.smallness(then), self.smallness(orelse)]
        if None not in most:    # a small int either way
            self.small_ints[src] = max(most)
        # what is kept of src (its text, the same wherever it is written) must hold
        # wherever it is written: not what a parameter or a loop's variable is proven
        # for a while only (`_a`, `_pl`: _entry_guard, compile.py's loops)
        if all(_FRESH.fullmatch(arm) or arm in self.everywhere for arm in (then, orelse)):
            self._either(src, then, orelse)
            self.everywhere.add(src)
        return src


def let(bindings: list, body: str) -> str:
    """One expression that runs `bindings` in order, then gives `body`: each
    binding an always-true test that assigns (`(_w1 := src) is _w1`), so
    `(body if (_w1 := a) is _w1 and (_w2 := b) is _w2 else None)`. Python has no
    let; the tuple `((_w1 := a), (_w2 := b), body)[-1]` it replaced made and
    indexed a tuple each time (~35 ns more a binding, measured)."""
    return f"({body} if {' and '.join(bindings)} else None)"


def _missed():
    """A speculation given up (small_arith): the exact version runs from the start."""
    raise TypeError("not a small int")


def checked_multiply(limits):
    """a * b, refused before it is built when a text or list would outgrow the size limit."""
    def multiply(a, b):
        for seq, n in ((a, b), (b, a)):
            if isinstance(seq, (str, list)) and isinstance(n, int):
                if len(seq) * n > limits.size:
                    raise too_big(f"the length of a {'text' if isinstance(seq, str) else 'list'}",
                                  len(seq) * n, limits.size, "size")
                return seq * n
        return check_number(a * b, limits)
    return multiply


def _evaluated_first(node) -> list:
    """The parts of `node` its generated source always evaluates, in that order,
    before its own operation (see the src_ methods): not a branch of `if`, nor an
    `and`'s or `or`'s later items, nor a comprehension's element or test."""
    if isinstance(node, (ast.Attr, ast.Neg, ast.Not)):
        return [node.obj if isinstance(node, ast.Attr) else node.operand]
    if isinstance(node, ast.Index):
        return [node.obj, node.key]
    if isinstance(node, (ast.Compare, ast.Arith)):
        return [node.left, node.right]
    if isinstance(node, ast.Call):    # a keyword read first (sort's descending); `by` per item
        return [v for k, v in node.kwargs.items() if k != "by"] + list(node.args)
    if isinstance(node, ast.ListLit):
        return list(node.items)
    if isinstance(node, (ast.And, ast.Or)):
        return node.items[:1]
    if isinstance(node, ast.IfExp):
        return [node.cond]
    if isinstance(node, ast.Comprehension):
        return [node.iter]
    return []


def _lowers(node, through=frozenset()) -> bool:
    """Whether `node` holds a comprehension `lowered` can write as a loop: one
    evaluated whenever `node` is, or under an `and`, `or` or `if` (_branches_lower),
    or a call of a spec function in `through` (written out with its loops)."""
    return (isinstance(node, ast.Comprehension) or _branches_lower(node, through)
            or isinstance(node, ast.Call) and node.func in through
            or any(_lowers(part, through) for part in _evaluated_first(node)))


def _branches_lower(node, through=frozenset()) -> bool:
    """An `and`, `or` or `if` with a comprehension to lower in a part it may skip."""
    if isinstance(node, (ast.And, ast.Or)):
        return any(_lowers(item, through) for item in node.items[1:])
    if isinstance(node, ast.IfExp):
        return _lowers(node.then, through) or _lowers(node.orelse, through)
    return False


def _callees_first(calls: dict) -> list:
    """The names of `calls` (name -> names it calls) in an order where each comes
    after those it calls, but for a call back into a name being visited (a cycle:
    that call is not followed); otherwise in the order given. A depth-first walk
    with a stack of its own (a chain of calls may be long)."""
    order, seen = [], set()
    for root in calls:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(sorted(calls[root])))]
        while stack:
            name, rest = stack[-1]
            callee = next((c for c in rest if c not in seen), None)
            if callee is None:
                stack.pop()
                order.append(name)
            else:
                seen.add(callee)
                stack.append((callee, iter(sorted(calls[callee]))))
    return order


def _keyed(node) -> bool:
    """A call ExpressionSource.keyed writes: sort, max or min of one list, by= a key
    (sort: descending= too)."""
    allowed = {"sort": {"by", "descending"}, "max": {"by"}, "min": {"by"}}.get(node.func)
    return (ExpressionSource.by_keys and ExpressionSource.by_kinds and allowed is not None
            and len(node.args) == 1 and bool(node.kwargs) and set(node.kwargs) <= allowed)


def _walk(root):
    """Every node under `root`, a call's keyword arguments too (ast.walk leaves them)."""
    for node in ast.walk(root):
        yield node
        if isinstance(node, ast.Call) and node.kwargs:
            for value in node.kwargs.values():
                yield from _walk(value)


def _closure_only(node) -> bool:
    """Parts this module leaves to the closure compiler."""
    if isinstance(node, ast.Call):
        return bool(node.kwargs) and not _keyed(node)
    return not hasattr(ExpressionSource, "src_" + node.rule)


def _leaves_to_closures(*roots) -> bool:
    """True when a part under any of `roots` is compiled as a closure, which reads its
    names from env: code that keeps names in Python locals cannot hold it."""
    return any(_closure_only(n) for root in roots for n in _walk(root))


def _tests(lines, source) -> int:
    """The class tests in generated code, one in a loop (an indented line or a
    loop's head) counted twice."""
    return (source.count("__class__ is") + sum(line.count("__class__ is") * (1 + line.startswith((" ", "for ")))
                                              for line in lines))


def _number(src) -> int | None:
    """The number of a generated local (`_v12`: 12), 0 for a constant (made with the
    game), None for anything else."""
    if re.fullmatch(r"_k\d+", src):
        return 0
    local = re.fullmatch(r"_(?:v|a|w|L|pl|h)(\d+)", src)
    return int(local[1]) if local else None


def seat_test(ident) -> str:
    """The test that proves `ident` a seat: a Seat of the game (so reading its
    variables cannot fail, and a read may be hoisted out of a loop)."""
    return f"{ident}.__class__ is _Seat and -1 < {ident} < st.n"


def base(proof) -> str | None:
    """A proof's class: "list" for "list:card"."""
    return proof.split(":", 1)[0] if proof is not None else None


def _common(container, proofs) -> str:
    """The proof of a list or map whose items have `proofs`: "list:P" when all are P."""
    first = proofs[0] if proofs else None
    return f"{container}:{first}" if first is not None and all(p == first for p in proofs) else container


def _top_level_parts(src) -> list:
    """`src` cut at its commas outside any bracket."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(src):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(src[start:i].strip())
            start = i + 1
    parts.append(src[start:].strip())
    return parts


def _opening_bracket(src) -> int | None:
    """Where the bracket that closes at src's end opens."""
    depth = 0
    for i in range(len(src) - 1, -1, -1):
        c = src[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            depth -= 1
            if depth == 0:
                return i
    return None


def _bracket_closes_last(src, at) -> bool:
    """Whether the bracket opened at src[at] closes at src's end (generated source
    holds no text literal, so every bracket counts)."""
    depth = 0
    for i in range(at, len(src)):
        c = src[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i == len(src) - 1
    return False


def _short_extreme(pick, xs: list):
    """max or min (`pick`) of a short list (`short_list`) holding a none or nothing:
    _list_extreme's value, unmetered: the nones left out, none for no item left."""
    xs = [i for i in xs if i is not None]
    return pick(xs) if xs else None


def _sort_by(st, descending, xs, key):
    """sort(xs, by=..., descending=...) as the builtin: `key` an item's sort key, or None."""
    return sorted(_items(st, xs), key=key, reverse=bool(descending))


def _max_by(st, xs, key):
    """max(xs, by=...) as the builtin (functions._extreme): `key` an item's sort key."""
    return _extreme(max, st, (xs,), key)


def _min_by(st, xs, key):
    return _extreme(min, st, (xs,), key)


def literals(text: str, ns: dict) -> str:
    """Generated source `text` to compile, each constant `_kN` whose value (in `ns`) is
    an int (not a seat, nor one of 19 digits or more), none or a bool written as its
    Python literal in brackets: Python loads it as a constant, where a global is
    looked up by name (a LOAD_GLOBAL of `_kN`). The code generator reads and writes
    `_k` names (proof, smallness, twice); only the compiled text holds literals.
    A text keeps its name: no text of the spec enters generated source. All keep
    their names with ExpressionSource.by_literals off."""
    if not ExpressionSource.by_literals:
        return text

    def literal(found):
        value = ns.get(found[0], ns)
        cls = value.__class__
        if _identity_operand(found):
            return found[0]
        if value is None or cls is bool or cls is int and -2 ** 63 < value < 2 ** 63:
            return f"({value!r})"
        return found[0]
    return _CONSTANT.sub(literal, text)


def _identity_operand(found) -> bool:
    """Whether the constant `found` (a match in generated text) is an operand of `is`
    or `is not` (`{a} is not None` with a constant for `a`): there it keeps its
    name, as Python warns of `(2) is not None` (SyntaxWarning, on the user's
    stderr) and an int's identity is the global's object's, not a new literal's."""
    text, start, end = found.string, found.start(), found.end()
    return text.startswith(" is ", end) or text.endswith(("is ", "is not "), 0, start)


def _range_items(st, n):
    """What `_items(st, range_(st, n))` walks, metered alike, as a range: no list
    made. Any case but range_'s usual one (a whole number, 0 to the size limit)
    goes through range_ and _items themselves, for their value or error."""
    if n.__class__ is int and 0 <= n <= st.game.bounds.size:
        m = st.game.meter
        m[0] = walked = m[0] + n
        if walked > m[1]:
            meter_check(m)
        return range(n)
    return _items(st, FUNCTIONS["range"](st, n))


def _contains(st, container):
    return st.zones[container] if isinstance(container, Zone) else container


def _index(st, container, key):
    if isinstance(container, Zone):
        if st.explicit is not None:     # a position read: a chance node while unordered
            chance.reveal(st, container, key)
        container = st.zones[container]
    return container[key]


class CardTable(dict):
    """{card id: its attribute `key`} for the cards that have it, whose read of any
    other card (one without it, a hidden card's text) raises what attribute_of
    raises for it: a proven card's read needs no test of the key first."""
    __slots__ = ("key", "player_names")

    def __init__(self, table, key, player_names):
        super().__init__(table)
        self.key, self.player_names = key, player_names

    def __missing__(self, card):
        raise RuleError(f"{display(card, self.player_names)} has no '{self.key}'")


def attribute_of(game):
    """x.key for any x: a player's variable or zone, a card's variable or attribute, a map's key."""
    cards, names = game.cards, game.names
    per_player, player_zones, per_card = names.per_player, names.player_zones, names.per_card
    zones: dict = {}

    def attr(st, x, key):
        kind = type(x)
        if kind is str:             # the usual cases first, by exact type
            attrs = cards.get(x)
            if attrs is not None and key not in per_card and key in attrs:
                return attrs[key]
        elif kind is dict and key in x:
            return x[key]
        elif kind is Seat:
            if key in per_player:
                return st.pv[key][x]
            if key in player_zones:   # zone names never change: make each one once
                zone = zones.get((key, x))
                if zone is None:
                    zone = zones[(key, x)] = Zone(f"{key}@{int(x)}")
                return zone
        return general(st, x, key)

    def general(st, x, key):
        if isinstance(x, int) and not isinstance(x, bool):
            if key in per_player:
                return st.pv[key][seat(st, x)]
            if key in player_zones:
                return Zone(f"{key}@{int(x)}")
        elif isinstance(x, str):
            if key in per_card and x in cards:
                return st.cv[key][x]
            attrs = cards.get(x)
            if attrs is not None and key in attrs:
                return attrs[key]
        elif isinstance(x, dict) and key in x:
            return x[key]
        raise RuleError(f"{display(x, game.player_names)} has no '{key}'")
    return attr
