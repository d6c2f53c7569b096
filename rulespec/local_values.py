"""What values a rule can put in each of its locals: a shape of value, finer than its
kind (rulespec/kinds.py), for the check of a saved game's frames.

A save holds the locals of every rule still running (interpreter/engine/save_checks.py).
Their kinds are checked, but a kind says little where a rule builds its own values:
a list the rule fills with `append(rows, [board, dq, dr])` is "a list of lists",
though every row it makes is three items, a board and two numbers; a countdown is
"a number", though the rule stores only -1, the player count or one less than
before. Each local (and loop variable) of a rule gets the union, over every
statement of the rule that stores into it, of what that store's expression can give:

    Num(low, high)   a whole number from low to high (None: as far as the integer bound)
    Words(values)    one of these texts, true/false or none, as the rule writes them
    Kinded(kind)     any value of a kind (a rulespec.kinds.Kind; None: anything)
    Row(items)       a list of exactly len(items) items, each of its own shape
    ListOf(item)     a list of any length, every item of one shape
    OneOf(shapes)    any of a few shapes of different forms

An expression it does not follow gives the kind the kind table gives it, and a
parameter anything, so a shape never refuses a value the rules can make: it allows
what the kind allows, or less (the local's kind is checked besides). A local stored
from itself (`i += 1`) is found by going over the rule's stores again until nothing
changes; a number still growing after a few rounds goes to the integer bound on
that side, and any other shape still changing gives way to anything.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ast
from .kinds import Kind, _item, join as kind_join
from .scope import assigned_names

ROW_ITEMS = 16      # a list written out with more items is a ListOf
MAX_DEPTH = 4       # shapes nested deeper give way to anything
MAX_FORMS = 4       # a OneOf of more gives way to anything
WIDEN_AFTER = 3     # rounds over a rule's stores before a growing number is widened
MAX_ROUNDS = 12     # rounds before a shape still changing gives way to anything


@dataclass(frozen=True)
class Num:
    low: int | None
    high: int | None


@dataclass(frozen=True)
class Words:
    values: frozenset     # of (class, value): True is not 1


@dataclass(frozen=True)
class Kinded:
    kind: Kind | None


@dataclass(frozen=True)
class Row:
    items: tuple


@dataclass(frozen=True)
class ListOf:
    item: object


@dataclass(frozen=True)
class OneOf:
    shapes: tuple


ANYTHING = Kinded(None)
NOTHING = OneOf(())     # no value at all: the items of an empty list, a local not yet stored


def local_values(rules, names, kinds, players: tuple, limits) -> dict:
    """{(rule path, local name): shape} for every local that some statement of its
    rule stores into (parameters are not: their values come from elsewhere).
    rules: rulespec.check.Rule list (statement rules are read); names: its Names;
    kinds: its KindTable; players: (min, max) seats; limits: rulespec.limits.Limits."""
    found = {}
    for rule in rules:
        if rule.kind == "statements" and rule.tree is not None:
            reader = _Rule(rule, names, kinds, players, limits)
            for name, shape in reader.settle().items():
                found[(tuple(rule.path), name)] = shape
    return found


def words(shape) -> str:
    """A shape in words: 'a number from 0 to 5', '[a board, a number, 3]'."""
    if isinstance(shape, Num):
        return _number_words(shape)
    if isinstance(shape, Words):
        return " or ".join(sorted(_word(v) for _, v in shape.values))
    if isinstance(shape, Kinded):
        return shape.kind.words(article=True) if shape.kind is not None else "a value"
    if isinstance(shape, Row):
        return "[" + ", ".join(words(item) for item in shape.items) + "]"
    if isinstance(shape, ListOf):
        return f"a list, each item {words(shape.item)}"
    return " or ".join(words(s) for s in shape.shapes) if shape.shapes else "no value"


def _number_words(shape: Num) -> str:
    low, high = shape.low, shape.high
    if low is not None and low == high:
        return f"{low:,}"
    if low is None:
        return "a number" if high is None else f"a number up to {high:,}"
    return f"a number from {low:,}" + (" up" if high is None else f" to {high:,}")


def _word(value) -> str:
    if value is None:
        return "none"
    if value is True or value is False:
        return str(value).lower()
    return f'"{value}"'


# ------------------------------------------------------------------ joining shapes
def join(a, b, depth=0):
    """The least shape (of these) that both a and b fit."""
    if a == b or b == NOTHING:
        return a
    if a == NOTHING:
        return b
    if a == ANYTHING or b == ANYTHING or depth > MAX_DEPTH:
        return ANYTHING
    forms = list(a.shapes) if isinstance(a, OneOf) else [a]
    for shape in b.shapes if isinstance(b, OneOf) else [b]:
        forms = _add(forms, shape, depth)
    if len(forms) > MAX_FORMS:
        return ANYTHING
    return forms[0] if len(forms) == 1 else OneOf(tuple(forms))


def _add(forms: list, shape, depth) -> list:
    """`forms` with `shape` merged into the one of its form, or added."""
    for i, form in enumerate(forms):
        merged = _merge(form, shape, depth)
        if merged is not None:
            return forms[:i] + [merged] + forms[i + 1:]
    return forms + [shape]


def _merge(a, b, depth):
    """One shape for two of one form, or None for two of different forms."""
    if a == b:
        return a
    if isinstance(a, Num) and isinstance(b, Num):
        return Num(None if None in (a.low, b.low) else min(a.low, b.low),
                   None if None in (a.high, b.high) else max(a.high, b.high))
    if isinstance(a, Words) and isinstance(b, Words):
        return Words(a.values | b.values)
    if isinstance(a, Kinded) and isinstance(b, Kinded):
        kind = kind_join(a.kind, b.kind)
        return Kinded(kind) if kind.base not in ("any", "nothing") else None
    for kinded, said in ((a, b), (b, a)):
        if not isinstance(kinded, Kinded) or kinded.kind is None:
            continue
        if isinstance(said, Words) and _holds(kinded.kind, said):
            return kinded
        if isinstance(said, Num) and kinded.kind.base == "number":
            return kinded   # any whole number is a number
    if isinstance(a, Row) and isinstance(b, Row):
        if len(a.items) != len(b.items):
            return None
        return Row(tuple(join(x, y, depth + 1) for x, y in zip(a.items, b.items)))
    if isinstance(a, (Row, ListOf)) and isinstance(b, (Row, ListOf)):
        return ListOf(join(items(a), items(b), depth + 1))
    if _any_list(a) and isinstance(b, (Row, ListOf)) or _any_list(b) and isinstance(a, (Row, ListOf)):
        return ListOf(join(items(a), items(b), depth + 1))   # a list of its kind is a ListOf
    return None


def _holds(kind, said: Words) -> bool:
    """Whether every value of `said` is of `kind` for certain (a text of any text, true
    or false of a bool, none where it may be none)."""
    family = {"text": str, "bool": bool}.get(kind.base)
    return all(cls is family or value is None and kind.none for cls, value in said.values)


def _any_list(shape) -> bool:
    """Whether `shape` is any list of a kind (never none)."""
    return isinstance(shape, Kinded) and shape.kind is not None and shape.kind.base == "list" \
        and not shape.kind.none


def _arith_span(op, a, b) -> tuple:
    """(low, high) of `x op y` for x in a, y in b (each (low, high), None for a side
    with no bound), as Python's ints give it; None where it cannot say."""
    def sum_(x, y):
        return None if x is None or y is None else x + y

    def negated(x):
        return None if x is None else -x
    if op == "+":
        return sum_(a[0], b[0]), sum_(a[1], b[1])
    if op == "-":
        return sum_(a[0], negated(b[1])), sum_(a[1], negated(b[0]))
    if None in a or None in b:
        if op == "%" and b[0] is not None and b[0] > 0:     # Python's: the divisor's sign
            return 0, None if b[1] is None else b[1] - 1
        if op == "%" and b[1] is not None and b[1] < 0:
            return None if b[0] is None else b[0] + 1, 0
        return None, None
    if op == "*" or op == "//" and (b[0] > 0 or b[1] < 0):     # monotone in each, away from 0
        corners = [x * y if op == "*" else x // y for x in a for y in b]
        return min(corners), max(corners)
    if op == "%" and b[0] > 0:
        return 0, b[1] - 1
    if op == "%" and b[1] < 0:
        return b[0] + 1, 0
    return None, None


def _extreme(f, nums) -> Num:
    """min(...) or max(...) of numbers of these Nums."""
    lows, highs = [n.low for n in nums], [n.high for n in nums]
    if f == "min":
        return Num(None if None in lows else min(lows), None if all(h is None for h in highs)
                   else min(h for h in highs if h is not None))
    return Num(None if all(x is None for x in lows) else max(x for x in lows if x is not None),
               None if None in highs else max(highs))


def items(shape):
    """The shape of the items of a list (or of what walking a zone or map gives)."""
    if isinstance(shape, Row):
        out = NOTHING
        for item in shape.items:
            out = join(out, item)
        return out
    if isinstance(shape, ListOf):
        return shape.item
    if isinstance(shape, OneOf):
        out = NOTHING
        for s in shape.shapes:
            out = join(out, items(s))
        return out
    if isinstance(shape, Kinded) and shape.kind is not None:
        return Kinded(_item(shape.kind))
    return ANYTHING


def _widen(old, new):
    """`new` (which holds `old`), where it grew from `old`, taken to what it can grow
    to: a number's growing side to the integer bound, any other growing shape to
    anything."""
    if old == new or old == NOTHING:
        return new
    if isinstance(old, Num) and isinstance(new, Num):
        return Num(new.low if new.low == old.low else None, new.high if new.high == old.high else None)
    if isinstance(old, Row) and isinstance(new, Row) and len(old.items) == len(new.items):
        return Row(tuple(_widen(a, b) for a, b in zip(old.items, new.items)))
    if isinstance(old, ListOf) and isinstance(new, ListOf):
        return ListOf(_widen(old.item, new.item))
    if isinstance(old, OneOf) and isinstance(new, OneOf) and len(old.shapes) == len(new.shapes) \
            and all(_merge(a, b, 0) is not None for a, b in zip(old.shapes, new.shapes)):
        return OneOf(tuple(_widen(a, b) for a, b in zip(old.shapes, new.shapes)))
    if isinstance(old, Words) and isinstance(new, Words):
        return new      # texts the rule writes: finitely many
    return ANYTHING


# ------------------------------------------------------------------ one rule
class _Rule:
    """The stores of one rule's statements and what each can give."""

    def __init__(self, rule, names, kinds, players, limits):
        self.names, self.kinds = names, kinds
        self.params = set(rule.scope)
        self.locals = assigned_names(rule.tree, names) - self.params
        self.players = players
        self.top = limits.integer_bound - 1    # the largest whole number a rule can make
        self.most = max(limits.size, limits.cards)   # items of any list, cards of any zone
        self.stores: list = []      # (local, node, how): what the rule stores where
        self.shapes: dict = {}
        self._statements(rule.tree.body)

    def settle(self) -> dict:
        """{local: shape} once going over the stores again changes nothing."""
        stored = {name for name, _, _ in self.stores}
        self.shapes = {name: NOTHING for name in stored}
        for turn in range(MAX_ROUNDS):
            new = {name: NOTHING for name in stored}
            for name, node, how in self.stores:
                new[name] = join(new[name], how(node))
            if turn >= WIDEN_AFTER:     # (joined first: a shape never shrinks, so this ends)
                new = {name: _widen(self.shapes[name], join(self.shapes[name], shape))
                       for name, shape in new.items()}
            if new == self.shapes:
                return new
            self.shapes = new
        return {name: ANYTHING for name in stored}

    # statements: one method per statement that stores into a local or holds others
    def _statements(self, stmts):
        for stmt in stmts:
            getattr(self, "_" + stmt.rule, self._other)(stmt)

    def _other(self, stmt):
        pass    # a call, signal, phase, return, end or pass: no local changes

    def _block(self, stmt):
        self._statements(stmt.body)

    def _store(self, target, node, how):
        """A store into `target`: a local's own, or (an item of it) anything."""
        if isinstance(target, ast.Name) and target.id in self.locals:
            self.stores.append((target.id, node, how))
            return
        while isinstance(target, ast.Index):     # `xs[i] = v`: xs's items change
            target = target.obj
        if isinstance(target, ast.Name) and target.id in self.locals:
            self.stores.append((target.id, None, lambda node: ANYTHING))

    def _assign(self, stmt):
        value = stmt.value
        if isinstance(value, ast.Call) and value.func in self.names.procedures:
            self._store(stmt.target, value, lambda node: ANYTHING)   # what it returns
        else:
            self._store(stmt.target, value, self.shape)

    def _aug_assign(self, stmt):
        self._store(stmt.target, stmt, lambda node: self._arith(node.target, node.op[0], node.value,
                                                                  self.kinds.of(node.target)))

    def _choose_one(self, stmt):
        self._store(stmt.target, stmt.options, lambda node: items(self.shape(node)))

    def _choose_number(self, stmt):
        self._store(stmt.target, stmt, lambda node: self._choice(self.ints(node.low), self.ints(node.high)))

    def _choice(self, low, high):
        return NOTHING if low is None or high is None else self._span(low[0], high[1])

    def _choose_several(self, stmt):
        self._store(stmt.target, stmt.options, lambda node: ListOf(items(self.shape(node))))

    def _auction(self, stmt):
        self._store(stmt.target, stmt, lambda node: ANYTHING)

    def _for_stmt(self, stmt):
        self._store(ast.Name(stmt.line, stmt.col, stmt.var), stmt.iter, lambda node: items(self.shape(node)))
        self._statements(stmt.body)

    _secretly = _for_stmt

    def _if_stmt(self, stmt):
        self._statements(stmt.body)
        self._statements(stmt.orelse)

    def _while_stmt(self, stmt):
        self._statements(stmt.body)

    def _menu(self, stmt):
        for option in stmt.options:
            self._statements(option.body)

    def _turn(self, stmt):
        self._statements(stmt.orelse)

    # expressions --------------------------------------------------------------
    def shape(self, node, bound=None, depth=0):
        """What expression `node` can give. bound: {comprehension variable: shape}."""
        bound = bound or {}
        if depth > 50:
            return self._kinded(node)
        method = getattr(self, "_e_" + node.rule, None)
        return method(node, bound, depth + 1) if method is not None else self._kinded(node)

    def _kinded(self, node):
        """What the kind table says `node` gives. A number of its kind may be a player
        (an int too): only what surely gives a plain int is a Num."""
        kind = self.kinds.of(node)
        return Kinded(kind) if kind is not None and kind.base not in ("any", "nothing") else ANYTHING

    def _span(self, low, high):
        """Num(low, high), a side past the integer bound (or None) left open: no rule
        makes a number past it (it is an error there)."""
        return Num(low if low is not None and low > -self.top else None,
                   high if high is not None and high < self.top else None)

    def ints(self, node, bound=None, depth=0):
        """(low, high): the whole numbers `node` can give, a side None where it has no
        bound; None where it gives no value at all (a local not yet stored)."""
        shape = self.shape(node, bound, depth)
        if shape == NOTHING:
            return None
        return (shape.low, shape.high) if isinstance(shape, Num) else (None, None)

    def _e_number(self, node, bound, depth):
        return self._span(node.value, node.value)

    def _e_string(self, node, bound, depth):
        return Words(frozenset({(str, node.value)}))

    def _e_const(self, node, bound, depth):
        return Words(frozenset({(node.value.__class__, node.value)}))

    def _e_name(self, node, bound, depth):
        n = node.id
        if n in bound:
            return bound[n]
        if n in self.params:
            return ANYTHING
        if n in self.locals:
            return self.shapes.get(n, ANYTHING)
        what, payload = self.names.resolve(n, ())
        if what == "constant":
            return self._value(payload, 0) or self._kinded(node)
        if what in ("symbol", "board"):
            return Words(frozenset({(str, n)}))
        if what == "nplayers":
            return self._span(*self.players)
        return self._kinded(node)

    def _value(self, value, depth):
        """The shape of a constant's value, or None where its kind says as much."""
        if value.__class__ is int:
            return self._span(value, value)
        if value.__class__ in (str, bool) or value is None:
            return Words(frozenset({(value.__class__, value)}))
        if value.__class__ is list and depth < MAX_DEPTH:
            shapes = [self._value(v, depth + 1) or ANYTHING for v in value]
            if len(shapes) <= ROW_ITEMS:
                return Row(tuple(shapes))
            out = NOTHING
            for s in shapes:
                out = join(out, s)
            return ListOf(out)
        return None

    def _e_neg(self, node, bound, depth):
        kind = self.kinds.of(node)
        if kind is None or kind.base != "number":
            return self._kinded(node)
        n = self.ints(node.operand, bound, depth)
        return NOTHING if n is None else self._span(*_arith_span("-", (0, 0), n))

    def _e_arith(self, node, bound, depth):
        return self._arith(node.left, node.op, node.right, self.kinds.of(node), bound, depth)

    def _arith(self, left, op, right, kind, bound=None, depth=0):
        """`left op right` of a result of `kind`: numbers as Python's ints give them
        (a result past the integer bound is an error, never a value), lists joined."""
        if kind is not None and kind.base == "list" and op == "+":
            return ListOf(join(items(self.shape(left, bound, depth)), items(self.shape(right, bound, depth))))
        if kind is None or kind.base != "number" or kind.none:
            return Kinded(kind) if kind is not None and kind.base not in ("any", "nothing") else ANYTHING
        # numbers (players too) give a plain int, or an error
        a, b = self.ints(left, bound, depth), self.ints(right, bound, depth)
        if a is None or b is None:
            return NOTHING
        return self._span(*_arith_span(op, a, b))

    def _e_list_(self, node, bound, depth):
        shapes = [self.shape(item, bound, depth) for item in node.items]
        if len(shapes) <= ROW_ITEMS:
            return Row(tuple(shapes))
        return ListOf(items(Row(tuple(shapes))))

    def _e_comprehension(self, node, bound, depth):
        inner = {**bound, node.var: items(self.shape(node.iter, bound, depth))}
        return ListOf(self.shape(node.elt, inner, depth))

    def _e_if_exp(self, node, bound, depth):
        return join(self.shape(node.then, bound, depth), self.shape(node.orelse, bound, depth))

    def _e_index(self, node, bound, depth):
        kind = self.kinds.of(node.obj)
        if kind is None or kind.base != "list":
            return self._kinded(node)   # a map's value, a zone's card: as its kind says
        shape = self.shape(node.obj, bound, depth)
        at = node.key.value if isinstance(node.key, ast.Number) else None
        if isinstance(shape, Row) and at is not None and -len(shape.items) <= at < len(shape.items):
            return shape.items[at]
        return items(shape)

    def _e_call(self, node, bound, depth):
        f, args = node.func, node.args
        if f in self.names.functions or f in self.names.procedures or node.kwargs:
            return self._kinded(node)
        if f in ("count", "occurrences"):
            return self._span(0, self.most)
        if f == "roll" and args:
            n = self.ints(args[0], bound, depth)
            return NOTHING if n is None else self._span(1, None if n[1] is None else max(1, n[1]))
        if f in ("min", "max") and len(args) > 1:
            nums = [self.shape(a, bound, depth) for a in args]
            if all(isinstance(n, Num) for n in nums):   # (a player among them gives itself)
                return _extreme(f, nums)
            return self._kinded(node)
        if f == "range" and args:
            low = (0, 0) if len(args) == 1 else self.ints(args[0], bound, depth)
            high = self.ints(args[-1], bound, depth)
            if low is None or high is None:
                return ListOf(NOTHING)
            return ListOf(self._span(low[0], None if high[1] is None else high[1] - 1))
        if f == "append" and len(args) == 2:
            return ListOf(join(items(self.shape(args[0], bound, depth)), self.shape(args[1], bound, depth)))
        if f in ("remove", "reverse", "unique", "sort", "rotate") and args and self._a_list(args[0]):
            return ListOf(items(self.shape(args[0], bound, depth)))
        if f == "random_of" and args and self._a_list(args[0]):
            return items(self.shape(args[0], bound, depth))
        return self._kinded(node)

    def _a_list(self, node) -> bool:
        """Whether `node` is surely a list (not a zone, whose items its kind says)."""
        kind = self.kinds.of(node)
        return kind is not None and kind.base == "list" and not kind.none
