"""Scenario files for market.yaml: every scenario passes; a wrong one fails at its line."""
from __future__ import annotations


import pytest

from interpreter import load_game
from interpreter.tools.scenario import run_file
from tests.scenario_files import check_scenarios
from tests.paths import TESTS

HERE = TESTS / "scenarios"
FILES = sorted((HERE / "market").glob("*.yaml"))
FAILING = HERE / "failing" / "market.yaml"


def test_the_rules_have_scenarios():
    names = {f.stem for f in FILES}
    assert {"auction", "selling", "moving", "ending", "long_variant"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenarios_pass(path):
    check_scenarios(path)


def test_a_wrong_expectation_fails_with_file_and_line():
    wrong, illegal = run_file(FAILING, load_game)
    assert not wrong.passed and not illegal.passed
    (failure,) = wrong.failures                       # the steps after it still ran and passed
    text = failure.format()
    assert text.startswith(f"{FAILING}:10:")
    assert "players[0].coins == 999" in text and "false" in text
    (failure,) = illegal.failures                     # the step after an illegal choice is not run
    assert failure.format().startswith(f"{FAILING}:14:")
    assert "'bid 1000' is not a legal option" in failure.message and "legal: 0, 1, 2" in failure.message


def test_a_broken_scenario_file_is_one_failed_outcome(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("spec: nowhere.yaml\nscenarios:\n  - steps: [{expect: 'true'}]\n", encoding="utf-8")
    (outcome,) = run_file(bad, load_game)
    assert not outcome.passed and "cannot start the game" in outcome.failures[0].message
    worse = tmp_path / "worse.yaml"
    worse.write_text("scenarios: [\n", encoding="utf-8")
    (outcome,) = run_file(worse, load_game)
    assert not outcome.passed and outcome.failures[0].line == 2


def test_unknown_step_is_reported(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text(f"spec: {HERE.parent / 'games' / 'market.yaml'}\nscenarios:\n"
                    "  - steps:\n      - expcet: round == 1\n", encoding="utf-8")
    (outcome,) = run_file(path, load_game)
    assert not outcome.passed
    assert "unknown key 'expcet' (did you mean 'expect'?)" in outcome.failures[0].message
    assert (outcome.failures[0].line, outcome.failures[0].col) == (4, 9)
