"""Secret rounds write only what the other seats cannot see.

`secretly for p in players: ...` is a round of simultaneous secret choices: the
seats decide one after another, and none may learn another's choice before
the round is over. The engine keeps no second, time-dependent visibility for
public state, so a secret round that wrote public state would show the first
seat's choice to the seats deciding after it. `validate` refuses such a round
instead, at the line that writes: the author keeps the choice in an
`owner` (or `hidden`) variable or zone and reveals it after the round, where a
reader of the spec sees the reveal as a rule line of its own.

Why refuse rather than hide: hiding public values for part of a round would
need every channel (views, traces, logs, search agents' guesses, saves) to
carry a rule of its own for "public, but not yet"; an owner-only variable says
the same thing with the visibility rule every channel already follows.

What is followed: assignments (`p.pick = ...`, `total += ...`), zone builtins
(`move`, `move_bottom`, `move_named`, `draw`, `shuffle`: the zones named in their
arguments) wherever they are written, as a statement or inside any expression
(a builtin with an effect may sit in an `if`'s or `while`'s condition, a `for`'s
items, an argument, an assignment's value: `if count(draw(deck, p.hand, n)) > 0:`
moves cards as `draw(deck, p.hand, n)` does), and what the round starts:
procedures and spec functions it calls, phases, actions of turns and triggers
of signals it runs. A card moved out of a public zone held in a local variable
is not seen (the zone is not named); the number of cards in owner or hidden
zones is public, so moving cards between such zones shows how many moved.

So a move in a round must not let the counts tell the choice either: one whose
zone or number of cards depends on a value chosen in the round, or that runs
only under a condition on one (`if kind(c) == goal: move_bottom(c, goal_deck)
else: move_bottom(c, action_deck)`; in an expression, an `... if ... else ...`'s
condition and the items before it in an `and` or `or` are conditions too),
showed the later seats which kind of card an earlier seat discarded. Values
chosen are the round's `choose` and auction results and what is computed from
them (locals, loop and comprehension variables, procedure and spec function
parameters they are passed to); a `menu` option's body, and the actions of a
`turn`, run only as chosen. A card's back shows its kind (each zone's count
of each kind is public, visibility.view), so in a game of more than one kind
of card a move may not take a chosen card either; in a game of one kind it may
(its face is not shown), as long as how many it takes is not chosen.
"""
from __future__ import annotations

from . import ast
from .scope import assigned_names

_ZONE_BUILTINS = {"move", "move_bottom", "move_named", "draw", "shuffle"}


def check_secret_rounds(spec, rules, names, error_at) -> list:
    """Errors (from `error_at(rule, message, line, col)`) for public writes in secret rounds."""
    by_path = {r.path: r for r in rules}
    data = spec.data
    errors: list = []
    for rule in rules:
        if rule.kind != "statements":
            continue
        for node in ast.walk(rule.tree):
            if isinstance(node, ast.Secretly):
                where = spec.text_position(rule.path, node.line, node.col)[0]
                _Round(spec, data, names, by_path, where, error_at, errors).visit(rule, node)
    return errors


class _Round:
    """One secret round: walks what it runs, reporting each public write once."""

    def __init__(self, spec, data, names, by_path, line, error_at, errors):
        self.spec, self.data, self.names, self.by_path = spec, data, names, by_path
        self.line, self.error_at, self.errors = line, error_at, errors
        self.seen: set = set()
        self.said: set = set()      # (rule path, line, col) refused: once each

    def visit(self, rule, tree, chosen=frozenset(), dependent=False):
        scope = set(rule.scope) | assigned_names(rule.tree, self.names)
        choices = _Choices(self, rule, scope, chosen)
        choices.learn(_statements(tree))
        choices.block(_statements(tree), dependent)
        for node in ast.walk(tree):
            target = getattr(node, "target", None)   # assignments, choices, auctions
            if isinstance(target, ast.Node):
                self._target(rule, target, scope)
            if isinstance(node, ast.Call):
                self._call(rule, node, scope)
            elif isinstance(node, ast.Turn):
                for name in node.actions:
                    self._follow(("actions", name, "do"))
            elif isinstance(node, ast.RunPhase):
                self._follow(("phases", node.name, "do"))
            elif isinstance(node, ast.Signal):
                for name, trig in (self.data.get("triggers") or {}).items():
                    if trig.get("on") == node.name:
                        self._follow(("triggers", name, "do"))

    def _follow(self, path, chosen=frozenset(), dependent=False):
        rule = self.by_path.get(path)
        if rule is None or rule.tree is None:       # none such, or it did not parse
            return
        if (path, chosen, dependent) not in self.seen:
            self.seen.add((path, chosen, dependent))
            self.visit(rule, rule.tree, chosen, dependent)

    def _call(self, rule, call, scope):
        called = _called(self.names, call)
        if called is not None:
            self._follow(called[0])
        elif call.func in _ZONE_BUILTINS:
            for arg in call.args:
                for sub in ast.walk(arg):
                    zone = self._zone(sub, scope)
                    if zone is not None and _visibility(*zone) == "public":
                        self._refuse(rule, sub, f"zone {zone[1]} is public")

    def _zone(self, node, scope):
        """(declaration section, name) of the zone a node names, or None."""
        if isinstance(node, ast.Name) and self.names.resolve(node.id, scope)[0] == "zone":
            return self.names.zones, node.id
        if isinstance(node, ast.Attr) and node.name in self.names.player_zones:
            return self.names.player_zones, node.name
        return None

    def _target(self, rule, target, scope):
        while isinstance(target, ast.Index):
            target = target.obj
        n = self.names
        if isinstance(target, ast.Name) and n.resolve(target.id, scope)[0] == "global":
            if _visibility(n.globals, target.id, "public") == "public":
                self._refuse(rule, target, f"global {target.id} is public")
        elif isinstance(target, ast.Attr):
            for section, kind in ((n.per_player, "per-player"), (n.per_card, "per-card")):
                if target.name in section and _visibility(section, target.name, "public") == "public":
                    self._refuse(rule, target, f"{kind} value {target.name} is public")

    def _refuse(self, rule, node, what):
        self._say(rule, node, f"{what}, and the secret round at line {self.line} writes it: the "
                              f"seats deciding later in the round would see it. Keep it in an "
                              f"owner-only (or hidden) variable or zone and reveal it after the round")

    def refuse_move(self, rule, call, why):
        self._say(rule, call, f"{call.func}() {why} in the secret round at line {self.line}: each "
                              f"zone's number of cards of each kind is public, so the seats deciding "
                              f"later in the round would learn the choice from it. Keep the choice "
                              f"in a local of the rule (or an owner-only variable) and make the move "
                              f"after the round")

    def _say(self, rule, node, message):
        """One error at `node`, however many ways the round reaches its rule."""
        if (rule.path, node.line, node.col) not in self.said:
            self.said.add((rule.path, node.line, node.col))
            self.errors.append(self.error_at(rule, message, node.line, node.col))


# the arguments of each zone builtin that decide a zone or how many cards move;
# move's and move_bottom's first is the cards (see _Choices.call)
_DECIDING = {"move": (1,), "move_bottom": (1,), "shuffle": (0,), "draw": (0, 1, 2),
             "move_named": (0, 1, 2, 3)}
_CHOICES = (ast.ChooseOne, ast.ChooseNumber, ast.ChooseSeveral, ast.Auction)


# statements and expressions with parts that run only under a condition, or
# more than once: _Choices checks each by a method of its grammar rule's name
_COMPOUND = {"if_stmt", "while_stmt", "for_stmt", "menu", "secretly", "turn", "run_phase"}
_BRANCHING = {"if_exp", "and_", "or_", "comprehension"}


def _called(names, call):
    """(rule path, parameters) of what a call runs (a procedure's `do`, a spec
    function's `expr`; either may move cards), or None."""
    if call.func in names.procedures:
        return ("procedures", call.func, "do"), names.procedures[call.func]
    if call.func in names.functions:
        return ("functions", call.func, "expr"), names.functions[call.func]
    return None


def _statements(tree) -> list:
    return tree.body if isinstance(tree, (ast.Block, ast.Secretly)) else [tree]


class _Choices:
    """Which values of one rule in a secret round come from a choice made in it, and
    the zone moves that depend on one (their zone, their count, or whether they run)."""

    def __init__(self, round_, rule, scope, chosen):
        self.round, self.rule, self.scope = round_, rule, scope
        self.chosen = set(chosen)

    def reads(self, node) -> bool:
        return node is not None and any(isinstance(n, ast.Name) and n.id in self.chosen
                                        for n in ast.walk(node))

    def learn(self, body) -> None:
        """Every local of `body` a choice decides, however late a line reads it back:
        to a fixed point (each pass adds a name, or ends)."""
        nodes = [n for statement in body for n in ast.walk(statement)]
        while True:
            before = len(self.chosen)
            for node in nodes:
                target = getattr(node, "target", None)
                if isinstance(node, _CHOICES) and isinstance(target, ast.Name):
                    self.chosen.add(target.id)
                elif isinstance(node, (ast.Assign, ast.AugAssign)) and isinstance(target, ast.Name) \
                        and self.reads(node.value):
                    self.chosen.add(target.id)
                elif isinstance(node, (ast.For, ast.Comprehension)) and self.reads(node.iter):
                    self.chosen.add(node.var)
            if len(self.chosen) == before:
                return

    def block(self, body, dependent):
        for statement in body:
            self.statement(statement, dependent)

    def statement(self, node, dependent):
        """Check the moves of one statement: a compound one by its grammar rule's method
        below, any other (or a spec function's expression) by its expressions."""
        if node.rule in _COMPOUND:
            getattr(self, node.rule)(node, dependent)
        else:
            self.expression(node, dependent)

    def if_stmt(self, node, dependent):
        self.expression(node.cond, dependent)
        inner = dependent or self.reads(node.cond)
        self.block(node.body, inner)
        self.block(node.orelse, inner)

    def while_stmt(self, node, dependent):
        inner = dependent or self.reads(node.cond)     # the condition runs again each pass
        self.expression(node.cond, inner)
        self.block(node.body, inner)

    def for_stmt(self, node, dependent):
        self.expression(node.iter, dependent)
        self.expression(node.where, dependent)
        self.block(node.body, dependent or self.reads(node.where))

    def menu(self, node, dependent):
        self.expression(node.by, dependent)
        for option in node.options:
            self.expression(option.cond, dependent)
            self.block(option.body, True)               # runs only as chosen

    def secretly(self, node, dependent):
        self.expression(node.iter, dependent)
        self.block(node.body, dependent)

    def turn(self, node, dependent):
        self.expression(node.player, dependent)
        for name in node.actions:                       # each runs only as chosen
            self.round._follow(("actions", name, "do"), frozenset(), True)
        self.block(node.orelse, dependent)

    def run_phase(self, node, dependent):
        if dependent:       # (_Round follows it otherwise)
            self.round._follow(("phases", node.name, "do"), frozenset(), True)

    def expression(self, node, dependent):
        """Check the moves of an expression, or of a simple statement's expressions: a
        builtin with an effect may sit anywhere in one (`if count(draw(deck, p.hand)) > 0:`),
        and runs only under an `... if ... else ...`'s condition, the items before it in an
        `and` or `or`, a comprehension's filter (methods by grammar rule, below)."""
        if node is None:        # an optional part left out (a `for` without `where`)
            return
        if node.rule in _BRANCHING:
            getattr(self, node.rule)(node, dependent)
            return
        if isinstance(node, ast.Call):
            self.call(node, dependent)
        for child in ast.children(node):
            self.expression(child, dependent)

    def if_exp(self, node, dependent):
        self.expression(node.cond, dependent)
        self.expression(node.then, dependent or self.reads(node.cond))
        self.expression(node.orelse, dependent or self.reads(node.cond))

    def and_(self, node, dependent):
        for i, item in enumerate(node.items):
            self.expression(item, dependent or any(map(self.reads, node.items[:i])))

    or_ = and_

    def comprehension(self, node, dependent):
        self.expression(node.iter, dependent)
        self.expression(node.cond, dependent)
        self.expression(node.elt, dependent or self.reads(node.cond))

    def call(self, call, dependent):
        """Check a zone builtin's move; follow a procedure or spec function that a choice
        is passed to, or that runs only under a condition on one."""
        called = _called(self.round.names, call)
        if call.func in _DECIDING:
            self.move(call, dependent)
        elif called is not None:
            path, params = called
            passed = frozenset(p for p, arg in zip(params, call.args) if self.reads(arg))
            if passed or dependent:
                self.round._follow(path, passed, dependent)

    def move(self, call, dependent):
        """Refuse a zone builtin's call when what was chosen decides it."""
        deciding = [call.args[i] for i in _DECIDING[call.func] if i < len(call.args)]
        if dependent:
            self.round.refuse_move(self.rule, call, "runs only under a condition on what was chosen")
        elif any(self.reads(arg) for arg in deciding):
            self.round.refuse_move(self.rule, call, "moves to a zone, or a number of cards, "
                                                    "decided by what was chosen")
        elif call.args and self.filtered(call.args[0]):
            self.round.refuse_move(self.rule, call, "moves a number of cards decided by "
                                                    "what was chosen")
        elif call.args and self.reads(call.args[0]) and len(self.round.data.get("cards") or {}) > 1:
            # a card's back shows its kind (visibility.view gives each zone's count
            # of each kind): with two kinds of card, moving the chosen one shows which
            self.round.refuse_move(self.rule, call, "moves a card that was chosen, whose "
                                                    "kind its back shows,")

    def filtered(self, node) -> bool:
        """Whether a list of cards has a length a choice decides (a filter reading one)."""
        return any(isinstance(n, ast.Comprehension) and self.reads(getattr(n, "cond", None))
                   or isinstance(n, ast.IfExp) and self.reads(n.cond) for n in ast.walk(node))


def _visibility(section: dict, name: str, default: str = "hidden") -> str:
    decl = section.get(name)
    if isinstance(decl, dict):
        return decl.get("visibility", default)
    return default
