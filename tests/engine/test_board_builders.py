"""The fast paths of boards.py give what the general ones gave.

A layout joined in play is built in one pass (`Board.from_layout`), boards are
joined from cells turned once per board (`Board.hex_cells`), and colour zones
are found as they are asked for: each is checked here against the general
construction (`Board("layout", layout_decl(layout))`, the per-node join) and a
reference of the whole-board zone computation the engine used before, over
every region-board arrangement of random Castles set-ups and hand-made layouts.
"""
import random

import pytest

from interpreter.engine.boards import Board, join_hex_boards, layout_decl, turn_hex
from tests.paths import ROOT
from tests.shipped import shipped


def reference_zones(board: Board) -> dict:
    """Each cell -> its same-key connected component in board order (the engine's
    earlier whole-board computation, kept as the reference)."""
    key = {n: tuple(a.get(k) for k in board.zone_by) for n, a in board.attrs.items()}
    zone_of = {}
    for node in board.order:
        if board.attrs[node].get("colour") is None or node in zone_of:
            continue
        seen, todo = {node}, [node]
        while todo:
            for other in board.neighbours(todo.pop()):
                if other not in seen and board.attrs[other].get("colour") is not None \
                        and key[other] == key[node]:
                    seen.add(other)
                    todo.append(other)
        cells = sorted(seen, key=board.order.get)
        for cell in cells:
            zone_of[cell] = cells
    return zone_of


def reference_join(parts, joined):
    """join_hex_boards as it read each node's attributes, without hex_cells."""
    layout = {}
    for board, name, dq, dr, turns in parts:
        for node in board.nodes():
            q, r = turn_hex(board.attr(node, "q"), board.attr(node, "r"), turns)
            cell = f"{q + dq},{r + dr}"
            assert cell not in layout
            layout[cell] = {"colour": board.attr(node, "colour"), "board": name,
                            "q": q + dq, "r": r + dr}
            if joined:
                layout[cell]["joined"] = True
    return layout


def same_board(fast: Board, general: Board) -> None:
    assert fast.name == general.name
    assert list(fast.order.items()) == list(general.order.items())
    assert [list(a.items()) for a in fast.attrs.values()] == \
        [list(a.items()) for a in general.attrs.values()]
    assert {n: list(o) for n, o in fast._out.items()} == {n: list(o) for n, o in general._out.items()}
    assert fast.zone_by == general.zone_by
    for node in general.nodes():
        assert fast.successors(node) == general.successors(node)
        assert fast.predecessors(node) == general.predecessors(node)
        assert fast.neighbours(node) == general.neighbours(node)
    assert fast.nodes() == general.nodes()
    assert fast.to_dot() == general.to_dot()
    zones = reference_zones(general)
    for node in [*general.nodes(), "no such cell"]:
        assert fast.colour_zone(node) == general.colour_zone(node) == zones.get(node, [])
    for colour in {a.get("colour") for a in general.attrs.values()} | {None, "mauve"}:
        assert fast.colour_zones(colour) == general.colour_zones(colour)


@pytest.fixture(scope="module")
def castles():
    return shipped(str(ROOT / "games" / "castles.yaml"))


def test_joined_estates_match_the_general_construction(castles):
    boards, rnd = castles.boards, random.Random(7)
    letters = [[n for n in boards if n.startswith(f"region_{x}")] for x in "ABC"]
    for _ in range(300):
        parts, dr = [], 0
        for i, names in enumerate(rnd.sample(letters, 3)):
            dr += rnd.choice([-1, 0, 1]) if i else 0
            turns = rnd.choice([0, 3, rnd.randrange(12)])
            parts.append((boards[rnd.choice(names)], None, 2 * i, dr, turns))
        parts = [(b, b.name, dq, r, t) for b, _, dq, r, t in parts]
        joined = rnd.random() < 0.5
        try:
            layout = join_hex_boards(parts, joined)
        except ValueError:      # turned boards may overlap: the reference says so too
            with pytest.raises(AssertionError):
                reference_join([(b, n, dq, r, t % 6) for b, n, dq, r, t in parts], joined)
            continue
        assert list(layout.items()) == list(reference_join(
            [(b, n, dq, r, t % 6) for b, n, dq, r, t in parts], joined).items())
        same_board(Board.from_layout(layout), Board("layout", layout_decl(layout)))


def test_other_maps_take_the_general_path():
    cell = {"colour": "red", "board": "x", "q": 0, "r": 0}
    assert Board.from_layout({"1,0": cell}) is None            # a key not its own q and r
    assert Board.from_layout({"0,0": {**cell, "q": True}}) is None
    assert Board.from_layout({"0,0": 5}) is None
    empty = Board.from_layout({})
    same_board(empty, Board("layout", layout_decl({})))


def test_a_board_with_other_nodes_joins_node_by_node():
    board = Board("mixed", {"hex": [[0, 0, "red"]], "nodes": {"centre": {}}})
    assert board.hex_cells(0) is None
    with pytest.raises(ValueError, match="cells that are not hexes"):
        join_hex_boards([(board, "mixed", 0, 0)])


def test_zones_by_other_attributes_are_found_as_asked():
    board = Board("b", {"hex": [[0, 0, "red"], [1, 0, "red"], [2, 0, "red"], [0, 1, None]],
                        "nodes": {"0,0": {"land": "a"}, "1,0": {"land": "b"}, "2,0": {"land": "b"}},
                        "zone_by": ["colour", "land"]})
    assert board.colour_zone("2,0") == ["1,0", "2,0"]
    assert board.colour_zone("0,0") == ["0,0"]
    assert board.colour_zone("0,1") == []
    assert board.colour_zones("red") == [["0,0"], ["1,0", "2,0"]]
    assert reference_zones(board) == {"0,0": ["0,0"], "1,0": ["1,0", "2,0"], "2,0": ["1,0", "2,0"]}
