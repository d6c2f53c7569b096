"""State.legal_actions: an Options sequence, each Option made when read (flow.Options).

It must behave as the list of Options it replaced wherever an agent, a tool or a
test reads it: length, indexes from either end, slices, iteration, membership,
equality with a list, and each option applied is the option of that index."""
from __future__ import annotations

import random

import pytest

from interpreter import Option, Options, load_game
from rulespec.errors import IllegalAction
from tests.paths import TESTS

MARKET = TESTS / "games" / "market.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(MARKET)


def _as_list(state):
    """The options the way legal_actions made them before: one Option per value."""
    decision = state.pending
    return [Option(decision, i) for i in range(len(decision.values))]


def test_reads_as_the_list_it_replaced(game):
    state = game.new_state(3, 1)
    options, listed = state.legal_actions(), _as_list(state)
    assert isinstance(options, Options)
    assert len(options) == len(listed) == 3 and bool(options)
    assert options == listed and listed == options and options == state.legal_actions()
    assert options != listed[:-1] and options != "abc"
    assert [o.label for o in options] == [o.label for o in listed] == ["0", "1", "2"]
    assert [o.index for o in options] == [0, 1, 2]
    assert options[-1] == listed[-1] and options[-3] == listed[0]
    assert options[1:] == listed[1:] and options[::-1] == listed[::-1] and options[5:] == []
    assert list(reversed(options)) == listed[::-1]
    assert listed[2] in options and options.index(listed[2]) == 2 and options.count(listed[0]) == 1
    assert repr(options) == repr(listed)
    assert options[True] == listed[1]    # an index is anything operator.index takes
    assert options.copy() == listed and options.copy().__class__ is list
    assert options + listed[:1] == listed + listed[:1]
    assert options + options == listed + listed and listed[:1] + options == listed[:1] + listed


def test_one_option_per_place(game):
    """Read in any order and however often, a place gives the same Option, as a
    list's item did (a search keyed by identity finds it again)."""
    options = game.new_state(3, 1).legal_actions()
    second = options[1]
    assert options[1] is second and options[-2] is second
    first, third = options[0], options[2]
    assert [o for o in options] == [first, second, third]
    assert all(a is b for a, b in zip(options, (first, second, third)))
    assert len({id(o) for o in options}) == 3
    assert options[0] is not game.new_state(3, 1).legal_actions()[0]     # each call its own


def test_none_waiting_is_empty_options(game):
    state = game.new_state(3, 2)
    rand = random.Random(2)
    while not state.is_terminal():
        options = state.legal_actions()
        state.apply(options[rand.randrange(len(options))])
    ended = state.legal_actions()
    assert isinstance(ended, Options) and ended == [] and len(ended) == 0 and not ended
    with pytest.raises(IndexError):
        ended[0]


def test_refusals_say_why(game):
    options = game.new_state(3, 1).legal_actions()
    for bad in (3, -4, 10**6):
        with pytest.raises(IndexError, match="3 options"):
            options[bad]
    with pytest.raises(TypeError, match="integers or slices, not str"):
        options["0"]
    with pytest.raises(ValueError, match="not one of these options"):
        options.index(("nope", 0))
    with pytest.raises(TypeError):
        hash(options)
    with pytest.raises(TypeError):     # read-only: list(options) to shuffle
        random.Random(0).shuffle(options)
    shuffled = list(options)
    random.Random(0).shuffle(shuffled)
    assert sorted(shuffled, key=lambda o: o.index) == options


def test_each_option_plays_as_its_index(game):
    """Over random games: applying options[i], options[i - n] (read by iteration too)
    and the index i itself leave byte-identical games."""
    for seed in range(6):
        by_option, by_index, by_iter = (game.new_state(3, seed) for _ in range(3))
        rand = random.Random(seed)
        while not by_option.is_terminal():
            options = by_option.legal_actions()
            i = rand.randrange(len(options))
            by_option.apply(options[i - len(options)])
            by_index.apply(i)
            by_iter.apply(list(by_iter.legal_actions())[i])
            assert by_option.to_json() == by_index.to_json() == by_iter.to_json()


def test_options_of_a_past_decision_keep_their_labels(game):
    """An Options read before a decision was answered still names that decision's
    options, as a list of them did."""
    state = game.new_state(3, 1)
    before = state.legal_actions()
    labels = [o.label for o in before]
    state.apply(before[0])
    assert [o.label for o in before] == labels
    assert before[0]._decision is not state.pending


def test_an_index_of_any_integer_type_is_taken(game):
    # an agent reading its index off a numpy action mask passes numpy's integers
    np = pytest.importorskip("numpy")
    by_numpy, by_int = game.new_state(3, 1), game.new_state(3, 1)
    by_numpy.apply(np.int64(2))
    by_int.apply(2)
    assert by_numpy.to_json() == by_int.to_json()
    for refused in (np.bool_(True), True, np.int64(9)):       # true/false is not an index
        with pytest.raises(IllegalAction):
            game.new_state(3, 1).apply(refused)
