"""Seeds give independent games: the seed is mixed before it becomes the stream.

Over 200 consecutive seeds: no stream is a shifted copy of another, first rolls
are uniform (chi-square), and consecutive seeds' rolls are uncorrelated. Each
check is also run on generator v1's linear seeding, which it must catch, so
the checks are known to be able to fail.
"""
from __future__ import annotations

import io
import json

import pytest

from interpreter import load_game
from interpreter.agents import make_agents
from interpreter.engine import rng
from interpreter.tools.log import replay, write_log
from tests.paths import ROOT
from tests.shipped import shipped

SEEDS = range(1000, 1200)      # 200 consecutive seeds
DRAWS = 64                     # raw outputs per stream compared for shifts
WINDOW = 8                     # a shared run of 8 outputs means "shifted copy"
# Critical value of chi-square with 5 degrees of freedom at alpha = 0.001:
# NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4,
# "Critical Values of the Chi-Square Distribution" (upper tail), df = 5: 20.515.
CHI2_5_001 = 20.515


def v1_state(seed):
    """Generator v1's seeding (linear), kept here to prove the checks can fail."""
    return (int(seed) * rng.GAMMA + 0x632BE59BD9B4E019) & rng.MASK


def outputs(state, count):
    out = []
    for _ in range(count):
        state, z = rng.next_u64(state)
        out.append(z)
    return out


def rolls(state, count, sides=6):
    out = []
    for _ in range(count):
        state, value = rng.below(state, sides)
        out.append(value)
    return out


def shifted_pairs(seeding):
    """(a, b, shift) for streams b that repeat a run of a's outputs."""
    streams = {s: outputs(seeding(s), DRAWS) for s in SEEDS}
    windows = {}
    for s, out in streams.items():
        for i in range(DRAWS - WINDOW + 1):
            windows.setdefault(tuple(out[i:i + WINDOW]), []).append((s, i))
    return [(a, b, i - j) for places in windows.values() if len(places) > 1
            for (a, i) in places for (b, j) in places if a != b]


def chi_square(counts):
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def first_roll_chi2(seeding):
    counts = [0] * 6
    for s in SEEDS:
        counts[rolls(seeding(s), 1)[0]] += 1
    return chi_square(counts)


def neighbour_correlation(seeding, lag, per_seed=10):
    """Pearson r between roll i + lag of seed s and roll i of seed s+1, over all i and s."""
    streams = [rolls(seeding(s), per_seed + lag) for s in SEEDS]
    xs = [v for a in streams[:-1] for v in a[lag:lag + per_seed]]
    ys = [v for b in streams[1:] for v in b[:per_seed]]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    vx = sum((x - mx) ** 2 for x in xs)
    vy = sum((y - my) ** 2 for y in ys)
    return cov / (vx * vy) ** 0.5, n


def test_no_stream_is_a_shifted_copy_of_another():
    assert shifted_pairs(rng.seed_state) == []
    assert shifted_pairs(v1_state), "the check must catch v1's shifted streams"


def test_first_rolls_are_uniform():
    assert first_roll_chi2(rng.seed_state) < CHI2_5_001


@pytest.mark.parametrize("lag", [0, 1, 2, 3])
def test_consecutive_seeds_rolls_are_uncorrelated(lag):
    r, n = neighbour_correlation(rng.seed_state, lag)
    bound = 4 / n ** 0.5       # four standard errors of r under independence
    assert abs(r) < bound, (r, bound)
    if lag == 1:   # v1: seed s+1's rolls were seed s's, one draw on
        r_v1, _ = neighbour_correlation(v1_state, lag)
        assert r_v1 > 0.9, "the check must catch v1's correlated neighbours"


def test_the_issue_example_seeds_no_longer_share_their_dice():
    a, b, c = (rolls(rng.seed_state(s), 8) for s in (41, 42, 43))
    assert a[1:] != b[:-1] and b[1:] != c[:-1]


def test_mix_is_a_bijection_on_a_sample():
    words = [0, 1, 2, rng.MASK, rng.GAMMA] + list(range(3, 2000, 7))
    assert len({rng.mix(w) for w in words}) == len(words)


def test_an_old_log_is_refused_by_generator_version(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    game = shipped("tests/games/market.yaml")
    buf = io.StringIO()
    write_log(game, 2, 5, ["random"] * 2, make_agents(["random"] * 2, 5), buf)
    lines = buf.getvalue().splitlines()
    head = json.loads(lines[0])
    assert head["rng"] == rng.VERSION
    del head["rng"]                                  # a log from before versioning
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
    ok, message = replay(str(old), load_game)
    assert not ok
    assert "made with random generator v1; this is v2" in message


def test_saves_carry_the_generator_version():
    game = shipped(str(ROOT / "tests/games/market.yaml"))
    st = game.new_state(2, 3)
    data = json.loads(st.to_json())
    assert data["rng_version"] == rng.VERSION
    data["rng_version"] = 99
    from rulespec.errors import CorruptFile
    with pytest.raises(CorruptFile, match="made with random generator v99; this is v2"):
        game.state_from_json(json.dumps(data))


def test_seed_of_v1_starts_generator_v1s_stream():
    """Scenario files written against a v1 deal name rng.seed_of_v1(s) to keep it."""
    for seed in (0, 1, 2, 3, 41):
        assert rng.seed_state(rng.seed_of_v1(seed)) == v1_state(seed)
    assert all(rng.unmix(rng.mix(w)) == w for w in (0, 1, rng.GAMMA, rng.MASK, 12345))


def test_shuffle_is_fisher_yates_over_below():
    """shuffle writes `below` out in its loop for speed: the same draws, the same
    order and the same state after, for decks of every size up to a Siena deck."""
    def by_below(state, items):
        for i in range(len(items) - 1, 0, -1):
            state, j = rng.below(state, i + 1)
            items[i], items[j] = items[j], items[i]
        return state
    for seed in range(300):
        state = rng.seed_state(seed)
        a, b = list(range(seed % 131)), list(range(seed % 131))
        assert rng.shuffle(state, a) == by_below(state, b)
        assert a == b


def test_packed_draws_are_the_loops_draws(monkeypatch):
    """A long list's shuffle takes its draws packed in one integer (_packed_draws):
    the same order and state as the loop (PACKED_FROM out of reach) and as `below`,
    also where a draw comes near below's limit (then the loop draws, as below)."""
    def by_below(state, items):
        for i in range(len(items) - 1, 0, -1):
            state, j = rng.below(state, i + 1)
            items[i], items[j] = items[j], items[i]
        return state

    def by_loop(state, items):
        with monkeypatch.context() as m:
            m.setattr(rng, "PACKED_FROM", 1 << 40)
            return rng.shuffle(state, items)
    cases = [(rng.seed_state(seed), seed % 300) for seed in range(200)]
    # a state whose k-th draw is the word z: near the limit, over it, just under the test
    cases += [((rng.unmix(z) - k * rng.GAMMA) & rng.MASK, n)
              for z in (0xFFFFFFFF00000000, 0xFFFFFFFF00000001, rng.MASK, 0xFFFFFFFEFFFFFFFF)
              for k in (1, 7, 20) for n in (rng.PACKED_FROM, 30, 129)]
    packed = 0
    for state, n in cases:
        a, b, c = list(range(n)), list(range(n)), list(range(n))
        assert rng.shuffle(state, a) == by_below(state, b) == by_loop(state, c), (state, n)
        assert a == b == c
        packed += n >= rng.PACKED_FROM and rng._packed_draws(state, n - 1) is not None
    assert packed > 150     # the packed path ran (not the loop behind it every time)
    assert rng._packed_draws((rng.unmix(rng.MASK) - 3 * rng.GAMMA) & rng.MASK, 40) is None
