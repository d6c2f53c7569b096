"""A local read where some path gives it no value is refused by validate
(rulespec/definite.py), at the read.

Found by trying: `players[0].wins = y` then `y = 5` validated, and play stopped at
once with "'y' has no value here"; `x = cap` before a `cap = 5` read the rule's
local, not the constant. Every such spec is now an error at its line and column,
and what must stay valid stays so (both branches giving a value, a branch that
ends the rule, a loop's own variable, parameters, comprehensions).
"""
from __future__ import annotations

import pytest

from rulespec import validate
from tests.refusals import errors_of, where

HEAD = """game: G
players: {min: 2, max: 2}
constants: {cap: 3, flags: [1, 2]}
per_player: {wins: {start: 0}}
procedures:
  award: {params: [p, n], do: "p.wins += n"}
actions:
  win:
    for: n in [1, 2]
    do: |
      player.wins += n
flow: |
BODY
  award(players[0], 1)
  turn players[1]: win
  end game "done"
scoring:
  score: p.wins
"""


def spec(body: str) -> str:
    return HEAD.replace("BODY", "\n".join("  " + line for line in body.strip("\n").split("\n")))


REFUSED = {
    "read before it is given": ("players[0].wins = y\ny = 5", "y\n", 0),
    "given on one branch": ("if nplayers > 1:\n    y = 1\nplayers[0].wins = y", "y\n", 0),
    "given in a loop's body only": ("for p in players where p.wins > 0:\n    y = 1\nplayers[0].wins = y",
                                    "y\n", 0),
    "a written-out loop with a where": ("for k in [1, 2] where k > 1:\n    y = 1\nplayers[0].wins = y", "y\n", 0),
    "a loop's first turn": ("for p in players:\n    p.wins = prev\n    prev = 1", "prev\n", 0),
    "given in one menu option": ('choose by players[0]:\n    "a":\n        y = 1\n    "b":\n        pass\n'
                                 "players[0].wins = y", "y\n", 0),
    "a while loop's body": ("n = 0\nwhile n < 2:\n    n += 1\n    y = n\nplayers[0].wins = y", "y\n", 0),
    "an augmented assignment first": ("y += 1\ny = 2", "y += 1", 0),
    "the local's own item": ("m[0] = 1\nm = [0]", "m[0]", 0),
    "a question's {placeholder}": ('x = choose one of [1, 2] by players[0] as "Take {y}?"\ny = 3', "x = choose", 0),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_read_with_no_value_on_some_path_is_refused_at_the_read(case):
    body, needle, nth = REFUSED[case]
    text = spec(body)
    (error,) = errors_of(text)
    assert (error.line, error.col) == where(text, needle, nth), error.message
    name = "y" if "{y}" in body else needle.split()[0].split("[")[0]
    assert error.message.startswith(f"'{name}' may have no value here: a path reaches this line")


def test_the_message_names_where_it_is_given_and_the_loop_remedy():
    text = spec("for p in players:\n    p.wins = prev\n    prev = 1")
    (error,) = errors_of(text)
    assert f"(it is given one at line {where(text, 'prev = 1')[0]})" in error.message
    assert "(before the loop, if its first turn reads it: `prev = none`)" in error.message


def test_a_local_named_like_a_constant_says_it_hides_the_constant():
    text = spec("players[0].wins = cap\ncap = 5")
    (error,) = errors_of(text)
    assert (error.line, error.col) == where(text, "cap\n")
    assert "'cap' is also the spec's constant, which this rule cannot read" in error.message


ACCEPTED = {
    "both branches": "if nplayers > 1:\n    y = 1\nelse:\n    y = 2\nplayers[0].wins = y",
    "an ended branch": 'if nplayers > 1:\n    y = 1\nelse:\n    end game "short"\nplayers[0].wins = y',
    "every menu option": ('choose by players[0]:\n    "a":\n        y = 1\n    "b":\n        y = 2\n'
                          "players[0].wins = y"),
    "a loop's variable and a comprehension's": "for p in players:\n    p.wins = count([q for q in players if q != p])",
    "given before the loop": "prev = 0\nfor p in players:\n    p.wins = prev\n    prev = 1",
    "a loop over items written out": "for k in [1, 2]:\n    y = k\nplayers[0].wins = y",
    "a loop over the players, a constant list, a range": ("for p in players:\n    a = p\nfor k in flags:\n"
                                                           "    b = k\nfor i in range(1, 3):\n    c = i\n"
                                                           "a.wins = b + c"),
    "an auction's bidder beside a local of that name": ("for bidder in players:\n    bidder.wins += 1\n"
                                                        "res = auction among players opening 1 limit bidder.wins + 5"),
    "a choice's answer": "y = choose one of [1, 2] by players[0]\nplayers[0].wins = y",
    "a procedure's and an action's parameters": "award(players[1], 2)",
}


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_a_local_given_on_every_path_is_accepted(case):
    validate("game.yaml", text=spec(ACCEPTED[case]))


def test_a_scenario_do_step_says_where_a_local_has_no_value(tmp_path):
    import subprocess
    import sys
    (tmp_path / "g.yaml").write_text(spec("players[0].wins = 1"))
    scenario = tmp_path / "s.yaml"
    scenario.write_text("spec: g.yaml\nplayers: 2\nscenarios:\n  - name: one path\n    steps:\n"
                        "      - do: |\n          if players[0].wins > 3:\n              y = 1\n"
                        "          players[1].wins = y\n")
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "scenario", str(scenario)],
                          capture_output=True, text=True)
    out = done.stdout + done.stderr
    line, col = where(scenario.read_text(), "y\n", 0)
    assert done.returncode == 1 and f"s.yaml:{line}:{col}: error: 'y' may have no value here" in out
