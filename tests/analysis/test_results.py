"""The results store: `simulate --out` writes one row per game to Parquet;
`report` and `compare A.parquet B.parquet` read them back without replaying.
Needs the `results` extra (pyarrow): the README's test command skips this
module saying so, and .ci/run installs pyarrow and runs it (tests/extras.py)."""
from __future__ import annotations

import io
import json
import shlex

import pytest

from interpreter.cli import main
from tests.doc_blocks import blocks
from tests.extras import need
from tests.paths import ROOT, TESTS

pytestmark = pytest.mark.results
pq = need("results", "pyarrow.parquet")

MARKET = str(TESTS / "games" / "market.yaml")
RUN = ["-n", "12", "--players", "3", "--seed", "7"]


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


def untimed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "decisions_per_second")}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    paths = {}
    for variant in ("base", "long"):
        path = str(folder / f"{variant}.parquet")
        extra = [] if variant == "base" else ["--variant", "long"]
        code, out, _ = run("simulate", MARKET, *RUN, *extra, "--jobs", "2", "--json", "--out", path)
        assert code == 0
        paths[variant] = (path, json.loads(out))
    return paths


def test_one_row_per_game_with_the_documented_columns(stored):
    path, summary = stored["base"]
    table = pq.read_table(path)
    assert table.num_rows == 12
    assert table.column_names == ["seed", "variant", "agents", "winner", "scores", "tiebreaks",
                                  "ended_by", "cut_off", "decisions", "rounds", "coverage",
                                  "seconds", "error"]
    rows = table.to_pylist()
    assert [r["seed"] for r in rows] == list(range(7, 19))
    assert all(r["agents"] == ["random"] * 3 and len(r["scores"]) == 3 for r in rows)
    assert all(len(r["tiebreaks"]) == 3 for r in rows)     # a value per tie-break, per seat
    assert sum(dict(r["coverage"]).get("action:walk", 0) for r in rows) == summary["coverage"]["action:walk"]
    meta = json.loads(table.schema.metadata[b"rulespec"])
    assert meta["rulespec_results"] == 1 and meta["game"] == "Market Town" and meta["players"] == 3


def test_report_gives_the_summary_simulate_gave(stored):
    path, summary = stored["base"]
    code, out, _ = run("report", path, "--json")
    assert code == 0
    assert untimed(json.loads(out)) == untimed(summary)
    code, text, _ = run("report", path)
    assert code == 0 and "12 games, 3 players" in text and "rule coverage" in text


def test_compare_of_stored_runs_equals_the_live_comparison(stored):
    code, out, _ = run("compare", stored["base"][0], stored["long"][0], "--json")
    assert code == 0
    stored_result = json.loads(out)
    code, out, _ = run("compare", MARKET, "--variant", "long", *RUN, "--jobs", "1", "--json")
    live = json.loads(out)
    assert stored_result["rows"] == live["rows"]
    assert (stored_result["a"], stored_result["b"]) == ("base", "long")


def test_the_pool_and_one_process_write_the_same_rows(tmp_path):
    tables = []
    for jobs in ("1", "2"):
        path = str(tmp_path / f"jobs{jobs}.parquet")
        assert run("simulate", MARKET, *RUN, "--jobs", jobs, "--out", path)[0] == 0
        tables.append([{k: v for k, v in r.items() if k != "seconds"}
                       for r in pq.read_table(path).to_pylist()])
    assert tables[0] == tables[1]


def test_a_missing_results_file_is_named_missing_not_corrupt(tmp_path):
    code, _, err = run("report", str(tmp_path / "none.parquet"))
    assert code == 1 and "no such results file" in err and "not a Parquet" not in err


def test_a_file_that_is_not_a_results_file_is_named_corrupt(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    code, _, err = run("report", str(bad))
    assert code == 1 and "not a Parquet results file" in err and "Traceback" not in err
    other = tmp_path / "other.parquet"
    import pyarrow as pa
    pq.write_table(pa.table({"x": [1]}), str(other))
    code, _, err = run("report", str(other))
    assert code == 1 and "not a rulespec results file" in err


def test_the_readmes_pandas_recipe_reads_what_its_command_wrote(tmp_path, monkeypatch):
    """README.md, For researchers: the `simulate --out` command, then the pandas block."""
    need("results", "pandas")
    command, recipe = _readme_blocks("--out results.parquet", "read_parquet")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tests").symlink_to(TESTS)
    argv = shlex.split(command.body.strip())
    assert argv[0] == "rulespec" and run(*argv[1:])[0] == 0
    space = {}
    exec(compile(recipe.body, recipe.where, "exec"), space)
    assert len(space["games"]) == 20 and 0 < space["seat_0_wins"] < 1
    assert space["by_ending"]["count"].sum() == 20


def _readme_blocks(*needles):
    found = [next(b for b in blocks(ROOT / "README.md") if needle in b.body) for needle in needles]
    assert all(b.marker.get("checked-by") == "tests/analysis/test_results.py" for b in found)
    return found


def test_report_counts_the_failed_games_rules_as_simulate_did(tmp_path):
    """A failed game's row keeps the rules it fired up to its fault, so `report`
    reads the same coverage simulate printed."""
    from tests.analysis.test_simulate import CRASHING
    spec, path = tmp_path / "crash.yaml", str(tmp_path / "crash.parquet")
    spec.write_text(CRASHING, encoding="utf-8")
    code, out, _ = run("simulate", str(spec), "-n", "10", "--players", "2", "--seed", "1",
                       "--jobs", "2", "--json", "--out", path)
    assert code == 1 and json.loads(out)["coverage"] == {"action:safe": 8, "action:risky": 2}
    rows = pq.read_table(path).to_pylist()
    assert sum(dict(r["coverage"]).get("action:risky", 0) for r in rows if r["error"]) == 2
    _, report, _ = run("report", path, "--json")
    assert untimed(json.loads(report)) == untimed(json.loads(out))
