"""The few statistics balance work needs, without numpy or scipy.

Intervals and tests use the normal approximation (games are counted in
hundreds); `holm` corrects a table of p-values for being read all at once.
"""
from __future__ import annotations

import math

Z95 = 1.959964


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95% interval of a rate; sound near 0 and 1 and for small n, unlike mean ± 2 se."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_sd(xs) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return math.nan, math.nan
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, sd


def percentile(xs, q: float):
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(xs)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def describe(xs) -> dict:
    """mean / sd / min / max, with the 95% interval of the mean."""
    if not xs:
        return {"mean": None, "sd": None, "min": None, "max": None, "ci95": None}
    m, sd = mean_sd(xs)
    half = Z95 * sd / math.sqrt(len(xs))
    return {"mean": round(m, 4), "sd": round(sd, 4), "min": min(xs), "max": max(xs),
            "ci95": [round(m - half, 4), round(m + half, 4)]}


def spread(xs) -> dict | None:
    """mean, median and 95th percentile: how long games run, and how long the long ones."""
    if not xs:
        return None
    m, _ = mean_sd(xs)
    return {"mean": round(m, 4), "p50": percentile(xs, 50), "p95": percentile(xs, 95)}


def rate_difference(k1: int, n1: int, k2: int, n2: int) -> dict:
    """b - a for two rates k1/n1 and k2/n2: {diff, ci95, p, effect}.

    ci95: Newcombe's hybrid Wilson interval (Newcombe 1998, method 10).
    p: two-sided two-proportion z-test with the pooled rate; None when neither
    sample varies (both rates 0, or both 1): there is nothing to test.
    effect: Cohen's h = 2 asin sqrt(p2) - 2 asin sqrt(p1) (Cohen 1988, ch. 6:
    0.2 small, 0.5 medium, 0.8 large).
    """
    if not n1 or not n2:
        return {"diff": None, "ci95": None, "p": None, "effect": None}
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    h = 2 * math.asin(math.sqrt(p2)) - 2 * math.asin(math.sqrt(p1))
    return {"diff": round(d, 4), "ci95": [round(low, 4), round(high, 4)],
            "p": _two_sided(d, se), "effect": {"name": "h", "value": round(h, 3)}}


def mean_difference(a, b) -> dict:
    """mean(b) - mean(a): {diff, ci95, p, effect}.

    ci95 and p: Welch's unequal-variance z interval and test (normal
    approximation, fine for the hundreds of games a comparison plays); p is None
    when neither sample varies. effect: Cohen's d, the difference over the pooled
    standard deviation (Cohen 1988, ch. 2: 0.2 small, 0.5 medium, 0.8 large),
    None when that is 0.
    """
    if len(a) < 2 or len(b) < 2:
        return {"diff": None, "ci95": None, "p": None, "effect": None}
    ma, sa = mean_sd(a)
    mb, sb = mean_sd(b)
    se = math.sqrt(sa * sa / len(a) + sb * sb / len(b))
    half = Z95 * se
    d = mb - ma
    pooled_sd = math.sqrt(((len(a) - 1) * sa * sa + (len(b) - 1) * sb * sb) / (len(a) + len(b) - 2))
    effect = {"name": "d", "value": round(d / pooled_sd, 3)} if pooled_sd else None
    return {"diff": round(d, 4), "ci95": [round(d - half, 4), round(d + half, 4)],
            "p": _two_sided(d, se), "effect": effect}


def _two_sided(diff: float, se: float) -> float | None:
    """P(|Z| >= |diff / se|) for a standard normal Z; a sure difference when se is 0."""
    if se == 0:
        return None if diff == 0 else 0.0
    return math.erfc(abs(diff / se) / math.sqrt(2))


def holm(pvalues: list) -> list:
    """Holm's step-down adjusted p-values (Holm 1979, "A simple sequentially rejective
    multiple test procedure", Scand. J. Statist. 6:65-70), in the order given.

    Rejecting where an adjusted p is below alpha keeps the chance of even one false
    alarm in the whole table at most alpha, however the tests depend on each other
    (a comparison's rows do: win rates sum to 1, scores follow wins). The i-th
    smallest of m p-values is multiplied by m - i (i from 0), then made no smaller
    than the one before it, and capped at 1. None (no test) stays None and does not
    count in m.
    """
    tested = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    adjusted, running = list(pvalues), 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        adjusted[i] = running
    return adjusted


def binomial_tail(k: int, n: int, p: float = 0.5) -> float:
    """P(X >= k) for X ~ Binomial(n, p): a one-sided test that wins beat chance."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))


def cells(row) -> tuple[str, str, str, str]:
    """A row's B - A, 95% interval, effect size and adjusted p as text ("-" when
    absent): the same words in the text table and the HTML page."""
    diff = f"{row['diff']:.3g}" if row["diff"] is not None else "-"
    ci = f"[{row['ci95'][0]:.3g}, {row['ci95'][1]:.3g}]" if row["ci95"] else "-"
    effect = f"{row['effect']['name']}={row['effect']['value']:.2f}" if row["effect"] else "-"
    p = f"{row['p_adjusted']:.2g}" if row["p_adjusted"] is not None else "-"
    return diff, ci, effect, p
