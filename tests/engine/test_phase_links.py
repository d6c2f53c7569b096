"""A sampled `phase` statement pushes its phase's frame and runs the phase's first
instruction in the same call (compile.py's _phase_link, Compiler.phase_links),
where the run loop would run it next with nothing checked between: the same game
as with the switch off, at every decision and its save loaded and answered; an
error in that first instruction said in the same words at the same place as the
per-statement run says it; and a phase that enters itself before asking anything
stopped by the step budget, not by Python's recursion limit."""
import json

import pytest

from interpreter.engine.compile import Compiler
from interpreter.engine.game import load_game
from rulespec.errors import RulespecError
from tests.playout import every_state
from tests.shipped import shipped_specs
from tests.switches import on_and_off

SPEC = """
game: Phases
players: {min: 2, max: 2}
globals:
  round: {start: 0}
  bank: {start: 0}
per_player:
  gold: {start: 0}
flow: |
  while round < 12:
      round += 1
      phase income
      phase market
      phase tally
phases:
  income:
    do: |
      for p in players:
          p.gold += 1
  inner:
    do: |
      bank += round % 3
  market:
    do: |
      for p in players:
          turn p: buy, sell, wait
      phase inner
  tally:
    do: |
      if bank > 1000 // (BAD - round):
          bank = bank - 1
      k = choose one of [1, 2] by first(players)
      bank += k
actions:
  buy:
    do: |
      player.gold += 2
  sell:
    when: player.gold > 2
    do: |
      player.gold -= 2
      bank += 1
  wait:
    do: |
      pass
END
"""
# reads current_phase (effects.reads: None): checked after every instruction, so no link
EVERY = 'end:\n  rich:\n    when: "bank >= 60 and current_phase == current_phase"'
RICH = 'end:\n  rich:\n    when: "bank >= 60"'


def linked(game) -> list:
    """The flow's instructions whose form in use is a linked phase entry."""
    return [pc for pc, f in enumerate(game.programs["flow"].fast) if f.__name__ == "enter_on"]


@pytest.mark.parametrize("end", ["", RICH, EVERY], ids=["no end", "end at boundaries", "end after each"])
def test_a_linked_phase_entry_is_the_same_game(end, monkeypatch):
    text = SPEC.replace("BAD", "100").replace("END", end)
    on, off = on_and_off(monkeypatch, Compiler, "phase_links", "phases.yaml", text=text)
    for seed in range(6):
        assert every_state(on, seed) == every_state(off, seed)
    ends = {json.loads(every_state(on, seed)[-1])["ended_by"] for seed in range(6)}
    assert ends <= ({"rich", "the flow ended"} if end else {"the flow ended"})
    assert not linked(off)
    # linked where nothing is checked after the statement or the phase's first one;
    # a phase's own `phase` statement too, where the phase it enters is finished
    # first (declared before it) and its first statement writes nothing checked
    assert len(linked(on)) == (0 if end == EVERY else 3)
    assert (on.programs["phase:market"].fast[-1].__name__ == "enter_on") is (end == "")


@pytest.mark.parametrize("spec", shipped_specs()[:3], ids=lambda p: p.stem)
def test_shipped_games_are_the_same_with_phase_entries_linked(spec, monkeypatch):
    on, off = on_and_off(monkeypatch, Compiler, "phase_links", str(spec))
    assert linked(on) and not linked(off)
    for seed in range(2):
        assert every_state(on, seed) == every_state(off, seed)


def _error(game, trace=None) -> str:
    st = game.new_state(2, 0, trace=trace)
    with pytest.raises(RulespecError) as caught:
        while not st.is_terminal():
            st.apply(0)
    return str(caught.value)


def test_an_error_in_a_linked_phase_first_statement_is_said_where_it_is(monkeypatch):
    """`1000 // (3 - round)` fails in tally's first statement, run by the flow's linked entry:
    the same words and FILE:LINE:COL (with the phase's locals) as with the switch
    off and as a traced game says them."""
    text = SPEC.replace("BAD", "3").replace("END", "")
    on, off = on_and_off(monkeypatch, Compiler, "phase_links", "phases.yaml", text=text)
    assert linked(on)
    said = _error(on)
    assert said == _error(off) == _error(on, trace=lambda *a, **k: None)
    assert "phases.yaml:" in said and "phase tally" in said


SELF_SPEC = """
game: Again
players: {min: 2, max: 2}
limits: {steps: 5000}
globals:
  n: {start: 0}
flow: |
  phase again
phases:
  again:
    do: |
      phase again
      n += 1
"""


def test_a_phase_that_enters_itself_is_stopped_by_the_step_budget(monkeypatch):
    """Its own entry is linked no further (its program is not finished when its
    statement's form is chosen): the step budget stops it, in the same words."""
    on, off = on_and_off(monkeypatch, Compiler, "phase_links", "again.yaml", text=SELF_SPEC)
    said = []
    for game in (on, off):
        with pytest.raises(RulespecError, match=r"ran 5,000 steps without asking anyone anything") as caught:
            game.new_state(2, 0)
        said.append(str(caught.value))
    assert said[0] == said[1]
    assert not [f for f in on.programs["phase:again"].fast if f.__name__ == "enter_on"]
