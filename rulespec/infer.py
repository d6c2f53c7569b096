"""Kind inference over a whole spec, and the kind checks (see rulespec/kinds.py).

`infer(spec, rules, names)` walks every parsed rule until the kinds of
variables, parameters, results and locals stop changing, then walks once
more to record the kind of every expression node and report what can only
fail. Its result, a `KindTable`, is `Checked.kinds`.
"""
from __future__ import annotations

from . import ast
from .errors import RulespecError
from .kinds import (_FAMILY, ANY, AUCTION, BOARD, BOOL, BUILTINS, CARD, CARDS, FIELD_KINDS, ITEMS, NONE, NOTHING,
                    NUMBER, SEAT, TEXT, TYPE_WORDS, ZONE, Kind, _item, accepts, fits, join, known,
                    list_of, of_value, or_none, parse_kind, wanted_phrase)
from .scope import CARD_FIELDS, LAYOUT_FIELDS, RESULT_KEYS, assigned_names, card_attributes

# Levels of nested expression a rule may hold: the checker, the compiler and the
# generated code handle this many; validate refuses a deeper one where it starts.
MAX_DEPTH = 250
MAX_PASSES = 16   # a pass learns one more link of a chain of calls; real specs settle in 8
_SECTIONS = ("globals", "per_player", "per_card")
_ARITH_WORDS = {"+": "add", "-": "subtract", "*": "multiply", "//": "divide", "%": "divide"}


class KindTable:
    """The kinds of a checked spec.

    variables: {(section, name): Kind} for section in globals, per_player,
    per_card, card_attr, constant, player_zone; params: {(owner kind, owner,
    name): Kind} for functions, procedures, signals and actions (its `for`
    variable); results: {("functions" | "procedures", name): Kind};
    locals: {(rule path, name): Kind}; nodes: {AST node: Kind}; stored:
    {(section, name): Kind} for a fixed variable, what the rules store into it (its
    declaration alone decides `variables`, so a save check can learn there that its
    items may be none, or that a number it holds is always a player); ways:
    {(section, name): set} how the rules store into each variable: "whole" (the
    value itself), "item" (`m[k] = v`, which may add the key k) or "inner" (an item
    of an item: the outer key is read first, so it is there); players: the
    variables some store may put a player into (any but a number literal or
    arithmetic, which never give one). A save check learns from these which keys a
    map keeps and where a player can be.
    """

    def __init__(self):
        self.variables: dict = {}
        self.declared_at: dict = {}     # (section, name) -> (line, col) in the file
        self.fixed: set = set()          # variables whose kind their declaration decides
        self.params: dict = {}
        self.results: dict = {}
        self.locals: dict = {}
        self.nodes: dict = {}
        self.stored: dict = {}
        self.ways: dict = {}
        self.players: set = set()

    def of(self, node) -> Kind | None:
        """The kind of an expression node of one of `Checked.rules`' trees (None: not
        an expression, or not reached)."""
        return self.nodes.get(node)

    def kind_of(self, name: str, rule: tuple | None = None) -> Kind | None:
        """The kind of a name: a local or parameter of `rule` (a Rule.path) first, then
        a global, per-player or per-card variable, constant or card attribute. None
        when the spec names nothing so."""
        if rule is not None:
            if (tuple(rule), name) in self.locals:
                return self.locals[(tuple(rule), name)]
            for (owner_kind, owner, param), kind in self.params.items():
                if param == name and tuple(rule[:2]) == (owner_kind, owner):
                    return kind
        for section in (*_SECTIONS, "constant", "player_zone", "card_attr"):
            if (section, name) in self.variables:
                return self.variables[(section, name)]
        return None


def infer(spec, rules, names) -> tuple[KindTable, list[RulespecError]]:
    """Kinds for everything in the spec, and the errors of kind found (each at its
    line and column in the file). rules: rulespec.check.Rule list, parsed."""
    table = KindTable()
    errors = _declare(spec, names, table)
    scopes = {id(rule): _scope_of(rule, names) for rule in rules}
    for _ in range(MAX_PASSES):
        walker = _Walker(spec, names, table, scopes, report=None)
        for rule in rules:
            walker.rule(rule)
        if not walker.learn():
            break
    reported: list[RulespecError] = []
    walker = _Walker(spec, names, table, scopes, report=reported)
    for rule in rules:
        walker.rule(rule)
    return table, errors + reported


# ------------------------------------------------------------------ declarations
def _declare(spec, names, table) -> list[RulespecError]:
    errors = []
    data = spec.data
    for section in _SECTIONS:
        for name, decl in (data.get(section) or {}).items():
            key = (section, name)
            table.declared_at[key] = spec.mark(key)
            kind, fixed = _declared_kind(decl)
            errors += _bounded_not_number(spec, section, name, decl)
            if isinstance(decl, dict) and "type" in decl:
                kind = parse_kind(decl["type"])
                if kind is None:
                    errors.append(spec.error(f"unknown type {decl['type']!r}: a type is one of "
                                             f"{TYPE_WORDS}", (section, name, "type")))
                    kind = ANY
                else:
                    start = decl.get("start")
                    if not fits(of_value(start), kind) and start is not None:
                        errors.append(spec.error(f"{name} is declared {kind.words()} but starts at "
                                                 f"{of_value(start)}", (section, name, "start")))
                fixed = True
            table.variables[key] = kind
            if fixed:
                table.fixed.add(key)
    for name, value in names.constants.items():
        # a board's name is a board (region_boards: lists of them), as in the rules'
        # text, so what is drawn from it is checked as a board in a save
        table.variables[("constant", name)] = of_value(value, names.boards)
        table.declared_at[("constant", name)] = spec.mark(("constants", name))
        table.fixed.add(("constant", name))
    for name in names.player_zones:
        table.variables[("player_zone", name)] = ZONE
        table.declared_at[("player_zone", name)] = spec.mark(("player_zones", name))
    for path, attr, value in card_attributes(data):
        key = ("card_attr", attr)
        table.declared_at.setdefault(key, spec.mark(path + (attr,)))
        table.variables[key] = join(table.variables.get(key, NOTHING), of_value(value))
        table.fixed.add(key)
    return errors


def _declared_kind(decl) -> tuple[Kind, bool]:
    """(kind, fixed): fixed when the declaration alone decides the kind."""
    if not isinstance(decl, dict):
        decl = {"start": decl}
    kind = of_value(decl.get("start"))
    one_of = decl.get("one_of")
    if isinstance(one_of, list) and one_of:
        for value in one_of:
            kind = join(kind, of_value(value))
    if _bound(decl):
        # min/max declare a number; a start or one_of that is not one is refused by
        # _bounded_not_number, and joining it in would make the kind "any value" and
        # blind the checker to the rules' text-and-number mistakes
        kind = or_none(NUMBER) if decl.get("start") is None else NUMBER
        return kind, True
    return kind, _complete(kind)


def _bound(decl) -> str | None:
    """The name of the bound (min or max) a declaration gives, if any."""
    if not isinstance(decl, dict):
        return None
    return next((k for k in ("min", "max") if decl.get(k) is not None), None)


def _bounded_not_number(spec, section, name, decl) -> list[RulespecError]:
    """A start (other than none) or one_of value that is not a number, where min or
    max makes the variable a number: play would fail at the first store or compare."""
    bound = _bound(decl)
    if bound is None:
        return []
    because = f"but {bound}: {decl[bound]} makes {name} a number"
    errors = []
    start = decl.get("start")
    if start is not None and not _is_number(start):
        errors.append(spec.error(f"start is {_said(start)}, {because}", (section, name, "start")))
    one_of = decl.get("one_of")
    for i, value in enumerate(one_of if isinstance(one_of, list) else []):
        if not _is_number(value):
            errors.append(spec.error(f"one_of holds {_said(value)}, {because}",
                                     (section, name, "one_of", i)))
    return errors


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _said(value) -> str:
    """'text "five"', 'a list [1, 2]': the value as the spec's author wrote it."""
    if isinstance(value, str):
        return f'text "{value}"'
    shown = str(value).lower() if isinstance(value, bool) else repr(value)
    return f"{of_value(value)} {shown}"


def _complete(kind: Kind) -> bool:
    if kind.base == "nothing":
        return False
    return all(_complete(k) for k in (kind.item, kind.key) if k is not None)


# ----------------------------------------------------------------------- walking
class _Walker:
    """One pass over the rules: kinds of expressions, what each store adds, and
    (on the reporting pass) the errors."""

    def __init__(self, spec, names, table, scopes, report):
        self.spec, self.names, self.table, self.report = spec, names, table, report
        self.scopes = scopes
        self.attrs = names.attributes()     # an unknown one is the name check's to report
        self.card_ids = {i for ids in names.card_ids.values() for i in ids}
        self.stores: dict = {}      # key -> Kind learned this pass
        self.ways: dict = {}        # variable key -> how this pass stores into it (KindTable.ways)
        self.players: set = set()   # variable keys a store may put a player into
        self.rule_ = None

    # what a pass learned ------------------------------------------------
    def store(self, key, kind):
        self.stores[key] = join(self.stores.get(key, NOTHING), kind)

    def learn(self) -> bool:
        """Fold this pass's stores into the table; True when anything changed."""
        t, changed = self.table, False
        t.stored = {}   # this pass's alone: an earlier pass's guesses (ANY) are not kept
        t.ways, t.players = self.ways, self.players
        for key, kind in self.stores.items():
            section = key[0]
            if section in _SECTIONS:
                if key in t.fixed:
                    t.stored[key] = kind
                    continue
                old = t.variables.get(key)
                new = join(old, kind)
                if new.base == "any" and old.base != "nothing":
                    new = old       # what its start value says it is stays: the store is the error
                t.variables[key] = new
            else:
                table = t.results if section == "$result" else t.params if section == "$param" else t.locals
                old = table.get(key[1])
                new = kind
                table[key[1]] = new
            changed |= new != old
        return changed

    # rules ------------------------------------------------------------------
    def rule(self, rule):
        self.rule_ = rule
        tree, path = rule.tree, rule.path
        self.scope = self.scopes[id(rule)]
        self.depth, self.too_deep = 0, False
        if path[-1] == "for":
            item = _item(self.expr(tree.right, {}))
            self.store(("$param", ("actions", path[1], tree.left.id)), item)
            return
        if rule.kind == "statements":
            self.block(tree.body, {})
            if path[0] == "procedures" and not _never_falls_off(tree.body):
                # its end reached without a `return` gives none (Compiler.assign's RET)
                self.store(("$result", ("procedures", path[1])), NONE)
            return
        kind = self.expr(tree, {})
        if path[0] == "functions":
            self.store(("$result", ("functions", path[1])), kind)
        elif path[-1] in ("when", "eligible") or path[0] == "invariants":
            self.want(tree, kind, BOOL, _SAYS.get(path[0], f"`{path[-1]}:`"))
        elif path[0] in ("scoring", "heuristic"):
            self.want(tree, kind, NUMBER, "a heuristic" if path[0] == "heuristic" else "a score")

    def error(self, node, message, *operands):
        if self.report is None:
            return
        where = [w for w in (self.origin(o) for o in operands) if w]
        if where:
            message += " (" + "; ".join(where) + ")"
        err = self.spec.error(message, self.rule_.path)
        err.line, err.col = self.spec.text_position(self.rule_.path, node.line, node.col)
        self.report.append(err)

    def want(self, node, kind, wanted, what):
        """Report `node` (of `kind`) unless it can be a `wanted`."""
        if known(kind) and not fits(kind, wanted):
            self.error(node, f"{what} must be {wanted}, not {kind}", node)

    def origin(self, node) -> str | None:
        """Where the kind of `node` comes from, for a message: 'player.hand: a list
        of cards, declared at 12:3'."""
        kind = self.table.nodes.get(node) if self.report is not None else None
        if kind is None or not known(kind) and kind.base != "none":
            return None
        key = self._declared_key(node)
        if key is not None:
            line, col = self.table.declared_at.get(key, (None, None))
            label = _text_of(node)
            how = "declared" if key[0] != "card_attr" else "a card attribute declared"
            return f"{label}: {kind}, {how} at {line}:{col}" if line else f"{label}: {kind}"
        if isinstance(node, ast.Call) and node.func in self.names.functions:
            line, col = self.spec.mark(("functions", node.func))
            return f"{node.func}(): {kind}, declared at {line}:{col}"
        if isinstance(node, ast.Call):
            return f"{node.func}() gives {kind}"
        if isinstance(node, (ast.Name, ast.Attr)):
            return f"{_text_of(node)}: {kind}"
        return None

    def _declared_key(self, node):
        if isinstance(node, ast.Name):
            kind, _ = self.names.resolve(node.id, self._scope())
            section = {"global": "globals", "constant": "constant"}.get(kind)
            return (section, node.id) if section else None
        if isinstance(node, ast.Attr):
            for section in ("per_player", "per_card", "card_attr", "player_zone"):
                if (section, node.name) in self.table.variables:
                    return (section, node.name)
        return None

    def _scope(self):
        return self.scope

    # statements -------------------------------------------------------------
    def block(self, stmts, env):
        for stmt in stmts:
            method = getattr(self, "s_" + stmt.rule, None)
            if method is not None:
                method(stmt, env)

    def s_assign(self, node, env):
        value = node.value
        if isinstance(value, ast.Call) and value.func in self.names.procedures:
            self.call_args(value, env, ("procedures", value.func))
            kind = self.table.results.get(("procedures", value.func), ANY)
            if kind.base == "none":
                self.error(value, f"{value.func}() gives no value: no `return` in its `do:` returns "
                                  f"one, so `{_source_of(node.target)}` would always be none; call it "
                                  f"as a statement, `{value.func}(...)`, or end it with `return VALUE`")
                kind = ANY
        else:
            kind = self.expr(value, env)
        self.assign(node.target, kind, env, node.value)

    def assign(self, target, kind, env, value_node=None, how="whole", plain=None):
        """Store a value of `kind` into `target`, checking it fits what is there. how:
        as KindTable.ways says; plain: the value is never a player (by default, when
        `value_node` is a number literal or arithmetic)."""
        if plain is None:
            plain = isinstance(value_node, (ast.Number, ast.Arith, ast.Neg))
        if isinstance(target, ast.Name):
            self.expr(target, env)
            key = self._store_key(target.id)
            if key is None:
                return
            if key[0] in _SECTIONS and not fits(kind, self.table.variables[key]):
                self.error(value_node or target, f"cannot store {kind} in {target.id}", target)
            self.store(key, kind)
            self._way(key, how, plain)
            return
        if isinstance(target, ast.Attr):
            obj = self.expr(target.obj, env)
            self.table.nodes[target] = self.attr_kind(target, obj)
            section = self._assignable(target.name, obj)
            if target.name not in self.attrs:
                return
            if section is None:
                if target.name in self.names.per_player or target.name in self.names.per_card:
                    self.error(target, f"{obj} has no variable '{target.name}'", target.obj)
                else:
                    self.error(target, f"cannot assign to '.{target.name}': only per-player and "
                                       f"per-card variables can change")
                return
            key = (section, target.name)
            if not fits(kind, self.table.variables[key]):
                self.error(value_node or target,
                           f"cannot store {kind} in {_text_of(target)}", target)
            self.store(key, kind)
            self._way(key, how, plain)
            return
        container = self.expr(target.obj, env)
        self.expr(target.key, env)
        # `m[k] = v` may add k to m; `m[j][k] = v` reads m[j] first, so adds no key to m
        inner = "item" if how == "whole" else "inner"
        if container.base == "list":
            self.assign(target.obj, list_of(kind), env, how=inner, plain=plain)
        elif container.base == "map":
            self.assign(target.obj, Kind("map", kind, self.table.nodes.get(target.key, ANY)), env,
                        how=inner, plain=plain)
        elif known(container):
            self.error(target, f"cannot set an item of {container}", target.obj)

    def _way(self, key, how, plain):
        """Note how a store changes a variable (KindTable.ways, .players)."""
        if key[0] in _SECTIONS:
            self.ways.setdefault(key, set()).add(how)
            if not plain:
                self.players.add(key)

    def _store_key(self, name):
        ctx = self._context_key(name)
        if ctx is not None:
            return ctx if ctx != "$seat" else None
        if name in self.names.globals:
            return ("globals", name)
        return ("$local", (self.rule_.path, name))

    def _assignable(self, name, obj):
        family = _FAMILY.get(obj.base) if known(obj) else None
        if name in self.names.per_player and family in (None, "number"):
            return "per_player"
        if name in self.names.per_card and family in (None, "text"):
            return "per_card"
        return None

    def s_aug_assign(self, node, env):
        have = self.expr(node.target, env)
        value = self.expr(node.value, env)
        result = self.arith(node, node.op[0], have, value, node.target, node.value)
        if isinstance(node.target, (ast.Name, ast.Attr)):
            # arithmetic's result is a plain number (a player plus 0 is no player)
            self.assign(node.target, result, env, node.value, plain=True)

    def s_call_stmt(self, node, env):
        self.expr(node.call, env)

    def s_choose_one(self, node, env):
        options = self.items(node.options, env, "the options of `choose one`")
        self.seat(node.by, env, "`by`")
        self.assign(node.target, _item(options), env)

    def s_choose_number(self, node, env):
        for part in (node.low, node.high):
            self.want(part, self.expr(part, env), NUMBER, "a bound of `choose number`")
        self.seat(node.by, env, "`by`")
        self.assign(node.target, NUMBER, env)

    def s_choose_several(self, node, env):
        self.want(node.count, self.expr(node.count, env), NUMBER, "how many to choose")
        options = self.items(node.options, env, "the options of `choose`")
        self.seat(node.by, env, "`by`")
        self.assign(node.target, list_of(_item(options)), env)

    def s_auction(self, node, env):
        self.items(node.among, env, "`among`")
        inner = {**env, "bidder": SEAT}
        for part in (node.opening, node.raise_, node.limit):
            if part is not None:
                self.want(part, self.expr(part, inner), NUMBER, "a bid")
        if node.starter is not None:
            self.seat(node.starter, inner, "`starter`")
        self.assign(node.target, AUCTION, env)

    def s_turn(self, node, env):
        self.seat(node.player, env, "`turn`")
        self.block(node.orelse, env)

    def s_signal(self, node, env):
        params = self.names.signals.get(node.name) or []
        for param, arg in zip(params, node.args):
            self.store(("$param", ("signals", node.name, param)), self.expr(arg, env))
        for key, arg in node.kwargs.items():
            self.store(("$param", ("signals", node.name, key)), self.expr(arg, env))

    def s_return_(self, node, env):
        kind = self.expr(node.value, env) if node.value is not None else NONE
        if self.rule_.path[0] == "procedures":
            self.store(("$result", ("procedures", self.rule_.path[1])), kind)

    def s_if_stmt(self, node, env):
        self.condition(node.cond, env, "an `if` condition")
        self.block(node.body, env)
        self.block(node.orelse, env)

    def s_while_stmt(self, node, env):
        self.condition(node.cond, env, "a `while` condition")
        self.block(node.body, env)

    def s_for_stmt(self, node, env):
        items = self.items(node.iter, env, "`for ... in`")
        self.store(("$local", (self.rule_.path, node.var)), _item(items))
        if node.where is not None:
            self.condition(node.where, env, "`where`")
        self.block(node.body, env)

    def s_secretly(self, node, env):
        items = self.items(node.iter, env, "`secretly for ... in`")
        self.store(("$local", (self.rule_.path, node.var)), _item(items))
        self.block(node.body, env)

    def s_menu(self, node, env):
        self.seat(node.by, env, "`by`")
        for option in node.options:
            if option.cond is not None:
                self.condition(option.cond, env, "an option's `if`")
            self.block(option.body, env)

    # checks shared by statements ----------------------------------------------
    def condition(self, node, env, what):
        self.want(node, self.expr(node, env), BOOL, what)

    def seat(self, node, env, what):
        self.want(node, self.expr(node, env), SEAT, what)
        number = _literal_number(node)
        most = _most_players(self.spec.data)
        if number is not None and (number < 0 or most is not None and number >= most):
            self.error(node, f"{number} is not a seat ({what}): this game has at most "
                             f"{most} players, seats 0 to {most - 1}; name one as players[i]"
                       if most is not None else f"{number} is not a seat ({what}): seats count from 0")

    def items(self, node, env, what) -> Kind:
        kind = self.expr(node, env)
        if known(kind) and not accepts(kind, ITEMS):
            self.error(node, f"{what} needs a list, a zone or a map, not {kind}", node)
        return kind

    # expressions --------------------------------------------------------------
    def expr(self, node, env) -> Kind:
        if self.depth >= MAX_DEPTH:
            if not self.too_deep:
                self.too_deep = True
                self.error(node, f"this expression nests more than {MAX_DEPTH} levels deep (the "
                                 f"nesting limit): split it with a function or a local variable")
            return ANY
        self.depth += 1
        try:
            kind = getattr(self, "e_" + node.rule)(node, env)
        finally:
            self.depth -= 1
        self.table.nodes[node] = kind
        return kind

    def e_number(self, node, env):
        return NUMBER

    def e_string(self, node, env):
        return TEXT

    def e_const(self, node, env):
        return NONE if node.value is None else BOOL

    def e_name(self, node, env):
        n = node.id
        if n in env:
            return env[n]
        ctx = self._context_key(n)
        if ctx is not None:
            return self._param(ctx)
        kind, _ = self.names.resolve(n, self._scope())
        if kind == "local":
            return self.table.locals.get((self.rule_.path, n), NOTHING)
        if kind == "global":
            return self.table.variables[("globals", n)]
        if kind == "constant":
            return self.table.variables[("constant", n)]
        return {"players": list_of(SEAT), "nplayers": NUMBER, "variant": or_none(TEXT),
                "current_phase": or_none(TEXT), "zone": ZONE, "board": BOARD,
                "symbol": TEXT}.get(kind, ANY)

    def _context_key(self, name):
        """The table key of a name the rule's context binds (a parameter), or None."""
        rule = self.rule_
        if name not in rule.scope:
            return None
        if name == "player" and rule.path[0] == "actions" or name == "p" and rule.path[0] in (
                "scoring", "heuristic"):
            return "$seat"
        owner = {"procedures": "procedures", "functions": "functions", "triggers": "signals",
                 "actions": "actions"}.get(rule.path[0])
        if owner == "signals":
            on = (self.spec.data.get("triggers") or {}).get(rule.path[1], {}).get("on")
            return ("$param", ("signals", on, name))
        if owner is not None:
            return ("$param", (owner, rule.path[1], name))
        return None

    def _param(self, key):
        if key == "$seat":
            return SEAT
        if key[0] in _SECTIONS:
            return self.table.variables.get(key, ANY)
        return self.table.params.get(key[1], NOTHING)

    def e_attr(self, node, env):
        return self.attr_kind(node, self.expr(node.obj, env))

    def attr_kind(self, node, obj) -> Kind:
        key, v = node.name, self.table.variables
        if key not in self.attrs:
            return ANY
        if obj.base in ("seat", "number"):
            for section in ("per_player", "player_zone"):
                if (section, key) in v:
                    return v[(section, key)]
            if obj.base == "seat":
                self.error(node, f"a player has no '{key}'", node.obj)
            return ANY
        if obj.base in ("card", "text"):
            if ("per_card", key) in v:
                return v[("per_card", key)]
            if ("card_attr", key) in v:
                return v[("card_attr", key)]
            if key in CARD_FIELDS:
                return FIELD_KINDS[key]
            if obj.base == "card":
                self.error(node, f"a card has no '{key}'", node.obj)
            return ANY
        if obj.base == "map":
            if key in RESULT_KEYS | LAYOUT_FIELDS and obj.item is not None and not known(obj.item):
                return FIELD_KINDS[key]
            return obj.item if obj.item is not None and obj.item.base != "nothing" else ANY
        if obj.base in ("bool", "list", "zone", "none", "board"):
            self.error(node, f"{obj} has no attribute '.{key}'", node.obj)
            return ANY
        return self._attr_by_name(key)

    def _attr_by_name(self, key) -> Kind:
        """An attribute of a value of unknown kind: its kind when the name has one meaning."""
        found = [self.table.variables[(s, key)] for s in ("per_player", "per_card", "card_attr",
                                                          "player_zone")
                 if (s, key) in self.table.variables]
        if key in CARD_FIELDS | RESULT_KEYS | LAYOUT_FIELDS:
            found.append(FIELD_KINDS[key])
        return found[0] if len(found) == 1 and not self._map_key(key) else ANY

    def _map_key(self, key) -> bool:
        return any(isinstance(v, dict) and key in v for v in self.names.constants.values())

    def e_index(self, node, env):
        obj, key = self.expr(node.obj, env), self.expr(node.key, env)
        if obj.base in ("list", "zone"):
            self.want(node.key, key, NUMBER, "a list's index")
            return (obj.item or NOTHING) if obj.base == "list" else CARD
        if obj.base == "map":
            if obj.key is not None and known(obj.key) and known(key) and not fits(key, obj.key):
                self.error(node.key, f"{obj} has no {key} keys", node.obj, node.key)
            return obj.item or NOTHING
        if known(obj):
            self.error(node, f"cannot index {obj}: only lists, zones and maps have items", node.obj)
        return NOTHING if obj.base == "nothing" else ANY

    def e_call(self, node, env):
        if node.func in self.names.procedures:
            self.call_args(node, env, ("procedures", node.func))
            return self.table.results.get(("procedures", node.func), ANY)
        if node.func in self.names.functions:
            self.call_args(node, env, ("functions", node.func))
            return self.table.results.get(("functions", node.func), NOTHING)
        args = [self.expr(a, env) for a in node.args]
        wanted, result = BUILTINS.get(node.func, ((), lambda a, kw: ANY))
        for i, (arg, kind) in enumerate(zip(node.args, args)):
            want = wanted[i] if i < len(wanted) else None
            if node.func in ("max", "min"):
                want = _extreme_wants(args)
            if not accepts(kind, want):
                which = "its argument" if len(node.args) == 1 else f"its {_ORDINAL[i]} argument"
                self.error(arg, f"{node.func}() needs {wanted_phrase(want)} as {which}, not {kind}", arg)
        if node.func in ("max", "min") and "by" not in node.kwargs:
            self.check_comparable(node, args)
        self.card_arguments(node, args, env)
        kw = {}
        for key, arg in node.kwargs.items():
            inner = {**env, "it": _item(args[0])} if key == "by" and args else env
            kw[key] = self.expr(arg, inner)
        try:
            return result(args, kw)
        except IndexError:      # too few arguments: the arity check reports it
            return ANY

    def check_comparable(self, node, args):
        """max() and min() compare their values: numbers with numbers, texts with texts."""
        values = [_item(args[0])] if len(args) == 1 else args
        known_ = [k for k in values if known(k)]
        if any(k.base not in _ORDERED for k in known_) or len({_FAMILY[k.base] for k in known_}) > 1:
            what = " and ".join(sorted({str(k) for k in known_}))
            self.error(node, f"{node.func}() cannot compare {what}", *node.args[:2])

    def call_args(self, node, env, owner):
        params = (self.names.procedures if owner[0] == "procedures" else self.names.functions)[owner[1]]
        for param, arg in zip(params, node.args):
            self.store(("$param", (owner[0], owner[1], param)), self.expr(arg, env))

    def e_list_(self, node, env):
        item = NOTHING
        for i in node.items:
            item = join(item, self.expr(i, env))
        return list_of(item)

    def e_comprehension(self, node, env):
        items = self.items(node.iter, env, "a comprehension's `in`")
        inner = {**env, node.var: _item(items)}
        if node.cond is not None:
            self.condition(node.cond, inner, "a comprehension's `if`")
        return list_of(self.expr(node.elt, inner))

    def e_neg(self, node, env):
        kind = self.expr(node.operand, env)
        self.want(node.operand, kind, NUMBER, "`-`")
        return NUMBER

    def e_not_(self, node, env):
        self.condition(node.operand, env, "`not`")
        return BOOL

    def e_and_(self, node, env):
        for item in node.items:
            self.condition(item, env, "`and`")
        return BOOL

    def e_or_(self, node, env):
        for item in node.items:
            self.condition(item, env, "`or`")
        return BOOL

    def e_compare(self, node, env):
        a, b = self.expr(node.left, env), self.expr(node.right, env)
        op = node.op
        if op in ("in", "not in"):
            if known(b) and not accepts(b, ITEMS):
                self.error(node, f"'{op}' needs a list, a zone or a map on its right, not {b}",
                           node.right)
            elif known(b) and known(a) and not fits(a, _item(b)):
                self.error(node, f"cannot look for {a} in {b}: it is never there",
                           node.left, node.right)
            else:
                self.look_for_card_by_text(node, a, b, env)
        elif op in ("==", "!="):
            if known(a) and known(b) and "none" not in (a.base, b.base) \
                    and not (fits(a, b) or fits(b, a)):
                self.error(node, f"cannot compare {a} with {b}: they are never equal",
                           node.left, node.right)
            else:
                self.compare_card_with_text(node, a, b, env)
        else:
            wrong = [k for k in (a, b) if known(k) and (k.base not in _ORDERED)]
            if wrong or known(a) and known(b) and _FAMILY[a.base] != _FAMILY[b.base]:
                self.error(node, f"cannot order {a} and {b} with '{op}'", node.left, node.right)
        return BOOL

    # a card is its id: a name of several cards, a card kind or another word is none
    def compare_card_with_text(self, node, a, b, env):
        """`c == apple`, `c != k`: a card with a text known before play that no card
        is (its id is `apple#1` when `apple` names 3 cards): never equal."""
        for card, text, kind in ((node.left, node.right, a), (node.right, node.left, b)):
            why = self.not_a_card(text, env) if kind.base == "card" else None
            if why is not None:
                fix = self.card_field(why, card, node.op, text)
                self.error(node, f"`{_source_of(node.left)} {node.op} {_source_of(node.right)}` is "
                                 f"{'never' if node.op == '==' else 'always'} true: {why[1]}{fix}")
                return

    def look_for_card_by_text(self, node, a, b, env):
        """`apple in hand`, `c in [apple, berry]`: a text no card is, looked for among
        cards, or a card looked for among such texts: never there."""
        never = "never" if node.op == "in" else "always"
        said = f"`{_source_of(node.left)} {node.op} {_source_of(node.right)}` is {never} true"
        why = self.not_a_card(node.left, env) if _item(b).base == "card" else None
        if why is not None:
            if b.base == "zone" and why[0] == "name":
                fix = f": `{'' if node.op == 'in' else 'not '}has({_source_of(node.right)}, " \
                      f"{_source_of(node.left)})` tells whether it holds a card of that name"
            else:
                fix = self.card_field(why, ast.Name(0, 0, "c"), node.op, node.left, node.right)
            self.error(node, f"{said}: {why[1]}{fix}")
            return
        if a.base != "card" or not isinstance(node.right, ast.ListLit):
            return
        for item in node.right.items:
            why = self.not_a_card(item, env)
            if why is not None:
                fix = self.card_field(why, node.left, node.op, node.right)
                self.error(item, f"{_source_of(item)} never matches {_source_of(node.left)} in {said}: "
                                 f"{why[1]}{fix}")
                return

    def card_arguments(self, node, args, env):
        """Builtin arguments that can only miss: a text no card is where a card is
        wanted (`name(apple)`, `move(k, z)`) or looked up among cards
        (`occurrences(cards(z), apple)`), and a word no card is called where a
        card's name is wanted (`has(hand, k)`)."""
        wanted = BUILTINS.get(node.func, ((), None))[0]
        for i, arg in enumerate(node.args):
            want = wanted[i] if i < len(wanted) else None
            if want in (CARD, CARDS) or node.func in _LOOKED_UP and i == 1 and _item(args[0]).base == "card":
                why = self.not_a_card(arg, env)
                if why is None:
                    continue
                fix = _BY_NAME_INSTEAD.get(node.func, _BY_NAME_INSTEAD[None]) if why[0] == "name" else ""
                if node.func in _LOOKED_UP and why[0] != "word":
                    fix = (f": look among their {why[0]}s, `{node.func}([{why[0]}(c) for c in "
                           f"{_source_of(node.args[0])}], {{0}})`")
                self.error(arg, f"{node.func}() {'needs a card' if want else 'looks among cards'} "
                                f"here, and {why[1]}{fix.format(_source_of(arg))}")
            elif _BY_NAME.get(node.func) == i:
                why = self.not_a_name(arg, env)
                if why is not None:
                    self.error(arg, f"{node.func}() looks for cards by name, and {why}")

    def not_a_name(self, node, env) -> str | None:
        """Words saying the text `node` is before play is no card's name, or None."""
        text = self.known_text(node, env)
        names = self.names
        if text is None or not names.card_ids or text in names.card_names:
            return None
        if text in names.card_kinds:
            return f"{text} is a kind of card: `[c for c in cards(ZONE) if kind(c) == {text}]` are its cards"
        if text in self.card_ids:
            return f"{text} is a card's id: its name is {text.rpartition('#')[0]}"
        return f"no card is called {_source_of(node)}"

    def not_a_card(self, node, env) -> tuple[str, str] | None:
        """(what, words) when `node` is a text known before play (a "string", a bare
        symbol, card name or kind, a text constant) that is no card's id, what being
        "name" (a name of several cards), "kind" (a card kind) or "word"; else None."""
        text = self.known_text(node, env)
        ids = self.names.card_ids
        if text is None or not ids or text in self.card_ids:
            return None
        shown = _source_of(node) if _source_of(node) in (text, f'"{text}"') else f"{node.id} ({text})"
        if ids.get(text):
            held = ids[text]
            listed = ", ".join(held) if len(held) <= 2 else f"{held[0]}..{held[-1]}"
            return "name", f"{shown} names {len(held)} cards, {listed}, and a card is its id, not its name"
        if text in self.names.card_kinds:
            return "kind", f"{shown} is a kind of card, and a card is its id, not its kind"
        return "word", f"a card is its id, and no card has the id {shown}"

    def known_text(self, node, env) -> str | None:
        """The text a "string", a bare symbol (or card name or kind) or a text
        constant is; None for anything whose value play decides."""
        if isinstance(node, ast.String):
            return node.value
        if not isinstance(node, ast.Name) or node.id in env or self._context_key(node.id):
            return None
        category, payload = self.names.resolve(node.id, self._scope())
        if category == "symbol":
            return node.id
        return payload if category == "constant" and isinstance(payload, str) else None

    def card_field(self, why, card, op, text, items=None) -> str:
        """The advice that ends a message of compare_card_with_text or
        look_for_card_by_text: compare the card's name, kind or an attribute
        holding the text (`: compare name(c) == apple`), or "" when none does."""
        what = {"name": "name({})", "kind": "kind({})"}.get(why[0])
        if what is None:
            attr = self.attribute_holding(self.known_text(text, {}) or "")
            if attr is None:
                return ""
            what = "{}." + attr
        field = what.format(_source_of(card))
        if items is None:
            return f": compare `{field} {op} {_source_of(text)}`"
        return f": compare `{_source_of(text)} {op} [{field} for c in {_source_of(items)}]`"

    def attribute_holding(self, text) -> str | None:
        """The first card attribute some card of the spec has `text` as value of."""
        for decl in (self.spec.data.get("cards") or {}).values():
            rows = [decl.get("attrs") or {}] + [e for e in decl.get("list") or [] if isinstance(e, dict)]
            for row in rows:
                for attr, value in row.items():
                    if value == text and attr not in ("name", "count"):
                        return attr
        return None

    def e_arith(self, node, env):
        a, b = self.expr(node.left, env), self.expr(node.right, env)
        return self.arith(node, node.op, a, b, node.left, node.right)

    def arith(self, node, op, a, b, left, right) -> Kind:
        """The kind of `a op b`; reported when no values of these kinds can be combined
        so. A value that may be none is judged by its other kind: whether it is none
        depends on the game (a located error at play)."""
        a0 = Kind(a.base, a.item, a.key) if a.none else a
        b0 = Kind(b.base, b.item, b.key) if b.none else b
        if known(a) and known(b):
            result = _combine(op, a0, b0)
            if result is None:
                self.error(node, f"cannot {_ARITH_WORDS[op]} {a} and {b}", left, right)
                return ANY
            return result
        for side, kind in ((left, a), (right, b)):
            if known(kind) and _combine(op, kind, kind if kind.base != "seat" else NUMBER) is None:
                self.error(node, f"cannot {_ARITH_WORDS[op]} {kind}"
                                 f"{' to anything' if op == '+' else ''}", side)
                return ANY
        known_side = a if known(a) else b
        if not known(known_side):   # not learned yet, or undecidable
            return ANY if "any" in (a.base, b.base) else NOTHING
        return known_side if known_side.base != "seat" else NUMBER

    def e_if_exp(self, node, env):
        self.condition(node.cond, env, "the condition of `... if ... else ...`")
        return join(self.expr(node.then, env), self.expr(node.orelse, env))


def _scope_of(rule, names) -> set:
    """The names a rule binds: its context's and its own locals."""
    scope = set(rule.scope) | assigned_names(rule.tree, names)
    if rule.path[-1] == "for":
        scope.add(rule.tree.left.id)
    return scope


_ORDERED = {"number", "seat", "text", "card", "cell", "board"}
_TEXTS = ("text", "card", "cell", "board")   # what `+` joins as text


def _combine(op, a: Kind, b: Kind) -> Kind | None:
    """The kind of `a op b` for kinds that are never none, or None when it fails."""
    if _FAMILY.get(a.base) == _FAMILY.get(b.base) == "number":
        return NUMBER
    if op == "+" and a.base == b.base == "list":
        return join(a, b)
    if op == "+" and a.base in _TEXTS and b.base in _TEXTS:
        return TEXT
    return None


def _text_of(node) -> str:
    """A short source-like text of a name, attribute or index, for messages."""
    return ast.source_text(node, short=True)


_LOOKED_UP = {"index_of", "occurrences", "remove", "rotate"}   # (list, item): the item looked up
_BY_NAME = {"has": 1, "find": 1, "named": 0, "move_named": 1}   # which argument is a card's name
_BY_NAME_INSTEAD = {   # what a name of several cards is for instead, in a message
    "move": ": `move_named(FROM, {0}, TO)` moves the first card called {0} in a zone",
    "move_bottom": ": `find(FROM, {0})` is the first card called {0} in a zone",
    None: ": `find(ZONE, {0})` is the first card called {0} in a zone, `named({0})` all of them"}
_ORDINAL = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"]


def _extreme_wants(args):
    """What max() and min() want of each argument: one list (or zone) of values, or
    the values themselves (check_comparable checks those)."""
    return ITEMS if len(args) == 1 else None
_SAYS = {"end": "an end condition", "invariants": "an invariant"}


def _literal_number(node) -> int | None:
    """The whole number `node` writes literally (`99`, `-1`), else None."""
    if isinstance(node, ast.Neg):
        inner = _literal_number(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Number) and isinstance(node.value, int) else None


def _most_players(data) -> int | None:
    """The spec's largest player count, when it says one as a whole number."""
    players = data.get("players") if isinstance(data, dict) else None
    most = players.get("max") if isinstance(players, dict) else players
    return most if isinstance(most, int) and not isinstance(most, bool) and most > 0 else None


def _never_falls_off(stmts) -> bool:
    """Whether a block always leaves by `return` or `end game` (else a procedure's
    end, reached, gives none). Loops and menus are taken to fall off: a result
    judged "or none" costs a check at play, never a refusal."""
    for stmt in stmts:
        if isinstance(stmt, (ast.Return, ast.EndGame)):
            return True
        if isinstance(stmt, ast.If) and stmt.orelse and _never_falls_off(stmt.body) \
                and _never_falls_off(stmt.orelse):
            return True
    return False


def _source_of(node) -> str:
    """An expression as written (give or take spaces), for a message's advice;
    `...` for the parts it does not render."""
    return ast.source_text(node)
