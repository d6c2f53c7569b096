"""The issue's examples of hidden information leaking, or public information not shown,
each fixed (issue 13): refusals that printed a rival's hidden strength or the
face-down top card, a secret round writing public state, Zena's cubes and areas
shown to nobody; and a secret choice earlier in the round hidden from the next seat."""
from __future__ import annotations

import io
import random

import pytest

from interpreter import load_game
from interpreter.cli import main
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


DISCARDS = """
game: Discards
players: {min: 2, max: 3}
cards:
  gold: {in: deck, list: [{name: ingot}, {name: bar}]}
  lead: {in: deck, list: [{name: pipe}, {name: weight}]}
zones:
  deck: {visibility: hidden}
  gold_pile: {visibility: hidden}
  lead_pile: {visibility: hidden}
player_zones:
  hand: {visibility: owner}
per_player:
  out: {start: [], visibility: owner}
procedures:
  file: {params: [c], do: "move_bottom(c, gold_pile if kind(c) == gold else lead_pile)"}
flow: |
  for p in players:
      draw(deck, p.hand)
  secretly for p in players:
      ROUND
  end game "done"
functions:
  take: {params: [q, m], expr: "draw(deck, q.hand, m)"}
"""


@pytest.mark.parametrize("round_, needle, why", [
    # Zena's discard as it was: the deck a card went to showed its kind to the next seat
    ("c = choose one of p.hand by p\n      if kind(c) == gold:\n          move_bottom(c, gold_pile)\n"
     "      else:\n          move_bottom(c, lead_pile)", "move_bottom(c, gold_pile)",
     "runs only under a condition on what was chosen"),
    ("n = choose number from 0 to 1 by p\n      draw(deck, p.hand, n)", "draw(deck, p.hand, n)",
     "moves to a zone, or a number of cards, decided by what was chosen"),
    ("c = choose one of p.hand by p\n      move(c, gold_pile if kind(c) == gold else lead_pile)",
     "move(c, gold_pile", "moves to a zone, or a number of cards, decided by what was chosen"),
    ("k = choose one of [gold, lead] by p\n      move([c for c in p.hand if kind(c) == k], gold_pile)",
     "move([c for c", "moves a number of cards decided by what was chosen"),
    ("c = choose one of p.hand by p\n      file(c)", "move_bottom(c, gold_pile",
     "moves to a zone, or a number of cards, decided by what was chosen"),
    ("choose by p:\n          \"keep\": pass\n          \"bury\": move(p.hand, lead_pile)",
     "move(p.hand, lead_pile)", "runs only under a condition on what was chosen"),
    # gold and lead cards have backs of their own: the pile's count of each kind tells
    ("c = choose one of p.hand by p\n      move(c, gold_pile)", "move(c, gold_pile)",
     "moves a card that was chosen, whose kind its back shows,"),
    # a move inside a condition or another expression, checked as one written as a statement
    ("n = choose number from 0 to 1 by p\n      if count(draw(deck, p.hand, n)) > 0:\n"
     "          pass",
     "if count(draw(", "moves to a zone, or a number of cards, decided by what was chosen"),
    ("n = choose number from 0 to 1 by p\n      if n > 0:\n          pass\n"
     "      elif count(draw(deck, p.hand)) > 0:\n          pass", "elif count(draw(",
     "runs only under a condition on what was chosen"),
    ("c = choose one of p.hand by p\n      if move(c, gold_pile) == none:\n          pass",
     "if move(c, gold_pile)", "moves a card that was chosen, whose kind its back shows,"),
    ("n = choose number from 0 to 1 by p\n      while count(draw(deck, p.hand)) < n:\n"
     "          pass",
     "while count(draw(", "runs only under a condition on what was chosen"),
    ("n = choose number from 0 to 1 by p\n      for c in draw(deck, p.hand, n):\n          pass",
     "for c in draw(", "moves to a zone, or a number of cards, decided by what was chosen"),
    ("n = choose number from 0 to 1 by p\n"
     "      for c in p.hand where count(draw(deck, p.hand, n)) > 0:\n          pass",
     "where count(draw(", "moves to a zone, or a number of cards, decided by what was chosen"),
    ("n = choose number from 0 to 1 by p\n      got = draw(deck, p.hand) if n > 0 else []",
     "got = draw(", "runs only under a condition on what was chosen"),
    ("n = choose number from 0 to 1 by p\n      more = n > 0 and count(draw(deck, p.hand)) > 0",
     "more = n > 0", "runs only under a condition on what was chosen"),
    # a spec function may move cards too: its parameters are followed as a procedure's
    ("n = choose number from 0 to 1 by p\n      got = take(p, n)", "take: {params",
     "moves to a zone, or a number of cards, decided by what was chosen"),
])
def test_a_move_in_a_secret_round_that_counts_would_tell_is_refused(round_, needle, why):
    """Every zone's count is public: a move in the round whose zone or number of cards
    a choice decides, or that runs only as chosen, shows the choice to the seats
    deciding after (found in Zena's discard to the hand limit: the goal deck or the
    action deck grew by one, as the discarded card's kind was)."""
    text = DISCARDS.replace("ROUND", round_)
    with pytest.raises(SpecErrors) as caught:
        load_game("d.yaml", text=text)
    error = caught.value.errors[0]      # (an if and its else: one error each)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)
    assert error.line == line and why in error.message, error.format()
    assert "secret round at line 20" in error.message and "after the round" in error.message


def test_a_move_in_a_condition_that_no_choice_decides_is_allowed():
    """An effect in an `if`'s condition or a spec function runs for every seat alike
    when what was chosen decides neither its zone, its count nor whether it runs."""
    round_ = "n = choose number from 0 to 1 by p\n" \
             "      if count(take(p, 1)) > 0 and count(draw(deck, p.hand, 0)) == 0:\n" \
             "          p.out = [n]"
    text = DISCARDS.replace("ROUND", round_)
    state = load_game("d.yaml", text=text).new_state(2, 0)
    state.apply("1")
    state.apply("0")
    assert state.is_terminal() and [len(state.zones[f"hand@{i}"]) for i in (0, 1)] == [2, 2]
    assert state.pv["out"] == [[1], [0]]


@pytest.mark.parametrize("round_, section", [
    ("got = peek()", 'functions:\n  peek: {params: [], expr: "draw(deck, table)"}\n'),
    ("phase deal", 'phases:\n  deal: {do: "draw(deck, table)"}\nfunctions:\n'),
])
def test_a_spec_function_or_phase_the_round_runs_may_not_write_public_state(round_, section):
    """Followed as a procedure the round calls is: either may move cards."""
    text = DISCARDS.replace("ROUND", round_).replace("functions:\n", section).replace(
        "  deck: {visibility: hidden}", "  deck: {visibility: hidden}\n"
                                        "  table: {visibility: public}")
    with pytest.raises(SpecErrors) as caught:
        load_game("d.yaml", text=text)
    [error] = caught.value.errors
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "draw(deck, table)" in ln)
    assert error.line == line
    assert "zone table is public, and the secret round at line 21 writes it" in error.message


# the same game with procedures that may leave early or take a zone, a trigger with a
# condition, and a public table; then with one kind of card (a chosen card may move)
MORE = DISCARDS.replace("procedures:\n", "procedures:\n"
                        '  early: {params: [m], do: "if m > 0:\\n    return\\ndraw(deck, gold_pile)"}\n'
                        '  deal: {params: [m], do: "for i in range(2):\\n    draw(deck, gold_pile)\\n'
                        '    if i == m:\\n        return"}\n'
                        '  put: {params: [z], do: "draw(deck, z)"}\n').replace(
    "  deck: {visibility: hidden}\n", "  deck: {visibility: hidden}\n  table: {visibility: public}\n") \
    + 'signals:\n  dealt: [q, m]\ntriggers:\n' \
    + '  deal_more: {on: dealt, when: "m > 0", do: "draw(deck, q.hand)"}\n'
ONE_KIND = MORE.replace("  lead: {in: deck, list: [{name: pipe}, {name: weight}]}\n", "").replace(
    "[{name: ingot}, {name: bar}]", "[" + ", ".join(
        "{name: %s}" % n for n in "ingot bar coin ring nugget leaf dust crown chain cup".split()) + "]")
RUNS = "runs only under a condition on what was chosen"
HOW_MANY = "moves a number of cards decided by what was chosen"


@pytest.mark.parametrize("spec, round_, needle, why", [
    # a move repeated as many times as chosen
    (MORE, "n = choose number from 0 to 1 by p\n      for i in range(n):\n          draw(deck, p.hand, 1)",
     "draw(deck, p.hand, 1)", RUNS),
    (MORE, "n = choose number from 0 to 1 by p\n      got = [draw(deck, p.hand, 1) for i in range(n)]",
     "got = [draw(", RUNS),
    (MORE, "p.out = choose up to 1 of p.hand by p\n      while count(p.out) > 0:\n          p.out = []\n"
     "          draw(deck, p.hand, 1)", "draw(deck, p.hand, 1)", RUNS),
    (ONE_KIND, "cs = choose up to 2 of p.hand by p\n      for c in cs:\n          move(c, gold_pile)",
     "move(c, gold_pile)", RUNS),
    # a list of chosen length moved: one kind of card, so only the count tells
    (ONE_KIND, "cs = choose up to 2 of p.hand by p\n      move(cs, gold_pile)", "move(cs, gold_pile)",
     HOW_MANY),
    (ONE_KIND, "n = choose number from 1 to 2 by p\n      cs = choose n of p.hand by p\n"
     "      move(sort(cs), gold_pile)", "move(sort(cs)", HOW_MANY),
    # what runs after a return under a condition on a choice, and every pass of its loop
    (MORE, "n = choose number from 0 to 1 by p\n      early(n)", "early: {params", RUNS),
    (MORE, "n = choose number from 0 to 1 by p\n      deal(n)", "deal: {params", RUNS),
    # a choice kept in an owner variable and read back, or assigned under a condition on one
    (MORE, "p.out = choose 1 of p.hand by p\n      if kind(first(p.out)) == gold:\n"
     "          draw(deck, p.hand, 1)", "draw(deck, p.hand, 1)", RUNS),
    (MORE, "n = choose number from 0 to 1 by p\n      m = 0\n      if n > 0:\n          m = 1\n"
     "      draw(deck, p.hand, m)", "draw(deck, p.hand, m)",
     "moves to a zone, or a number of cards, decided by what was chosen"),
    # a trigger's parameters are followed as a procedure's; its `when:` is a condition
    (MORE, "n = choose number from 0 to 1 by p\n      signal dealt(p, n)", "deal_more: {on", RUNS),
    # a public zone held in a parameter or a local, or one the check cannot name
    (MORE, "put(table)", "put: {params", "zone table is public"),
    (MORE, "z = table\n      draw(deck, z)", "      draw(deck, z)", "zone table is public"),
    (MORE, "c = top(table)\n      move(c, p.hand)", "move(c, p.hand)", "zone table is public"),
    (MORE, "draw(deck, where(first(p.hand)))", "where(first(",
     "zone where(first(p.hand)) may be public (the check cannot tell which zone it is)"),
])
def test_a_move_a_choice_repeats_sizes_or_cuts_short_is_refused(spec, round_, needle, why):
    """How many cards move is chosen when a loop runs as often as chosen or the list
    moved has a chosen length; what runs after a `return` on a choice runs only as
    chosen; a zone in a local or a parameter is the zone it holds. Each passed validate
    before, and a zone's count told the later seats the choice (or a public zone changed
    in the round)."""
    text = spec.replace("ROUND", round_)
    with pytest.raises(SpecErrors) as caught:
        load_game("d.yaml", text=text)
    error = caught.value.errors[0]
    lines = text.splitlines()
    line = next(i for i, ln in enumerate(lines, 1) if needle in ln)
    round_line = next(i for i, ln in enumerate(lines, 1) if "secretly for" in ln)
    assert error.line == line and why in error.message, error.format()
    assert f"secret round at line {round_line}" in error.message and "after the round" in error.message


def test_the_same_moves_with_no_choice_deciding_them_are_allowed_and_play():
    """A loop of fixed length, a procedure that leaves early on a fixed value, a trigger
    whose `when:` reads none, a hidden zone in a parameter or a local: all validate,
    and move the same cards whatever is chosen."""
    round_ = "n = choose number from 0 to 1 by p\n      for i in range(1):\n          draw(deck, p.hand)\n" \
             "      early(0)\n      z = p.hand\n      put(z)\n      signal dealt(p, 1)\n      p.out = [n]"
    state = load_game("d.yaml", text=ONE_KIND.replace("ROUND", round_)).new_state(2, 0)
    state.apply("1")
    state.apply("0")
    assert state.is_terminal() and [len(state.zones[f"hand@{i}"]) for i in (0, 1)] == [4, 4]
    assert len(state.zones["gold_pile"]) == 2 and state.pv["out"] == [[1], [0]]


def test_a_fixed_number_of_chosen_cards_may_move_in_a_game_of_one_kind():
    """`choose 1 of`, and Zena's `choose excess of` with `excess` not chosen, take as many
    cards whatever is chosen: with one kind of card, the counts tell nothing."""
    round_ = "draw(deck, p.hand, 2)\n      excess = count(p.hand) - 2\n" \
             "      out = choose excess of p.hand by p\n      move(out, gold_pile)\n" \
             "      cs = choose 1 of p.hand by p\n      for c in cs:\n          move(c, lead_pile)"
    state = load_game("d.yaml", text=ONE_KIND.replace("ROUND", round_)).new_state(2, 0)
    while not state.is_terminal():
        state.apply(0)
    assert [len(state.zones[z]) for z in ("hand@0", "hand@1", "gold_pile", "lead_pile")] == [1, 1, 2, 2]


def test_the_shipped_games_pass_the_secret_round_checks():
    out, err = io.StringIO(), io.StringIO()
    files = [str(path) for path in sorted((ROOT / "games").glob("*.yaml"))]
    assert len(files) == 3
    code = main(["validate", "--all-variants", *files], out, err)
    assert code == 0, out.getvalue() + err.getvalue()


def test_chosen_cards_kept_owner_only_and_moved_after_the_round_are_allowed():
    text = DISCARDS.replace("ROUND", "p.out = choose 1 of p.hand by p").replace(
        '  end game "done"', "  for p in players:\n      for c in p.out:\n"
        "          if kind(c) == gold:\n              move_bottom(c, gold_pile)\n"
        "          else:\n              move_bottom(c, lead_pile)\n  end game \"done\"")
    state = load_game("d.yaml", text=text).new_state(2, 0)      # (one card each: no question)
    assert state.is_terminal() and len(state.zones["gold_pile"]) + len(state.zones["lead_pile"]) == 2


def test_zena_the_next_seat_cannot_tell_which_kind_was_discarded():
    """Zena's discard to six, Advanced (goal and action cards): twin games where the
    first seat discards a goal card or an action card look the same to the next seat
    until everyone has chosen."""
    game = shipped(str(ROOT / "games" / "zena.yaml"), variant="advanced")
    for st in _secret_discards(game):
        kinds = {game.cards[c]["kind"]: label for c, label in zip(st.pending.values, st.pending.labels)
                 if isinstance(c, str) and c in game.cards}
        if len(kinds) < 2:
            continue
        twins = []
        for label in (kinds["goal_card"], kinds["action_card"]):
            twin = st.clone()
            twin.apply(label)
            while twin.pending is not None and twin.pending.player == st.pending.player:
                twin.apply("done")
            twins.append(twin)
        nxt = twins[0].current_player()
        if twins[1].current_player() != nxt or not twins[0].pending.secret:
            continue
        assert twins[0].view(nxt) == twins[1].view(nxt)
        return
    pytest.fail("no seed gave a discard of either kind with a later seat still to choose")


def _secret_discards(game):
    """Positions of random 3-player games where a seat secretly picks several cards."""
    for seed in range(40):
        st, rng = game.new_state(3, seed), random.Random(seed)
        while not st.is_terminal():
            if st.pending.kind == "several" and st.pending.secret:
                yield st.clone()
            st.apply(rng.randrange(len(st.legal_actions())))


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


def test_a_face_down_zone_shows_its_count_of_each_kind_and_nothing_else():
    """A card's back shows its kind (Zena's goal, action, fort and event decks): a zone
    a seat cannot see gives its count of each kind, in the spec's `cards:` order and
    only those present, on the view and the screen; never its cards or their order."""
    state = shipped(str(ROOT / "games" / "zena.yaml"), "advanced").new_state(3, 1)
    hand = state.zones[Zone("hand@1")]
    goal = next(c for c in state.zones[Zone("goal_deck")])
    hand.insert(0, goal)                      # a goal card first, before the action cards
    state.zones[Zone("goal_deck")].remove(goal)
    state.loc[goal] = Zone("hand@1")
    shown = state.view(0)["zones"]["hand@1"]
    assert shown == {"count": len(hand), "kinds": {"action_card": len(hand) - 1, "goal_card": 1}}
    assert list(shown["kinds"]) == ["action_card", "goal_card"]   # the spec's order, not the hand's
    assert state.view(0)["zones"]["goal_deck"]["kinds"] == {"goal_card": len(state.zones[Zone("goal_deck")])}
    assert f"[hand@1] {len(hand)} hidden ({len(hand) - 1} action_card, 1 goal_card)" in state.describe(0)
    hand.reverse()
    assert state.view(0)["zones"]["hand@1"] == shown
