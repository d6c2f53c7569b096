"""serve and replay --html: bad usage exits 2, a corrupt log is named as such (exit 1)."""
from __future__ import annotations

import io

from interpreter.cli import main
from tests.paths import ROOT

ZENA = str(ROOT / "games" / "zena.yaml")


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main([str(a) for a in argv], stdout=out, stderr=err, stdin=io.StringIO()), out.getvalue(), err.getvalue()


def test_serve_refuses_bad_usage_before_serving():
    assert run("serve", ZENA, "--players", 9)[0] == 2
    assert run("serve", ZENA, "--players", 2, "--agents", "random,random")[0] == 2   # nobody to serve
    assert run("serve", ZENA, "--players", 2, "--agents", "human,wizard")[0] == 2
    assert run("serve", ZENA, "--port", 70000)[0] == 2


def test_replay_html_names_a_corrupt_log(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    code, out, err = run("replay", bad, "--html", tmp_path / "out.html")
    assert code == 1 and "corrupt log" in err and "Traceback" not in err
    assert not (tmp_path / "out.html").exists()
