"""A scenario file is checked before it runs, as the language server checks it;
its set-up errors sit at its own keys; a fault in the spec names the spec's place
beside the step's; and the final-result steps refuse a game that is not over."""
from __future__ import annotations

import io

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.tools.scenario import run_file
from rulespec.lsp.project import analyze
from tests.paths import TESTS

MARKET = TESTS / "games" / "market.yaml"

# a spec for 3 (or, in its variant, up to 6) whose rules divide by a number a step gives
DIVIDE = """game: Divide
players: {min: 3, max: 3}
globals:
  g: {start: 0}
procedures:
  split: {params: [n], do: "g = 12 // n"}
flow: |
  x = choose number from 0 to 2 by players[0]
  g = 10 // x
  end game "done"
variants:
  crowd:
    description: more players
    changes:
      players: {min: 3, max: 6}
"""


def write(tmp_path, body: str, spec: str = str(MARKET)):
    path = tmp_path / "s.yaml"
    path.write_text(f"spec: {spec}\n" + body, encoding="utf-8")
    return path


def divide(tmp_path, body: str):
    (tmp_path / "divide.yaml").write_text(DIVIDE, encoding="utf-8")
    return write(tmp_path, body, "divide.yaml")


def cli(path) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["scenario", str(path)], stdout=out, stderr=io.StringIO())
    return code, out.getvalue()


def failures(path) -> list[str]:
    return [e.format() for o in run_file(path, load_game) for e in o.failures]


# ------------------------------------------- the final result, before the end
def test_expect_scores_fails_while_the_game_goes_on(tmp_path):
    path = write(tmp_path, "players: 3\nscenarios:\n  - steps:\n      - expect_scores: [5, 5, 5]\n"
                           "  - steps:\n      - expect_scores: {order: [[0, 1, 2]]}\n")
    assert failures(path) == [
        f"{path}:5:9: error: expected the final scores [5, 5, 5], but the game is not over "
        f"[$.scenarios[0].steps[0].expect_scores]",
        f"{path}:7:9: error: expected the final scores {{'order': [[0, 1, 2]]}}, but the game "
        f"is not over [$.scenarios[1].steps[0].expect_scores]"]


def test_expect_ended_by_says_the_game_is_not_over_as_expect_winner_does(tmp_path):
    path = write(tmp_path, "scenarios:\n  - steps:\n      - expect_ended_by: prestige goal\n")
    assert failures(path) == [f"{path}:4:9: error: expected the game to have ended by 'prestige goal', "
                              f"but the game is not over [$.scenarios[0].steps[0].expect_ended_by]"]


# -------------------------------------------------- a fault inside the spec
def test_a_fault_in_the_flow_names_the_step_and_the_specs_place(tmp_path):
    path = divide(tmp_path, "players: 3\nscenarios:\n  - steps:\n      - choose: '0'\n")
    spec = tmp_path / "divide.yaml"
    assert failures(path) == [f"{path}:5:9: error: step 1: {spec}:9:7: cannot divide 10 (a number) "
                              f"by zero (in the flow) [$.scenarios[0].steps[0]]"]


def test_a_fault_in_a_procedure_a_do_step_calls_names_the_procedures_place(tmp_path):
    path = divide(tmp_path, "players: 3\nscenarios:\n  - steps:\n      - expect: g == 0\n"
                            "      - do: split(0)\n")
    spec = tmp_path / "divide.yaml"
    (failure,) = failures(path)
    assert failure.startswith(f"{path}:6:9: error: step 2: {spec}:6:")
    assert ": cannot divide 12 (a number) by zero (in procedure split)" in failure


def test_a_fault_in_the_steps_own_text_names_no_place_in_the_spec(tmp_path):
    path = divide(tmp_path, "players: 3\nscenarios:\n  - steps:\n      - let: {z: '0'}\n"
                            "      - do: g = 10 // z\n")
    assert failures(path) == [f"{path}:6:9: error: step 2: cannot divide 10 (a number) by zero "
                              f"(in a scenario step) [$.scenarios[0].steps[1]]"]


# ----------------------------------------- checked before running, as the server
def test_a_misspelt_attribute_is_refused_before_running_with_a_suggestion(tmp_path):
    path = write(tmp_path, "players: 3\nscenarios:\n  - steps:\n      - choose: pass\n"
                           "      - expect: \"players[0].coinz == 5\"\n")
    code, out = cli(path)
    assert (code, out) == (1, f"{path}:6:29: error: unknown attribute '.coinz' (did you mean "
                              f"'coins'?) [$.scenarios[0].steps[1].expect]\n")   # no PASS, no FAIL


def test_one_wrong_file_stops_every_file_from_running(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(f"spec: {MARKET}\nscenarios:\n  - steps: [{{expect: 'true'}}]\n", encoding="utf-8")
    bad = write(tmp_path, "scenarios:\n  - steps: [{expect: 'nothing_here'}]\n")
    out = io.StringIO()
    assert main(["scenario", str(good), str(bad)], stdout=out, stderr=io.StringIO()) == 1
    assert out.getvalue() == f"{bad}:3:23: error: unknown name 'nothing_here' " \
                             f"[$.scenarios[0].steps[0].expect]\n"


@pytest.mark.parametrize("body", [
    "scenarios:\n  - steps:\n      - expect: \"players[0].coinz == 5\"\n",
    "players: 7\nscenarios:\n  - steps: [{expect: 'true'}]\n",
    "scenarios:\n  - variant: lnog\n    steps:\n      - expect: \"round = 0\"\n",
    "scenarios:\n  - steps:\n      - let: {n: 'count(market)'}\n      - expect: n == m\n",
])
def test_the_runner_and_the_language_server_find_the_same_errors(tmp_path, body):
    path = write(tmp_path, body)
    ran = {(e.line, e.col, e.message) for o in run_file(path, load_game) for e in o.failures}
    shown = {(d.line + 1, d.start + 1, d.message)
             for d in analyze(str(path), path.read_text()).diagnostics}
    assert ran and ran == shown


# ------------------------------------------------- set-up errors at their keys
@pytest.mark.parametrize("body, line, col, message", [
    ("players: 7\nscenarios:\n  - steps: [{expect: 'true'}]\n", 2, 1,
     "Market Town is for 2 to 4 players, not 7"),
    ("scenarios:\n  - name: x\n    players: 1\n    steps: [{expect: 'true'}]\n", 4, 5,
     "Market Town is for 2 to 4 players, not 1"),
    ("variant: nope\nscenarios:\n  - steps: [{expect: 'true'}]\n", 2, 1,
     "unknown variant 'nope'; the spec's variants are: long"),
    ("scenarios:\n  - name: x\n    variant: lnog\n    steps: [{expect: 'true'}]\n", 4, 5,
     "unknown variant 'lnog'; the spec's variants are: long (did you mean 'long'?)"),
])
def test_a_set_up_error_is_at_the_scenario_files_key(tmp_path, body, line, col, message):
    path = write(tmp_path, body)
    (outcome,) = run_file(path, load_game)
    (error,) = outcome.failures
    assert (error.file, error.line, error.col, error.message) == (str(path), line, col, message)


def test_a_spec_without_variants_says_so(tmp_path):
    (tmp_path / "plain.yaml").write_text(DIVIDE.split("variants:")[0], encoding="utf-8")
    path = write(tmp_path, "players: 3\nscenarios:\n  - variant: nope\n    steps: [{expect: 'true'}]\n",
                 "plain.yaml")
    assert failures(path) == [f"{path}:4:5: error: unknown variant 'nope': the spec has no variants "
                              f"[$.scenarios[0].variant]"]


def test_the_player_count_is_checked_against_the_scenarios_variant(tmp_path):
    path = divide(tmp_path, "scenarios:\n  - variant: crowd\n    players: 5\n    steps: [{expect: 'true'}]\n"
                            "  - players: 5\n    steps: [{expect: 'true'}]\n  - steps: [{expect: 'true'}]\n")
    assert failures(path) == [
        f"{path}:6:5: error: Divide is for 3 to 3 players, not 5 [$.scenarios[1].players]",
        f"{path}:8:5: error: Divide is for 3 to 3 players, not 2 (no `players:` is given: "
        f"2 is the default) [$.scenarios[2]]"]


def test_a_file_wide_player_count_wrong_for_every_scenario_is_said_once(tmp_path):
    path = write(tmp_path, "players: 9\nscenarios:\n  - steps: [{expect: 'true'}]\n"
                           "  - steps: [{expect: 'true'}]\n")
    assert failures(path) == [f"{path}:2:1: error: Market Town is for 2 to 4 players, not 9 [$.players]"]
