"""The few statistics balance work needs, without numpy or scipy."""
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
    """b - a for two rates, with a 95% interval (Newcombe's hybrid Wilson method)."""
    if not n1 or not n2:
        return {"diff": None, "ci95": None}
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return {"diff": round(d, 4), "ci95": [round(low, 4), round(high, 4)]}


def mean_difference(a, b) -> dict:
    """mean(b) - mean(a), with a 95% interval (Welch, normal approximation)."""
    if len(a) < 2 or len(b) < 2:
        return {"diff": None, "ci95": None}
    ma, sa = mean_sd(a)
    mb, sb = mean_sd(b)
    half = Z95 * math.sqrt(sa * sa / len(a) + sb * sb / len(b))
    d = mb - ma
    return {"diff": round(d, 4), "ci95": [round(d - half, 4), round(d + half, 4)]}


def binomial_tail(k: int, n: int, p: float = 0.5) -> float:
    """P(X >= k) for X ~ Binomial(n, p): a one-sided test that wins beat chance."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))
