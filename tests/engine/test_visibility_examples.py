"""The issue's examples of hidden information leaking, or public information not shown,
each fixed (issue 13): refusals that printed a rival's hidden strength or the
face-down top card, a secret round writing public state, Zena's cubes and areas
shown to nobody; and a secret choice earlier in the round hidden from the next seat."""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.engine import visibility
from interpreter.engine.values import Zone
from rulespec.errors import IllegalAction, SpecErrors
from tests.engine.test_visibility import received, reask, refused_candidates
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

DUEL = str(TESTS / "games" / "duel.yaml")


@pytest.fixture(scope="module")
def duel():
    return shipped(DUEL)


def refusal_text(state, label) -> str:
    with pytest.raises(IllegalAction) as caught:
        state.apply(label)
    return caught.value.format()


def test_a_refused_challenge_names_the_condition_but_not_the_rivals_strength(duel):
    state = duel.new_state(2, 1)
    assert state.current_player() == 0 and "challenge P2" not in state.pending.labels
    text = refusal_text(state, "challenge P2")
    assert "action challenge refuses it: `player.strength > q.strength` is false: " \
           "player.strength = 3, q.strength = ?" in text
    assert "q.strength = 7" not in text
    # the same text whatever P2's strength, as long as the challenge is refused
    other = state.clone()
    other.pv["strength"][1] = 12
    assert refusal_text(reask(other), "challenge P2") == text


def test_a_refused_gamble_does_not_show_the_face_down_top_card(duel):
    state = duel.new_state(2, 1)
    assert state.zones[Zone("deck")][0] == "weak_omen"     # the face-down top card
    text = refusal_text(state, "gamble")
    assert "`top(deck).power > 5` is false: top(deck).power = ?" in text
    assert "= 1" not in text


def test_two_hidden_parts_are_not_told_apart():
    """When both parts of a refused `and` read hidden values, the seat learns only that
    one of them is false, not which."""
    state = shipped(DUEL).new_state(2, 1)
    message = refusal_text(state, "dare P2")
    assert "one of `player.strength > q.strength`, `top(deck).power > 5` is false, " \
           "by what you cannot see" in message


def test_what_the_seat_may_see_is_still_shown(duel):
    state = duel.new_state(2, 1)
    state.pv["wins"][1] = 4
    text = refusal_text(state, "challenge P2")
    assert "player.strength = 3" in text        # its own strength: it may see that


# ------------------------------------------------------------------ secret rounds
RPS = """
game: Rock paper scissors
players: {min: 2, max: 2}
symbols: [rock, paper, scissors]
per_player:
  pick: {start: none}
flow: |
  secretly for p in players:
      p.pick = choose one of [rock, paper, scissors] by p
"""


def test_validate_refuses_a_secret_round_that_writes_public_state():
    with pytest.raises(SpecErrors) as caught:
        load_game("rps.yaml", text=RPS)
    [error] = caught.value.errors
    assert (error.line, error.col) == (9, 9)      # `p.pick`, in the round at line 8
    assert "per-player value pick is public, and the secret round at line 8 writes it" in error.message
    assert "owner-only" in error.message


def test_a_secret_round_with_an_owner_only_choice_hides_it_until_revealed():
    text = RPS.replace("pick: {start: none}", "pick: {start: none, visibility: owner}\n  shown: {start: none}") \
        + "  for p in players:\n      p.shown = p.pick\n  for p in players:\n      turn p: wave, bow\n" \
        + "actions:\n  wave: {do: pass}\n  bow: {do: pass}\n"
    game = load_game("rps.yaml", text=text)
    first = game.new_state(2, 0)
    first.apply("rock")
    second = game.new_state(2, 0)
    second.apply("paper")
    assert first.current_player() == second.current_player() == 1
    assert received(reask(first), 1, None, ["rock", "wave"]) == \
        received(reask(second), 1, None, ["rock", "wave"])
    first.apply("scissors")
    assert first.view(1)["players_vars"]["shown"] == ["rock", "scissors"]   # revealed after


def test_market_bets_a_secret_choice_earlier_in_the_round_is_invisible_to_the_next_seat():
    game = shipped(str(TESTS / "games" / "market.yaml"))
    twins = []
    for bet in ("0", "2"):
        st = game.new_state(3, 4)
        while st.pending.kind != "number":
            st.apply(0)
        first = st.current_player()
        st.apply(bet)
        twins.append(st)
    nxt = twins[0].current_player()
    assert nxt != first and twins[1].current_player() == nxt
    assert twins[0].pv["bet"][first] != twins[1].pv["bet"][first]
    candidates = refused_candidates(game, twins[0])
    assert received(twins[0], nxt, None, candidates) == received(twins[1], nxt, None, candidates)


# ------------------------------------------------------------------ per-card values
def test_zena_cubes_and_areas_are_visible_to_every_seat():
    game = shipped(str(ROOT / "games" / "zena.yaml"))
    state = game.new_state(4, 3)
    card = state.zones[Zone("action_deck")][0]
    state.zones[Zone("action_deck")].remove(card)
    state.zones[Zone("play")].append(card)
    state.loc[card] = Zone("play")
    state.cv["cubes"][card] = [state.seats[1], state.seats[2]]
    state.cv["placed_in"][card] = "bank"
    for seat in (None, 0, 1, 2, 3):
        shown = state.view(seat)["cards"][card]
        assert shown["cubes"] == [{"$seat": 1}, {"$seat": 2}] and shown["placed_in"] == "bank"
        assert f"{card}: " in state.describe(seat) and "placed_in=bank" in state.describe(seat)
    hidden = state.zones[Zone("action_deck")][0]
    assert all(hidden not in state.view(s)["cards"] for s in range(4))   # a face-down card: nothing


def test_per_card_owner_and_hidden_values(duel):
    state = duel.new_state(2, 1)
    card = state.zones[Zone("deck")].pop()
    state.zones[Zone("shown")].append(card)
    state.loc[card] = Zone("shown")
    state.cv["marks"][card], state.cv["secret_mark"][card] = 2, 5
    assert state.view(1)["cards"][card] == {"marks": 2}        # hidden: nobody, not even in the open
    assert visibility.sees_variable(duel, "per_card", "secret_mark", Zone("shown"), 0) is False
    assert visibility.sees_variable(duel, "per_card", "marks", Zone("shown"), None) is True


def test_a_seats_copy_of_the_state_refuses_to_be_read_where_hidden(duel):
    state = duel.new_state(2, 1)
    mine = visibility.seat_state(state, 0)
    assert mine.pv["strength"][0] == 3
    with pytest.raises(visibility.Hidden):
        mine.pv["strength"][1] > 2
    assert len(mine.zones[Zone("deck")]) == 2
    with pytest.raises(visibility.Hidden):
        mine.zones[Zone("deck")][0] == "weak_omen"
