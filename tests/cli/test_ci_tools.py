"""What another repository uses to check its specs: pre-commit, GitHub annotations, JSON."""
from __future__ import annotations

import glob
import io
import json
import re
import shlex
import tomllib

import yaml

from interpreter.cli import _gh, main
from tests.doc_blocks import blocks
from tests.paths import ROOT

INVALID = ROOT / "tests" / "specs" / "invalid"
VALID = ROOT / "tests" / "specs" / "valid"
MARKET = "tests/games/market.yaml"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def hook() -> dict:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(hooks, list) and len(hooks) == 1
    return hooks[0]


def test_pre_commit_hook_runs_the_cli_on_the_files_it_is_given():
    h = hook()
    assert h["id"] == "rulespec-validate" and h["language"] == "python"
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    command, *args = shlex.split(h["entry"])
    assert command in scripts
    files = re.compile(h["files"])
    assert files.search("games/siena.yaml") and files.search("tests/games/market.yaml")
    assert not files.search(".github/workflows/specs.yml") and not files.search("games/notes.txt")
    # pre-commit appends the changed files that match
    assert run(*args, MARKET) == (0, "", "ok: 1 file valid\n")
    code, out, _ = run(*args, MARKET, INVALID / "unknown_phase.yaml")
    assert code == 1 and re.match(r"^.+unknown_phase\.yaml:\d+:\d+: error: ", out)


def readme_blocks(marker: str) -> list[str]:
    """The README.md's yaml blocks that contain `marker`."""
    return [b.body for b in blocks(ROOT / "README.md") if b.language == "yaml" and marker in b.body]


def test_readme_pre_commit_config_uses_the_hook():
    (block,) = readme_blocks(".pre-commit-config.yaml")
    config = yaml.safe_load(block)
    (repo,) = config["repos"]
    assert [h["id"] for h in repo["hooks"]] == [hook()["id"]]


def test_readme_workflow_runs_validate_with_github_annotations():
    (block,) = readme_blocks("runs-on")
    workflow = yaml.safe_load(block)
    steps = workflow["jobs"]["validate"]["steps"]
    command = [s["run"] for s in steps if "run" in s and "rulespec" in s["run"]][-1]
    argv = shlex.split(command)
    assert argv[:2] == ["rulespec", "validate"] and "--format" in argv and "github" in argv
    files = [f for a in argv[2:] for f in (sorted(glob.glob(str(ROOT / a))) if "*" in a else [a])]
    code, out, err = run("validate", *[a for a in argv[2:] if "*" not in a], *files)
    assert code == 0, out + err


def test_github_annotations_are_escaped_and_located():
    code, out, _ = run("validate", "--format", "github", INVALID / "unknown_phase.yaml")
    assert code == 1
    assert re.match(r"^::error file=.+unknown_phase\.yaml,line=\d+,col=\d+::unknown phase ", out)
    assert _gh("50% off\nnext") == "50%25 off%0Anext"
    assert _gh("C:\\a,b", property_value=True) == "C%3A\\a%2Cb"


def test_json_errors_are_objects_in_file_order():
    code, out, _ = run("validate", "--format", "json", INVALID / "unreachable_phase_chain.yaml")
    assert code == 1
    errors = json.loads(out)
    assert [set(e) for e in errors] == [{"file", "line", "col", "path", "message"}] * 2
    assert [e["line"] for e in errors] == sorted(e["line"] for e in errors)
    assert errors[0]["path"] == "$.phases.first"


def test_assumptions_in_each_format():
    path = VALID / "hex_regions.yaml"
    code, out, _ = run("validate", "--assumptions", "--format", "json", path)
    data = json.loads(out)
    assert code == 0 and data["errors"] == []
    first = data["assumptions"][0]
    assert (first["line"], first["col"], first["value"]) == (7, 26, 1)
    assert first["reason"] == "the rulebook gives no price"
    code, out, _ = run("validate", "--assumptions", "--format", "github", path)
    assert out.splitlines()[0].startswith(f"::notice file={path},line=7,col=26,title=assumed::")
    code, out, _ = run("validate", "--assumptions", path)
    assert out.splitlines()[0] == (f"{path}:7:26: assumed: $.constants.claim_cost = 1 \u2014 "
                                   f"the rulebook gives no price")


def test_every_game_lists_its_assumptions():
    for path in sorted((ROOT / "games").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        code, out, err = run("validate", "--assumptions", path)
        assert code == 0, out + err
        listed = [line for line in out.splitlines() if ": assumed: " in line]
        written = [line for line in text.splitlines() if re.match(r"^[^#]*\bassumed:", line)]
        assert len(listed) == len(written), path.name
        for line in listed:
            number = int(line.split(":")[1])
            assert "assumed" in text.splitlines()[number - 1] or "value" in text.splitlines()[number - 1]
