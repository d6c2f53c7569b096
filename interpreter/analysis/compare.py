"""`rulespec compare`: two variants on the same seeds, and what changed between them.

Each row gives A, B, B - A with its 95% interval, an effect size (Cohen's h for
rates, d for means) and a two-sided p-value. A table of a dozen rows read at
95% each would show a "change" by luck in most comparisons, so the p-values are
adjusted for the number of rows with Holm's method (`stats.holm`), and a row is
marked `*` (significant) only when its adjusted p is below ALPHA.
"""
from __future__ import annotations


from ..engine.shapes import dumps
from . import stats
from .simulate import run_with_progress, summarize

ALPHA = 0.05          # the chance of any false alarm in a whole table (family-wise)
CORRECTION = "holm"


def compare_command(games, args, names, out, err) -> int:
    runs = []
    for game in games:
        records, seconds = run_with_progress(game, args, names, err)
        runs.append((game, records, seconds))
    result = compare(runs, args.players)
    if args.json:
        print(dumps(result), file=out)
    else:
        print(format_comparison(result), file=out)
    if args.html:
        from ..tools.output import write_file
        from .report_html import comparison_page
        write_file(args.html, comparison_page(result, [r for _, r, _ in runs]))
    failed = any(r["summary"]["errors"]["count"] for r in result["runs"])
    return 1 if failed else 0


def _label(game) -> str:
    return game.variant or "base"


def compare(runs, players) -> dict:
    """Summaries of both runs and the differences, as JSON data.

    runs: two (game, records, seconds), A then B, records as simulate plays them.
    Each row is {what, a, b, diff, ci95, effect: {name: "h" | "d", value}, p,
    p_adjusted, significant}; `correction`, `alpha` and `tests` (the rows that
    had something to test) say how the rows were judged.
    """
    (game_a, rec_a, sec_a), (game_b, rec_b, sec_b) = runs
    # games that ended by the rules; failed and cut-off games are counted in the summaries
    a = [r for r in rec_a if "error" not in r and not r.get("cut_off")]
    b = [r for r in rec_b if "error" not in r and not r.get("cut_off")]
    rows = []
    for seat in range(players):
        wa = sum(1 for r in a if seat in r["winner"])
        wb = sum(1 for r in b if seat in r["winner"])
        rows.append(_row(f"win rate {game_a.seat_name(seat)}", wa / max(1, len(a)),
                         wb / max(1, len(b)), stats.rate_difference(wa, len(a), wb, len(b))))
    for seat in range(players):
        rows.append(_means(f"score {game_a.seat_name(seat)}",
                           [r["scores"][seat] for r in a], [r["scores"][seat] for r in b]))
    rows.append(_means("decisions per game", [r["decisions"] for r in a], [r["decisions"] for r in b]))
    rounds_a = [r["rounds"] for r in a if isinstance(r["rounds"], (int, float))]
    rounds_b = [r["rounds"] for r in b if isinstance(r["rounds"], (int, float))]
    if rounds_a and rounds_b:
        rows.append(_means("rounds per game", rounds_a, rounds_b))
    cut_a = sum(1 for r in rec_a if r.get("cut_off"))
    cut_b = sum(1 for r in rec_b if r.get("cut_off"))
    if cut_a or cut_b:
        rows.append(_row("cut off by the simulator", cut_a / max(1, len(rec_a)),
                         cut_b / max(1, len(rec_b)),
                         stats.rate_difference(cut_a, len(rec_a), cut_b, len(rec_b))))
    for reason in sorted({r["ended_by"] for r in a + b}):
        ka = sum(1 for r in a if r["ended_by"] == reason)
        kb = sum(1 for r in b if r["ended_by"] == reason)
        rows.append(_row(f"ended by {reason}", ka / max(1, len(a)), kb / max(1, len(b)),
                         stats.rate_difference(ka, len(a), kb, len(b))))
    _adjust(rows)
    summary_a = summarize(game_a, players, rec_a, sec_a)
    summary_b = summarize(game_b, players, rec_b, sec_b)
    return {"game": game_a.name, "players": players, "games": len(rec_a),
            "seeds": [rec_a[0]["seed"], rec_a[-1]["seed"]] if rec_a else [],
            "a": _label(game_a), "b": _label(game_b), "rows": rows,
            "correction": CORRECTION, "alpha": ALPHA,
            "tests": sum(1 for r in rows if r["p"] is not None),
            "coverage_changes": _coverage_changes(summary_a, summary_b),
            "runs": [{"variant": _label(game_a), "summary": summary_a},
                     {"variant": _label(game_b), "summary": summary_b}]}


def _row(what, a, b, diff) -> dict:
    """One line of the table; `significant` is set by _adjust, once every row is known."""
    return {"what": what, "a": round(a, 4), "b": round(b, 4), "diff": diff["diff"],
            "ci95": diff["ci95"], "effect": diff["effect"], "p": diff["p"],
            "p_adjusted": None, "significant": False}


def _adjust(rows):
    """Holm-adjusted p-values over the rows that were tested; significant below ALPHA."""
    for row, p in zip(rows, stats.holm([row["p"] for row in rows])):
        row["p_adjusted"] = p
        row["significant"] = p is not None and p < ALPHA


def _means(what, xs, ys) -> dict:
    ma, _ = stats.mean_sd(xs) if xs else (float("nan"), 0)
    mb, _ = stats.mean_sd(ys) if ys else (float("nan"), 0)
    return _row(what, ma, mb, stats.mean_difference(xs, ys))


def _coverage_changes(sa, sb) -> list:
    """Rules that fire in one variant and never in the other (or exist in only one)."""
    out = []
    for key in sorted(set(sa["coverage"]) | set(sb["coverage"])):
        ca, cb = sa["coverage"].get(key), sb["coverage"].get(key)
        if (not ca) != (not cb):
            out.append({"rule": key, "a": ca, "b": cb})
    return out


def format_comparison(result) -> str:
    a, b = result["a"], result["b"]
    lines = [f"{result['game']}: {a} (A) vs {b} (B), {result['games']} games each on the same "
             f"seeds, {result['players']} players", "",
             f"{'':<28} {'A':>9} {'B':>9} {'B - A':>9}  {'95% CI':<18} {'effect':>8} {'p adj.':>8}"]
    for row in result["rows"]:
        diff, ci, effect, p = stats.cells(row)
        mark = " *" if row["significant"] else ""
        lines.append(f"{row['what'][:28]:<28} {row['a']:>9.4g} {row['b']:>9.4g} {diff:>9}  "
                     f"{ci:<18} {effect:>8} {p:>8}{mark}")
    lines.append("")
    lines.append(footnote(result))
    for change in result["coverage_changes"]:
        lines.append(f"coverage: {change['rule']} fired {change['a'] or 0} times in A, "
                     f"{change['b'] or 0} in B")
    for run in result["runs"]:
        errors = run["summary"]["errors"]
        if errors["count"]:
            first = errors["games"][0]
            lines.append(f"{run['variant']}: {errors['count']} games failed; "
                         f"first: seed {first['seed']}: {first['error']}")
    return "\n".join(lines)


FEW_GAMES = 30     # below this the normal approximation's p-values are too small (stats.py)


def footnote(result) -> str:
    """What the columns mean, and which correction was used."""
    return (f"* a change this run can tell from luck: two-sided p, adjusted for the "
            f"{result['tests']} rows tested ({result['correction'].capitalize()}), "
            f"below {result['alpha']}.\n"
            "  95% CI: each row's own interval. effect: Cohen's h (rates) or d (means); "
            "0.2 small, 0.5 medium, 0.8 large.\n"
            "  '-': nothing to test (no game varied) or no estimate."
            + (f"\n  Only {result['games']} games each: p and the CI use the normal "
               f"approximation, which is too small below {FEW_GAMES} games; run more "
               "before trusting a starred row." if result["games"] < FEW_GAMES else ""))
