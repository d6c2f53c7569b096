"""The README's quick start works as written on a fresh machine, and CI runs its test command.

The README's first command runs here, word for word, in a copy of the
repository with no venv, so its venv is really new: nothing comes from this
interpreter's site-packages (no --system-site-packages, no PYTHONPATH); pip
fetches the packages (or takes them from its cache). The second command runs
the suite itself, so it cannot run inside it: .ci/run runs it, and a test here
checks that .ci/run holds it verbatim.
"""
from __future__ import annotations

import os
import re
import subprocess

import pytest

from tests.doc_blocks import blocks, commands
from tests.paths import ROOT
from tests.repository import copy_of_the_repository

README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"


def quick_start() -> list[str]:
    """The commands of the README's quick-start block (the one this file checks)."""
    (block,) = [b for b in blocks(README) if b.marker.get("checked-by") == "tests/test_quickstart.py"]
    return commands(block.body)


def test_the_quick_start_is_two_commands_that_install_into_a_venv():
    play, test = quick_start()
    for command in (play, test):
        steps = [step.strip() for step in command.split("&&")]
        assert steps[0] == "python3 -m venv .venv"
        # then every program from the venv: a bare `pip install` is refused on Debian 12
        # (externally-managed-environment) or installs system-wide elsewhere
        assert all(step.startswith(".venv/bin/") for step in steps[1:]), command
    assert ".venv/bin/rulespec play " in play and ".venv/bin/python -m pytest" in test
    assert "ray" not in test, "Ray (about 250 MB) is tested on its own by .ci/run"


def test_ci_runs_the_readme_test_command_exactly_after_system_packages():
    _, test = quick_start()
    lines = CI.read_text(encoding="utf-8").splitlines()
    assert test in lines
    at = lines.index(test)
    assert any(line.lstrip().startswith("apt-get install") for line in lines[:at])
    assert not any("apt-get" in line for line in lines[at + 1:]), "system packages come first"
    assert 'RULESPEC_REQUIRE_EXTRAS="$extra"' in "\n".join(lines[at + 1:])


@pytest.mark.slow
def test_the_first_command_installs_and_plays_in_a_fresh_venv(tmp_path):
    play, _ = quick_start()
    clone = copy_of_the_repository(tmp_path / "clone")
    assert not (clone / ".venv").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    done = subprocess.run(["bash", "-c", play], cwd=clone, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^Zena 1814: \d+ decisions, ended by ", done.stdout, re.M), done.stdout
    assert "include-system-site-packages = false" in (clone / ".venv" / "pyvenv.cfg").read_text()
    where = subprocess.run([clone / ".venv" / "bin" / "python", "-c",
                            "import interpreter, rulespec; print(interpreter.__file__, rulespec.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True)
    assert where.returncode == 0 and all(path.startswith(str(clone)) for path in where.stdout.split())
