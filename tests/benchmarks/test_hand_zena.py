"""The hand-written Zena anchor (benchmarks/hand/zena.py) against the spec.

Many random games, driven in lockstep: rulespec runs with explicit chance
(`chance="explicit"`), each chance node gets a random outcome, and the same
outcome is fed to the anchor, which evolves by its own rules and is never
re-synchronised from rulespec's state. At every decision both must ask the
same seat, offering the same options (as multisets of rulespec labels); the
same random option is then applied to both, and at the end the scores agree.
This keeps the speed comparison of issue 18 honest: if either side changes
the game, this test fails.
"""
from __future__ import annotations

import random
from collections import Counter, deque

import pytest

from benchmarks.hand import zena
from tests.paths import ROOT
from tests.shipped import shipped

SPEC = str(ROOT / "games" / "zena.yaml")
GAMES = {None: 30, "advanced": 15}     # random games per player count


class FedChance:
    """The anchor's random events, answered with rulespec's outcomes in order: draws,
    rolls and picks from the outcomes given at its chance nodes, each queued with
    the node's outcome list, so the anchor's event must have the same outcomes and
    odds. A shuffle decides nothing: each card that comes up from the shuffled
    part of a deck is a draw, in rulespec as in the anchor."""

    def __init__(self, order: dict):
        self.order = order      # card id -> its place in the spec
        self.draws, self.rolls, self.picks = deque(), deque(), deque()

    def _next(self, queue, what):
        if not queue:
            raise AssertionError(f"the anchor asks for a {what} that rulespec did not make")
        return queue.popleft()

    def shuffle(self, deck, ids):
        return list(ids)

    def draw(self, deck, ids):
        name, outcomes = self._next(self.draws, f"draw from {deck}")
        held = Counter(c.partition("#")[0] for c in ids)
        assert held == {k: round(p * len(ids)) for k, p in outcomes}, \
            f"a draw from {deck}: the two decks hold different cards"
        named = [i for i, c in enumerate(ids) if c.partition("#")[0] == name]
        return min(named, key=lambda i: self.order[ids[i]])   # as rulespec: the first in the spec

    def roll(self, sides):
        value, outcomes = self._next(self.rolls, "roll")
        assert [v for v, _ in outcomes] == list(range(1, sides + 1))
        return value

    def pick(self, n):
        index, outcomes = self._next(self.picks, "pick")
        assert len(outcomes) == n, f"a pick among {n}, rulespec's among {len(outcomes)}"
        return index

    def left_over(self) -> list:
        return [q for q in (self.draws, self.rolls, self.picks) if q]


class Lockstep:
    """rulespec and the anchor playing one game together."""

    def __init__(self, game, variant, players, seed):
        self.rng = random.Random(seed)
        self.state = game.new_state(players, seed, chance="explicit")
        self.fed = FedChance({card: i for i, card in enumerate(game.cards)})
        self._settle()
        self.hand = zena.new_game(players, seed, variant=variant, chooser=self.fed)

    def _settle(self):
        """Answer rulespec's chance nodes at random up to its next decision, queueing
        every outcome for the anchor."""
        state = self.state
        while state.is_chance_node():
            kind = state.explicit.node.kind
            outcomes = state.chance_outcomes()
            i = self.rng.choices(range(len(outcomes)), [p for _, p in outcomes])[0]
            value = outcomes[i][0]
            state.apply_chance(value)
            {"draw": self.fed.draws, "roll": self.fed.rolls, "pick": self.fed.picks}[kind].append(
                (i if kind == "pick" else value, outcomes))

    def check(self, where):
        state, hand = self.state, self.hand
        assert not self.fed.left_over(), f"{where}: the anchor did not use {self.fed.left_over()}"
        assert state.is_terminal() == hand.is_terminal(), f"{where}: one game ended, the other did not"
        if state.is_terminal():
            return
        assert state.current_player() == hand.current_player(), f"{where}: different seats decide"
        theirs = Counter(o.label for o in state.legal_actions())
        mine = Counter(hand.option_keys())
        assert theirs == mine, (f"{where}: options differ; only rulespec: {sorted(theirs - mine)}, "
                                f"only the anchor: {sorted(mine - theirs)}")

    def step(self):
        options = self.state.legal_actions()
        label = options[self.rng.randrange(len(options))].label
        index = self.hand.option_keys().index(label)
        self.state.apply(label)
        self._settle()      # first: the anchor takes the outcomes rulespec makes now
        self.hand.apply(self.hand.legal_actions()[index])


def play_lockstep(game, variant, players, seed) -> int:
    """One game in lockstep; returns the number of decisions compared."""
    pair = Lockstep(game, variant, players, seed)
    decisions = 0
    while True:
        pair.check(f"{variant or 'beginner'} {players}p seed {seed}, decision {decisions}")
        if pair.state.is_terminal():
            break
        pair.step()
        decisions += 1
    assert pair.state.scores() == pair.hand.scores()
    return decisions


@pytest.mark.parametrize("variant", list(GAMES), ids=lambda v: v or "beginner")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_same_options_at_every_decision(variant, players):
    game = shipped(SPEC, variant=variant)
    decisions = sum(play_lockstep(game, variant, players, seed) for seed in range(GAMES[variant]))
    assert decisions > GAMES[variant] * 20     # the games were really played


@pytest.mark.parametrize("variant", list(GAMES), ids=lambda v: v or "beginner")
@pytest.mark.parametrize("players", [2, 4])
def test_a_clone_is_independent_and_goes_on_alike(variant, players):
    """A clone played to its end leaves the original as it was; a second clone,
    given the same answers as the original, plays the same game to the same scores
    (its random events included: the default chooser is copied)."""
    rng = random.Random(players)
    original = zena.new_game(players, 5, variant=variant)
    for _ in range(40):
        options = original.legal_actions()
        original.apply(options[rng.randrange(len(options))])
    before = (original.current_player(), original.option_keys(), original.scores())
    stray = original.clone()
    while not stray.is_terminal():
        options = stray.legal_actions()
        stray.apply(options[rng.randrange(len(options))])
    assert (original.current_player(), original.option_keys(), original.scores()) == before
    twin = original.clone()
    while not original.is_terminal():
        assert (twin.current_player(), twin.option_keys()) == (original.current_player(), original.option_keys())
        i = rng.randrange(len(original.legal_actions()))
        original.apply(original.legal_actions()[i])
        twin.apply(twin.legal_actions()[i])
    assert twin.is_terminal() and twin.scores() == original.scores()


def test_an_illegal_action_is_refused():
    game = zena.new_game(2, 1)
    with pytest.raises(ValueError):
        game.apply(("move", "lord", "nowhere"))
