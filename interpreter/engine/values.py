"""Runtime values and how they are saved.

Players are seat numbers (int), cards are their ids (str), symbols are str,
lists and maps are never changed in place (every builtin returns a new one),
so copying a state copies containers, not values. A zone is a `Zone`.
"""
from __future__ import annotations

from rulespec.errors import CorruptFile


class Seat(int):
    """A player: an int that knows it is a player, so it prints as one."""
    __slots__ = ()

    def __repr__(self):
        return f"P{int(self) + 1}"

    __str__ = int.__repr__   # so f"hand@{seat}" names the zone by number


def cards_in(cards, value) -> list:
    """The card ids (those in `cards`: Game.cards) that `value` holds, walking lists,
    tuples and maps (a map's keys and values), in order; [] for anything else. A
    decision's option that is a map holding a card (made by `with_key`, say) holds
    it as surely as a list does."""
    if isinstance(value, str):
        return [value] if value in cards else []
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in cards_in(cards, v)]
    if isinstance(value, dict):
        return [c for k, v in value.items() for c in cards_in(cards, k) + cards_in(cards, v)]
    return []


def slotted_state(obj) -> tuple:
    """A slotted class's __getstate__: (None, {slot: value} of the slots set), what
    Python's default gives, but the class's own, which pickle protocols 0 and 1
    need (they refuse a slotted class with object's)."""
    return None, {k: getattr(obj, k) for k in type(obj).__slots__ if hasattr(obj, k)}


PLAIN_KEYS = frozenset({int, str, float, bool, Seat})    # sort key (1, v): neither none nor a list


def sort_key(value):
    """A value's sort key (sort, max and min with by=, compiled or generated):
    lists compare item by item; none sorts first. Returns a tuple."""
    if value.__class__ is list:     # (a list's plain items without a call each)
        return tuple([(1, v) if v.__class__ in PLAIN_KEYS else sort_key(v) for v in value])
    if isinstance(value, list):
        return tuple(sort_key(v) for v in value)
    return (0, 0) if value is None else (1, value)



class Zone(str):
    """A reference to a zone: 'deck' for a shared zone, 'hand@2' for seat 2's hand."""
    __slots__ = ()

    @property
    def seat(self):
        _, _, seat = self.partition("@")
        return int(seat) if seat else None

    @property
    def base(self):
        return self.partition("@")[0]


def player_zone(name: str, seat: int) -> Zone:
    return Zone(f"{name}@{seat}")


_PLAIN = frozenset({int, str, bool, float, type(None)})


def encode(value):
    """A value as JSON data; zones and maps are tagged so they come back as they were.
    LimitError for a value of more than SHOWN items in all (lists that share a list
    expand: `g = append(g, g)` doubles each time) or nested over NESTED deep.
    The same data as slow_encode (tests/engine/test_quick_save.py compares them),
    by a walk without the budget's calls: a value found larger than QUICK_ITEMS
    items, or of a kind it does not know, is written by slow_encode instead."""
    if value.__class__ in _PLAIN:     # most values: nothing to do
        return value
    try:
        return _quick_encode(value, 0, [QUICK_ITEMS])
    except _Bulky:
        return slow_encode(value)


QUICK_ITEMS = 10_000    # items the quick walk writes before it hands a value to slow_encode


class _Bulky(Exception):
    """A value the quick walk leaves to slow_encode: large, deep, or of an odd kind."""


_all_plain = _PLAIN.issuperset      # _all_plain(map(type, xs)): no x needs a tag
_all_text = frozenset({str}).issuperset


def _quick_encode(value, depth, left):
    """encode's data for a non-plain value. left: [items still allowed], shared by
    the whole walk. A container of plain values (most) is copied in one call, a
    seat in one (lists of players are common) without a call of this. Raises
    _Bulky when the walk passes left or NESTED, or meets a kind (a map with other
    keys than text, a subclass) that slow_encode writes its own way."""
    cls = value.__class__
    if cls is dict:
        left[0] -= len(value)
        if left[0] < 0 or depth > NESTED or not _all_text(map(type, value)):
            raise _Bulky
        if _all_plain(map(type, value.values())):
            return {"$dict": dict(value)}
        depth += 1
        return {"$dict": {k: v if v.__class__ in _PLAIN else {"$seat": int(v)} if v.__class__ is Seat
                          else _quick_encode(v, depth, left) for k, v in value.items()}}
    if cls is list or cls is tuple:
        left[0] -= len(value)
        if left[0] < 0 or depth > NESTED:
            raise _Bulky
        if _all_plain(map(type, value)):
            return list(value)
        depth += 1
        return [v if v.__class__ in _PLAIN else {"$seat": int(v)} if v.__class__ is Seat
                else _quick_encode(v, depth, left) for v in value]
    if cls is Zone:
        return {"$zone": str(value)}
    if cls is Seat:
        return {"$seat": int(value)}
    raise _Bulky


def encode_values(values: dict) -> dict:
    """{key: encode(value)} for a map of many values (a save's per-card values) in
    one call: a plain value, or a short list of plain values, without a call each."""
    return {k: v if v.__class__ in _PLAIN else list(v) if v.__class__ is list
            and len(v) <= QUICK_ITEMS and _all_plain(map(type, v)) else encode(v)
            for k, v in values.items()}


def slow_encode(value, _left=None, _depth=0):
    """encode's data, each container's items charged to a budget (_spend) after the
    whole value is measured: what encode falls back to, and the reference its quick
    walk is tested against."""
    if type(value) in _PLAIN:       # most values: nothing to do
        return value
    if isinstance(value, Zone):
        return {"$zone": str(value)}
    if isinstance(value, Seat):
        return {"$seat": int(value)}
    left = _spend(value, _left, _depth)
    _depth += 1
    if isinstance(value, dict):
        if all(type(k) is str for k in value):      # the common map: text keys stay keys
            # a plain item is written as it is, without a call (a save has thousands)
            return {"$dict": {k: v if type(v) in _PLAIN else slow_encode(v, left, _depth)
                              for k, v in value.items()}}
        return {"$map": [[slow_encode(k, left, _depth), slow_encode(v, left, _depth)]
                         for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _PLAIN else slow_encode(v, left, _depth) for v in value]
    return value


def _expanded(value) -> int:
    """Items of `value` written out in full, counting each shared part by identity
    once (memo) and without recursion: time in the distinct parts only. A part with
    no container in it (most are) is measured by its length in one pass."""
    parts = value.values() if isinstance(value, dict) else value
    if not any(isinstance(p, _CONTAINERS) for p in parts):     # a flat value: no walk
        return len(value)
    sizes: dict[int, int] = {}
    todo = [value]
    while todo:
        v = todo[-1]
        if id(v) in sizes:
            todo.pop()
            continue
        parts = v.values() if isinstance(v, dict) else v
        inner = [p for p in parts if isinstance(p, _CONTAINERS)]
        waiting = [p for p in inner if id(p) not in sizes]
        if waiting:             # measure the parts first, then come back to v
            todo.extend(waiting)
            continue
        todo.pop()
        size = sizes[id(v)] = len(v) + sum(sizes[id(p)] for p in inner)
        if size > SHOWN:
            return size
    return sizes[id(value)]


_CONTAINERS = (list, tuple, dict)


SHOWN = 1_000_000       # items of one value written out (a log, a save, a label), all levels
NESTED = 100            # levels of lists in lists written out


def _spend(value, left, depth) -> list:
    """Charge a container's items to the budget of the value being written out. The
    first call measures the whole value first, each shared part once, so a list that
    holds one list a million times is refused before any of it is written."""
    if left is None:
        left = [SHOWN]
        if _expanded(value) > SHOWN:
            left[0] = -1
    if isinstance(value, (list, tuple, dict)):
        left[0] -= len(value)
        if left[0] < 0 or depth > NESTED:
            from rulespec.errors import LimitError
            raise LimitError(f"a value too large to write out: over {SHOWN:,} items in all or "
                            f"nested over {NESTED} deep (lists that hold a list many times?)")
    return left


def decode(data):
    """A value from JSON data written by encode. Raises CorruptFile for data encode
    cannot have written (a tag holding the wrong kind: {"$dict": 5}, {"$seat": "x"}).
    The same value or error as slow_decode (tests/engine/test_quick_save.py): data
    the quick walk has any doubt about is decoded by slow_decode from the start."""
    if data.__class__ in _PLAIN:
        return data
    try:
        return _quick_decode(data, 0)
    except _Bulky:
        return slow_decode(data)


def _quick_decode(data, depth):
    """decode's value for non-plain data, in the usual tags only: a list, a map of
    text keys, a zone, a seat (in a list or map without a call of this). Raises
    _Bulky for anything else (a `$map`, a wrong tag, nesting deeper than encode
    writes), which slow_decode decodes or words as corrupt."""
    cls = data.__class__
    if cls is list:
        if _all_plain(map(type, data)):
            return list(data)
        if depth > NESTED:
            raise _Bulky
        depth += 1
        return [v if v.__class__ in _PLAIN else Seat(v["$seat"])
                if v.__class__ is dict and len(v) == 1 and v.get("$seat").__class__ is int
                else _quick_decode(v, depth) for v in data]
    if cls is dict and len(data) == 1:
        inner = data.get("$dict")
        if inner.__class__ is dict:
            if _all_plain(map(type, inner.values())):
                return dict(inner)
            if depth > NESTED:
                raise _Bulky
            depth += 1
            return {k: v if v.__class__ in _PLAIN else Seat(v["$seat"])
                    if v.__class__ is dict and len(v) == 1 and v.get("$seat").__class__ is int
                    else _quick_decode(v, depth) for k, v in inner.items()}
        inner = data.get("$zone")
        if inner.__class__ is str:
            return Zone(inner)
        inner = data.get("$seat")
        if inner.__class__ is int:
            return Seat(inner)
    raise _Bulky


def decode_values(data: dict) -> dict:
    """{key: decode(item)} for a map of many values (a save's per-card values) in
    one call: a plain value, or a list of plain values, without a call each."""
    return {k: v if v.__class__ in _PLAIN else list(v) if v.__class__ is list
            and _all_plain(map(type, v)) else decode(v) for k, v in data.items()}


def slow_decode(data):
    """decode's value, each tag checked in turn: what decode falls back to, and the
    reference its quick walk is tested against."""
    if type(data) in _PLAIN:
        return data
    if isinstance(data, list):
        return [v if type(v) in _PLAIN else slow_decode(v) for v in data]
    if isinstance(data, dict):
        tag = next(iter(data), None)
        inner = data.get(tag)
        if len(data) != 1 or not isinstance(inner, _TAGGED.get(tag, ())) or type(inner) is bool:
            raise CorruptFile(f"unexpected object in saved data: {sorted(data)[:3]}")
        if tag == "$dict":
            return {k: v if type(v) in _PLAIN else slow_decode(v) for k, v in inner.items()}
        if tag == "$map":
            if not all(isinstance(pair, list) and len(pair) == 2 for pair in inner):
                raise CorruptFile("unexpected object in saved data: a `$map` entry is not a pair")
            return {_key(slow_decode(k)): slow_decode(v) for k, v in inner}
        return Zone(inner) if tag == "$zone" else Seat(inner)
    return data


_TAGGED = {"$zone": str, "$seat": int, "$dict": dict, "$map": list}   # what each tag holds


def _key(value):
    if isinstance(value, (list, dict)):
        raise CorruptFile("unexpected object in saved data: a `$map` key is a list or map")
    return value


def display(value, names=None, _left=None, _depth=0) -> str:
    """How a value reads in an option label or a log line (bounded as encode is)."""
    if type(value) is str:      # the usual case first: card ids, symbols, labels
        return value
    if isinstance(value, Seat):
        return names[value] if names else repr(value)
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, list):
        left = _spend(value, _left, _depth)
        return "[" + ", ".join(display(v, names, left, _depth + 1) for v in value) + "]"
    if isinstance(value, dict):
        left = _spend(value, _left, _depth)
        return "{" + ", ".join(f"{display(k, names, left, _depth + 1)}: {display(v, names, left, _depth + 1)}"
                               for k, v in value.items()) + "}"
    return str(value)
