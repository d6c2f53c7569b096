"""The interpreter on market.yaml: random playouts, clones, saves, logs, views, errors."""
from __future__ import annotations

import io
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import load_game
from interpreter.agents import make_agents
from interpreter.tools.log import write_log
from rulespec.errors import CorruptFile, IllegalAction, RuleError
from tests.cpu import cpu_bound
from tests.playout import play_random
from tests.paths import TESTS
from tests.shipped import shipped

MARKET = TESTS / "games" / "market.yaml"
OTHER = TESTS / "specs" / "valid" / "deck_cycle.yaml"
LIMITS = {None: (8, 10), "long": (12, 15)}      # round_limit, prestige_goal per variant


@pytest.fixture(scope="module")
def games():
    return {v: shipped(MARKET, variant=v) for v in LIMITS}


GAMES = {}


def game_for(variant):
    if variant not in GAMES:
        GAMES[variant] = shipped(MARKET, variant=variant)
    return GAMES[variant]


def check_end(state, variant, players):
    round_limit, goal = LIMITS[variant]
    assert state.is_terminal()
    assert state.current_player() is None and state.legal_actions() == []
    prestige = state.pv["prestige"]
    assert state.ended_by in ("round limit", "prestige goal")
    if state.ended_by == "round limit":
        assert state.round() == round_limit and max(prestige) < goal
    else:
        assert max(prestige) >= goal and state.round() <= round_limit
    scores = state.scores()
    assert scores == [state.pv["coins"][s] + 2 * prestige[s] for s in range(players)]
    eligible = [s for s in range(players) if prestige[s] > 0 or state.pv["coins"][s] > 0]
    winners = state.winner()
    if not eligible:
        assert winners == []          # nobody with coins or prestige: nobody wins
    else:
        assert winners and set(winners) <= set(eligible)
        assert all(scores[w] == max(scores[s] for s in eligible) for w in winners)


# ------------------------------------------------------------------ random playouts
@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), variant=st.sampled_from([None, "long"]))
def test_random_playouts_terminate_with_invariants(seed, players, variant):
    state = play_random(game_for(variant), players, seed)     # invariants after every step
    check_end(state, variant, players)


def test_prestige_goal_ends_the_game_at_once(games):
    """With a goal of 1 the first prestige point ends the game, mid-turn."""
    text = MARKET.read_text(encoding="utf-8").replace("prestige_goal: 10", "prestige_goal: 1")
    game = load_game(MARKET, text=text)
    ends = set()
    for seed in range(40):
        state = play_random(game, 2 + seed % 3, seed)
        ends.add(state.ended_by)
        if state.ended_by == "prestige goal":
            assert max(state.pv["prestige"]) >= 1 and state.round() < 8
            assert state.stack == [] and state.pending is None
        else:
            assert max(state.pv["prestige"]) == 0
    assert "prestige goal" in ends


def test_wrong_player_count(games):
    for n in (1, 5):
        with pytest.raises(Exception, match="2 to 4 players"):
            games[None].new_state(n, 0)


# ------------------------------------------------------------- helpers: play in step
def step_both(a, b, rng):
    """Apply one random legal option to both states (by index), checking they agree."""
    options = a.legal_actions()
    assert [o.label for o in options] == [o.label for o in b.legal_actions()]
    assert a.current_player() == b.current_player()
    i = rng.randrange(len(options))
    a.apply(i)
    b.apply(i)


def play_both_to_end(a, b, rng):
    while True:
        assert a.to_json() == b.to_json()
        if a.is_terminal():
            assert b.is_terminal() and a.scores() == b.scores() and a.winner() == b.winner()
            return
        step_both(a, b, rng)


def random_prefix(game, players, seed, steps):
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        options = state.legal_actions()
        state.apply(options[rng.randrange(len(options))])
    return state


# ------------------------------------------------------------------------- clones
@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), cut=st.integers(0, 150),
       variant=st.sampled_from([None, "long"]))
def test_clone_plays_like_the_original(seed, players, cut, variant):
    game = game_for(variant)
    original = random_prefix(game, players, seed, cut)
    clone = original.clone()
    play_both_to_end(original, clone, random.Random(seed + 1))


@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), cut=st.integers(0, 150))
def test_mutating_a_clone_leaves_the_original_alone(seed, players, cut):
    original = random_prefix(game_for(None), players, seed, cut)
    before = original.to_json()
    clone = original.clone()
    rng = random.Random(seed)
    while not clone.is_terminal():
        options = clone.legal_actions()
        clone.apply(options[rng.randrange(len(options))])
    assert original.to_json() == before
    if not original.is_terminal():
        assert not original.is_terminal() and original.legal_actions()


def test_clone_of_direct_changes_is_independent(games):
    original = random_prefix(games[None], 3, 7, 20)
    before = original.to_json()
    clone = original.clone()
    clone.pv["coins"][0] += 100
    clone.g["round"] = 99
    card = clone.zones["deck"].pop()
    clone.zones["discard"].append(card)
    clone.stack[-1].env["extra"] = 1
    assert original.to_json() == before


# ---------------------------------------------------------------------- save/resume
@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), cut=st.integers(0, 150),
       variant=st.sampled_from([None, "long"]))
def test_save_and_resume_continues_identically(seed, players, cut, variant):
    game = game_for(variant)
    original = random_prefix(game, players, seed, cut)
    text = original.to_json()
    restored = game.state_from_json(text)
    assert restored.to_json() == text
    play_both_to_end(original, restored, random.Random(seed + 2))


def states_where(game, predicate, players=3, seeds=range(200), limit=8):
    """(seed, state) pairs, each the first point of a random game where predicate holds."""
    found = []
    for seed in seeds:
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if predicate(state):
                found.append((seed, state))
                break
            options = state.legal_actions()
            state.apply(options[rng.randrange(len(options))])
        if len(found) >= limit:
            break
    return found


def mid_auction(state):
    """An auction that already has a bid and waits for the next bidder."""
    return (state.pending.kind == "bid" and state.legal_actions()[1].label != "bid 1")


def mid_menu(state):
    return state.pending.kind == "menu"


def mid_secret(state):
    return state.phase == "bets" and state.pending.kind == "number" and state.current_player() != 0


@pytest.mark.parametrize("where", [mid_auction, mid_menu, mid_secret], ids=lambda f: f.__name__)
def test_save_and_resume_mid_decision(games, where):
    found = states_where(games[None], where)
    assert len(found) >= 3, f"no random game reached {where.__name__}"
    for seed, state in found:
        text = state.to_json()
        restored = games[None].state_from_json(text)
        assert restored.to_json() == text
        assert [o.label for o in restored.legal_actions()] == [o.label for o in state.legal_actions()]
        play_both_to_end(state, restored, random.Random(seed))


def test_mid_auction_resume_keeps_the_high_bid(games):
    (seed, state), *_ = states_where(games[None], mid_auction)
    restored = games[None].state_from_json(state.to_json())
    options = [o.label for o in restored.legal_actions()]
    assert options[0] == "pass"
    low = int(options[1].split()[1])
    assert low > 1      # the raise starts above the standing bid
    restored.apply("pass")
    state.apply("pass")
    assert restored.to_json() == state.to_json()


# ----------------------------------------------------------------------- determinism
def log_text(game, players, seed):
    names = ["random"] * players
    buf = io.StringIO()
    write_log(game, players, seed, names, make_agents(names, seed), buf)
    return buf.getvalue()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_log(games, players):
    a, b = log_text(games[None], players, 11), log_text(load_game(MARKET), players, 11)
    assert a == b
    assert len(a.splitlines()) > 20


def test_different_seeds_differ(games):
    logs = {log_text(games[None], 3, seed) for seed in range(8)}
    assert len(logs) == 8
    finals = {play_random(games[None], 3, seed).to_json() for seed in range(8)}
    assert len(finals) == 8


def test_new_state_is_deterministic(games):
    assert games[None].new_state(4, 5).to_json() == games[None].new_state(4, 5).to_json()
    assert games[None].new_state(4, 5).to_json() != games[None].new_state(4, 6).to_json()


# ----------------------------------------------------------------------------- views
def face_down(cards) -> dict:
    """A zone the seat cannot see, as its view gives it: the count, and the count of
    each kind (market has one, `goods`: every card's back is alike)."""
    return {"count": len(cards), "kinds": {"goods": len(cards)} if cards else {}}


def test_view_redacts_what_a_seat_may_not_see(games):
    state = random_prefix(games[None], 3, 3, 10)
    assert not state.is_terminal()
    for seat in range(3):
        view = state.view(seat)
        json.dumps(view)    # plain data
        for other in range(3):
            hand = view["zones"][f"hand@{other}"]
            if other == seat:
                assert hand == state.zones[f"hand@{seat}"]
                assert view["players_vars"]["bet"][other] == state.pv["bet"][other]
            else:
                assert hand == face_down(state.zones[f"hand@{other}"])
                assert view["players_vars"]["bet"][other] == "?"
            assert view["players_vars"]["coins"][other] == state.pv["coins"][other]
        assert view["zones"]["deck"] == face_down(state.zones["deck"])
        assert view["zones"]["market"] == state.zones["market"]
        assert view["zones"]["discard"] == state.zones["discard"]
        assert ("options" in view) == (seat == state.current_player())
        text = json.dumps(view)
        for card in state.zones["deck"]:
            assert card not in text or any(card in state.zones[z] for z in state.zones
                                           if z != "deck" and not isinstance(view["zones"][z], dict))


def test_spectator_sees_no_private_information(games):
    state = random_prefix(games[None], 4, 9, 12)
    view = state.view(None)
    assert all(view["zones"][f"hand@{s}"] == face_down(state.zones[f"hand@{s}"]) for s in range(4))
    assert view["players_vars"]["bet"] == ["?"] * 4
    assert "options" not in view
    assert view["zones"]["deck"] == face_down(state.zones["deck"])


def test_view_is_a_copy(games):
    state = random_prefix(games[None], 2, 4, 5)
    before = state.to_json()
    view = state.view(0)
    view["zones"]["hand@0"].append("x") if isinstance(view["zones"]["hand@0"], list) else None
    view["players_vars"]["coins"][0] = 999
    assert state.to_json() == before


# ---------------------------------------------------------------------- illegal moves
def test_illegal_label_lists_legal_options(games):
    state = games[None].new_state(2, 1)
    labels = [o.label for o in state.legal_actions()]
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply("bid a million")
    message = str(info.value)
    assert "bid a million" in message and "legal" in message
    assert all(label in message for label in labels)
    with pytest.raises(IllegalAction):
        state.apply(len(labels))
    with pytest.raises(IllegalAction):
        state.apply(-1)
    assert state.to_json() == before
    state.apply(labels[0])       # still playable


def test_no_action_is_legal_once_over(games):
    state = play_random(games[None], 2, 1)
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0)


# ---------------------------------------------------------------------- corrupt saves
@pytest.fixture
def save(games):
    return random_prefix(games[None], 3, 21, 30).to_json()


def tamper(text, change):
    data = json.loads(text)
    change(data)
    return json.dumps(data)


def drop_card(d):
    d["zones"]["deck"].pop()


def dupe_card(d):
    d["zones"]["discard"].append(d["zones"]["deck"][0])


def rename_card(d):
    d["zones"]["deck"][0] = "gold#1"


def unknown_rule(d):
    d["stack"][0][0] = "phase:nowhere"


def other_spec(d):
    d["spec"] = d["spec_id"] = "0" * 16


@pytest.mark.parametrize("corrupt", [
    lambda t: t[: len(t) // 2],
    lambda t: t[:-1],
    lambda t: "",
    lambda t: "[]",
    lambda t: "null",
    lambda t: t.replace('"Market Town"', '"Other Town"'),
    lambda t: tamper(t, drop_card),
    lambda t: tamper(t, dupe_card),
    lambda t: tamper(t, rename_card),
    lambda t: tamper(t, unknown_rule),
    lambda t: tamper(t, other_spec),
    lambda t: tamper(t, lambda d: d.pop("zones")),
    lambda t: tamper(t, lambda d: d.update(format=99)),
], ids=["truncated", "last-char-cut", "empty", "list", "null", "other-game", "card-missing",
        "card-twice", "unknown-card", "unknown-rule", "other-spec", "no-zones", "format"])
def test_corrupt_save_raises_corrupt_file(games, save, corrupt):
    with pytest.raises(CorruptFile):
        games[None].state_from_json(corrupt(save))


def test_save_of_another_game_or_variant(games):
    other = load_game(OTHER).new_state(2, 0).to_json()
    with pytest.raises(CorruptFile):
        games[None].state_from_json(other)
    with pytest.raises(CorruptFile):
        games["long"].state_from_json(games[None].new_state(2, 0).to_json())


# ----------------------------------------------------------------------- rule errors
def test_endless_loop_stops_with_file_and_line(tmp_path):
    spec = tmp_path / "loop.yaml"
    spec.write_text("game: Loop\nplayers: {min: 2, max: 2}\nflow: |\n  y = 0\n"
                    "  while true:\n      x = 1\n", encoding="utf-8")
    game = load_game(spec)
    with cpu_bound(3), pytest.raises(RuleError) as info:    # 0.2 s of CPU time alone
        game.new_state(2, 0)
    e = info.value
    assert e.file == str(spec) and e.line in (5, 6)
    assert f"{spec}:{e.line}:" in e.format() and "loop" in e.message
    # stopped by counting steps, not by the 10 s clock (limits: seconds) after them
    assert "ran 100,000 steps without asking anyone anything (limits: steps)" in e.message
    assert "raise it: `limits: {steps: 1000000}`" in e.message


def test_endless_loop_inside_an_action(tmp_path):
    spec = tmp_path / "loop2.yaml"
    spec.write_text("game: Loop\nplayers: {min: 2, max: 2}\nflow: |\n  for p in players:\n"
                    "      turn p until done: spin\nactions:\n  spin:\n    do: |\n      while 1 == 1:\n"
                    "          pass\n", encoding="utf-8")
    state = load_game(spec).new_state(2, 0)
    with pytest.raises(RuleError) as info:
        state.apply("spin")
    assert info.value.file == str(spec) and info.value.line in (9, 10)


def test_bound_violation_names_file_and_line(tmp_path):
    spec = tmp_path / "bound.yaml"
    spec.write_text("game: Bound\nplayers: {min: 2, max: 2}\nper_player:\n  coins: {start: 2, min: 0}\n"
                    "flow: |\n  for p in players:\n      n = choose number from 1 to 3 by p\n"
                    "      p.coins -= n\n", encoding="utf-8")
    state = load_game(spec).new_state(2, 0)
    state.apply("2")                     # 2 - 2 = 0 is fine
    assert state.pv["coins"][0] == 0
    with pytest.raises(RuleError) as info:
        state.apply("3")
    e = info.value
    assert (e.file, e.line) == (str(spec), 8)
    assert "coins" in e.message and "-1" in e.message and "minimum 0" in e.message
    assert e.format().startswith(f"{spec}:8:")


def test_zone_limit_violation_is_a_rule_error(tmp_path):
    spec = tmp_path / "limit.yaml"
    spec.write_text("game: Limit\nplayers: {min: 2, max: 2}\ncards:\n  c:\n    in: deck\n"
                    "    list: [{name: x, count: 3}]\nzones:\n  deck: {}\n  row: {limit: 2}\n"
                    "flow: |\n  draw(deck, row, 3)\n", encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_game(spec).new_state(2, 0)
    assert info.value.line == 11 and "limit of 2" in info.value.message
