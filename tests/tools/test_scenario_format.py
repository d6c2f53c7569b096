"""Scenario format 2: the shipped schema refuses what the runner would not read.

Every misspelt key is an error at its FILE:LINE:COL with a did-you-mean, never a
scenario that passes by running the base game, or nothing at all.
"""
from __future__ import annotations

import io
import json

import pytest
from jsonschema import Draft202012Validator

from interpreter import load_game
from interpreter.cli import main
from interpreter.tools.scenario import run_file
from rulespec.schema import SCENARIO_SCHEMA_PATH
from tests.paths import TESTS

MARKET = TESTS / "games" / "market.yaml"


def write(tmp_path, body: str):
    path = tmp_path / "s.yaml"
    path.write_text(f"spec: {MARKET}\n" + body, encoding="utf-8")
    return path


def failures(path):
    outcomes = run_file(path, load_game)
    return [e for o in outcomes for e in o.failures]


def test_the_schema_is_a_valid_json_schema_and_ships_with_the_cli():
    Draft202012Validator.check_schema(json.loads(SCENARIO_SCHEMA_PATH.read_text(encoding="utf-8")))
    out = io.StringIO()
    assert main(["schema", "--scenario"], stdout=out) == 0
    printed = json.loads(out.getvalue())
    assert printed["title"] == "rulespec scenario file"
    assert {"rig", "let", "expect_winner", "expect_scores", "stage", "resume"} <= \
        set(printed["$defs"]["step"]["properties"])


@pytest.mark.parametrize("body, line, col, message", [
    ("varient: long\nscenarios:\n  - steps: [{expect: 'true'}]\n", 2, 1,
     "unknown key 'varient' (did you mean 'variant'?)"),
    ("scenarios:\n  - playerz: 4\n    steps: [{expect: 'true'}]\n", 3, 5,
     "unknown key 'playerz' (did you mean 'players'?)"),
    ("scenarios:\n  - name: x\n    step:\n      - expect: 'false'\n", 4, 5,
     "unknown key 'step' (did you mean 'steps'?)"),
    ("scenarios:\n  - steps:\n      - expcet: round == 1\n", 4, 9,
     "unknown key 'expcet' (did you mean 'expect'?)"),
    ("scenarios:\n  - steps:\n      - rig: [{rol: 3}]\n", 4, 16,
     "unknown key 'rol' (did you mean 'roll'?)"),
    ("players: two\nscenarios:\n  - steps: [{expect: 'true'}]\n", 2, 1,
     "expected an integer, got str 'two'"),
    # a condition YAML read as a value: why, and what to write
    ("scenarios:\n  - steps:\n      - expect: true\n", 4, 9, "expected a string, got bool True "
     "(YAML reads it unquoted as that value: put the text in quotes)"),
    ("scenarios:\n  - name: 1814\n    steps: [{expect: 'true'}]\n", 3, 5,
     "expected a string, got int 1814 (YAML reads it unquoted as that value"),
    ("scenarios:\n  - name:\n    steps: [{expect: 'true'}]\n", 3, 5,
     "(nothing is written after the colon)"),
])
def test_a_misspelt_or_mistyped_key_fails_at_its_place(tmp_path, body, line, col, message):
    path = write(tmp_path, body)
    found = failures(path)
    assert found, "a misspelt scenario file must not pass"
    assert any(message in e.message and (e.line, e.col) == (line, col) for e in found), \
        [e.format() for e in found]


def test_a_scenario_without_steps_is_an_error(tmp_path):
    (error,) = failures(write(tmp_path, "scenarios:\n  - name: nothing\n"))
    assert "missing required key 'steps'" in error.message and error.line == 3


def test_the_cli_prints_the_error_with_file_line_col(tmp_path):
    path = write(tmp_path, "scenarios:\n  - steps:\n      - expcet: round == 1\n")
    out = io.StringIO()
    assert main(["scenario", str(path)], stdout=out, stderr=io.StringIO()) == 1
    assert f"{path}:4:9: error: unknown key 'expcet' (did you mean 'expect'?)" in out.getvalue()
