"""Server time per page update at the web table (issue 16: under 100 ms for Castles at 4 players).

A page update is what the server does when a seat's page must change: take the
decision, fill each seat's log with what it may see, and render the seat's page
(seat_table, boards as SVG, Jinja2). Measured over whole games of random
decisions, CPU time of this process, per update:

    python benchmarks/web_bench.py [--spec games/castles.yaml] [--players 4] [--games 3] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_game  # noqa: E402
from interpreter.web.session import Session  # noqa: E402


def one_game(game, players: int, seed: int) -> list[float]:
    """Milliseconds of CPU per update: the decision, the logs, the deciding seat's page."""
    session = Session(game, players, seed, ["human"] * players)
    rng = random.Random(seed)
    times = []
    while not session.state.is_terminal():
        seat = session.state.current_player()
        label = rng.choice(session.state.legal_actions()).label
        start = time.process_time()
        session.act(seat, [label])
        session.page(session.state.current_player() if not session.state.is_terminal() else seat)
        times.append((time.process_time() - start) * 1000)
    return times


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--spec", default="games/castles.yaml")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    game = load_game(args.spec)
    times = [t for seed in range(1, args.games + 1) for t in one_game(game, args.players, seed)]
    times.sort()
    result = {"spec": args.spec, "players": args.players, "updates": len(times),
              "median_ms": round(statistics.median(times), 1),
              "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1), "max_ms": round(times[-1], 1)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.spec}, {args.players} players: {result['updates']} page updates, "
              f"median {result['median_ms']} ms, p95 {result['p95_ms']} ms, max {result['max_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
