"""A choice offering the decider's own owner-only values reads '?' to the others.

Found in review: validate lets a `choose ... of OPTIONS by p` read p's owner-only
values (p sees them), and every other seat read the choice's label, so
`choose one of [p.gold, 0] by p` told P2 "P1 chooses 14", P1's gold. Such choices
(rulespec/shown.py, kept in Game.private_choices) now read '?' to the others in every channel
that goes through visibility.decision_text or a trace; a card offered is shown by
where it lies, and a `choose up to`'s "done" by everyone, as before.
"""
from __future__ import annotations

import random

from interpreter.engine import visibility
from interpreter.engine.game import load_game
from interpreter.tools.trace import collector
from tests.paths import ROOT
from tests.shipped import shipped

SPEC = """
game: Private choices
meta: {source: "test", version: "1"}
players: {min: 2, max: 2}
per_player:
  gold: {start: 14, visibility: owner}
  wins: {start: 0}
flow: |
  for p in players:
      x = choose one of OPTIONS by p as "Which?"
      p.wins += x
  end game "done"
scoring:
  score: p.wins
"""


def game(options: str):
    return load_game("private.yaml", text=SPEC.replace("OPTIONS", options))


def test_the_others_read_a_choice_of_the_deciders_own_values_as_hidden():
    state = game("[p.gold, 0]").new_state(2, 0)
    own, other = ([visibility.decision_text(state, o, seat) for o in state.legal_actions()]
                  for seat in (0, 1))
    assert own == ["14", "0"] and other == [visibility.HIDDEN_TEXT] * 2


def test_a_choice_of_public_values_is_shown_to_everyone():
    state = game("[1, 0]").new_state(2, 0)
    assert [visibility.decision_text(state, o, 1) for o in state.legal_actions()] == ["1", "0"]


def test_a_forced_private_choice_is_hidden_in_the_other_seats_trace():
    seen = []
    one = game("[p.gold]")
    state = one.new_state(2, 0, trace=collector(seen))
    assert state.is_terminal()
    forced = [c for c in seen if c.get("kind") == "forced"]
    assert len(forced) == 2
    assert visibility.redact_change(one, forced[0], 1)["to"] == visibility.HIDDEN_TEXT
    assert visibility.redact_change(one, forced[0], 0)["to"] != visibility.HIDDEN_TEXT


def test_castles_payment_plans_read_as_hidden_to_the_others():
    castles = shipped(str(ROOT / "games/castles.yaml"))
    assert castles.private_choices     # pay_for's plans are made from the owner-only hand
    found = 0
    for seed in range(12):
        state, rng = castles.new_state(2, seed), random.Random(seed)
        while not state.is_terminal() and found < 5:
            decision, options = state.pending, state.legal_actions()
            option = options[rng.randrange(len(options))]
            if decision.kind == "one" and decision.where[1] in castles.private_choices:
                mover = decision.player
                assert visibility.decision_text(state, option, mover) == option.label
                assert visibility.decision_text(state, option, 1 - mover) == visibility.HIDDEN_TEXT
                found += 1
            state.apply(option)
    assert found == 5


def test_a_choose_up_to_still_shows_its_done():
    siena = shipped(str(ROOT / "games/siena.yaml"))
    shown = set()
    for seed in range(20):
        state, rng = siena.new_state(3, seed), random.Random(seed)
        while not state.is_terminal():
            decision, options = state.pending, state.legal_actions()
            option = options[rng.randrange(len(options))]
            if decision.kind == "several" and decision.where[1] in siena.private_choices:
                value = decision.values[option.index]
                text = visibility.decision_text(state, option, (decision.player + 1) % 3)
                shown.add(text if value == "done" else "card" if text == visibility.HIDDEN_TEXT else text)
            state.apply(option)
    assert shown == {"done", "card"}


def test_a_pair_of_a_public_card_and_an_owner_only_value_is_hidden():
    spec = SPEC.replace("per_player:", "cards:\n  gems:\n    in: market\n    list:\n      - {name: ruby}\n"
                                       "      - {name: opal}\nzones:\n  market: {visibility: public}\nper_player:")
    two = load_game("pair.yaml", text=spec.replace("OPTIONS", "[[c, p.gold] for c in cards(market)]")
                    .replace("p.wins += x", "p.wins += x[1]"))
    state = two.new_state(2, 0)
    assert [visibility.decision_text(state, o, 1) for o in state.legal_actions()] == [visibility.HIDDEN_TEXT] * 2
    assert visibility.decision_text(state, state.legal_actions()[0], 0) == state.legal_actions()[0].label
