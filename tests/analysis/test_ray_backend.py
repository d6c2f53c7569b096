"""The Ray backend gives exactly the local backend's records for the same seeds.
Needs the `ray` extra: the README's test command skips this (saying so), and
.ci/run installs Ray and runs it on its own (tests/extras.py)."""
from __future__ import annotations

import pytest

from interpreter.analysis import results
from interpreter.analysis.simulate import Job, run_games
from tests.extras import need
from tests.paths import TESTS

pytestmark = pytest.mark.ray
ray = need("ray", "ray")

MARKET = str(TESTS / "games" / "market.yaml")


def test_ray_matches_local_for_the_same_seeds():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        job = Job(MARKET, "long", 3, ["random", "greedy", "random"], check_invariants=True)
        remote, _ = run_games(job, 24, seed=40, jobs=2, backend="ray")
        local, _ = run_games(Job(MARKET, "long", 3, ["random", "greedy", "random"],
                                 check_invariants=True), 24, seed=40, jobs=1)
    finally:
        ray.shutdown()
    assert [r["seed"] for r in remote] == list(range(40, 64))
    # the same records, and so the same rows of a results file, but for wall time
    assert [_untimed(r) for r in remote] == [_untimed(r) for r in local]
    rows = [[_untimed(results.row(r, "long", job.agents)) for r in run] for run in (remote, local)]
    assert rows[0] == rows[1]
    assert len({tuple(r["scores"]) for r in remote}) > 1   # real, different games


def _untimed(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "seconds"}


def test_ray_counts_a_failed_games_rules_as_local_does(tmp_path):
    from tests.analysis.test_simulate import CRASHING
    spec = tmp_path / "crash.yaml"
    spec.write_text(CRASHING, encoding="utf-8")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote, _ = run_games(Job(str(spec), None, 2, ["random"] * 2), 10, seed=1, jobs=2, backend="ray")
    finally:
        ray.shutdown()
    local, _ = run_games(Job(str(spec), None, 2, ["random"] * 2), 10, seed=1, jobs=1)
    assert [_untimed(r) for r in remote] == [_untimed(r) for r in local]
    assert sum(r["fired"].get("action:risky", 0) for r in remote if "error" in r) == 2     # seeds 3 and 5 reach risky and fail (agents seeded by agent_seed, 7f00ef9)
