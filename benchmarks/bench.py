"""Speed of the engine: random playouts, clone, save/load, legal_actions.

    python benchmarks/bench.py [--seconds S] [--json] [SPEC ...]

A script, not a test: timings depend on the machine. Runs on one core.
"""
from __future__ import annotations

import argparse
import glob
import json
import random
import statistics
import time

from interpreter import load_game


def playouts(game, players, seconds):
    games = decisions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            options = state.legal_actions()
            state.apply(options[rng.randrange(len(options))])
            decisions += 1
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def mid_game_states(game, players, count=50):
    states, rng = [], random.Random(7)
    state = game.new_state(players, 7)
    while not state.is_terminal() and len(states) < count:
        states.append(state.clone())
        options = state.legal_actions()
        state.apply(options[rng.randrange(len(options))])
    return states


def micro(fn, states, repeat=20):
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


def bench(spec, variant, players, seconds):
    game = load_game(spec, variant=variant)
    games_s, decisions_s = playouts(game, players, seconds)
    states = mid_game_states(game, players)
    return {
        "spec": spec, "variant": variant, "players": players,
        "games_per_s": round(games_s, 1), "decisions_per_s": round(decisions_s),
        "clone_us": round(micro(lambda s: s.clone(), states), 1),
        "save_load_us": round(micro(lambda s: game.state_from_json(s.to_json()), states, 5), 1),
        "legal_actions_us": round(micro(lambda s: s.legal_actions(), states), 1),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("specs", nargs="*")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    specs = args.specs or sorted(glob.glob("games/*.yaml")) + ["tests/games/market.yaml"]
    rows = []
    for spec in specs:
        game = load_game(spec)
        variants = [None] + list((game.data.get("variants") or {}))
        for variant in variants:
            players = min(max(args.players, game.min_players), game.max_players)
            rows.append(bench(spec, variant, players, args.seconds))
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    cols = ["spec", "variant", "players", "games_per_s", "decisions_per_s", "clone_us",
            "save_load_us", "legal_actions_us"]
    print(" | ".join(cols))
    for row in rows:
        print(" | ".join(str(row[c]) for c in cols))


if __name__ == "__main__":
    main()
