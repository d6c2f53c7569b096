"""Immediate end conditions are checked exactly after the statements that can change what they read."""
from interpreter import load_game
from rulespec import effects
from rulespec.dsl import parse_expression, parse_statements

SPEC = """
game: T
players: {min: 2, max: 2}
globals:
  score: {start: 0}
  other: {start: 0}
per_player:
  gold: {start: 0}
zones:
  deck: {visibility: hidden}
  pile: {visibility: public}
cards:
  c: {in: deck, list: [{name: a, count: 3}]}
procedures:
  bump:
    params: [p]
    do: |
      p.gold += 2
      other += 1
flow: |
  other += 1
  bump(players[0])
  bump(players[0])
  other += 5
end:
  rich: {when: "players[0].gold >= 4"}
  pile full: {when: "count(pile) >= 3"}
"""


def test_the_end_fires_right_after_the_write_that_makes_it_true():
    game = load_game("t.yaml", text=SPEC)
    state = game.new_state(2, 0)
    assert state.ended_by == "rich"
    assert state.g["other"] == 2         # the second bump's `other += 1` never ran


def test_only_writing_statements_carry_checks():
    game = load_game("t.yaml", text=SPEC)
    flow = game.programs["flow"]
    assert [len(c) for c in flow.end_checks] == [0, 0, 0, 0]     # `other` and calls: nothing to check
    bump = game.programs["proc:bump"]
    assert [[n for n, _ in c] for c in bump.end_checks] == [["rich"], []]


def test_reads_and_writes_are_found_from_the_tree():
    game = load_game("t.yaml", text=SPEC)
    names = game.names
    assert effects.reads(parse_expression("count(pile) + score"), names) == {effects.ZONES, ("g", "score")}
    assert effects.reads(parse_expression("players[0].gold"), names) == {("pv", "gold")}
    move = parse_statements("move(top(deck), pile)").body[0]
    assert effects.writes(move, names, set()) == {effects.ZONES}
    local = parse_statements("x = score").body[0]
    assert effects.writes(local, names, {"x"}) == frozenset()
