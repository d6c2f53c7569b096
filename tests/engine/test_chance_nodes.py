"""Chance nodes (interpreter/engine/chance.py): with chance="explicit", every roll,
pick and draw from a shuffled face-down zone is a node of the game tree whose
outcomes and probabilities the API lists, so trees can be enumerated exactly and
solved: Kuhn poker's 6 deals and 30 terminal histories, and its equilibrium value
-1/18 for the first player (Kuhn 1950), found here by CFR+ (Tammelin 2014) run on
the tree the API gives."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from interpreter import load_game
from rulespec.errors import IllegalAction
from tests.paths import TESTS
from tests.shipped import shipped

KUHN = str(TESTS / "games" / "kuhn.yaml")

DICE = """
game: two dice
players: {min: 1, max: 1}
globals:
  total: {start: 0}
  pick: {start: none}
symbols: [red, blue]
flow: |
  total = roll(6) + roll(6)
  pick = random_of([red, blue, blue])
  end game "rolled"
scoring:
  score: total
"""


def walk(state, probability=1.0):
    """Every terminal history below `state`: (probability of its chance outcomes, state)."""
    if state.is_terminal():
        return [(probability, state)]
    if state.is_chance_node():
        out = []
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply_chance(outcome)
            out += walk(child, probability * p)
        return out
    out = []
    for option in state.legal_actions():
        child = state.clone()
        child.apply(option.index)
        out += walk(child, probability)
    return out


def test_the_default_samples_and_explicit_stops_at_chance():
    game = shipped(KUHN)
    sampled = game.new_state(2, seed=3)
    assert not sampled.is_chance_node() and sampled.current_player() == 0
    state = game.new_state(2, seed=3, chance="explicit")
    assert state.is_chance_node() and state.current_player() == -1
    assert state.legal_actions() == []
    assert state.chance_outcomes() == [("jack", 1 / 3), ("queen", 1 / 3), ("king", 1 / 3)]
    state.apply_chance("king")
    assert state.chance_outcomes() == [("jack", 0.5), ("queen", 0.5)]
    state.apply_chance("jack")
    assert state.current_player() == 0 and [o.label for o in state.legal_actions()] == ["check", "bet"]
    assert state.zones["hand@0"] == ["king"] and state.zones["hand@1"] == ["jack"]
    with pytest.raises(IllegalAction):
        state.apply_chance("queen")             # no chance node waits
    with pytest.raises(ValueError):
        game.new_state(2, chance="sometimes")


def test_a_refused_outcome_names_the_outcomes():
    state = shipped(KUHN).new_state(2, chance="explicit")
    with pytest.raises(IllegalAction) as e:
        state.apply_chance("ace")
    assert "jack, queen, king" in str(e.value)


def test_kuhn_poker_has_6_deals_and_30_terminal_histories():
    leaves = walk(shipped(KUHN).new_state(2, chance="explicit"))
    assert len(leaves) == 30
    deals = {(s.zones["hand@0"][0], s.zones["hand@1"][0]) for _, s in leaves}
    assert len(deals) == 6
    assert all(p == pytest.approx(1 / 6) for p, _ in leaves)
    assert all(sum(s.scores()) == 0 for _, s in leaves)   # zero-sum


def test_two_rolls_in_one_statement_and_a_weighted_pick():
    game = load_game("dice.yaml", text=DICE)
    leaves = walk(game.new_state(1, chance="explicit"))
    totals: dict = {}
    for p, s in leaves:
        totals[s.g["total"]] = totals.get(s.g["total"], 0) + p
    assert totals[7] == pytest.approx(6 / 36) and totals[2] == pytest.approx(1 / 36)
    assert sum(totals.values()) == pytest.approx(1)
    blue = sum(p for p, s in leaves if s.g["pick"] == "blue")
    assert blue == pytest.approx(2 / 3)      # equal labels add up: blue is 2 of 3 items
    assert len(leaves) == 36 * 2


def test_the_state_is_copied_only_before_instructions_that_may_meet_chance():
    """The run loop copies the state before an instruction only when the instruction
    calls draw, roll or random_of or reads a position of a zone (chance.plan); a
    random call inside an expression rule, which runs inside other instructions,
    makes every instruction count."""
    kuhn = shipped(KUHN)
    flagged = {key: [pc for pc, may in enumerate(points) if may] for key, points in kuhn.chance_points.items()}
    # the deal, and the showdown's two top() reads (a position read of a zone may be chance)
    assert sum(map(len, flagged.values())) == 3 and len(flagged["flow"]) == 1
    assert len(flagged["proc:showdown"]) == 2
    in_a_function = DICE.replace("total = roll(6) + roll(6)", "total = two_dice()") + \
        "functions:\n  two_dice: {expr: 'roll(6) + roll(6)'}\n"
    game = load_game("dice.yaml", text=in_a_function)
    assert game.chance_points == {}
    leaves = walk(game.new_state(1, chance="explicit"))
    assert len(leaves) == 36 * 2 and sum(p for p, s in leaves if s.g["total"] == 7) == pytest.approx(6 / 36)


def test_explicit_chance_changes_nothing_when_outcomes_follow_the_generator():
    """Answering each chance node with what the generator would have drawn plays
    the sampled game exactly."""
    game = shipped(KUHN)
    sampled = game.new_state(2, seed=11)
    explicit = game.new_state(2, seed=11, chance="explicit")
    explicit.apply_chance(sampled.zones["hand@0"][0])
    explicit.apply_chance(sampled.zones["hand@1"][0])
    assert explicit.zones["hand@0"] == sampled.zones["hand@0"]
    assert explicit.current_player() == sampled.current_player()


# ---------------------------------------------------------------- CFR+ on Kuhn
def tree(state):
    """The game tree as nested tuples: ("chance", [(p, child)]), ("decide", seat,
    information set, [child]), ("end", scores). An information set is what the
    deciding seat sees: its view, as JSON."""
    if state.is_terminal():
        return ("end", state.scores())
    if state.is_chance_node():
        children = []
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply_chance(outcome)
            children.append((p, tree(child)))
        return ("chance", children)
    seat = state.current_player()
    key = json.dumps([seat, state.view(seat)], sort_keys=True, default=str)
    children = []
    for option in state.legal_actions():
        child = state.clone()
        child.apply(option.index)
        children.append(tree(child))
    return ("decide", seat, key, children)


def cfr_plus(root, iterations):
    regrets, strategy_sums = {}, {}

    def strategy(key, n):
        positive = [max(r, 0.0) for r in regrets.setdefault(key, [0.0] * n)]
        total = sum(positive)
        return [r / total for r in positive] if total > 0 else [1 / n] * n

    def visit(node, seat, reach_me, reach_others, t):
        kind = node[0]
        if kind == "end":
            return node[1][seat]
        if kind == "chance":
            return sum(p * visit(child, seat, reach_me, reach_others * p, t) for p, child in node[1])
        _, mover, key, children = node
        sigma = strategy(key, len(children))
        if mover != seat:
            return sum(s * visit(c, seat, reach_me, reach_others * s, t) for s, c in zip(sigma, children))
        values = [visit(c, seat, reach_me * s, reach_others, t) for s, c in zip(sigma, children)]
        value = sum(s * v for s, v in zip(sigma, values))
        regret = regrets[key]
        for i, v in enumerate(values):
            regret[i] = max(regret[i] + reach_others * (v - value), 0.0)
        sums = strategy_sums.setdefault(key, [0.0] * len(children))
        for i, s in enumerate(sigma):
            sums[i] += t * reach_me * s      # CFR+ weights later iterations more
        return value

    for t in range(1, iterations + 1):
        for seat in (0, 1):
            visit(root, seat, 1.0, 1.0, t)
    return {k: [x / sum(v) for x in v] if sum(v) > 0 else None for k, v in strategy_sums.items()}


def value(node, average, seat=0):
    kind = node[0]
    if kind == "end":
        return node[1][seat]
    if kind == "chance":
        return sum(p * value(child, average, seat) for p, child in node[1])
    _, _, key, children = node
    sigma = average.get(key) or [1 / len(children)] * len(children)
    return sum(s * value(c, average, seat) for s, c in zip(sigma, children))


def test_cfr_on_the_tree_the_api_gives_finds_kuhn_pokers_value():
    root = tree(shipped(KUHN).new_state(2, chance="explicit"))
    infosets = set()

    def collect(node):
        if node[0] == "decide":
            infosets.add(node[2])
            for c in node[3]:
                collect(c)
        elif node[0] == "chance":
            for _, c in node[1]:
                collect(c)
    collect(root)
    assert len(infosets) == 12          # 3 cards x 4 betting histories, for Kuhn's two seats
    average = cfr_plus(root, 2000)
    assert value(root, average) == pytest.approx(float(Fraction(-1, 18)), abs=1e-3)


# ------------------------------------------------------- tic-tac-toe, exactly
def test_tic_tac_toe_through_the_api_has_5478_positions_and_255168_games():
    """The standard counts (e.g. Schaeffer's, and OpenSpiel's tic_tac_toe tests):
    5,478 legal positions including the empty board, 255,168 complete games.
    Games are counted over the tree the API gives, memoised by position (the
    number of ways to finish depends on the position alone)."""
    game = shipped(str(TESTS / "games" / "tictactoe.yaml"))

    def position(state):
        return (frozenset(state.zones["marks@0"]), frozenset(state.zones["marks@1"]))

    finishes: dict = {}

    def games_from(state):
        key = position(state)
        if key not in finishes:
            if state.is_terminal():
                finishes[key] = 1
            else:
                total = 0
                for option in state.legal_actions():
                    child = state.clone()
                    child.apply(option.index)
                    total += games_from(child)
                finishes[key] = total
        return finishes[key]

    assert games_from(game.new_state(2, 0, forced="ask")) == 255168
    assert len(finishes) == 5478
