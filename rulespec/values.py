"""Start values and constants read as rules-language values.

A plain (unquoted) YAML word in a start value or a constant means what it
means in a rule: `none` is none, `true` is true, a declared symbol (a
`one_of` value, a board node, a card's name or kind, an entry of `symbols:`)
is that symbol, a constant's name is the constant's value, and an
expression of constants (`start_chips + 2`, `-penalty`, `[a, b]`, or one
derived from others: `flatten([[[w, a] for a in areas] for w in pawns])`) is
its value, computed once here, so a rule reads it as any other constant.
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
from .kinds import join, of_value
from .limits import Limits
from .loader import did_you_mean
from .scope import card_attributes

_SECTIONS = ("globals", "per_player", "per_card")


def resolve(spec, names) -> list[RulespecError]:
    """Read every start value, constant and card attribute as a rules value.

    spec: rulespec.loader.Spec (its data is changed in place); names: the
    rulespec.check.Names of the same data. Returns the errors found (an
    unknown word, an expression that is not of constants, a constant defined
    through itself); the values in error are left as written.
    """
    written = fractions(spec)   # as written: a constant of one would make others of more
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
    return written + reader.errors + mixed_attributes(spec)


def mixed_attributes(spec) -> list[RulespecError]:
    """An error at each card attribute written with another kind of value than the same
    attribute of the cards before it (`cost: e` among numbers): the checker knows an
    attribute by its name, so a rule adding `c.cost` validated, then failed at play at
    the rule, far from the card. None (a card without it) mixes with any kind."""
    found, first = [], {}     # attribute -> (its kind so far, the path that gave it)
    for path, attr, value in card_attributes(spec.data):
        if attr == "assumed":
            continue
        kind, known = of_value(value), first.get(attr)
        if known is None:
            first[attr] = (kind, path + (attr,))
        elif _vague(join(known[0], kind)) and not _vague(known[0]) and not _vague(kind):
            line = spec.mark(known[1])[0]
            found.append(spec.error(
                f"{attr} is {_phrase(value)} here ({value!r}), where the cards before "
                f"give {known[0].words(article=True)} (line {line}): a rule reading "
                f".{attr} could not tell which it has. A typo?", path + (attr,)))
        else:
            first[attr] = (join(known[0], kind), known[1])
    return found


def _vague(kind) -> bool:
    """Whether a kind holds "any value" anywhere (two kinds that do not join)."""
    return kind is not None and (kind.base == "any" or _vague(kind.item) or _vague(kind.key))


# where a fraction is meant: a wall-clock time; free notes about the game
_FRACTIONS_ALLOWED = (("limits", "seconds"), ("meta",))


def fractions(spec) -> list[RulespecError]:
    """An error at every fraction (a YAML float: `1.5`, `2.0`) among the values that
    enter the game. The rules language counts in whole numbers: a fraction in a
    constant, a start value, a card or a variant's change validated and then failed
    at play (`range` of 2.5, a draw of 1.5 cards), scored `2.0`, or was refused by
    the game's own save. Each is then replaced in `spec.data` by its nearest whole
    number, so that one mistake is one error, not one more in each rule reading it."""
    found = []

    def walk(container, key, path):
        value = container[key]
        if path[:2] in _FRACTIONS_ALLOWED or path[:1] in _FRACTIONS_ALLOWED:
            return
        if isinstance(value, float):
            whole = value.is_integer()
            advice = (f"write {int(value)}" if whole else
                      "count in smaller units instead (tenths: 15 for 1.5)")  # the grammar's words
            found.append(spec.error(f"{value:g} is a fraction: numbers in rules are whole numbers; "
                                    f"{advice}", path))
            container[key] = round(value)
        elif isinstance(value, (list, dict)):
            for inner in (range(len(value)) if isinstance(value, list) else list(value)):
                walk(value, inner, path + (inner,))
    for key in list(spec.data):
        walk(spec.data, key, (key,))
    return found


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
        size = Limits.of(spec.data).size    # a spec's own, once the schema has checked it
        self.walked, self.size = 0, size if isinstance(size, int) else Limits().size

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

    def fold(self, node, scope=None):
        """The value of an expression of constants: numbers, texts, lists, a name's
        value, + - * // %, comparisons, and/or/not, `x if c else y`, an item
        (`xs[i]`, `m[k]`), a comprehension over a list and `flatten`, so a
        constant may be derived from others (every pawn with every area) and a
        variant that changes one changes what is derived from it. `scope`: the
        comprehensions' variables (name -> value). Raises _Refused at the node
        that is not of constants, or where the items walked pass the size limit."""
        scope = scope or {}
        if isinstance(node, (ast.Number, ast.String, ast.Const)):
            return node.value
        if isinstance(node, ast.Name):
            return scope[node.id] if node.id in scope else self.name(node)
        if isinstance(node, ast.ListLit):
            return [self.fold(i, scope) for i in node.items]
        if isinstance(node, ast.Neg):
            return -self.number(node.operand, scope)
        if isinstance(node, ast.Arith):
            a, b = self.number(node.left, scope), self.number(node.right, scope)
            if node.op in ("//", "%") and b == 0:
                raise _Refused("division by zero", node.right)
            return {"+": a + b, "-": a - b, "*": a * b,
                    "//": a // b if b else 0, "%": a % b if b else 0}[node.op]
        folder = _FOLDERS.get(type(node))
        if folder is None:
            raise _Refused("a start value or constant can only be a value, a constant's name, "
                           "arithmetic on numbers or a comprehension of constants", node)
        return folder(self, node, scope)

    def fold_compare(self, node, scope):
        a, b = self.fold(node.left, scope), self.fold(node.right, scope)
        if node.op in ("in", "not in"):
            inside = a in (b if isinstance(b, dict) else self.items(b, node.right))
            return inside if node.op == "in" else not inside
        if node.op in ("==", "!="):
            return (a == b) == (node.op == "==")
        for value, side in ((a, node.left), (b, node.right)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise _Refused(f"{node.op} compares numbers; this is {_phrase(value)}", side)
        return _ORDER[node.op](a, b)

    def fold_logic(self, node, scope):
        if isinstance(node, ast.Not):
            return not self.truth(node.operand, scope)
        want = isinstance(node, ast.Or)   # and: the first false; or: the first true
        return next((want for item in node.items if self.truth(item, scope) == want), not want)

    def fold_if(self, node, scope):
        return self.fold(node.then if self.truth(node.cond, scope) else node.orelse, scope)

    def fold_index(self, node, scope):
        obj, key = self.fold(node.obj, scope), self.fold(node.key, scope)
        if isinstance(obj, dict) and key in obj:
            return obj[key]
        if isinstance(obj, list) and isinstance(key, int) and not isinstance(key, bool) \
                and -len(obj) <= key < len(obj):
            return obj[key]
        raise _Refused(f"no item {_phrase(key) if not isinstance(key, (int, str)) else key!r} "
                       f"in {_phrase(obj)}", node.key)

    def fold_comprehension(self, node, scope):
        out = []
        for item in self.items(self.fold(node.iter, scope), node.iter):
            inner = {**scope, node.var: item}
            if node.cond is None or self.truth(node.cond, inner):
                out.append(self.fold(node.elt, inner))
        return out

    def fold_call(self, node, scope):
        if node.func != "flatten" or len(node.args) != 1 or node.kwargs:
            raise _Refused("a constant calls no function but flatten(list of lists)", node)
        out = []
        for part in self.items(self.fold(node.args[0], scope), node.args[0]):
            out.extend(self.items(part, node.args[0]))
        return out

    def items(self, value, node) -> list:
        """`value`'s items to walk, counted against the size limit (constants are read
        before any game's limits: a spec's own `limits: {size}` or the default)."""
        if not isinstance(value, list):
            raise _Refused(f"expected a list here; this is {_phrase(value)}", node)
        self.walk(len(value), node)
        return value

    def walk(self, count, node) -> None:
        self.walked += count
        if self.walked > self.size:
            raise _Refused(f"constants walk over {self.size:,} list items (limits: size)", node)

    def truth(self, node, scope) -> bool:
        value = self.fold(node, scope)
        if not isinstance(value, bool):
            raise _Refused(f"expected true or false; this is {_phrase(value)}", node)
        return value

    def number(self, node, scope=None):
        value = self.fold(node, scope)
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
    return "a number" if isinstance(value, (int, float)) else "a text"


_ORDER = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
          ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_FOLDERS = {ast.Compare: _Reader.fold_compare, ast.Not: _Reader.fold_logic,
            ast.And: _Reader.fold_logic, ast.Or: _Reader.fold_logic, ast.IfExp: _Reader.fold_if,
            ast.Index: _Reader.fold_index, ast.Comprehension: _Reader.fold_comprehension,
            ast.Call: _Reader.fold_call}


class _Refused(Exception):
    def __init__(self, message, node):
        super().__init__(message)
        self.node = node


class _Circle(Exception):
    pass
