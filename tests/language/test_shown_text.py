"""Shown text reads only what its reader may see (rulespec/shown.py).

The designer's two reports are here word for word; their variants (through a
function, a local, a procedure, a hidden zone, a per-card owner value, a
prompt, a secret round) are data files in tests/specs/invalid/shown_*.yaml, and
tests/specs/valid/shown_own_and_public.yaml holds what stays legitimate.
"""
from __future__ import annotations

import pytest

from rulespec import SpecErrors, validate

LABEL_LEAK = """\
game: W2
players: {min: 2, max: 2}
per_player:
  secret: {start: 0, visibility: owner}
  pts: {start: 0}
flow: |
  for p in players:
      p.secret = roll(6)
  turn players[0]: peek
  end game "x"
actions:
  peek:
    for: i in [1, 2]
    label: '"guess " + text(i) + " (opponent has " + text(players[1].secret) + ")"'
    do: |
      player.pts = i
scoring:
  score: p.pts
"""

LOG_LEAK = """\
game: W3
players: {min: 2, max: 2}
cards:
  k: {in: deck, list: [{name: a, count: 2}, {name: b, count: 2}]}
zones:
  deck: {visibility: hidden}
player_zones:
  hand: {visibility: owner}
per_player:
  pts: {start: 0}
flow: |
  shuffle(deck)
  draw(deck, players[1].hand, 1)
  log("P2 holds " + name(top(players[1].hand)))
  x = choose one of [1, 2] by players[0] as "P2 holds {top(players[1].hand)}"
  end game "x"
scoring:
  score: p.pts
"""


def errors_of(text: str) -> list:
    with pytest.raises(SpecErrors) as caught:
        validate("spec.yaml", text=text)
    return caught.value.errors


def test_a_label_reading_another_seats_owner_value_is_refused_at_the_read():
    [error] = errors_of(LABEL_LEAK)
    assert (error.line, error.col) == (14, 70)       # players[1].secret in the label
    assert "this label is shown to the deciding seat (player)" in error.message
    assert "players[1].secret (an owner-only per-player value: only players[1] sees it)" in error.message
    assert "Show only what player may see here" in error.message      # how to fix it


def test_a_log_reading_another_seats_hand_is_refused():
    # (its question's {top(...)} is refused too, as no plain name: test_presentation_checks)
    [error] = [e for e in errors_of(LOG_LEAK) if "log()" in e.message]
    assert (error.line, error.col) == (14, 41)
    assert "log() text is shown to every seat and to spectators" in error.message
    assert "the cards of players[1].hand (an owner-only zone: only players[1] sees it)" in error.message
    assert "reveal it first into a public variable" in error.message


def test_the_label_may_read_the_deciders_own_values_and_cards():
    own = LABEL_LEAK.replace("text(players[1].secret)", "text(player.secret)")
    validate("spec.yaml", text=own)
    hand = LOG_LEAK.replace('  log("P2 holds " + name(top(players[1].hand)))\n', "") \
        .replace('  x = choose one of [1, 2] by players[0] as "P2 holds {top(players[1].hand)}"\n',
                 "  turn players[1]: play\n") \
        + "actions:\n  play:\n    for: c in player.hand\n    label: '\"play \" + name(c)'\n" \
          "    do: move(c, deck)\n"
    validate("spec.yaml", text=hand)


def test_counts_of_hidden_zones_are_public():
    counted = LOG_LEAK.replace("name(top(players[1].hand))", "text(count(players[1].hand))")
    validate("spec.yaml", text=counted.replace(' as "P2 holds {top(players[1].hand)}"', ""))


def test_a_card_once_moved_to_a_public_zone_may_be_logged():
    public = LOG_LEAK.replace("  deck: {visibility: hidden}\n",
                              "  deck: {visibility: hidden}\n  table: {visibility: public}\n") \
        .replace('  log("P2 holds " + name(top(players[1].hand)))\n',
                 '  c = top(deck)\n  log("next is hidden")\n  move(c, table)\n  log("turned up " + name(c))\n') \
        .replace(' as "P2 holds {top(players[1].hand)}"', "")
    validate("spec.yaml", text=public)
    hidden = public.replace('  log("next is hidden")\n', '  log("next is " + name(c))\n')
    [error] = errors_of(hidden)
    assert "the cards of zone deck (hidden" in error.message


def test_a_recursive_function_in_a_label_is_read_once():
    spec = LABEL_LEAK.replace("actions:", "functions:\n  down: {params: [n, q], expr: "
                              "\"q.secret if n == 0 else down(n - 1, next_player(q))\"}\nactions:") \
        .replace("text(players[1].secret)", "text(down(3, players[1]))")
    [error] = errors_of(spec)
    assert "players[1].secret" in error.message and "functions.down.expr" in error.message


def test_a_secret_rounds_choice_may_be_shown_to_its_chooser_only():
    spec = LABEL_LEAK.replace("  turn players[0]: peek\n",
                              "  secretly for p in players:\n"
                              "      x = choose one of [1, 2] by p as \"Pick\"\n"
                              "      y = choose one of [3, 4] by p as \"You picked {x}: and?\"\n"
                              "      p.secret = x + y\n"
                              "  turn players[0]: peek\n") \
        .replace("text(players[1].secret)", "text(player.secret)")
    validate("spec.yaml", text=spec)


def test_a_question_showing_the_previous_seats_secret_pick_is_refused():
    # it passed, and P2's question said "You pick 2?", P1's secret pick: a question is
    # read before its answer is stored, and a loop's `p` of an earlier round is another seat
    spec = LABEL_LEAK.replace("  turn players[0]: peek\n",
                              "  x = 0\n"
                              "  secretly for p in players:\n"
                              "      x = choose one of [1, 2] by p as \"You pick {x}?\"\n"
                              "      p.secret = x\n"
                              "  turn players[0]: peek\n") \
        .replace("text(players[1].secret)", "text(player.secret)")
    [error] = errors_of(spec)
    assert "the question shows {x} to the deciding seat (p), but it reads a secret choice of p " \
           "(the p of an earlier round of the loop)" in error.message
