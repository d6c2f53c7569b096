"""Siena (games/siena.yaml): validation, the components, the rulebook's
scenarios, golden playthroughs, and random games with every invariant checked.

Golden logs: REGOLD=1 pytest tests/test_siena.py -k golden, then read the diff.
Run with -s to see how the random games ended.
"""
from __future__ import annotations

import collections
import io
import random

import pytest

from interpreter import load_game
from interpreter.analysis.simulate import Job, format_summary, play_one, summarize
from interpreter.cli import main
from interpreter.engine.flow import Frame, run
from tests.golden import check_golden
from tests.playout import play_random
from tests.scenario_files import check_scenarios
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

SPEC = "games/siena.yaml"            # relative: the golden logs name the spec this way
SCENARIOS = sorted((TESTS / "scenarios" / "siena").glob("*.yaml"))
PLAYER_COUNTS = [2, 3, 4, 5]
RANDOM_GAMES = 300                   # per player count, every invariant after every decision
HEAD_START_GAMES = 40                # per player count and head start
END_REASONS = {"tower finished", "Lorenzetti booked", "round limit"}
DISTRICTS = ["banchi_di_sotto", "piazza_salimbeni", "via_dei_servi", "piazza_del_campo", "duomo",
             "fontebranda", "torre_del_mangia", "camollia", "via_della_cerchia", "palazzo_tolomei"]


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / SPEC)


def override(state, text):
    """Run DSL statements on the state between two decisions (a scenario's `do:`)."""
    key = state.game.snippet(text, "statements")
    saved, pending = state.stack, state.pending
    state.stack, state.pending = [Frame(key, {})], None
    run(state, finish_when_done=False)
    assert state.pending is None, "an override must not ask anyone"
    state.stack, state.pending = saved, pending


# ---------------------------------------------------------------- the spec
@pytest.mark.parametrize("flag", [[], ["--variant", "long"]])
def test_validate_is_clean(flag):
    out, err = io.StringIO(), io.StringIO()
    assert main(["validate", SPEC, *flag], stdout=out, stderr=err) == 0, out.getvalue() + err.getvalue()
    assert "error" not in out.getvalue() + err.getvalue()


def test_the_components(game):
    cards = game.cards.values()
    kinds = collections.Counter(c["kind"] for c in cards)
    # 93 cards: 52 Siena, 7 Fato, 26 Senesi, 8 Artista (COMPONENT-FACTS.md)
    assert kinds == {"siena": 52, "fato": 7, "senesi": 26, "artista": 8}
    siena = [c for c in cards if c["kind"] == "siena"]
    assert sum(c["effect"] == "workers" for c in siena) == 25
    asterisks = [c for c in siena if c["asterisk"]]
    assert len(asterisks) == 7
    assert {c["green"] for c in asterisks} == {1, 2, 3, 4, 5}
    senesi = collections.Counter(c["points"] for c in cards if c["kind"] == "senesi")
    assert senesi == {1: 12, 2: 8, 3: 4, 4: 2}
    assert sum(c["name"] == "devil" for c in cards) == 1
    assert sorted(c["points"] for c in cards if c["kind"] == "artista") == list(range(1, 9))


def test_the_town(game):
    town = game.boards["town"]
    for a, b in zip(DISTRICTS, DISTRICTS[1:] + DISTRICTS[:1]):
        assert town.successors(a)[0] == b, f"{b} should follow {a} clockwise"
    # the Inn, an eleventh district reached only from Via della Cerchia
    assert town.predecessors("inn") == ["via_della_cerchia"]
    assert town.successors("inn") == ["via_della_cerchia"]
    assert town.successors("town_walls") == ["banchi_di_sotto"]
    assert town.predecessors("town_walls") == []
    assert sum(bool(town.attr(d, "yellow")) for d in DISTRICTS) == 4


def test_the_roads_to_firenze_and_arezzo(game):
    # the Firenze-Arezzo Chart: two paths out of Siena, the city at the end of each
    for road, length in (("firenze", 6), ("arezzo", 4)):
        board = game.boards[road]
        spaces, here = [], "siena"
        while board.successors(here):
            here = board.successors(here)[0]
            spaces.append(here)
        assert len(spaces) == length and spaces[-1] == f"{road}_city"
        assert board.predecessors("siena") == []
        pays = [board.attr(s, "florins") for s in spaces]
        assert all(isinstance(f, int) for f in pays)
        assert pays[-1] == max(pays), f"the city pays the most on the road to {road}"
    # "Arezzo is shorter, Firenze pays more"
    assert game.boards["firenze"].attr("firenze_city", "florins") > game.boards["arezzo"].attr("arezzo_city", "florins")


# ------------------------------------------------------------ scenarios
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenarios_pass(path):
    check_scenarios(path, at_least=5)


# ----------------------------------------------------------- golden games
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_golden_playthrough(players):
    check_golden(f"tests/golden/siena-{players}p.jsonl", SPEC, players, 2005)


# ----------------------------------------------------------- random games
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_keep_every_invariant(game, players):
    ended = collections.Counter()
    for seed in range(RANDOM_GAMES):
        state = play_random(game, players, seed)
        assert state.is_terminal()
        ended[state.ended_by] += 1
        assert set(state.winner()) <= {s for s in range(players) if state.pv["status"][s] == "banker"}
    shares = {reason: f"{100 * n / RANDOM_GAMES:.1f}%" for reason, n in sorted(ended.items())}
    print(f"\nSiena, {players} players, {RANDOM_GAMES} random games ended by: {shares}")
    assert set(ended) <= END_REASONS


LONG_GAMES = 6
CUTOFF = 3000


def test_the_long_variant_has_no_round_limit_and_simulate_cuts_off_apart():
    """"The Variant for a Longer Game" ends only with the tower or Lorenzetti: no
    round 60 in the spec. A simulation cuts off games that run on and reports them
    apart from real endings, counting them in no win or score."""
    long_game = shipped(ROOT / SPEC, variant="long")
    assert long_game.names.constants["round_limit"] == 0
    assert "safety_round_limit" not in long_game.names.constants
    job = Job(str(ROOT / SPEC), "long", 4, ["random"] * 4, cutoff=CUTOFF)
    records = [play_one(job, seed) for seed in range(LONG_GAMES)]
    cut = [r for r in records if r.get("cut_off")]
    assert cut, "random players never reach the long game's endings"
    for r in cut:
        assert r["decisions"] == CUTOFF and r["rounds"] > 20    # played on past the base game's end
    for r in records:
        assert r.get("cut_off") or r["ended_by"] in {"tower finished", "Lorenzetti booked"}
    summary = summarize(long_game, 4, records, 1.0)
    assert summary["cut_off"]["count"] == len(cut)
    assert summary["completed"] == LONG_GAMES - len(cut)
    assert sum(w["wins"] for w in summary["wins"]) == sum(len(r["winner"]) for r in records if "winner" in r)
    assert "cut off by the simulator" in format_summary(summary)


# Uniformly random players spend every florin at the opening auction and
# rarely rise above Peasant, so these games start them further on: the
# Banker's rules then run under the invariants too.
HEAD_STARTS = {
    "all bankers": """
for p in players:
    p.status = banker
    p.pawns_before = 0
    p.district = town_walls
    p.florins = 150
""",
    "one of each": """
players[0].status = merchant
players[0].pawns_before = 2
players[0].florins = 70
players[1].status = banker
players[1].pawns_before = 0
players[1].district = town_walls
players[1].florins = 120
""",
}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("head_start", sorted(HEAD_STARTS))
def test_random_games_from_a_head_start_keep_every_invariant(game, players, head_start):
    seen = collections.Counter()
    for seed in range(HEAD_START_GAMES):
        state = game.new_state(players, seed)
        agent = random.Random(seed)
        while state.g["round"] < 1:
            state.apply(agent.choice(state.legal_actions()))
        override(state, HEAD_STARTS[head_start])
        while not state.is_terminal():
            state.apply(agent.choice(state.legal_actions()))
            broken = state.check_invariants()
            assert not broken, f"seed {seed}, decision {state.decisions}: {broken[0]}"
        seen[state.ended_by] += 1
        seen["floors"] += len(state.g["tower"])
        seen["artists"] += sum(len(state.zones[f"artists@{s}"]) for s in range(players))
        seen["stinginess"] += sum(state.pv["stinginess"])
    print(f"\nSiena, {players} players, head start '{head_start}', {HEAD_START_GAMES} random games: {dict(seen)}")
    assert set(seen) - {"floors", "artists", "stinginess"} <= END_REASONS
    # the Banker's business really happened
    assert seen["floors"] > 0 and seen["artists"] > 0


def test_a_saved_game_goes_on_the_same(game):
    state = game.new_state(4, seed=7)
    agent = random.Random(7)
    for _ in range(60):
        state.apply(agent.choice(state.legal_actions()))
    copy = game.state_from_json(state.to_json())
    moves = random.Random(8)
    while not state.is_terminal():
        label = moves.choice(state.legal_actions()).label
        state.apply(label)
        copy.apply(label)
    assert copy.is_terminal() and copy.to_json() == state.to_json()
