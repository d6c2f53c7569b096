"""A quiet function's locals read from Python locals (compile.py `quiet_locals`):
each store is written to env too, and a local is read from its Python local only
where every path there stored it through the function's own lines; a store that
only env sees (a decision's answer, an item stored by closures) sends its reads
back to env. The same games, saves at every decision, and errors in the same words
at the same place with the switch on and off."""
import random
import re

import pytest

from interpreter.engine.compile import Compiler
from interpreter.engine.game import load_game
from tests.playout import every_state
from tests.generated import generated_sources
from tests.shipped import specs_and_variants
from tests.switches import fault_words, on_and_off

# specs that read a local where it may have no value, on purpose (conftest.py)
pytestmark = pytest.mark.usefixtures("unassigned_reads_allowed")

DECISIONS = 600     # per game: past set-up and into the play of every shipped game


def cases() -> list:
    return [pytest.param(str(path), variant, counts, id=f"{path.stem}-{variant or 'base'}")
            for path, variant, counts in specs_and_variants()]


def saves(game, players, seed) -> list:
    """The save at every decision of a random game (the first DECISIONS), and the last."""
    st, rng, out = game.new_state(players, seed), random.Random(seed), []
    while not st.is_terminal() and len(out) < DECISIONS:
        options = st.legal_actions()
        out.append(st.to_json(spec=False))
        st.apply(options[rng.randrange(len(options))])
    return out + [st.to_json(spec=False)]


@pytest.mark.parametrize("spec,variant,counts", cases())
def test_shipped_games_are_the_same_with_and_without_python_locals(spec, variant, counts, monkeypatch):
    on, off = on_and_off(monkeypatch, Compiler, "quiet_locals", spec, variant=variant)
    for players in counts:
        for seed in range(2):
            assert saves(on, players, seed) == saves(off, players, seed), (players, seed)


LOCALS_SPEC = '''game: Locals
players: {min: 2, max: 2}
globals:
  total: {start: 0}
  log: {start: []}
per_player:
  coins: {start: 0}
cards:
  token:
    in: pile
    attrs: {value: 2}
    list: [{name: t1}, {name: t2, value: 3}]
zones:
  pile: {visibility: public}
functions:
  twice: {params: [x], expr: "x + x"}
  deep: {params: [n], expr: "0 if n == 0 else 1 + deep(n - 1)"}
procedures:
  closures:
    params: [p, n]
    do: |
      grid = [[0, 0], [n, 0]]
      grid[0][1] = n + 1
      total += grid[0][1]
      best = max(n, grid[0][1], by=0 - it)
      total += best
      grid[1][0] = 7
      log = append(log, grid[1][0])
  answered:
    params: [p]
    do: |
      got = 1
      got = choose one of [5] by p
      total += got
      got = got + 1
      for k in [1, 2]:
          total += got
          got = choose one of [k * 10] by p
      total += got
      got = got + 1
      left = 2
      while left > 0 and got > 3:
          total += got
          got = choose one of [left - 1] by p
          left -= 1
      total += got
  asks:
    params: [p, n]
    do: |
      a = n
      b = twice(a)
      for k in [1, 2] where k != b:
          c = a + k
          pick = choose one of [c, c + 1] by p
          p.coins += pick
          a = c
      total += a + b
  loops:
    params: [n]
    do: |
      for i in range(n):
          for j in range(i):
              i = i + j
              total += i
          total += i
      k = n
      for k in [k + 1, k + 2]:
          total += k
      total += k
      xs = [k for k in [1, 2, 3] if k > n]
      total += count(xs) + k
      if n > 1:
          fresh = n
      else:
          fresh = 0 - n
      total += fresh
  shadows:
    params: [p, n]
    do: |
      n = n + 1
      p.coins += n
      for p in players:
          p.coins += twice(n)
      total += [n for n in [n, 2 * n]][1]
  faulty:
    params: [n]
    do: |
      if n > 2:
          late = 1
      total += late + roll(1) + 10 // (n - 3)
  faulty_loop:
    params: [n]
    do: |
      for k in range(n):
          early = k
      total += early
  tally:
    params: [c, n]
    do: |
      for k in range(n):
          total += c.value + k + roll(1)
      if c.value > 2:
          total += c.value
  recurse:
    params: [n]
    do: |
      depth = n
      total += deep(depth)
  gives:
    params: [n]
    do: |
      if n > 1:
          return n
  stale:
    params: [n]
    do: |
      gives(n + 5)
      got = gives(0)
      total += 1 if got == none else got
  fresh:
    params: [n]
    do: |
      got = gives(n)
      total += 1 if got == none else got
  divides:
    params: [n]
    do: |
      m = twice(n)
      for k in range(3):
          total += (m + k) // (n - k)
flow: |
  while total < 3000:
      for p in players:
          closures(p, total % 3)
          answered(p)
          loops(total % 4)
          shadows(p, total % 5)
          asks(p, total % 3)
          tally(top(pile), total % 3)
          CALL
scoring:
  score: "p.coins"
'''


def locals_games(monkeypatch, call="pass"):
    return on_and_off(monkeypatch, Compiler, "quiet_locals", "locals.yaml",
                      text=LOCALS_SPEC.replace("CALL", call))


def test_closures_decisions_loops_and_shadowing_read_what_env_holds(monkeypatch):
    """An item stored by closures, a closure reading locals, a decision answered at
    once (one option) into a local read after it, in a loop and in a while's test,
    nested loops that change their variable, a variable read after its loop,
    comprehension variables and parameters shadowing locals, and a procedure that
    stops at decisions with locals in env and a loop's place (its saves): the same
    as with env alone."""
    on, off = locals_games(monkeypatch)
    for seed in range(3):
        ours = every_state(on, seed)
        assert ours == every_state(off, seed)
        assert '"proc:asks"' in ours[0]     # saved where `asks` stopped
    st = on.new_state(2, 0)
    while not st.is_terminal():
        st.apply(0)
    final = st.to_json(spec=False)
    assert '"log":[7' in final.replace(" ", "")


@pytest.mark.parametrize("call,words", [
    ("faulty(total % 3)", "has no value here"),     # `late` never given a value
    ("faulty(3)", "by zero"),
    ("faulty_loop(0)", "has no value here"),
    ("recurse(100000)", "too deeply"),
    ("tally(total % 2, 2)", "locals.yaml:"),     # a number where tally's body is written for a card
])
def test_an_error_in_a_quiet_procedure_is_said_and_placed_alike(call, words, monkeypatch):
    on, off = locals_games(monkeypatch, call)
    message = fault_words(on)
    assert message == fault_words(off)
    assert words in message and "locals.yaml:" in message, message


def test_reads_come_from_python_locals():
    """The switch does something: parameters (Python arguments) and a loop's variable
    are Python locals in the generated function, while a local an answer was stored
    into is read from env after it."""
    sources = sources_of(LOCALS_SPEC.replace("CALL", "pass"))
    asks = sources["<rulespec proc:asks>"]
    define, entry = asks.splitlines()[:2]     # parameters as Python arguments, env made of them
    p, n = re.fullmatch(r"def _quiet\d+\(st, secret, inside, (_a\d+), (_a\d+)\):", define).groups()
    assert entry == f"    env = {{'p': {p}, 'n': {n}}}"
    tally = sources["<rulespec proc:tally>"].splitlines()
    c = re.search(r"inside, (_a\d+),", tally[0])[1]     # c, its first parameter
    guard = tally.index(f"    if {c}.__class__ is str and {c} in _CARDS:")
    fast = tally[guard + 1:tally.index("        return " + tally[-1].split()[-1])]
    assert fast and not any(f"{c}.__class__" in line for line in fast)      # c proven a card there
    assert any(f"{c}.__class__" in line for line in tally[guard + len(fast):])  # tested in the general lines
    answered = sources["<rulespec proc:answered>"]
    assert answered.count("env[") > answered.count("= env[")     # `got` read from env after answers


def sources_of(text) -> dict:
    """The generated text of each quiet function of spec `text`: {"<rulespec proc:NAME>": text}."""
    return generated_sources(text, "locals.yaml")


def test_functions_that_never_stop_have_no_env():
    """A procedure that cannot stop at a decision, reads every local where it has a
    value and makes no closure is written without env (env_free); one that asks,
    reads a local that may have no value, stores an item by closures or may find a
    procedure's value left in env by an earlier call is written with it."""
    sources = sources_of(LOCALS_SPEC.replace("CALL", "pass"))
    free = {"divides", "fresh", "tally", "recurse", "loops", "shadows", "gives"}
    for name in free:
        assert "env" not in sources[f"<rulespec proc:{name}>"], name
    for name in ("asks", "answered", "faulty", "faulty_loop", "stale"):
        assert "env = {" in sources[f"<rulespec proc:{name}>"], name


def free_games(monkeypatch, call):
    return on_and_off(monkeypatch, Compiler, "env_free", "locals.yaml",
                      text=LOCALS_SPEC.replace("CALL", call))


@pytest.mark.parametrize("call", ["stale(total % 3)", "fresh(total % 3)", "divides(total % 2 + 5)"])
def test_functions_without_env_play_alike(call, monkeypatch):
    """The same saves at every decision with functions written without env and with:
    a value a procedure left for a later `x = procedure(...)` (stale) too."""
    on, off = free_games(monkeypatch, call)
    for seed in range(2):
        assert every_state(on, seed) == every_state(off, seed)


@pytest.mark.parametrize("call,words", [
    ("divides(1)", "cannot divide 3 (a number) by zero"),     # m + k: 2 + 1, the locals' values
    ("tally(total % 2, 2)", "locals.yaml:"),
])
def test_an_error_without_env_is_said_alike(call, words, monkeypatch):
    """An error in a function without env is said in the same words at the same place
    as with env: the error path makes its env of the Python locals that have a value."""
    on, off = free_games(monkeypatch, call)
    message = fault_words(on)
    assert message == fault_words(off) == fault_words(locals_games(monkeypatch, call)[1])
    assert words in message, message


@pytest.mark.parametrize("spec,variant,counts", cases())
def test_shipped_games_are_the_same_with_and_without_env(spec, variant, counts, monkeypatch):
    on, off = on_and_off(monkeypatch, Compiler, "env_free", spec, variant=variant)
    for players in counts[:1]:
        assert saves(on, players, 0) == saves(off, players, 0), players
