"""The report's charts: every chart names both axes with units, and degenerate data
(every game scoring 0) is drawn as one narrow bar at its value, not a solid block."""
from __future__ import annotations

import re

from interpreter.analysis.report_html import W, _histograms, _wins_chart


def rect_widths(svg: str) -> list[float]:
    return [float(w) for w in re.findall(r"<rect [^>]*width='([\d.]+)'", svg)]


def axis_titles(svg: str) -> list[str]:
    return re.findall(r"class='axis-title'[^>]*>([^<]+)<", svg)


def test_a_histogram_names_both_axes():
    svg = _histograms([[1, 2, 3, 5, 8], [2, 3, 4]], "score (points)")
    assert axis_titles(svg) == ["score (points)", "share of games"]
    assert ">100%<" in svg or "%<" in svg


def test_all_scores_zero_draw_one_narrow_bar_at_zero():
    svg = _histograms([[0] * 50, [0] * 50])
    widths = rect_widths(svg)
    assert widths and max(widths) < W / 8
    assert "every game: 0" in svg and axis_titles(svg)


def test_the_wins_chart_names_its_axes():
    wins = [{"rate": 0.5, "ci95": [0.4, 0.6]}, {"rate": 0.5, "ci95": [0.4, 0.6]}]
    result = {"runs": [{"summary": {"wins": wins}}, {"summary": {"wins": wins}}]}
    assert axis_titles(_wins_chart(result, 2)) == ["seat", "win rate (share of games)"]
