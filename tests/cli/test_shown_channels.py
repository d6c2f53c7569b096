"""Nothing hidden reaches a seat through the text the rules compute: a label
that reads the decider's own value (legal: rulespec/shown.py) reads '?' to the
other seat in each channel, and a log that reads another seat's hand is
refused before anyone plays it."""
from __future__ import annotations

import io
import re

from interpreter import load_game
from interpreter.cli import main
from interpreter.web.session import Session
from tests.paths import TESTS

BOAST = """\
game: Boast
players: {min: 2, max: 2}
per_player:
  secret: {start: 0, visibility: owner}
  pts: {start: 0}
flow: |
  for p in players:
      p.secret = roll(6) + 10
  for p in players:
      turn p: boast, rest
  end game "over"
actions:
  boast:
    label: '"boast of " + text(player.secret)'
    do: player.pts += 1
  rest:
    do: pass
scoring:
  score: p.pts
"""

# a log line that reads another seat's hand: one of validate's refusals (tests/language)
LOG_LEAK = TESTS / "specs" / "invalid" / "shown_log_another_hand.yaml"


def run(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err, io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def secret_of(seat: int, state) -> int:
    return state.pv["secret"][seat]


def test_a_seat_trace_reads_another_seats_own_label_as_hidden(tmp_path):
    path = tmp_path / "boast.yaml"
    path.write_text(BOAST)
    code, own, _ = run("play", path, "--players", 2, "--agents", "first", "--trace", "--seat", 1)
    assert code == 0 and re.search(r"P1 chooses boast of 1\d\b", own)
    code, other, _ = run("play", path, "--players", 2, "--agents", "first", "--trace", "--seat", 2)
    assert code == 0 and "P1 chooses boast of ?" in other
    assert not re.search(r"P1 chooses boast of \d", other)


def test_a_person_at_the_terminal_hears_another_seats_own_label_as_hidden(tmp_path):
    path = tmp_path / "boast.yaml"
    path.write_text(BOAST)
    code, out, _ = run("play", path, "--players", 2, "--agents", "first,human", stdin="1\n")
    assert code == 0 and "P1: boast of ?" in out
    assert not re.search(r"P1: boast of \d", out)


def test_the_web_table_log_reads_another_seats_own_label_as_hidden():
    session = Session(load_game("boast.yaml", text=BOAST), 2, 0, ["first", "human"])
    while session.bot_step():
        pass
    mine = f"boast of {secret_of(0, session.state)}"
    texts = [entry["text"] for entry in session.logs[1]]
    assert "P1: boast of ?" in texts and not any(mine in t for t in texts)
    assert any(mine in entry["text"] for entry in session.logs[0])


def test_playing_a_spec_whose_log_reads_a_hand_is_refused_before_play():
    code, out, err = run("play", LOG_LEAK, "--players", 2, "--trace", "--seat", 1)
    assert code == 1 and "P2 holds a" not in out + err and "P2 holds b" not in out + err
    assert "shown_log_another_hand.yaml:21:41: error: log() text is shown to every seat" in err
