"""An output file the user named that cannot be written: one rule for every command
(`rulespec: error: cannot write PATH: REASON`, exit 2), and `graph --png` when
Graphviz's `dot` itself fails."""
from __future__ import annotations

import io
import os
import shutil
import stat
import sys

import pytest

from interpreter.cli import main
from tests.paths import TESTS

MARKET = TESTS / "games" / "market.yaml"

FULL = "/dev/full"   # opens and takes writes, then says ENOSPC: a full disk, found mid-write
needs_full = pytest.mark.skipif(not (os.path.exists(FULL) and stat.S_ISCHR(os.stat(FULL).st_mode)),
                                reason="needs the /dev/full device")


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err, io.StringIO(""))
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def assert_cannot_write(code, err):
    assert code == 2
    assert err.strip().splitlines()[-1] == f"rulespec: error: cannot write {FULL}: No space left on device"
    assert stat.S_ISCHR(os.stat(FULL).st_mode), "the device itself is never removed"


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A log and a results file of market, for the commands that read them."""
    pytest.importorskip("pyarrow")
    folder = tmp_path_factory.mktemp("stored")
    log, results = folder / "game.jsonl", folder / "runs.parquet"
    assert run("play", MARKET, "--players", 2, "--log", log)[0] == 0
    assert run("simulate", MARKET, "--players", 2, "-n", 2, "--jobs", 1, "--out", results)[0] == 0
    return log, results


@needs_full
def test_play_log():
    assert_cannot_write(*run("play", MARKET, "--players", 2, "--log", FULL)[::2])


@needs_full
def test_simulate_out():
    pytest.importorskip("pyarrow")
    code, _, err = run("simulate", MARKET, "--players", 2, "-n", 2, "--jobs", 1, "--out", FULL)
    assert_cannot_write(code, err)


@needs_full
def test_compare_html():
    code, _, err = run("compare", MARKET, "--players", 2, "-n", 2, "--jobs", 1,
                       "--variant", "long", "--html", FULL)
    assert_cannot_write(code, err)


@needs_full
def test_compare_stored_html(stored):
    _, results = stored
    assert_cannot_write(*run("compare", results, results, "--html", FULL)[::2])


@needs_full
def test_report_html(stored):
    _, results = stored
    assert_cannot_write(*run("report", results, "--html", FULL)[::2])


@needs_full
def test_replay_html(stored):
    pytest.importorskip("jinja2")
    log, _ = stored
    assert_cannot_write(*run("replay", log, "--html", FULL)[::2])


@needs_full
@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")
def test_graph_png():
    assert_cannot_write(*run("graph", MARKET, "--png", FULL)[::2])


def test_graph_png_when_dot_fails_says_what_dot_said(tmp_path, monkeypatch):
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text(f"#!{sys.executable}\nimport sys\nsys.stdin.read()\n"
                    "sys.stderr.write('Error: gvwrite_no_z problem 8192\\n' + 'x' * 1000)\n"
                    "sys.exit(3)\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    png = tmp_path / "m.png"
    code, out, err = run("graph", MARKET, "--png", png)
    assert (code, out) == (1, "") and not png.exists()
    assert err.startswith("rulespec graph: error: Graphviz's `dot` failed (exit status 3): "
                          "Error: gvwrite_no_z problem 8192 xxx")
    assert err.endswith("...\n") and len(err) < 400
