"""The README's editor recipes (section "Editors" of README.md) do what they say.

Neovim's is run for real, headless, when `nvim` is installed: it opens a spec
with a typo and must receive the server's diagnostic at the typo.
"""
from __future__ import annotations

import fnmatch
import glob
import json
import os
import shutil
import subprocess
import sys
import tomllib

import pytest

from interpreter.cli import build_parser
from rulespec import schema
from tests.doc_blocks import blocks
from tests.paths import ROOT

THIS = "tests/lsp/test_editors.py"
RECIPES = {b.language: b for b in blocks(ROOT / "README.md") if b.marker.get("checked-by") == THIS}

PROBE = """
vim.cmd("edit spec.yaml")
vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, string.format("%d:%d:%d %s", d.lnum, d.col, d.end_col, d.message))
end
vim.fn.writefile(out, "diagnostics.txt")
vim.cmd("qall!")
"""


def test_the_readme_has_the_three_recipes():
    assert set(RECIPES) == {"lua", "json", "toml"}


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed (apt-get install neovim)")
def test_the_neovim_recipe_shows_a_typo_as_a_diagnostic(tmp_path):
    scripts = os.path.dirname(sys.executable)   # where pip put the `rulespec` command
    if not os.path.exists(os.path.join(scripts, "rulespec")):
        pytest.skip("no `rulespec` command beside this Python")
    (tmp_path / "init.lua").write_text(RECIPES["lua"].body)
    (tmp_path / "probe.lua").write_text(PROBE)
    text = (ROOT / "tests/games/market.yaml").read_text()
    (tmp_path / "spec.yaml").write_text(text.replace("player.coins -= c.cost", "player.coinz -= c.cost"))
    env = {**os.environ, "PATH": scripts + os.pathsep + os.environ["PATH"], "PYTHONPATH": str(ROOT)}
    subprocess.run(["nvim", "--headless", "-u", "init.lua", "-c", "luafile probe.lua"],
                   cwd=tmp_path, env=env, timeout=120, check=True, capture_output=True)
    found = (tmp_path / "diagnostics.txt").read_text().splitlines()
    line = text.split("\n").index("      player.coins -= c.cost")
    assert found == [f"{line}:13:18 unknown attribute '.coinz' (did you mean 'coins'?)"]


def test_the_vscode_schema_globs_name_the_installed_schemas_and_match_the_files():
    settings = json.loads(RECIPES["json"].body)["yaml.schemas"]
    by_file = {os.path.basename(path): globs for path, globs in settings.items()}
    assert set(by_file) == {schema.SCHEMA_PATH.name, schema.SCENARIO_SCHEMA_PATH.name}
    assert schema.SCHEMA_PATH.is_file() and schema.SCENARIO_SCHEMA_PATH.is_file()
    for name, kind in ((schema.SCHEMA_PATH.name, "game"), (schema.SCENARIO_SCHEMA_PATH.name, "scenarios")):
        matched = [f for g in by_file[name] for f in glob.glob(str(ROOT / g), recursive=True)]
        assert matched, name
        assert all(f"{kind}:" in open(f).read() for f in matched)
    spec_globs = by_file[schema.SCHEMA_PATH.name]
    assert not any(fnmatch.fnmatch("tests/scenarios/market/moving.yaml", g) for g in spec_globs)


def test_the_helix_recipe_runs_the_lsp_command():
    config = tomllib.loads(RECIPES["toml"].body)
    server = config["language-server"]["rulespec"]
    assert [server["command"], *server["args"]] == ["rulespec", "lsp"]
    assert build_parser().parse_args(server["args"]).command == "lsp"
    assert config["language"][0]["language-servers"] == ["rulespec"]
