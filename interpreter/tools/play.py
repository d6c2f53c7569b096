"""Playing whole games: the loop shared by `play`, `simulate`, logs and tests."""
from __future__ import annotations

import hashlib
import json

from ..engine import rng
from ..engine.values import encode

LOG_FORMAT = 1


def digest(state) -> str:
    """16 hex digits naming the game state, whichever spec text made it."""
    return hashlib.sha256(state.to_json(spec=False).encode()).hexdigest()[:16]


def play(game, players: int, seed: int, agents: list, log=None, on_step=None, trace=None,
         max_decisions: int | None = None):
    """Play one game to its end. `log` is a writable text stream for JSONL, or None;
    `on_step(state)` runs after every decision (invariant checks, traces);
    `trace` receives every state change with its rule (interpreter/engine/changes.py).
    `max_decisions` cuts the game off once that many decisions are taken (a
    simulator's safety limit, never a rule): the state returned is then not over.

    An exception raised while the game is set up or played carries `fired`: how
    often each rule fired up to it (State.fired), for simulate's rule coverage."""
    state = game.new_state(players, seed, record=log is not None, trace=trace)
    try:
        _play_on(state, agents, log, on_step, max_decisions)
    except Exception as error:
        # this state's counts, not those of a clone an agent looked ahead with
        error.fired = dict(state.fired)
        raise
    if log is not None:
        log.write(json.dumps({"result": result(state)}) + "\n")
    return state


def _play_on(state, agents, log, on_step, max_decisions) -> None:
    if log is not None:
        _flush(state, log)
    while not state.is_terminal():
        if max_decisions is not None and state.decisions >= max_decisions:
            break
        agent = agents[state.current_player()]
        state.apply(agent.choose(state))
        if on_step is not None:
            on_step(state)
        if log is not None:
            _flush(state, log)
            if not state.is_terminal():
                log.write(json.dumps({"state": digest(state)}) + "\n")


def _flush(state, log):
    for event in state.events:
        log.write(json.dumps(event, default=encode) + "\n")
    state.events.clear()


def header(game, players, seed, agents: list[str]) -> dict:
    return {"rulespec_log": LOG_FORMAT, "rng": rng.VERSION, "spec": game.file,
            "spec_hash": game.spec_hash, "spec_id": game.spec_id,
            "game": game.name, "variant": game.variant, "players": players, "seed": seed,
            "agents": agents}


def result(state) -> dict:
    return {"winner": state.winner(), "scores": state.scores(), "rounds": state.round(),
            "decisions": state.decisions, "ended_by": state.ended_by}
