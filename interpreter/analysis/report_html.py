"""A self-contained HTML page for `rulespec compare --html`: inline SVG, no scripts,
no downloads, so it opens anywhere and can be mailed to a designer."""
from __future__ import annotations

from html import escape

from .stats import cells

COLOURS = ("#3b6ea8", "#d9822b")   # A, B
W, H, PAD = 560, 220, 44


def comparison_page(result, runs) -> str:
    """result: compare.compare(); runs: the two lists of game records (A, B)."""
    ok = [[r for r in rec if "error" not in r] for rec in runs]
    names = (result["a"], result["b"])
    players = result["players"]
    parts = [f"<h1>{escape(result['game'])}: {escape(names[0])} vs {escape(names[1])}</h1>",
             f"<p>{result['games']} games each, the same seeds, {players} players.</p>",
             _legend(names), "<h2>What changed</h2>", _table(result)]
    parts.append("<h2>Wins by seat (95% intervals)</h2>")
    parts.append(_wins_chart(result, players))
    for seat in range(players):
        parts.append(f"<h2>Score distribution, seat {seat + 1}</h2>")
        parts.append(_histograms([[r["scores"][seat] for r in games] for games in ok]))
    parts.append("<h2>Game length (decisions per game)</h2>")
    parts.append(_histograms([[r["decisions"] for r in games] for games in ok], "decisions per game"))
    body = "\n".join(parts)
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>"
            f"{escape(result['game'])}: compare</title><style>"
            "body{font-family:sans-serif;max-width:760px;margin:2em auto;color:#222}"
            "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}"
            "td:first-child{text-align:left}tr.sig{font-weight:bold}"
            "svg text{font-size:11px}</style></head><body>\n"
            f"{body}\n</body></html>\n")


def _legend(names) -> str:
    items = "".join(f"<span style='color:{c}'>&#9632; {escape(n)}</span> &nbsp; "
                    for c, n in zip(COLOURS, names))
    return f"<p>{items}</p>"


def _g(x) -> str:
    """A number in 4 significant digits; '-' for none (no game ended)."""
    return f"{x:.4g}" if isinstance(x, (int, float)) else "-"


def _table(result) -> str:
    rows = ["<table><tr><th>what</th><th>A</th><th>B</th><th>B - A</th><th>95% CI</th>"
            "<th>effect</th><th>p adj.</th></tr>"]
    for row in result["rows"]:
        diff, ci, effect, p = cells(row)
        cls = " class='sig'" if row["significant"] else ""
        rows.append(f"<tr{cls}><td>{escape(str(row['what']))}</td><td>{_g(row['a'])}</td>"
                    f"<td>{_g(row['b'])}</td><td>{diff}</td><td>{ci}</td><td>{effect}</td>"
                    f"<td>{p}</td></tr>")
    rows.append(f"</table><p>Bold rows: a change this run can tell from luck: two-sided p, "
                f"adjusted for the {result['tests']} rows tested "
                f"({escape(result['correction'].capitalize())}), below {result['alpha']}. "
                "95% CI: each row's own interval. Effect: Cohen's h (rates) or d (means); "
                "0.2 small, 0.5 medium, 0.8 large.</p>")
    return "\n".join(rows)


def _svg(inner: str) -> str:
    return f"<svg xmlns='http://www.w3.org/2000/svg' width='{W}' height='{H}' viewBox='0 0 {W} {H}'>{inner}</svg>"


def _wins_chart(result, players) -> str:
    """Bars of each seat's win rate for A and B, with interval whiskers."""
    summaries = [run["summary"]["wins"] for run in result["runs"]]
    inner = [_axes(0.0, 1.0, "seat", "win rate (share of games)")]
    slot = (W - 2 * PAD) / max(1, players)
    for seat in range(players):
        for k, wins in enumerate(summaries):
            w = wins[seat]
            if w["rate"] is None:
                continue
            x = PAD + seat * slot + slot * (0.15 + 0.35 * k)
            bar = slot * 0.3
            top, base = _y(w["rate"], 0, 1), _y(0, 0, 1)
            inner.append(f"<rect x='{x:.1f}' y='{top:.1f}' width='{bar:.1f}' height='{base - top:.1f}' "
                         f"fill='{COLOURS[k]}'><title>{w['rate']:.3f}</title></rect>")
            lo, hi = _y(w["ci95"][0], 0, 1), _y(w["ci95"][1], 0, 1)
            cx = x + bar / 2
            inner.append(f"<line x1='{cx:.1f}' x2='{cx:.1f}' y1='{lo:.1f}' y2='{hi:.1f}' stroke='#000'/>")
        inner.append(f"<text x='{PAD + seat * slot + slot / 2:.1f}' y='{H - PAD + 14}' "
                     f"text-anchor='middle'>{seat + 1}</text>")
    return _svg("".join(inner))


def _histograms(samples, x_title: str = "score (points)") -> str:
    """One or two overlaid histograms on shared bins: x is `x_title`, y the share of
    games. When every game has the same value, one narrow bar stands at it (a bin
    as wide as the chart would read as a solid block) and the chart says so."""
    values = [v for s in samples for v in s if isinstance(v, (int, float))]
    if not values:
        return "<p>(no games)</p>"
    low, high = min(values), max(values)
    if high == low:
        return _single_value(samples, low, x_title)
    bins = 20
    width = (high - low) / bins
    counts = []
    for s in samples:
        c = [0] * bins
        for v in s:
            c[min(bins - 1, int((v - low) / width))] += 1
        counts.append([x / max(1, len(s)) for x in c])
    top = max(max(c) for c in counts) or 1
    inner = [_axes(0, top, x_title, "share of games", percent=True)]
    bar = (W - 2 * PAD) / bins
    for k, c in enumerate(counts):
        for i, share in enumerate(c):
            y = _y(share, 0, top)
            inner.append(f"<rect x='{PAD + i * bar:.1f}' y='{y:.1f}' width='{bar:.1f}' "
                         f"height='{_y(0, 0, top) - y:.1f}' fill='{COLOURS[k]}' fill-opacity='0.5'>"
                         f"<title>{low + i * width:.3g}..{low + (i + 1) * width:.3g}: "
                         f"{share:.1%}</title></rect>")
    inner.append(f"<text x='{PAD}' y='{H - PAD + 14}' text-anchor='middle'>{low:.4g}</text>")
    inner.append(f"<text x='{W - PAD}' y='{H - PAD + 14}' text-anchor='middle'>{high:.4g}</text>")
    return _svg("".join(inner))


def _single_value(samples, value, x_title) -> str:
    inner = [_axes(0, 1, x_title, "share of games", percent=True)]
    middle, bar = W / 2, (W - 2 * PAD) / 20
    for k, s in enumerate(samples):
        if s:
            x = middle - bar / 2 + k * bar * 0.3
            inner.append(f"<rect x='{x:.1f}' y='{_y(1, 0, 1):.1f}' width='{bar:.1f}' "
                         f"height='{_y(0, 0, 1) - _y(1, 0, 1):.1f}' fill='{COLOURS[k]}' fill-opacity='0.5'>"
                         f"<title>{value:.4g}: 100%</title></rect>")
    inner.append(f"<text x='{middle:.1f}' y='{H - PAD + 14}' text-anchor='middle'>{value:.4g}</text>")
    inner.append(f"<text x='{middle + bar:.1f}' y='{PAD + 12}'>every game: {value:.4g}</text>")
    return _svg("".join(inner))


def _y(value, low, high) -> float:
    return H - PAD - (value - low) / ((high - low) or 1) * (H - 2 * PAD)


def _axes(low, high, x_title: str, y_title: str, percent: bool = False) -> str:
    """Both axes with their end values and titles (units in the titles)."""
    base, top = _y(low, low, high), _y(high, low, high)
    tick = (lambda v: f"{v:.0%}") if percent else (lambda v: f"{v:.3g}")
    return (f"<line x1='{PAD}' x2='{W - PAD}' y1='{base:.1f}' y2='{base:.1f}' stroke='#888'/>"
            f"<line x1='{PAD}' x2='{PAD}' y1='{base:.1f}' y2='{top:.1f}' stroke='#888'/>"
            f"<text x='{PAD - 4}' y='{top + 4:.1f}' text-anchor='end'>{tick(high)}</text>"
            f"<text x='{PAD - 4}' y='{base:.1f}' text-anchor='end'>{tick(low)}</text>"
            f"<text class='axis-title' x='{W / 2:.0f}' y='{H - 4}' text-anchor='middle'>{escape(x_title)}</text>"
            f"<text class='axis-title' transform='translate(11,{(base + top) / 2:.0f}) rotate(-90)' "
            f"text-anchor='middle'>{escape(y_title)}</text>")


def summary_page(summary, records) -> str:
    """A page for `rulespec report --html`: one run's wins, scores and lengths.

    summary: simulate.summarize(); records: the run's game records."""
    ok = [r for r in records if "error" not in r and not r.get("cut_off")]
    title = f"{summary['game']}{' (' + summary['variant'] + ')' if summary['variant'] else ''}"
    rows = ["<table><tr><th>seat</th><th>wins</th><th>rate</th><th>95% CI</th>"
            "<th>mean score</th></tr>"]
    for seat, (w, sc) in enumerate(zip(summary["wins"], summary["scores"])):
        rate = "-" if w["rate"] is None else f"{w['rate']:.3f}"
        rows.append(f"<tr><td>P{seat + 1}</td><td>{w['wins']}</td><td>{rate}</td>"
                    f"<td>[{w['ci95'][0]:.3f}, {w['ci95'][1]:.3f}]</td><td>{sc['mean']}</td></tr>")
    rows.append("</table>")
    parts = [f"<h1>{escape(title)}</h1>",
             f"<p>{summary['games']} games, {summary['players']} players, "
             f"{summary['errors']['count']} errors.</p>", "<h2>Wins by seat</h2>", "\n".join(rows)]
    for seat in range(summary["players"]):
        parts.append(f"<h2>Score distribution, seat {seat + 1}</h2>")
        parts.append(_histograms([[r["scores"][seat] for r in ok]]))
    parts.append("<h2>Game length (decisions per game)</h2>")
    parts.append(_histograms([[r["decisions"] for r in ok]], "decisions per game"))
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{escape(title)}: report"
            "</title><style>body{font-family:sans-serif;max-width:760px;margin:2em auto;color:#222}"
            "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}"
            "svg text{font-size:11px}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n")
