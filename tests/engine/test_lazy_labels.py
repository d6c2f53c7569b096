"""Labels made when read (flow.Decision, game.StaticTable) are the labels the
rules would have made when the decision was asked, from the live state; and an
option keeps its label after its game moves on (agents hold options)."""
import random

import pytest

from interpreter.engine.flow import Option, unique_labels
from interpreter.engine.values import Seat, display
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

MARKET = str(TESTS / "games" / "market.yaml")
SPECS = [str(ROOT / "games" / f"{g}.yaml") for g in ("castles", "siena", "zena")] + [MARKET]


def eager_labels(st) -> list[str]:
    """The labels as the rules make them now, every one from the live state."""
    decision, game = st.pending, st.game
    if decision.kind != "action":
        return [display(v, game.player_names) for v in decision.values]
    out = []
    for value in decision.values:
        if value == "done":
            out.append("done")
            continue
        name, bound = value
        action = game.actions[name]
        env = {"player": Seat(decision.player)}
        if action.var:
            env[action.var] = bound
        out.append(action._label(st, env, bound))
    return unique_labels(out)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_labels_made_when_read_are_the_labels_of_the_live_state(spec):
    game = shipped(spec)
    assert any(a.stateless_label for a in game.actions.values())
    for seed in range(3):
        st, rng, held = game.new_state(game.max_players, seed), random.Random(seed), []
        while not st.is_terminal():
            options = st.legal_actions()
            if st.pending.kind in ("action", "one", "number"):
                assert [o.label for o in options] == eager_labels(st)
            choice = options[rng.randrange(len(options))]
            if len(held) < 20:
                held.append((choice, choice.label))
            st.apply(choice)
        # labels held while the game went on stay the labels they were
        assert [(o.label, o.index) for o, _ in held] == [(label, o.index) for o, label in held]


def test_an_option_compares_unpacks_and_prints_as_its_label_and_index():
    game = shipped(MARKET)
    st = game.new_state(2, 1)
    first = st.legal_actions()[0]
    label, index = first
    assert (label, index) == (first.label, 0) and first == (label, 0) and str(first) == label
    assert first == st.clone().legal_actions()[0] and hash(first) == hash((label, 0))
    assert isinstance(first, Option) and first[0] == label and len(first) == 2


def test_an_option_of_one_state_is_taken_by_its_clone():
    game = shipped(MARKET)
    st = game.new_state(2, 1)
    option = st.legal_actions()[-1]
    copy = st.clone()
    copy.apply(option)
    st.apply(option.label)
    assert copy.to_json() == st.to_json()


def test_a_bid_is_labelled_when_read_as_it_was_when_asked():
    """An auction's bids (Siena: up to a hundred prices) are labelled by a namer,
    'pass' and 'bid N' in order, as the auction made them before."""
    game, seen = shipped(str(ROOT / "games" / "siena.yaml")), 0
    for seed in range(3):
        st, rng = game.new_state(4, seed), random.Random(seed)
        while not st.is_terminal():
            if st.pending.kind == "bid":
                assert st.pending._labels is None       # none made until read
                values = st.pending.values
                assert [o.label for o in st.legal_actions()] == ["pass"] + [f"bid {v}" for v in values[1:]]
                seen += 1
            options = st.legal_actions()
            st.apply(options[rng.randrange(len(options))])
    assert seen > 10
