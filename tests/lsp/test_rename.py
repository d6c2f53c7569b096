"""Rename over stdio: the edits leave the spec valid and playing the same game."""
from __future__ import annotations

import io
import json
import shutil

import pytest

from interpreter import load_game
from interpreter.agents import make_agents
from interpreter.cli import main
from interpreter.tools.play import play
from rulespec import validate
from tests.golden import write_golden
from tests.lsp.client import Client, apply_edits, find
from tests.paths import ROOT


def renamed(client, path, around, name, new, nth=0):
    """Ask for a rename at `name` inside `around`; apply the edits to the files on disk."""
    text = path.read_text()
    client.open(path)
    line, char = find(text, around, nth, offset=around.index(name))
    edits = client.rename(path, line, char, new)
    for file, changes in edits.items():
        with open(file, encoding="utf-8") as f:
            old = f.read()
        with open(file, "w", encoding="utf-8") as f:
            f.write(apply_edits(old, changes))
    client.close(path)
    return edits


def golden_lines(path, skip_states=False):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    return [x for x in lines[1:] if not (skip_states and "state" in x)], lines[0]


def test_renaming_a_procedure_keeps_siena_playing_the_same_game(client, tmp_path):
    spec = tmp_path / "siena.yaml"
    shutil.copy(ROOT / "games/siena.yaml", spec)
    edits = renamed(client, spec, "gain(b, merchant_share)", "gain", "gain_florins")
    changes = edits[str(spec)]
    assert len(changes) == 1 + open(ROOT / "games/siena.yaml").read().count("gain(") and {c[3] for c in changes} == {"gain_florins"}
    text = spec.read_text()
    assert "\n  gain_florins:\n" in text and "gain(" not in text
    validate(spec)
    golden, head = golden_lines(ROOT / "tests/golden/siena-4p.jsonl")
    out = tmp_path / "renamed.jsonl"
    write_golden(str(spec), head["players"], head["seed"], str(out), head["variant"])
    replayed = golden_lines(out)[0]
    # every decision, chance outcome and the result (winner, scores); the log's digests
    # also cover the call stack, which names the procedure, so the final states are
    # compared instead, where the stack is empty
    assert [x for x in replayed if "state" not in x] == [x for x in golden if "state" not in x]
    assert final_state(spec, head) == final_state(ROOT / "games/siena.yaml", head)


def final_state(spec, head) -> str:
    players, seed = head["players"], head["seed"]
    state = play(load_game(str(spec), variant=head["variant"]), players, seed,
                 make_agents(head["agents"], seed))
    assert state.over
    return state.to_json(spec=False)


def test_renaming_a_function_parameter_and_local(client, tmp_path):
    spec = tmp_path / "zena.yaml"
    shutil.copy(ROOT / "games/zena.yaml", spec)
    text = spec.read_text()
    function = "grab_points"
    renamed(client, spec, "  grab_points: {params: [p]", function, "grabbed")
    assert "grab_points" not in spec.read_text()
    validate(spec)
    validate(spec, variant="advanced")
    assert spec.read_text().count("grabbed") == text.count("grab_points")


def test_renaming_a_player_variable_renames_it_in_the_scenario_files_too(tmp_path):
    (tmp_path / "tests/games").mkdir(parents=True)
    shutil.copy(ROOT / "tests/games/market.yaml", tmp_path / "tests/games/market.yaml")
    shutil.copytree(ROOT / "tests/scenarios/market", tmp_path / "tests/scenarios/market")
    spec = tmp_path / "tests/games/market.yaml"
    uses = sum(p.read_text().count(".coins") for p in (tmp_path / "tests/scenarios/market").glob("*.yaml"))
    assert uses > 0
    client = Client(root=tmp_path)
    try:
        edits = renamed(client, spec, "  coins: {start: 5", "coins", "money")
    finally:
        client.stop()
    assert len(edits) > 1   # the spec and scenario files
    validate(spec)
    scenarios = sorted(str(p) for p in (tmp_path / "tests/scenarios/market").glob("*.yaml"))
    assert not any(".coins" in open(p).read() for p in scenarios)
    assert sum(open(p).read().count(".money") for p in scenarios) == uses
    out = io.StringIO()
    assert main(["scenario", *scenarios], stdout=out, stderr=io.StringIO()) == 0, out.getvalue()
    # and the game is the same one
    golden, head = golden_lines(ROOT / "tests/golden/market-2p.jsonl", skip_states=True)
    log = tmp_path / "renamed.jsonl"
    write_golden(str(spec), head["players"], head["seed"], str(log), head["variant"])
    assert golden_lines(log, skip_states=True)[0] == golden


def test_rename_refuses_a_builtin_a_keyword_and_a_taken_name(client):
    path = ROOT / "tests/games/market.yaml"
    text = path.read_text()
    client.open(path)
    line, char = find(text, "shuffle(deck)")
    assert client.prepare_rename(path, line, char) is None
    line, char = find(text, "pay(player, 3)")
    assert client.prepare_rename(path, line, char).start.character == char
    for new in ("if", "2x", "wealth"):
        with pytest.raises(Exception):
            client.rename(path, line, char, new)
