"""Speed of the engine, per game and player count, on one core.

    python benchmarks/bench.py [SPEC ...] [--players 4] [--seconds S] [--repeat R] [--json]
    python benchmarks/bench.py --cli          # validate and start-up times, --jobs scaling
    python benchmarks/bench.py --hostile      # validate and replay at the input limits
    python benchmarks/bench.py --profile SPEC # where the time goes (sampled, self time),
                                              # and Python calls per decision (cProfile)
    python benchmarks/bench.py --hand [SPEC ...] [--players 2 4]   # against hand-written anchors

A script, not a test: timings depend on the machine. Playouts use random
agents; each figure is the median of --repeat runs. clone_bytes is the memory one
clone adds (tracemalloc; benchmarks/mcts_memory.py measures a whole search). Targets (issue 8): per
game ≥ 50 games/s and ≥ 50,000 decisions/s at 4 players; clone ≤ 30 µs;
save + load ≤ 1 ms; validate ≤ 300 ms cold; `rulespec --help` ≤ 150 ms;
simulate --jobs 2 ≥ 1.8 × --jobs 1. Issue 18: rulespec's decisions/s ≥ 0.4 × a
hand-written anchor's (benchmarks/hand/) in the same interleaved run; a spec with
an anchor gets those figures in its row, --hand prints only them. Hostile input
(--hostile, CPU time): the largest spec the limits let through (rule text, variants)
validates in ≤ 5 s, one just past them is refused in ≤ 1 s, and a 200,000-line log
that parts from its game at line 2 is replayed in ≤ 2 s (rulespec/limits.py; tests/hostile).
"""
from __future__ import annotations

import argparse
import glob
import importlib
import json
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # benchmarks.hand

from benchmarks.hand import ANCHORS  # noqa: E402
from interpreter import load_game  # noqa: E402


def playouts(game, players, seconds, first_seed=0):
    """(games/s, decisions/s) of random playouts for about `seconds` of CPU."""
    games, decisions, elapsed = playout_block(
        lambda seed: game.new_state(players, seed), seconds, first_seed)
    return games / elapsed, decisions / elapsed


def anchor_of(spec):
    """The hand-written anchor module for a spec (by its file's name), or None."""
    name = ANCHORS.get(os.path.splitext(os.path.basename(spec))[0])
    return importlib.import_module(name) if name else None


def playout_block(new_state, seconds, first_seed):
    """Random playouts of whole games for about `seconds` of CPU: (games, decisions,
    CPU seconds). new_state(seed) gives a state with legal_actions/apply/is_terminal,
    so rulespec and an anchor run the very same loop."""
    games = decisions = 0
    seed = first_seed
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            options = state.legal_actions()
            state.apply(options[rng.randrange(len(options))])
            decisions += 1
            # a game random seats cannot end (Siena's long variant) stops at the time
            # too: its decisions count, the game does not
            if not decisions & 1023 and time.process_time() - start >= seconds:
                return games, decisions, time.process_time() - start
        games += 1
        seed += 1
    return games, decisions, time.process_time() - start


def plays_variant(anchor, variant) -> bool:
    """Whether an anchor module plays `variant` (None: the spec's default game)."""
    return anchor is not None and variant in getattr(anchor, "VARIANTS", (None,))


def versus_hand(spec, anchor, players, seconds, block=0.5, variant=None):
    """rulespec against its hand-written anchor, in alternating blocks of `block` CPU
    seconds (about `seconds` each in all), so a shared machine's load falls on both
    alike. Decisions/s of each over all its blocks, and the ratio rulespec/hand."""
    game = load_game(spec, variant=variant)
    by_variant = {} if variant is None else {"variant": variant}
    sides = {"rulespec": lambda seed: game.new_state(players, seed),
             "hand": lambda seed: anchor.new_game(players, seed, **by_variant)}
    sides["hand"](0)    # an anchor reads its components from the spec once: not timed
    totals = {side: [0, 0, 0.0] for side in sides}
    for i in range(max(1, round(seconds / block))):
        for side, new_state in sides.items():
            for k, x in enumerate(playout_block(new_state, block, 10_000 * i)):
                totals[side][k] += x
    rates = {side: d / t for side, (g, d, t) in totals.items()}
    return {"rulespec_decisions_per_s": round(rates["rulespec"]),
            "hand_decisions_per_s": round(rates["hand"]),
            "ratio_to_hand": round(rates["rulespec"] / rates["hand"], 3)}


def mid_game_states(game, players, count=60):
    states, rng = [], random.Random(7)
    state = game.new_state(players, 7)
    while not state.is_terminal() and len(states) < count:
        states.append(state.clone())
        options = state.legal_actions()
        state.apply(options[rng.randrange(len(options))])
    return states


def micro_us(fn, states, repeat=20):
    start = time.process_time()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.process_time() - start) / (repeat * len(states)) * 1e6


def clone_bytes(states, copies=20) -> int:
    """Bytes one clone adds, averaged over `copies` clones of each state: Python's
    allocations (tracemalloc) while the clones are made and kept, divided by their
    number. Values are shared between clones (no builtin changes one in place), so
    this is the containers a clone copies, not the values they hold."""
    import tracemalloc
    kept = [None] * (copies * len(states))     # allocated before measuring
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i, state in enumerate(states * copies):
        kept[i] = state.clone()
    added = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return round(added / len(kept))


def bench(spec, variant, players, seconds, repeat):
    game = load_game(spec, variant=variant)
    runs = [playouts(game, players, seconds, first_seed=1000 * r) for r in range(repeat)]
    states = mid_game_states(game, players)
    games_s = statistics.median(r[0] for r in runs)
    decisions_s = statistics.median(r[1] for r in runs)
    return {
        "spec": spec, "variant": variant, "players": players,
        "games_per_s": round(games_s, 1), "decisions_per_s": round(decisions_s),
        "decision_us": round(1e6 / decisions_s, 1) if decisions_s else None,
        "clone_us": round(statistics.median(micro_us(lambda s: s.clone(), states) for _ in range(repeat)), 1),
        "save_load_us": round(statistics.median(
            micro_us(lambda s: game.state_from_json(s.to_json()), states, 5) for _ in range(repeat)), 1),
        "legal_actions_us": round(micro_us(lambda s: s.legal_actions(), states), 1),
        "clone_bytes": clone_bytes(states),
    }


def sampled_profile(game, players, seconds, top=15):
    """Where random playouts spend their time, by sampling the stack from a thread
    (cProfile's per-call cost inflates exactly the small calls an interpreter makes).
    Returns [(share of samples, function)] by self time; generated rule code is one row."""
    import collections
    import threading
    sys.setswitchinterval(0.0002)
    main_thread, counts, stop = threading.main_thread().ident, collections.Counter(), []

    def where(code):
        if code.co_filename.startswith("<rulespec"):
            return "rule expressions (generated code)"
        return f"{os.path.basename(code.co_filename)}:{code.co_name}"

    def sample():
        while not stop:
            frame = sys._current_frames().get(main_thread)
            if frame is not None:
                counts[where(frame.f_code)] += 1
            time.sleep(0.0003)
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        playouts(game, players, seconds)
    finally:
        stop.append(True)
        sampler.join()
    total = sum(counts.values()) or 1
    by_file = collections.Counter()
    for name, n in counts.items():
        by_file[name.split(":")[0] if ":" in name else name] += n
    return {"functions": [(round(n / total, 3), name) for name, n in counts.most_common(top)],
            "files": [(round(n / total, 3), name) for name, n in by_file.most_common(8)]}


def calls_per_decision(game, players, games=10):
    """Python calls per decision over random games of seeds 0..games-1, counted by
    cProfile: unlike a timing, the same on a loaded machine as on an idle one."""
    import cProfile
    import pstats
    profiler, decisions = cProfile.Profile(), 0
    profiler.enable()
    for seed in range(games):
        state, rng = game.new_state(players, seed), random.Random(seed)
        while not state.is_terminal():
            options = state.legal_actions()
            state.apply(options[rng.randrange(len(options))])
            decisions += 1
    profiler.disable()
    calls = sum(row[1] for row in pstats.Stats(profiler).stats.values())
    return round(calls / max(decisions, 1), 1)


def wall_ms(argv, repeat) -> float:
    """Median wall time of a fresh process, in ms (cold start: nothing cached in-process)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 1)


def cli_figures(specs, repeat):
    exe = [sys.executable, "-m", "interpreter.cli"]
    rows = {"help_ms": wall_ms(exe + ["--help"], repeat)}
    for spec in specs:
        rows[f"validate_ms {spec}"] = wall_ms(exe + ["validate", spec], repeat)
    spec = "games/zena.yaml" if os.path.exists("games/zena.yaml") else specs[0]
    n = 1000   # enough games that the pool's start-up does not hide the scaling
    one = wall_ms(exe + ["simulate", spec, "-n", str(n), "--players", "4", "--jobs", "1", "--json"], 1)
    two = wall_ms(exe + ["simulate", spec, "-n", str(n), "--players", "4", "--jobs", "2", "--json"], 1)
    rows[f"simulate {spec} -n {n}: jobs 1 ms"] = one
    rows[f"simulate {spec} -n {n}: jobs 2 ms"] = two
    rows["jobs 2 speed-up"] = round(one / two, 2)
    return rows


def cpu_ms(argv, repeat) -> float:
    """Median CPU time (user + system) of a fresh process, in ms: unlike wall time, what
    other jobs on the machine do barely changes it."""
    import resource
    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    return round(statistics.median(times), 1)


def hostile_figures(repeat) -> dict:
    """CPU ms of validate and replay at the limits that bound them (rulespec/limits.py)."""
    import tempfile
    from rulespec.limits import RULE_CHARS, RULE_TEXT, VARIANTS
    exe = [sys.executable, "-m", "interpreter.cli"]
    folder = tempfile.mkdtemp(prefix="rulespec-bench-")

    def spec(lines, variants=0):
        """A spec of `lines` lines of rules, in procedures each under the rule length limit."""
        size = RULE_CHARS // len("x = 1\n") - 10
        procedures = "".join(f"  p{i}:\n    do: |\n" + "      x = 1\n" * min(size, lines - i * size)
                             for i in range(-(-lines // size)))
        text = ("game: T\nplayers: {min: 2, max: 2}\nper_player:\n  wins: {start: 0}\n"
                "flow: |\n" + "".join(f"  p{i}()\n" for i in range(-(-lines // size))) +
                "  end game \"x\"\nscoring:\n  score: p.wins\nprocedures:\n" + procedures)
        if variants:
            text += "variants:\n" + "".join(f"  v{i}:\n    changes: {{per_player: {{wins: "
                                             f"{{start: {i}}}}}}}\n" for i in range(variants))
        path = os.path.join(folder, f"s{lines}_{variants}.yaml")
        with open(path, "w") as f:
            f.write(text)
        return path

    under = RULE_TEXT // len("x = 1\n") - 50    # the flow's calls count too
    head = {"rulespec_log": 1, "rng": 2, "spec": os.path.abspath("tests/games/market.yaml"),
            "spec_hash": load_game("tests/games/market.yaml").spec_hash, "variant": None,
            "players": 2, "seed": 1, "agents": ["random", "random"]}
    log = os.path.join(folder, "junk.jsonl")
    with open(log, "w") as f:
        f.write(json.dumps(head) + "\n" + '{"decision": {"player": 0, "label": "x"}}\n' * 200_000)
    return {
        "validate rule text just under the limit cpu ms": cpu_ms(exe + ["validate", spec(under)], repeat),
        "validate rule text just over the limit cpu ms": cpu_ms(exe + ["validate", spec(under + 100)], repeat),
        f"validate {VARIANTS} variants cpu ms": cpu_ms(exe + ["validate", spec(10, VARIANTS)], repeat),
        f"validate {VARIANTS + 1} variants cpu ms": cpu_ms(exe + ["validate", spec(10, VARIANTS + 1)], repeat),
        "replay 200,000 junk lines cpu ms": cpu_ms(exe + ["replay", log], repeat),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="*")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of playouts per run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", type=int, nargs="*", help="player counts (default: 4, or the nearest legal)")
    ap.add_argument("--cli", action="store_true", help="measure validate, --help and --jobs instead")
    ap.add_argument("--hostile", action="store_true", help="validate and replay at the input limits")
    ap.add_argument("--profile", action="store_true",
                    help="where the playouts spend their time (sampled), instead of the table")
    ap.add_argument("--hand", action="store_true",
                    help="only rulespec against the hand-written anchors (benchmarks/hand/), interleaved")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    specs = args.specs or sorted(glob.glob("games/*.yaml")) + ["tests/games/market.yaml"]
    if args.hand:
        rows = hand_rows([s for s in specs if anchor_of(s)], args)
        print(json.dumps(rows, indent=1) if args.json else table(rows))
        return
    if args.profile:
        players = args.players[0] if args.players else 4
        profiles = {}
        for spec in specs:
            game = load_game(spec)
            profiles[spec] = {**sampled_profile(game, players, args.seconds),
                              "calls_per_decision": calls_per_decision(game, players)}
        if args.json:
            print(json.dumps(profiles, indent=1))
            return
        for spec, profile in profiles.items():
            print(f"{spec}, {profile.pop('calls_per_decision')} Python calls per decision "
                  f"(cProfile, seeds 0-9, {players} players)")
            for part, rows in profile.items():
                print(f"{spec}, self time by {part[:-1]}:")
                print("\n".join(f"  {share:6.1%}  {name}" for share, name in rows))
        return
    if args.cli or args.hostile:
        rows = cli_figures(specs, args.repeat) if args.cli else hostile_figures(args.repeat)
        print(json.dumps(rows, indent=1) if args.json else
              "\n".join(f"{k}: {v}" for k, v in rows.items()))
        return
    rows = []
    for spec in specs:
        game = load_game(spec)
        for variant in [None] + list(game.data.get("variants") or {}):
            for players in args.players or [min(max(4, game.min_players), game.max_players)]:
                if game.min_players <= players <= game.max_players:
                    rows.append(bench(spec, variant, players, args.seconds, args.repeat))
                    if plays_variant(anchor_of(spec), variant):
                        rows[-1].update(versus_hand(spec, anchor_of(spec), players, args.seconds,
                                                    variant=variant))
    print(json.dumps(rows, indent=1) if args.json else table(rows))


def hand_rows(specs, args):
    rows = []
    for spec in specs:
        game, anchor = load_game(spec), anchor_of(spec)
        for variant in getattr(anchor, "VARIANTS", (None,)):
            for players in args.players or [min(max(4, game.min_players), game.max_players)]:
                rows.append({"spec": spec, "variant": variant, "players": players,
                             **versus_hand(spec, anchor, players, args.seconds * args.repeat,
                                           variant=variant)})
    return rows


def table(rows) -> str:
    cols = list(dict.fromkeys(c for row in rows for c in row))
    return "\n".join([" | ".join(cols)] + [" | ".join(str(row.get(c, "")) for c in cols) for row in rows])


if __name__ == "__main__":
    main()
