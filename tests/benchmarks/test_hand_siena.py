"""The hand-written Siena anchor (benchmarks/hand/siena.py) against rulespec
(games/siena.yaml): many random games played in lockstep, the same seat and the
same options at every decision, the same random outcomes at every chance node,
the same scores at the end.

rulespec runs with explicit chance; each outcome it is given is queued, and the
anchor's chooser takes the queue in order, checking that the anchor stands at the
same random event with the same outcomes and probabilities. The anchor keeps its
own state throughout: nothing is copied from rulespec's. If either side changes a
rule, these games part ways and the benchmark's ratio stops being honest.

Uniform random players spend their florins in auctions and almost never rise
from Peasant, so most games are played by a `climber` policy that bids little,
rises when it may and plays cards rather than ending its turn: its games reach
Merchants, Bankers, the Tower, the Artists, the beggar and the Courtesans.
SIENA_GAMES=N plays N games per player count instead of the default.
"""
from __future__ import annotations

import os
import random
from collections import Counter, deque

import pytest

from benchmarks.hand import ANCHORS
from benchmarks.hand import siena as hand
from tests.paths import ROOT
from tests.shipped import shipped

SPEC = str(ROOT / "games" / "siena.yaml")
GAMES = int(os.environ.get("SIENA_GAMES", "50"))      # per player count (about 2 s each)
LONG_GAMES = int(os.environ.get("SIENA_LONG_GAMES", "6"))
CUTOFF = 3000       # decisions: a `long` game nobody ends is compared this far


@pytest.fixture(scope="module")
def game():
    return shipped(SPEC)


@pytest.fixture(scope="module")
def long_game():
    return shipped(SPEC, variant="long")


def uniform(rng, options, florins):
    return rng.choice(options)


RISE = ("become a Banker", "build the next floor", "book an Artist", "donate", "do business",
        "play the Piazza Salimbeni card", "play three Inn cards", "play lw_", "travel with")


def climber(thrift: float, rise_at: int, books: bool = True):
    """A player who keeps its florins (passes auctions and purchases; `thrift`: how
    often it keeps what a Merchant could trade for Senesi cards), becomes a
    Merchant at `rise_at` florins and a Banker at once, then builds, books
    (unless not `books`: then the Tower may end the game), donates and deals."""
    def policy(rng, options, florins):
        labels = [o.label for o in options]
        if not books and "do not book an Artist" in labels:
            return options[labels.index("do not book an Artist")]
        wanted = [o for o in options if o.label.startswith(RISE)]
        if wanted and rng.random() < 0.9:
            return rng.choice(wanted)
        bids = [o for o in options if o.label.startswith("bid ")]
        if "become a Merchant" in labels:
            return options[labels.index("become a Merchant" if florins >= rise_at else "stay a Peasant")]
        if "keep all the florins" in labels and rng.random() < thrift:
            return options[labels.index("keep all the florins")]
        if "pass" in labels and rng.random() < (0.9 if bids else 0.5):   # an auction, a purchase
            return options[labels.index("pass")]
        if bids:
            return bids[0]
        if "done" in labels:      # a turn: play a card now and then, seldom throw one away
            playing = [o for o in options if o.label not in ("done", "discard a card")]
            return rng.choice(playing) if playing and rng.random() < 0.5 else options[labels.index("done")]
        return rng.choice(options)
    return policy


def policy_for(seed: int):
    """Every fourth game uniform; the others climbers of different habits."""
    if seed % 4 == 3:
        return uniform
    return climber(thrift=(0.9, 0.5, 0.0)[seed % 3], rise_at=(45, 40, 60)[seed % 4])


class Lockstep:
    """One game played by rulespec and the anchor side by side."""

    def __init__(self, game, players, seed):
        self.rng, self.queue, self.decisions = random.Random(seed), deque(), 0
        self.spec = game.new_state(players, seed, chance="explicit")
        self.resolve_chance()
        self.hand = hand.new_game(players, seed, chooser=self.chooser, variant=game.variant)

    def resolve_chance(self):
        """Answer rulespec's chance nodes up to its next decision, outcomes weighted."""
        while self.spec.is_chance_node():
            outcomes = self.spec.chance_outcomes()
            value = self.rng.choices([v for v, _ in outcomes], [p for _, p in outcomes])[0]
            self.queue.append((outcomes, value))
            self.spec.apply_chance(value)

    def chooser(self, kind, outcomes):
        assert self.queue, (f"after decision {self.decisions} the anchor draws ({kind}: "
                            f"{outcomes}) where rulespec has no random event")
        expected, value = self.queue.popleft()
        assert outcomes == expected, f"after decision {self.decisions}: anchor {kind} {outcomes}, rulespec {expected}"
        return value

    def step(self, policy):
        spec, anchor = self.spec, self.hand
        assert not self.queue, (f"decision {self.decisions}: rulespec made {len(self.queue)} random "
                                f"draws the anchor did not, the first {self.queue[0][1]!r}")
        assert not anchor.is_terminal(), f"decision {self.decisions}: the anchor's game is over, rulespec's is not"
        labels = [o.label for o in spec.legal_actions()]
        keys = anchor.option_keys()
        where = f"decision {self.decisions}"
        assert anchor.current_player() == spec.current_player(), \
            f"{where}: anchor asks seat {anchor.current_player()}, rulespec seat {spec.current_player()}"
        assert Counter(keys) == Counter(labels), (
            f"{where}: only rulespec offers {sorted((Counter(labels) - Counter(keys)).elements())}, "
            f"only the anchor offers {sorted((Counter(keys) - Counter(labels)).elements())}")
        option = policy(self.rng, spec.legal_actions(), anchor.players[anchor.current_player()].florins)
        spec.apply(option)
        self.resolve_chance()
        anchor.apply(anchor.legal_actions()[keys.index(option.label)])
        self.decisions += 1

    def play(self, policy, cutoff=None):
        """Plays to the end (or `cutoff` decisions); returns the decisions compared."""
        while not self.spec.is_terminal() and self.decisions != cutoff:
            self.step(policy)
        if self.spec.is_terminal():
            assert not self.queue
            assert self.hand.is_terminal(), "rulespec's game is over, the anchor's is not"
            assert self.hand.ended_by == self.spec.ended_by
            assert self.hand.scores() == self.spec.scores()
        return self.decisions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_anchor_offers_what_the_spec_offers_at_every_decision(game, players):
    decisions, bankers = 0, 0
    for seed in range(GAMES):
        pair = Lockstep(game, players, 1000 * players + seed)
        decisions += pair.play(policy_for(seed))
        bankers += sum(p.status == "banker" for p in pair.hand.players)
    assert decisions > GAMES * 60      # whole games, not a few set-up steps
    assert bankers >= GAMES // 10      # the climbers' games reached the Bankers' rules


def test_the_long_variant_ends_alike_by_the_tower_or_by_lorenzetti(long_game):
    """No round limit: the game ends only when the Tower is finished or Ambrogio
    Lorenzetti is booked (climbers who never book let the Tower end it)."""
    ends = Counter()
    for players in (2, 3, 4):
        for seed in range(LONG_GAMES):
            pair = Lockstep(long_game, players, 1000 * players + seed)
            pair.play(climber(0.9, 45, books=seed % 2 == 0), cutoff=CUTOFF)
            ends[pair.spec.ended_by] += 1
    assert ends["Lorenzetti booked"] > 0 and ends["tower finished"] > 0, ends


def play_out(state, choices, start=0):
    """Play `state` to its end by option indices; returns its scores."""
    for index in choices[start:]:
        state.apply(state.legal_actions()[index])
    assert state.is_terminal()
    return state.scores()


def test_the_anchor_alone_plays_whole_games_and_clones_keep_their_future():
    """With its own generator: whole games, and a clone (taken at the start and
    mid-game) plays exactly the original's future, its random events included;
    playing a clone leaves its original as it was."""
    rng, reference, choices = random.Random(5), hand.new_game(4, seed=5), []
    while not reference.is_terminal():
        choices.append(rng.randrange(len(reference.legal_actions())))
        reference.apply(reference.legal_actions()[choices[-1]])
    assert len(choices) > 60
    state = hand.new_game(4, seed=5)
    at_start = state.clone()
    for index in choices[:40]:
        state.apply(state.legal_actions()[index])
    before = (state.current_player(), state.option_keys(), state.scores())
    mid_game = state.clone()
    assert play_out(mid_game, choices, 40) == reference.scores()
    assert (state.current_player(), state.option_keys(), state.scores()) == before
    assert play_out(at_start, choices) == reference.scores()
    assert play_out(state, choices, 40) == reference.scores()


def test_the_anchor_refuses_what_is_not_legal():
    state = hand.new_game(2, seed=1)
    with pytest.raises(ValueError):
        state.apply(("take", "no such card"))
    with pytest.raises(ValueError):
        hand.new_game(6, seed=1)


def test_anchors_register_by_spec_name():
    assert ANCHORS["siena"] == "benchmarks.hand.siena"
