"""Two or more checkouts of the engine timed against each other in one process.

    python benchmarks/ab.py BASE_TREE NEW_TREE [--spec games/zena.yaml] [--players 2]
                            [--variant V] [--seconds 6] [--block 0.1]

Each TREE is a directory holding `interpreter/` and `rulespec/` (a `git worktree`
of another commit, say). Every tree's engine is imported into this one process
under its own copy of the package modules, and their playouts run in alternating
blocks of `--block` CPU seconds, with the spec's hand-written anchor
(benchmarks/hand/) beside them when it has one. A shared machine's speed swings
by a third within seconds here; separate runs, or two processes side by side,
cannot tell a 3% change from that, where blocks of a tenth of a second, taken
in turn, put the swings on every side alike: the same tree twice agreed within
1.5% (round 11, Zena beginner, 2 players, 6 s).

Prints decisions/s per side and each side's ratio to the anchor (or to the
first tree when there is no anchor). A script, not a test: see bench.py for the
targets. Random agents play, as in bench.py (playout_block).
"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))     # bench, beside this file
from bench import anchor_of, plays_variant, playout_block  # noqa: E402

ENGINE = ("interpreter", "rulespec")


def _engine_modules() -> list[str]:
    return [m for m in sys.modules if m.split(".")[0] in ENGINE]


def _use(modules: dict) -> None:
    """Put one tree's engine modules in sys.modules: a function that imports on
    first use (`from .state import State` inside a function) finds its own tree's."""
    for name in _engine_modules():
        del sys.modules[name]
    sys.modules.update(modules)


def load_tree(tree: Path, spec: str, variant: str | None, players: int):
    """(new_state(seed), its modules) for the engine in `tree`, warmed by one game
    so that what is made on first use is made before any block is timed."""
    _use({})
    sys.path.insert(0, str(tree))
    try:
        interpreter = importlib.import_module("interpreter")
        game = interpreter.load_game(str(tree / spec), variant=variant)
    finally:
        sys.path.remove(str(tree))
    def new_state(seed, game=game):
        return game.new_state(players, seed)
    playout_block(new_state, 0.2, 999)
    return new_state, {m: sys.modules[m] for m in _engine_modules()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--spec", default="games/zena.yaml", help="the spec, relative to each tree")
    parser.add_argument("--variant")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds each side plays")
    parser.add_argument("--block", type=float, default=0.1, help="CPU seconds a side plays in turn")
    args = parser.parse_args(argv)
    for tree in args.trees:
        if not (tree / "interpreter").is_dir() or not (tree / args.spec).is_file():
            parser.error(f"{tree}: no interpreter/ or no {args.spec} there")
    sides = {}
    for k, tree in enumerate(args.trees):
        sides[f"{k}:{tree}"] = load_tree(tree.resolve(), args.spec, args.variant, args.players)
    anchor = anchor_of(args.spec)
    if plays_variant(anchor, args.variant):
        by_variant = {} if args.variant is None else {"variant": args.variant}
        sides["hand"] = (lambda seed: anchor.new_game(args.players, seed, **by_variant), {})
        _use({})
        playout_block(sides["hand"][0], 0.2, 999)   # its components read from the spec: not timed
    totals = {side: [0, 0.0] for side in sides}
    order = list(sides)
    i = 0
    while min(t for _, t in totals.values()) < args.seconds:
        for side in order if i % 2 == 0 else order[::-1]:   # each side first in turn
            new_state, modules = sides[side]
            _use(modules)
            _, decisions, elapsed = playout_block(new_state, args.block, 10_000 * i)
            totals[side][0] += decisions
            totals[side][1] += elapsed
        i += 1
    rates = {side: d / t for side, (d, t) in totals.items()}
    base = rates.get("hand", rates[order[0]])
    print(f"{'side':40s} {'decisions/s':>12s} {'ratio':>7s}   ({'hand anchor' if 'hand' in rates else 'first tree'} = 1)")
    for side, rate in rates.items():
        print(f"{side[:40]:40s} {rate:12,.0f} {rate / base:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
