"""Save and load's quick paths (issue 18) give what the plain walks give.

values.encode/decode walk a value without a budget call per container and hand
anything large, deep or odd to slow_encode/slow_decode, the walks that charge
every container to the size budget and check every tag; State.to_json writes maps
of plain values as they are, and State.from_json keeps the parsed lists and maps.
Over many random states of every shipped game: each value encodes to the same data
as slow_encode and decodes back to the same value, types included (a seat is not
an int); the save text is the text the plain walk writes; and a loaded save is the
state it was saved from. The limits and the corrupt-data errors are the slow
walks' own, word for word.
"""
from __future__ import annotations

import json
import random

import pytest

from interpreter import load_game
from interpreter.engine import rng
from interpreter.engine.state import SAVE_FORMAT, _SAVE_TEXT
from interpreter.engine.values import (
    NESTED,
    QUICK_ITEMS,
    Seat,
    Zone,
    decode,
    decode_values,
    encode,
    encode_values,
    slow_decode,
    slow_encode,
)
from rulespec.errors import CorruptFile, LimitError
from tests.paths import ROOT

GAMES = [("castles", None), ("siena", None), ("siena", "long"), ("zena", None), ("zena", "advanced")]


def typed(value, tuple_name="tuple"):
    """A value with every part's type beside it: Seat(1) and 1 differ, as do a list
    and a tuple (unless tuple_name="list": a save writes a tuple as a list)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k, tuple_name), typed(v, tuple_name)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        name = tuple_name if isinstance(value, tuple) else "list"
        return (name, [typed(v, tuple_name) for v in value])
    return (type(value).__name__, value)


def as_saved(value):
    """typed(value) as a save holds it: tuples come back as lists."""
    return typed(value, "list")


def random_states(game, count=40, seed=0):
    """States of random games at random points, 2 to the most players allowed."""
    rand, out = random.Random(seed), []
    while len(out) < count:
        players = rand.randint(game.min_players, min(game.max_players, 4))
        state = game.new_state(players, rand.randrange(10**6))
        while not state.is_terminal() and len(out) < count:
            if rand.random() < 0.15:
                out.append(state.clone())
            state.apply(rand.randrange(len(state.legal_actions())))
        if state.is_terminal():
            out.append(state)
    return out


def values_of(state):
    """Every value a save writes: globals, per-player, per-card, locals, options."""
    out = list(state.g.values()) + [x for v in state.pv.values() for x in v]
    out += [x for v in state.cv.values() for x in v.values()]
    out += [x for frame in state.stack for x in frame.env.values()]
    return out + (list(state.pending.values) if state.pending else [])


def plain_text(state, spec=True) -> str:
    """The save text as State.to_json wrote it before its quick paths: every value
    through slow_encode, each frame and decision by its own to_data."""
    names = {"spec": state.game.spec_hash, "spec_id": state.game.spec_id} if spec else {}
    extra = {"ask_forced": True} if state.ask_forced else {}
    return _SAVE_TEXT.encode({
        "format": SAVE_FORMAT, "game": state.game.name, **names,
        "variant": state.game.variant, "players": state.n,
        "globals": {k: slow_encode(v) for k, v in state.g.items()},
        "per_player": {k: [slow_encode(x) for x in v] for k, v in state.pv.items()},
        "per_card": {k: {c: slow_encode(x) for c, x in v.items()} for k, v in state.cv.items()},
        "zones": state.zones, "rng": str(state.rng), "rng_version": rng.VERSION,
        "stack": [[f.proc, f.pc, f.secret, {k: slow_encode(v) for k, v in f.env.items()}]
                  for f in state.stack],
        "pending": None if state.pending is None else {
            "player": state.pending.player, "labels": state.pending.labels,
            "values": [slow_encode(v) for v in state.pending.values], "kind": state.pending.kind,
            "secret": state.pending.secret, "where": state.pending.where},
        "over": state.over, "ended_by": state.ended_by, "phase": state.phase,
        "decisions": state.decisions, **extra,
    })


def saved_parts(state):
    """What a save holds of a state, typed (card locations in card order: a loaded
    state lists them zone by zone)."""
    return as_saved([state.n, state.g, state.pv, state.cv, state.zones, sorted(state.loc.items()), state.rng,
                  [(f.proc, f.pc, f.secret, f.env) for f in state.stack],
                  None if state.pending is None else (state.pending.player, state.pending.labels,
                                                      state.pending.values, state.pending.kind),
                  state.over, state.ended_by, state.phase, state.decisions])


@pytest.mark.parametrize("name,variant", GAMES, ids=[f"{g}-{v}" for g, v in GAMES])
def test_quick_paths_write_and_read_what_the_plain_walks_do(name, variant):
    game = load_game(ROOT / "games" / f"{name}.yaml", variant=variant)
    for state in random_states(game, seed=GAMES.index((name, variant))):
        for value in values_of(state):
            data = encode(value)
            assert typed(data) == typed(slow_encode(value))
            assert typed(decode(data)) == typed(slow_decode(data)) == as_saved(value)
        for values in state.cv.values():
            assert typed(encode_values(values)) == typed({c: slow_encode(v) for c, v in values.items()})
            data = {c: slow_encode(v) for c, v in values.items()}
            assert typed(decode_values(data)) == as_saved(values)
        text = state.to_json()
        assert text == plain_text(state)
        assert state.to_json(spec=False) == plain_text(state, spec=False)
        loaded = game.state_from_json(text)
        assert saved_parts(loaded) == saved_parts(state)
        assert loaded.to_json() == text


def test_a_doubling_list_is_refused_before_it_is_written():
    value = []
    for _ in range(40):                 # 2**40 items written out, 40 distinct lists
        value = [value, value]
    for write in (encode, slow_encode):
        with pytest.raises(LimitError, match="too large to write out"):
            write(value)


@pytest.mark.parametrize("depth,refused", [(NESTED, False), (NESTED + 1, True), (5 * NESTED, True)])
def test_nesting_is_refused_past_the_same_depth(depth, refused):
    value = []
    for _ in range(depth):
        value = [value]
    if refused:
        for write in (encode, slow_encode):
            with pytest.raises(LimitError, match="too large to write out"):
                write(value)
    else:
        assert encode(value) == slow_encode(value)
        assert decode(encode(value)) == value


@pytest.mark.parametrize("value", [
    list(range(QUICK_ITEMS + 5)),                           # past the quick walk's budget
    [[Seat(1), Zone("hand@1")]] * (QUICK_ITEMS // 2 + 1),   # shared parts, counted each time
    {Seat(0): [1, 2], Seat(1): {"a": Zone("deck")}},        # a map of other keys: `$map`
    {"a": {3: "x"}, "b": (1, Seat(2))},                     # one inside a map of text keys
    ("a", ("b", [Seat(0)])),                                # tuples are written as lists
], ids=["long", "shared", "seat-keys", "inner-map", "tuples"])
def test_what_the_quick_walk_hands_over_comes_out_the_same(value):
    data = encode(value)
    assert typed(data) == typed(slow_encode(value))
    assert typed(decode(data)) == typed(slow_decode(data))
    assert json.dumps(data) == json.dumps(slow_encode(value))


def test_a_value_over_the_budget_is_refused_by_both():
    value = [list(range(1000))] * 1001      # 1,001,001 items written out
    for write in (encode, slow_encode):
        with pytest.raises(LimitError):
            write(value)


@pytest.mark.parametrize("data", [
    {"$dict": 5}, {"$seat": "x"}, {"$seat": True}, {"$zone": 3}, {"$what": 1}, {},
    {"$dict": {}, "$seat": 1}, {"$map": [[1]]}, {"$map": [[[1], 2]]}, {"$map": 7},
    [1, [2, {"$dict": {"a": {"$seat": 1.5}}}]], {"$dict": {"a": [{"$zone": None}]}},
    [{"$seat": 1}, {"$seat": 2, "x": 1}], {"$dict": {"a": {"$seat": 1}, "b": {"$nope": 2}}},
])
def test_corrupt_data_is_refused_in_the_same_words(data):
    with pytest.raises(CorruptFile) as slow:
        slow_decode(data)
    with pytest.raises(CorruptFile) as quick:
        decode(data)
    assert str(quick.value) == str(slow.value)


def test_deep_data_is_decoded_as_the_slow_walk_decodes_it():
    data = 0
    for _ in range(3 * NESTED):
        data = [data, {"$seat": 1}]
    assert typed(decode(data)) == typed(slow_decode(data))
