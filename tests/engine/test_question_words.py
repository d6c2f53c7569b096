"""A decision's question fills {player} (the deciding seat, by name) and every name
validate accepts in it: locals, globals, constants (interpreter/tools/present.py)."""
from __future__ import annotations

from interpreter import load_game
from interpreter.tools.present import Presentation

QUESTIONS = """game: Q
players: {min: 2, max: 2}
constants:
  goal: 7
globals:
  n: {start: 3}
flow: |
  for p in players:
      turn p as "{player}, your move ({p}; n is {n}, goal {goal})": go, stay
  end game "done"
actions:
  go:
    do: pass
  stay:
    do: |
      x = choose one of [1, 2] by player as "{player} picks, n is {n}"
      n += x
"""


def test_a_question_shows_player_by_name_and_globals_and_constants_in_every_context():
    game = load_game("q.yaml", text=QUESTIONS)
    state, words = game.new_state(2, 1), Presentation(game)
    assert words.prompt(state) == "P1, your move (P1; n is 3, goal 7)"   # was "0, your move"
    state.apply("stay")
    assert words.prompt(state) == "P1 picks, n is 3"     # inside an action
    state.apply("2")
    assert words.prompt(state) == "P2, your move (P2; n is 5, goal 7)"
