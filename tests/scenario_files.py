"""Scenario files as tests: every scenario of a file must pass."""
from __future__ import annotations

from interpreter import load_game
from interpreter.tools.scenario import run_file


def check_scenarios(path, at_least: int = 1):
    """Assert every scenario of one file passes, and that the file has `at_least`."""
    outcomes = run_file(str(path), load_game)
    assert all(o.name != "(file)" for o in outcomes), outcomes[0].failures
    failures = [f"{o.name}: {e.format()}" for o in outcomes for e in o.failures]
    assert not failures, "\n".join(failures)
    assert len(outcomes) >= at_least
