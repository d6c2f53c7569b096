"""docs/authoring.md cannot rot: its commands run, its outputs appear, its examples parse.

- every `sh` block runs, command by command, with bash, in a scratch folder
  that sees the repository's games/, tests/ and rulespec/; a command marked
  `# exit 1` must fail with status 1, every other one must succeed;
- a `text` block right after a `sh` block shows output: each of its lines
  (but `...`) must appear in what that block printed;
- every `rules` block parses, and together they use every construct of the
  language; every built-in function is in the guide.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from rulespec import ast
from rulespec.builtins import SIGNATURES
from rulespec.dsl import parse_statements
from tests.paths import ROOT

GUIDE = ROOT / "docs" / "authoring.md"
TEXT = GUIDE.read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)


def blocks() -> list[tuple[str, str, bool]]:
    """(language, body, follows_directly) for each fenced block, in order."""
    out, end = [], 0
    for m in FENCE.finditer(TEXT):
        between = TEXT[end:m.start()]
        out.append((m.group(1), m.group(2), between.strip() == ""))
        end = m.end()
    return out


def commands(body: str) -> list[str]:
    """Split a shell block into commands, keeping a here-document with its command."""
    out, lines = [], body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        command = [line]
        m = re.search(r"<<'?(\w+)'?", line)
        if m:
            while i < len(lines):
                command.append(lines[i])
                i += 1
                if lines[i - 1] == m.group(1):
                    break
        out.append("\n".join(command))
    return out


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    where = tmp_path_factory.mktemp("guide")
    for name in ("games", "tests", "rulespec"):
        os.symlink(ROOT / name, where / name)
    return where


def _env():
    env = dict(os.environ)
    scripts = os.path.dirname(sys.executable)
    env["PATH"] = scripts + os.pathsep + env.get("PATH", "")
    assert shutil.which("rulespec", path=env["PATH"]), "the rulespec command is not installed"
    return env


def test_every_command_runs_and_prints_what_the_guide_shows(scratch):
    env = _env()
    last_output = None
    ran = 0
    for language, body, follows in blocks():
        if language == "sh":
            last_output = ""
            for command in commands(body):
                expected = 1 if re.search(r"#\s*exit 1\s*$", command.splitlines()[0]) else 0
                done = subprocess.run(["bash", "-c", command], cwd=scratch, env=env,
                                      capture_output=True, text=True, timeout=300)
                output = done.stdout + done.stderr
                assert done.returncode == expected, f"$ {command}\n{output}"
                assert "Traceback" not in output, f"$ {command}\n{output}"
                last_output += output
                ran += 1
        elif language == "text" and follows and last_output is not None:
            for line in body.splitlines():
                if line.strip() and "..." not in line:
                    assert line.rstrip() in last_output, f"the guide shows {line!r}; got:\n{last_output}"
            last_output = None
        else:
            last_output = None
    assert ran >= 12


def test_the_worked_example_is_a_variant_of_a_real_game():
    """The worked example copies a game of games/ (the lead may switch which)."""
    copied = re.findall(r"^cp (games/\S+\.yaml) ", TEXT, re.M)
    assert copied and all((ROOT / c).exists() for c in copied)
    assert "rulespec compare" in TEXT and "rulespec simulate" in TEXT and "rulespec scenario" in TEXT


def rules_trees():
    return [parse_statements(body) for language, body, _ in blocks() if language == "rules"]


def test_language_examples_parse_and_cover_every_construct():
    used = {node.rule for tree in rules_trees() for node in ast.walk(tree)}

    def every(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from every(sub)
    constructs = {cls.rule for cls in every(ast.Node) if cls.rule}
    assert constructs - used == set(), "the guide has no example of these"


def test_every_builtin_is_in_the_guide():
    missing = [name for name in SIGNATURES if f"`{name}(" not in TEXT and f" {name}(" not in TEXT]
    assert not missing, f"built-in functions the guide does not mention: {missing}"
