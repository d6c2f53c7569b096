"""A sampled `turn` that finds one legal option takes it in the same call
(compile.py's _turn_form, Compiler.one_option_here), where the run loop would
run the turn again with it next: the same game as with the switch off, at every
decision and its save loaded and answered. It does so only where no end
condition is checked after the turn, and not inside a quiet function (a turn in
a procedure an action calls: there the action's frame is not on the stack, and
its end checks wait for the action's end)."""
import json
import random

import pytest

import interpreter.engine.compile as compile_module
from interpreter.engine.compile import Compiler
from tests.playout import every_state
from tests.shipped import shipped_specs
from tests.switches import on_and_off

SPEC = """
game: One Way
players: {min: 2, max: 2}
globals:
  round: {start: 0}
per_player:
  gold: {start: 0}
  moves: {start: 0}
flow: |
  while round < 30:
      round += 1
      for p in players:
          p.moves = 0
          turn p until done: dig, rest, trade
          turn p: mine, nap
          offer(p)
procedures:
  offer:
    params: [q]
    do: |
      turn q: bonus, nap
actions:
  dig:
    when: player.moves < 3
    do: |
      player.gold += 1
      player.moves += 1
  rest:
    when: player.moves < 2
    do: |
      player.moves += 1
  trade:
    when: player.moves == 1 and round % 2 == 0
    do: |
      player.moves += 1
      offer(player)
      player.moves += 5
  bonus:
    when: round % 5 == 0
    do: |
      player.gold += 3
  mine:
    when: round % 3 != 0
    do: |
      player.gold += 1
  nap:
    when: round % 4 == 0
    do: |
      player.moves += 1
END
"""
# checked where an action (or the turn) ends: not after every instruction
RICH = 'end:\n  rich:\n    when: "max([p.gold for p in players]) >= 40"'
# reads current_phase (effects.reads: None): checked after every instruction
EVERY = 'end:\n  rich:\n    when: "max([p.gold for p in players]) >= 40 and current_phase == current_phase"'


def one_option_asks(game, seeds, monkeypatch) -> dict:
    """{program key: how often flow.ask is given a turn's one option there} in
    random games of `game`."""
    seen = {}
    ask = compile_module.ask

    def counting(st, fr, player, values, *args, **kwargs):
        if len(values) == 1 and args[1:2] == ("action",):
            seen[fr.proc] = seen.get(fr.proc, 0) + 1
        return ask(st, fr, player, values, *args, **kwargs)
    monkeypatch.setattr(compile_module, "ask", counting)
    for seed in seeds:
        st, rng = game.new_state(2, seed), random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.randrange(len(st.legal_actions())))
    monkeypatch.undo()
    return seen


@pytest.mark.parametrize("end", ["", RICH, EVERY], ids=["no end", "end at boundaries", "end after each"])
def test_one_option_taken_here_is_the_same_game(end, monkeypatch):
    on, off = on_and_off(monkeypatch, Compiler, "one_option_here", "one.yaml", text=SPEC.replace("END", end))
    for seed in range(6):
        saves = every_state(on, seed)
        assert saves == every_state(off, seed)
    ends = {json.loads(every_state(on, seed)[-1])["ended_by"] for seed in range(6)}
    assert ends == ({"rich"} if end else {"the flow ended"})
    taken, asked = one_option_asks(on, range(6), monkeypatch), one_option_asks(off, range(6), monkeypatch)
    assert asked["flow"] > 0 and asked["proc:offer"] > 0
    # the flow's turns take it here unless an end condition is checked after them
    assert taken.get("flow", 0) == (asked["flow"] if end == EVERY else 0)
    if end == EVERY:    # offer runs as frames, on the stack: its turn takes it here
        assert taken["proc:offer"] < asked["proc:offer"]
    else:   # offer runs as a quiet function (called by the flow and by `trade`'s):
        # its turn stands in a new frame, off the stack, and asks
        assert taken["proc:offer"] == asked["proc:offer"]


@pytest.mark.parametrize("spec", shipped_specs()[:3], ids=lambda p: p.stem)
def test_shipped_games_are_the_same_with_one_option_taken_here(spec, monkeypatch):
    on, off = on_and_off(monkeypatch, Compiler, "one_option_here", str(spec))
    for seed in range(2):
        assert every_state(on, seed) == every_state(off, seed)
