"""Nothing the engine decides happens silently (issue 12, item 4): a turn with
no legal action passes with a word (or runs its `else`), a forced decision is
reported ("P1 must: done") and can be asked like any other (forced="ask"),
and `log(...)` lines reach the trace, the log and the person at the table."""
import io
import json

import pytest

from interpreter import load_game
from tests.shipped import shipped
from interpreter.cli import main
from interpreter.tools.trace import collector, format_change
from rulespec.errors import RuleError

TICTACTOE = "tests/games/tictactoe.yaml"


def _position(state):
    return (frozenset(state.zones["marks@0"]), frozenset(state.zones["marks@1"]))


def _enumerate(forced):
    """Every position reached through the API: (all positions, those with one empty cell)."""
    game = shipped(TICTACTOE)
    start = game.new_state(2, 0, forced=forced)
    seen, todo = {_position(start)}, [start]
    while todo:
        state = todo.pop()
        for option in state.legal_actions():
            after = state.clone()
            after.apply(option)
            key = _position(after)
            if key not in seen:
                seen.add(key)
                todo.append(after)
    return seen


def test_enumerating_tic_tac_toe_with_forced_ask_finds_all_5478_positions():
    asked, taken = _enumerate("ask"), _enumerate("take")
    assert len(asked) == 5478
    # the count: by default a forced last move is taken at once, so the
    # 222 positions with one empty cell where nobody has won yet are never a
    # state the API user holds
    assert len(taken) == 5478 - 222
    one_empty = {p for p in asked - taken if len(p[0]) + len(p[1]) == 8}
    assert len(one_empty) == 222 == len(asked - taken)


def test_forced_ask_is_kept_by_clone_and_save():
    game = shipped(TICTACTOE)
    state = game.new_state(2, 0, forced="ask")
    assert state.clone().ask_forced
    assert game.state_from_json(state.to_json()).ask_forced
    assert "ask_forced" not in game.new_state(2, 0).to_json()   # other saves unchanged


def test_forced_must_be_take_or_ask():
    with pytest.raises(ValueError):
        shipped(TICTACTOE).new_state(2, 0, forced="always")


# A spec whose turns are all empty: P1 has an action only while it holds coins,
# P2 never; a `turn ... until done` offers "done" alone once P1 is broke.
STUCK = """
game: Stuck
players: {min: 2, max: 2}
per_player:
  coins: {start: 1, min: 0}
actions:
  spend:
    when: player.coins > 0
    do: |
      player.coins -= 1
      log("spent one")
flow: |
  turn players[0] until done: spend
  turn players[1]: spend
  while true:
      for p in players:
          turn p: spend
"""


def _stuck_game(budget=2000):
    game = load_game("stuck.yaml", text=STUCK)
    game.step_budget = budget
    return game


def test_a_turn_with_no_legal_action_passes_with_a_line_in_the_trace():
    seen = []
    game = _stuck_game()
    state = game.new_state(2, 0, trace=collector(seen))
    with pytest.raises(RuleError) as caught:
        state.apply("spend")    # then "done" is forced, and no turn has a legal action
    lines = [format_change(c, game.player_names) for c in seen]
    assert lines[1].startswith("log: spent one  action spend  stuck.yaml:11")
    assert lines[2].startswith("P1 must: done  the flow  stuck.yaml:13")
    assert lines[3].startswith("P2 must: spend  the flow  stuck.yaml:14")
    assert lines[6].startswith("P1 has no legal action in `turn`: passes  the flow  stuck.yaml:17")
    assert lines[7].startswith("P2 has no legal action in `turn`: passes  the flow  stuck.yaml:17")
    # the step budget's message names the last skipped turn, at its line and column
    message = caught.value.message
    assert "ran 2,000 steps without asking anyone anything (limits: steps)" in message
    assert "The last turn passed was P2's at stuck.yaml:17:11" in message


def test_a_forced_decision_is_reported_in_the_trace():
    seen = []
    game = load_game("stuck.yaml", text=STUCK.replace("coins: {start: 1", "coins: {start: 0"))
    game.step_budget = 500
    with pytest.raises(RuleError):
        game.new_state(2, 0, trace=collector(seen))
    lines = [format_change(c, game.player_names) for c in seen]
    assert lines[0].startswith("P1 must: done  the flow  stuck.yaml:13")
    assert lines[1].startswith("P2 has no legal action in `turn`: passes")


def test_forced_ask_stops_at_a_decision_with_one_option():
    game = load_game("stuck.yaml", text=STUCK.replace("coins: {start: 1", "coins: {start: 0"))
    state = game.new_state(2, 0, forced="ask")
    assert state.current_player() == 0 and [o.label for o in state.legal_actions()] == ["done"]


def test_an_else_says_what_a_turn_with_no_legal_action_does():
    spec = STUCK.replace("turn p: spend", 'turn p: spend else end game "nobody can act"')
    seen = []
    game = load_game("stuck.yaml", text=spec)
    state = game.new_state(2, 0, trace=collector(seen))
    state.apply("spend")
    assert state.ended_by == "nobody can act"
    lines = [format_change(c, game.player_names) for c in seen]
    assert any(line.startswith("P1 has no legal action in `turn`: its `else` runs") for line in lines)


def test_a_turn_else_may_be_any_simple_statement():
    spec = STUCK.replace("turn p: spend", "turn p: spend else p.coins += 1")
    game = load_game("stuck.yaml", text=spec)
    state = game.new_state(2, 0, forced="ask")
    for label in ("spend", "done", "spend"):
        state.apply(label)
    # both broke: each loop turn runs its else, so P1 has a coin to spend again
    assert state.current_player() == 0 and state.pv["coins"] == [1, 1]
    assert [o.label for o in state.legal_actions()] == ["spend"]


def test_play_reports_passes_forced_decisions_and_log_lines_everywhere(tmp_path):
    spec = tmp_path / "stuck.yaml"
    spec.write_text(STUCK.replace("while true:", "if true:"))
    log = tmp_path / "game.jsonl"
    out, err = io.StringIO(), io.StringIO()
    # a person at the table (seat 1) hears of all three without --trace
    stdin = io.StringIO("1\n")
    code = main(["play", str(spec), "--players", "2", "--agents", "human,random",
                 "--log", str(log)], stdin=stdin, stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    screen = out.getvalue()
    assert "log: spent one" in screen
    assert "P1 must: done" in screen
    assert "P2 has no legal action in `turn`: passes" in screen
    records = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [r["change"]["kind"] for r in records if "change" in r]
    assert "forced" in kinds and "pass" in kinds
    assert {"note": "spent one"} in records
    # and the log still replays
    assert main(["replay", str(log)], stdout=io.StringIO(), stderr=io.StringIO()) == 0


def test_a_person_is_not_told_another_seats_forced_option_nor_a_secret_one():
    from interpreter.tools.trace import messages
    out = io.StringIO()
    sink = messages(out, None, seats={0})
    base = {"kind": "forced", "what": "P2", "from": None, "rule": "the flow", "file": "f", "line": 3}
    sink({**base, "to": "play corn#2", "seat": 1})
    sink({**base, "what": "P1", "to": "bid 2", "seat": 0, "secret": True})
    sink({**base, "what": "P1", "to": "done", "seat": 0})
    lines = out.getvalue().splitlines()
    assert lines[0].strip().startswith("P2 must: its only option")
    assert lines[1].strip().startswith("P1 must: its only option")
    assert lines[2].strip().startswith("P1 must: done")


def test_play_trace_shows_forced_decisions_passes_and_log_lines(tmp_path):
    spec = tmp_path / "stuck.yaml"
    spec.write_text(STUCK.replace("while true:", "if true:"))
    out, err = io.StringIO(), io.StringIO()
    code = main(["play", str(spec), "--players", "2", "--agents", "first", "--trace"],
                stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    trace = out.getvalue()
    for line in ("P1 chooses spend", "log: spent one", "P1 must: done", "P2 must: spend",
                 "P1 has no legal action in `turn`: passes", "P2 has no legal action in `turn`: passes"):
        assert line in trace
