"""States, games and options pickle, so the standard library's multiprocessing (and
anything else built on pickle) can send them to another process. A game travels as
its spec text and is compiled once per process (Game.__reduce__); a state keeps
everything it holds, so the copy plays on exactly as the state would."""
from __future__ import annotations

import multiprocessing
import pickle
import random

import pytest

from interpreter import load_game
from rulespec.errors import RulespecError
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

CASES = [("games/zena.yaml", None, 2), ("games/zena.yaml", "advanced", 3),
         ("games/castles.yaml", None, 4), ("games/siena.yaml", None, 3)]
DICE = str(TESTS / "games" / "dice.yaml")
KUHN = str(TESTS / "games" / "kuhn.yaml")


def played(game, players: int, seed: int, decisions: int):
    """A recorded state of `game` after `decisions` random decisions (or its end)."""
    state, rng = game.new_state(players, seed, record=True), random.Random(seed)
    while state.decisions < decisions and not state.is_terminal():
        state.apply(rng.randrange(len(state.legal_actions())))
    return state


def rest(state, seed: int) -> list:
    """The labels of every decision from here to the end of a random game, then the end."""
    rng, out = random.Random(seed), []
    while not state.is_terminal():
        labels = [o.label for o in state.legal_actions()]
        out.append((state.pending.player, labels))
        state.apply(rng.randrange(len(labels)))
    return out + [(state.to_json(spec=False), state.scores(), state.winner(), state.events)]


PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)     # 0 and 1 refuse a slotted class without its own state


@pytest.mark.parametrize("spec, variant, players", CASES)
def test_a_pickled_state_plays_on_as_the_state_would(spec, variant, players):
    game = shipped(str(ROOT / spec), variant=variant)
    for decisions in (0, 7, 40):
        state = played(game, players, seed=decisions, decisions=decisions)
        copy = pickle.loads(pickle.dumps(state))
        assert copy.game is game          # this process's compiled game, not a second one
        assert copy.to_json() == state.to_json() and copy.events == state.events
        assert rest(copy, seed=5) == rest(state, seed=5)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_protocol_pickles_a_state_that_plays_on(protocol):
    game = shipped(str(ROOT / "games/zena.yaml"), variant="advanced")
    state = played(game, 3, seed=protocol, decisions=9)
    copy = pickle.loads(pickle.dumps((state, state.legal_actions()), protocol=protocol))[0]
    assert copy.to_json() == state.to_json() and rest(copy, seed=2) == rest(state, seed=2)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_option_pickled_with_its_state_is_taken_there(protocol):
    game = shipped(str(ROOT / "games/castles.yaml"))
    state = played(game, 2, seed=1, decisions=3)
    option = state.legal_actions()[-1]
    copy, copied = pickle.loads(pickle.dumps((state, option), protocol=protocol))
    assert copied == option and copied.label == option.label
    copy.apply(copied)
    state.apply(option)
    assert copy.to_json() == state.to_json()
    alone = pickle.loads(pickle.dumps(state.legal_actions()[0]))     # labels travel made
    assert alone == state.legal_actions()[0]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_state_at_a_chance_node_pickles_with_its_node(protocol):
    state = shipped(KUHN).new_state(2, seed=4, chance="explicit")
    assert state.is_chance_node()
    copy = pickle.loads(pickle.dumps(state, protocol=protocol))
    assert copy.is_chance_node() and copy.chance_outcomes() == state.chance_outcomes()
    outcome = state.chance_outcomes()[1][0]
    copy.apply_chance(outcome)
    state.apply_chance(outcome)
    assert copy.to_json() == state.to_json()


def test_a_game_changed_after_pickling_is_not_what_the_pickle_gives():
    game = load_game(DICE)
    before = pickle.dumps(game)
    game.step_budget = 33
    old = pickle.loads(before)
    assert old is not game and old.step_budget == game.bounds.steps
    assert pickle.loads(pickle.dumps(game)) is game


# --- another process: spawned, so nothing of this one's compiled games is there

def _worker_plays(state) -> tuple:
    return id(state.game), rest(state, seed=5)


def _worker_reads(game) -> tuple:
    key = next(k for k in game.programs if k.startswith("snippet:"))
    return id(game), game.step_budget, key, game.file, game.variant


@pytest.fixture(scope="module")
def worker():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        yield pool


def test_another_process_compiles_the_game_once_and_plays_the_same(worker):
    game = shipped(str(ROOT / "games/zena.yaml"))
    states = [played(game, 2, seed, decisions=10) for seed in range(3)]
    there = [worker.apply(_worker_plays, (s,)) for s in states]    # one pickle each
    assert [r for _, r in there] == [rest(s, seed=5) for s in states]
    assert len({ident for ident, _ in there}) == 1      # the worker compiled Zena once


def test_a_game_travels_with_its_step_budget_and_snippets(worker):
    game = load_game(DICE)
    game.step_budget = 77
    key = game.snippet("mover = 1", "statements")
    ident, steps, found, file, variant = worker.apply(_worker_reads, (game,))
    assert (steps, found, file, variant) == (77, key, game.file, None)
    assert worker.apply(_worker_reads, (game,))[0] == ident   # the worker's copy, kept


def test_a_state_leaves_its_trace_observer_behind():
    seen = []
    state = shipped(DICE).new_state(2, seed=1, trace=seen.append)
    copy = pickle.loads(pickle.dumps(state))     # an observer is a callback of this process
    assert copy.trace is None and state.trace is not None
    assert copy.to_json() == state.to_json()


def test_errors_pickle_whole():
    with pytest.raises(RulespecError) as spec_error:
        load_game("broken.yaml", text="game: x\nplayers: {min: 2, max: 2}\nflow: |\n  x = = 1\n")
    state = shipped(DICE).new_state(2, seed=1)
    with pytest.raises(RulespecError) as refused:
        state.apply("no such option")
    for error in (spec_error.value, *spec_error.value.errors, refused.value):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error)
        assert vars(copy).keys() == vars(error).keys()


def _worker_loads(text):
    return load_game("broken.yaml", text=text)


def test_a_spec_error_in_a_worker_reaches_the_parent(worker):
    # an error that did not unpickle left the pool waiting for ever
    with pytest.raises(RulespecError, match="broken.yaml:4"):
        worker.apply(_worker_loads, ("game: x\nplayers: {min: 2, max: 2}\nflow: |\n  x = = 1\n",))
