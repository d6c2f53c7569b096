"""Every code block of README.md and docs/*.md is run or checked, so the docs cannot rot.

What each block gets, by its language (tests/doc_blocks.py reads the blocks):
- `sh`: each command runs with bash in a scratch folder that looks like the
  repository's root (each top-level entry linked), one folder per document, in
  order; a command ending in `# exit 1` must fail with status 1, any other must
  succeed, and none may print a traceback;
- `text` right after a `sh` block: each of its lines (but `...`) must appear in
  what that block printed; any other `text` or unlabelled block is a diagram:
  every path in it (`rulespec/loader.py`, `games/siena.yaml:340`) must exist;
- `python`: executed from the repository's root;
- `rules`: parses as statements of the rules language;
- `yaml`: a spec (it has `game:`) validates with every variant and plays one
  game; a scenario file (`scenarios:`) passes; an editor modeline is the first
  line of every game; a fragment marked `overlay-on: SPEC` validates laid over
  that spec (maps merge, other values replace, as a variant's changes do);
- a block marked `checked-by: TEST` is run by that test, which must exist and
  read the document; one marked `skip: REASON` cannot run, and says why.
Any other block fails `test_every_block_is_run_or_marked`.
"""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from interpreter.cli import main
from rulespec.dsl import parse_statements
from rulespec.loader import load_spec
from tests.doc_blocks import DOCS, Block, blocks, commands
from tests.paths import ROOT

MODELINE = "# yaml-language-server: $schema="
PATH_TOKEN = re.compile(r"(?<![\w$./-])((?:\.\./)*[\w.-]+/[\w./-]*)")


def kinds(doc) -> list[tuple[Block, str]]:
    """Each block of a document with what the tests do with it."""
    out, previous = [], None
    for block in blocks(doc):
        out.append((block, _kind(block, previous)))
        previous = block
    return out


def _kind(block, previous) -> str:
    if block.marker:
        return next(iter(block.marker))                 # skip, checked-by, overlay-on, unknown
    if block.language in ("sh", "python", "rules"):
        return block.language
    if block.language == "text" and block.follows and previous is not None \
            and previous.language == "sh" and not previous.marker:
        return "output"
    if block.language in ("text", ""):
        return "diagram"
    if block.language == "yaml":
        data = yaml.safe_load(block.body)
        if data is None and block.body.strip().startswith(MODELINE):
            return "modeline"
        if isinstance(data, dict) and "scenarios" in data:
            return "scenario"
        if isinstance(data, dict) and "game" in data:
            return "spec"
    return "unchecked"


def every(kind) -> list[Block]:
    return [block for doc in DOCS for block, k in kinds(doc) if k == kind]


def ids(blocks_):
    return [block.where for block in blocks_]


def test_every_block_is_run_or_marked():
    unchecked = [f"{block.where}: ```{block.language} {block.marker or ''}"
                 for doc in DOCS for block, kind in kinds(doc) if kind in ("unchecked", "unknown")]
    assert unchecked == [], "blocks no test runs; run them or mark them (see tests/doc_blocks.py)"
    for block in every("skip"):
        assert len(block.marker["skip"]) > 10, f"{block.where}: say why it cannot run"
    for block in every("checked-by"):
        test = ROOT / block.marker["checked-by"]
        assert test.is_file() and block.doc.name in test.read_text(encoding="utf-8"), block.where
    assert len(every("sh")) >= 8 and every("python") and every("spec") and every("scenario")


# ------------------------------------------------------------------------ sh
def _scratch(where):
    for entry in ROOT.iterdir():
        if not entry.name.startswith("."):
            os.symlink(entry, where / entry.name)
    return where


def _env():
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    assert shutil.which("rulespec", path=env["PATH"]), "the rulespec command is not installed"
    return env


@pytest.mark.parametrize("doc", [d for d in DOCS if any(k == "sh" for _, k in kinds(d))],
                         ids=lambda d: d.name)
def test_every_command_runs_and_prints_what_the_doc_shows(doc, tmp_path):
    scratch, env = _scratch(tmp_path), _env()
    last_output = None
    for block, kind in kinds(doc):
        if kind == "sh":
            last_output = "".join(_run(command, scratch, env, block) for command in commands(block.body))
        elif kind == "output":
            for line in block.body.splitlines():
                if line.strip() and "..." not in line:
                    assert line.rstrip() in last_output, \
                        f"{block.where} shows {line!r}; the commands printed:\n{last_output}"


def _run(command, cwd, env, block) -> str:
    expected = 1 if re.search(r"#\s*exit 1\s*$", command.splitlines()[0]) else 0
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == expected, f"{block.where}: $ {command}\n{output}"
    assert "Traceback" not in output, f"{block.where}: $ {command}\n{output}"
    return output


# --------------------------------------------------------------- python, rules
@pytest.mark.parametrize("block", every("python"), ids=ids(every("python")))
def test_python_block_runs(block, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(block.body, block.where, "exec"), {"__name__": "__doc_block__"})


@pytest.mark.parametrize("block", every("rules"), ids=ids(every("rules")))
def test_rules_block_parses(block):
    assert parse_statements(block.body)


@pytest.mark.parametrize("block", every("diagram"), ids=ids(every("diagram")))
def test_diagram_names_files_that_exist(block):
    paths = [re.sub(r":\d+$", "", p).rstrip(".") for p in PATH_TOKEN.findall(block.body)]
    assert paths, f"{block.where}: a diagram without a path checks nothing; mark it skip: REASON"
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert missing == [], f"{block.where} names files that do not exist"


# ---------------------------------------------------------------------- yaml
def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue() + err.getvalue()


def _play_every_variant(path):
    code, output = _cli("validate", "--all-variants", path)
    assert code == 0, output
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for variant in ["base", *(data.get("variants") or {})]:
        argv = ["play", path, "--players", data["players"]["min"], "--seed", 1]
        code, output = _cli(*argv, *(["--variant", variant] if variant != "base" else []))
        assert code == 0, f"{variant}: {output}"


@pytest.mark.parametrize("block", every("spec"), ids=ids(every("spec")))
def test_spec_block_validates_and_plays(block, tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text(block.body, encoding="utf-8")
    _play_every_variant(path)


@pytest.mark.parametrize("block", every("overlay-on"), ids=ids(every("overlay-on")))
def test_spec_fragment_fits_the_spec_it_is_from(block, tmp_path):
    base = ROOT / block.marker["overlay-on"]
    # the spec loader's YAML, not PyYAML's 1.1 rules (`on:` is a word, not true)
    fragment = load_spec(block.where, text=block.body).data
    merged = _overlay(load_spec(base).data, fragment)
    path = tmp_path / base.name
    path.write_text(yaml.safe_dump(merged, sort_keys=False, allow_unicode=True), encoding="utf-8")
    code, output = _cli("validate", "--all-variants", path)
    assert code == 0, f"{block.where} laid over {base.name}:\n{output}"


def _overlay(base, changes):
    if not isinstance(base, dict) or not isinstance(changes, dict):
        return changes
    return {**base, **{k: _overlay(base.get(k), v) for k, v in changes.items()}}


@pytest.mark.parametrize("block", every("scenario"), ids=ids(every("scenario")))
def test_scenario_block_passes(block, tmp_path):
    named = re.match(r"#\s*([\w./-]+\.ya?ml)\b", block.body)
    assert named, f"{block.where}: the first line names the file (# DIR/NAME.scenarios.yaml)"
    where = Path(named.group(1))
    folder = tmp_path / where.parent     # its spec: path is relative to where it sits
    folder.mkdir(parents=True)
    for entry in (ROOT / where.parent).iterdir():
        os.symlink(entry, folder / entry.name)
    (folder / where.name).write_text(block.body, encoding="utf-8")
    code, output = _cli("scenario", folder / where.name)
    assert code == 0 and " 0 failed" in output, f"{block.where}:\n{output}"


@pytest.mark.parametrize("block", every("modeline"), ids=ids(every("modeline")))
def test_modeline_block_is_the_first_line_of_every_game(block):
    for game in sorted((ROOT / "games").glob("*.yaml")):
        assert game.read_text(encoding="utf-8").splitlines()[0] == block.body.strip(), game.name
