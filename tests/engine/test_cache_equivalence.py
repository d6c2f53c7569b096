"""What the engine does to go faster never changes a game: the same games played
with and without it give the same decisions, options, labels and states.

Switches compared here (used by nothing but this test):
- `Game.straight`: the sampled run's fast forms (Program.finish): a `for` loop's
  instructions fused, statements in a row run as one generated function
  (compile.py's straight lines), and quiet procedures called as functions, frames
  made only where one stops at a decision; instead of one instruction per statement.
- the hex-layout caches (boards.py), emptied before every game of the run
  without them, so every layout is built afresh.
"""
import json
import random

import pytest

from interpreter.engine import boards
from interpreter.engine.flow import Frame
from interpreter.engine.game import Action, Game, load_game
from tests.paths import ROOT, TESTS
from tests.playout import every_state
from tests.shipped import shipped

SPECS = [str(ROOT / "games" / f"{g}.yaml") for g in ("castles", "siena", "zena")] + [
    str(TESTS / "games" / "market.yaml")]
SEEDS = range(4)


def transcript(game, players, seed, fresh_layouts=False) -> list:
    """Everything observable of a random game: at each decision its player, kind and
    labels; a clone's and a saved copy's next decision, every fifth one; the end."""
    if fresh_layouts:
        boards._layout_boards.clear()
        boards._boards_by_content.clear()
        boards._footprints.clear()
        boards._placed.clear()
        boards._parts.clear()
    st, rng, out = game.new_state(players, seed), random.Random(seed), []
    while not st.is_terminal():
        options = st.legal_actions()
        out.append((st.pending.player, st.pending.kind, [o.label for o in options]))
        choice = rng.randrange(len(options))
        if len(out) % 5 == 0:
            out.append(("state", st.to_json(spec=False)))   # the frames too: pcs and env
            for copy in (st.clone(), game.state_from_json(st.to_json())):
                copy.apply(choice)
                out.append(("copy", copy.to_json(spec=False)))
        st.apply(choice)
    out.append(("end", st.to_json(spec=False), st.scores(), st.winner()))
    return out


def load_both(spec, monkeypatch, variant=None):
    fast = shipped(spec, variant=variant)
    monkeypatch.setattr(Game, "straight", False)
    slow = load_game(spec, variant=variant)
    monkeypatch.undo()
    return fast, slow


@pytest.mark.parametrize("spec", SPECS + [(SPECS[2], "advanced")],
                         ids=lambda p: p[1] if isinstance(p, tuple) else p.rsplit("/", 1)[-1][:-5])
def test_straight_lines_and_layout_caches_change_no_game(spec, monkeypatch):
    spec, variant = spec if isinstance(spec, tuple) else (spec, None)
    fast, slow = load_both(spec, monkeypatch, variant)
    assert any(p.fast is not p.code and p.fast != p.code for p in fast.programs.values())
    assert all(p.fast == p.code for p in slow.programs.values())
    for seed in SEEDS:
        players = (fast.min_players + seed) % (fast.max_players - fast.min_players + 1) + fast.min_players
        assert transcript(fast, players, seed) == transcript(slow, players, seed, fresh_layouts=True)


def fault_both_ways(monkeypatch, spec, answers=0, fast_flow=False) -> str:
    """The error a faulty spec ("faulty.yaml") raises with straight lines on and off,
    after `answers` times option 0: asserted the same both ways, and returned.
    fast_flow: also assert the flow got a straight function exactly when on."""
    messages = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        game = load_game("faulty.yaml", text=spec)
        if fast_flow:
            assert (game.programs["flow"].fast != game.programs["flow"].code) == switch
        with pytest.raises(Exception) as caught:
            st = game.new_state(2, 0)
            for _ in range(answers):
                st.apply(0)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    return messages[0]


def test_a_fault_inside_a_straight_block_is_placed_at_its_statement(monkeypatch):
    spec = '''game: Faulty
players: {min: 2, max: 2}
globals:
  total: {start: 0}
  xs: {start: [1, 2, 0]}
flow: |
  for x in xs:
      if x > 0:
          total += 1
      else:
          total += 10 // x
scoring:
  score: "total"
'''
    message = fault_both_ways(monkeypatch, spec)
    assert "faulty.yaml:11:" in message, message


QUIET_SPEC = '''game: Quiet
players: {min: 2, max: 2}
constants:
  extra: false
globals:
  total: {start: 0}
  last: {start: 0, type: number or none}    # bump() gives none below 6 coins
per_player:
  coins: {start: 0}
procedures:
  bump:
    params: [p, n]
    do: |
      p.coins += n
      if extra:
          choose by p as "Extra?":
              "yes":
                  p.coins += 1
              "no":
                  pass
      total += 1
      if p.coins > 5:
          return p.coins
  pick:
    params: [p]
    do: |
      for k in [1, 2] where k > 0:
          got = choose one of [0, 1, 2] by p
          p.coins += got
      choose by p as "More?":
          "one more":
              p.coins += 1
          "none" if p.coins > 3:
              pass
      return got
  pay_all:
    params: [n]
    do: |
      for p in players:
          last = bump(p, n)
          bump(p, 1)
          if n > 1:
              got = pick(p)
          held = last
      left = 3
      while left > 0:
          left -= 1
flow: |
  while total < 100:
      for p in players:
          n = choose one of [1, 2, 3] by p
          pay_all(n)
          turn p: boost, rest
actions:
  boost:
    for: k in [1, 2]
    do: |
      got = pick(player)
      player.coins += k
  rest:
    do: |
      pass
end:
  rich: {when: "total >= 30"}
scoring:
  score: "p.coins"
'''


def test_quiet_procedures_run_as_functions_and_change_no_game(monkeypatch, unassigned_reads_allowed):
    """A procedure that starts no rule (a `choose` under an `if` on a false constant
    does not count) runs as one function called straight from its caller: the same
    games, return values (and the caller's "$ret" a call as a statement leaves), the
    same end, reached inside it, as frame by frame; a quiet action runs as one from
    its `turn`. One that stops at a decision leaves the frames the per-statement run
    would (pcs, locals, a loop's place), so a save there is the same and goes on the
    same."""
    games = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        games.append(load_game("quiet.yaml", text=QUIET_SPEC))
    fast, slow = games
    assert fast.programs["proc:pay_all"].fast[0] is not fast.programs["proc:pay_all"].code[0]
    assert fast.programs["flow"].fast != fast.programs["flow"].code   # the turn runs boost
    for seed in range(6):
        ours = transcript(fast, 2, seed)
        assert ours == transcript(slow, 2, seed)
        assert '"ended_by":"rich"' in ours[-1][1]
        states = every_state(fast, seed)
        assert states == every_state(slow, seed)
        assert any('"proc:pick"' in state for state in states)   # saved inside pick's loop
        assert any('"action:boost"' in state for state in states)   # and in an action's


SECRET_SPEC = '''game: Secret rounds
players: {min: 2, max: 2}
globals:
  rounds: {start: 0}
per_player:
  coins: {start: 0}
  pick: {start: 0, visibility: owner}
  spare: {start: 0, visibility: owner}
procedures:
  ask_one:
    params: [p]
    do: |
      p.pick = choose number from 0 to 2 by p as "How many?"
  pass_round:
    params: []
    do: |
      secretly for p in players:
          p.spare = 1
  round:
    params: []
    do: |
      pass_round()
      secretly for p in players:
          if p.coins < 6:
              ask_one(p)
          p.spare = choose number from 0 to 1 by p as "Spare?"
      for p in players:
          p.coins += p.pick + p.spare
flow: |
  while rounds < 4:
      rounds += 1
      round()
  end game "done"
scoring:
  score: "p.coins"
'''


def test_a_secret_round_in_a_quiet_procedure_changes_no_game(monkeypatch):
    """A `secretly for` no longer keeps its procedure (and its callers) from running
    as a function: the same games, saves and secret decisions as frame by frame,
    a procedure called inside the round asks secretly too, and a save made inside
    the round (its loop's place and "$secret" count in env) goes on the same."""
    games = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        games.append(load_game("secret.yaml", text=SECRET_SPEC))
    fast, slow = games
    assert fast.programs["flow"].fast != fast.programs["flow"].code   # round() runs as a function
    for seed in range(4):
        assert transcript(fast, 2, seed) == transcript(slow, 2, seed)
        states = every_state(fast, seed)
        assert states == every_state(slow, seed)
        assert any('"proc:ask_one"' in state and '"$secret":1' in state for state in states)
        st = fast.new_state(2, seed)
        while not st.is_terminal():
            assert st.pending.secret
            st.apply(0)
    made = []   # frames of the round that asks no one: none where it runs as a function
    init = Frame.__init__
    monkeypatch.setattr(Frame, "__init__", lambda fr, proc, *a, **k: (made.append(proc), init(fr, proc, *a, **k))[1])
    for game in (fast, slow):
        made.clear()
        transcript(game, 2, 0)
        assert made.count("proc:pass_round") == (0 if game is fast else 4)


def test_a_fault_inside_a_quiet_procedure_is_placed_at_its_statement(monkeypatch):
    spec = '''game: Faulty
players: {min: 2, max: 2}
globals:
  total: {start: 0}
procedures:
  share:
    params: [x]
    do: |
      total += 1
      total += 10 // x
flow: |
  for x in [2, 1, 0]:
      share(x)
scoring:
  score: "total"
'''
    message = fault_both_ways(monkeypatch, spec, fast_flow=True)
    assert "faulty.yaml:10:" in message and "procedure share" in message, message


LINKED_FAULTS = {   # name: (flow, the line of the failing statement)
    # a `for` loop's jump back goes on into its body's first statement
    "loop body": ("for x in xs:\n    total += 10 // x\n    turn first(players): take, risky\n", 20),
    # ... and its last step into the statement after the loop
    "after a loop": ("for x in xs:\n    turn first(players): take, risky\ntotal += 10 // zero\n", 21),
    # a `while`'s jump back goes on into its test
    "while test": ("k = 0\nwhile 10 // (2 - k) > 0:\n    k += 1\n    turn first(players): take, risky\n", 20),
    # an `if`'s test goes on into its block, or past it
    "if block": ("for x in xs:\n    if x > 0:\n        total += 10 // (x - 2)\n        turn first(players): take, risky\n", 21),
    "past an if": ("for x in xs:\n    if x > 5:\n        turn first(players): take, risky\n    total += 10 // x\n", 22),
    # statements in a row that end a loop's block go on through the jump back
    "back to a while test": ("k = 0\nwhile 10 // (2 - k) > 0:\n    turn first(players): take, risky\n    k += 1\n    total += 1\n", 20),
    # statements in a row (one function) go on into the next instruction
    "after a straight run": ("a = 1\nb = 2\nfor y in [10 // zero]:\n    turn first(players): take, risky\n", 21),
    # a turn whose quiet action is over asks again at once
    "turn asking again": ("turn first(players) until done: risky, take\n", 15),
    # an answered decision goes on into the statements after it (a run starts at it)
    "after a decision": ("for x in xs:\n    n = choose one of [1, 2] by first(players)\n    total += 10 // (n - 1)\n"
                         "    turn first(players): take, risky\n", 21),
    # a turn that is over goes on into the next statement
    "after a turn": ("turn first(players): take, risky\ntotal += 10 // zero\n", 20),
    "after a turn in a loop": ("for x in xs:\n    turn first(players): take, risky\n    total += 10 // (x - 2)\n", 21),
}


def faulty_spec(flow: str) -> str:
    """A game whose flow is `flow`, with a quiet action `take` and one, `risky`,
    whose condition faults once a player has taken it twice."""
    return f'''game: Faulty
players: {{min: 2, max: 2}}
globals:
  total: {{start: 0}}
  xs: {{start: [1, 2, 0]}}
  zero: {{start: 0}}
per_player:
  coins: {{start: 0}}
  risk: {{start: 0}}
actions:
  take:
    do: |
      player.coins += 1
  risky:
    when: 10 // (2 - player.risk) > 0
    do: |
      player.risk += 1
flow: |
''' + "".join("  " + text + "\n" for text in flow.splitlines()) + '''scoring:
  score: "total"
'''


@pytest.mark.parametrize("name", sorted(LINKED_FAULTS))
def test_a_fault_where_an_instruction_goes_on_into_the_next_is_placed_at_its_statement(name, monkeypatch):
    """Program.link: a form that runs the next instruction at once places a fault
    of that instruction at its own statement, as the per-statement run does."""
    flow, line = LINKED_FAULTS[name]
    spec = faulty_spec(flow)
    message = fault_both_ways(monkeypatch, spec, answers=5)
    assert f"faulty.yaml:{line}:" in message, message


INSIDE_SPEC = '''game: Inside
players: {min: 2, max: 2}
globals:
  x: {start: 0}
per_player:
  wins: {start: 0}
procedures:
  bump:
    do: |
      x = 5
  deeper:
    do: |
      bump()
flow: |
  for r in range(3):
      for p in players:
          turn p: a, b, c
  bump()
  x = 1
  turn first(players): a
  end game "done"
actions:
  a:
    do: |
      bump()
      x = 0
      player.wins += 1
  b:
    do: |
      deeper()
      x = 0
      player.wins += 2
  c:
    do: |
      pass
end:
  five: {when: "x == 5"}
scoring:
  score: p.wins
'''


def test_a_quiet_procedure_inside_a_quiet_action_checks_no_end_condition(monkeypatch):
    """A quiet procedure called (directly or through another) by a quiet action's
    function is part of that action: the end conditions are checked when the action
    is over, as frame by frame, not at the procedure's end (where `x == 5` holds for
    a moment); one called from the flow is checked at its end."""
    results = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        game = load_game("inside.yaml", text=INSIDE_SPEC)
        results.append([transcript(game, 2, seed) for seed in range(3)])
    assert results[0] == results[1]
    assert all('"ended_by":"five"' in game[-1][1] for game in results[0])
    assert all(len(game) > 6 for game in results[0])


SECRETLY_SPEC = '''game: Secretly
players: {min: 2, max: 2}
globals:
  total: {start: 0}
per_player:
  coins: {start: 0}
  gift: {start: 0, visibility: owner}
  mine: {start: 0, visibility: owner}
procedures:
  ask_gift:
    params: [p]
    do: |
      p.gift = choose one of [1, 2, 3] by p
  gifts:
    do: |
      total += 1
      secretly for p in players:
          if p.coins >= 0:
              ask_gift(p)
          p.mine += 1
          keep = choose one of [p.mine, 0] by p
      secretly for p in players:
          if p.mine > 100:
              p.mine += 1
      for p in players:
          p.coins += p.gift
      held = total
      ask_gift(first(players))
      held += 1
  round:
    do: |
      gifts()
      turn first(players): take, skip
flow: |
  while total < 6:
      round()
actions:
  take:
    do: player.coins += 1
  skip:
    do: pass
scoring:
  score: p.coins
'''


def test_a_secretly_loop_in_a_quiet_procedure_asks_in_secret(monkeypatch):
    """A `secretly for` in a quiet procedure (run as a function): its decisions, and
    the frames of the procedures it calls that stop at one, are secret as frame by
    frame; the same saves at every decision, "$secret" counted in env alike; the
    rest of a block after a call that stopped runs as one function when answered."""
    games = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        games.append(load_game("secretly.yaml", text=SECRETLY_SPEC))
    fast, slow = games
    assert fast.programs["proc:round"].fast[0] is not fast.programs["proc:round"].code[0]
    for seed in range(4):
        ours = transcript(fast, 2, seed)
        assert ours == transcript(slow, 2, seed)
        states = every_state(fast, seed)
        assert states == every_state(slow, seed)
        assert any('"secret":true' in state for state in states)
        assert any('"secret":false' in state and '"proc:ask_gift"' in state for state in states)


TURNS_SPEC = '''game: Turns
players: {min: 2, max: 2}
globals:
  total: {start: 0}
per_player:
  coins: {start: 0}
  marble: {start: 1}
procedures:
  play:
    params: [p]
    do: |
      total += 1
      turn p: take, spend, wide
      again = p.marble > 0
      while again:
          again = false
          choose by p as "Another turn?":
              "no":
                  pass
              "yes":
                  p.marble -= 1
                  turn p until done: take, spend
                  again = p.marble > 0
      p.coins += 1
  other:
    params: [p]
    do: |
      turn p: take, spend else p.coins += 2
  round:
    do: |
      for p in players:
          play(p)
          total += 1
flow: |
  while total < 40:
      round()
      for p in players:
          turn p: take, spend
actions:
  take:
    do: player.coins += 1
  spend:
    when: player.coins > 1
    do: |
      player.coins -= 2
      player.marble += 1
  wide:
    do: |
      other(player)
      player.coins += 1
scoring:
  score: p.coins
'''


def test_a_turn_in_a_quiet_procedure_changes_no_game(monkeypatch):
    """A `turn` (with no `else`) in a procedure leaves it quiet: its function asks
    and, stopped there, leaves the frames the per-statement run would; the answered
    frame runs the chosen action (a quiet one as a function, another as a frame)
    and goes on. The same games and saves at every decision both ways."""
    games = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        games.append(load_game("turns.yaml", text=TURNS_SPEC))
    fast, slow = games
    assert fast.programs["proc:round"].fast[0] is not fast.programs["proc:round"].code[0]
    for seed in range(4):
        ours = transcript(fast, 2, seed)
        assert ours == transcript(slow, 2, seed)
        states = every_state(fast, seed)
        assert states == every_state(slow, seed)
        assert any('"proc:play"' in state and '"action:wide"' in state for state in states)


def test_a_fault_after_a_turn_of_a_quiet_procedure_is_placed_at_its_statement(monkeypatch):
    """A statement after a turn in a quiet procedure that faults, run where the
    answered frame goes on (a straight line), is said at its statement in the
    procedure, as frame by frame."""
    spec = faulty_spec("for x in [1, 2, 3, 4]:\n    go(x)\n").replace("flow: |", '''procedures:
  go:
    params: [n]
    do: |
      total += 1
      turn first(players): take, risky
      total += 10 // (3 - n)
flow: |''')
    message = fault_both_ways(monkeypatch, spec, answers=5, fast_flow=True)
    assert "faulty.yaml:24:" in message and "procedure go" in message, message


ENDING_TURN_SPEC = '''game: Ending turn
players: {min: 2, max: 2}
globals:
  total: {start: 0}
  heard: {start: []}
procedures:
  play:
    params: [p]
    do: |
      turn p: deal, rest
      heard = append(heard, "after the procedure's turn")
flow: |
  while true:
      for p in players:
          n = choose one of [1, 2] by p
          turn p: deal, rest
          heard = append(heard, "after the turn")
          play(p)
actions:
  deal:
    do: |
      total += 2
  rest:
    do: pass
end:
  big: {when: "total >= 9"}
scoring:
  score: "0"
'''


def test_a_turn_whose_action_ends_the_game_stops_the_lines_after_it(monkeypatch):
    """A quiet action whose end checks end the game, run by an answered `turn` where
    a straight line starts (the flow's, or a procedure's frame resumed there):
    nothing after the turn runs, as frame by frame, where the cleared stack stops
    the run loop. Before, the statements after it in the same line ran on in the
    finished game."""
    ends = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        game = load_game("ending.yaml", text=ENDING_TURN_SPEC)
        ends.append([])
        for seed in range(8):
            st, rng = game.new_state(2, seed), random.Random(seed)
            while not st.is_terminal():
                st.apply(rng.randrange(len(st.legal_actions())))
            ends[-1].append(st.to_json(spec=False))
    assert ends[0] == ends[1]
    # ended at the procedure's turn (the flow's last line was the one before it), and at the flow's
    assert {json.loads(end)["globals"]["heard"][-1] for end in ends[0]} == {
        "after the turn", "after the procedure's turn"}


TRIGGERS_SPEC = '''game: Triggers
players: {min: 2, max: 2}
globals:
  total: {start: 0}
  heard: {start: []}
  ended: {start: false}
per_player:
  coins: {start: 0}
  secret_pick: {start: 0, visibility: owner}
  secret_count: {start: 0, visibility: owner}
procedures:
  gain:
    params: [p, n]
    do: |
      p.coins += n
      signal gained(p, amount=n)
  spike:
    do: |
      total += 50
      signal tick()
      total -= 50
  trade:
    params: [p]
    do: |
      total += 1
      gain(p, 2)
      heard = append(heard, "traded")
flow: |
  while not ended:
      for p in players:
          n = choose one of [1, 2, 3] by p
          gain(p, n)
          spike()
          turn p: deal, rest
          signal round_over(p)
      secretly for p in players:
          signal whisper(p)
      signal done_round()
actions:
  deal:
    do: |
      trade(player)
      signal gained(player, 0)
      player.coins += 1
  rest:
    do: pass
signals:
  gained: [who, amount]
  round_over: [who]
  whisper: [who]
  tick: []
  done_round: []
triggers:
  count gains:
    on: gained
    when: amount > 1
    do: |
      total += amount
      heard = append(heard, "count")
      amount = 0
  echo gains:
    on: gained
    do: |
      heard = append(heard, "echo")
      if amount == 3:
          extra = choose one of [0, 1] by who as "Echo?"
          who.coins += extra
      heard = append(heard, "echoed")
  bonus:
    on: round_over
    when: who.coins > 4
    do: |
      gain(who, 1)
      for q in players where q != who:
          q.coins += 1
  finish:
    on: round_over
    do: |
      if total >= 25:
          ended = true
      heard = append(heard, "finish")
  ask secretly:
    on: whisper
    do: |
      who.secret_pick = choose one of [0, 1] by who
  after whisper:
    on: whisper
    do: |
      who.secret_count += who.secret_pick
  idle:
    on: tick
    when: total < 0
    do: |
      total += 1
  returns:
    on: done_round
    when: total > 100
    do: |
      return 1
end:
  big: {when: "total >= 20"}
scoring:
  score: p.coins
'''


def test_quiet_triggers_run_as_functions_and_change_no_game(monkeypatch):
    """A `signal` whose triggers are all quiet calls their functions in declared
    order, each with its own copy of the values: the same games, saves and end as
    frame by frame. A trigger's `when` is tested when its turn comes (after the ones
    before it ran), one that does not hold checks no end condition, the end checks
    of a trigger started outside an action come at its end (`big` ends the game
    between `bonus` and `finish`), inside an action when the action is over; one
    that stops at a decision leaves its frames, those of the triggers after it, and
    the sender's, as frame by frame (secret in a `secretly` round); a trigger with a
    `return` keeps its frame, and so does the signal that starts it. `idle`, whose
    `when` never holds, checks nothing where `big` holds for a moment (spike)."""
    games = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        games.append(load_game("triggers.yaml", text=TRIGGERS_SPEC))
    fast, slow = games
    for seed in range(6):
        ours = transcript(fast, 2, seed)
        assert ours == transcript(slow, 2, seed)
        assert '"ended_by":"big"' in ours[-1][1]
        states = every_state(fast, seed)
        assert states == every_state(slow, seed)
        assert any('"trigger:echo gains"' in state for state in states)   # stopped in a trigger
        assert any('"trigger:ask secretly"' in state for state in states)
    made = []   # no frame of a trigger that runs as a function, nor of what signals one,
    # but where one stops at a decision (gain, whose `echo gains` asks for a gain of 3);
    # an action's frame is made as its slots, without Frame.__init__ (Action.frame)
    init, frame = Frame.__init__, Action.frame
    monkeypatch.setattr(Frame, "__init__", lambda fr, proc, *a, **k: (made.append(proc), init(fr, proc, *a, **k))[1])
    monkeypatch.setattr(Action, "frame", lambda action, *a: (made.append(action.key), frame(action, *a))[1])
    counts = []
    for game in (fast, slow):
        made.clear()
        transcript(game, 2, 0)
        quiet = ("trigger:bonus", "trigger:count gains", "trigger:finish", "proc:trade", "action:deal")
        assert all((made.count(key) == 0) == (game is fast) for key in quiet), made
        counts.append([made.count(key) for key in ("proc:gain", "trigger:returns")])
    assert counts[0][0] < counts[1][0] and counts[0][1] == counts[1][1] > 0


@pytest.mark.parametrize("when, body, line", [
    ("x >= 0", "total += 10 // x", 13),        # in the body
    ("10 // x > 0", "total += 1", 10),          # in `when`
])
def test_a_fault_inside_a_quiet_trigger_is_placed_at_its_statement(when, body, line, monkeypatch):
    """A fault in a quiet trigger's function, in its body or in its `when`, is said
    where frame by frame says it: at that statement (or condition) of the trigger."""
    spec = f'''game: Faulty
players: {{min: 2, max: 2}}
globals:
  total: {{start: 0}}
signals:
  hit: [x]
triggers:
  share:
    on: hit
    when: "{when}"
    do: |
      total += 1
      {body}
flow: |
  for x in [2, 1, 0]:
      signal hit(x)
scoring:
  score: "total"
'''
    message = fault_both_ways(monkeypatch, spec, fast_flow=True)
    assert f"faulty.yaml:{line}:" in message and "trigger share" in message, message
