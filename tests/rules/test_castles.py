"""The Castles of Tuscany (games/castles.yaml): validation, rule scenarios, golden
playthroughs, tie-breaks, and random games with every invariant checked."""
from __future__ import annotations

import io
import random
from collections import Counter

import pytest

from interpreter.cli import main
from interpreter.engine.functions import move
from interpreter.tools.render import board_dot
from interpreter.engine.values import Zone
from tests.golden import check_golden
from tests.playout import play_random
from tests.scenario_files import check_scenarios
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

SPEC = str(ROOT / "games" / "castles.yaml")
SCENARIOS = sorted((TESTS / "scenarios" / "castles").glob("*.yaml"))
RANDOM_GAMES = 300


@pytest.fixture(scope="module")
def game():
    return shipped(SPEC)


def test_the_spec_validates_clean():
    out, err = io.StringIO(), io.StringIO()
    assert main(["validate", SPEC], stdout=out, stderr=err) == 0, err.getvalue()
    assert "error" not in out.getvalue() + err.getvalue()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios(path):
    check_scenarios(path)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_playthrough(players, monkeypatch):
    monkeypatch.chdir(ROOT)      # the log names the spec as given: relative to the repository
    check_golden(f"tests/golden/castles-{players}p.jsonl", "games/castles.yaml", players, seed=players)


def set_up(game, players, seed, agent_seed=0):
    """A new game played by random agents until round 1 starts (estates arranged)."""
    st = game.new_state(players, seed=seed)
    rand = random.Random(agent_seed)
    while st.g["round"] < 1:
        st.apply(rand.choice(st.legal_actions()))
    return st


def test_each_player_gets_a_joined_estate_of_thirty_hexes(game):
    st = set_up(game, 4, seed=7)
    boards = set()
    for seat in range(4):
        estate = st.pv["estate"][seat]
        assert len(estate) == 30
        parts = sorted({cell["board"] for cell in estate.values()})
        assert [p[-2] for p in parts] == ["A", "B", "C"]
        boards.update(parts)
        assert sum(cell["colour"] == "dark_green" for cell in estate.values()) == 3
    assert len(boards) == 12            # four players drew every board once


def test_every_region_board_has_ten_hexes_one_castle_hex_and_zones_of_at_most_three(game):
    regions = {name: board for name, board in game.boards.items() if name.startswith("region_")}
    assert len(regions) == 12
    for name, board in regions.items():
        colours = [board.attr(cell, "colour") for cell in board.nodes()]
        assert len(colours) == 10, name
        assert colours.count("dark_green") == 1, name
        assert max(len(board.colour_zone(cell)) for cell in board.nodes()) <= 3, name
    totals = Counter()
    for letter in "ABC":   # any A, B and C together make the same 30 hexes
        counts = {tuple(sorted(Counter(b.attr(c, "colour") for c in b.nodes()).items()))
                  for n, b in regions.items() if n[-2] == letter}
        assert len(counts) == 1, letter
        totals.update(dict(counts.pop()))
    assert sum(totals.values()) == 30 and len(totals) == 8


def test_joined_boards_are_offset_by_at_most_one_hex(game):
    turned = 0
    for seed in range(30):
        estate = set_up(game, 2, seed, agent_seed=seed).pv["estate"][0]
        # each board keeps its two columns of five, turned or not
        for board in {cell["board"] for cell in estate.values()}:
            columns = Counter(cell["q"] for cell in estate.values() if cell["board"] == board)
            assert sorted(columns.values()) == [5, 5], board
        castle = [c for c in estate.values() if c["colour"] == "dark_green"]
        turned += sum(c["q"] % 2 == 1 for c in castle)
        tops = {}
        for cell in estate.values():      # the top hex of each board's left column
            if cell["q"] % 2 == 0:
                row = cell["r"] + cell["q"] // 2
                tops[cell["q"]] = min(tops.get(cell["q"], row), row)
        assert abs(tops[2] - tops[0]) <= 1 and abs(tops[4] - tops[2]) <= 1
    assert turned > 0      # some castle hexes moved to the right column: boards were turned


def test_tiebreaks_most_empty_spaces_then_fewest_green_then_fewest_cards(game):
    st = play_random(game, 3, seed=5, check_invariants=False)
    cells = list(st.pv["estate"][0])
    st.pv["red"] = [40, 40, 40]
    st.pv["covered"] = [dict.fromkeys(cells[:n], "blue_hex") for n in (6, 5, 6)]
    assert st.winner() == [1]                       # the most empty spaces
    st.pv["covered"][1] = dict.fromkeys(cells[:6], "blue_hex")
    st.pv["green"] = [9, 7, 8]
    assert st.winner() == [1]                       # then the fewest green points
    st.pv["green"] = [7, 7, 8]
    hands = [len(st.zones[f"hand@{s}"]) for s in range(3)]
    fewer = 0 if hands[0] < hands[1] else 1
    if hands[0] == hands[1]:
        assert st.winner() == [0, 1]                # a full tie shares the win
    else:
        assert st.winner() == [fewer]               # then the fewest region cards


def test_the_invariants_catch_a_misplaced_tile(game):
    st = game.new_state(2, seed=0)
    while st.g["round"] != 1:
        st.apply(0)
    assert st.check_invariants() == []
    estate = st.pv["estate"][0]
    (castle_cell,) = st.pv["covered"][0]
    far_red = next(c for c, info in estate.items() if info["colour"] == "red"
                   and not _touches(estate, c, castle_cell))
    city = next(c for c in st.zones[Zone("tile_box")] if game.cards[c]["name"] == "city")
    move(st, city, Zone("placed@0"))
    st.pv["covered"][0] = {**st.pv["covered"][0], far_red: city}
    assert st.check_invariants() == ["no tile on a non-adjacent space"]
    not_red = next(c for c, info in estate.items() if info["colour"] != "red"
                   and _touches(estate, c, castle_cell))
    st.pv["covered"][0] = {castle_cell: st.pv["covered"][0][castle_cell], not_red: city}
    assert st.check_invariants() == ["no tile on a mismatched space"]
    for name in ("quarry", "village", "wagon", "inn"):
        tile = next(c for c in st.zones[Zone("tile_box")] if game.cards[c]["name"] == name)
        move(st, tile, Zone("storage@1"))
    assert "storage limits" in st.check_invariants()


def _touches(estate, a, b):
    qa, ra = estate[a]["q"], estate[a]["r"]
    qb, rb = estate[b]["q"], estate[b]["r"]
    return (qa - qb, ra - rb) in {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}


def test_a_saved_game_goes_on_exactly_as_the_original(game):
    st = game.new_state(3, seed=11)
    for _ in range(40):
        st.apply(st.legal_actions()[len(st.legal_actions()) // 2])
    copy = game.state_from_json(st.to_json())
    while not st.is_terminal():
        pick = len(st.legal_actions()) // 3
        assert [o.label for o in copy.legal_actions()] == [o.label for o in st.legal_actions()]
        st.apply(pick)
        copy.apply(pick)
    assert copy.is_terminal() and copy.scores() == st.scores()


def test_graph_draws_a_players_joined_boards(game):
    dot = board_dot(game, seat=1, players=3, seed=2)
    assert dot.startswith("graph ")
    assert dot.count('" [label=') == 30
    assert dot.count('fillcolor="darkgreen"') == 3
    for letter in "ABC":
        assert f"region_{letter}" in dot


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish_with_every_invariant_holding(game, players):
    ended = Counter()
    for seed in range(RANDOM_GAMES):
        st = play_random(game, players, seed)     # checks the invariants after every decision
        ended[st.ended_by] += 1
        assert st.g["round"] == 3
        assert st.winner()
    assert ended == {"three rounds played": RANDOM_GAMES}
