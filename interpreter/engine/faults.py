"""Errors at play, in words: where a rule went wrong, and with which values.

A spec that validates can still fail at play on data: a `none` where a card
was needed, an index past the end of a list, a division by a count that is
zero. The run loop turns whatever a rule raised into one RuleError that
names the exact line and column in the spec, the rule, and the values
involved — never a Python exception's name or text.

How: the failing statement's expressions are evaluated again, part by part,
innermost first (`find_fault`), to find the smallest part that fails while its
own parts evaluate; its operator and their values give the message. A
statement that changes the state as it evaluates (draw, move, roll, ...) is
not evaluated again; its message then says what kind of fault it was, from
the exception's class alone (`in_words`).

Only the error path runs this; playing costs nothing extra.
"""
from __future__ import annotations

import re

from rulespec import ast
from rulespec.builtins import EFFECTS
from rulespec.errors import LimitError, RuleError, RulespecError

from .values import Seat, Zone, display

_VERBS = {"+": "add", "-": "subtract", "*": "multiply", "//": "divide", "%": "divide"}
_KINDS = {"int": "a number", "bool": "true or false", "str": "text", "NoneType": "none",
          "list": "a list", "tuple": "a list", "dict": "a map", "Seat": "a player",
          "Zone": "a zone", "float": "a number"}


def locate(error: RulespecError, st, program, pc, env=None) -> RulespecError:
    """`error` with the position of instruction `pc` of `program` (a statement
    inside a block scalar: its own line and column) and the rule's name."""
    if error.line is not None:
        return error
    node, mark = _instruction_node(program, pc)
    if node is not None:
        error.file = st.game.file
        error.line, error.col = mark(node.line, node.col) if mark else (node.line, node.col)
    elif program is not None and pc < len(program.lines):
        error.file, error.line = program.lines[pc]
    if program is not None:
        error.message = f"{error.message} (in {program.rule})"
    return error


def explain(exc: Exception, st, program, pc, env) -> RulespecError:
    """An exception raised by instruction `pc` of `program` (a Python one, or a
    RulespecError not yet placed), as a located error in words, at the failing
    part of the statement when evaluating it again finds one."""
    if isinstance(exc, RulespecError) and exc.line is not None:
        return exc
    node, mark = _instruction_node(program, pc)
    scope = getattr(program.code[pc], "scope", None) if program and pc < len(program.code) else None
    found = None
    if node is not None and env is not None and _worth_again(exc):
        found = find_fault(st, env, node, scope or set(), mark)
    if found is not None:
        where, message = found
        error = RuleError(message, file=st.game.file, line=where[0], col=where[1])
        error.message = f"{message} (in {program.rule})"
        return error
    if isinstance(exc, RulespecError):
        _name_the_owner(exc, st, node, env, getattr(program.code[pc], "scope", set()))
        return locate(exc, st, program, pc)
    return locate(RuleError(in_words(exc)), st, program, pc)


def _name_the_owner(error, st, node, env, scope) -> None:
    """A bound broken by `p.coins -= 5` says whose: "P1's coins would become -2"."""
    target = getattr(node, "target", None)
    if (not isinstance(target, ast.Attr) or env is None
            or not error.message.startswith(f"{target.name} would become")
            or _changes_state(target.obj, st)):
        return
    try:
        owner = st.game.compile_expression(target.obj, scope)(st, dict(env))
    except Exception:   # noqa: BLE001 — then the message stays as it is
        return
    error.message = f"{display(owner, st.game.player_names)}'s {error.message}"


def explain_expression(exc: Exception, st, function, env, rule: str) -> RuleError:
    """An exception raised by a compiled expression outside the flow's statements
    (an action's `for`, `when` or label, an end condition), located at its failing
    part. `function` carries the tree it was compiled from (Game._compile)."""
    if isinstance(exc, RulespecError) and exc.line is not None:
        return exc
    tree, mark = getattr(function, "node", None), getattr(function, "mark", None)
    found = None
    if tree is not None and _worth_again(exc):
        found = find_fault(st, env, tree, getattr(function, "scope", set()), mark)
    if found is not None:
        (line, col), message = found
    else:
        message = in_words(exc)
        line, col = (mark(tree.line, tree.col) if mark else (tree.line, tree.col)) if tree else (None, None)
    return RuleError(f"{message} (in {rule})", file=st.game.file, line=line, col=col)


def _worth_again(exc) -> bool:
    """Evaluating the parts again finds the failing one, except after a limit (the
    work was too big to do twice) or a lack of memory or stack (issue 14)."""
    return not isinstance(exc, (LimitError, MemoryError, RecursionError))


# ----------------------------------------------------------- finding the part
def find_fault(st, env, node, scope, mark):
    """((line, col), message) for the innermost part of `node` that fails, or
    None when evaluating its expressions again raises nothing."""
    finder = _Finder(st, scope, mark)
    try:
        for expr in _expressions(node):
            found = finder.visit(expr, dict(env))
            if found is not None:
                return found
    except _Unsure:
        return None
    return None


class _Unsure(Exception):
    """The diagnosis cannot evaluate a part on its own; give up quietly."""


class _Finder:
    def __init__(self, st, scope, mark):
        self.st, self.scope, self.mark = st, set(scope), mark

    def visit(self, node, env):
        """None when `node` evaluates; else (where, message) of its failing part."""
        if _changes_state(node, self.st, deep=False):
            return self._arguments_only(node, env)
        if isinstance(node, (ast.And, ast.Or, ast.IfExp)):
            return self._short_circuit(node, env)
        if isinstance(node, ast.Comprehension):
            return self._comprehension(node, env)
        values = []
        for part in node.args if isinstance(node, ast.Call) else ast.children(node):
            found = self.visit(part, env)
            if found is not None:
                return found
            values.append(self._value(part, env))
        try:
            self._eval(node, env)
        except _Unsure:
            raise
        except Exception as e:   # noqa: BLE001 — a rule's fault, whatever Python calls it
            return self._where(node), self._message(node, values, e)
        return None

    def _arguments_only(self, node, env):
        """An effect (roll, log, a procedure...) is never run again: its arguments
        are looked at, as any expression's, and a fault past them is not found."""
        for part in node.args:
            found = self.visit(part, env)
            if found is not None:
                return found
        raise _Unsure()

    def _short_circuit(self, node, env):
        """and/or/if: only the parts Python would evaluate."""
        if isinstance(node, ast.IfExp):
            found = self.visit(node.cond, env)
            if found is not None:
                return found
            return self.visit(node.then if self._value(node.cond, env) else node.orelse, env)
        for item in node.items:
            found = self.visit(item, env)
            if found is not None:
                return found
            if bool(self._value(item, env)) == isinstance(node, ast.Or):
                return None
        return None

    def _comprehension(self, node, env):
        from .functions import _items
        found = self.visit(node.iter, env)
        if found is not None:
            return found
        items = self._value(node.iter, env)
        try:
            items = _items(self.st, items)
            iter(items)
        except Exception as e:   # noqa: BLE001
            return self._where(node.iter), f"cannot go through {_show(items, self.st)}: {in_words(e)}"
        self.scope.add(node.var)
        for item in items:
            inner = {**env, node.var: item}
            if node.cond is not None:
                found = self.visit(node.cond, inner)
                if found is not None:
                    return found
                if not self._value(node.cond, inner):
                    continue
            found = self.visit(node.elt, inner)
            if found is not None:
                return found
        return None

    def _eval(self, node, env):
        try:
            function = self.st.game.compile_expression(node, self.scope)
        except Exception:   # noqa: BLE001 — a part that cannot be compiled alone
            raise _Unsure() from None
        return function(self.st, env)

    def _value(self, node, env):
        try:
            return self._eval(node, env)
        except _Unsure:
            raise
        except Exception:   # noqa: BLE001
            raise _Unsure() from None

    def _where(self, node):
        return self.mark(node.line, node.col) if self.mark else (node.line, node.col)

    def _message(self, node, values, e) -> str:
        if isinstance(e, RulespecError):
            return e.message
        st = self.st
        show = lambda v: _show(v, st)   # noqa: E731
        if isinstance(node, ast.Arith) and len(values) == 2:
            a, b = values
            if isinstance(e, ZeroDivisionError):
                return f"cannot divide {show(a)} by zero"
            return f"cannot {_VERBS[node.op]} {show(a)} and {show(b)}"
        if isinstance(node, ast.Compare) and len(values) == 2:
            a, b = values
            if node.op in ("in", "not in"):
                return f"cannot look for {show(a)} in {show(b)}: only a list, a zone or a map holds values"
            return f"cannot compare {show(a)} with {show(b)} using {node.op}"
        if isinstance(node, ast.Neg) and values:
            return f"cannot negate {show(values[0])}"
        if isinstance(node, ast.Index) and len(values) == 2:
            return _index_message(values[0], values[1], e, st)
        if isinstance(node, ast.Name):
            return (f"'{node.id}' has no value here: it is given one only on some paths "
                    f"before this line")
        if isinstance(node, ast.Call):
            args = ", ".join(show(v) for v in values)
            return f"{node.func}({args}) cannot be done: {in_words(e)}"
        return in_words(e)


def _index_message(container, key, e, st) -> str:
    if isinstance(container, Zone):
        container = st.zones.get(container, container)
    if isinstance(e, KeyError):
        return f"{_show(container, st)} has no key {_show(key, st)}"
    if isinstance(e, IndexError):
        return (f"{_show(container, st)} has no item {_show(key, st)}: it holds {len(container)} "
                f"(the first is [0])")
    return f"cannot look up {_show(key, st)} in {_show(container, st)}"


def _expressions(node):
    """The expressions a statement evaluates itself, in order (not those of the
    blocks nested in it); an expression is its own."""
    if not isinstance(node, (ast.Assign, ast.AugAssign, ast.CallStmt, ast.If, ast.While,
                             ast.For, ast.Secretly, ast.Return, ast.Signal, ast.ChooseOne,
                             ast.ChooseNumber, ast.ChooseSeveral, ast.Menu, ast.Turn,
                             ast.Auction)):
        return [node]
    if isinstance(node, ast.Menu):
        return [node.by] + [o.cond for o in node.options if o.cond is not None]
    out = []
    for slot in node.__slots__:
        value = getattr(node, slot)
        if slot in ("body", "orelse"):
            continue
        if slot == "target":    # what is stored into must exist: `p` of `p.coins = ...`
            if isinstance(value, (ast.Attr, ast.Index)):
                out.append(value.obj)
            if isinstance(value, ast.Index):
                out.append(value.key)
            continue
        out.extend(ast._children(value))
    if isinstance(node, ast.AugAssign):   # `x += v` reads x and adds v
        out.append(ast.Arith(node.line, node.col, node.target, node.op[0], node.value))
    return out


def _changes_state(node, st, deep=True) -> bool:
    """True when evaluating `node` again could change the game (draw, roll, ...):
    a call of an effect or a procedure in it (deep) or at its top (not deep)."""
    procedures = st.game.names.procedures
    for sub in ast.walk(node) if deep else (node,):
        if isinstance(sub, ast.Call) and (sub.func in EFFECTS or sub.func in procedures):
            return True
    return False


def _instruction_node(program, pc):
    if program is None or pc >= len(program.code):
        return None, None
    instr = program.code[pc]
    return getattr(instr, "node", None), getattr(instr, "mark", None)


# ------------------------------------------------------------ words for values
def show(value, st=None) -> str:
    """A value and its kind: `"two" (text)`, `3 (a number)`, `none`."""
    return _show(value, st)


def _show(value, st) -> str:
    names = st.game.player_names if st is not None else None
    if value is None:
        return "none"
    kind = kind_of(value, st)
    text = display(value, names)
    if isinstance(value, str) and kind == "text":
        text = f'"{value}"'
    return f"{text} ({kind})"


def kind_of(value, st=None) -> str:
    if isinstance(value, Seat):
        return "a player"
    if isinstance(value, Zone):
        return "a zone"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, str) and st is not None and value in st.game.cards:
        return "a card"
    return _KINDS.get(type(value).__name__, "a value")


# ------------------------------------------------- words for Python's faults
_TYPE = r"'(\w+)'"


def _kind_name(python_type: str) -> str:
    return _KINDS.get(python_type, "a value")


_TYPE_ERRORS = [
    (re.compile(rf"'(\S+)' not supported between instances of {_TYPE} and {_TYPE}"),
     lambda m: f"cannot compare {_kind_name(m[2])} with {_kind_name(m[3])} using {m[1]}"),
    (re.compile(rf"unsupported operand type\(s\) for (\S+): {_TYPE} and {_TYPE}"),
     lambda m: f"cannot {_VERBS.get(m[1].rstrip('='), 'combine')} {_kind_name(m[2])} and {_kind_name(m[3])}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'),
     lambda m: f"cannot add {_kind_name(m[1])} and {_kind_name(m[2])}"),
    (re.compile(rf"bad operand type for unary -: {_TYPE}"),
     lambda m: f"cannot negate {_kind_name(m[1])}"),
    (re.compile(rf"argument of type {_TYPE} is not iterable"),
     lambda m: f"cannot look for a value in {_kind_name(m[1])}: only a list, a zone or a map holds values"),
    (re.compile(rf"{_TYPE} object is not iterable"),
     lambda m: f"{_kind_name(m[1])} is not a list: there is nothing to go through"),
    (re.compile(rf"{_TYPE} object is not subscriptable"),
     lambda m: f"{_kind_name(m[1])} has no items to look up"),
    (re.compile(rf"object of type {_TYPE} has no len\(\)"),
     lambda m: f"{_kind_name(m[1])} has no count"),
    (re.compile(rf"unhashable type: {_TYPE}"),
     lambda m: f"{_kind_name(m[1])} cannot be a map key or be counted as one value"),
    (re.compile(rf"{_TYPE} object cannot be interpreted as an integer"),
     lambda m: f"{_kind_name(m[1])} where a whole number was needed"),
    (re.compile(r"(?:list|tuple) indices must be integers or slices, not (\w+)"),
     lambda m: f"a list's items are numbered: {_kind_name(m[1])} cannot pick one"),
]


def in_words(e: BaseException) -> str:
    """What went wrong, from the exception alone: no Python names or text."""
    if isinstance(e, RulespecError):
        return e.message
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, KeyError):
        key = e.args[0] if e.args else None
        return (f"{display(key)} has no value here: a local used before it was given one, "
                f"or a map without that key")
    if isinstance(e, IndexError):
        return "an item past the end of a list (or of an empty list) was asked for"
    if isinstance(e, TypeError):
        text = str(e)
        for pattern, words in _TYPE_ERRORS:
            m = pattern.search(text)
            if m:
                return words(m)
        return "a value of the wrong kind for what the rule does with it"
    if isinstance(e, RecursionError):
        return "functions or procedures call each other too deeply (one that calls itself without end?)"
    if isinstance(e, ValueError):
        if "not in list" in str(e):
            return "the value is not in the list"
        return "a value outside what this operation accepts"
    if isinstance(e, AttributeError):   # a map's operation on a value that is not one
        return "a value of the wrong kind for this operation"
    if isinstance(e, OverflowError):
        return "a number too large to work with"
    if isinstance(e, MemoryError):
        return "the rule needs more memory than there is (a list too long?)"
    return "the rule failed in a way the engine has no words for (please report this spec)"
