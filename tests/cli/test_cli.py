"""The `rulespec` command, in process: streams are arguments, exit codes are results."""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil

import pytest

from interpreter.cli import main
from tests.paths import ROOT, TESTS

MARKET = TESTS / "games" / "market.yaml"
VALID = TESTS / "specs" / "valid"
INVALID = TESTS / "specs" / "invalid"
SCENARIOS = TESTS / "scenarios"


def run(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err, io.StringIO(stdin))
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------------ validate
def test_validate_ok():
    code, out, err = run("validate", MARKET)
    assert (code, out) == (0, "") and "ok: 1 file valid" in err


def test_validate_many_files_and_all_variants():
    code, out, err = run("validate", "--all-variants", MARKET, VALID / "ring_race.yaml")
    assert code == 0 and "ok: 2 files valid" in err


def test_validate_variant():
    assert run("validate", "--variant", "long", MARKET)[0] == 0
    code, out, err = run("validate", "--variant", "lnog", MARKET)
    assert code == 2 and "unknown variant 'lnog'" in err and "did you mean 'long'" in err


@pytest.mark.parametrize("argv", [
    ["play", MARKET, "--players", "2", "--variant", "lnog"],
    ["simulate", MARKET, "-n", "1", "--players", "2", "--variant", "lnog"],
    ["compare", MARKET, "-n", "1", "--players", "2", "--variant", "lnog"],
    ["serve", MARKET, "--players", "2", "--variant", "lnog", "--port", "0"],
])
def test_an_unknown_variant_on_the_command_line_is_bad_usage(argv):
    """Exit 2, as an unknown --board is; the message still says where the spec's
    variants are and which one was meant."""
    code, out, err = run(*argv)
    assert code == 2 and "Traceback" not in err, err
    assert f"{MARKET}:" in err and "unknown variant 'lnog'; variants are: long" in err
    assert "did you mean 'long'" in err


def test_validate_invalid_prints_file_line_col():
    path = INVALID / "unknown_function.yaml"
    code, out, err = run("validate", path)
    assert code == 1
    assert out.splitlines() == [f"{path}:7:3: error: unknown function 'shufle' (did you mean 'shuffle'?) [$.flow]"]


def test_validate_mixed_files_reports_only_the_bad_one():
    bad = INVALID / "unknown_phase.yaml"
    code, out, err = run("validate", MARKET, bad)
    assert code == 1 and out.startswith(f"{bad}:8:9: error:") and str(MARKET) not in out


def test_validate_missing_file():
    code, out, err = run("validate", TESTS / "no_such_spec.yaml")
    assert code == 1 and "no_such_spec.yaml:1:1: error: cannot read" in out


@pytest.mark.parametrize("argv", [
    [],
    ["validate"],
    ["validate", "--format", "xml", str(MARKET)],
    ["frobnicate"],
    ["play", str(MARKET)],                               # --players is required
    ["play", str(MARKET), "--players", "three"],
    ["validate", "--bogus", str(MARKET)],
], ids=["no-command", "no-file", "bad-format", "unknown-command", "no-players", "players-not-int",
        "unknown-option"])
def test_usage_errors_exit_2(argv):
    code, out, err = run(*argv)
    assert code == 2
    assert out or err


def test_usage_error_text():
    code, out, err = run("validate", "--format", "xml", MARKET)
    assert "usage:" in err and "invalid choice: 'xml'" in err


@pytest.mark.parametrize("argv, usage, error", [
    (["play", MARKET, "--players", "2", "--bogus"], "usage: rulespec play ",
     "rulespec play: error: unrecognized arguments: --bogus"),
    (["play", MARKET], "usage: rulespec play ",
     "rulespec play: error: the following arguments are required: --players"),
    (["simulate", MARKET, "--players", "2", "-n", "abc"], "usage: rulespec simulate ",
     "rulespec simulate: error: argument -n/--games: invalid int value: 'abc'"),
    (["--bogus"], "usage: rulespec [-h] [--version] COMMAND ...",
     "rulespec: error: unrecognized arguments: --bogus"),
    # the command's own checks, after parsing, say it alike
    (["play", MARKET, "--players", "2", "--seat", "1"], "usage: rulespec play ",
     "rulespec play: error: --seat takes a seat from 1 to 2, with --trace"),
    (["play", MARKET, "--players", "9"], "usage: rulespec play ",
     "rulespec play: error: Market Town is for 2 to 4 players, not 9"),
    (["simulate", MARKET, "--players", "2", "-n", "0"], "usage: rulespec simulate ",
     "rulespec simulate: error: -n and --jobs must be at least 1"),
], ids=["unknown-flag", "missing-option", "bad-value", "top-level", "seat", "players", "games"])
def test_a_usage_error_gives_the_commands_own_usage(argv, usage, error):
    """A command's usage error shows that command's usage and names it, where the
    top-level usage (COMMAND ...) and `rulespec: error:` told nothing of it."""
    code, out, err = run(*argv)
    lines = err.splitlines()
    assert code == 2 and out == ""
    assert lines[0].startswith(usage) and lines[-1] == error


def test_format_json():
    path = INVALID / "unknown_attribute.yaml"
    code, out, err = run("validate", "--format", "json", path, INVALID / "unknown_phase.yaml")
    assert code == 1
    problems = json.loads(out)
    assert isinstance(problems, list) and len(problems) == 2
    first = problems[0]
    assert set(first) >= {"file", "line", "col", "path", "message"}
    assert (first["file"], first["line"], first["col"], first["path"]) == (str(path), 8, 9, "$.flow")
    assert first["message"] == "unknown attribute '.coinz' (did you mean 'coins'?)"
    code, out, err = run("validate", "--format", "json", MARKET)
    assert code == 0 and json.loads(out) == []


def test_format_github():
    path = INVALID / "yaml_duplicate_key.yaml"
    code, out, err = run("validate", "--format", "github", path)
    assert code == 1
    assert out.splitlines() == [f"::error file={path},line=5,col=1::duplicate key 'game' (first at line 2)"]


def test_assumptions_listed_with_line():
    path = VALID / "hex_regions.yaml"
    code, out, err = run("validate", "--assumptions", path)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"{path}:7:26:") and "$.constants.claim_cost" in lines[0]
    assert "the rulebook gives no price" in lines[0]
    assert any("$.per_player.energy" in x and "enough for a short game" in x for x in lines)
    code, out, err = run("validate", "--assumptions", MARKET)
    assert code == 0 and out == ""


@pytest.mark.parametrize("old, new, error", [
    ("p.energy -= claim_cost", "p.enrgy -= claim_cost", "unknown attribute '.enrgy'"),
    ("  hexes: {value: 7", "  claim_cost: 2\n  hexes: {value: 7", "duplicate key 'claim_cost'"),
], ids=["rule-error", "load-error"])
def test_assumptions_still_listed_beside_errors(tmp_path, old, new, error):
    """An error elsewhere in the spec hid every `assumed:` value, in text and JSON."""
    text = (VALID / "hex_regions.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    code, out, err = run("validate", "--assumptions", path)
    assert code == 1 and error in out + err
    assert [x.split(": assumed: ")[1].split(" = ")[0] for x in out.splitlines() if ": assumed: " in x] == [
        "$.constants.claim_cost", "$.constants.hexes", "$.per_player.energy"]
    code, out, _ = run("validate", "--assumptions", "--format", "json", path)
    found = json.loads(out)
    assert code == 1 and len(found["errors"]) == 1 and error in found["errors"][0]["message"]
    assert [a["path"] for a in found["assumptions"]] == [
        "$.constants.claim_cost", "$.constants.hexes", "$.per_player.energy"]


# ---------------------------------------------------------------------------- play
def test_play_json_summary():
    code, out, err = run("play", MARKET, "--players", 3, "--seed", 5, "--json")
    assert code == 0
    summary = json.loads(out)
    assert set(summary) >= {"game", "variant", "players", "seed", "winner", "scores", "rounds",
                            "decisions", "ended_by"}
    assert summary["game"] == "Market Town" and summary["variant"] is None
    assert (summary["players"], summary["seed"]) == (3, 5)
    assert len(summary["scores"]) == 3 and summary["winner"]
    assert summary["rounds"] == 8 or summary["ended_by"] == "prestige goal"
    assert out.count("\n") == 1
    assert run("play", MARKET, "--players", 3, "--seed", 5, "--json")[1] == out


def test_play_variant_and_text_output():
    code, out, err = run("play", MARKET, "--players", 2, "--variant", "long", "--agents", "first,random")
    assert code == 0 and "Market Town (long)" in out and "winner" in out
    code, out, err = run("play", MARKET, "--players", 2, "--variant", "long", "--json")
    assert json.loads(out)["variant"] == "long"


@pytest.mark.parametrize("players", [1, 5])
def test_play_wrong_player_count(players):
    code, out, err = run("play", MARKET, "--players", players)
    assert code == 2 and "2 to 4 players" in err


@pytest.mark.parametrize("agents", ["random,random,random", "first", "random,bogus"])
def test_play_bad_agents(agents):
    code, out, err = run("play", MARKET, "--players", 2, "--agents", agents)
    if agents == "first":
        assert code == 0       # one name means every seat
    else:
        assert code == 2 and "agent" in err


def test_play_invalid_spec_exits_1():
    path = INVALID / "unknown_name.yaml"
    code, out, err = run("play", path, "--players", 2)
    assert code == 1 and f"{path}:8:11: error:" in err


def test_human_agent_asks_again_on_bad_input():
    answers = "xyz\n99\n\n1\n" + "1\n" * 400
    code, out, err = run("play", MARKET, "--players", 2, "--agents", "human,first", "--json",
                         stdin=answers)
    assert code == 0, err
    first_menu, rest = out.split("'xyz' is not one of the options.", 1)
    assert "Choose a number (phase bets)" in first_menu and "  1. 0" in first_menu and "  3. 2" in first_menu
    assert "Type a number from 1 to 3 or an option's text; `options` shows them again" in rest
    assert "'99' is not one of the options." in out
    assert "'' is not one of the options." in out
    # the JSON is the last line, after the last prompt and any forced moves reported
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["agents"] == ["human", "first"] and summary["ended_by"]


def test_human_number_picks_the_option_by_position(tmp_path):
    """The first bet's options are "0", "1", "2": typing 3 means the third, bet 2."""
    log = tmp_path / "h.jsonl"
    code, out, err = run("play", MARKET, "--players", 2, "--agents", "human,first", "--log", log,
                         stdin="3\n" + "1\n" * 400)
    assert code == 0, err
    decisions = [json.loads(x)["decision"] for x in log.read_text().splitlines() if '"decision"' in x]
    assert decisions[0] == {"player": 0, "label": "2", "secret": True}


def test_human_sees_only_its_own_hand():
    code, out, err = run("play", MARKET, "--players", 2, "--agents", "human,first", stdin="1\n" * 400)
    assert code == 0
    assert "your hand: " in out
    dealt = [line for line in out.splitlines() if "deck → hand [P2]" in line]   # dealt face down
    assert dealt and all(line.strip().startswith("a card:") for line in dealt)


def test_human_input_ends_early():
    code, out, err = run("play", MARKET, "--players", 2, "--agents", "human,first", stdin="1\n2\n")
    assert code == 1 and err == "rulespec: error: input ended before the game did\n"   # no <spec>:1:1


# ---------------------------------------------------------------------- log/replay
@pytest.fixture
def logged(tmp_path):
    spec = tmp_path / "market.yaml"
    shutil.copy(MARKET, spec)
    log = tmp_path / "game.jsonl"
    code, out, err = run("play", spec, "--players", 3, "--seed", 8, "--log", log)
    assert code == 0 and log.exists()
    return spec, log


def lines_of(log):
    return log.read_text(encoding="utf-8").splitlines()


def write_lines(log, lines):
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_replay_identical(logged):
    spec, log = logged
    code, out, err = run("replay", log)
    assert code == 0 and "identical" in out and str(log) in out


def divergence(err, log) -> int:
    m = re.search(re.escape(str(log)) + r":(\d+):", err)
    assert m, err
    return int(m.group(1))


def first_index(lines, key, after=0):
    return next(i for i, x in enumerate(lines) if i >= after and key in json.loads(x))


def replay_edited(log, lines, i, edit):
    """Apply `edit` to the JSON of line i of the log, write it back, and replay it."""
    d = json.loads(lines[i])
    edit(d)
    lines[i] = json.dumps(d)
    write_lines(log, lines)
    return run("replay", log)


def test_replay_edited_decision_label_to_an_illegal_one(logged):
    spec, log = logged
    lines = lines_of(log)
    i = first_index(lines, "decision", after=10)
    code, out, err = replay_edited(log, lines, i, lambda d: d["decision"].update(label="no such option"))
    assert code == 1 and divergence(err, log) == i + 1


def test_replay_edited_decision_label_to_another_legal_one(logged):
    spec, log = logged
    lines = lines_of(log)
    i = first_index(lines, "decision")          # a bet: 0, 1 or 2 are all legal

    def next_bet(d):
        d["decision"]["label"] = {"0": "1", "1": "2", "2": "0"}[d["decision"]["label"]]
    code, out, err = replay_edited(log, lines, i, next_bet)
    digest = first_index(lines, "state", after=i)
    assert code == 1 and i + 1 < divergence(err, log) <= digest + 1


def test_replay_edited_chance_outcome(logged):
    spec, log = logged
    lines = lines_of(log)
    i = first_index(lines, "chance")

    def other_outcome(d):
        if d["chance"] == "shuffle":
            d["details"][1] = list(reversed(d["details"][1]))
        else:
            d["details"][-1] = d["details"][-1] + 1
    code, out, err = replay_edited(log, lines, i, other_outcome)
    assert code == 1 and divergence(err, log) == i + 1


def test_replay_deleted_line(logged):
    spec, log = logged
    lines = lines_of(log)
    i = first_index(lines, "state", after=20)
    assert lines[i] != lines[i + 1]
    del lines[i]
    write_lines(log, lines)
    code, out, err = run("replay", log)
    assert code == 1 and divergence(err, log) == i + 1


def test_replay_deleted_last_line(logged):
    spec, log = logged
    lines = lines_of(log)
    write_lines(log, lines[:-1])
    code, out, err = run("replay", log)
    assert code == 1 and divergence(err, log) == len(lines)


def test_replay_non_json_line(logged):
    spec, log = logged
    lines = lines_of(log)
    lines[6] = "this is not json"
    write_lines(log, lines)
    code, out, err = run("replay", log)
    assert code == 1 and f"{log}:7:1: error:" in err and "not JSON" in err


def test_replay_not_a_log(tmp_path):
    log = tmp_path / "x.jsonl"
    log.write_text('{"hello": 1}\n', encoding="utf-8")
    code, out, err = run("replay", log)
    assert code == 1 and f"{log}:1:1: error:" in err
    code, out, err = run("replay", tmp_path / "missing.jsonl")
    assert code == 1 and "cannot read log" in err


def test_replay_changed_spec(logged):
    spec, log = logged
    spec.write_text(spec.read_text(encoding="utf-8").replace("round_limit: 8", "round_limit: 9"),
                    encoding="utf-8")
    code, out, err = run("replay", log)
    # the log is still played, and the report says where the new rules part from it
    assert code == 1 and str(log) in err and "the new rules cannot follow the log" in err


# ------------------------------------------------------------------ schema / graph
def test_schema_is_json():
    code, out, err = run("schema")
    assert code == 0
    schema = json.loads(out)
    assert "flow" in schema["properties"] and "game" in schema["required"]


def test_graph_prints_dot():
    code, out, err = run("graph", MARKET)
    assert code == 0 and out.startswith('digraph "town" {') and out.rstrip().endswith("}")
    for node in ("gate", "market", "temple", "harbour", "guild"):
        assert f'"{node}"' in out
    for a, b in (("gate", "market"), ("market", "temple"), ("guild", "gate")):
        assert f'"{a}" -> "{b}";' in out
    assert '"temple" -> "market"' not in out
    assert "holy" in out


def test_graph_hex_and_board_choice():
    code, out, err = run("graph", VALID / "hex_regions.yaml", "--board", "land")
    assert code == 0 and '"0,0"' in out and "colour=green" in out
    code, out, err = run("graph", MARKET, "--board", "nowhere")
    assert code == 2 and "nowhere" in err


def test_graph_draws_every_board_of_a_spec_as_one_graph_of_clusters():
    code, out, err = run("graph", ROOT / "games" / "siena.yaml")
    assert code == 0 and out.startswith('digraph "Siena" {') and out.count("digraph") == 1
    clusters = re.findall(r'subgraph "cluster_\d+" \{\n    graph \[label="(\w+)"\];', out)
    assert clusters == ["town", "firenze", "arezzo"]
    # two boards both name a node `siena`: each keeps its own, under its board's name
    assert '"firenze:siena" -> "firenze:firenze_1";' in out and '"arezzo:siena" [label="siena"];' in out


def test_graph_with_an_unknown_board_exits_2_listing_the_boards():
    code, out, err = run("graph", ROOT / "games" / "siena.yaml", "--board", "sienna")
    assert (code, out) == (2, "")
    assert "no board 'sienna'; the boards are: town, firenze, arezzo" in err
    code, out, err = run("graph", ROOT / "games" / "siena.yaml", "--board", "arezzo")
    assert code == 0 and out.startswith('digraph "arezzo" {') and "firenze" not in out


def test_graph_seats_count_from_1_as_for_play():
    castles = ROOT / "games" / "castles.yaml"
    code, out, err = run("graph", castles, "--seat", 2, "--players", 2)
    assert code == 0 and out.startswith('graph "The Castles of Tuscany: P2\'s estate" {')
    for seat in (0, 3):
        code, out, err = run("graph", castles, "--seat", seat, "--players", 2)
        assert (code, out) == (2, "") and "--seat takes a seat from 1 to 2" in err


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graph_png_writes_only_the_picture_and_says_where(tmp_path):
    png = tmp_path / "siena.png"
    code, out, err = run("graph", ROOT / "games" / "siena.yaml", "--png", png)
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"
    said = f"wrote {png} ({png.stat().st_size // 1024} kB)\n"
    assert out == said and err == ""
    code, out, err = run("graph", ROOT / "games" / "siena.yaml", "--png", png, "--dot")
    assert code == 0 and out.startswith('digraph "Siena" {') and err == said


def test_graph_of_a_spec_without_boards_says_so_and_exits_1():
    zena = TESTS.parent / "games" / "zena.yaml"
    code, out, err = run("graph", zena)
    assert (code, out) == (1, "") and "no board to draw" in err and str(zena) in err
    code, out, err = run("graph", zena, "--seat", "1", "--players", "3")
    assert (code, out) == (1, "") and "no board to draw for seat 1" in err


# ------------------------------------------------------------------- help / version
def _subcommands():
    from interpreter.cli import build_parser
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices


def test_every_subcommand_and_flag_has_help_text():
    from interpreter.cli import build_parser
    missing = [f"{name} {action.dest}"
               for name, parser in [("rulespec", build_parser()), *_subcommands().items()]
               for action in parser._actions if not action.help]
    assert missing == []
    code, out, _ = run("--help")
    assert code == 0 and all(f"    {name}" in out for name in _subcommands())


@pytest.mark.parametrize("command", ["play", "simulate", "compare"])
def test_agents_help_lists_every_agent(command):
    from interpreter.agents import AGENTS
    code, out, _ = run(command, "--help")
    text = " ".join(out.split())
    assert code == 0 and all(name in text for name in AGENTS) and "mcts:N[:D]" in text


def test_version_comes_from_the_package_metadata():
    from importlib.metadata import version
    code, out, err = run("--version")
    assert (code, out, err) == (0, f"rulespec {version('rulespec')}\n", "")


# ------------------------------------------------------------------------ scenario
def test_scenario_command_passes():
    files = sorted((SCENARIOS / "market").glob("*.yaml"))
    code, out, err = run("scenario", *files)
    assert code == 0, out
    assert re.search(r"^\d+ passed, 0 failed$", out, re.M)
    assert "FAIL" not in out


def test_scenario_command_fails():
    path = SCENARIOS / "failing" / "market.yaml"
    code, out, err = run("scenario", path, SCENARIOS / "market" / "auction.yaml")
    assert code == 1
    assert "FAIL" in out and f"{path}:10:" in out and "0 failed" not in out
    assert "PASS" in out


def test_schema_path_names_the_installed_schema_file():
    out, err = io.StringIO(), io.StringIO()
    assert main(["schema", "--path"], stdout=out, stderr=err) == 0
    path = out.getvalue().strip()
    assert os.path.isabs(path) and path.endswith("spec.schema.json")
    with open(path, encoding="utf-8") as f:
        assert json.load(f)["title"]


def test_validate_checks_every_variant_and_names_the_one_in_error(tmp_path):
    spec = tmp_path / "v.yaml"
    spec.write_text("game: T\nplayers: {min: 2, max: 2}\nglobals:\n  coins: 3\nflow: |\n"
                    "  coins = coins + 1\nvariants:\n  rich:\n    changes:\n"
                    "      flow: coins = \"lots\"\n  poor:\n    changes:\n      flow: coins = 0\n")
    code, out, err = run("validate", spec)
    assert code == 1
    assert out == (f"{spec}:10:21: error: cannot store a text in coins (coins: a number, declared "
                   f"at 4:3) [variant rich] [$.flow]\n")
    assert run("validate", "--variant", "poor", spec)[0] == 0
    assert run("validate", "--variant", "rich", spec)[0] == 1


def test_validate_reports_a_base_error_once_not_per_variant(tmp_path):
    spec = tmp_path / "v.yaml"
    spec.write_text("game: T\nplayers: {min: 2, max: 2}\nflow: x = nope\n"
                    "variants:\n  a: {changes: {}}\n  b: {changes: {}}\n")
    code, out, err = run("validate", spec)
    assert code == 1 and out.count("unknown name 'nope'") == 1 and "[variant" not in out


def test_play_says_which_tie_break_decided_and_validate_counts_variants():
    out, err = io.StringIO(), io.StringIO()
    assert main(["play", "games/zena.yaml", "--players", "3", "--seed", "2"], out, err) == 0
    assert "tied on score; the tie-break `p.coins` decided" in out.getvalue()   # a tie on the top score
    out, err = io.StringIO(), io.StringIO()
    assert main(["play", "games/siena.yaml", "--players", "3", "--seed", "1"], out, err) == 0
    assert "no winner: no seat met the spec's `scoring: eligible:` condition" in out.getvalue()
    out, err = io.StringIO(), io.StringIO()     # and simulate says it of the games it counts
    assert main(["simulate", "games/siena.yaml", "-n", "2", "--players", "3", "--seed", "1"], out, err) == 0
    assert ("no winner: 2 games (no seat met the spec's `scoring: eligible:` condition)"
            in out.getvalue())
    out, err = io.StringIO(), io.StringIO()
    assert main(["validate", "games/zena.yaml", "games/siena.yaml"], out, err) == 0
    assert "ok: 2 files valid (base and 2 variants)" in err.getvalue()


@pytest.mark.parametrize("argv", [["serve", "games/zena.yaml", "--players", "2"],
                                  ["replay", "tests/golden/market-2p.jsonl", "--html", "x.html"]])
def test_the_web_commands_without_the_web_extra_say_how_to_install_it(argv, monkeypatch, tmp_path):
    import sys
    for module in ("jinja2", "starlette", "uvicorn"):
        monkeypatch.setitem(sys.modules, module, None)     # as if the extra were not installed
    monkeypatch.chdir(tmp_path)
    argv = [a if not a.startswith(("games/", "tests/")) else str(ROOT / a) for a in argv]
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, out, err) == 2
    assert "needs the web extra (pip install -e '.[web]')" in err.getvalue()
    assert "Traceback" not in err.getvalue()
