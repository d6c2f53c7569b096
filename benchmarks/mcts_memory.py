"""Memory and time of one MCTS search: by default 10,000 playouts, each to the end,
of The Castles of Tuscany at 4 players from the start (issue 18: under 1 GB).

    python benchmarks/mcts_memory.py [SPEC] [--players 4] [--playouts 10000]
                                     [--depth D] [--seed 1] [--tracemalloc] [--json]

Prints the search's CPU time, the process's peak resident memory before and after
it (getrusage's ru_maxrss: everything, the interpreter and the compiled game
included), the tree's nodes and their deep size, and what a tree holding a full
state per node would take instead (bytes per clone, as bench.py measures them,
times the nodes). --tracemalloc also gives the peak of Python's own allocations
during the search (it slows the search about twofold). A script, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import clone_bytes  # noqa: E402

from interpreter import load_game  # noqa: E402
from interpreter.agents.search import MCTSAgent  # noqa: E402


def tree_bytes(root) -> int:
    """Deep size of an MCTS tree in bytes: each node, its children map and the
    label strings that key it (sys.getsizeof, so CPython's own object sizes)."""
    total, todo = 0, [root]
    while todo:
        node = todo.pop()
        total += sys.getsizeof(node) + sys.getsizeof(node.children)
        total += sum(sys.getsizeof(label) for label in node.children)
        todo.extend(node.children.values())
    return total


def maxrss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(spec, players, playouts, depth, seed, trace) -> dict:
    """One search from the start of a `players` game of `spec`: a dict of figures."""
    game = load_game(spec)
    state = game.new_state(players, seed)
    rand = random.Random(seed)
    while len(state.legal_actions()) < 2:     # a decision worth searching
        state.apply(rand.randrange(len(state.legal_actions())))
    agent = MCTSAgent(seed, f"{playouts}:{depth}" if depth is not None else str(playouts))
    before = maxrss_mb()
    if trace:
        tracemalloc.start()
    start = time.process_time()
    root = agent.search(state)
    seconds = time.process_time() - start
    peak = tracemalloc.get_traced_memory()[1] if trace else None
    tracemalloc.stop()
    nodes = root.size()
    per_clone = clone_bytes([state])
    return {
        "spec": spec, "players": players, "playouts": playouts, "depth": depth, "seed": seed,
        "cpu_s": round(seconds, 1), "playouts_per_s": round(playouts / seconds, 1),
        "completed_playouts": sum(child.visits for child in root.children.values()),
        "maxrss_before_mb": round(before, 1), "maxrss_after_mb": round(maxrss_mb(), 1),
        "tracemalloc_peak_mb": round(peak / 2**20, 1) if peak is not None else None,
        "tree_nodes": nodes, "tree_mb": round(tree_bytes(root) / 2**20, 2),
        "tree_bytes_per_node": round(tree_bytes(root) / nodes),
        "state_per_node_would_be_mb": round(per_clone * nodes / 2**20, 1),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec", nargs="?", default="games/castles.yaml")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--playouts", type=int, default=10_000)
    ap.add_argument("--depth", type=int, help="cut each random playout after D decisions (mcts:N:D)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tracemalloc", action="store_true", help="also the peak of Python's allocations")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    row = measure(args.spec, args.players, args.playouts, args.depth, args.seed, args.tracemalloc)
    print(json.dumps(row, indent=1) if args.json else "\n".join(f"{k}: {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
