"""Many games at once: seeds, workers (a local process pool or Ray), the summary.

`run_games` plays game i with seed S + i, so any game of a run can be played
again alone with `rulespec play --seed S+i`. Each game becomes a plain record
(winners, scores, lengths, how it ended, which rules fired, or its error);
records come back in seed order whatever the backend, so the summary of a run
depends only on the spec, the agents and the seeds — never on how many
workers played it or where.
"""
from __future__ import annotations

import os
import sys
import time

from . import stats

_GAMES: dict = {}   # (file, variant, text) -> compiled Game, one cache per worker process

# A game still running after this many decisions is cut off: reported apart from
# the games that ended by the rules, and counted in no win or score. The longest
# games of the specs in games/ take a few thousand decisions; a variant whose only
# endings random players never reach can run without end.
DEFAULT_CUTOFF = 20_000


class Job:
    """What every game of a run shares; plain data, so it pickles to any worker.

    cutoff: decisions after which a game is cut off (None: never)."""

    def __init__(self, file, variant, players, agents, check_invariants=False, text=None,
                 cutoff=DEFAULT_CUTOFF):
        self.file, self.variant, self.players = file, variant, players
        self.agents, self.check_invariants = list(agents), check_invariants
        self.text = text   # the spec itself, for workers that cannot read our files (Ray)
        self.cutoff = cutoff


def _game(job):
    from ..engine.game import load_game
    key = (job.file, job.variant, job.text)
    if key not in _GAMES:
        _GAMES[key] = load_game(job.file, variant=job.variant, text=job.text)
    return _GAMES[key]


def play_one(job: Job, seed: int) -> dict:
    """One game as a record; a failing game gives its first error, never an exception."""
    from ..agents import make_agents
    from ..tools.play import play
    started = time.perf_counter()
    try:
        game = _game(job)
        watch = _Invariants(seed, job.check_invariants)
        if job.check_invariants:
            watch(game.new_state(job.players, seed))   # the set-up is step 0
        state = play(game, job.players, seed, make_agents(job.agents, seed), on_step=watch,
                     max_decisions=getattr(job, "cutoff", None))
    except _Broken as broken:
        return {"seed": seed, "error": str(broken), "invariant": broken.detail,
                "fired": getattr(broken, "fired", {})}
    except Exception as e:   # one failing game must not hide the others
        # its rules fired up to the fault (play()'s `fired`): the rule that failed counts
        return {"seed": seed, "error": e.format() if hasattr(e, "format") else f"{type(e).__name__}: {e}",
                "fired": getattr(e, "fired", {})}
    seconds = round(time.perf_counter() - started, 6)   # the results file's; never summarised
    if not state.is_terminal():
        return {"seed": seed, "cut_off": True, "rounds": state.round(),
                "decisions": state.decisions, "fired": dict(state.fired), "seconds": seconds}
    return {"seed": seed, "winner": state.winner(), "scores": state.scores(),
            "tiebreaks": [[tb(state, {"p": s}) for tb in game.tiebreaks] for s in state.seats],
            "rounds": state.round(), "decisions": state.decisions, "ended_by": state.ended_by,
            "fired": dict(state.fired), "seconds": seconds}


class _Broken(Exception):
    def __init__(self, detail):
        super().__init__(f"seed {detail['seed']}, step {detail['step']}: invariant "
                         f"'{detail['invariant']}' does not hold")
        self.detail = detail


MAX_DECISIONS = 100_000   # a game still going after this many never ends: an error, not a hang


class _Invariants:
    """on_step for play(): the game must end; the spec's invariants after every decision."""

    def __init__(self, seed, check=True):
        self.seed, self.check = seed, check

    def __call__(self, state):
        if state.decisions >= MAX_DECISIONS:
            raise RuntimeError(f"the game did not end within {MAX_DECISIONS} decisions")
        if not self.check:
            return
        broken = state.check_invariants()
        if broken:
            raise _Broken({"seed": self.seed, "step": state.decisions, "invariant": broken[0]})


def _batch(args):
    job, seeds = args
    return [play_one(job, seed) for seed in seeds]


# ------------------------------------------------------------------ backends
def batches(seeds: list, size: int) -> list:
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def run_local(job, seeds, jobs, progress=None):
    """Records in seed order; jobs == 1 plays in this process."""
    if jobs <= 1 or len(seeds) <= 1:
        for seed in seeds:
            yield play_one(job, seed)
            if progress:
                progress(1)
        return
    import multiprocessing
    _game(job)   # compile before forking: every worker inherits it instead of compiling
    size = max(1, min(50, len(seeds) // (jobs * 8)))
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for records in pool.imap(_batch, [(job, b) for b in batches(seeds, size)]):
            yield from records
            if progress:
                progress(len(records))


def run_ray(job, seeds, jobs, progress=None, address=None):
    """The same records from a Ray cluster (`pip install -e '.[ray]'`)."""
    try:
        import ray
    except ImportError:
        raise BackendMissing("the ray backend needs Ray: pip install -e '.[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    if job.text is None:
        with open(job.file, encoding="utf-8") as f:
            job.text = f.read()
    remote = ray.remote(_batch)
    size = max(1, min(50, len(seeds) // (max(1, jobs) * 8)))
    pending = [remote.remote((job, b)) for b in batches(seeds, size)]
    for ref in pending:   # in order: the summary must not depend on who finished first
        records = ray.get(ref)
        yield from records
        if progress:
            progress(len(records))


class BackendMissing(Exception):
    pass


BACKENDS = {"local": run_local, "ray": run_ray}


# The first games of a run all failing with one error at one place: the spec is
# at fault, not the seeds, and the other games would fail so too (each after up to
# a step budget's or the clock's worth of work, which made simulate look hung).
SAME_FAILURES = 5


class GamesFailing(Exception):
    """The first SAME_FAILURES games of a run failed alike; str() is the error and why
    the run stopped."""


def run_games(job, games, seed=0, jobs=None, backend="local", progress=None, address=None):
    """Play `games` games with seeds seed, seed+1, ...; returns (records, seconds).
    Raises GamesFailing when the first SAME_FAILURES games fail with the same error."""
    seeds = [seed + i for i in range(games)]
    jobs = jobs or os.cpu_count() or 1
    start = time.perf_counter()
    if backend == "ray":
        played = run_ray(job, seeds, jobs, progress, address)
    else:   # more processes than games or cores only costs forks (--jobs 100000)
        played = run_local(job, seeds, min(jobs, games, os.cpu_count() or 1), progress)
    records = []
    for record in played:
        records.append(record)
        if len(records) == SAME_FAILURES < games:
            _stop_if_alike(job, records)
    return records, time.perf_counter() - start


def _stop_if_alike(job, records) -> None:
    errors = {r.get("error") for r in records}
    if len(errors) == 1 and None not in errors:
        first = records[0]["seed"]
        variant = f" --variant {job.variant}" if job.variant else ""
        raise GamesFailing(f"{errors.pop()}\nsimulate stopped: the first {len(records)} games "
                           f"(seeds {first} to {records[-1]['seed']}) all failed with this error, "
                           f"so the others would too; `rulespec play {job.file}{variant} "
                           f"--players {job.players} --seed {first}` plays one")


# ------------------------------------------------------------------ summary
def summarize(game, players, records, seconds) -> dict:
    """Everything a designer reads about a run, as JSON data."""
    ok = [r for r in records if "error" not in r and not r.get("cut_off")]
    cut = [r for r in records if r.get("cut_off")]
    failed = [{"seed": r["seed"], "error": r["error"]} for r in records if "error" in r]
    violations = [r["invariant"] for r in records if r.get("invariant")]
    decisions = [r["decisions"] for r in ok]
    rounds = [r["rounds"] for r in ok if isinstance(r["rounds"], (int, float))]
    ended: dict = {}
    for r in ok:
        ended[r["ended_by"]] = ended.get(r["ended_by"], 0) + 1
    coverage = rule_coverage(game, records)   # a failed game's rules up to its fault too
    summary = {
        "game": game.name, "variant": game.variant, "players": players,
        "games": len(records), "completed": len(ok),
        "errors": {"count": len(failed), "games": failed},
        "first_invariant_violation": violations[0] if violations else None,
        "wins": _wins(players, ok), "ties": sum(1 for r in ok if len(r["winner"]) > 1),
        "no_winner": sum(1 for r in ok if not r["winner"]),
        "scores": [stats.describe([r["scores"][s] for r in ok]) for s in range(players)],
        "decisions_per_game": stats.spread(decisions),
        "rounds_per_game": stats.spread(rounds) if rounds else None,
        "ended_by": dict(sorted(ended.items(), key=lambda kv: -kv[1])),
        "cut_off": {"count": len(cut), "seeds": [r["seed"] for r in cut][:20]},
        # every decision played counts for speed, those of cut-off games too
        "decisions_per_second": (round(sum(r["decisions"] for r in ok + cut) / seconds, 1)
                                 if seconds > 0 else None),
        "seconds": round(seconds, 3),
        "coverage": coverage,
        # Rules that never acted (a warning), apart from menu options never chosen
        # (a note: a menu option may be legal yet never the better choice).
        "never_fired": [k for k, v in coverage.items() if v == 0 and not k.startswith("menu:")],
        "never_chosen": [k for k, v in coverage.items() if v == 0 and k.startswith("menu:")],
    }
    return summary


def _wins(players, ok) -> list:
    """Per seat: games won (a shared win counts for each tied seat) with a 95% interval."""
    n = len(ok)
    out = []
    for seat in range(players):
        wins = sum(1 for r in ok if seat in r["winner"])
        low, high = stats.wilson(wins, n)
        out.append({"seat": seat, "wins": wins, "rate": round(wins / n, 4) if n else None,
                    "ci95": [round(low, 4), round(high, 4)]})
    return out


def coverage_keys(game) -> list[str]:
    """Every rule coverage counts, in spec order: actions, triggers, menu options,
    end conditions (a results file's StoredGame carries them ready-made)."""
    if hasattr(game, "coverage_keys"):
        return list(game.coverage_keys)
    return ([f"action:{a}" for a in game.actions] +
            [f"trigger:{t}" for t in (game.data.get("triggers") or {})] +
            list(getattr(game, "menu_keys", ())) +
            [f"end:{e}" for e, _ in game.end_conditions])


def rule_coverage(game, records) -> dict:
    """How often each action, trigger, menu option and end condition fired over all
    games, those that failed or were cut off included (each up to where it stopped):
    {"action:NAME" / "trigger:NAME" / "menu:RULE: LABEL" / "end:NAME": times}."""
    counts = dict.fromkeys(coverage_keys(game), 0)
    for r in records:
        for key, times in (r.get("fired") or {}).items():
            if key in counts:
                counts[key] += times
        end = f"end:{r.get('ended_by')}"
        if end in counts:
            counts[end] += 1
    return counts


# ------------------------------------------------------------------ output
def format_summary(s: dict, seat_name=lambda i: f"P{i + 1}") -> str:
    """The summary as a table for people."""
    title = f"{s['game']}{' (' + s['variant'] + ')' if s['variant'] else ''}"
    lines = [f"{title}: {s['games']} games, {s['players']} players, "
             f"{s['errors']['count']} errors, {s['decisions_per_second']} decisions/s", ""]
    lines.append(f"{'seat':<10} {'wins':>6} {'rate':>6} {'95% CI':>15} "
                 f"{'score mean':>10} {'sd':>7} {'min':>6} {'max':>6}")
    for w, sc in zip(s["wins"], s["scores"]):
        ci = f"{w['ci95'][0]:.2f}-{w['ci95'][1]:.2f}"
        rate = f"{w['rate']:.2f}" if w["rate"] is not None else "-"
        lines.append(f"{seat_name(w['seat']):<10} {w['wins']:>6} {rate:>6} {ci:>15} "
                     f"{_num(sc['mean']):>10} {_num(sc['sd']):>7} {_num(sc['min']):>6} {_num(sc['max']):>6}")
    if s["ties"] or s["no_winner"]:
        # a finished game has no winner only when no seat is eligible (State.winner)
        why = " (no seat met the spec's `scoring: eligible:` condition)" if s["no_winner"] else ""
        lines.append(f"(shared wins: {s['ties']} games; no winner: {s['no_winner']} games{why})")
    lines.append("")
    for label, key in (("decisions/game", "decisions_per_game"), ("rounds/game", "rounds_per_game")):
        d = s[key]
        if d and d.get("mean") is not None:
            lines.append(f"{label:<15} mean {_num(d['mean'])}  p50 {_num(d['p50'])}  p95 {_num(d['p95'])}")
        elif s.get("cut_off", {}).get("count"):
            lines.append(f"{label:<15} - (no game ended by the rules)")
    lines.append("")
    lines.append("ended by:")
    for reason, count in s["ended_by"].items():
        lines.append(f"  {count:>6}  {reason}")
    cut = s.get("cut_off") or {}
    if cut.get("count"):
        lines.append(f"  {cut['count']:>6}  cut off by the simulator, still running (not in wins or "
                     f"scores; seeds {', '.join(map(str, cut['seeds']))}{', ...' if cut['count'] > len(cut['seeds']) else ''})")
    lines.append("")
    lines.append("rule coverage (times fired):")
    for key, count in s["coverage"].items():
        lines.append(f"  {count:>8}  {key}")
    if s["never_fired"]:
        lines.append(f"warning: never fired: {', '.join(s['never_fired'])}")
    if s.get("never_chosen"):
        lines.append(f"note: menu options never chosen: {', '.join(s['never_chosen'])}")
    violation = s["first_invariant_violation"]
    if violation:
        lines.append(f"invariant '{violation['invariant']}' broken: seed {violation['seed']}, "
                     f"step {violation['step']}")
    if s["errors"]["count"]:
        lines.append(f"errors ({s['errors']['count']} games):")
        for e in s["errors"]["games"][:10]:
            lines.append(f"  seed {e['seed']}: {e['error']}")
    return "\n".join(lines)


def _num(x) -> str:
    if x is None:
        return "-"
    return f"{x:.2f}" if isinstance(x, float) and not x.is_integer() else str(int(x))


class Progress:
    """A one-line counter on stderr, redrawn in place; only when stderr is a terminal."""

    def __init__(self, total, stream=None):
        self.total, self.done, self.stream = total, 0, stream or sys.stderr
        self.started = time.perf_counter()

    def __call__(self, n):
        self.done += n
        width = 30
        filled = width * self.done // max(1, self.total)
        rate = self.done / max(1e-9, time.perf_counter() - self.started)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                          f"{self.done}/{self.total} games  {rate:.0f}/s")
        self.stream.flush()

    def close(self):
        self.stream.write("\r" + " " * 60 + "\r")
        self.stream.flush()


def progress_for(total, stream, quiet) -> Progress | None:
    isatty = getattr(stream, "isatty", None)
    if quiet or not (isatty and isatty()):
        return None
    return Progress(total, stream)


# ------------------------------------------------------------------ commands
def simulate_command(game, args, names, err) -> dict:
    """`rulespec simulate`: play the run with a progress line, then summarise it;
    with `--out PATH`, also write one row per game (analysis/results.py)."""
    records, seconds = run_with_progress(game, args, names, err)
    if getattr(args, "out", None):
        from . import results
        results.write(args.out, game, args.players, names, records, coverage_keys(game))
    return summarize(game, args.players, records, seconds)


def run_with_progress(game, args, names, err):
    job = Job(game.file, game.variant, args.players, names,
              getattr(args, "check_invariants", False),
              cutoff=getattr(args, "cutoff", DEFAULT_CUTOFF) or None)
    _GAMES.setdefault((job.file, job.variant, job.text), game)   # compiled once, here
    progress = progress_for(args.games, err, args.json)
    try:
        return run_games(job, args.games, args.seed, args.jobs, args.backend, progress, args.address)
    finally:
        if progress:
            progress.close()
