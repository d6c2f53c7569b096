"""A decision's option that is a map holding a hidden card is as hidden as a card.

Found in review: visibility read the cards of an option through lists and pairs
only, so an option made by `with_key(m, "gem", c)` from an owner-only hand was
shown to the other seat ("P1 chooses {gem: ruby}"), and a forced one's trace
record named no zone to hide it by. Both now walk maps (values.cards_in).
"""
from __future__ import annotations

from interpreter.engine import visibility
from interpreter.tools.trace import collector, format_change
from interpreter.engine.game import load_game

SPEC = """
game: Map options
meta: {source: "test", version: "1"}
players: {min: 2, max: 2}
cards:
  gems:
    in: deck
    list:
      - {name: ruby}
      - {name: opal}
      - {name: jade}
      - {name: onyx}
zones:
  deck: {visibility: hidden}
player_zones:
  hand: {visibility: owner}
per_player:
  kept: {start: {}}
  wins: {start: 0}
flow: |
  shuffle(deck)
  for p in players:
      for i in range(HAND):
          draw(deck, p.hand)
  for p in players:
      p.kept = choose one of [with_key(p.kept, "gem", c) for c in p.hand] by p as "Which gem?"
      p.wins += 1
  end game "done"
scoring:
  score: p.wins
"""


def game(hand: int):
    return load_game("map_options.yaml", text=SPEC.replace("HAND", str(hand)))


def test_another_seat_reads_a_map_option_holding_a_hidden_card_as_hidden():
    texts = set()
    for seed in range(8):
        state = game(2).new_state(2, seed)
        option = state.legal_actions()[0]
        own = visibility.decision_text(state, option, 0)
        assert own.startswith("{gem: ") and own[6:-1] in state.zones["hand@0"]
        texts.add(visibility.decision_text(state, option, 1))
    assert texts == {visibility.HIDDEN_TEXT}


def test_a_map_option_of_cards_the_seat_sees_is_shown():
    state = game(2).new_state(2, 0)
    state.apply(0)     # P1's pick; P2 now picks from its own hand
    option = state.legal_actions()[1]
    assert visibility.decision_text(state, option, 1) == option.label != visibility.HIDDEN_TEXT


def test_a_forced_map_option_is_hidden_in_the_other_seats_trace():
    seen = []
    one = game(1)
    state = one.new_state(2, 3, trace=collector(seen))
    assert state.is_terminal()      # each seat had one option: both taken at once
    forced = [c for c in seen if c.get("kind") == "forced"]
    assert len(forced) == 2
    mine, theirs = (visibility.redact_change(one, forced[0], s) for s in (0, 1))
    assert "gem" in format_change(mine, one.player_names)
    assert "gem" not in format_change(theirs, one.player_names)
    assert theirs["to"] == visibility.HIDDEN_TEXT
