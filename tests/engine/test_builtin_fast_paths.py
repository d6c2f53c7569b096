"""The builtins' usual cases (functions.py) give what their general forms gave.

Each hot builtin handles its usual case without further calls: find scans a long
zone in C, move of one card goes straight to its zone, count/occurrences/unique/
flatten/all/any meter a list inline, range and max/min of two values skip helpers.
Here each is compared with its general form (the definitions the engine had,
written out) on random values: same result, same items metered, same errors.
"""
import random

import pytest

from interpreter.engine import functions as F
from interpreter.engine.values import Seat, Zone, display
from rulespec.errors import RuleError, RulespecError
from tests.paths import ROOT
from tests.shipped import shipped


@pytest.fixture(scope="module")
def game():
    return shipped(str(ROOT / "games" / "castles.yaml"))


def reference_find(st, zone, name):
    for c in st.zones[zone]:
        if st.game.cards[c]["name"] == name:
            return c
    return None


def test_find_is_the_first_card_of_the_name_from_the_top(game):
    st, rnd = game.new_state(4, seed=3), random.Random(3)
    names = sorted(game.cards_by_name) + ["no_such_card", 5, None, Zone("castle")]
    box = Zone("tile_box")
    for _ in range(200):
        rnd.shuffle(st.zones[box])
        for name in names:
            assert F.find(st, box, name) == reference_find(st, box, name)
        assert F.has(st, box, "castle") == (reference_find(st, box, "castle") is not None)
    for zone in st.zones:       # short zones, empty ones, players' zones
        for name in names:
            assert F.find(st, zone, name) == reference_find(st, zone, name)


def metered(st, fn, *args):
    before = st.game.meter[0]
    try:
        result = fn(st, *args)
    except (RulespecError, TypeError) as e:      # the same error, word for word
        result = (type(e), str(e))
    return result, st.game.meter[0] - before


def test_list_builtins_meter_and_answer_as_through_items(game):
    st, rnd = game.new_state(2, seed=1), random.Random(1)
    general = {
        F.count: lambda st, x: len(F._items(st, x)),
        F.occurrences: lambda st, xs, x: F._items(st, xs).count(x),
        F.unique: lambda st, xs: list(dict.fromkeys(F._items(st, xs))),
        F.all_: lambda st, xs: all(F._items(st, xs)),
        F.any_: lambda st, xs: any(F._items(st, xs)),
        F.append: lambda st, xs, x: F._sized(st, F._items(st, xs) + [x]),
        F.first: lambda st, xs: (lambda items: items[0] if items else None)(F._items(st, xs)),
        F.last: lambda st, xs: (lambda items: items[-1] if items else None)(F._items(st, xs)),
        F.index_of: lambda st, xs, x: (lambda items: items.index(x) if x in items else None)(
            F._items(st, xs)),
    }
    values = [[], [0], [1, 1, 2], [True, 0, None], [[1], [1]], {"a": 1, "b": 0},
              Zone("display"), Zone("hand@1"), 7]
    for _ in range(50):
        values.append([rnd.randrange(4) for _ in range(rnd.randrange(12))])
    for fast, slow in general.items():
        for x in values:
            args = (x, 1) if fast in (F.occurrences, F.append, F.index_of) else (x,)
            assert metered(st, fast, *args) == metered(st, slow, *args), (fast, x)


def reference_flatten(st, xs):
    out = []
    for x in F._items(st, xs):
        F._sized(st, out).extend(F._items(st, x))
    F._sized(st, out)
    return out


def test_a_list_at_the_size_limit_is_refused_in_the_same_words(game):
    st = game.new_state(2, seed=1)
    size = game.bounds.size
    full = [0] * size
    assert metered(st, F.append, full, 1) == metered(
        st, lambda st, xs, x: F._sized(st, F._items(st, xs) + [x]), full, 1)
    assert metered(st, F.flatten, [full, [1]]) == metered(st, reference_flatten, [full, [1]])
    assert "over the limit of" in metered(st, F.append, full, 1)[0][1]


def test_flatten_as_through_items(game):
    st = game.new_state(2, seed=1)
    for xs in ([], [[1, 2], [], [3]], [[1], Zone("display")], [{"a": 1}, [2]], [[1], 5], 5):
        assert metered(st, F.flatten, xs) == metered(st, reference_flatten, xs)


def reference_extreme(pick, st, args, by):
    items = F._items(st, args[0]) if len(args) == 1 else list(args)
    items = [i for i in items if i is not None] if by is None else items
    if not items:
        return None
    return pick(items, key=by) if by else pick(items)


def test_max_min_and_range_as_before(game):
    st = game.new_state(2, seed=1)
    cases = [(1, 2), (2, 1), (None, 3), (3, None), (None, None), ([4, None, 7],), ([],),
             ([None],), (1, 2, 3), ([2, 5, 5],), (1, "a"), ("b", "a"), ([1, "a"],), ([[2], [1, 3]],),
             ([Seat(2), Seat(0)],), ({"a": 1, "b": 2},), (Zone("display"),), (7,)]
    for args in cases:
        for fast, pick in ((F.max_, max), (F.min_, min)):
            assert metered(st, fast, *args) == metered(
                st, lambda st, *a, pick=pick: reference_extreme(pick, st, a, None), *args)
    for args in [(5,), (2, 6), (6, 2), (0,), (-3,), (True,), (1.5,), ("a",), (None, 3), (10**9,)]:
        slow = (lambda st, a, b=None: F.int_range(st, 0, a) if b is None else F.int_range(st, a, b))
        assert metered(st, F.range_, *args) == metered(st, slow, *args)


def test_moving_one_card_and_a_list_as_before(game):
    st = game.new_state(2, seed=2)
    hand, discard = Zone("hand@0"), Zone("region_discard")
    first, second = st.zones[hand][:2]
    F.move(st, first, discard)
    assert st.zones[discard][0] == first and st.loc[first] == discard
    F.move_bottom(st, second, discard)
    assert st.zones[discard][-1] == second and second not in st.zones[hand]
    F.move(st, [first, second], hand)       # a list lands in its order, on top
    assert st.zones[hand][:2] == [first, second]
    with pytest.raises(RuleError, match="is not in region_discard"):
        F.move(st, first, hand, out_of=discard)
    with pytest.raises(RuleError, match="nothing is not a card"):
        F.move(st, "nothing", hand)
    display = Zone("display")
    F.draw(st, Zone("neutral_stacks"), display, 8)
    with pytest.raises(RuleError, match="zone display would hold 9 cards, over its limit of 8"):
        F.move(st, st.zones[Zone("neutral_stacks")][0], display)


def test_name_kind_and_text_as_before(game):
    st = game.new_state(2, seed=1)
    card = next(iter(game.cards))
    for x in [card, "no_such_card", 5, None, [1], Seat(1), Zone("display")]:
        for fast, field in ((F.name, "name"), (F.kind, "kind")):
            assert metered(st, fast, x) == metered(st, lambda st, c, f=field: F._card(st, c)[f], x)
        assert metered(st, F.text, x) == metered(st, lambda st, v: display(v, game.player_names), x)


def test_drawing_several_cards_at_once_as_one_by_one(game):
    """draw(src, dst, n) moves the top n in one slice where nothing can differ:
    the zones, locations and the cards returned are those of n single draws."""
    def one_by_one(st, src, dst, n):
        drawn = []
        for _ in range(n):
            card = st.zones[src][0]
            F._move_one(st, card, dst, False)
            drawn.append(card)
        return drawn
    for n in (1, 2, 5, 7):     # (the display holds 8)
        fast, slow = game.new_state(3, seed=n), game.new_state(3, seed=n)
        src, dst = Zone("tile_box"), Zone("display")
        F.draw(fast, src, dst, 1)   # a first move tells that the running rule is no scenario step
        one_by_one(slow, src, dst, 1)
        assert F._draw_at_once(fast.clone(), src, dst, n) is not None     # (the fast path runs)
        assert F.draw(fast, src, dst, n) == one_by_one(slow, src, dst, n)
        assert fast.zones == slow.zones and fast.loc == slow.loc
    st = game.new_state(3, seed=1)
    F.draw(st, Zone("neutral_stacks"), Zone("display"), 8)
    with pytest.raises(RuleError, match="zone display would hold 9 cards, over its limit of 8"):
        F.draw(st, Zone("neutral_stacks"), Zone("display"), 1)
    before = list(st.zones[Zone("neutral_stacks")])
    F.draw(st, Zone("neutral_stacks"), Zone("neutral_stacks"), 3)    # onto itself: no change
    assert st.zones[Zone("neutral_stacks")] == before


def test_a_whole_zone_moves_as_card_by_card(game, monkeypatch):
    """move of a zone's every card, in its order (_move_whole: one slice), leaves the
    zones, and says a limit's error, as _put's card-by-card move does."""
    def outcome(whole, zone_cards, src, dst, limit_cards=0):
        monkeypatch.setattr(F, "WHOLE_ZONE", 16 if whole else 10**9)
        st = game.new_state(3, seed=4)
        F.move(st, F._items(st, Zone("tile_box"))[:limit_cards], Zone("display"))
        moving = zone_cards(st, src)
        before = list(moving)
        try:
            F.move(st, moving, dst)
        except RuleError as e:
            return "error", str(e)
        finally:
            monkeypatch.undo()
        return st.zones, st.loc, before
    box, stacks, display = Zone("tile_box"), Zone("neutral_stacks"), Zone("display")
    cases = [
        (lambda st, z: list(st.zones[z]), box, stacks, 0),          # the whole zone, in order
        (lambda st, z: st.zones[z], box, stacks, 0),                # the zone's own list
        (lambda st, z: list(st.zones[z])[::-1], box, stacks, 0),    # another order: card by card
        (lambda st, z: list(st.zones[z])[1:], box, stacks, 0),      # not all of it
        (lambda st, z: list(st.zones[z]), box, box, 0),             # onto itself
        (lambda st, z: list(st.zones[z]), box, display, 0),         # over the display's limit
        (lambda st, z: list(st.zones[z]), stacks, box, 0),          # an empty zone
    ]
    for zone_cards, src, dst, limit_cards in cases:
        assert outcome(True, zone_cards, src, dst, limit_cards) == outcome(False, zone_cards, src, dst, limit_cards)
    monkeypatch.setattr(F, "WHOLE_ZONE", 16)
    st = game.new_state(3, seed=4)
    F.move(st, F._items(st, box)[:1], display)    # a first move tells that the rule is no scenario step
    assert F._move_whole(st.clone(), list(st.zones[box]), stacks)   # (the fast path runs)


def test_sort_keys_as_item_by_item():
    """values.sort_key's plain items without a call each: the keys the general form made."""
    from interpreter.engine.values import sort_key as _key

    def general(value):
        if isinstance(value, list):
            return tuple(general(v) for v in value)
        return (0, 0) if value is None else (1, value)
    for value in ([3, None, "a"], [[1, None], 2], [Seat(1), True, 2.5, Zone("display")], [], 4, None,
                  [[[]]], ["x", [None, [1]]]):
        assert _key(value) == general(value)
