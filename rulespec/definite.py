"""Definite assignment: every local a rule reads has a value on every path there.

A rule's locals are the names it gives a value (rulespec.scope.assigned_names),
and each is the rule's local everywhere in it, as in Python. Read before any
value reaches it, on some path, it failed only when play took that path:
`players[0].wins = y` then `y = 5` validated, and the game stopped at once with
"'y' has no value here". A local named like a constant of the spec hides the
constant in the whole rule, so `x = cap` before `cap = 5` read nothing either.

The analysis is the usual forward one over the statements (as Java's, say): the
set of locals surely given a value grows along a block; after an `if` it is
what every branch gives (a branch that ends the rule, by `return` or `end
game`, gives everything); after a loop it is what held before it, since the
body may not run (unless, with no `where`, it walks what is never empty:
`players`, a list written out or a constant list with items, `range` of numbers
written out); a menu's options and a turn's `else` are branches. A read of
a local outside the set is refused at the read. A loop that reads on its first
turn what it gives on later ones is refused too: give the local a value before
the loop (`prev = none`).
"""
from __future__ import annotations

from . import ast
from .scope import PLACEHOLDER, assigned_names

EVERYTHING = None   # what an ended path gives: every local (the meet's unit)


def check_definite_assignment(spec, rules, names, error_at) -> list:
    """Errors (from `error_at(rule, message, line, col)`): one per local (per rule)
    read where some path reaches it with no value, at its first such read."""
    errors = []
    for rule in rules:
        if rule.kind != "statements" or rule.tree is None:
            continue
        place = lambda line, col, rule=rule: spec.text_position(rule.path, line, col)  # noqa: E731
        for name, node, message in unassigned_reads(rule.tree, names, set(rule.scope), place):
            errors.append(error_at(rule, message, node.line, node.col))
    return errors


def unassigned_reads(tree, names, given=frozenset(), place=None) -> list:
    """[(local, its first read with no value on some path, the message)] of a parsed
    block of statements. given: names that have a value from the start (parameters,
    a scenario's `let:` names); place(line, col) -> (line, col) in the file, for the
    message to say where the local is given (None: it does not say)."""
    locals_ = assigned_names(tree, names) - set(given)
    if not locals_:
        return []
    walk = _Walk(locals_, names)
    walk.block(tree.body, frozenset())
    out = []
    for name, (node, in_loop) in walk.unset.items():
        given_by = walk.given.get(name)
        line = place(given_by.line, given_by.col)[0] if given_by and place else None
        same = given_by is not None and given_by.line == node.line     # in the rule's own lines
        out.append((name, node, _message(name, names, line, same, in_loop)))
    return out


def assigned_before(tree, names, given=frozenset()) -> dict:
    """{id(statement): the locals surely given a value when it starts} for every
    statement of a parsed block that some path reaches (parameters, `given`, left
    out): where a frame stops at a statement, its env holds at least these (a save's
    check: interpreter/engine/save_checks.py). Inside a loop, what its first turn
    has: later turns have as much or more."""
    walk = _Walk(assigned_names(tree, names) - set(given), names)
    walk.block(tree.body, frozenset())
    return walk.before


def _message(name, names, given_at, same_line, in_loop) -> str:
    at = "" if given_at is None else " (this line gives it one only after reading it)" if same_line \
        else f" (it is given one at line {given_at})"
    text = (f"'{name}' may have no value here: a path reaches this line without giving it "
            f"one{at}. Give it a value before this line on every path")
    if in_loop:
        text += f" (before the loop, if its first turn reads it: `{name} = none`)"
    kind, _ = names.resolve(name, set())
    if kind != "unknown":
        text += (f". '{name}' is also the spec's {kind}, which this rule cannot read: a name "
                 f"given a value in a rule is the rule's own local in all of it, so choose "
                 f"another name for the local")
    return text


class _Walk:
    """The forward walk of one rule: `unset` holds each local's first read with no
    value on some path; `given`, its first assignment (for the message)."""

    def __init__(self, locals_, names):
        self.locals, self.names = locals_, names
        self.unset: dict = {}   # name -> (its first read with no value, whether inside a loop)
        self.given: dict = {}
        self.loops = 0
        self.before: dict = {}  # id(statement) -> the locals surely given a value when it starts

    # ------------------------------------------------------------ statements
    def block(self, body, have):
        for stmt in body:
            if have is EVERYTHING:
                return EVERYTHING   # the rest cannot run: nothing to check there
            have = self.statement(stmt, have)
        return have

    def statement(self, node, have):
        self.before[id(node)] = have
        for name in PLACEHOLDER.findall(getattr(node, "prompt", None) or ""):
            self.reads(ast.Name(node.line, node.col, name), have)   # `as "... {x} ..."` reads x
        if isinstance(node, ast.Block):
            return self.block(node.body, have)
        if isinstance(node, ast.Auction):     # its opening, raise, limit and starter see `bidder`
            self.reads(node.among, have)
            for part in (node.opening, node.raise_, node.limit, node.starter):
                self.reads(part, have | {"bidder"})
            return self.store(node.target, have)
        if isinstance(node, (ast.Assign, ast.ChooseOne, ast.ChooseNumber, ast.ChooseSeveral)):
            for part in _parts(node, skip="target"):
                self.reads(part, have)
            return self.store(node.target, have)
        if isinstance(node, ast.AugAssign):
            self.reads(node.target, have)
            self.reads(node.value, have)
            return have
        if isinstance(node, ast.If):
            self.reads(node.cond, have)
            return _meet(self.block(node.body, have), self.block(node.orelse, have))
        if isinstance(node, (ast.For, ast.Secretly)):
            self.reads(node.iter, have)
            inside = have | {node.var}
            if getattr(node, "where", None) is not None:
                self.reads(node.where, inside)
            after = self.loop(node.body, inside)
            return after if self.runs(node) else have
        if isinstance(node, ast.While):
            self.reads(node.cond, have)
            self.loop(node.body, have)
            return have
        if isinstance(node, ast.Menu):
            self.reads(node.by, have)
            after = EVERYTHING
            for option in node.options:
                if option.cond is not None:
                    self.reads(option.cond, have)
                after = _meet(after, self.block(option.body, have))
            return have if after is EVERYTHING and not node.options else after
        if isinstance(node, ast.Turn):
            self.reads(node.player, have)
            return _meet(have, self.block(node.orelse, have)) if node.orelse else have
        if isinstance(node, (ast.Return, ast.EndGame)):
            for part in _parts(node):
                self.reads(part, have)
            return EVERYTHING
        for part in _parts(node):       # a call, a signal, a phase, pass
            self.reads(part, have)
        return have

    def runs(self, node) -> bool:
        """A loop with no `where` over what is never empty runs its body: `players`, a
        list written out with items, a constant list with items, range of two numbers
        written out, from below to above."""
        if getattr(node, "where", None) is not None:
            return False
        items = node.iter
        if isinstance(items, ast.ListLit):
            return bool(items.items)
        if isinstance(items, ast.Name) and items.id not in self.locals:
            kind, value = self.names.resolve(items.id, set())
            return kind == "players" or kind == "constant" and isinstance(value, list) and bool(value)
        if isinstance(items, ast.Call) and items.func == "range" and not items.kwargs \
                and all(isinstance(a, ast.Number) for a in items.args) and items.args:
            bounds = [a.value for a in items.args]
            return (bounds[0] > 0) if len(bounds) == 1 else bounds[0] < bounds[1]
        return False

    def loop(self, body, have):
        self.loops += 1
        after = self.block(body, have)
        self.loops -= 1
        return after

    def store(self, target, have):
        if isinstance(target, ast.Name):
            if target.id in self.locals:
                self.given.setdefault(target.id, target)
                return have | {target.id}
            return have
        self.reads(target, have)     # `m[k] = v`, `p.x = v`: m, k and p are read
        return have

    # ------------------------------------------------------------ expressions
    def reads(self, node, have):
        if node is None:
            return
        if isinstance(node, ast.Name):
            if node.id in self.locals and node.id not in have and node.id not in self.unset:
                self.unset[node.id] = (node, self.loops > 0)
            return
        if isinstance(node, ast.Comprehension):
            self.reads(node.iter, have)
            inside = have | {node.var}
            self.reads(node.elt, inside)
            self.reads(node.cond, inside)
            return
        for child in ast.children(node):
            self.reads(child, have)


def _parts(node, skip=None):
    """The nodes directly under a statement node, its field `skip` left out."""
    for name in node.__slots__:
        if name != skip:
            yield from ast._children(getattr(node, name))


def _meet(a, b):
    """What holds after two branches join: a local given on both (an ended branch
    gives everything)."""
    if a is EVERYTHING:
        return b
    if b is EVERYTHING:
        return a
    return a & b
