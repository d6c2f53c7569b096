"""`move_named(from, name, to, n)`: the first n cards of a name moved one by one,
in one call (a deal of a set of cards by name out of a box).

Compared, over random zones, names and counts, with the rules-language loop it
replaces, `for i in range(n): move(find(from, name), to)` (the builtins that loop
calls, in its order), and called from the rules language: the same zones in the
same order (the last card moved on top), the same locations, so a shuffle after
it draws the same. Where a card-by-card move checks
something per card (a zone's limit, explicit chance) the cards move one by one,
with the same error at the same card. Its own errors are rule errors.
"""
import random

import pytest

from interpreter.engine import functions as F
from interpreter.engine.compile import Compiler
from interpreter.engine.values import Zone
from rulespec import validate
from rulespec.builtins import EFFECTS, SIGNATURES
from rulespec.dsl import parse_expression
from rulespec.errors import RuleError
from rulespec.kinds import NONE
from tests.paths import ROOT
from tests.shipped import shipped



@pytest.fixture(scope="module")
def castles():
    return shipped(str(ROOT / "games" / "castles.yaml"))


def loop(st, src, nm, dst, n):
    """for i in range(n): move(find(src, nm), dst)"""
    for _ in F.FUNCTIONS["range"](st, n):
        F.FUNCTIONS["move"](st, F.FUNCTIONS["find"](st, src, nm), dst)


def ev(st, expr, **env):
    return Compiler(st.game, st.game.names).expr(parse_expression(expr), set(env))(st, dict(env))


def started(castles, seed):
    st = castles.new_state(3, seed=seed)
    F.move(st, st.zones[Zone("tile_box")][0], Zone("box"))   # the running rule is no scenario step
    return st


def outcome(st, how, src, nm, dst, n):
    try:
        if how == "loop":
            loop(st, src, nm, dst, n)
        elif how == "language":
            ev(st, "move_named(src, nm, dst, n)", src=src, nm=nm, dst=dst, n=n)
        else:
            F.move_named(st, src, nm, dst, n)
    except RuleError as e:
        return "error", str(e)
    return st.zones, st.loc


def test_it_leaves_the_zones_as_the_loop_of_moves(castles):
    rnd = random.Random(18)
    zones = [Zone(z) for z in ("tile_box", "box", "neutral_stacks", "neutral_out", "tile_pile@0",
                               "storage@1", "placed@2", "region_deck", "hand@1")]
    ran = 0
    for trial in range(300):
        base = started(castles, trial % 7)
        box = base.zones[Zone("tile_box")]
        rnd.shuffle(box)
        if trial % 3 == 0:      # names spread over other zones too
            for c in rnd.sample(box, 30):
                F.move(base, c, rnd.choice(zones[1:4]))
        src, dst = rnd.sample(zones, 2)
        held = base.zones[src]
        if not held:
            continue
        nm = base.game.cards[rnd.choice(held)]["name"]
        have = sum(1 for c in held if base.game.cards[c]["name"] == nm)
        n = rnd.randrange(have + 1)
        slow, one, language = base.clone(), base.clone(), base.clone()
        want = outcome(slow, "loop", src, nm, dst, n)
        assert outcome(one, "call", src, nm, dst, n) == want, (src, nm, dst, n)
        assert outcome(language, "language", src, nm, dst, n) == want
        # the same shuffle after it
        for st in (slow, one):
            F.shuffle(st, dst)
        assert slow.zones == one.zones and slow.rng == one.rng
        ran += 1
    assert ran > 120


def test_the_slice_path_runs_and_cards_apart_move_alike(castles):
    st = started(castles, 1)
    box = st.zones[Zone("tile_box")]
    held = list(box)
    apart = [c for c in held if c.startswith("city")][:3]
    F.move(st, apart[1], Zone("box"))
    F.move(st, apart[1], Zone("tile_box"))     # now on top, the other two further down
    assert F._named_at_once(st.clone(), list(box), [apart[0]], Zone("tile_box"), Zone("box"))
    slow = st.clone()
    assert outcome(st, "call", Zone("tile_box"), "city", Zone("box"), 3) == \
        outcome(slow, "loop", Zone("tile_box"), "city", Zone("box"), 3)


def test_a_zone_limit_stops_at_the_same_card(castles):
    for before in (0, 5, 7, 8):
        st = started(castles, 2)
        F.draw(st, Zone("neutral_stacks"), Zone("display"), before) if before else None
        for n in (1, 2, 3, 4):
            one, slow = st.clone(), st.clone()
            assert outcome(one, "call", Zone("tile_box"), "castle", Zone("display"), n) == \
                outcome(slow, "loop", Zone("tile_box"), "castle", Zone("display"), n)


def test_explicit_chance_sees_the_moves_one_by_one(castles):
    """A state with explicit chance: the same zones and unordered groups as the loop."""
    st = castles.new_state(2, seed=3, chance="explicit")
    pile = Zone("neutral_stacks")
    assert any(st.explicit.group.get(c) for c in st.zones[pile])     # a shuffled group
    for dst in (Zone("neutral_out"), Zone("box")):
        one, slow = st.clone(), st.clone()
        nm = st.game.cards[st.zones[pile][3]]["name"]
        assert outcome(one, "call", pile, nm, dst, 2) == outcome(slow, "loop", pile, nm, dst, 2)
        assert one.explicit.group == slow.explicit.group


def test_onto_its_own_zone_each_card_goes_on_top(castles):
    st = started(castles, 4)
    box = Zone("tile_box")
    first = [c for c in st.zones[box] if c.startswith("inn")][:3]
    F.move_named(st, box, "inn", box, 3)
    assert st.zones[box][:3] == first[::-1]


def test_errors_are_rule_errors_before_any_card_moves(castles):
    st = started(castles, 5)
    box, out = Zone("tile_box"), Zone("neutral_out")
    before = {z: list(c) for z, c in st.zones.items()}
    have = sum(1 for c in st.zones[box] if c.startswith("castle#"))
    with pytest.raises(RuleError, match=f"move_named: tile_box holds {have} cards called castle, not 99"):
        F.move_named(st, box, "castle", out, 99)
    with pytest.raises(RuleError, match="move_named: tile_box holds 0 cards called no_such_card, not 1"):
        F.move_named(st, box, "no_such_card", out)
    with pytest.raises(RuleError, match=r"move_named: tile_box holds 0 cards called \[1\], not 1"):
        F.move_named(st, box, [1], out)
    for n in (-1, 1.5, True, "2", None):
        with pytest.raises(RuleError, match="move_named: n is a number of cards, 0 or more, not"):
            F.move_named(st, box, "castle", out, n)
    with pytest.raises(RuleError, match="move_named: expected a zone, got 5"):
        F.move_named(st, 5, "castle", out)
    with pytest.raises(RuleError, match="move_named: expected a zone, got castle"):
        F.move_named(st, box, "castle", "castle")
    assert {z: list(c) for z, c in st.zones.items()} == before
    F.move_named(st, box, "castle", out, 0)
    assert {z: list(c) for z, c in st.zones.items()} == before


def test_it_is_declared_with_its_kinds():
    """An effect with a signature and kinds, as the other zone builtins."""
    from rulespec.kinds import BUILTINS, NUMBER, TEXT, ZONE
    assert SIGNATURES["move_named"][:2] == (3, 4) and "move_named" in EFFECTS
    args, result = BUILTINS["move_named"]
    assert args == (ZONE, TEXT, ZONE, NUMBER) and result([], {}) == NONE
    validate(ROOT / "games" / "castles.yaml")      # (its deal calls it)


def test_a_scenario_step_moves_card_by_card(castles):
    """In a scenario step each card is checked as move checks it: a card taken out of
    a player's hidden zone without out_of is the same error."""
    st = started(castles, 6)
    st.stack[-1].proc = "scenario:test step"
    pile = Zone("stack1@0")
    nm = st.game.cards[st.zones[pile][0]]["name"]
    one, slow = st.clone(), st.clone()
    got = outcome(one, "call", pile, nm, Zone("box"), 1)
    assert got[0] == "error" and "hidden stack1" in got[1]
    assert got == outcome(slow, "loop", pile, nm, Zone("box"), 1)
    assert outcome(st.clone(), "call", Zone("tile_box"), "inn", Zone("box"), 2) == \
        outcome(st.clone(), "loop", Zone("tile_box"), "inn", Zone("box"), 2)
