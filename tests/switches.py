"""A game loaded twice, with a compiler switch on (as shipped) and off: the pair the
equivalence tests of each fast path compare (tests/engine/test_codegen_*.py)."""
from __future__ import annotations

import pytest

from interpreter.engine.game import load_game
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import transcript
from tests.shipped import load


def on_and_off(monkeypatch, owner, switch: str, *args, **kwargs):
    """(game as shipped, game with `owner.switch` False), both load_game(*args, **kwargs).
    owner: the class holding the switch (codegen.ExpressionSource, compile.Compiler).
    A shipped game's "on" half is the one tests share (tests/shipped.py); "off" is
    always loaded here, under the switch."""
    on = load(*args, **kwargs)
    monkeypatch.setattr(owner, switch, False)
    off = load_game(*args, **kwargs)
    monkeypatch.undo()
    return on, off


def same_games(on, off, seeds: int = 2) -> None:
    """Assert a pair from on_and_off plays the same random games: seed s at
    min_players + s seats, for s below `seeds`, gives the same transcript
    (test_cache_equivalence.transcript: labels, clones, saves, end)."""
    for seed in range(seeds):
        players = on.min_players + seed
        assert transcript(on, players, seed) == transcript(off, players, seed), \
            f"seed {seed}, {players} players: the games differ with the switch off"


def evaluated(game, text: str) -> tuple:
    """("value", v) for the rules-language expression `text` evaluated on a new
    2-player state of `game`, or ("error", its words): what a pair from on_and_off
    must give alike."""
    st = game.new_state(2, 0)
    try:
        return ("value", game.snippet(text, "expression")(st, {}))
    except RulespecError as e:
        return ("error", str(e))


def fault_words(game) -> str:
    """The words of the error a new 2-player state of `game` raises when every
    decision takes its first option until the game ends: what a pair from
    on_and_off must say alike. Fails the test if none is raised."""
    with pytest.raises(RulespecError) as caught:
        st = game.new_state(2, 0)
        while not st.is_terminal():
            st.apply(0)
    return str(caught.value)
