"""The README.md's pre-commit configuration works, with the real pre-commit.

A scratch project takes the configuration word for word from the README, but
for `repo:`, which points at a local git repository holding a copy of this
one (what a clone from GitHub would hold). It runs the README's commands
(`pre-commit autoupdate`, `pre-commit install`), then commits: a valid spec
with its scenario file goes in; a broken spec, and a failing scenario, are
refused with FILE:LINE:COL. The first commit builds pre-commit's environment
for the hooks (a non-editable `pip install` of the copy): about half a minute,
so this is the one test that does.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.doc_blocks import blocks, commands
from tests.paths import ROOT, TESTS
from tests.repository import IDENTITY, copy_of_the_repository, git

README = ROOT / "README.md"


def readme(language: str) -> str:
    """The body of the README's block of this language that this file checks."""
    (block,) = [b for b in blocks(README) if b.language == language
                and b.marker.get("checked-by") == "tests/cli/test_pre_commit.py"]
    return block.body


def scenario_example() -> str:
    """The README's scenario file, which names itself (# tests/games/NAME.scenarios.yaml)."""
    (body,) = [b.body for b in blocks(README) if b.language == "yaml" and "\nscenarios:" in b.body]
    return body


@pytest.fixture
def env(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(IDENTITY, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]
    assert shutil.which("pre-commit", path=env["PATH"]), "pre-commit (the test extra) is not installed"
    return env


def _hooks_repository(where, env) -> str:
    copy_of_the_repository(where)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "rulespec"]):
        assert git(where, *args, env=env).returncode == 0
    return git(where, "rev-parse", "HEAD", env=env).stdout.strip()


def _commit(project, env, *files) -> subprocess.CompletedProcess:
    assert git(project, "add", *files, env=env).returncode == 0
    return git(project, "commit", "-m", "change", env=env)


@pytest.mark.slow
def test_the_readme_configuration_refuses_a_bad_spec_and_a_failing_scenario(tmp_path, env):
    head = _hooks_repository(tmp_path / "rulespec", env)
    project = tmp_path / "project"
    (project / "games").mkdir(parents=True)
    assert git(project, "init", "-q", env=env).returncode == 0
    config, url = readme("yaml"), "https://github.com/OWNER/rulespec"
    assert url in config
    (project / ".pre-commit-config.yaml").write_text(config.replace(url, str(tmp_path / "rulespec")))
    for command in commands(readme("sh")):        # pre-commit autoupdate; pre-commit install
        done = subprocess.run(["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"$ {command}\n{done.stdout}{done.stderr}"
    written = yaml.safe_load((project / ".pre-commit-config.yaml").read_text())
    assert written["repos"][0]["rev"] == head

    shutil.copy(TESTS / "games" / "market.yaml", project / "games" / "market.yaml")
    (project / "games" / "market.scenarios.yaml").write_text(scenario_example())
    done = _commit(project, env, "games", ".pre-commit-config.yaml")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert re.search(r"rulespec validate\.+Passed", output) and re.search(r"rulespec scenario\.+Passed", output)

    shutil.copy(TESTS / "specs" / "invalid" / "unknown_phase.yaml", project / "games" / "broken.yaml")
    done = _commit(project, env, "games/broken.yaml")
    assert done.returncode != 0 and re.search(r"games/broken\.yaml:\d+:\d+: error: unknown phase",
                                              done.stdout + done.stderr), done.stdout + done.stderr
    assert git(project, "reset", "-q", "HEAD", "games/broken.yaml", env=env).returncode == 0
    os.remove(project / "games" / "broken.yaml")

    scenarios = project / "games" / "market.scenarios.yaml"
    scenarios.write_text(scenario_example().replace("5 + 2 + 1", "5 + 2 + 9"))
    done = _commit(project, env, "games/market.scenarios.yaml")
    output = done.stdout + done.stderr
    assert done.returncode != 0 and "FAIL games/market.scenarios.yaml" in output, output
    assert "rulespec validate" in output and re.search(r"rulespec validate\.+\(no files to check\)Skipped",
                                                      output), "a scenario file is not a spec"
    assert git(project, "rev-list", "--count", "HEAD", env=env).stdout.strip() == "1"
