"""Hand-written anchors: idiomatic Python implementations of a game, one module
each, to measure rulespec against (benchmarks/bench.py --hand; README.md there).

ANCHORS maps a spec's name (games/NAME.yaml) to the module that plays it; each
module has `new_game(players, seed, chooser=None)`;
one that plays the spec's variants too takes `variant=NAME` and lists them in VARIANTS.
"""
ANCHORS = {
    "castles": "benchmarks.hand.castles",
    "siena": "benchmarks.hand.siena",
    "zena": "benchmarks.hand.zena",
}
