"""Zena 1814 (games/zena.yaml): validation, the rulebook's scenarios, golden
playthroughs, random games with every invariant checked, and the rules that
need a decision in the middle of set-up.

Golden logs: REGOLD=1 pytest tests/test_zena.py -k golden, then read the diff.
"""
from __future__ import annotations

import collections
import io
import json

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.engine.flow import Frame, run
from tests.golden import check_golden
from tests.playout import play_random
from tests.scenario_files import check_scenarios
from tests.paths import ROOT, TESTS

SPEC = "games/zena.yaml"            # relative: the golden logs name the spec this way
VARIANTS = [None, "advanced"]
SCENARIOS = sorted((TESTS / "scenarios" / "zena").glob("*.yaml"))
RANDOM_GAMES = 300


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="module")
def games():
    return {v: load_game(ROOT / SPEC, variant=v) for v in VARIANTS}


def run_statements(state, text):
    """Run DSL statements on top of the flow, decisions allowed: once they are done,
    the decision that was pending is asked again."""
    key = state.game.snippet(text, "statements")
    state.stack.append(Frame(key, {}))
    state.pending = None
    run(state)


# ---------------------------------------------------------------- the spec
@pytest.mark.parametrize("flag", [[], ["--variant", "advanced"], ["--all-variants"]])
def test_validate_is_clean(flag):
    out, err = io.StringIO(), io.StringIO()
    assert main(["validate", SPEC, *flag], stdout=out, stderr=err) == 0, out.getvalue() + err.getvalue()
    assert "error" not in out.getvalue()


def test_every_card_of_the_rulebook(games):
    game = games[None]
    kinds = collections.Counter(card["kind"] for card in game.cards.values())
    # "110 Cards, including: 9 Event cards, 1 First Player card, 5 Family cards,
    # 27 Goal cards, 60 Action cards, 8 Fort cards" (First Player and Family cards are state)
    assert kinds == {"action_card": 60, "goal_card": 27, "fort_card": 8, "event_card": 9}
    areas = collections.Counter(c["area"] for c in game.cards.values() if c["kind"] == "action_card")
    assert set(areas) == {"streets", "cathedral", "palace", "bank", "port"}
    for card in game.cards.values():
        if card["kind"] in ("action_card", "fort_card"):
            costs = card["costs"]
            assert len(costs) == 3 and costs == sorted(costs, reverse=True) and min(costs) >= 1, card["id"]
    assert len(game.cards_by_name["dagghe_abbretio"]) == 5
    for area in ("streets", "cathedral", "palace", "bank", "port", "fort"):
        assert len(game.cards_by_name[f"control_{area}"]) == 2


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenarios_pass(path):
    check_scenarios(path, at_least=5)


# ------------------------------------------- rules that need set-up decisions
EXPENSIVE = ["te_deum", "bishops_favour", "senate_seat#1", "senate_seat#2", "doge_appointment",
             "san_giorgio_shares"]


def _dealt(game, top_six):
    """A 2-player game where seat 0 is dealt again, `top_six` on top of the deck."""
    state = game.new_state(2, seed=5)
    run_statements(state, f"""
for p in players:
    move_bottom(cards(p.hand), action_deck, out_of=p.hand)
move({json.dumps(top_six)}, action_deck, out_of=action_deck)
deal_hand(players[0])
""")
    return state


def test_a_hand_all_costing_five_or_more_may_be_redrawn(games):
    state = _dealt(games[None], EXPENSIVE)
    assert state.current_player() == 0
    labels = {o.label for o in state.legal_actions()}
    assert labels == {"discard them all and draw a new hand", "keep this hand"}
    state.apply("discard them all and draw a new hand")
    hand = state.zones["hand@0"]
    assert len(hand) == 6 and not set(hand) & set(EXPENSIVE)
    assert sorted(state.zones["action_deck"][-6:]) == sorted(EXPENSIVE)   # the six went to the bottom


def test_an_expensive_hand_may_be_kept(games):
    state = _dealt(games[None], EXPENSIVE)
    state.apply("keep this hand")
    assert sorted(state.zones["hand@0"]) == sorted(EXPENSIVE)


def test_a_cheap_card_in_hand_means_no_redraw(games):
    state = _dealt(games[None], EXPENSIVE[:5] + ["alms#1"])
    assert "keep this hand" not in {o.label for o in state.legal_actions()}
    assert sorted(state.zones["hand@0"]) == sorted(EXPENSIVE[:5] + ["alms#1"])


def test_ties_go_to_the_most_money(games):
    state = games[None].new_state(3, seed=2)
    state.pv["points"][:] = [7, 7, 3]
    state.pv["coins"][:] = [4, 9, 20]
    assert state.winner() == [1]
    state.pv["coins"][:] = [9, 9, 20]
    assert state.winner() == [0, 1]


def test_first_player_is_chosen_by_a_random_fastest_player(games):
    state = games["advanced"].new_state(3, seed=4)
    while state.g["round"] == 0 and state.pending.kind != "one" or state.pending.secret:
        state.apply(state.legal_actions()[0])
    assert {o.label for o in state.legal_actions()} == {"P1", "P2", "P3"}
    state.apply("P3")
    assert state.g["first_player"] == 2 and state.g["round"] == 1


def test_hands_and_secret_placements_are_hidden(games):
    state = games["advanced"].new_state(3, seed=6)
    assert state.pending.secret                      # Round 0: four cards chosen face down
    view = state.view(1)
    assert view["zones"]["hand@0"] == {"count": 10, "kinds": {"action_card": 10}}   # the backs show
    assert len(view["zones"]["hand@1"]) == 10
    assert isinstance(view["zones"]["play"], list)


def test_a_saved_game_goes_on_the_same(games):
    game = games["advanced"]
    state = game.new_state(3, seed=11)
    for _ in range(60):
        state.apply(state.legal_actions()[0])
    copy = game.state_from_json(state.to_json())
    for _ in range(40):
        label = state.legal_actions()[-1].label
        state.apply(label)
        copy.apply(label)
    assert copy.to_json() == state.to_json()


# ----------------------------------------------------------- golden games
@pytest.mark.parametrize("variant,players", [(None, 4), ("advanced", 4), ("advanced", 3)])
def test_golden_playthrough(variant, players):
    name = f"zena-{variant or 'beginner'}-{players}p"
    check_golden(f"tests/golden/{name}.jsonl", SPEC, players, 1814, variant)


# ----------------------------------------------------------- random games
@pytest.mark.parametrize("variant", VARIANTS, ids=["beginner", "advanced"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(games, variant, players):
    game = games[variant]
    ended = collections.Counter()
    for seed in range(RANDOM_GAMES):
        state = play_random(game, players, seed)
        ended[state.ended_by] += 1
        assert state.g["round"] == 8 and not state.zones["event_deck"]
    assert ended == {"eight rounds played": RANDOM_GAMES}
