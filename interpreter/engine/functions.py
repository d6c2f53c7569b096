"""What each engine primitive does. Signatures live in rulespec/builtins.py.

Every function takes the state first. None changes a list or map in place.
"""
from __future__ import annotations

from collections import _count_elements     # Counter's counting loop (C), on a plain dict
from itertools import islice
from time import monotonic

from rulespec.errors import LimitError, RuleError
from rulespec.limits import check_number, too_big
from . import chance, rig, rng
from .boards import _layout_boards, join_hex_boards, layout_board
from .changes import tell
from .values import Seat, Zone, display


def _items(st, x):
    """A zone's cards, a list, or a map's keys, as a list. Every comprehension and
    builtin that walks a list comes here, so the items walked are metered (meter)."""
    cls = x.__class__
    if cls is list:         # the usual case first: this runs for every comprehension
        m = st.game.meter
        m[0] = walked = m[0] + len(x)
        if walked > m[1]:
            meter_check(m)
        return x
    if cls is Zone or cls is not dict and isinstance(x, Zone):
        return list(st.zones[x])
    if cls is dict or isinstance(x, dict):     # its keys, metered as a list's items
        keys = list(x)
        m = st.game.meter
        m[0] = walked = m[0] + len(keys)
        if walked > m[1]:
            meter_check(m)
        return keys
    if isinstance(x, list):
        return _items(st, list(x))
    raise RuleError(f"expected a list or a zone, got {display(x)}")


METER_CHUNK = 1_000_000     # items walked between two looks at the clock


def start_meter(game) -> None:
    """Begin a decision's (or an evaluation's) account of items walked: one
    instruction can walk a huge list many times over ([[y for y in g] for x in g])
    without returning to the run loop, so the clock is read from here too."""
    game.meter[:] = [0, METER_CHUNK, monotonic() + game.bounds.seconds, game.bounds.seconds]


def meter_check(m) -> None:
    m[1] += METER_CHUNK
    if monotonic() > m[2]:
        m[1] = -1       # and at once on any later walk, until the next decision
        raise LimitError(f"the rules walked {m[0]:,} list items in over {m[3]:g} seconds without "
                        f"asking anyone anything (limits: seconds)")


def _many(x):
    return x if isinstance(x, list) else [x]


# numbers and lists -------------------------------------------------------------
def count(st, x):
    # a list or a zone, each without a further call (a zone is inlined by codegen
    # where its argument is simple, so lists come here most)
    cls = x.__class__
    if cls is list:
        m = st.game.meter
        m[0] = walked = m[0] + len(x)
        if walked > m[1]:
            meter_check(m)
        return len(x)
    if cls is Zone:
        return len(st.zones[x])
    return len(st.zones[x]) if isinstance(x, Zone) else len(_items(st, x))


def occurrences(st, xs, x):
    if xs.__class__ is list:    # _items inline: metered, no copy
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        return xs.count(x)
    return _items(st, xs).count(x)


def sum_(st, xs):
    if xs.__class__ is list:    # _items inline, and check_number's usual case: a whole number
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        total, bounds = sum(xs), st.game.bounds
        if total.__class__ is int and abs(total) < bounds.integer_bound:
            return total
        return check_number(total, bounds)
    return check_number(sum(_items(st, xs)), st.game.bounds)


def int_range(st, low, high, offered: str | None = None) -> list:
    """[low, low + 1, ..., high - 1], its length checked against the size limit
    before it is built (range(10**20) is an error, not a hang). `offered`: the
    decision whose options these are ("choose number"), named so in the error, as
    the designer wrote no range; an empty one is then an error saying so."""
    if low.__class__ is not int or high.__class__ is not int:   # a Seat, or an error
        for end in (low, high):
            if not isinstance(end, int) or isinstance(end, bool):
                raise RuleError(f"range: the ends are whole numbers, not {display(end)}")
    if offered and high <= low:   # the decision would say only "nothing to choose from"
        raise RuleError(f"{offered} from {low} to {high - 1}: the range is empty")
    size = st.game.bounds.size
    if high - low > size:
        if offered:
            raise LimitError(f"{offered} from {low} to {high - 1} offers {high - low:,} options, "
                             f"over the limit of {size:,} (limits: size)")
        raise too_big("the length of a range", high - low, size, "size")
    return list(range(low, high))


def _sized(st, items: list) -> list:
    size = st.game.bounds.size
    if len(items) > size:
        raise too_big("the length of a list", len(items), size, "size")
    return items


def range_(st, a, b=None):
    if b is None and a.__class__ is int and a <= st.game.bounds.size:
        return list(range(a))   # range(n): the usual case, without the pair
    low, high = (0, a) if b is None else (a, b)
    if low.__class__ is int and high.__class__ is int and high - low <= st.game.bounds.size:
        return list(range(low, high))   # the usual case; int_range says what is wrong
    return int_range(st, low, high)


def _extreme(pick, st, args, by):
    items = _items(st, args[0]) if len(args) == 1 else list(args)
    if by is None and None in items:    # (C's scan: a list seldom holds none)
        items = [i for i in items if i is not None]
    if not items:
        return None
    return pick(items, key=by) if by else pick(items)


def max_(st, *args, by=None):
    if by is None:
        if len(args) == 2:      # max(a, b): the usual case, without a list
            a, b = args
            if a is not None and b is not None:
                return max(a, b)
        elif len(args) == 1 and args[0].__class__ is list:     # max(list): _extreme inline
            return _list_extreme(max, st, args[0])
    return _extreme(max, st, args, by)


def min_(st, *args, by=None):
    if by is None:
        if len(args) == 2:
            a, b = args
            if a is not None and b is not None:
                return min(a, b)
        elif len(args) == 1 and args[0].__class__ is list:
            return _list_extreme(min, st, args[0])
    return _extreme(min, st, args, by)


def _list_extreme(pick, st, xs: list):
    """max or min of a list without `by`, as _extreme gives it: the items metered
    (_items inline), none left out, none for an empty list."""
    m = st.game.meter
    m[0] = walked = m[0] + len(xs)
    if walked > m[1]:
        meter_check(m)
    if None in xs:
        xs = [i for i in xs if i is not None]
    return pick(xs) if xs else None


def all_(st, xs):
    if xs.__class__ is list:    # _items inline: metered, no copy
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        return all(xs)
    return all(_items(st, xs))


def any_(st, xs):
    if xs.__class__ is list:
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        return any(xs)
    return any(_items(st, xs))


def sort(st, xs, by=None, descending=False):
    return sorted(_items(st, xs), key=by, reverse=bool(descending))


def first(st, xs):
    if xs.__class__ is list:    # _items inline: metered, no copy (a list reveals nothing)
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        return xs[0] if xs else None
    if st.explicit is not None and isinstance(xs, Zone):
        chance.reveal(st, xs, 0)
    items = _items(st, xs)
    return items[0] if items else None


def last(st, xs):
    if xs.__class__ is list:
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        return xs[-1] if xs else None
    if st.explicit is not None and isinstance(xs, Zone):
        chance.reveal(st, xs, -1)
    items = _items(st, xs)
    return items[-1] if items else None


def append(st, xs, x):
    if xs.__class__ is list:    # _items and _sized inline
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        size = st.game.bounds.size
        if len(xs) < size:
            return xs + [x]
        raise too_big("the length of a list", len(xs) + 1, size, "size")
    return _sized(st, _items(st, xs) + [x])


def remove(st, xs, x):
    items = list(_items(st, xs))
    if x in items:
        items.remove(x)
    return items


def index_of(st, xs, x):
    if xs.__class__ is list:    # _items inline: metered, no copy
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        return xs.index(x) if x in xs else None
    if st.explicit is not None and isinstance(xs, Zone):
        chance.reveal_from_top(st, xs, x)
    items = _items(st, xs)
    return items.index(x) if x in items else None


def rotate(st, xs, start):
    if st.explicit is not None and isinstance(xs, Zone):
        chance.reveal_all(st, xs)
    items = _items(st, xs)
    if start not in items:
        raise RuleError(f"rotate: {display(start)} is not in {display(items)}")
    i = items.index(start)
    return items[i:] + items[:i]


def reverse(st, xs):
    if st.explicit is not None and isinstance(xs, Zone):
        chance.reveal_all(st, xs)
    return list(reversed(_items(st, xs)))


def top(st, zone):
    if st.explicit is not None:
        chance.reveal(st, zone, 0)
    cards = st.zones[zone]
    return cards[0] if cards else None


def unique(st, xs):
    if xs.__class__ is list:    # _items inline: metered, no copy
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        return list(dict.fromkeys(xs))
    return list(dict.fromkeys(_items(st, xs)))


def get(st, m, key, default=None):
    return m.get(key, default)


def with_key(st, m, key, value):
    return _sized(st, {**m, key: value})


# players -------------------------------------------------------------------------
def seat(st, p) -> int:
    """`p` as a seat of this game (an int, 0 <= p < st.n); a rule that names a seat
    by a number no player sits at (`by 99`, `turn -1`) is a RuleError, never an
    answer asked of nobody or a seat counted from the end."""
    if p.__class__ is Seat and 0 <= p < st.n:
        return p
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < st.n:
        # a number out of range reads as itself, not as a seat's name (-1 is no "P0")
        shown = display(int(p) if isinstance(p, int) and not isinstance(p, bool) else p,
                        st.game.player_names)
        raise RuleError(f"{shown} is not a seat: this game has "
                        f"{st.n} players, seats 0 to {st.n - 1} (players[0] to players[{st.n - 1}])")
    return p


def next_player(st, p, n=1):
    # the state's own Seat for a whole number (st.seats), not a Seat made anew
    k = (seat(st, p) + n) % st.n
    return st.seats[k] if k.__class__ is int else Seat(k)


def previous_player(st, p, n=1):
    k = (seat(st, p) - n) % st.n
    return st.seats[k] if k.__class__ is int else Seat(k)


def clockwise_from(st, p):
    """Every seat, p first, then on clockwise: a new list of the state's own Seat
    objects (st.seats), cut at p, not Seats made anew each call."""
    p = seat(st, p)
    seats = st.seats
    return seats[p:] + seats[:p]


def others(st, p):
    p = seat(st, p)
    seats = st.seats
    return seats[p + 1:] + seats[:p]


# cards and zones -------------------------------------------------------------------
def _card(st, c):
    attrs = st.game.cards.get(c)
    if attrs is None:
        raise RuleError(f"{display(c)} is not a card")
    return attrs


def name(st, c):
    attrs = st.game.cards.get(c)    # (_card inline: the look-up is the check)
    return _card(st, c)["name"] if attrs is None else attrs["name"]


def kind(st, c):
    attrs = st.game.cards.get(c)
    return _card(st, c)["kind"] if attrs is None else attrs["kind"]


def text(st, x):
    if x.__class__ is str:
        return x
    if x.__class__ is int:     # display's answer for a number (not a Seat, not a bool)
        return str(x)
    return display(x, st.game.player_names)


def has(st, zone, name):
    return find(st, zone, name) is not None


def find(st, zone, name):
    """The first card of `zone` (from the top) called `name`, or none."""
    held = st.zones[zone]
    if len(held) > 8 and name.__class__ is str:
        # a long zone (a deal finds each of 120 tiles in a box of 140) is scanned
        # in C, for the first card in the set of those of the name
        ids = st.game.ids_called.get(name, _NONE)
        return next(filter(ids.__contains__, held), None)
    names = st.game.name_of
    for c in held:
        if names[c] == name:
            return c
    return None


_NONE = frozenset()     # the ids of the cards of a name no card has


def one_of_each(st, xs):
    """one_of_each(zone): the first card of each name in a zone (top first) or a
    list of cards, in the order first seen: what `[find(zone, n) for n in
    unique([name(c) for c in zone])]` gives, in one walk. Cards of one name are
    alike in most games, so an offer of "which card?" lists each name once.

    Returns a new list of cards; the cards walked are metered (_items). Raises
    RuleError, in name()'s words, for an item that is not a card.
    """
    names, first = st.game.name_of, {}
    keep = first.setdefault     # a name's first card stays
    # a zone's cards as _items gives them (unmetered), without its copy
    items = st.zones[xs] if xs.__class__ is Zone else _items(st, xs)
    try:
        for c in items:
            keep(names[c], c)
    except (KeyError, TypeError):   # not a card (a list or a map: TypeError)
        bad = next(c for c in items if isinstance(c, (list, dict)) or c not in names)
        raise RuleError(f"{display(bad)} is not a card") from None    # (_card's words)
    return list(first.values())


def named(st, name):
    return list(st.game.cards_by_name.get(name, []))


def where(st, c):
    _card(st, c)
    return Zone(st.loc[c])


def owner(st, zone):
    seat = Zone(zone).seat
    return None if seat is None else Seat(seat)


def shuffle(st, zone):
    st.rng = rng.shuffle(st.rng, st.zones[zone])
    if st.rig:
        rig.shuffle(st, zone)
    if st.explicit is not None:
        chance.shuffled(st, zone)
    if st.events is not None:   # (st.chance's own test: the deck's copy only for a log)
        st.chance("shuffle", zone, list(st.zones[zone]))


def draw(st, src, dst, n=1):
    if n.__class__ is int and 0 < n <= len(st.zones[src]) and dst.__class__ is Zone \
            and n <= st.game.bounds.size:     # the usual case: the deck holds them
        drawn = _draw_at_once(st, src, dst, n)
        if drawn is not None:
            return drawn
    if isinstance(n, int) and n > st.game.bounds.size:   # a reshuffling deck never runs out
        raise too_big("the number of cards drawn at once", n, st.game.bounds.size, "size")
    if isinstance(n, int) and n < 0:      # range(n) would draw none, silently
        raise RuleError(f"cannot draw {n} cards: a draw is of 0 cards or more")
    drawn = []
    zone = dst if dst.__class__ is Zone else None   # move's fast path wants a zone
    for _ in range(n):
        if not st.zones[src]:
            refill = st.game.reshuffle_from.get(Zone(src).base)
            if refill is None or not st.zones[_same_owner(src, refill)]:
                break
            move(st, list(st.zones[_same_owner(src, refill)]), src)
            shuffle(st, src)
        if st.rig:
            rig.draw(st, src)
        if st.explicit is not None:
            chance.reveal(st, src, 0)
        card = st.zones[src][0]
        if zone is not None and card.__class__ is str:
            _move_one(st, card, zone, False)
        else:
            move(st, card, dst)
        drawn.append(card)
    return drawn


def _draw_at_once(st, src, dst, n):
    """The top n cards of src (it holds them: no reshuffle) onto dst in one slice,
    as n moves of one card leave them (the last drawn on top), or None when a
    card-by-card draw must do it: a rigged or explicit-chance game, a scenario
    step (its moves are checked), the same zone, or a zone limit the draw would
    pass (the moves say where it is passed)."""
    if st.rig or st.explicit is not None or src == dst or (
            st.stack and st.stack[-1].proc not in _NOT_SCENARIO):
        return None
    zones = st.zones
    held, target = zones[src], zones[dst]
    limits = st.game.limits
    if limits:
        base = _BASES.get(dst)      # _limit, inline
        limit = limits.get(base) if base is not None else _limit(limits, dst)
        if limit is not None and len(target) + n > limit:
            return None
    if n == 1:      # one card: no slices
        c = held.pop(0)
        target.insert(0, c)
        st.loc[c] = dst
        return [c]
    drawn = held[:n]
    del held[:n]
    drawn.reverse()
    target[0:0] = drawn
    drawn.reverse()
    loc = st.loc
    for c in drawn:
        loc[c] = dst
    return drawn


def _same_owner(zone, base):
    seat = Zone(zone).seat
    return Zone(base if seat is None else f"{base}@{seat}")


def _put(st, cards, zone, at_end):
    zones, loc, game = st.zones, st.loc, st.game
    known, limits = game.cards, game.limits
    target, limit = zones[zone], _limit(limits, zone) if limits else None
    for c in (cards if cards.__class__ is list else _many(cards)):
        if c not in known:
            _card(st, c)    # says what is wrong
        zones[loc[c]].remove(c)
        if at_end:
            target.append(c)
        else:
            target.insert(0, c)
        loc[c] = zone
        if limit is not None and len(target) > limit:
            raise RuleError(f"zone {zone} would hold {len(target)} cards, over its limit of {limit}")


def _limit(limits: dict, zone):
    """The card limit of `zone` ('hand@2' has hand's), or None. Zone names are few:
    each one's base is worked out once (_BASES), not split on every move."""
    if not limits:
        return None
    base = _BASES.get(zone)
    if base is None:
        if len(_BASES) > 10_000:    # many games in one process: names come again
            _BASES.clear()
        base = _BASES[zone] = Zone(zone).base
    return limits.get(base)


_BASES: dict[str, str] = {}


def move(st, cards, zone, out_of=None):
    if cards.__class__ is str and zone.__class__ is Zone:   # one card: the usual case
        _move_one(st, cards, zone, False, out_of)
        return
    if out_of is not None or st.stack and st.stack[-1].proc not in _NOT_SCENARIO:
        _taken(st, cards, out_of)   # (nothing to check otherwise: _taken's test inline)
    if st.explicit is not None:
        chance.taking(st, cards)
    elif cards.__class__ is list and len(cards) >= WHOLE_ZONE and _move_whole(st, cards, zone):
        return
    _put(st, cards[::-1] if isinstance(cards, list) else [cards], zone, at_end=False)


WHOLE_ZONE = 16     # cards from which a move looks for a whole zone moving (_move_whole)


def _move_whole(st, cards: list, zone) -> bool:
    """Move `cards` onto `zone` in one slice when they are all of one other zone's
    cards in its order (a discard pile turned into a deck, say), as _put would leave
    them card by card: on top of `zone` in that order, the other zone empty. False,
    moving nothing, for anything else, or where _put would stop at a zone's limit
    (it says at which card). A card-by-card move takes each card out of a list it
    scans: for a whole pile, as many scans as cards."""
    zones, loc = st.zones, st.loc
    src = loc.get(cards[0])
    if src is None or src == zone or zone.__class__ is not Zone or zones[src] != cards:
        return False
    target, limits = zones[zone], st.game.limits
    limit = _limit(limits, zone) if limits else None
    if limit is not None and len(target) + len(cards) > limit:
        return False
    held = zones[src]
    if held is cards:   # the zone's own list: keep the cards before emptying it
        cards = list(cards)
    held.clear()
    target[0:0] = cards
    for c in cards:
        loc[c] = zone
    return True


def move_bottom(st, cards, zone, out_of=None):
    if cards.__class__ is str and zone.__class__ is Zone:
        _move_one(st, cards, zone, True, out_of)
        return
    if out_of is not None or st.stack and st.stack[-1].proc not in _NOT_SCENARIO:
        _taken(st, cards, out_of)   # (nothing to check otherwise: _taken's test inline)
    if st.explicit is not None:
        chance.taking(st, cards)
    _put(st, cards, zone, at_end=True)


def move_named(st, src, name, dst, n=1):
    """move_named(from, name, to, n): the first n cards called `name` in zone
    `from` (top first), moved one by one onto the top of zone `to`, the last one
    moved on top: what n `move(find(from, name), to)` leave, in one call (a deal
    of a set of cards by name out of a box is a loop of these; card by card,
    each find scans the box again and each move searches it for the card).
    Fewer than n such cards is a rule error, said before any card moves.

    Where a card-by-card move checks or records something per card -- a scenario
    step, explicit chance, a zone limit the moves would pass -- the cards are
    moved one by one (_move_one); otherwise in one slice."""
    if n.__class__ is not int or n < 0:
        raise RuleError(f"move_named: n is a number of cards, 0 or more, not {display(n)}")
    if not isinstance(src, Zone) or not isinstance(dst, Zone):
        wrong = dst if isinstance(src, Zone) else src
        raise RuleError(f"move_named: expected a zone, got {display(wrong)}")
    held = st.zones[src]
    ids = st.game.ids_called.get(name, _NONE) if name.__class__ is str else _NONE
    picked = list(islice(filter(ids.__contains__, held), n))
    if len(picked) < n:
        raise RuleError(f"move_named: {display(src)} holds {len(picked)} "
                        f"card{'' if len(picked) == 1 else 's'} called {display(name)}, not {n}")
    if not _named_at_once(st, held, picked, src, dst):
        for c in picked:
            _move_one(st, c, dst, False)


def _named_at_once(st, held: list, picked: list, src, dst) -> bool:
    """Move `picked` (cards of `held`, src's list, in its order) onto dst's top as
    moves of one card each leave them (the last on top), in one slice; or False,
    moving nothing, where _move_one must move them card by card (as _draw_at_once:
    explicit chance, a scenario step, the same zone, a zone limit passed)."""
    if st.explicit is not None or src == dst or (
            st.stack and st.stack[-1].proc not in _NOT_SCENARIO):
        return False
    target, limits, n = st.zones[dst], st.game.limits, len(picked)
    if limits:
        limit = _limit(limits, dst)
        if limit is not None and len(target) + n > limit:
            return False
    if not picked:
        return True
    i = held.index(picked[0])
    if held[i:i + n] == picked:     # next to each other (a box sorted by name): one cut
        del held[i:i + n]
    else:
        for c in picked:
            held.remove(c)
    picked.reverse()
    target[0:0] = picked
    loc = st.loc
    for c in picked:
        loc[c] = dst
    return True


def _move_one(st, c, zone, at_end, out_of=None):
    """move (or move_bottom) of the one card c to `zone` (a Zone): what _taken,
    chance.taking and _put do for it, without the lists. Every card that moves
    goes through _put or here, or a one-slice path (_draw_at_once, _move_whole,
    _named_at_once): what must follow a move (a zone's version, say) goes in all."""
    if out_of is not None:
        _taken(st, c, out_of)
    elif st.stack and st.stack[-1].proc not in _NOT_SCENARIO:
        _taken(st, c, None)
    if st.explicit is not None:
        chance.taking(st, c)
    zones, loc, game = st.zones, st.loc, st.game
    target = zones[zone]
    if c not in game.cards:
        _card(st, c)    # says what is wrong
    zones[loc[c]].remove(c)
    if at_end:
        target.append(c)
    else:
        target.insert(0, c)
    loc[c] = zone
    limits = game.limits
    if limits:      # _limit, inline (a game with no zone limits tests nothing more)
        base = _BASES.get(zone)
        limit = limits.get(base) if base is not None else _limit(limits, zone)
        if limit is not None and len(target) > limit:
            raise RuleError(f"zone {zone} would hold {len(target)} cards, over its limit of {limit}")


def _taken(st, cards, out_of) -> None:
    """With out_of=ZONE, every card must be in that zone. Without it, a scenario
    step (a "scenario:" program, Game.snippet) may not take a card
    out of a player's hidden zone: a test that silently takes a card from
    another player's hand tests a position it did not mean."""
    if out_of is not None:
        for c in _many(cards):
            if st.loc.get(c) != out_of:
                raise RuleError(f"move: {display(c)} is not in {display(out_of)} "
                                f"(it is in {display(st.loc.get(c))})")
    elif st.stack and st.stack[-1].proc not in _NOT_SCENARIO and _in_scenario(st.stack[-1].proc):
        for c in _many(cards):
            zone = st.loc.get(c)
            if zone is not None and zone.seat is not None and not _public(st, zone):
                raise RuleError(f"move: {display(c)} is in {st.game.seat_name(zone.seat)}'s "
                                f"hidden {zone.base}: name the zone you take it from, "
                                f"move(..., out_of=players[{zone.seat}].{zone.base})")


def _in_scenario(proc: str) -> bool:
    """Whether program `proc` is a scenario step; the answer no is remembered
    (_NOT_SCENARIO), so a move asks with one set lookup."""
    if proc.startswith("scenario:"):
        return True
    if len(_NOT_SCENARIO) > 10_000:     # program keys of many games in one process
        _NOT_SCENARIO.clear()
    _NOT_SCENARIO.add(proc)
    return False


_NOT_SCENARIO: set[str] = set()


def _public(st, zone) -> bool:
    decl = st.game.player_zone_decls.get(zone.base) or {}
    return decl.get("visibility", "owner") == "public"


# chance -----------------------------------------------------------------------------
def roll(st, sides):
    if sides.__class__ is not int or not 1 <= sides <= 2**64:   # below(n) loops forever past 2**64
        raise RuleError(f"roll({display(sides)}): a die needs a whole number of sides, at least 1"
                        + (" and at most 2**64" if sides.__class__ is int and sides > 1 else ""))
    st.rng, value = rng.below(st.rng, sides)
    if st.rig:
        value = rig.roll(st, sides, value + 1) - 1
    if st.explicit is not None:
        value = chance.roll(st, sides) - 1
    if st.events is not None:
        st.chance("roll", sides, value + 1)
    return value + 1


def random_of(st, xs):
    items = _items(st, xs)
    if not items:
        raise RuleError("random_of: the list is empty")
    st.rng, i = rng.below(st.rng, len(items))
    if st.rig:
        i = rig.pick(st, [display(x, st.game.player_names) for x in items], i)
    if st.explicit is not None:
        i = chance.pick(st, [display(x, st.game.player_names) for x in items])
    if st.events is not None:
        st.chance("pick", len(items), i)
    return items[i]


# boards ------------------------------------------------------------------------------
def _board(st, name):
    if name.__class__ is dict:     # a layout joined during play (hex_layout)
        known = _layout_boards.get(id(name))    # layout_board's first look, inline
        return known[1] if known is not None and known[0] is name else layout_board(name)
    if isinstance(name, dict):
        return layout_board(name)
    board = st.game.boards.get(name)
    if board is None:
        raise RuleError(f"{display(name)} is not a board")
    return board


def hex_layout(st, parts, zones_cross_boards=False):
    """Join hex boards into one layout (a map "q,r" -> {colour, board, q, r}).

    parts: a list of [board, dq, dr] or [board, dq, dr, turns]: the board's cells
    turned `turns` times 60 degrees clockwise about its cell 0,0, then shifted
    by (dq, dr) axial steps. zones_cross_boards: whether same-colour cells of two
    neighbouring boards form one colour zone (false: a zone ends at its board's
    edge). Raises RuleError for a malformed part or two parts on one hex.
    """
    pieces = []
    for part in _items(st, parts):
        if not isinstance(part, list) or len(part) not in (3, 4) or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in part[1:]):
            raise RuleError(f"hex_layout: each part is [board, dq, dr] or [board, dq, dr, turns], "
                            f"not {display(part)}")
        name, dq, dr, turns = (part + [0])[:4]
        pieces.append((_board(st, name), name, dq, dr, turns % 6))
    try:
        return join_hex_boards(pieces, bool(zones_cross_boards))
    except ValueError as e:
        raise RuleError(f"hex_layout: {e}") from None


def flatten(st, xs):
    out, size, m = [], st.game.bounds.size, st.game.meter
    if xs.__class__ is list:    # _items inline: metered, no copy
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        items = xs
    else:
        items = _items(st, xs)
    for x in items:
        if len(out) > size:     # each part is within the limit already
            raise too_big("the length of a list", len(out), size, "size")
        if x.__class__ is list:     # _items inline: metered, no copy
            m[0] = walked = m[0] + len(x)
            if walked > m[1]:
                meter_check(m)
            out.extend(x)
        else:
            out.extend(_items(st, x))
    if len(out) > size:
        raise too_big("the length of a list", len(out), size, "size")
    return out


def node_boundary(st, board, cells):
    """node_boundary(board, cells): the nodes joined to any of `cells` (either
    direction) and not among them, as networkx's node_boundary, in a fixed order:
    first seen, taking `cells` in their order and each one's neighbours in the
    board's order. It is what `[c for c in unique(flatten([neighbours(board, x)
    for x in cells])) if c not in cells]` gives, without the lists between: the
    open frontier of a growing area (the empty cells next to the covered ones).

    board: a board's name or a layout (hex_layout); cells: a list of nodes or a
    map whose keys are nodes (a cell not on the board has no neighbours).
    Returns a list of nodes, the very list of the last call when asked again of
    the same board with the same list or map object: values are never changed
    in place (a store makes a new map), so the same object means the same cells,
    and a frontier is asked for at every turn but changes only when a cell is
    covered. The cells and the nodes returned are metered (_items), answered
    again or not. Raises RuleError for a cell that cannot be a node (a list, a map).
    """
    m = st.game.meter
    if cells.__class__ is dict:     # a map's keys, metered as _items meters them, without the list
        m[0] = walked = m[0] + len(cells)
        if walked > m[1]:
            meter_check(m)
        items = cells
    else:
        items = _items(st, cells)
    known = _layout_boards.get(id(board)) if board.__class__ is dict else None     # _board's first look
    graph = known[1] if known is not None and known[0] is board else _board(st, board)
    last = graph.last_boundary
    if last[0] is cells:    # the same cells as last asked of this board: the same answer
        out = last[1]
    else:
        try:
            out = graph.node_boundary(items, cells if cells.__class__ is dict else None)
        except TypeError:
            bad = next(x for x in items if isinstance(x, (list, dict)))
            raise RuleError(f"node_boundary: the cells are a board's nodes, not {display(bad)}") from None
        graph.last_boundary = (cells, out)
    m[0] = walked = m[0] + len(out)
    if walked > m[1]:
        meter_check(m)
    return out


def tally(st, xs):
    """tally(xs): how many times each item occurs in a list (a zone's cards, a
    map's keys), as a map item -> count, keys in the order first seen:
    tally(xs)[x] == occurrences(xs, x) for each x of xs, and keys(tally(xs)) ==
    unique(xs). Counting once beats asking occurrences per value: e.g. a hand's
    cards by colour, tally([c.colour for c in hand]), read for every colour.

    Returns a new map; the items are metered (_items). Raises RuleError for an
    item that cannot be a key (a list or a map).
    """
    if xs.__class__ is list:    # _items inline: metered, no copy
        m = st.game.meter
        m[0] = walked = m[0] + len(xs)
        if walked > m[1]:
            meter_check(m)
        items = xs
    else:   # a zone's cards (unmetered, as _items gives them) without their copy; a map's keys
        items = st.zones[xs] if xs.__class__ is Zone else _items(st, xs)
    counts = {}
    try:
        _count_elements(counts, items)     # C's loop of counts[x] = counts.get(x, 0) + 1
    except TypeError:
        bad = next(x for x in items if isinstance(x, (list, dict)))
        raise RuleError(f"tally: the items are counted as map keys, so none can be a list or "
                        f"a map, not {display(bad)}") from None
    return counts


def next_node(st, board, node):
    succ = _board(st, board).successors(node)
    return succ[0] if succ else None


def previous_node(st, board, node):
    pred = _board(st, board).predecessors(node)
    return pred[0] if pred else None


def log(st, message):
    """A line for the log, the trace and the people at the table."""
    text = display(message, st.game.player_names)
    st.note(text)
    if st.trace is not None:
        tell(st, "log", None, text)


FUNCTIONS = {
    "count": count, "sum": sum_, "max": max_, "min": min_,
    "abs": lambda st, x: abs(x),
    "all": all_, "any": any_,
    "range": range_,
    "sort": sort, "first": first, "last": last, "append": append, "remove": remove,
    "index_of": index_of,
    "reverse": reverse,
    "rotate": rotate, "unique": unique,
    "occurrences": occurrences, "tally": tally,
    "keys": lambda st, m: list(m),
    "get": get, "with_key": with_key,
    "text": text,
    "next_player": next_player, "previous_player": previous_player,
    "others": others, "clockwise_from": clockwise_from,
    "cards": lambda st, z: list(st.zones[z]),
    "top": top,
    "name": name, "kind": kind,     # (codegen inlines their usual case too)
    "has": has, "find": find, "one_of_each": one_of_each, "named": named, "where": where, "owner": owner,
    "shuffle": shuffle, "draw": draw, "move": move, "move_bottom": move_bottom,
    "move_named": move_named,
    "roll": roll, "random_of": random_of,
    "nodes": lambda st, b: _board(st, b).nodes(),
    "next_node": next_node, "previous_node": previous_node,
    "successors": lambda st, b, n: _board(st, b).successors(n),
    "neighbours": lambda st, b, n: _board(st, b).neighbours(n),
    "distance": lambda st, b, x, y: _board(st, b).distance(x, y),
    "node_attr": lambda st, b, n, key, default=None: _board(st, b).attr(n, key, default),
    "colour_zone": lambda st, b, cell: _board(st, b).colour_zone(cell),
    "colour_zones": lambda st, b, colour: _board(st, b).colour_zones(colour),
    "connected": lambda st, b, cells: _board(st, b).connected(_items(st, cells)),
    "node_boundary": node_boundary,
    "log": log,
    "hex_layout": hex_layout, "flatten": flatten,
}
