"""Builtins that say in one call what a spec otherwise writes as a walk per value:
`node_boundary` (the cells next to a set of cells), `tally` (items counted once)
and `one_of_each` (the first card of each name).

Each is compared, over random boards, cell sets and zones, with the rules-language
expression it replaces, evaluated by the engine itself: same values, same order.
Their errors are rule errors, and what they walk is metered.
"""
import random

import pytest

from interpreter import load_game
from interpreter.engine import functions as F
from interpreter.engine.boards import Board
from interpreter.engine.compile import Compiler
from interpreter.engine.values import Zone
from rulespec.dsl import parse_expression
from rulespec.errors import RuleError
from rulespec import validate
from rulespec.builtins import SIGNATURES
from rulespec.kinds import CARD, CELL, NUMBER, TEXT, list_of, map_of
from tests.paths import ROOT
from tests.shipped import shipped

BOUNDARY = "[c for c in unique(flatten([neighbours(b, x) for x in cells])) if c not in cells]"
ONE_OF_EACH = "[find(zone, n) for n in unique([name(t) for t in zone])]"

GRAPHS = """
game: Graphs
players: {min: 1, max: 2}
boards:
  loop: {ring: [a, b, c, d, e, f]}
  line: {path: [p, q, r, s]}
  web:
    nodes: {hub: {}, x: {}, y: {}, z: {}, lone: {}}
    edges: [[hub, x], [y, hub], [x, y], [z, x]]
  mesh:
    undirected: true
    edges: [[m1, m2], [m2, m3], [m3, m1], [m3, m4]]
  field:
    hex: [[0, 0, red], [0, 1, red], [1, 0, blue], [1, 1, green], [2, 0, blue], [2, -1, red],
          [0, 2, green], [-1, 1, blue]]
flow: |
  end game "done"
"""


@pytest.fixture(scope="module")
def castles():
    return shipped(str(ROOT / "games" / "castles.yaml"))


@pytest.fixture(scope="module")
def graphs():
    return load_game("graphs.yaml", text=GRAPHS)


def ev(st, expr, **env):
    """A rules-language expression evaluated by the engine, its free names bound from env."""
    return Compiler(st.game, st.game.names).expr(parse_expression(expr), set(env))(st, dict(env))


def random_cells(rnd, nodes):
    cells = rnd.sample(nodes, rnd.randrange(len(nodes) + 1))
    if rnd.random() < 0.3:
        cells.append("not_a_node")
    if cells and rnd.random() < 0.3:
        cells.append(rnd.choice(cells))     # a repeat
    return cells


def estates(castles, rnd, n):
    """Layouts as Castles joins them: three region boards, turned and offset at random."""
    st = castles.new_state(2, seed=1)
    letters = [[b for b in castles.boards if b.startswith(f"region_{x}")] for x in "ABC"]
    out = []
    while len(out) < n:
        dr, parts = 0, []
        for i, names in enumerate(letters):
            dr += rnd.choice([-1, 0, 1]) if i else 0
            parts.append([rnd.choice(names), 2 * i + 1, dr + 4, 3] if rnd.random() < 0.5
                         else [rnd.choice(names), 2 * i, dr])
        try:
            out.append(F.hex_layout(st, parts, zones_cross_boards=rnd.random() < 0.5))
        except RuleError:       # turned boards may overlap
            pass
    return st, out


def test_node_boundary_is_the_frontier_expression_on_joined_estates(castles):
    rnd = random.Random(18)
    st, layouts = estates(castles, rnd, 60)
    for layout in layouts:
        nodes = list(layout)
        for _ in range(20):
            cells = random_cells(rnd, nodes)
            covered = dict.fromkeys(cells, "tile")     # a map's keys, as p.covered
            for given in (cells, covered):
                want = ev(st, BOUNDARY, b=layout, cells=given)
                assert ev(st, "node_boundary(b, cells)", b=layout, cells=given) == want
                assert F.node_boundary(st, layout, given) == want


def test_node_boundary_is_the_expression_on_every_kind_of_board(graphs):
    st, rnd = graphs.new_state(1, seed=1), random.Random(5)
    for name, board in graphs.boards.items():
        nodes = board.nodes()
        for _ in range(100):
            cells = random_cells(rnd, nodes)
            want = ev(st, BOUNDARY, b=name, cells=cells)
            assert ev(st, "node_boundary(b, cells)", b=name, cells=cells) == want, (name, cells)


def test_node_boundary_reads_neighbours_either_way_in_board_order(graphs):
    st = graphs.new_state(1, seed=1)
    assert F.node_boundary(st, "loop", ["a"]) == ["b", "f"]          # successor and predecessor
    assert F.node_boundary(st, "loop", ["c", "a", "b"]) == ["d", "f"]
    assert F.node_boundary(st, "web", ["x"]) == ["hub", "y", "z"]
    assert F.node_boundary(st, "web", ["lone"]) == []
    assert F.node_boundary(st, "line", []) == []
    # 0,0 first (its neighbours in board order), then what 1,0 adds
    assert F.node_boundary(st, "field", ["0,0", "1,0"]) == ["0,1", "-1,1", "1,1", "2,0", "2,-1"]
    board = Board("g", {"edges": [["u", "v"], ["w", "u"]]})
    assert board.node_boundary(["u"]) == ["v", "w"]
    assert board.node_boundary(["u", "w"], members={"u", "w"}) == ["v"]


def test_node_boundary_meters_the_cells_and_the_answer(graphs):
    st = graphs.new_state(1, seed=1)
    before = st.game.meter[0]
    out = F.node_boundary(st, "loop", ["a", "c"])
    assert st.game.meter[0] - before == 2 + len(out)


def test_node_boundary_errors_are_rule_errors(graphs):
    st = graphs.new_state(1, seed=1)
    with pytest.raises(RuleError, match=r"node_boundary: the cells are a board's nodes, not \[1\]"):
        F.node_boundary(st, "loop", ["a", [1]])
    with pytest.raises(RuleError, match="is not a board"):
        F.node_boundary(st, "no_board", ["a"])
    with pytest.raises(RuleError, match="expected a list or a zone"):
        F.node_boundary(st, "loop", 5)


def test_tally_counts_as_occurrences_and_keeps_unique_order(castles):
    st, rnd = castles.new_state(3, seed=2), random.Random(2)
    values = [[], ["a"], [True, 1, 0, None], {"x": 3, "y": 0}, Zone("display"), Zone("hand@1")]
    values += [[rnd.choice("abcde") for _ in range(rnd.randrange(15))] for _ in range(100)]
    values += [[rnd.randrange(4) for _ in range(rnd.randrange(15))] for _ in range(50)]
    for xs in values:
        counts = F.tally(st, xs)
        assert list(counts) == F.unique(st, xs)
        assert all(counts[x] == F.occurrences(st, xs, x) for x in counts)
        assert counts.__class__ is dict
        assert ev(st, "tally(xs)", xs=xs) == counts
    colours = ev(st, "tally([c.colour for c in players[1].hand])")
    assert sum(colours.values()) == len(st.zones[Zone("hand@1")])


def test_tally_meters_its_items_and_refuses_unkeyable_items(castles):
    st = castles.new_state(2, seed=1)
    before = st.game.meter[0]
    F.tally(st, [1, 2, 2])
    assert st.game.meter[0] - before == 3
    with pytest.raises(RuleError, match=r"tally: .* not \[1\]"):
        F.tally(st, ["a", [1]])
    with pytest.raises(RuleError, match="expected a list or a zone"):
        F.tally(st, 7)


def test_one_of_each_is_the_first_card_of_each_name(castles):
    st, rnd = castles.new_state(4, seed=3), random.Random(3)
    box = Zone("tile_box")
    for _ in range(100):
        rnd.shuffle(st.zones[box])
        zone = rnd.choice([box, Zone("display"), Zone("storage@0"), Zone("hand@2"), Zone("box")])
        want = ev(st, ONE_OF_EACH, zone=zone)
        assert F.one_of_each(st, zone) == want
        assert ev(st, "one_of_each(zone)", zone=zone) == want
        cards = list(st.zones[zone])
        assert F.one_of_each(st, cards) == want      # a list of cards: the same
    with pytest.raises(RuleError, match="castle is not a card"):
        F.one_of_each(st, ["castle"])
    with pytest.raises(RuleError, match="is not a card"):
        F.one_of_each(st, [[1]])


def test_node_boundary_answers_the_same_cells_again_from_its_last_answer(castles):
    """Asked again of the same board with the very same map (values are never changed
    in place), node_boundary gives its last answer, metered again; a new map with
    the same cells is worked out afresh, to the same answer."""
    st, layouts = estates(castles, random.Random(6), 3)
    for layout in layouts:
        covered = dict.fromkeys(list(layout)[:5], "tile")
        first = F.node_boundary(st, layout, covered)
        before = st.game.meter[0]
        assert F.node_boundary(st, layout, covered) is first
        assert st.game.meter[0] - before == len(covered) + len(first)
        again = F.node_boundary(st, layout, dict(covered))
        assert again == first and again is not first
        more = {**covered, first[0]: "tile"}
        assert F.node_boundary(st, layout, more) == ev(st, BOUNDARY, b=layout, cells=list(more))


def test_the_checker_knows_their_kinds():
    """Declared with kinds (rulespec/kinds.py), so the checker, the generated code's
    fast paths and the language server's hover know what each one gives."""
    kinds = validate(ROOT / "games" / "castles.yaml").kinds.results
    assert kinds[("functions", "frontier")] == list_of(CELL)               # node_boundary
    assert kinds[("functions", "held_colours")] == map_of(TEXT, NUMBER)    # tally
    assert kinds[("functions", "distinct_tiles")] == list_of(CARD)         # one_of_each
    assert all(name in SIGNATURES for name in ("node_boundary", "tally", "one_of_each"))


def test_their_usual_cases_meter_as_through_items(castles):
    """A list, a zone and a map are walked without a copy, and metered as _items meters
    them (a list's items and a map's keys; a zone's cards are not metered)."""
    st = castles.new_state(3, seed=4)
    layout = st.pv["estate"][0] or F.hex_layout(st, [["region_A1", 0, 0]])
    general = {
        F.tally: lambda st, xs: F.tally(st, list(F._items(st, xs))),
        F.one_of_each: lambda st, xs: F.one_of_each(st, list(F._items(st, xs))),
    }
    for xs in ([], ["a", "b", "a"], {"x": 1, "y": 2}, Zone("tile_box"), Zone("hand@1")):
        for fast, slow in general.items():
            if fast is F.one_of_each and xs and not isinstance(xs, Zone):
                continue    # (not cards)
            before = st.game.meter[0]
            got = fast(st, xs)
            walked = st.game.meter[0] - before
            assert got == slow(st, xs)
            assert walked == (0 if isinstance(xs, Zone) else len(xs))
    covered = dict.fromkeys(list(layout)[:4], "tile")
    before = st.game.meter[0]
    out = F.node_boundary(st, layout, covered)
    assert st.game.meter[0] - before == len(covered) + len(out)
    assert out == F.node_boundary(st, layout, list(covered))
