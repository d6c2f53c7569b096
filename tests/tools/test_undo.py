"""Undo at the human prompt: back to one's own previous decision, never past chance or a reveal."""
from __future__ import annotations

import io
import json

import pytest

from interpreter import load_game
from tests.shipped import shipped
from interpreter.cli import main
from interpreter.tools.undo import History, barrier

MARKET = "tests/games/market.yaml"


@pytest.fixture(scope="module")
def game():
    return shipped(MARKET)


def to_seat_decision(state, seat, history=None):
    """Play first options until `seat` decides, remembering its decisions."""
    while state.current_player() != seat:
        state.apply(0)
    if history is not None:
        history.remember(state)


def test_undo_within_a_turn_restores_the_state_exactly(game):
    state, history = game.new_state(2, 3), History()
    while not (state.pending.kind == "action" and state.current_player() == 0
               and any(label.startswith("buy") for label in state.pending.labels)):
        state.apply(0)
    history.remember(state)
    before = state.to_json()
    state.apply(next(o for o in state.legal_actions() if o.label.startswith("buy")))
    to_seat_decision(state, 0, history)
    assert state.to_json() != before
    assert history.undo(state, 0) is None
    assert state.to_json() == before
    # and the game goes on from there
    state.apply(state.legal_actions()[-1])


def test_no_undo_past_a_card_drawn_from_a_hidden_deck(game):
    state, history = game.new_state(2, 3), History()
    while state.pending.kind != "number":   # the secret bet, before the market is dealt
        state.apply(0)
    seat = state.current_player()
    history.remember(state)
    saved = state.clone()
    state.apply(0)
    to_seat_decision(state, seat, history)
    assert any(saved.loc[c] == "deck" and state.loc[c] != "deck" for c in saved.loc)
    reason = history.undo(state, seat)
    assert reason and "deck" in reason and reason.startswith("cannot undo")


def test_no_undo_past_chance(game):
    state = game.new_state(2, 1)
    later = state.clone()
    from interpreter.engine.functions import roll
    roll(later, 6)
    assert "chance" in barrier(state, later, 0)
    assert barrier(state, state.clone(), 0) is None


def test_nothing_to_undo_at_the_first_decision(game):
    state, history = game.new_state(2, 1), History()
    history.remember(state)
    assert "no earlier decision" in history.undo(state, state.current_player())


def test_human_undo_through_the_cli_and_the_log_replays(tmp_path):
    log = tmp_path / "undo.jsonl"
    # bet 1, pass the auction, buy; undo the purchase; undoing the pass is refused, as
    # P2 has bid since (and before that the market was dealt from the hidden deck)
    answers = ["1", "1", "1", "undo", "undo", "undo"] + ["1"] * 3000
    out = io.StringIO()
    code = main(["play", MARKET, "--players", "2", "--seed", "3", "--agents", "human,first",
                 "--log", str(log)], out, io.StringIO(), io.StringIO("\n".join(answers) + "\n"))
    assert code == 0
    text = out.getvalue()
    assert "cannot undo: since then another player has decided" in text
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    assert sum(1 for r in rows if "undo" in r) == 1
    assert main(["replay", str(log)], io.StringIO(), io.StringIO()) == 0


SEALED_BIDS = """
game: Sealed bids
players: {min: 2, max: 2}
per_player:
  bid: {start: 0, visibility: owner}
  shown: {start: -1}
flow: |
  secretly for p in players:
      p.bid = choose number from 0 to 3 by p
  for p in players:
      p.shown = p.bid
  for p in players:
      turn p: rest, wave
actions:
  rest: {do: pass}
  wave: {do: pass}
"""


def test_sealed_bids_then_undo_is_refused_once_the_other_seat_has_bid():
    """The issue's example: P1 must not take back a bid after P2's is known."""
    game = load_game("sealed.yaml", text=SEALED_BIDS)
    state, history = game.new_state(2, 0), History()
    history.remember(state)
    state.apply("1")                          # P1's sealed bid
    assert state.current_player() == 1
    state.apply("3")                          # P2's sealed bid; both are then shown
    assert [state.view(0)["players_vars"]["shown"][s] for s in (0, 1)] == [1, 3]
    history.remember(state)                   # P1 to act again, knowing P2's bid
    before = state.to_json()
    reason = history.undo(state, 0)
    assert reason == ("cannot undo: since then another player has decided, "
                      "and taking yours back would let you answer them")
    assert state.to_json() == before

