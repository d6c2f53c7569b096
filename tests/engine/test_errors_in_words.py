"""Errors that remain possible at play are said in words, at the exact line and
column of the failing part inside the block scalar, with the rule and the
values involved — never a Python exception's name or text (issue 12, item 6)."""
import itertools
import re

import pytest

from interpreter import load_game
from interpreter.engine import faults, game as game_module
from interpreter.engine.flow import quiet_exit
from rulespec.errors import RuleError, SpecErrors
from tests.engine.test_cache_equivalence import fault_both_ways

PYTHON_WORDS = re.compile(r"TypeError|KeyError|ValueError|IndexError|ZeroDivisionError|"
                          r"AttributeError|RecursionError|OverflowError|MemoryError|"
                          r"NoneType|object is not|unsupported operand|Traceback|'int'|'str'")

BASE = """
game: T
players: {min: 2, max: 2}
constants:
  prices: {corn: 2, wine: 3}
symbols: [corn, wine, salt]
globals:
  xs: {start: [1, 2, 3]}
  good: {start: salt}
  n: {start: 0}
  table: {start: {corn: 1}}
per_player:
  coins: {start: 3, min: 0}
zones:
  deck: {visibility: public}
  pile: {visibility: public}
cards:
  goods: {in: pile, attrs: {cost: 1}, list: [{name: grain, count: 2}]}
functions:
  forever: {params: [k], expr: "0 if k < 0 else forever(k + 1)"}     # a base case never met
"""


def _error(flow: str, extra: str = "", inject: dict | None = None) -> RuleError:
    """The error a flow stops with. `inject` puts values of a kind the checker
    would refuse into globals (as a hand-edited save could) while the flow waits
    at a first decision, so the fault is met at play whatever validate checks."""
    if inject:
        flow = "  k = choose one of [1, 2] by players[0]\n" + flow
    game = load_game("t.yaml", text=BASE + extra + "flow: |\n" + flow)
    with pytest.raises(RuleError) as caught:
        state = game.new_state(2, 0)
        state.g.update(inject or {})
        state.apply("1")
    error = caught.value
    assert not PYTHON_WORDS.search(error.message), error.message
    return error


# the example: a per-player variable with a minimum is given text
def test_a_bound_variable_given_text_is_refused_in_words_at_its_statement():
    error = _error("  for p in players:\n      p.coins = n\n", inject={"n": "two"})
    assert (error.line, error.col) == (24, 7)          # `p.coins = n`, not :1
    assert error.message == 'P1\'s coins would become "two" (text), but it holds numbers (its minimum 0) (in the flow)'


def test_a_bound_exceeded_names_the_variable_and_the_value():
    error = _error("  n = 1\n  players[0].coins -= 5\n")
    assert error.message == "P1's coins would become -2, below its minimum 0 (in the flow)"
    assert (error.line, error.col) == (23, 3)


def test_type_error_names_both_values_and_their_kinds():
    error = _error("  n = n + 1\n", inject={"n": "salt"})
    assert error.message == 'cannot add "salt" (text) and 1 (a number) (in the flow)'
    assert (error.line, error.col) == (23, 7)         # the sum, inside `n = n + 1`


def test_an_update_names_the_value_it_reads():
    error = _error("  n += 1\n", inject={"n": "salt"})
    assert error.message == 'cannot add "salt" (text) and 1 (a number) (in the flow)'
    assert (error.line, error.col) == (23, 3)


def test_compare_of_different_kinds_in_words():
    error = _error("  if n < 3:\n      n = 1\n", inject={"n": [1, 2, 3]})
    assert error.message == "cannot compare [1, 2, 3] (a list) with 3 (a number) using < (in the flow)"
    assert (error.line, error.col) == (23, 6)


def test_zero_division_error():
    error = _error("  n = 10 // count(deck)\n")
    assert error.message == "cannot divide 10 (a number) by zero (in the flow)"
    assert (error.line, error.col) == (22, 7)


def test_index_error():
    error = _error("  n = 1\n  n = xs[n + 4]\n")
    assert error.message == ("[1, 2, 3] (a list) has no item 5 (a number): it holds 3 "
                             "(the first is [0]) (in the flow)")
    assert (error.line, error.col) == (23, 7)


@pytest.mark.parametrize("flow, message, col", [
    ("  n = roll(10 // count(deck))\n", "cannot divide 10 (a number) by zero", 12),
    ("  log(xs[count(deck) + 5])\n", "[1, 2, 3] (a list) has no item 5 (a number): it holds 3 "
                                     "(the first is [0])", 7),
    ("  log(table[good])\n", "{corn: 1} (a map) has no key \"salt\" (text)", 7),
    ("  n = random_of([1, 10 // count(deck)])\n", "cannot divide 10 (a number) by zero", 21),
], ids=["roll", "log index", "log key", "random_of"])
def test_a_fault_in_an_effects_argument_is_said_at_the_argument(flow, message, col):
    # an effect is never run again to find a fault, and its whole statement was
    # passed over: Python's "division by zero" at the statement's start, or a key
    # named as if it were a local
    error = _error(flow)
    assert (error.message, error.line, error.col) == (message + " (in the flow)", 22, col)


def test_a_fault_in_the_effect_itself_is_said_at_its_statement():
    error = _error("  n = roll(0)\n")
    assert (error.line, error.col) == (22, 3)


def test_key_error_of_a_map():
    error = _error("  n = prices[good]\n")
    assert error.message == "{corn: 2, wine: 3} (a map) has no key \"salt\" (text) (in the flow)"


def test_a_local_set_on_one_path_only_is_refused_before_play():
    # play said "'k' has no value here" once it got there; validate says it now
    # (rulespec/definite.py; tests/language/test_definite_assignment.py)
    with pytest.raises(SpecErrors) as refused:
        _error("  if n > 0:\n      k = 1\n  n = k\n")
    (error,) = refused.value.errors
    assert error.message.startswith("'k' may have no value here: a path reaches this line without giving it one")
    assert (error.line, error.col) == (24, 7)


def test_key_error_of_a_local_set_on_one_path_only(unassigned_reads_allowed):
    error = _error("  if n > 0:\n      k = 1\n  n = k\n")
    assert error.message == "'k' has no value here: it is given one only on some paths before this line (in the flow)"
    assert (error.line, error.col) == (24, 7)


def test_a_none_where_a_card_was_needed():
    error = _error("  n = top(deck).cost\n")
    assert error.message == "none has no 'cost' (in the flow)"
    assert (error.line, error.col) == (22, 17)        # at `cost` in `n = top(deck).cost`


def test_recursion_error():
    error = _error("  n = forever(1)\n")
    assert "call each other too deeply" in error.message
    assert error.line == 22 and error.col > 1


def test_overflow_error():
    error = _error("  xs = range(100000000000000000000)\n")      # refused before it is built
    assert "over the limit of 1,000,000 (limits: size)" in error.message and error.line == 22


def test_an_attribute_error_of_a_builtin_names_the_call_and_its_values():
    error = _error("  n = get(table, corn)\n", inject={"table": [1, 2]})
    assert error.message == ('get([1, 2] (a list), "corn" (text)) cannot be done: a value of '
                             'the wrong kind for this operation (in the flow)')
    assert (error.line, error.col) == (23, 7)


def test_a_die_with_no_sides_is_refused_in_words():
    error = _error("  n = roll(n)\n")
    assert error.message == "roll(0): a die needs a whole number of sides, at least 1 (in the flow)"
    assert (error.line, error.col) == (22, 3)         # a roll is not evaluated again: the statement


def test_an_error_in_an_actions_when_is_located_there():
    spec = BASE + """actions:
  buy:
    for: c in pile
    when: "c.cost // n > 0"
    do: pass
  wait: {do: pass}
flow: |
  turn players[0]: buy, wait
"""
    game = load_game("t.yaml", text=spec)
    with pytest.raises(RuleError) as caught:
        game.new_state(2, 0)
    error = caught.value
    assert error.message == "cannot divide 1 (a number) by zero (in action buy)"
    assert (error.line, error.col) == (24, 12)      # the division, inside the quotes


def test_an_error_in_an_end_condition_is_located_there():
    spec = BASE + """end:
  broken: {when: "10 // count(deck) > 100"}
flow: |
  n = 1
  move(first(cards(pile)), deck)
  move(first(cards(pile)), pile)
  move(first(cards(deck)), pile)
"""
    game = load_game("t.yaml", text=spec)
    with pytest.raises(RuleError) as caught:
        game.new_state(2, 0)
    error = caught.value
    assert error.message == "cannot divide 10 (a number) by zero (in end condition broken)"
    assert error.line == 22 and error.col > 1


def test_an_error_in_a_triggers_when_is_located_there():
    spec = BASE + """signals: {ping: [who]}
triggers:
  listen:
    on: ping
    when: "xs[who] > 0"
    do: pass
flow: |
  signal ping(7)
"""
    game = load_game("t.yaml", text=spec)
    with pytest.raises(RuleError) as caught:
        game.new_state(2, 0)
    error = caught.value
    assert error.message.startswith("[1, 2, 3] (a list) has no item 7 (a number)")
    assert error.message.endswith("(in trigger listen)")
    assert (error.line, error.col) == (25, 12)


@pytest.mark.parametrize("rules, call, where", [
    ("procedures:\n  bump:\n    params: [k]\n    do: |\n", "bump(0)", "procedure bump"),
    ("signals: {ping: [k]}\ntriggers:\n  bump:\n    on: ping\n    do: |\n", "signal ping(0)", "trigger bump"),
])
def test_an_error_in_a_quiet_function_with_end_checks_is_located_there(rules, call, where, monkeypatch):
    """A quiet procedure or trigger that changes what an end condition reads runs
    wrapped (flow.quiet_exit); its error is still placed at its own statement,
    not at the statement that called it."""
    spec = (BASE + rules + "      n += 1\n      n += 10 // k\n"
            + "end:\n  enough: {when: \"n > 100\"}\nflow: |\n  " + call + "\n")
    wrapped = []
    monkeypatch.setattr(game_module, "quiet_exit", lambda fn, *a, **k: wrapped.append(fn) or quiet_exit(fn, *a, **k))
    game = load_game("t.yaml", text=spec)
    assert [fn.program for fn in wrapped] == [where.replace("procedure ", "proc:").replace(" ", ":")]
    with pytest.raises(RuleError) as caught:
        game.new_state(2, 0)
    error = caught.value
    assert error.message == f"cannot divide 10 (a number) by zero (in {where})"
    assert error.line == spec.splitlines().index("      n += 10 // k") + 1
    assert error.col == len("      n += 10 // k") - len("10 // k") + 1


def _quiet_cases() -> list:
    """Rules (pytest params) where `n += 10 // k` fails with k = 0: in a procedure, a trigger
    and an action, straight, in a loop or in a procedure they call, with and without
    an end condition reading n (which wraps quiet functions in flow.quiet_exit)."""
    fail = "n += 10 // k"
    inner = "  inner:\n    params: [k]\n    do: |\n      n += 1\n      " + fail + "\n"
    bodies = ["      n += 1\n      " + fail + "\n",
              "      for c in cards(pile):\n          n += 1\n          " + fail + "\n",
              "      if n >= 0:\n          inner(k)\n"]
    cases = []
    for end, (shape, body) in itertools.product(["", 'end:\n  enough: {when: "n > 100"}\n'],
                                                zip(["straight", "loop", "call"], bodies)):
        proc = "procedures:\n  bump:\n    params: [k]\n    do: |\n" + body + inner + end
        action = "procedures:\n" + inner + "actions:\n  bump:\n    do: |\n      k = ASK\n" + body + \
            "  wait: {do: pass}\n" + end + "flow: |\n  turn players[0]: bump, wait\n"
        named = {
            "procedure": proc + "flow: |\n  bump(0)\n",
            "procedure in a loop": proc + "flow: |\n  for p in players:\n      n += 1\n      bump(0)\n",
            "trigger": "signals: {ping: [k]}\nprocedures:\n" + inner + "triggers:\n  bump:\n    on: ping\n"
                       "    do: |\n" + body + end + "flow: |\n  signal ping(0)\n",
            "action": action.replace("ASK", "0"),
            "action that asks": action.replace("ASK", "choose one of [0] by player")}
        cases += [pytest.param(rules, id=f"{name}-{shape}-{'end' if end else 'no end'}")
                  for name, rules in named.items()]
    return cases


@pytest.mark.parametrize("rules", _quiet_cases())
def test_errors_are_the_same_with_and_without_quiet_functions(rules, monkeypatch):
    """With straight lines off (Game.straight) every procedure, trigger and action
    runs statement by statement: an error is said in the same words at the same
    place (FILE:LINE:COL) either way."""
    message = fault_both_ways(monkeypatch, BASE + rules, answers=2)
    assert "by zero" in message, message


@pytest.mark.parametrize("exc, words", [
    (TypeError("'<' not supported between instances of 'str' and 'int'"), "cannot compare text with a number using <"),
    (TypeError("unsupported operand type(s) for +: 'int' and 'NoneType'"), "cannot add a number and none"),
    (TypeError('can only concatenate str (not "int") to str'), "cannot add text and a number"),
    (TypeError("bad operand type for unary -: 'list'"), "cannot negate a list"),
    (TypeError("argument of type 'int' is not iterable"), "cannot look for a value in a number"),
    (TypeError("'NoneType' object is not iterable"), "none is not a list"),
    (TypeError("'NoneType' object is not subscriptable"), "none has no items to look up"),
    (TypeError("object of type 'int' has no len()"), "a number has no count"),
    (TypeError("unhashable type: 'list'"), "a list cannot be a map key"),
    (TypeError("something new"), "a value of the wrong kind"),
    (KeyError("wine"), "wine has no value here"),
    (IndexError("list index out of range"), "an item past the end of a list"),
    (ZeroDivisionError("integer division or modulo by zero"), "division by zero"),
    (ValueError("list.index(x): x not in list"), "the value is not in the list"),
    (ValueError("range() arg 3 must not be zero"), "a value outside what this operation accepts"),
    (AttributeError("'NoneType' object has no attribute 'get'"), "a value of the wrong kind"),
    (RecursionError("maximum recursion depth exceeded"), "call each other too deeply"),
    (OverflowError("Python int too large to convert to C ssize_t"), "a number too large"),
    (MemoryError(), "more memory than there is"),
    (RuntimeError("dictionary changed size during iteration"), "no words for"),
])
def test_every_python_exception_class_is_put_in_words(exc, words):
    text = faults.in_words(exc)
    assert words in text
    assert not PYTHON_WORDS.search(text)


@pytest.mark.parametrize("statement, message", [
    ("  draw(pile, deck, n - 1)\n", "cannot draw -1 cards: a draw is of 0 cards or more"),
    ("  x = choose n - 2 of xs by players[0]\n",
     "cannot choose -2 of a list: the count is a whole number, 0 or more"),
])
def test_a_negative_count_is_refused_where_it_asked_nothing(statement, message):
    # range(-1) drew none and a negative count chose none, silently
    error = _error(statement)
    assert error.message == f"{message} (in the flow)" and error.line == 22


def test_an_empty_choose_number_range_names_the_range():
    # the decision said only "there is nothing to choose from"
    error = _error("  n = choose number from 5 to n + 2 by players[0]\n")
    assert error.message == "choose number from 5 to 2: the range is empty (in the flow)"
    assert (error.line, error.col) == (22, 3)
    assert error.format().startswith("t.yaml:22:3: error: choose number from 5 to 2")


def test_choose_n_of_fewer_options_takes_them_all():
    # documented in docs/spec-format.md: the list is shorter than n, and no error
    game = load_game("t.yaml", text=BASE + "flow: |\n  xs = choose 3 of [1, 2] by players[0]\n"
                                          '  end game "done"\n')
    state = game.new_state(2, 0)
    state.apply("2")    # then 1, then done: each the only option, taken at once
    assert state.is_terminal() and state.g["xs"] == [2, 1]
