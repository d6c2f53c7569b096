"""What another repository uses to check its specs: pre-commit, GitHub annotations, JSON."""
from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib

import yaml
from packaging.requirements import Requirement

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


def hooks() -> dict:
    """The hooks of .pre-commit-hooks.yaml, by id."""
    listed = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {h["id"]: h for h in listed}


def picks(h: dict, path: str) -> bool:
    """Whether pre-commit hands `path` to hook `h` (its files and exclude patterns)."""
    return bool(re.search(h["files"], path)) and not re.search(h.get("exclude", "^$"), path)


def test_pre_commit_hooks_run_the_cli_on_the_files_they_are_given():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    validate, scenario = hooks()["rulespec-validate"], hooks()["rulespec-scenario"]
    for h in (validate, scenario):
        assert h["language"] == "python" and shlex.split(h["entry"])[0] in scripts
    # pre-commit appends the changed files that match
    args = shlex.split(validate["entry"])[1:]
    assert run(*args, MARKET) == (0, "", "ok: 1 file valid (base and 1 variant)\n")
    code, out, _ = run(*args, MARKET, INVALID / "unknown_phase.yaml")
    assert code == 1 and re.match(r"^.+unknown_phase\.yaml:\d+:\d+: error: ", out)
    args = shlex.split(scenario["entry"])[1:]
    assert run(*args, ROOT / "tests" / "scenarios" / "market" / "selling.yaml")[0] == 0
    assert run(*args, ROOT / "tests" / "scenarios" / "failing" / "market.yaml")[0] == 1


def test_specs_and_scenario_files_go_to_their_own_hook():
    validate, scenario = hooks()["rulespec-validate"], hooks()["rulespec-scenario"]
    specs = ["games/siena.yaml", "tests/games/market.yaml", "games/zena.yml"]
    scenario_files = ["games/siena.scenarios.yaml", "my-games/siena-quick.scenarios.yaml",
                      "games/x.scenario.yml"]
    assert all(picks(validate, f) and not picks(scenario, f) for f in specs)
    assert all(picks(scenario, f) and not picks(validate, f) for f in scenario_files)
    assert not picks(validate, ".github/workflows/specs.yml") and not picks(validate, "games/notes.txt")
    # the scenario files the docs write follow the naming rule
    named = re.findall(r"[\w./-]+\.scenarios?\.yaml", (ROOT / "docs" / "authoring.md").read_text()
                       + (ROOT / "README.md").read_text())
    assert named and all(picks(scenario, n) for n in named)


def readme_blocks(marker: str) -> list[str]:
    """The README.md's yaml blocks that contain `marker`."""
    return [b.body for b in blocks(ROOT / "README.md") if b.language == "yaml" and marker in b.body]


def test_readme_pre_commit_config_uses_both_hooks_and_tells_the_files_apart():
    (block,) = readme_blocks(".pre-commit-config.yaml")
    (repo,) = yaml.safe_load(block)["repos"]
    assert len(repo["rev"]) == 40, "no release tags yet: rev is a full commit hash"
    configured = {h["id"]: {**hooks()[h["id"]], **h} for h in repo["hooks"]}
    assert set(configured) == set(hooks())
    assert picks(configured["rulespec-validate"], "games/siena.yaml")
    assert not picks(configured["rulespec-validate"], "games/siena.scenarios.yaml")
    assert picks(configured["rulespec-scenario"], "games/siena.scenarios.yaml")
    assert not picks(configured["rulespec-scenario"], "games/siena.yaml")


def test_readme_workflow_installs_from_the_repository_and_checks_specs_and_scenarios(tmp_path):
    """Its `run:` lines, with bash, in a project whose games/ holds this repository's
    games and the README's scenario file beside its spec."""
    (block,) = readme_blocks("runs-on")
    steps = yaml.safe_load(block)["jobs"]["validate"]["steps"]
    (install,) = [s["run"] for s in steps if "pip install" in s.get("run", "")]
    (requirement,) = shlex.split(install, comments=True)[2:]
    wanted = Requirement(requirement)    # rulespec is not on PyPI: a direct reference
    assert wanted.name == "rulespec" and wanted.url.startswith("git+https://github.com/")
    games = tmp_path / "games"
    shutil.copytree(ROOT / "games", games)
    shutil.copy(ROOT / "tests" / "games" / "market.yaml", games)
    (scenario,) = readme_blocks("\nscenarios:")
    (games / "market.scenarios.yaml").write_text(scenario, encoding="utf-8")
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    checks = [s["run"] for s in steps if s.get("run", "").startswith("rulespec ")]
    assert "--format github" in checks[0] and "rulespec scenario" in checks[-1]
    for command in checks:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, f"$ {command}\n{done.stdout}{done.stderr}"
    assert "1 passed, 0 failed" in done.stdout


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
