"""Hex boards joined during play: `hex_layout`, board queries on a layout,
`flatten`, and drawing a seat's layout as DOT (interpreter/tools/render.py).

A layout is a plain map "q,r" -> {colour, board, q, r} held in the state, so
each player can own a board put together at set-up from static parts.
"""
import pytest

from interpreter import load_game
from rulespec.errors import RulespecError
from interpreter.tools.render import board_dot, is_layout, layout_dot

SPEC = """
game: Joined Boards
players: {min: 1, max: 2}
boards:
  left:
    hex: [[0, 0, green], [0, 1, green], [1, 0, red], [1, 1, red]]
  right:
    hex: [[0, 0, red], [0, 1, blue]]
per_player:
  land: {start: {}}
  built: {start: {}}
globals:
  parts: {start: []}
flow: |
  for p in players:
      p.land = hex_layout(parts)
  if count(players[0].land) > 0:
      spot = choose one of nodes(players[0].land) by players[0]
      players[0].built = with_key(players[0].built, spot, "tower")
  end game "done"
"""


def new_state(parts, players=1):
    game = load_game("joined.yaml", text=SPEC.replace("start: []", f"start: {parts}"))
    return game, game.new_state(players, seed=1)


def ev(state, expr):
    """Evaluate a DSL expression on a state (through a tiny compiled function)."""
    from rulespec.dsl import parse_expression
    from interpreter.engine.compile import Compiler
    compiler = Compiler(state.game, state.game.names)
    return compiler.expr(parse_expression(expr), set())(state, {})


def test_parts_are_shifted_and_joined():
    _, st = new_state("[[left, 0, 0], [right, 2, -1]]")
    land = st.pv["land"][0]
    assert list(land) == ["0,0", "0,1", "1,0", "1,1", "2,-1", "2,0"]
    assert land["2,-1"] == {"colour": "red", "board": "right", "q": 2, "r": -1}
    assert is_layout(land)


def test_neighbours_cross_from_one_part_to_the_next():
    _, st = new_state("[[left, 0, 0], [right, 2, -1]]")
    # (1,0) touches (2,-1) and (2,0) across the join; (0,0) touches neither
    assert ev(st, 'neighbours(players[0].land, "1,0")') == ["0,0", "0,1", "1,1", "2,-1", "2,0"]
    assert "2,-1" not in ev(st, 'neighbours(players[0].land, "0,0")')


def test_a_colour_zone_stays_within_its_part():
    _, st = new_state("[[left, 0, 0], [right, 2, -1]]")
    # red (1,0),(1,1) on `left` touch red (2,-1) on `right`, yet the zones stay apart
    assert ev(st, 'colour_zone(players[0].land, "1,0")') == ["1,0", "1,1"]
    assert ev(st, 'colour_zone(players[0].land, "2,-1")') == ["2,-1"]
    assert ev(st, 'colour_zones(players[0].land, "red")') == [["1,0", "1,1"], ["2,-1"]]
    assert ev(st, 'node_attr(players[0].land, "2,0", "colour")') == "blue"


def test_a_static_board_still_zones_by_colour_alone():
    _, st = new_state("[[left, 0, 0]]")
    assert ev(st, 'colour_zone(left, "1,0")') == ["1,0", "1,1"]


def test_overlapping_parts_are_an_error_naming_the_hex():
    with pytest.raises(RulespecError, match="would both cover hex 1,0"):
        new_state("[[left, 0, 0], [right, 1, 0]]")


def test_a_part_must_be_board_dq_dr():
    with pytest.raises(RulespecError, match=r"each part is \[board, dq, dr\]"):
        new_state("[[left, 0]]")


def test_a_layout_survives_save_and_load():
    game, st = new_state("[[left, 0, 0], [right, 2, -1]]")
    again = game.state_from_json(st.to_json())
    assert again.pv["land"] == st.pv["land"]
    assert ev(again, 'colour_zone(players[0].land, "0,1")') == ["0,0", "0,1"]


def test_flatten_joins_lists():
    _, st = new_state("[[left, 0, 0]]")
    assert ev(st, "flatten([[1, 2], [], [3]])") == [1, 2, 3]
    assert ev(st, "flatten([[x, x] for x in [1, 2]])") == [1, 1, 2, 2]


def test_board_dot_draws_the_seat_layout_with_what_covers_it():
    game, st = new_state("[[left, 0, 0], [right, 2, -1]]", players=2)
    st.apply("1,1")
    dot = board_dot(st, seat=0)
    assert dot.startswith('graph "Joined Boards: P1\'s land"')
    assert dot.count('" [label=') == 6
    assert 'fillcolor="green"' in dot and 'fillcolor="white"' not in dot
    assert "tower" in dot.split('"1,1" [label=')[1].split("]")[0]
    assert '"1,0" -- "1,1" [penwidth=3]' in dot          # same zone: bold
    assert '"1,1" -- "2,0" [style=dotted]' in dot        # across a zone border
    assert board_dot(game, seat=1, players=2).count('" [label=') == 6


def test_board_dot_without_a_layout_says_so():
    game, st = new_state("[]")
    with pytest.raises(ValueError, match="no per-player variable holds a hex layout"):
        board_dot(game)
    with pytest.raises(ValueError, match="no seat 5"):
        board_dot(st, seat=5)


def test_layout_dot_unknown_colours_draw_white():
    dot = layout_dot({"0,0": {"colour": "mauve_ish", "board": "x", "q": 0, "r": 0}})
    assert 'fillcolor="white"' in dot


def test_connected_asks_whether_cells_form_one_group():
    _, st = new_state("[[left, 0, 0], [right, 2, -1]]")
    assert ev(st, 'connected(players[0].land, ["0,0", "1,0", "2,-1"])') is True   # across the join
    assert ev(st, 'connected(players[0].land, ["0,0", "2,0"])') is False
    assert ev(st, 'connected(players[0].land, [])') is True
    assert ev(st, 'connected(left, ["0,0", "0,1", "1,1"])') is True   # static boards too


def test_a_cell_of_a_layout_reads_by_attribute_in_a_checked_spec():
    game = load_game("joined.yaml", text=SPEC.replace("start: []", "start: [[left, 0, 0], [right, 2, -1]]")
                     .replace('end game "done"', 'players[0].built = with_key(players[0].built, "b", '
                              'players[0].land["2,0"].board + " " + text(players[0].land["2,0"].q))\n'
                              '  end game "done"'))
    st = game.new_state(1, seed=1)
    st.apply("0,0")
    assert st.pv["built"][0]["b"] == "right 2"


def test_a_cell_attribute_named_like_a_player_variable_reads_the_cell():
    # `board` is also each player's variable here: on a cell it is the cell's board
    text = (SPEC.replace("start: []", "start: [[left, 0, 0], [right, 2, -1]]")
            .replace("per_player:\n", "per_player:\n  board: {start: 7}\n")
            .replace('end game "done"', 'players[0].built = with_key(players[0].built, "b", '
                     'players[0].land["2,0"].board + " " + text(players[0].board))\n'
                     '  end game "done"'))
    st = load_game("joined.yaml", text=text).new_state(1, seed=1)
    st.apply("0,0")
    assert st.pv["built"][0]["b"] == "right 7"


def test_a_turned_part_keeps_its_cells_turned_60_degrees_a_time():
    # (q, r) -> (-r, q + r) per clockwise turn; three turns are a half turn: (q, r) -> (-q, -r)
    _, st = new_state("[[left, 0, 0, 3]]")
    land = st.pv["land"][0]
    assert {c: (v["q"], v["r"], v["colour"]) for c, v in land.items()} == {
        "0,0": (0, 0, "green"), "0,-1": (0, -1, "green"), "-1,0": (-1, 0, "red"), "-1,-1": (-1, -1, "red")}
    _, st = new_state("[[left, 0, 0, 1]]")
    assert st.pv["land"][0]["-1,1"]["colour"] == "green"      # (0,1) turned once
    _, st = new_state("[[left, 0, 0, 6]]")                    # a full turn is no turn
    assert set(st.pv["land"][0]) == {"0,0", "0,1", "1,0", "1,1"}


def test_colour_zones_end_at_a_part_unless_zones_cross_boards():
    # left's red 1,0 and 1,1 touch right's red 2,-1 (shifted from right's 0,0)
    _, st = new_state("[[left, 0, 0], [right, 2, -1]]")
    assert sorted(ev(st, 'colour_zone(players[0].land, "1,0")')) == ["1,0", "1,1"]
    game = load_game("joined.yaml", text=SPEC.replace(
        "p.land = hex_layout(parts)", "p.land = hex_layout(parts, zones_cross_boards=true)").replace(
        "start: []", "start: [[left, 0, 0], [right, 2, -1]]"))
    st = game.new_state(1, seed=1)
    assert sorted(ev(st, 'colour_zone(players[0].land, "1,0")')) == ["1,0", "1,1", "2,-1"]


def test_a_malformed_part_is_a_located_rule_error():
    with pytest.raises(RulespecError) as e:
        new_state("[[left, 0, 0, 0, 0]]")
    assert "each part is [board, dq, dr] or [board, dq, dr, turns]" in str(e.value)
