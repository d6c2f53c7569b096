"""The kinds of value an expression can have, where the spec alone tells.

`validate` uses them to refuse what can only fail when played: `count(5)`,
`shuffle(3)`, `range([1, 2])`, `2 + [c]`, `x in 4`. A kind is known only where
it is certain (literals, operators, zones, constants, the builtins' results);
everything else (variables, attributes, spec functions) is unknown and never
refused, so a valid spec is never refused either.
"""
from __future__ import annotations

from . import ast

NUMBER, BOOL, TEXT, NONE, LIST, ZONE, MAP = "number", "bool", "text", "none", "list", "zone", "map"

_PHRASE = {NUMBER: "a number", BOOL: "true or false", TEXT: "a text", NONE: "none",
           LIST: "a list", ZONE: "a zone", MAP: "a map"}

# What a builtin's arguments must be, by position (None: anything). A zone may
# also be named by a text, since zones are looked up by their name.
_ITEMS = frozenset({LIST, ZONE, MAP})
_ZONE = frozenset({ZONE, TEXT})
_NUMBER = frozenset({NUMBER})
_MAP = frozenset({MAP})
ARGUMENTS = {
    **{f: (_ITEMS,) for f in ("count", "sum", "all", "any", "sort", "first", "last", "reverse",
                              "unique", "flatten", "random_of")},
    **{f: (_ITEMS, None) for f in ("append", "remove", "index_of", "rotate", "occurrences")},
    "range": (_NUMBER, _NUMBER), "abs": (_NUMBER,), "roll": (_NUMBER,),
    "next_player": (None, _NUMBER), "previous_player": (None, _NUMBER),
    "cards": (_ZONE,), "top": (_ZONE,), "shuffle": (_ZONE,),
    "has": (_ZONE, None), "find": (_ZONE, None),
    "draw": (_ZONE, _ZONE, _NUMBER), "move": (None, _ZONE), "move_bottom": (None, _ZONE),
    "keys": (_MAP,), "get": (_MAP, None, None), "with_key": (_MAP, None, None),
}

RESULTS = {
    **dict.fromkeys(("count", "sum", "abs", "roll", "occurrences"), NUMBER),
    **dict.fromkeys(("all", "any", "has", "connected"), BOOL),
    **dict.fromkeys(("sort", "reverse", "unique", "flatten", "range", "append", "remove", "rotate",
                     "cards", "others", "clockwise_from", "named", "nodes", "successors",
                     "neighbours", "colour_zone", "colour_zones", "keys", "draw"), LIST),
    "text": TEXT, "with_key": MAP, "where": ZONE,
}


def kind_of(node, names, scope) -> str | None:
    """The kind `node` always has, or None when it depends on the game."""
    rule = node.rule
    if rule == "number":
        return NUMBER
    if rule == "string":
        return TEXT
    if rule == "const":
        return NONE if node.value is None else BOOL
    if rule in ("list_", "comprehension"):
        return LIST
    if rule in ("not_", "and_", "or_", "compare"):
        return BOOL
    if rule == "neg":
        return NUMBER if kind_of(node.operand, names, scope) == NUMBER else None
    if rule == "arith":
        left, right = kind_of(node.left, names, scope), kind_of(node.right, names, scope)
        return left if left == right and (left == NUMBER or node.op == "+") else None
    if rule == "if_exp":
        then = kind_of(node.then, names, scope)
        return then if then == kind_of(node.orelse, names, scope) else None
    if rule == "call" and node.func not in names.functions:
        return RESULTS.get(node.func)
    if rule == "name":
        return _name_kind(node.id, names, scope)
    return None


def _name_kind(name, names, scope):
    kind, payload = names.resolve(name, scope)
    if kind == "zone":
        return ZONE
    if kind == "players":
        return LIST
    if kind == "nplayers":
        return NUMBER
    if kind == "constant":
        for python_type, k in ((bool, BOOL), (int, NUMBER), (list, LIST), (dict, MAP)):
            if isinstance(payload, python_type):
                return k
    return None


def argument_errors(call, names, scope):
    """(argument node, message) for each argument of a builtin call of the wrong kind."""
    wanted = ARGUMENTS.get(call.func)
    if wanted is None or call.func in names.functions:
        return []
    errors = []
    for i, (arg, accepted) in enumerate(zip(call.args, wanted)):
        kind = kind_of(arg, names, scope)
        if accepted is not None and kind is not None and kind not in accepted:
            which = "its argument" if len(call.args) == 1 else f"its {_ORDINAL[i]} argument"
            need = _phrase_of(accepted - {TEXT} if accepted == _ZONE else accepted)
            errors.append((arg, f"{call.func}() needs {need} as {which}, not {_PHRASE[kind]}"))
    return errors


def operator_error(node, names, scope) -> str | None:
    """Why an arithmetic or `in` can only fail, or None."""
    if node.rule == "arith":
        left, right = kind_of(node.left, names, scope), kind_of(node.right, names, scope)
        if left is None or right is None or left == right == NUMBER:
            return None
        if node.op == "+" and left == right and left in (LIST, TEXT):
            return None
        return f"cannot use '{node.op}' on {_PHRASE[left]} and {_PHRASE[right]}"
    if node.rule == "compare" and node.op in ("in", "not in"):
        right = kind_of(node.right, names, scope)
        if right in (NUMBER, BOOL, NONE):
            return f"'{node.op}' needs a list, a zone or a map on its right, not {_PHRASE[right]}"
    return None


_ORDINAL = ["1st", "2nd", "3rd", "4th"]


def _phrase_of(kinds) -> str:
    order = [LIST, ZONE, MAP, NUMBER, TEXT, BOOL, NONE]
    words = [_PHRASE[k] for k in order if k in kinds]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
