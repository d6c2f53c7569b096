"""Start values and constants read as rules-language values.

A plain (unquoted) YAML word in a start value or a constant means what it
means in a rule: `none` is none, `true` is true, a declared symbol (a
`one_of` value, a board node, a card's name or kind, an entry of `symbols:`)
is that symbol, a constant's name is the constant's value, and a simple
expression of constants (`start_chips + 2`, `-penalty`, `[a, b]`) is its value.
A bare word that names nothing is an error with a did-you-mean; quoted text
("two") stays text. Card attributes are free labels, so only their `none`
is read (as none).

`resolve(spec, names)` rewrites `spec.data` in place, so the engine sees the
same values the checker does; the source of every value is unchanged.
"""
from __future__ import annotations

from . import ast
from .dsl import parse_expression
from .errors import RulespecError
from .loader import did_you_mean

_SECTIONS = ("globals", "per_player", "per_card")


def resolve(spec, names) -> list[RulespecError]:
    """Read every start value, constant and card attribute as a rules value.

    spec: rulespec.loader.Spec (its data is changed in place); names: the
    rulespec.check.Names of the same data. Returns the errors found (an
    unknown word, an expression that is not of constants, a constant defined
    through itself); the values in error are left as written.
    """
    reader = _Reader(spec, names)
    for name in list(names.constants):
        reader.constant(name)
    for section in _SECTIONS:
        for name, decl in (spec.data.get(section) or {}).items():
            if isinstance(decl, dict) and "start" in decl:
                decl["start"] = reader.value(decl["start"], (section, name, "start"))
            elif not isinstance(decl, dict):
                spec.data[section][name] = reader.value(decl, (section, name))
    for decl in (spec.data.get("cards") or {}).values():
        _read_card_nones(decl)
    return reader.errors


def _read_card_nones(decl) -> None:
    if not isinstance(decl, dict):
        return
    rows = [decl.get("attrs")] + list(decl.get("list") or [])
    for row in rows:
        if isinstance(row, dict):
            for key, value in row.items():
                if value == "none" and key != "name":
                    row[key] = None


class _Reader:
    def __init__(self, spec, names):
        self.spec, self.names, self.errors = spec, names, []
        self.constants = spec.data.get("constants") or {}
        self.done: set = set()
        self.reading: list = []     # constants being read, to find a circle

    def constant(self, name):
        """The value of constant `name`, read once."""
        if name not in self.done:
            if name in self.reading:
                circle = " -> ".join(self.reading[self.reading.index(name):] + [name])
                raise _Circle(f"constant '{name}' is defined through itself ({circle})")
            self.reading.append(name)
            try:
                self.constants[name] = self.value(self.constants[name], ("constants", name))
            finally:
                self.reading.pop()
            self.done.add(name)
            self.names.constants[name] = self.constants[name]
        return self.constants[name]

    def value(self, value, path):
        """`value` with every plain word read; lists and map values recursively."""
        if isinstance(value, list):
            return [self.value(v, path + (i,)) for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {k: self.value(v, path + (k,)) for k, v in value.items()}
        info = self.spec.scalars.get(tuple(path))
        if not isinstance(value, str) or info is None or info.style:
            return value    # a number, true/false, null, or quoted text
        try:
            return self.word(value, path)
        except _Circle as e:
            self.errors.append(self.spec.error(str(e), path))
        except _Refused as e:
            self.errors.append(self.at(path, e.node, str(e)))
        except RulespecError as e:
            e = e.moved(lambda line, col: self.spec.text_position(path, line, col))
            err = self.spec.error(f"{e.message}; quote it if it is text", path)
            err.line, err.col = e.line, e.col
            self.errors.append(err)
        return value

    def at(self, path, node, message):
        err = self.spec.error(message, path)
        line, col = (node.line, node.col) if node is not None else (1, 1)
        err.line, err.col = self.spec.text_position(path, line, col)
        return err

    def word(self, text, path):
        if text.isidentifier():    # the usual case, and names that are keywords
            if text == "none":
                return None
            return self.name(ast.Name(1, 1, text))
        return self.fold(parse_expression(text))

    def name(self, node):
        n, names = node.id, self.names
        if n in self.constants:
            return self.constant(n)
        if (n in names.symbols or n in names.card_names or n in names.card_kinds
                or n in names.boards or n in names.zones):
            return n
        known = (set(self.constants) | names.symbols | names.card_names | names.card_kinds
                 | set(names.boards) | set(names.zones))
        raise _Refused(f"unknown word '{n}'{did_you_mean(n, known)}: a start value or constant "
                       f"names a symbol, a constant or none; quote it if it is text", node)

    def fold(self, node):
        """The value of an expression of constants (numbers, lists, + - * // %)."""
        if isinstance(node, (ast.Number, ast.String, ast.Const)):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.ListLit):
            return [self.fold(i) for i in node.items]
        if isinstance(node, ast.Neg):
            return -self.number(node.operand)
        if isinstance(node, ast.Arith):
            a, b = self.number(node.left), self.number(node.right)
            if node.op in ("//", "%") and b == 0:
                raise _Refused("division by zero", node.right)
            return {"+": a + b, "-": a - b, "*": a * b,
                    "//": a // b if b else 0, "%": a % b if b else 0}[node.op]
        raise _Refused("a start value or constant can only be a value, a constant's name "
                       "or arithmetic on numbers", node)

    def number(self, node):
        value = self.fold(node)
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Refused(f"arithmetic needs numbers; this is {_phrase(value)}", node)
        return value


def _phrase(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a map"
    return "a text"


class _Refused(Exception):
    def __init__(self, message, node):
        super().__init__(message)
        self.node = node


class _Circle(Exception):
    pass
