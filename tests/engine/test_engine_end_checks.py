"""Immediate end conditions are checked at rule boundaries (after each statement
of the flow or a phase, when a procedure, action or trigger finishes outside any
action), and only when the block may have changed what they read."""
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


def test_the_end_fires_when_the_procedure_that_makes_it_true_is_over():
    game = load_game("t.yaml", text=SPEC)
    state = game.new_state(2, 0)
    assert state.ended_by == "rich"
    assert state.g["other"] == 3         # the second bump ran to its end; `other += 5` never ran


def test_only_writing_blocks_carry_checks():
    game = load_game("t.yaml", text=SPEC)
    flow = game.programs["flow"]
    assert [len(c) for c in flow.end_checks] == [0, 0, 0, 0]     # `other` and calls: nothing to check
    bump = game.programs["proc:bump"]
    assert [len(c) for c in bump.end_checks] == [0, 0]          # not between its statements
    assert [n for n, _ in bump.exit_checks] == ["rich"]


def test_reads_and_writes_are_found_from_the_tree():
    game = load_game("t.yaml", text=SPEC)
    names = game.names
    assert effects.reads(parse_expression("count(pile) + score"), names) == {effects.ZONES, ("g", "score")}
    assert effects.reads(parse_expression("players[0].gold"), names) == {("pv", "gold")}
    move = parse_statements("move(top(deck), pile)").body[0]
    assert effects.writes(move, names, set()) == {effects.ZONES}
    local = parse_statements("x = score").body[0]
    assert effects.writes(local, names, {"x"}) == frozenset()


# The example: an action that moves a card to the market and then takes
# another must run to its end before the game ends ("not between two statements
# of one effect"), and the game still ends before the next player acts.
ACTION_SPEC = """
game: T
players: {min: 2, max: 2}
globals:
  turns: {start: 0}
  heard: {start: 0}
zones:
  deck: {visibility: public}
  market: {visibility: public}
player_zones:
  hand: {visibility: public}
cards:
  c: {in: deck, list: [{name: a, count: 6}]}
signals: {traded: [who]}
procedures:
  take_one:
    params: [p]
    do: |
      draw(market, p.hand, 1)
actions:
  rest: {do: pass}
  trade:
    do: |
      draw(deck, market, 2)
      signal traded(player)
      take_one(player)
triggers:
  listen:
    on: traded
    do: "heard += 1"
flow: |
  while true:
      for p in players:
          turns += 1
          turn p: trade, rest
end:
  market filling: {when: "count(market) >= 2"}
"""


def test_an_action_runs_to_its_end_before_the_game_ends():
    game = load_game("t.yaml", text=ACTION_SPEC)
    state = game.new_state(2, 0)
    state.apply("trade")
    # the market reached 2 mid-action; the trigger and the take still happened
    assert state.ended_by is None and not state.is_terminal()
    assert len(state.zones["market"]) == 1 and state.g["heard"] == 1
    assert len(state.zones["hand@0"]) == 1
    assert state.current_player() == 1 and state.g["turns"] == 2


def test_the_game_ends_at_once_when_the_action_that_makes_it_true_is_over():
    game = load_game("t.yaml", text=ACTION_SPEC)
    state = game.new_state(2, 0)
    state.apply("trade")     # market 1 after P1's action
    state.apply("trade")     # market 3 - 1 = 2 at the end of P2's action: over
    assert state.ended_by == "market filling"
    assert state.g["turns"] == 2          # P1 was not given another turn
    assert len(state.zones["hand@1"]) == 1


def test_a_trigger_inside_an_action_is_part_of_it():
    game = load_game("t.yaml", text=ACTION_SPEC)
    assert game.programs["trigger:listen"].exit_checks == ()     # it writes nothing read
    assert [n for n, _ in game.programs["action:trade"].exit_checks] == ["market filling"]
    assert all(c == () for c in game.programs["action:trade"].end_checks)
