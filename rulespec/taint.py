"""Which locals of each rule may hold what some seat cannot see.

Locals live in a frame's env, and refusal explanations evaluate conditions on
the seat's copy of the state, env included (interpreter/engine/visibility.py's
seat_state, which hides a local by these labels). Zones and variables carry a
declared visibility; a local carries none, so this module works it out once,
at compile time, from what each assignment reads.

A local's *labels* say who may read it: an empty set, everyone; "?" (NOBODY),
no seat; a local name `q`, the seat `q` holds in the same frame (only a name
the rule never assigns, so it names the same seat for the frame's whole life:
`player` in an action, a parameter nobody reassigns). A local may be read by a
seat only if every one of its labels allows it. Labels come from:

- reading an `owner` per-player variable `q.x` or the cards of an `owner`
  player zone `q.hand` ("q" if q is such a fixed name, else "?"); a `hidden`
  variable or the cards of a zone that is not public ("?"); a per-card variable
  that is not public ("?": whose it is follows the card's place, unknown here; a
  public one carries what its card does); `where(c)` ("?").
  `count(zone)` and `owner(zone)` read no cards: counts are public.
- a choice made in a secret round (lexically inside `secretly`, or in a rule a
  secret round may run: procedures it calls, actions of its turns, triggers of
  its signals): the seat deciding (`by q`, "q" if fixed, else "?").
- the conditions a statement runs under (`if`, `while`, `for` items and
  `where`, a menu option's condition, a secret menu's choice): an assignment
  under them tells what they read.
- calls: a spec function's result carries what its body reads and what its
  arguments carry; a procedure's or trigger's parameters carry, together, what
  every call passes them; a procedure's result, what its `return`s carry.

It is sound rather than precise: flow-insensitive (a local carries what any of
its assignments reads), context-insensitive (a parameter what any call passes),
and a fixed name is followed only as a bare name. Random outcomes are public
(a roll is seen by the table), unless drawn from cards no seat sees.

Card identities are checked again by value where a state is copied for a seat
(a card a seat cannot see reads as a hidden card), so a local that carries no
label but holds such a card is still safe.
"""
from __future__ import annotations

from . import ast
from .scope import assigned_names, declared_visibility, for_variable

NOBODY = "?"
NONE = frozenset()
_HIDDEN = frozenset({NOBODY})
PUBLIC = (NONE, NONE)
_NO_CARDS = {"count", "owner"}      # builtins that read a zone's size or seat, not its cards
_WHERE = {"where"}                  # a card's place: hidden where the card is
# builtins whose result is cards of their first argument picked by place or by chance,
# as many as the argument's count (public) or the call says: which cards they are
# is the by-value check's to hide, nothing else about them is learnt
_PICKS = {"top", "first", "last", "random_of", "cards", "draw"}


def local_labels(spec, rules, names) -> dict:
    """{rule path: {local name or For/Secretly node: frozenset of labels}} for every
    statement rule (flow, phases, procedures, actions' `do`, triggers' `do`); a
    node key stands for its loop's item list in the frame (the compiler's "$forN")."""
    return _Taint(spec, rules, names).run()


def _union(*pairs):
    return (NONE.union(*(p[0] for p in pairs)), NONE.union(*(p[1] for p in pairs)))


class _Taint:
    """The whole spec's rules, to a fixed point over what calls pass and return.

    A local's value is a pair (content labels, card labels): the labels of all it
    tells, and those of which cards it holds; only the first decide whether a seat
    reads it (the cards are checked by value, where the state is copied)."""

    def __init__(self, spec, rules, names):
        self.data, self.names = spec.data, names
        self.by_path = {r.path: r for r in rules}
        self.params: dict = {}      # (section, name) -> {param: pair}, from every call
        self.returns: dict = {}     # procedure name -> pair of what it returns
        self.functions: dict = {}   # function name -> (content, cards) of its body alone
        self.secret_rules = self._secret_rules()
        self.changed = True

    def run(self) -> dict:
        out: dict = {}
        rounds = 0
        while self.changed and rounds < 64:     # labels only grow, over finite sets
            self.changed, rounds = False, rounds + 1
            for rule in self.by_path.values():
                if rule.kind == "statements" and rule.path[-1] == "do" or rule.path == ("flow",):
                    out[rule.path] = _Rule(self, rule).labels()
        if self.changed:    # not settled (never seen): hide every local rather than guess
            return {path: {k: _HIDDEN for k in env} for path, env in out.items()}
        return out

    # ------------------------------------------------------------- parameters
    def bind(self, key, name, pair):
        """Add `pair` to parameter `name` of `key` (("procedures", p) or ("triggers", t))."""
        params = self.params.setdefault(key, {})
        before = params.get(name, PUBLIC)
        after = _union(before, pair)
        if after != before:
            params[name] = after
            self.changed = True

    def returned(self, proc, pair):
        before = self.returns.get(proc, PUBLIC)
        after = _union(before, pair)
        if after != before:
            self.returns[proc] = after
            self.changed = True

    # ----------------------------------------------------------- secret rounds
    def _secret_rules(self) -> set:
        """Paths of the rules a secret round may run (what it calls, turns, signals)."""
        todo = [node for rule in self.by_path.values() if rule.kind == "statements"
                for node in ast.walk(rule.tree) if isinstance(node, ast.Secretly)]
        found: set = set()
        while todo:
            for path in self._started(todo.pop()):
                rule = self.by_path.get(path)
                if rule is not None and path not in found:
                    found.add(path)
                    todo.append(rule.tree)
        return found

    def _started(self, tree):
        triggers = self.data.get("triggers") or {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.func in self.names.procedures:
                yield ("procedures", node.func, "do")
            elif isinstance(node, ast.Turn):
                for name in node.actions:
                    yield ("actions", name, "do")
            elif isinstance(node, ast.Signal):
                for name, trig in triggers.items():
                    if trig.get("on") == node.name:
                        yield ("triggers", name, "do")


class _Rule:
    """One statement rule: its locals' pairs, to a fixed point over its assignments."""

    def __init__(self, taint, rule):
        self.taint, self.rule, self.names = taint, rule, taint.names
        bound = assigned_names(rule.tree, self.names)
        self.fixed = {p for p in rule.scope if p not in bound}     # names one seat for the frame
        self.env: dict = {name: PUBLIC for name in set(rule.scope) | bound}
        self.loops: dict = {}
        self.secret = rule.path in taint.secret_rules
        kind, name = rule.path[0], rule.path[1] if len(rule.path) > 1 else None
        self.key = {"procedures": ("procedures", name), "triggers": ("triggers", name)}.get(kind)
        self.env.update(taint.params.get(self.key, {}))
        self.base = NONE
        if kind == "actions":
            self.base = self._action_start(name)
        elif kind == "triggers":
            when = taint.by_path.get(("triggers", name, "when"))
            self.base = self.expr(when.tree) if when is not None else NONE

    def _action_start(self, name) -> frozenset:
        """An action's frame: `player`, and its `for` value, which holds cards of its
        items and tells what `when` reads; in a secret round, which action ran is the
        player's to know."""
        base = frozenset({"player"}) if self.secret else NONE
        var, items, when = self.action_reads(name, self.env)
        if var in self.env:
            self.env[var] = _union(self.env[var], (items[0] | when | base, items[1]))
            return base
        return base | when

    def action_reads(self, name, env):
        """(its `for` variable, the pair of its items, what its `when` reads) in `env`."""
        var = for_variable((self.taint.data["actions"][name] or {}).get("for", ""))
        listed = self.taint.by_path.get(("actions", name, "for"))
        when = self.taint.by_path.get(("actions", name, "when"))
        reader = _Expr(self, env)
        items = reader.item(listed.tree.right) if listed is not None else PUBLIC
        if var is not None and env is not self.env:
            env[var] = items
        return var, items, reader.labels(when.tree) if when is not None else NONE

    def labels(self) -> dict:
        while True:
            before = (dict(self.env), dict(self.loops))
            self.block(self.rule.tree.body, self.base, self.secret)
            if (self.env, self.loops) == before:
                return {**{k: v[0] for k, v in self.env.items()}, **self.loops}

    # -------------------------------------------------------------- statements
    def block(self, stmts, pc, secret):
        for node in stmts:
            self.statement(node, pc, secret)

    def statement(self, node, pc, secret):
        rule = node.rule
        if rule == "assign":
            self.store(node.target, self.keep(node.value), pc)
        elif rule == "aug_assign":
            self.store(node.target, (self.expr(node.value) | self.expr(node.target), NONE), pc)
        elif rule == "call_stmt":
            _Expr(self, self.env).call(node.call, pc)
        elif rule in ("choose_one", "choose_several", "choose_number", "auction"):
            self.choice(node, pc, secret)
        elif rule == "menu":
            chosen = self._by(node.by) if secret else NONE
            for option in node.options:
                cond = self.expr(option.cond) if option.cond is not None else NONE
                self.block(option.body, pc | cond | chosen, secret)
        elif rule == "turn":
            self.turn(node, pc, secret)
        elif rule == "signal":
            self.signal(node, pc)
        elif rule == "return_":
            if self.key is not None and self.key[0] == "procedures":
                value = self.keep(node.value) if node.value is not None else PUBLIC
                self.taint.returned(self.key[1], (value[0] | pc, value[1]))
        elif rule == "if_stmt":
            cond = self.expr(node.cond)
            self.block(node.body, pc | cond, secret)
            self.block(node.orelse, pc | cond, secret)
        elif rule == "while_stmt":
            self.block(node.body, pc | self.expr(node.cond), secret)
        elif rule in ("for_stmt", "secretly"):
            self.loop(node, pc, secret or rule == "secretly")

    def loop(self, node, pc, secret):
        """A `for`: its variable holds items (their cards by value); how many times
        the body runs tells the items' count (public for a zone) and the `where`."""
        items = self.item(node.iter)
        inner = pc | items[0]
        if getattr(node, "where", None) is not None:
            inner |= self.expr(node.where)
        self.loops[node] = self.loops.get(node, NONE) | inner
        self.store(ast.Name(node.line, node.col, node.var), (inner, items[1]), NONE)
        self.block(node.body, inner, secret)

    def store(self, target, pair, pc):
        """A local gets `pair` (an item or key of a local list or map: the whole local)."""
        content, cards = pair[0] | pc, pair[1]
        while isinstance(target, ast.Index):
            content |= self.expr(target.key) | cards
            cards = NONE
            target = target.obj
        if isinstance(target, ast.Name) and target.id in self.env:
            old = self.env[target.id]
            self.env[target.id] = (old[0] | content, old[1] | cards)

    def choice(self, node, pc, secret):
        """A chosen option is one of the options (cards by value); in a secret round
        what was chosen is the deciding seat's to know."""
        offered = getattr(node, "options", None)
        content, cards = (self.item(offered) if offered is not None else PUBLIC)
        for key in ("count", "low", "high", "among", "opening", "raise_", "limit", "starter"):
            part = getattr(node, key, None)
            if part is not None:
                content |= self.expr(part)
        if secret:
            content |= self._by(getattr(node, "by", None) or node.among)
        self.store(node.target, (content, cards), pc)

    def turn(self, node, pc, secret):
        """A turn's `else` runs when no action is legal: it tells what their `for` and
        `when` read (each read in the action's own frame, where no name is fixed here)."""
        reads = pc | self.expr(node.player)
        for name in node.actions:
            if name in (self.taint.data.get("actions") or {}):
                _, items, when = self.action_reads(name, {"player": PUBLIC})
                reads |= items[0] | items[1] | when
        self.block(node.orelse, reads | (self._by(node.player) if secret else NONE), secret)

    def signal(self, node, pc):
        params = self.names.signals.get(node.name, [])
        for name, trig in (self.taint.data.get("triggers") or {}).items():
            if trig.get("on") == node.name:
                self.bind_call(("triggers", name), params, node.args, pc)

    def bind_call(self, key, params, args, pc):
        """Bind a call's arguments to the callee's parameters, fixed names renamed
        (a caller's fixed name is the callee's where passed bare to a fixed parameter)."""
        callee = self.taint.by_path.get((key[0], key[1], "do"))
        bound = assigned_names(callee.tree, self.names) if callee is not None else set()
        rename = {a.id: p for p, a in zip(params, args)
                  if isinstance(a, ast.Name) and a.id in self.fixed and p not in bound}
        for param, arg in zip(params, args):
            content, cards = self.keep(arg)
            self.taint.bind(key, param, (_renamed(content | pc, rename), _renamed(cards, rename)))

    def _by(self, node) -> frozenset:
        """Who decides: a fixed name, or nobody that can be named ('?')."""
        if isinstance(node, ast.Name) and node.id in self.fixed:
            return frozenset({node.id})
        return _HIDDEN

    def expr(self, node) -> frozenset:
        return _Expr(self, self.env).labels(node)

    def keep(self, node):
        return _Expr(self, self.env).keep(node)

    def item(self, node):
        return _Expr(self, self.env).item(node)


def _renamed(labels, rename) -> frozenset:
    return frozenset(rename.get(x, NOBODY) for x in labels)


class _Expr:
    """What an expression tells, read in a rule's frame."""

    def __init__(self, owner, env):
        self.owner, self.env = owner, env
        self.names, self.taint = owner.names, owner.taint
        self.fixed = owner.fixed if env is owner.env else set()

    def labels(self, node) -> frozenset:
        """All the value tells (its cards' identities too)."""
        labels, zone, cards = self.value(node)
        return labels | zone | cards

    def keep(self, node):
        """(content, cards) of a value kept as it is (stored, passed, returned)."""
        rule = node.rule
        if rule == "name" and node.id in self.env:
            return self.env[node.id]
        if rule == "list_":
            return _union(PUBLIC, *(self.keep(i) for i in node.items))
        if rule == "call" and node.func in _PICKS and node.args:
            content, cards = self.item(node.args[0])
            return content | self._rest(node), cards
        if rule == "comprehension":
            return self.comprehension(node)
        labels, zone, cards = self.value(node)
        return labels, zone | cards

    def item(self, node):
        """(content, cards) of the items of a zone or list, taken by place."""
        rule = node.rule
        if rule in ("list_", "comprehension") or rule == "name" and node.id in self.env or \
                rule == "call" and node.func in _PICKS:
            return self.keep(node)
        labels, zone, cards = self.value(node)
        return labels, zone | cards

    def _rest(self, node) -> frozenset:
        out = NONE
        for arg in node.args[1:]:
            out |= self.labels(arg)
        for arg in node.kwargs.values():
            out |= self.labels(arg)
        return out

    def value(self, node):
        """(labels of the value, labels of its cards when it is a zone, labels of
        which cards it holds when it is cards read from a local or parameter)."""
        rule = node.rule
        if rule in ("number", "string", "const"):
            return NONE, NONE, NONE
        if rule == "name":
            return self.name(node)
        if rule == "attr":
            return self.attr(node)
        if rule == "call":
            if node.func in self.names.functions:
                return self.function(node)
            return self.call(node, NONE), NONE, NONE
        if rule == "comprehension":
            content, cards = self.comprehension(node)
            return content, NONE, cards
        if rule == "index":     # an item by place: its card (or zone) is the one there
            labels, zone, cards = self.value(node.obj)
            return labels | self.labels(node.key), NONE, zone | cards
        if rule == "compare" and node.op in ("==", "!=") and _is_none(node.right):
            return self.value(node.left)[0], NONE, NONE   # none or not: a zone's emptiness
        out = NONE
        for child in ast.children(node):
            out |= self.labels(child)
        return out, NONE, NONE

    def comprehension(self, node):
        """(content, cards): as many items as its list (a `cond` tells which), each
        its `elt` kept, with the variable an item of the list."""
        items = self.item(node.iter)
        saved = self.env.get(node.var)
        self.env[node.var] = items
        content, cards = self.keep(node.elt)
        content |= items[0] | (self.labels(node.cond) if node.cond is not None else NONE)
        if saved is None:
            self.env.pop(node.var, None)
        else:
            self.env[node.var] = saved
        return content, cards

    def name(self, node):
        if node.id in self.env:
            content, cards = self.env[node.id]
            return content, NONE, cards
        kind, _ = self.names.resolve(node.id, ())
        if kind == "global":
            return (NONE if declared_visibility(self.names.globals, node.id, "public") == "public"
                    else _HIDDEN), NONE, NONE
        if kind == "zone":
            return NONE, (NONE if declared_visibility(self.names.zones, node.id, "hidden") == "public"
                          else _HIDDEN), NONE
        return NONE, NONE, NONE

    def attr(self, node):
        obj, n, name = self.labels(node.obj), self.names, node.name
        if name in n.player_zones:
            return obj, self._owned(n.player_zones, name, node.obj, "owner"), NONE
        if name in n.per_player:
            return obj | self._owned(n.per_player, name, node.obj, "public"), NONE, NONE
        if name in n.per_card and declared_visibility(n.per_card, name, "public") != "public":
            return obj | _HIDDEN, NONE, NONE
        return obj, NONE, NONE

    def _owned(self, section, name, seat, default) -> frozenset:
        vis = declared_visibility(section, name, default)
        if vis == "public":
            return NONE
        if vis == "owner" and isinstance(seat, ast.Name) and seat.id in self.fixed:
            return frozenset({seat.id})
        return _HIDDEN

    def call(self, node, pc) -> frozenset:
        func = node.func
        values = [self.value(a) for a in node.args]
        if func in _NO_CARDS:
            out = NONE.union(*(v[0] for v in values))
        else:
            out = NONE.union(*(v[0] | v[1] | v[2] for v in values))
        if func in _WHERE:
            out |= _HIDDEN
        saved = self.env.get("it")
        self.env["it"] = self.item(node.args[0]) if node.args else PUBLIC
        for arg in node.kwargs.values():
            out |= self.labels(arg)
        if saved is None:
            self.env.pop("it", None)
        else:
            self.env["it"] = saved
        if func in self.names.procedures:
            if self.env is self.owner.env:
                self.owner.bind_call(("procedures", func), self.names.procedures[func], node.args, pc)
            returned = self._returned(func, node.args)
            out |= returned[0] | returned[1] | pc
        return out

    def _returned(self, proc, args):
        """A procedure's result as the caller reads it: its fixed parameters renamed
        to the caller's fixed names they were called with, anything else '?'."""
        params = self.names.procedures[proc]
        back = {p: a.id for p, a in zip(params, args) if isinstance(a, ast.Name) and a.id in self.fixed}
        content, cards = self.taint.returns.get(proc, PUBLIC)
        return _renamed(content, back), _renamed(cards, back)

    def function(self, node):
        """A spec function's value: what its body keeps and reads, its parameters
        renamed as in _returned; its arguments count as read, whatever it does with them."""
        content, cards = self._function_reads(node.func)
        params = self.names.functions[node.func]
        back = {p: a.id for p, a in zip(params, node.args) if isinstance(a, ast.Name) and a.id in self.fixed}
        args = NONE.union(*(self.labels(a) for a in node.args))
        for arg in node.kwargs.values():
            args |= self.labels(arg)
        return _renamed(content, back) | args, NONE, _renamed(cards, back)

    def _function_reads(self, name):
        done = self.taint.functions
        if name in done:
            return done[name]
        done[name] = (_HIDDEN, NONE)    # a recursive call while reading it: assume the worst
        rule = self.taint.by_path.get(("functions", name, "expr"))
        if rule is None:
            return done[name]
        done[name] = _FunctionBody(self.owner, rule).keep(rule.tree)
        return done[name]


class _FunctionBody(_Expr):
    """A spec function's body: parameters carry nothing (the caller adds its
    arguments' labels); its parameters are fixed names (they may name owners)."""

    def __init__(self, owner, rule):
        self.owner, self.names, self.taint = owner, owner.names, owner.taint
        self.env = {p: PUBLIC for p in rule.scope}
        self.fixed = set(rule.scope)


def _is_none(node) -> bool:
    return node.rule == "const" and node.value is None
