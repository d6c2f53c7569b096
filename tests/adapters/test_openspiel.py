"""Any spec as an OpenSpiel game (interpreter/adapters/openspiel_game.py): OpenSpiel's
own random-simulation test for Python games passes on test games and the three
games; OpenSpiel's CFR+ solves the Kuhn poker spec to its published value, -1/18
for the first player (Kuhn 1950); OpenSpiel's MCTS bot plays the three games to
the end; a seat's strings hold only what its view holds."""
from __future__ import annotations

import os

import numpy as np
import pytest

from rulespec.errors import RulespecError, SpecErrors
from tests.doc_blocks import blocks
from tests.extras import need
from tests.paths import ROOT, TESTS

pytestmark = pytest.mark.openspiel
pyspiel = need("openspiel", "pyspiel")
from interpreter.adapters.openspiel_game import load_openspiel   # noqa: E402  (needs pyspiel)
from interpreter.engine import visibility   # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, expected_game_score, mcts   # noqa: E402

KUHN = str(TESTS / "games" / "kuhn.yaml")
TICTACTOE = str(TESTS / "games" / "tictactoe.yaml")
MARKET = str(TESTS / "games" / "market.yaml")
THREE = [str(ROOT / "games" / f"{name}.yaml") for name in ("castles", "siena", "zena")]


@pytest.fixture(scope="module")
def kuhn():
    return load_openspiel(KUHN)


@pytest.fixture(scope="module", params=THREE, ids=["castles", "siena", "zena"])
def big(request):
    return load_openspiel(request.param, players=2)


def deal(game, *cards):
    state = game.new_initial_state()
    for card in cards:
        state.apply_action(next(a for a in state.legal_actions()
                                if state.action_to_string(pyspiel.PlayerId.CHANCE, a) == card))
    return state


def act(state, label):
    """The id of the legal action `label` names (ids are the action vocabulary's)."""
    return next(a for a in state.legal_actions() if state.action_to_string(state.current_player(), a) == label)


# ---------------------------------------------------------------- the game's type
def test_kuhn_is_stochastic_imperfect_zero_sum_with_the_spec_bounds(kuhn):
    kind = kuhn.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kuhn.num_players() == 2
    assert (kuhn.min_utility(), kuhn.max_utility()) == (-2.0, 2.0)   # chips: {min: -2, max: 2}
    assert kuhn.max_chance_outcomes() == 3                            # jack, queen, king


def test_tictactoe_is_deterministic_perfect_general_sum():
    game = load_openspiel(TICTACTOE)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.max_chance_outcomes() == 0
    state = game.new_initial_state()
    assert [state.action_to_string(0, a) for a in state.legal_actions()][:3] == ["a1", "a2", "a3"]


def test_the_registry_loads_a_spec_by_its_parameters():
    game = pyspiel.load_game("rulespec", {"spec": KUHN, "players": 2})
    assert game.get_type().short_name == "rulespec" and game.num_players() == 2
    assert str(game) == f"rulespec(max_game_length=20000,players=2,spec={KUHN},variant=)"
    with pytest.raises(RulespecError, match="for 2 to 2 players, not 3"):
        load_openspiel(KUHN, players=3)


def test_a_bad_spec_is_refused_with_the_specs_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: x\nplayers: {min: 2, max: 2}\nflow: |\n  nonsense(\n", encoding="utf-8")
    with pytest.raises(SpecErrors):
        load_openspiel(str(bad))


# ------------------------------------------------------- OpenSpiel's own checks
@pytest.mark.parametrize("spec, sims", [(KUHN, 20), (TICTACTOE, 10), (MARKET, 2)],
                         ids=["kuhn", "tictactoe", "market"])
def test_openspiels_random_simulation_test_passes(spec, sims):
    pyspiel.random_sim_test(load_openspiel(spec), num_sims=sims, serialize=True, verbose=False)


def test_openspiels_random_simulation_test_passes_on_the_three_games(big):
    pyspiel.random_sim_test(big, num_sims=1, serialize=True, verbose=False)


def test_a_state_serialized_by_openspiel_comes_back_the_same(kuhn):
    state = deal(kuhn, "queen", "king")
    check = act(state, "check")
    state.apply_action(check)
    text = pyspiel.serialize_game_and_state(kuhn, state)
    game, back = pyspiel.deserialize_game_and_state(text)    # the game, too, from its name
    assert str(game) == str(kuhn) and back.history() == [1, 2, check]
    assert str(back) == str(state) and back.legal_actions() == state.legal_actions()
    assert [back.action_to_string(1, a) for a in back.legal_actions()] == ["bet", "check"]
    assert [back.information_state_string(s) for s in (0, 1)] == \
        [state.information_state_string(s) for s in (0, 1)]


# ----------------------------------------------------------- chance outcomes
def test_chance_outcomes_are_card_names_by_their_place_in_the_spec(kuhn):
    state = kuhn.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)                                     # the king, to seat 0
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]    # the same ids for what is left
    assert state.rules_state.zones["hand@0"] == ["king"]


def test_a_clone_is_independent(kuhn):
    state = deal(kuhn, "king", "jack")
    copy = state.clone()
    bet = act(copy, "bet")
    copy.apply_action(bet)                                    # in the copy only
    assert len(state.legal_actions()) == 2 and state.history() == [2, 0]
    assert copy.current_player() == 1 and copy.history() == [2, 0, bet]


def test_an_action_keeps_its_id_in_every_state():
    """Ids are the action vocabulary's: marking a1 is one number on any board, and
    num_distinct_actions is the vocabulary's size."""
    game = load_openspiel(TICTACTOE)
    assert game.num_distinct_actions() == game.vocab.size
    state = game.new_initial_state()
    first = {state.action_to_string(0, a): a for a in state.legal_actions()}
    state.apply_action(first["b2"])
    later = {state.action_to_string(1, a): a for a in state.legal_actions()}
    assert later == {label: a for label, a in first.items() if label != "b2"}
    assert state.action_to_string(1, first["b2"]) == "action mark card:b2"   # not legal: its name


def test_the_observation_tensor_is_the_layouts_vector_of_the_seats_view(kuhn):
    from interpreter.adapters.encoding import ObservationLayout
    state = deal(kuhn, "queen", "king")
    layout = ObservationLayout(kuhn.rules_game, 2)
    assert kuhn.observation_tensor_shape() == [layout.size]
    for seat in (0, 1):
        expected = layout.encode(state.rules_state.view(seat), seat)
        assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), expected)
    assert state.observation_tensor(0) != state.observation_tensor(1)   # each sees its own card


# ------------------------------------------------------------- hidden information
def test_a_seats_strings_depend_only_on_what_it_may_see(kuhn):
    for mine in ("jack", "queen", "king"):
        seen = set()
        for theirs in {"jack", "queen", "king"} - {mine}:
            state = deal(kuhn, mine, theirs)
            state.apply_action(act(state, "bet"))             # seat 0 bets
            info, obs = state.information_state_string(0), state.observation_string(0)
            assert theirs not in info and theirs not in obs and mine in info
            seen.add(info)
        assert len(seen) == 1                                 # one information set per own card


def test_another_seats_secret_choice_reads_as_a_question_mark():
    game = load_openspiel(MARKET, players=3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    state.apply_action(act(state, "2"))                       # the first of three secret bets
    assert state.information_state_string(0).startswith("decisions: 2\n")
    assert state.information_state_string(1).startswith("decisions: ?\n")
    public = pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
    from open_spiel.python.observation import make_observation
    spectator = make_observation(game, public)
    assert spectator.string_from(state, 0).startswith("decisions: ?\n")


# ----------------------------------------------------------------- algorithms
def test_cfr_plus_finds_kuhn_pokers_value(kuhn):
    solver = cfr.CFRPlusSolver(kuhn)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    first, second = expected_game_score.policy_value(kuhn.new_initial_state(), [policy, policy])
    assert abs(first - (-1 / 18)) < 1e-3 and abs(first + second) < 1e-9
    assert exploitability.nash_conv(kuhn, policy) < 0.01       # an equilibrium, not luck


def test_the_mcts_bot_plays_each_of_the_three_games_to_the_end(big):
    # Seed 7 met Castles' "5,-4", which the vocabulary once had no id for
    # (test_encoding: a number piece takes its shape's whole signed range)
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(big, uct_c=2.0, max_simulations=2,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state, decisions = big.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            state.apply_action(bot.step(state))
            decisions += 1
    assert decisions > 20
    assert state.returns() == [float(s) for s in state.rules_state.scores()]
    assert state.rules_state.ended_by != "cut off"


def test_the_readmes_openspiel_recipe_runs(monkeypatch):
    """README.md, For researchers: the block that loads a spec in OpenSpiel."""
    recipe = next(b for b in blocks(ROOT / "README.md") if "load_openspiel" in b.body)
    assert recipe.marker.get("checked-by") == "tests/adapters/test_openspiel.py"
    monkeypatch.chdir(ROOT)
    space = {}
    exec(compile(recipe.body, recipe.where, "exec"), space)
    assert abs(space["first"] + 1 / 18) < 1e-3


def test_swapping_cards_a_seat_cannot_see_changes_none_of_its_strings(big):
    """Hidden information is a security boundary: two states that differ only where
    seat 0 cannot look read the same to seat 0, and differ to the seat that can.
    The cards swapped are of one kind: a card's back shows its kind (the view counts them)."""
    rng = np.random.RandomState(3)
    state = big.new_initial_state()
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    st = state.rules_state
    unseen = [z for z, cards in st.zones.items() if cards and not visibility.sees_zone(st.game, z, 0)]
    owned = [z for z in unseen if z.seat is not None and visibility.sees_zone(st.game, z, z.seat)]
    unseen = owned + [z for z in unseen if z not in owned]   # another seat's hand first
    kind = {c: attrs["kind"] for c, attrs in st.game.cards.items()}
    mine, theirs, a, b = next((m, t, a, b) for m in unseen for t in unseen if m != t
                              for a in st.zones[m] for b in st.zones[t]
                              if kind[a] == kind[b] and a.partition("#")[0] != b.partition("#")[0])
    before = [f(0) for f in (state.information_state_string, state.observation_string)]
    tensor = list(state.observation_tensor(0))
    other = state.clone()
    zones, loc = other.rules_state.zones, other.rules_state.loc
    zones[mine][zones[mine].index(a)], zones[theirs][zones[theirs].index(b)] = b, a
    loc[a], loc[b] = theirs, mine
    assert [f(0) for f in (other.information_state_string, other.observation_string)] == before
    assert list(other.observation_tensor(0)) == tensor
    if mine in owned:                                         # its owner sees the change
        assert other.observation_string(mine.seat) != state.observation_string(mine.seat)


def test_a_game_longer_than_max_game_length_is_cut_off_there():
    game = load_openspiel(TICTACTOE, max_game_length=4)
    assert game.max_game_length() == 4
    state = game.new_initial_state()
    for _ in range(4):
        assert not state.is_terminal()
        state.apply_action(state.legal_actions()[0])          # a1 a2 a3 b1: no line yet
    assert state.is_terminal() and state.rules_state.ended_by == "cut off"
    assert state.returns() == [0.0, 0.0]


def test_kuhns_openspiel_playthrough_is_as_recorded(monkeypatch):
    """OpenSpiel's playthrough format (open_spiel/integration_tests/playthroughs): the
    game's type and sizes, then every state of one seeded game with its strings,
    tensors, legal actions and returns. REGOLD=1 rewrites it; read the diff."""
    from open_spiel.python.algorithms import generate_playthrough
    monkeypatch.chdir(ROOT)
    text = generate_playthrough.playthrough("rulespec(spec=tests/games/kuhn.yaml,players=2)",
                                            action_sequence=None, seed=1)
    golden = TESTS / "golden" / "openspiel-kuhn.txt"
    if os.environ.get("REGOLD") or not golden.exists():
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")
