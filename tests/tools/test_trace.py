"""Tracing: every state change comes with the rule and the line that caused it."""
from __future__ import annotations

import io
import json
import re

import pytest

from interpreter.agents import make_agents
from interpreter.cli import main
from interpreter.tools.play import play
from interpreter.tools.trace import format_change, zone_name
from interpreter.engine.values import decode

from tests.market_source import MARKET, line_of
from tests.shipped import shipped


@pytest.fixture(scope="module")
def game():
    return shipped(MARKET)


def traced_game(game, seed, players=4, agent="random"):
    records = []
    state = play(game, players, seed, make_agents([agent] * players, seed), trace=records.append)
    return state, records


def test_tracing_does_not_change_the_game(game):
    plain = play(game, 4, 5, make_agents(["random"] * 4, 5))
    traced, records = traced_game(game, 5)
    assert records
    assert traced.to_json() == plain.to_json()
    assert plain.trace is None and traced.clone().trace is None


def test_changes_replayed_from_the_start_give_the_final_state(game):
    """The trace is complete: starting values plus every change = the end state."""
    for seed in range(3):
        state, records = traced_game(game, seed)
        values = {k: d["start"] for k, d in game.decls["globals"].items()}
        for k, d in game.decls["per_player"].items():
            for seat in range(4):
                values[f"{k}[{game.seat_name(seat)}]"] = d["start"]
        where = dict(game.card_start)
        for r in records:
            if r["kind"] == "var":
                assert values[r["what"]] == decode(r["from"]), r
                values[r["what"]] = decode(r["to"])
            elif r["kind"] == "move":
                assert where[r["what"]] == r["from"], r
                where[r["what"]] = r["to"]
        for k, v in state.g.items():
            assert values[k] == v
        for k, seats in state.pv.items():
            for seat, v in enumerate(seats):
                assert values[f"{k}[{game.seat_name(seat)}]"] == v
        assert where == {c: zone_name(state, z) for c, z in state.loc.items()}


def test_each_change_names_its_rule_and_line(game):
    rules = {}
    for seed in range(12):
        for r in traced_game(game, seed)[1]:
            assert r["file"] == MARKET
            rules.setdefault(r["rule"], set()).add(r["line"])
    assert rules["action buy"] >= {line_of("player.coins -= c.cost"), line_of("move(c, player.hand)")}
    assert line_of("p.coins += 1") in rules["trigger spice merchants profit"]
    assert rules["procedure pay (from action pray)"] <= {line_of("p.coins -= n"), line_of("p.coins = 0")}
    assert line_of("p.bet = choose number") in rules["phase bets"]
    assert line_of("round += 1") in rules["the flow"]


def test_an_end_condition_is_the_rule_that_ends_the_game(game):
    for seed in range(20):
        state, records = traced_game(game, seed, players=2, agent="first")
        if state.ended_by == "prestige goal":
            end = records[-1]
            assert (end["kind"], end["rule"], end["line"]) == ("end", "end prestige goal", line_of("prestige goal:") + 1)
            return
    pytest.fail("no game of 20 ended by the prestige goal")


def test_format_reads_like_the_issue(game):
    text = format_change({"kind": "var", "what": "coins[P3]", "from": 36, "to": 44,
                          "rule": "trigger income", "file": "g.yaml", "line": 312})
    assert text == "coins[P3] 36 \u2192 44  trigger income  g.yaml:312"


def test_cli_trace_prints_changes_and_decisions():
    out, err = io.StringIO(), io.StringIO()
    assert main(["play", MARKET, "--players", "3", "--seed", "2", "--trace"], out, err) == 0
    lines = out.getvalue().splitlines()
    change = re.compile(r"^  \S+ .+ \u2192 .+  (the flow|phase \w+|action \w+|trigger .+|procedure .+)  "
                        + re.escape(MARKET) + r":\d+$")
    changes = [line for line in lines if change.match(line)]
    assert len(changes) > 50
    assert any(re.match(r"^P\d chooses ", line) for line in lines)
    buy = line_of("player.coins -= c.cost")
    assert any(re.match(rf"^  coins\[P\d\] \d+ \u2192 \d+  action buy  .*:{buy}$", line) for line in lines)


def test_log_carries_provenance_and_replays(tmp_path):
    log = tmp_path / "game.jsonl"
    out, err = io.StringIO(), io.StringIO()
    assert main(["play", MARKET, "--players", "3", "--seed", "4", "--log", str(log)], out, err) == 0
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    assert rows[0]["trace"] is True
    changes = [r["change"] for r in rows if "change" in r]
    assert changes and all({"kind", "what", "from", "to", "rule", "file", "line"} <= set(c) for c in changes)
    assert main(["replay", str(log)], out, err) == 0
    # A change credited to another rule is a divergence: replay checks provenance too.
    text = log.read_text().replace('"rule": "action buy"', '"rule": "action sell"', 1)
    assert text != log.read_text()
    log.write_text(text)
    assert main(["replay", str(log)], io.StringIO(), err) == 1


def test_a_per_seat_trace_shows_only_what_that_seat_may_see(game):
    """`play --trace --seat K`: other seats' hidden cards and secret bets never appear;
    the seat's own do, and public changes stay."""
    from interpreter.engine.visibility import redact_change
    state, records = traced_game(game, 6, players=3)
    seat = 0
    shown = [r for r in (redact_change(game, rec, seat) for rec in records) if r is not None]
    others_hands = {"hand@1", "hand@2"}
    for rec in shown:
        if rec["kind"] == "move" and set(map(str, rec["on"])) <= others_hands | {"deck", "None"}:
            assert rec["what"] == "?", rec           # a card between zones seat 0 cannot see
        assert not (rec["kind"] == "var" and rec["what"].startswith(("bet[P2]", "bet[P3]"))), rec
    assert any(r["kind"] == "var" and r["what"] == "bet[P1]" for r in shown) or \
        not any(r["kind"] == "var" and r["what"] == "bet[P1]" for r in records)
    assert any(r["kind"] == "move" and r["what"] == "?" for r in shown)
    assert any(r["kind"] == "var" and r["what"].startswith("coins[") for r in shown)


def test_cli_trace_for_one_seat_hides_the_others_secret_choices():
    out, err = io.StringIO(), io.StringIO()
    assert main(["play", MARKET, "--players", "2", "--seed", "3", "--trace", "--seat", "1"], out, err) == 0
    lines = out.getvalue().splitlines()
    assert "P2 chooses ?" in lines                        # P2's secret bet
    assert any(re.match(r"^P1 chooses \d$", line) for line in lines)   # P1's own bet
    assert not any(line.startswith("  bet[P2]") for line in lines)
    assert any(re.match(r"^  \? deck \u2192 hand\[P2\]", line) for line in lines)


def test_seat_without_trace_is_a_usage_error():
    err = io.StringIO()
    assert main(["play", MARKET, "--players", "2", "--seat", "1"], io.StringIO(), err) == 2
    assert "--seat" in err.getvalue()
