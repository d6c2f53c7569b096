"""`x = choose one of ... by p` where x and p are locals: the sampled form
(compile.py's choose_one, decide_local) reads p and stores x in the frame's env
itself, without the expression's and the setter's calls: the same game as the
per-statement forms (Game.straight off) at every decision and its save loaded and
answered, and a p with no value refused in the same words at the same place."""
import pytest

from interpreter.engine.game import Game, load_game
from rulespec.errors import RulespecError
from tests.playout import every_state

# specs that read a local where it may have no value, on purpose (conftest.py)
pytestmark = pytest.mark.usefixtures("unassigned_reads_allowed")

SPEC = """
game: Pick
players: {min: 2, max: 2}
globals:
  round: {start: 0}
  total: {start: 0}
flow: |
  while round < 6:
      round += 1
      for p in players:
          if round WHEN:
              q = p
          x = choose one of [1, 2, round] by q
          total += x
          y = choose one of [x, 7] by first(players)
          total += y
"""


def both(monkeypatch, when: str) -> list:
    games = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        games.append(load_game("pick.yaml", text=SPEC.replace("WHEN", when)))
    monkeypatch.undo()
    return games


def test_a_choice_by_a_local_into_a_local_is_the_same_game(monkeypatch):
    fast, slow = both(monkeypatch, "< 4")
    names = [getattr(f, "__name__", "") for f in fast.programs["flow"].code]
    # by a local into a local: read and stored here; by an expression: as before
    assert names.count("decide_local") == 1 and names.count("decide") == 1
    assert "decide_local" not in [getattr(f, "__name__", "") for f in slow.programs["flow"].code]
    for seed in range(4):
        assert every_state(fast, seed) == every_state(slow, seed)


def test_a_chooser_with_no_value_is_refused_in_the_same_words(monkeypatch):
    said = []
    for game in both(monkeypatch, "> 4"):
        with pytest.raises(RulespecError) as caught:
            game.new_state(2, 0)
        said.append(str(caught.value))
    assert said[0] == said[1]
    assert "pick.yaml:13:" in said[0] and "'q' has no value here" in said[0]
