"""Hidden information stays hidden on every channel: the indistinguishability harness.

For every spec in games/ and the test game, at states reached by seeded random
play: build twins that differ only in something seat k cannot see (the order of
a zone k cannot see, which cards of a kind are in which unseen zone, another
seat's owner-only value, a hidden global, a per-card value of a card k cannot
see), ask the pending decision afresh in both, and assert that everything k
receives is byte-identical: the view, the terminal screen and prompt, the
option labels, the explanation of every refused option (and the IllegalAction
the API raises), and the PettingZoo observation. The converse: a twin that
differs in a public value (or in a hidden zone's count of a card kind: a card's
back shows its kind) gives a different view.
"""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from interpreter.agents.human import HumanAgent
from interpreter.engine import visibility
from interpreter.engine.explain import refusal
from interpreter.engine.flow import run
from rulespec.errors import IllegalAction
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

SPECS = sorted(str(p) for p in (ROOT / "games").glob("*.yaml")) + [str(TESTS / "games" / "market.yaml")]
STOPS = (3, 12, 30, 60, 110, 170)    # decisions into a seeded random game where states are taken
REFUSALS = 24                        # refused labels tried per state


def states_of(game, players, seed):
    """States at the STOPS of one seeded random game (those it reaches)."""
    st, rand, out = game.new_state(players, seed), random.Random(seed), []
    while not st.is_terminal() and len(out) < len(STOPS):
        if st.decisions in STOPS:
            out.append(st.clone())
        st.apply(rand.randrange(len(st.legal_actions())))
    return out


def reask(st):
    """Ask the pending decision again, so its options are computed from the state as it is."""
    st = st.clone()
    if st.pending is not None:
        st.pending = None
        run(st)
    return st


# ------------------------------------------------------------------ twins
def _other(decl, value, rand):
    """A different value of the same sort, or None when none is at hand."""
    if decl.get("one_of"):
        others = [v for v in decl["one_of"] if v != value]
        return rand.choice(others) if others else None
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        high = decl.get("max")
        return value + 1 if high is None or value + 1 <= high else value - 1
    if isinstance(value, list):
        return list(reversed(value)) if len(set(map(str, value))) > 1 else ([] if value else None)
    if isinstance(value, dict):
        return {} if value else None
    return None


def hidden_twins(st, seat):
    """(what differs, twin) pairs: the same state but for something `seat` cannot see."""
    game, rand = st.game, random.Random(st.decisions)
    unseen = [z for z in st.zones if not visibility.sees_zone(game, z, seat)]
    for zone in unseen:
        if len(set(st.zones[zone])) > 1:
            twin = st.clone()
            twin.zones[zone] = list(reversed(twin.zones[zone]))
            yield f"the order of {zone}", twin
    kinds = {c: a["kind"] for c, a in game.cards.items()}
    for a in unseen:
        for b in unseen:
            pair = next(((x, y) for x in st.zones[a] for y in st.zones[b]
                         if a < b and kinds[x] == kinds[y] and x.split("#")[0] != y.split("#")[0]), None)
            if pair:
                twin = st.clone()
                x, y = pair
                twin.zones[a][twin.zones[a].index(x)] = y
                twin.zones[b][twin.zones[b].index(y)] = x
                twin.loc[x], twin.loc[y] = b, a
                yield f"{x} in {a} and {y} in {b} swapped", twin
    for name, values in st.pv.items():
        decl = game.decls["per_player"][name]
        for s in range(st.n):
            if not visibility.sees_variable(game, "per_player", name, s, seat):
                new = _other(decl, values[s], rand)
                if new is not None:
                    twin = st.clone()
                    twin.pv[name][s] = new
                    yield f"{name} of seat {s}", twin
    for name, value in st.g.items():
        if not visibility.sees_variable(game, "globals", name, None, seat):
            new = _other(game.decls["globals"][name], value, rand)
            if new is not None:
                twin = st.clone()
                twin.g[name] = new
                yield f"global {name}", twin
    for name, values in st.cv.items():
        hidden = [c for c in values if not visibility.sees_card_value(st, name, c, seat)]
        for card in hidden[:3]:
            new = _other(game.decls["per_card"][name], values[card], rand)
            if new is not None:
                twin = st.clone()
                twin.cv[name][card] = new
                yield f"{name} of {card}", twin


# ------------------------------------------------------------------ what a seat receives
def received(st, seat, layout, candidates) -> dict:
    """Everything `seat` is sent in `st`, as text."""
    out = {"view": repr(visibility.view(st, seat)), "screen": st.describe(seat)}
    if layout is not None:
        out["observation"] = layout.encode(st.view(seat), seat).tobytes().hex()
    if st.current_player() != seat:
        return out
    screen = io.StringIO()
    options = HumanAgent(stdin=io.StringIO(), stdout=screen)._show(st)
    out["prompt"] = screen.getvalue()
    out["labels"] = repr([o.label for o in options])
    legal = set(st.pending.labels)
    for label in candidates:
        if label in legal:
            continue
        out[f"refusal {label}"] = refusal(st, label).format()
        try:
            st.clone().apply(label)
        except IllegalAction as e:
            out[f"apply {label}"] = e.format()
    return out


def refused_candidates(game, st) -> list[str]:
    """Labels to try: each action by name, and with cards, seats and symbols."""
    rand = random.Random(st.decisions)
    words = sorted(game.cards) + [game.seat_name(s) for s in range(st.n)] + \
        [str(s) for s in game.data.get("symbols") or []]
    labels = [f"{a} {w}" for a in game.actions for w in rand.sample(words, min(4, len(words)))]
    labels += list(game.actions) + ["bid 999", "no such option"]
    return rand.sample(labels, min(REFUSALS, len(labels)))


def observation_layout(game, players):
    try:
        from interpreter.adapters.encoding import ObservationLayout
    except ImportError:   # numpy is not installed: the other channels still count
        return None
    return ObservationLayout(game, players)


def _diff(a: dict, b: dict) -> str:
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            return f"{key}:\n  {str(a.get(key))[:600]}\n  {str(b.get(key))[:600]}"
    return ""


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: Path(p).stem)
def test_a_seat_receives_the_same_whatever_it_cannot_see(spec):
    game = shipped(spec)
    players = min(3, game.max_players)
    layout = observation_layout(game, players)
    checked = 0
    for st in states_of(game, players, seed=7):
        candidates = refused_candidates(game, st)
        for seat in sorted({st.current_player(), (st.current_player() + 1) % players}):
            base = received(reask(st), seat, layout, candidates)
            for what, twin in hidden_twins(st, seat):
                got = received(reask(twin), seat, layout, candidates)
                assert got == base, f"seat {seat} sees a difference in {what}: {_diff(base, got)}"
                checked += 1
    assert checked >= 10, "the harness must compare enough twins to mean something"


# ------------------------------------------------------------------ the converse
def public_twins(st):
    """(what differs, twin) pairs differing in something everyone sees."""
    game, rand = st.game, random.Random(1)
    for name, value in st.g.items():
        if visibility.variable_visibility(game, "globals", name) == "public":
            new = _other(game.decls["globals"][name], value, rand)
            if new is not None:
                twin = st.clone()
                twin.g[name] = new
                yield f"global {name}", twin
                break
    for name, values in st.pv.items():
        if visibility.variable_visibility(game, "per_player", name) == "public":
            new = _other(game.decls["per_player"][name], values[1], rand)
            if new is not None:
                twin = st.clone()
                twin.pv[name][1] = new
                yield f"{name} of seat 1", twin
                break
    for name, values in st.cv.items():
        seen = [c for c in values if visibility.sees_card_value(st, name, c, None)]
        for card in seen[:1]:
            new = _other(game.decls["per_card"][name], values[card], rand) or \
                ([0] if values[card] == [] else None)
            if new is not None:
                twin = st.clone()
                twin.cv[name][card] = new
                yield f"{name} of {card}", twin
    kinds = {c: a["kind"] for c, a in game.cards.items()}
    shared = [z for z in st.zones if visibility.zone_visibility(game, z) != "public"]
    pair = next(((a, x, b, y) for a in shared for b in shared if a < b
                 for x in st.zones[a] for y in st.zones[b] if kinds[x] != kinds[y]), None)
    if pair:    # a card's back shows its kind: each zone's count of each kind is public
        a, x, b, y = pair
        twin = st.clone()
        twin.zones[a][twin.zones[a].index(x)], twin.zones[b][twin.zones[b].index(y)] = y, x
        twin.loc[x], twin.loc[y] = b, a
        yield f"the kinds of {a} and {b}", twin
    public = [z for z in st.zones if visibility.zone_visibility(game, z) == "public"]
    for zone in public:
        if len(set(st.zones[zone])) > 1:
            twin = st.clone()
            twin.zones[zone] = list(reversed(twin.zones[zone]))
            yield f"the order of {zone}", twin
            break


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: Path(p).stem)
def test_a_public_difference_shows_in_every_seats_view(spec):
    game = shipped(spec)
    players = min(3, game.max_players)
    found = set()
    for st in states_of(game, players, seed=7):
        for what, twin in public_twins(st):
            for seat in range(players):
                assert visibility.view(twin, seat) != visibility.view(st, seat), \
                    f"seat {seat} cannot see {what}"
            found.add(what.split(" of ")[0])
    assert len(found) >= 2, found
