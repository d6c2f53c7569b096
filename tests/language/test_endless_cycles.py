"""Triggers and procedures that always start each other again (rulespec/cycles.py):
validate refuses the cycle at the line that closes it; a condition anywhere on the
path (an `if`, a `when:`, a `return` or a decision before the call) is accepted."""
from __future__ import annotations

import pytest

from rulespec import validate
from tests.refusals import errors_of, where

HEAD = "game: G\nplayers: {min: 2, max: 2}\nglobals:\n  n: {start: 0}\n"


TRIGGER_SELF = HEAD + """signals: {ping: [who]}
triggers:
  echo:
    on: ping
    do: |
      n += 1
      signal ping(who)
flow: |
  signal ping(players[0])
  end game "done"
"""

MUTUAL = HEAD + """procedures:
  p1: {params: [], do: "p2()"}
  p2: {params: [], do: "n += 1\\np1()"}
flow: |
  p1()
  end game "x"
"""

THROUGH = HEAD + """signals: {a: [], b: []}
procedures:
  relay: {params: [], do: "x = 1 + count([1])\\nsignal b()"}
triggers:
  on_a: {on: a, do: "relay()"}
  on_b: {on: b, do: "signal a()"}
flow: |
  signal a()
  end game "x"
"""


def test_a_trigger_that_always_resends_its_signal_is_refused_at_the_signal():
    (error,) = errors_of(TRIGGER_SELF)
    assert (error.line, error.col) == where(TRIGGER_SELF, "signal ping(who)")
    assert "trigger echo always sends signal ping" in error.message
    assert "(trigger echo → trigger echo)" in error.message
    assert "`when:`" in error.message


def test_procedures_that_always_call_each_other_are_refused_once():
    (error,) = errors_of(MUTUAL)
    assert (error.line, error.col) == where(MUTUAL, "p2()")
    assert "procedure p1 → procedure p2 → procedure p1" in error.message


def test_a_procedure_that_always_calls_itself_is_refused():
    text = HEAD + ('procedures:\n  loop: {params: [k], do: "loop(k + 1)"}\n'
                   'flow: |\n  loop(0)\n  end game "x"\n')
    (error,) = errors_of(text)
    assert "procedure loop always calls procedure loop" in error.message


def test_a_cycle_through_triggers_and_a_procedure_is_refused():
    (error,) = errors_of(THROUGH)
    assert "procedure relay → trigger on_b → trigger on_a → procedure relay" in error.message


@pytest.mark.parametrize("text", [
    TRIGGER_SELF.replace("    on: ping\n", "    on: ping\n    when: n < 5\n"),
    TRIGGER_SELF.replace("      signal ping(who)", "      if n < 5:\n          signal ping(who)"),
    MUTUAL.replace('do: "n += 1\\np1()"', 'do: "n += 1\\nif n > 9:\\n    return\\np1()"'),
    MUTUAL.replace('do: "p2()"', 'do: "while n < 3:\\n    p2()"'),
    # a player is asked on the way round: a game of many decisions, not a hang
    MUTUAL.replace('do: "p2()"', 'do: "x = choose one of [1, 2] by players[0]\\np2()"'),
], ids=["when", "if", "return-first", "in-a-loop", "asks"])
def test_a_condition_or_a_decision_on_the_path_is_accepted(text):
    validate("game.yaml", text=text)


def test_a_call_after_one_that_may_ask_is_not_an_always_edge():
    text = MUTUAL.replace("procedures:\n", 'procedures:\n  ask: {params: [], do: '
                          '"x = choose one of [1, 2] by players[0]"}\n').replace('do: "p2()"',
                                                                            'do: "ask()\\np2()"')
    validate("game.yaml", text=text)


FUNCTIONS = HEAD + """functions:
  FUNCS
flow: |
  n = f(1)
  end game "x"
"""


@pytest.mark.parametrize("funcs, needle, chain", [
    ('f: {params: [k], expr: "f(k + 1)"}', "f(k + 1)", "(function f → function f)"),
    ('f: {params: [k], expr: "1 + g(k)"}\n  g: {params: [k], expr: "count([k]) + f(k - 1)"}',
     "g(k)", "(function f → function g → function f)"),
    ('f: {params: [k], expr: "f(k) if f(k - 1) > 0 else 0"}', "f(k - 1)", "(function f → function f)"),
])
def test_a_function_that_always_calls_itself_again_is_refused(funcs, needle, chain):
    """A function with no base case validated and failed at play, far from the cause
    ("call each other too deeply"), where the same procedure was refused."""
    text = FUNCTIONS.replace("FUNCS", funcs)
    (error,) = errors_of(text)
    assert (error.line, error.col) == where(text, needle)
    assert chain in error.message and "a base case" in error.message


@pytest.mark.parametrize("funcs", [
    'f: {params: [k], expr: "0 if k <= 0 else f(k - 1)"}',
    'f: {params: [k], expr: "k if k <= 0 or f(k - 1) > 0 else 1"}',
    'f: {params: [k], expr: "count([f(j) for j in range(k)])"}',
])
def test_a_function_with_a_base_case_is_accepted(funcs):
    validate("g.yaml", text=FUNCTIONS.replace("FUNCS", funcs))
