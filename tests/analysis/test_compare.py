"""`rulespec compare` does not cry wolf: its rows are corrected for being read together.

The null case is two runs of the very same game on different seeds: whatever the
table shows is luck. Read at 95% row by row, a dozen rows would flag something in
about a third of such comparisons; with Holm's correction, at most 5% of them may
show any significant row. Seeds are fixed, so the test is deterministic.
"""
from __future__ import annotations

import io
import json
import math

import pytest

from interpreter.analysis import stats
from interpreter.analysis.compare import ALPHA, compare, format_comparison
from interpreter.analysis.simulate import Job, run_local
from interpreter.cli import main
from tests.paths import TESTS
from tests.shipped import shipped

MARKET = TESTS / "games" / "market.yaml"
PLAYERS, GAMES, COMPARISONS = 3, 100, 20


@pytest.fixture(scope="module")
def null_comparisons():
    """COMPARISONS tables, each of the base game against itself on fresh seeds."""
    game = shipped(str(MARKET))
    job = Job(str(MARKET), None, PLAYERS, ["random"] * PLAYERS)
    records = list(run_local(job, list(range(2 * GAMES * COMPARISONS)), jobs=1))
    runs = [records[i:i + GAMES] for i in range(0, len(records), GAMES)]
    return [compare([(game, a, 1.0), (game, b, 1.0)], PLAYERS) for a, b in zip(runs[::2], runs[1::2])]


def test_identical_variants_flag_nothing_beyond_the_expected_rate(null_comparisons):
    alarms = sum(any(row["significant"] for row in result["rows"]) for result in null_comparisons)
    # Holm keeps P(any alarm) <= ALPHA: about 1 of 20 at most; 4 or more has P < 2%
    assert alarms <= 3, f"{alarms} of {COMPARISONS} comparisons of a game with itself raised an alarm"
    assert all(result["correction"] == "holm" and result["tests"] >= 6 for result in null_comparisons)


def test_the_raw_p_values_are_calibrated_and_would_cry_wolf(null_comparisons):
    """The correction is what keeps the alarms away: the p-values themselves are
    not just large (about 5% of rows fall below 0.05), and read row by row they
    would flag far more comparisons."""
    raw = [row["p"] for result in null_comparisons for row in result["rows"] if row["p"] is not None]
    share = sum(p < ALPHA for p in raw) / len(raw)
    assert 0.01 <= share <= 0.12, share
    uncorrected = sum(any(row["p"] is not None and row["p"] < ALPHA for row in result["rows"])
                      for result in null_comparisons)
    corrected = sum(any(row["significant"] for row in result["rows"]) for result in null_comparisons)
    assert uncorrected >= corrected + 3


def test_a_real_change_is_still_found_and_the_output_names_the_correction():
    code, out, err = _run("compare", MARKET, "--variant", "long", "-n", "60", "--players", "3",
                          "--jobs", "1", "--json")
    result = json.loads(out)
    rows = {row["what"]: row for row in result["rows"]}
    decisions = rows["decisions per game"]
    assert code == 0 and decisions["significant"] and decisions["p_adjusted"] < 1e-6
    assert decisions["effect"]["name"] == "d" and decisions["effect"]["value"] > 0.8
    assert rows["win rate P1"]["effect"]["name"] == "h"
    text = format_comparison(result)
    assert "effect" in text and "p adj." in text and "(Holm)" in text


def test_a_variant_against_itself_on_the_same_seeds_changes_nothing():
    code, out, _ = _run("compare", MARKET, "--variant", "base", "--variant", "base", "-n", "20",
                        "--players", "2", "--jobs", "1")
    assert code == 0 and " *" not in out and "rows tested (Holm)" in out
    assert "Only 20 games each" in out and "normal approximation" in out   # a small run is told


def test_a_run_of_many_games_is_not_warned_about_the_approximation():
    code, out, _ = _run("compare", MARKET, "--variant", "base", "--variant", "base", "-n", "30",
                        "--players", "2", "--jobs", "1")
    assert code == 0 and "games each: p and the CI" not in out


def test_holm_against_a_worked_example():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, max(0.04*1, 0.06) = 0.06
    adjusted = stats.holm([0.01, 0.04, None, 0.03, 0.005])
    assert adjusted[2] is None
    assert [round(p, 10) for p in adjusted if p is not None] == [0.03, 0.06, 0.06, 0.02]
    assert stats.holm([0.5, 0.9]) == [1.0, 1.0] and stats.holm([]) == []


def test_tests_and_effect_sizes_against_known_values():
    d = stats.rate_difference(50, 100, 70, 100)   # pooled 0.6: z = 0.2 / sqrt(.24 * .02)
    assert math.isclose(d["p"], math.erfc(0.2 / math.sqrt(0.24 * 0.02) / math.sqrt(2)))
    assert abs(d["p"] - 0.00389) < 1e-5
    assert abs(d["effect"]["value"] - 0.412) < 1e-3        # 2 asin sqrt .7 - 2 asin sqrt .5
    m = stats.mean_difference([1, 2, 3, 4], [3, 4, 5, 6])  # diff 2, sd 1.29 each
    assert m["diff"] == 2 and abs(m["effect"]["value"] - 1.549) < 1e-3
    assert abs(m["p"] - math.erfc(2 / math.sqrt(2 * 5 / 3 / 4) / math.sqrt(2))) < 1e-12
    assert stats.mean_difference([4, 4], [4, 4])["p"] is None          # nothing varies
    assert stats.mean_difference([8, 8], [12, 12])["p"] == 0.0         # a sure change
    assert stats.rate_difference(10, 10, 10, 10)["p"] is None


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()
