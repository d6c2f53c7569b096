"""`rulespec simulate` and `rulespec compare`: seeds, summary, coverage, invariants,
the process pool, progress, and the HTML page. In-process through cli.main."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.agents import make_agents
from interpreter.cli import main
from interpreter.tools.log import write_log
from interpreter.analysis import stats
from tests.paths import TESTS
from tests.shipped import shipped

MARKET = str(TESTS / "games" / "market.yaml")


def run(*argv, stderr=None):
    out, err = io.StringIO(), stderr or io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue() if stderr is None else ""


def simulate_json(*argv):
    code, out, err = run("simulate", *argv, "--json")
    return code, json.loads(out)


def untimed(summary):
    return {k: v for k, v in summary.items() if k not in ("seconds", "decisions_per_second")}


def test_summary_holds_what_the_issue_lists():
    code, s = simulate_json(MARKET, "-n", "30", "--players", "3", "--seed", "4", "--jobs", "1")
    assert code == 0
    assert s["games"] == s["completed"] == 30 and s["errors"] == {"count": 0, "games": []}
    assert len(s["wins"]) == 3 and sum(w["wins"] for w in s["wins"]) >= 30 - s["no_winner"]
    for w in s["wins"]:
        low, high = w["ci95"]
        assert low <= w["rate"] <= high
    for sc in s["scores"]:
        assert sc["min"] <= sc["mean"] <= sc["max"] and sc["sd"] >= 0
    for key in ("decisions_per_game", "rounds_per_game"):
        assert s[key]["p50"] <= s[key]["p95"]
    assert s["rounds_per_game"]["mean"] == 8       # round_limit 8; the goal is out of reach
    assert sum(s["ended_by"].values()) == 30
    assert s["decisions_per_second"] > 0
    game = shipped(MARKET)
    menu = {f"menu:action pray: {label}" for label in
            ("give 3 coins for 1 prestige", "give all but 1 coin for 2 prestige", "keep your coins")}
    assert set(s["coverage"]) == ({f"action:{a}" for a in game.actions} | menu |
                                  {"trigger:spice merchants profit", "end:prestige goal"})
    # every time pray fired, one of its menu options was chosen
    assert sum(s["coverage"][k] for k in menu) == s["coverage"]["action:pray"]
    assert s["never_fired"] == [k for k, v in s["coverage"].items() if v == 0 and not k.startswith("menu:")]
    assert s["never_chosen"] == [k for k, v in s["coverage"].items() if v == 0 and k.startswith("menu:")]
    assert "end:prestige goal" in s["never_fired"]


def test_each_game_is_the_play_command_with_seed_plus_i():
    _, s = simulate_json(MARKET, "-n", "3", "--players", "2", "--seed", "10", "--jobs", "1")
    wins = [0, 0]
    for seed in (10, 11, 12):
        _, out, _ = run("play", MARKET, "--players", "2", "--seed", str(seed), "--json")
        for seat in json.loads(out)["winner"]:
            wins[seat] += 1
    assert [w["wins"] for w in s["wins"]] == wins


def test_process_pool_gives_the_same_summary_as_one_process():
    _, one = simulate_json(MARKET, "-n", "40", "--players", "4", "--seed", "2", "--jobs", "1")
    _, two = simulate_json(MARKET, "-n", "40", "--players", "4", "--seed", "2", "--jobs", "2")
    assert untimed(one) == untimed(two)


def test_coverage_counts_what_the_log_shows():
    """fired counts agree with the decisions a JSONL log records for the same game."""
    from interpreter.analysis.simulate import Job, play_one
    game = shipped(MARKET)
    names = ["random"] * 3
    buf = io.StringIO()
    write_log(game, 3, 7, names, make_agents(names, 7), buf)
    labels = [json.loads(line)["decision"]["label"] for line in buf.getvalue().splitlines()
              if '"decision"' in line]
    record = play_one(Job(MARKET, None, 3, names), 7)
    assert record["fired"].get("action:buy", 0) == sum(1 for l in labels if l.startswith("buy "))
    assert record["fired"].get("action:sell", 0) == sum(1 for l in labels if l.startswith("sell "))
    assert record["fired"].get("action:walk", 0) == labels.count("walk")


CRASHING = """\
game: Coverage
players: {min: 2, max: 2}
globals:
  g: {start: 0}
actions:
  safe:
    do: g += 1
  risky:
    do: g = 10 // 0
flow: |
  turn players[0]: safe, risky
  end game "done"
"""


def test_coverage_counts_the_rule_that_failed(tmp_path):
    """A failed game's rules count up to its fault: the crashing rule fired, on one
    process or two, where it was reported as never fired."""
    spec = tmp_path / "crash.yaml"
    spec.write_text(CRASHING, encoding="utf-8")
    argv = (str(spec), "-n", "10", "--players", "2", "--seed", "1")
    code, one = simulate_json(*argv, "--jobs", "1")
    _, two = simulate_json(*argv, "--jobs", "2")
    assert code == 1 and one["errors"]["count"] == 2 and one["completed"] == 8
    assert one["coverage"] == {"action:safe": 8, "action:risky": 2}
    assert one["never_fired"] == []
    assert untimed(one) == untimed(two)
    _, text, _ = run("simulate", *argv, "--jobs", "1")
    assert "       2  action:risky" in text and "never fired" not in text


def test_a_fault_in_the_set_up_counts_the_rule_that_ran(tmp_path):
    """An action forced before the first decision fails inside new_state, where no
    state reaches the simulator: the fault carries the counts."""
    from interpreter.analysis.simulate import Job, play_one
    spec = tmp_path / "setup.yaml"
    spec.write_text(CRASHING.replace("turn players[0]: safe, risky",
                                     "turn players[0]: risky\n  turn players[0]: safe"),
                    encoding="utf-8")
    record = play_one(Job(str(spec), None, 2, ["random", "random"]), 3)
    assert "by zero" in record["error"] and record["fired"] == {"action:risky": 1}


def market_with(path, old: str, new: str):
    """A copy of the test game at `path` with one passage of its text changed."""
    text = Path(MARKET).read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_a_failing_rule_lists_each_failing_seed_with_its_first_error(tmp_path):
    spec = market_with(tmp_path / "broken.yaml",
                       "      player.coins -= c.cost\n      move(c, player.hand)",
                       "      player.coins -= c.cost // (c.cost - c.cost)\n      move(c, player.hand)")
    code, s = simulate_json(str(spec), "-n", "6", "--players", "3", "--jobs", "1")
    assert code == 1
    assert s["errors"]["count"] == len(s["errors"]["games"]) > 0
    first = s["errors"]["games"][0]
    assert "by zero" in first["error"] and first["error"].startswith(f"{spec}:")
    assert s["completed"] + s["errors"]["count"] == 6


def test_check_invariants_reports_the_first_violation_with_seed_and_step(tmp_path):
    spec = market_with(tmp_path / "strict.yaml",
                       'no negative coins: "all([p.coins >= 0 for p in players])"',
                       'no negative coins: "all([p.coins <= 8 for p in players])"')
    code, s = simulate_json(str(spec), "-n", "5", "--players", "3", "--seed", "3",
                            "--check-invariants", "--jobs", "1")
    assert code == 1
    v = s["first_invariant_violation"]
    assert v["invariant"] == "no negative coins" and v["seed"] == 3
    # replay that game: the invariant holds before that step and breaks at it
    game = load_game(str(spec))
    names = ["random"] * 3
    agents = make_agents(names, v["seed"])
    state = game.new_state(3, v["seed"])
    while state.decisions < v["step"]:
        assert not state.check_invariants()
        state.apply(agents[state.current_player()].choose(state))
    assert state.check_invariants() == ["no negative coins"]
    code, s = simulate_json(str(spec), "-n", "5", "--players", "3", "--seed", "3", "--jobs", "1")
    assert code == 0 and s["first_invariant_violation"] is None   # only when asked


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal_and_never_with_json():
    tty = _Tty()
    code = main(["simulate", MARKET, "-n", "5", "--players", "2", "--jobs", "1"], io.StringIO(), tty)
    assert code == 0 and "5/5 games" in tty.getvalue()
    tty = _Tty()
    main(["simulate", MARKET, "-n", "5", "--players", "2", "--jobs", "1", "--json"], io.StringIO(), tty)
    assert tty.getvalue() == ""
    code, out, err = run("simulate", MARKET, "-n", "5", "--players", "2", "--jobs", "1")
    assert err == "" and "rule coverage" in out and "warning: never fired:" in out


@pytest.mark.parametrize("argv", [
    ["--agents", "human,random"], ["--agents", "mcts:lots"], ["--agents", "greedy:x"],
    ["-n", "0"], ["--jobs", "0"]])
def test_bad_usage_exits_2(argv):
    code, out, err = run("simulate", MARKET, "--players", "2", *argv)
    assert code == 2 and "Traceback" not in err and "error" in err


def test_compare_reports_changes_with_intervals_and_writes_a_page(tmp_path):
    page = tmp_path / "cmp.html"
    code, out, err = run("compare", MARKET, "--variant", "long", "-n", "40", "--players", "3",
                         "--jobs", "1", "--json", "--html", str(page))
    assert code == 0
    result = json.loads(out)
    assert (result["a"], result["b"], result["games"]) == ("base", "long", 40)
    rows = {r["what"]: r for r in result["rows"]}
    rounds = rows["rounds per game"]
    assert (rounds["a"], rounds["b"], rounds["diff"], rounds["significant"]) == (8, 12, 4, True)
    assert rows["decisions per game"]["diff"] > 0 and rows["decisions per game"]["significant"]
    assert set(rows["win rate P1"]) >= {"a", "b", "diff", "ci95"}
    html = page.read_text(encoding="utf-8")
    assert html.count("<svg") == 2 + 3 and "<script" not in html and "http" not in html.replace(
        "http://www.w3.org/2000/svg", "")
    code, out, _ = run("compare", MARKET, "--variant", "long", "--variant", "base", "-n", "10",
                       "--players", "2", "--jobs", "1")
    assert code == 0 and "long (A) vs base (B)" in out and "95% CI" in out


def test_compare_unknown_variant_is_an_error_not_a_traceback():
    code, out, err = run("compare", MARKET, "--variant", "nope", "-n", "2", "--players", "2")
    assert code in (1, 2) and "Traceback" not in err and "nope" in err


def test_statistics_against_known_values():
    low, high = stats.wilson(50, 100)
    assert abs(low - 0.4038) < 1e-3 and abs(high - 0.5962) < 1e-3
    assert stats.wilson(0, 10)[0] == 0.0 and abs(stats.wilson(10, 10)[1] - 1.0) < 1e-9
    assert abs(stats.binomial_tail(10, 12) - 79 / 4096) < 1e-12
    d = stats.rate_difference(50, 100, 70, 100)
    assert d["diff"] == 0.2 and 0 < d["ci95"][0] < 0.2 < d["ci95"][1]
    assert stats.percentile([5, 1, 3, 2, 4], 50) == 3 and stats.percentile(list(range(1, 101)), 95) == 95


def test_cut_off_games_are_reported_apart_in_simulate_and_compare():
    """--cutoff 5 cuts every game of the test game off: simulate says no game
    ended by the rules, still counts the decisions played for speed, and compare
    shows the cut-off share as a row instead of failing on games without a winner."""
    code, out, _ = run("simulate", MARKET, "-n", "4", "--players", "2", "--jobs", "1", "--cutoff", "5")
    assert code == 0
    assert "no game ended by the rules" in out and "cut off by the simulator" in out
    assert " 0.0 decisions/s" not in out
    code, out, err = run("compare", MARKET, "--variant", "long", "-n", "4", "--players", "2",
                         "--jobs", "1", "--cutoff", "5")
    assert code == 0, err
    assert "cut off by the simulator" in out and "Traceback" not in err


def test_out_without_pyarrow_is_bad_usage_before_any_game(monkeypatch, tmp_path):
    from interpreter.analysis import results

    def missing():
        raise results.ResultsMissing("results files need pyarrow: pip install -e '.[results]'")
    monkeypatch.setattr(results, "_pyarrow", missing)
    code, out, err = run("simulate", MARKET, "-n", "3", "--players", "2", "--jobs", "1",
                         "--out", str(tmp_path / "x.parquet"))
    assert code == 2 and "pip install -e '.[results]'" in err and "Traceback" not in err
    assert out == "" and not (tmp_path / "x.parquet").exists()
