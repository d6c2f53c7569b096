"""Kinds of value: what every name, attribute and expression of a spec holds.

A kind is a number, true or false (bool), a text (a symbol), a player (seat),
a card, a zone, a board, a cell (a board's node), a list of K, a map of K to V,
or any of those "or none". `infer` gives one to every state variable,
constant, card attribute, spec function result and parameter, procedure
parameter and return, signal parameter, local and loop variable, from:

1. declarations: an optional `type:` ("list of cards", "card or none"), else
   the start value (`3` a number, `[]` a list of something, `none` something
   or none), `one_of` (texts or numbers) and `min`/`max` (a number);
2. use: what is stored into a variable, passed to a parameter, returned or
   bound by a loop. Inference runs over all rules until nothing changes.

Where the spec cannot decide (a value stored with two kinds, a parameter
passed a number here and a text there), the kind is unknown and nothing
about it is refused: a valid spec is never refused, and what is refused is
certain to fail (or to mean something else) at play.

Then every operator, comparison, builtin argument, assignment, index,
attribute, condition and scoring expression is checked; a message names
both kinds and where each came from: `cannot add a list of cards and a
number (player.hand: a list of cards, declared at 12:3)`.

Public API (the language server shows these kinds; the compiler may
specialise on them):

    checked = rulespec.validate(path)
    checked.kinds.of(node)                 # Kind of an AST node of checked.rules, or None
    checked.kinds.kind_of("coins")         # a state variable, constant or card attribute
    checked.kinds.kind_of("x", rule=path)  # a local of one rule (path as in Rule.path)
    str(kind)                              # "a list of cards", "a card or none"

`BUILTINS` below declares the argument and result kinds of every builtin
of rulespec/builtins.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ast
from .builtins import SIGNATURES


# ------------------------------------------------------------------------- kinds
@dataclass(frozen=True)
class Kind:
    """One kind of value. base: number, bool, text, seat, card, zone, board, cell,
    list, map, none (only none), any (unknown: never refused) or nothing (the
    items of an empty list: fits anything, learns from use). item: a list's
    items or a map's values; key: a map's keys; none: it may be none."""
    base: str
    item: Kind | None = None
    key: Kind | None = None
    none: bool = False

    def __str__(self) -> str:
        return self.words(article=True)

    def words(self, article=False) -> str:
        """'a list of cards' (article) or 'list of cards'."""
        text = _SINGULAR[self.base] if self.base not in ("list", "map") else self._container()
        if article and self.base not in ("none", "bool", "any", "nothing"):
            text = ("an " if text[0] in "aeiou" else "a ") + text
        if self.none and self.base not in ("none", "any", "nothing"):
            text += " or none"
        return text

    def plural(self) -> str:
        if self.base in ("list", "map"):
            return self._container().replace("list", "lists", 1).replace("map", "maps", 1)
        return _PLURAL[self.base] + (" or none" if self.none and self.base != "none" else "")

    def _container(self) -> str:
        if self.base == "list":
            return "list" if _vague(self.item) else f"list of {self.item.plural()}"
        if _vague(self.item) and _vague(self.key):
            return "map"
        return f"map of {_plural_or_values(self.key)} to {_plural_or_values(self.item)}"


_SINGULAR = {"number": "number", "bool": "true or false", "text": "text", "seat": "player",
             "card": "card", "zone": "zone", "board": "board", "cell": "cell", "none": "none",
             "any": "a value", "nothing": "a value"}
_PLURAL = {"number": "numbers", "bool": "true/false values", "text": "texts", "seat": "players",
           "card": "cards", "zone": "zones", "board": "boards", "cell": "cells", "none": "nones",
           "any": "values", "nothing": "values"}


def _vague(kind) -> bool:
    return kind is None or kind.base in ("any", "nothing")


def _plural_or_values(kind) -> str:
    return "values" if _vague(kind) else kind.plural()


ANY, NOTHING, NONE = Kind("any"), Kind("nothing"), Kind("none")
NUMBER, BOOL, TEXT, SEAT = Kind("number"), Kind("bool"), Kind("text"), Kind("seat")
CARD, ZONE, BOARD, CELL = Kind("card"), Kind("zone"), Kind("board"), Kind("cell")


def _with_none(kind: Kind, none: bool) -> Kind:
    return Kind(kind.base, kind.item, kind.key, none)


def list_of(item: Kind) -> Kind:
    return Kind("list", item)


def map_of(key: Kind, value: Kind) -> Kind:
    return Kind("map", value, key)


def or_none(kind: Kind) -> Kind:
    return kind if kind.base in ("any", "none") or kind.none else _with_none(kind, True)


LAYOUT_CELL = map_of(TEXT, ANY)   # a cell of a hex layout: colour, board, q, r
AUCTION = map_of(TEXT, ANY)       # an auction's result: winner, price
FIELD_KINDS = {"winner": or_none(SEAT), "price": NUMBER, "colour": TEXT, "board": BOARD,
               "q": NUMBER, "r": NUMBER, "id": CARD, "name": TEXT, "kind": TEXT}

# Families: kinds whose values are the same Python values at play (a card is its
# id, a text; a player is a seat number), so one may stand for the other.
_FAMILY = {"number": "number", "seat": "number", "text": "text", "card": "text",
           "cell": "text", "board": "text", "zone": "text", "bool": "bool",
           "list": "list", "map": "map", "none": "none"}


def known(kind) -> bool:
    return kind is not None and kind.base not in ("any", "nothing")


def fits(value: Kind, wanted: Kind) -> bool:
    """False only when a value of kind `value` can never be a `wanted`."""
    if not known(value) or not known(wanted):
        return True
    if value.base == "none":
        return wanted.none or wanted.base == "none"
    if _FAMILY[value.base] != _FAMILY[wanted.base]:
        return False
    if value.base in ("list", "map"):
        return fits(value.item or ANY, wanted.item or ANY) and fits(value.key or ANY, wanted.key or ANY)
    return True


def family(kind: Kind) -> str:
    """The family of a known kind: number, text, bool, list, map or none (a
    player is a number, a card, cell, board or zone a text: see _FAMILY)."""
    return _FAMILY[kind.base]


def surely_fits(value: Kind | None, wanted: Kind) -> bool:
    """True when every value of kind `value` is, at play, of `wanted`'s family (a
    number, a text, true or false, a list or a map), and none only where `wanted`
    may be none: a store of it needs no check. False for an unknown kind (None,
    any, nothing), for "or none" into a kind that is never none, and for none."""
    if not known(value) or value.base == "none" or value.none and not wanted.none:
        return False
    return _FAMILY[value.base] == _FAMILY.get(wanted.base)


def join(a: Kind, b: Kind) -> Kind:
    """The kind of a value that is sometimes an `a`, sometimes a `b`."""
    if a.base == "nothing":
        return b if not a.none else or_none(b) if b.base != "nothing" else a
    if b.base == "nothing":
        return join(b, a)
    if a.base == "any" or b.base == "any":
        return ANY
    if a.base == "none":
        return or_none(b)
    if b.base == "none":
        return or_none(a)
    none = a.none or b.none
    if a.base == b.base:
        if a.base in ("list", "map"):
            return Kind(a.base, join(a.item or NOTHING, b.item or NOTHING),
                        join(a.key or NOTHING, b.key or NOTHING) if a.base == "map" else None, none)
        return a if a.none == none else _with_none(a, none)
    if _FAMILY[a.base] == _FAMILY[b.base]:   # a card and a text: a text
        wider = NUMBER if _FAMILY[a.base] == "number" else TEXT
        return _with_none(wider, none)
    return ANY


def of_value(value, boards=()) -> Kind:
    """The kind of a spec value (a start value, a constant, a card attribute); a
    text in `boards` (the spec's board names) is a board."""
    if value is None:
        return Kind("nothing", none=True)
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, (int, float)):
        return NUMBER
    if isinstance(value, str):
        return BOARD if value in boards else TEXT
    if isinstance(value, list):
        item = NOTHING
        for v in value:
            item = join(item, of_value(v, boards))
        return list_of(item)
    if isinstance(value, dict):
        key, item = NOTHING, NOTHING
        for k, v in value.items():
            key, item = join(key, of_value(k, boards)), join(item, of_value(v, boards))
        return map_of(key, item)
    return ANY


def parse_kind(text: str) -> Kind | None:
    """'list of cards', 'map of texts to numbers', 'card or none' -> Kind; None if unreadable."""
    text = " ".join(str(text).split())
    if text.endswith(" or none"):
        inner = parse_kind(text[:-len(" or none")])
        return or_none(inner) if inner else None
    if text.startswith("list of "):
        inner = parse_kind(text[len("list of "):])
        return list_of(inner) if inner else None
    if text.startswith("map of ") and " to " in text:
        key, _, value = text[len("map of "):].partition(" to ")
        k, v = parse_kind(key), parse_kind(value)
        return map_of(k, v) if k and v else None
    words = {**{w: Kind(b) for b, w in _SINGULAR.items()}, **{w: Kind(b) for b, w in _PLURAL.items()},
             "bool": BOOL, "seat": SEAT, "seats": SEAT, "list": list_of(NOTHING),
             "map": map_of(NOTHING, NOTHING), "symbol": TEXT, "symbols": TEXT}
    kind = words.get(text)
    return kind if kind is not None and kind.base not in ("any", "nothing", "none") else None


TYPE_WORDS = ("number, bool, text, player, card, zone, board, cell, list of K, "
              "map of K to V, K or none")


# --------------------------------------------------------------------- builtins
# What each builtin wants of its arguments and gives back. Wanted kinds are a
# Kind, ITEMS (a list, zone or map: what can be counted or iterated) or None
# (anything); a result is a function of the argument kinds.
ITEMS = "items"
CARDS = "cards"     # a card, or a list of cards (what move() moves)
ORDERED = "ordered" # what max() and min() compare: numbers, or texts


def _item(kind: Kind) -> Kind:
    """What iterating over a value of `kind` gives."""
    if kind.base == "list":
        return kind.item or NOTHING
    if kind.base == "zone":
        return CARD
    if kind.base == "map":
        return kind.key or NOTHING
    return NOTHING if kind.base == "nothing" else ANY


def _same_list(args, kw) -> Kind:
    return list_of(_item(args[0])) if args else list_of(ANY)


def _extreme(args, kw) -> Kind:
    if len(args) == 1:
        return or_none(_item(args[0]))   # none for an empty list
    out = NOTHING
    for a in args:
        out = join(out, a)
    return out


def _get(args, kw) -> Kind:
    value = args[0].item or NOTHING if args[0].base == "map" else ANY
    return join(value, args[2]) if len(args) > 2 else or_none(value)


def _with_key(args, kw) -> Kind:
    if args[0].base != "map":
        return map_of(args[1], args[2])
    return map_of(join(args[0].key or NOTHING, args[1]), join(args[0].item or NOTHING, args[2]))


def _fixed(kind):
    return lambda args, kw: kind


BUILTINS = {
    # name: (wanted kind of each argument, result)
    "count": ((ITEMS,), _fixed(NUMBER)),
    "sum": ((list_of(NUMBER),), _fixed(NUMBER)),
    "max": ((ORDERED,) * 8, _extreme), "min": ((ORDERED,) * 8, _extreme),
    "abs": ((NUMBER,), _fixed(NUMBER)),
    "all": ((ITEMS,), _fixed(BOOL)), "any": ((ITEMS,), _fixed(BOOL)),
    "range": ((NUMBER, NUMBER), _fixed(list_of(NUMBER))),
    "sort": ((ITEMS,), _same_list), "reverse": ((ITEMS,), _same_list),
    "unique": ((ITEMS,), _same_list),
    "first": ((ITEMS,), lambda a, kw: or_none(_item(a[0]))),
    "last": ((ITEMS,), lambda a, kw: or_none(_item(a[0]))),
    "append": ((ITEMS, None), lambda a, kw: list_of(join(_item(a[0]), a[1]))),
    "remove": ((ITEMS, None), _same_list),
    "index_of": ((ITEMS, None), _fixed(or_none(NUMBER))),
    "rotate": ((ITEMS, None), _same_list),
    "occurrences": ((ITEMS, None), _fixed(NUMBER)),
    "tally": ((ITEMS,), lambda a, kw: map_of(_item(a[0]), NUMBER)),
    "flatten": ((ITEMS,), lambda a, kw: list_of(_item(_item(a[0])))),
    "random_of": ((ITEMS,), lambda a, kw: _item(a[0])),
    "keys": ((map_of(ANY, ANY),), lambda a, kw: list_of(a[0].key or NOTHING if a[0].base == "map" else ANY)),
    "get": ((map_of(ANY, ANY), None, None), _get),
    "with_key": ((map_of(ANY, ANY), None, None), _with_key),
    "text": ((None,), _fixed(TEXT)),
    "next_player": ((SEAT, NUMBER), _fixed(SEAT)), "previous_player": ((SEAT, NUMBER), _fixed(SEAT)),
    "others": ((SEAT,), _fixed(list_of(SEAT))), "clockwise_from": ((SEAT,), _fixed(list_of(SEAT))),
    "cards": ((ZONE,), _fixed(list_of(CARD))), "top": ((ZONE,), _fixed(or_none(CARD))),
    "name": ((CARD,), _fixed(TEXT)), "kind": ((CARD,), _fixed(TEXT)),
    "has": ((ZONE, TEXT), _fixed(BOOL)), "find": ((ZONE, TEXT), _fixed(or_none(CARD))),
    "one_of_each": ((ITEMS,), _fixed(list_of(CARD))),
    "named": ((TEXT,), _fixed(list_of(CARD))), "where": ((CARD,), _fixed(ZONE)),
    "owner": ((ZONE,), _fixed(or_none(SEAT))),
    "shuffle": ((ZONE,), _fixed(NONE)), "draw": ((ZONE, ZONE, NUMBER), _fixed(list_of(CARD))),
    "move": ((CARDS, ZONE), _fixed(NONE)), "move_bottom": ((CARDS, ZONE), _fixed(NONE)),
    "move_named": ((ZONE, TEXT, ZONE, NUMBER), _fixed(NONE)),
    "roll": ((NUMBER,), _fixed(NUMBER)),
    "nodes": ((None,), _fixed(list_of(CELL))),
    "next_node": ((None, CELL), _fixed(or_none(CELL))),
    "previous_node": ((None, CELL), _fixed(or_none(CELL))),
    "successors": ((None, CELL), _fixed(list_of(CELL))),
    "neighbours": ((None, CELL), _fixed(list_of(CELL))),
    "distance": ((None, CELL, CELL), _fixed(or_none(NUMBER))),
    "node_attr": ((None, CELL, TEXT, None), _fixed(ANY)),
    "colour_zone": ((None, CELL), _fixed(list_of(CELL))),
    "colour_zones": ((None, TEXT), _fixed(list_of(list_of(CELL)))),
    "connected": ((None, ITEMS), _fixed(BOOL)),
    "node_boundary": ((None, ITEMS), _fixed(list_of(CELL))),
    "log": ((None,), _fixed(NONE)),
    "hex_layout": ((ITEMS,), _fixed(map_of(CELL, LAYOUT_CELL))),
}
assert set(BUILTINS) == set(SIGNATURES), set(BUILTINS) ^ set(SIGNATURES)


def wanted_phrase(wanted) -> str:
    return {ITEMS: "a list, a zone or a map", CARDS: "a card or a list of cards",
            ORDERED: "numbers or texts"}.get(wanted) or str(wanted)


def accepts(value: Kind, wanted) -> bool:
    """Could an argument of kind `value` be what a builtin wants?"""
    if wanted is None or not known(value):
        return True
    if wanted == ITEMS:
        return value.base in ("list", "zone", "map")
    if wanted == CARDS:
        return _FAMILY[value.base] == "text" and value.base != "zone" or (
            value.base == "list" and accepts(value.item or NOTHING, CARDS))
    if wanted == ORDERED:
        return value.base in ("number", "seat", "text", "card", "cell", "board") or (
            value.base == "list" and accepts(value.item or NOTHING, ORDERED))
    if wanted.base == "zone":
        return _FAMILY.get(value.base) == "text"
    return fits(value, wanted)


# ------------------------------------------------------- the literal-only API
# What this module offered before kinds were inferred, kept for callers written
# against it (the language server's hover); new code reads `Checked.kinds`.
LIST, MAP = list_of(NOTHING), map_of(NOTHING, NOTHING)
def _old_words(wanted):
    if wanted is None or wanted == ORDERED:
        return None
    if wanted == ITEMS:
        return frozenset({"list", "zone", "map"})
    if wanted == CARDS:
        return frozenset({"card", "list"})
    return frozenset({wanted.base, "text"} if wanted.base == "zone" else {wanted.base})


ARGUMENTS = {name: tuple(_old_words(w) for w in wanted) for name, (wanted, _) in BUILTINS.items()}
RESULTS = {name: kind.base for name, (_, result) in BUILTINS.items()
           if (kind := result([ANY] * 3, {})).base not in ("any", "nothing", "none") and not kind.none}


def kind_of(node, names, scope) -> Kind | None:
    """The kind of a literal, zone or constant name, or None (superseded by
    rulespec.infer.KindTable, which knows every name and expression)."""
    if isinstance(node, ast.Number):
        return NUMBER
    if isinstance(node, ast.String):
        return TEXT
    if isinstance(node, ast.Name):
        category, payload = names.resolve(node.id, scope)
        if category == "zone":
            return ZONE
        if category == "constant":
            kind = of_value(payload)
            return LIST if kind.base == "list" else MAP if kind.base == "map" else kind
    return None
