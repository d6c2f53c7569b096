"""The hand-written Castles anchor (benchmarks/hand/castles.py) against rulespec
(games/castles.yaml): many random games played in lockstep, the same options at
every decision, the same random outcomes at every chance node, the same scores.

rulespec runs with explicit chance; each outcome it is given is queued, and the
anchor's chooser takes the queue in order, checking that the anchor stands at the
same random event with the same outcomes and probabilities. The anchor keeps its
own state throughout: nothing is copied from rulespec's. If either side changes a
rule, these games part ways and the benchmark's ratio stops being honest.
"""
from __future__ import annotations

import random
from collections import deque

import pytest

from benchmarks.hand import ANCHORS
from benchmarks.hand import castles as hand
from tests.paths import ROOT
from tests.shipped import shipped

GAMES = 30          # per player count; every third one with a policy that reaches rare rules
PLAYERS = (2, 3, 4)


@pytest.fixture(scope="module")
def game():
    return shipped(str(ROOT / "games" / "castles.yaml"))


def uniform(rng, options):
    return rng.choice(options)


def builder(rng, options):
    """Places tiles, spends marble and draws cards far more than a uniform agent, so
    games reach what uniform play almost never does: the region deck reshuffled,
    inns scoring 2 points with the blue staging space full, long castle chains."""
    building = [o for o in options
                if (o.label.startswith("place ") and "blue" not in o.label)
                or o.label.startswith("spend") or o.label in ("take wagon", "take inn", "bonus_yield")]
    if building and rng.random() < 0.8:
        return rng.choice(building)
    drawing = [o for o in options if o.label == "draw region cards"]
    if drawing and rng.random() < 0.6:
        return drawing[0]
    return rng.choice(options)


class Lockstep:
    """One game played by rulespec and the anchor side by side."""

    def __init__(self, game, players, seed):
        self.game, self.rng, self.queue = game, random.Random(seed), deque()
        self.decisions = 0
        self.spec = game.new_state(players, seed, chance="explicit")
        self.resolve_chance()
        self.hand = hand.new_game(players, seed, chooser=self.chooser)

    def resolve_chance(self):
        """Answer rulespec's chance nodes up to its next decision, outcomes weighted."""
        while self.spec.is_chance_node():
            outcomes = self.spec.chance_outcomes()
            value = self.rng.choices([v for v, _ in outcomes], [p for _, p in outcomes])[0]
            self.queue.append((outcomes, value))
            self.spec.apply_chance(value)

    def seat_label(self, seat):
        names = self.game.player_names
        return names[seat] if seat < len(names) else f"P{seat + 1}"

    def chooser(self, kind, outcomes):
        assert self.queue, (f"after decision {self.decisions} the anchor draws ({kind}: "
                            f"{outcomes}) where rulespec has no random event")
        expected, value = self.queue.popleft()
        if kind == "pick" and isinstance(outcomes[0][0], int):   # the start player: a seat
            outcomes = [(self.seat_label(v), p) for v, p in outcomes]
            value = [label for label, _ in outcomes].index(value)
        assert outcomes == expected or outcomes == [(value, p) for value, p in expected], \
            f"after decision {self.decisions}: anchor {kind} {outcomes}, rulespec {expected}"
        return value

    def step(self, policy):
        spec, anchor = self.spec, self.hand
        assert not self.queue, f"rulespec drew {list(self.queue)} the anchor did not"
        labels = [o.label for o in spec.legal_actions()]
        keys = anchor.option_keys()
        where = f"decision {self.decisions}"
        assert anchor.current_player() == spec.current_player(), \
            f"{where}: anchor asks seat {anchor.current_player()}, rulespec seat {spec.current_player()}"
        assert len(keys) == len(labels) and sorted(keys) == sorted(labels), (
            f"{where}: only rulespec offers {sorted(set(labels) - set(keys))}, "
            f"only the anchor offers {sorted(set(keys) - set(labels))}")
        option = policy(self.rng, spec.legal_actions())
        spec.apply(option)
        self.resolve_chance()
        anchor.apply(anchor.legal_actions()[keys.index(option.label)])
        self.decisions += 1

    def play(self, policy):
        while not self.spec.is_terminal():
            self.step(policy)
        assert not self.queue
        assert self.hand.is_terminal(), "rulespec's game is over, the anchor's is not"
        assert self.hand.scores() == self.spec.scores()
        return self.decisions


@pytest.mark.parametrize("players", PLAYERS)
def test_the_anchor_offers_what_the_spec_offers_at_every_decision(game, players):
    decisions = 0
    for seed in range(GAMES):
        policy = builder if seed % 3 == 0 else uniform
        decisions += Lockstep(game, players, 1000 * players + seed).play(policy)
    assert decisions > GAMES * 60 * players // 2     # whole games, not a few set-up steps


def play_out(state, choices, start=0):
    """Play `state` to its end by option indices; returns its scores."""
    for index in choices[start:]:
        state.apply(state.legal_actions()[index])
    assert state.is_terminal()
    return state.scores()


def test_the_anchor_alone_plays_whole_games_and_clones_keep_their_future():
    """With its own generator: whole games, and a clone (taken at set-up, before the
    later players' boards are drawn, and mid-game) plays exactly the original's
    future, even when it draws first."""
    rng, reference, choices = random.Random(5), hand.new_game(4, seed=5), []
    while not reference.is_terminal():
        choices.append(rng.randrange(len(reference.legal_actions())))
        reference.apply(reference.legal_actions()[choices[-1]])
    assert max(reference.scores()) > 0 and len(choices) > 100
    state = hand.new_game(4, seed=5)
    at_set_up = state.clone()
    for index in choices[:40]:
        state.apply(state.legal_actions()[index])
    mid_game = state.clone()
    assert play_out(at_set_up, choices) == reference.scores()
    assert play_out(mid_game, choices, 40) == reference.scores()
    assert play_out(state, choices, 40) == reference.scores()


def test_the_anchor_refuses_what_is_not_legal():
    state = hand.new_game(2, seed=1)
    with pytest.raises(ValueError):
        state.apply(("take", "no such tile"))


def test_anchors_register_by_spec_name():
    assert ANCHORS["castles"] == "benchmarks.hand.castles"
