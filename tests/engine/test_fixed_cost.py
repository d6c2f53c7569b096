"""The per-decision machinery's own fast forms give what its plain ones give:
State.legal_actions makes each Option as its object and slots (no __init__
call), flow.ask makes the pending Decision so, and a `turn` (compile.py's
_turn_form) makes its decision itself, ask's usual case written in. Every
decision of random games is compared with what Option(...), Decision(...) and
flow.ask itself make at the same point."""
import json
import random

import pytest

from interpreter import load_game
from interpreter.engine.game import Game
from interpreter.engine.flow import Decision, Frame, Option, ask, run
from rulespec.errors import IllegalAction, RulespecError
from tests.paths import ROOT, TESTS
from tests.playout import every_state
from tests.shipped import load

SPECS = [str(ROOT / "games" / f"{g}.yaml") for g in ("castles", "siena", "zena")] + [
    str(TESTS / "games" / f"{g}.yaml") for g in ("market", "kuhn")] + [
    str(TESTS / "specs" / "valid" / f"{g}.yaml") for g in ("secret_signals", "ring_race", "auction_house")]


def slots(decision) -> dict:
    return {name: getattr(decision, name) for name in Decision.__slots__}


def asked_again(st):
    """The pending decision as flow.ask makes it, asked again from a clone standing
    where the decision was asked (its frame's pc just past the asking instruction)."""
    copy, decision = st.clone(), st.pending
    copy.pending = None
    frame = copy.stack[-1]
    frame.pc += 1
    labels, namer = decision._labels, decision._namer
    assert ask(copy, frame, decision.player, decision.values, labels, decision.kind, namer,
               fresh=True) is not None
    return copy.pending


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_each_decision_and_its_options_are_those_the_plain_forms_make(spec):
    game = load(spec)
    kinds = set()
    for seed in range(3):
        st, rng = game.new_state(game.max_players, seed), random.Random(seed)
        while not st.is_terminal() and st.decisions < 300:
            decision, frame = st.pending, st.stack[-1]
            made = slots(decision)     # every slot set (getattr raises on a missing one)
            kinds.add(decision.kind)
            assert type(decision.player) is int and decision.where == game.programs[frame.proc].lines[frame.pc]
            assert decision.secret is (frame.secret or bool(frame.env.get("$secret")))
            assert made == slots(Decision(*(made[k] for k in ("player", "_labels", "values", "kind",
                                                                 "secret", "where", "_namer"))))
            if decision._namer is not None:     # ask made what the turn made, labels unread
                assert slots(asked_again(st)) == made
            options = st.legal_actions()
            assert [(o._decision, o.index) for o in options] == [(decision, i) for i in range(len(decision.values))]
            assert options == [Option(decision, i) for i in range(len(decision.values))]
            assert all(type(o) is Option for o in options)
            st.apply(options[rng.randrange(len(options))])
    assert kinds and ("action" in kinds or spec not in SPECS[:3])   # the shipped games have turns


TURN_SPEC = """
game: Three Ways
players: {min: 2, max: 2}
globals:
  round: {start: 0}
per_player:
  gold: {start: 0, min: 0}
flow: |
  while round < 6:
      round += 1
      for p in players:
          turn p: mine, rest, sleep
actions:
  mine:
    do: |
      player.gold += 2
  rest:
    when: round != 5 or 10 // (round - BAD) > 0
    do: |
      player.gold += 1
  sleep:
    for: n in [1, 2]
    label: '"sleep " + text(n) + " at " + text(round) + " " + text(10 // (4 - round + WORDS))'
    do: |
      player.gold += n
"""


def test_fused_turn_options_make_stateful_labels_and_say_errors_at_the_action():
    """game.turn_options' one generated function (no function around it) makes the
    labels that read the state, in place, and an error in a `when` or a label is
    said at its action, as options_for says it (the unfused way)."""
    game = load_game("three.yaml", text=TURN_SPEC.replace("BAD", "0").replace("WORDS", "1"))
    options = game.turn_options(["mine", "rest", "sleep"])
    assert options.__code__.co_filename.startswith("<rulespec turn options")
    st = game.new_state(2, 1)
    for _ in range(4):
        values, labels = options(st, st.pending.player)
        assert values == [("mine", None), ("rest", None), ("sleep", 1), ("sleep", 2)]
        assert labels[:2] == [None, None] and labels[2:] == [
            f"sleep {n} at {st.g['round']} {10 // (5 - st.g['round'])}" for n in (1, 2)]
        assert [o.label for o in st.legal_actions()][2:] == labels[2:]
        st.apply(0)
    for bad, words, at in (("5", "1", "rest"), ("0", "0", "sleep")):
        game = load_game("three.yaml", text=TURN_SPEC.replace("BAD", bad).replace("WORDS", words))
        st = game.new_state(2, 1)
        with pytest.raises(Exception, match=rf"cannot divide 10 \(a number\) by zero \(in action {at}\)"):
            while not st.is_terminal():
                st.apply(0)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_an_index_is_taken_as_its_option_is_without_making_labels(spec):
    """State.apply (flow.run given the answer) takes an index of the pending
    decision as the Option of that index, and makes no labels for it: two copies
    of each position, one answered by index and one by Option, stay the same game
    (the same save text); an index out of range or a bool is refused as before."""
    game = load_game(spec)
    for seed in range(2):
        st, rng = game.new_state(game.max_players, seed), random.Random(seed)
        while not st.is_terminal() and st.decisions < 200:
            decision = st.pending
            size = len(decision.values)
            unread = decision._namer is not None
            i = rng.randrange(size)
            by_index = st.clone()
            by_index.apply(i)
            assert (decision._namer is not None) == unread    # no labels made by an index
            wrongs = (size, -1, True, 2.0 if size > 2 else "no such option") if st.decisions < 20 else ()
            for wrong in wrongs:
                with pytest.raises(IllegalAction):    # (a refusal's words read the labels)
                    st.clone().apply(wrong)
            st.apply(st.legal_actions()[i])
            assert by_index.to_json() == st.to_json()


UNTIL_DONE_SPEC = """
game: Until Done
players: {min: 2, max: 2}
globals:
  round: {start: 0}
per_player:
  gold: {start: 0}
  moves: {start: 0}
flow: |
  while round < 100:
      round += 1
      for p in players:
          p.moves = 0
          turn p until done: dig, rest
actions:
  dig:
    when: player.moves < 3
    do: |
      player.gold += 2
      player.moves += 1
  rest:
    when: player.moves < 2
    do: |
      player.moves += 1
END
"""


@pytest.mark.parametrize("ends", [False, True], ids=["no end checks", "end checked after each action"])
def test_a_turn_until_done_goes_on_or_comes_back_as_the_per_statement_run(ends, monkeypatch):
    """An answered turn `until done` whose quiet action runs as a function asks
    again at once when nothing is checked after it, and otherwise comes back to
    itself for the run loop (its frame's pc on the turn again) after the end
    checks: the same saves at every decision, and each save loaded and answered,
    as with the sampled run's forms off (Game.straight)."""
    # a condition reading current_phase is checked after every instruction (effects.reads: None)
    text = UNTIL_DONE_SPEC.replace("END", 'end:\n  rich:\n    when: "max([p.gold for p in players]) >= 40 '
                                   'and current_phase == current_phase"' if ends else "")
    games = []
    for switch in (True, False):
        monkeypatch.setattr(Game, "straight", switch)
        games.append(load_game("until.yaml", text=text))
    assert any(games[0].programs["flow"].end_checks) is ends
    for seed in range(3):
        saves = [every_state(game, seed) for game in games]
        assert saves[0] == saves[1]
        assert json.loads(saves[0][-1])["ended_by"] == ("rich" if ends else "the flow ended")


SECRET_PHASE_SPEC = """
game: Frames
players: {min: 2, max: 2}
globals:
  round: {start: 0}
per_player:
  gold: {start: 0, visibility: owner}
flow: |
  while round < 3:
      round += 1
      secretly for p in players:
          turn p: dig, rest
      phase quiet
phases:
  quiet:
    do: |
      for p in players:
          turn p: dig, rest
actions:
  dig:
    for: n in [1, 2]
    do: |
      k = choose one of [n, n + 1] by player
      player.gold += k
  rest:
    do: |
      player.gold += 1
"""


def frame_slots(frame) -> tuple:
    """A frame's four slots (getattr raises on one never set), its env by content."""
    assert type(frame) is Frame
    return frame.proc, frame.pc, dict(frame.env), frame.secret


@pytest.mark.parametrize("straight", [True, False], ids=["sampled forms", "per-statement forms"])
def test_frames_made_as_their_slots_are_those_frame_makes(straight, monkeypatch):
    """A phase's frame (compile.py's run_phase `enter`), an action's (Action.frame)
    and a clone's copy (Frame.copy) are made as their object and slots, without
    Frame.__init__: each is what Frame(proc, env, secret, pc) makes from the same
    values, secret or not (a turn inside `secretly`, one in a phase entered from
    outside it), at every decision of random games, and a copy's env is its own."""
    monkeypatch.setattr(Game, "straight", straight)
    game = load_game("frames.yaml", text=SECRET_PHASE_SPEC)
    seen = set()
    for seed in range(4):
        st, rng = game.new_state(2, seed), random.Random(seed)
        while not st.is_terminal():
            for frame in st.stack:
                proc, pc, env, secret = frame_slots(frame)
                assert type(proc) is str and type(pc) is int and type(secret) is bool
                assert frame_slots(Frame(proc, env, secret, pc)) == (proc, pc, env, secret)
                seen.add((proc.split(":")[0], secret or bool(env.get("$secret"))))
            top = st.stack[-1]
            assert top.secret == (st.pending.secret if top.proc.startswith("action:") else top.secret)
            copy = st.clone()
            assert [frame_slots(f) for f in copy.stack] == [frame_slots(f) for f in st.stack]
            assert all(a.env is not b.env for a, b in zip(copy.stack, st.stack))
            st.apply(rng.randrange(len(st.legal_actions())))
    # actions' frames are pushed where they stop at a decision (dig's choose one):
    # within the secret loop and in the phase entered outside it
    assert {("action", True), ("action", False), ("phase", False)} <= seen


def test_phase_and_action_frames_take_their_secret_from_the_frame_beneath():
    """enter and Action.frame give the frame Frame(...) gives, for a parent frame
    secret or not, with or without a `$secret` count in its env."""
    game = load_game("frames.yaml", text=SECRET_PHASE_SPEC)
    enter = next(f for f in game.programs["flow"].code if getattr(f, "__name__", "") == "enter")
    dig = game.actions["dig"]
    for parent in (Frame("flow", {}), Frame("flow", {}, True), Frame("flow", {"$secret": 1}),
                   Frame("flow", {"$secret": 0}, True)):
        st = game.new_state(2, 0)
        depth = len(st.stack)
        enter(st, parent)
        assert len(st.stack) == depth + 1 and st.phase == "quiet"
        assert frame_slots(st.stack[-1]) == frame_slots(Frame("phase:quiet", {}, parent.secret))
        secret = parent.secret or bool(parent.env.get("$secret"))
        assert frame_slots(dig.frame(1, 2, parent)) == frame_slots(
            Frame("action:dig", {"player": 1, "n": 2}, secret))
        copy = parent.copy()
        assert frame_slots(copy) == frame_slots(parent) and copy.env is not parent.env


@pytest.mark.parametrize("size, refused", [(5, True), (6, False)])
def test_a_turn_over_the_size_limit_is_refused_in_the_same_words(size, refused):
    """A turn reads the game's size limit once, when it is compiled (it is set
    before any rule is): a turn of 6 options under `limits: {size: 5}` is refused
    as flow.ask refuses it; under size 6 it waits as the decision (dig, pay 1-3,
    rest, done: 6 options)."""
    text = UNTIL_DONE_SPEC.replace("END", "").replace(
        "players: {min: 2, max: 2}", f"players: {{min: 2, max: 2}}\nlimits: {{size: {size}}}").replace(
        "  rest:\n", "  pay:\n    for: n in [1, 2, 3]\n    do: |\n      player.gold += n\n  rest:\n").replace(
        "dig, rest", "dig, pay, rest")
    game = load_game("until.yaml", text=text)
    if not refused:
        assert len(game.new_state(2, 0).legal_actions()) == 6
        return
    with pytest.raises(Exception, match=r"a decision of 6 options, over the limit of 5 \(limits: size\)"):
        game.new_state(2, 0)


@pytest.mark.parametrize("spec", SPECS[:3], ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_running_a_game_that_waits_or_is_over_changes_nothing(spec):
    """flow.run without an answer returns at once where a decision waits or the
    game is over (the run loop then tests only that frames are left: nothing is
    pending inside it, and a game that ends clears its stack): the same save after
    it at every decision, the very decision still pending, and at the end."""
    game = load(spec)
    st, rng = game.new_state(game.max_players, 0), random.Random(0)
    while True:
        before, decision = st.to_json(), st.pending
        run(st)
        assert st.to_json() == before and st.pending is decision     # not asked again
        if st.is_terminal():
            break
        assert st.stack and not st.over
        st.apply(rng.randrange(len(st.legal_actions())))
    assert not st.stack


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_a_pending_decision_is_never_over_nor_at_a_chance_node(spec):
    """flow.run takes an answer, and State.legal_actions lists options, testing only
    that a decision is pending: a game with one is never over (State.finish clears
    it, a save holding both is refused) and no chance node waits beside it (the
    stepped run meets chance only with nothing pending, and puts back such a state)."""
    game = load(spec)
    for chance in ("sample", "explicit"):
        st, rng = game.new_state(game.max_players, 0, chance=chance), random.Random(0)
        while not st.is_terminal() and st.decisions < 300:
            if st.is_chance_node():
                assert st.pending is None and st.legal_actions() == []
                outcomes = st.chance_outcomes()
                st.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
                continue
            assert st.pending is not None and not st.over
            st.apply(rng.randrange(len(st.legal_actions())))
        if st.is_terminal():
            assert st.pending is None and st.legal_actions() == []
            with pytest.raises(IllegalAction, match="the game is over"):
                st.apply(0)
    st = game.new_state(game.max_players, 0)
    save = json.loads(st.to_json())
    save["over"] = True
    with pytest.raises(RulespecError, match="a game that is over has rules still running"):
        game.state_from_json(json.dumps(save))


LOOP_SPEC = """
game: Loop
players: {min: 2, max: 2}
globals:
  n: {start: 0}
flow: |
  turn first(players): go, stay
  while true:
      n += 1
      turn first(players): never
actions:
  go:
    do: |
      pass
  stay:
    do: |
      pass
  never:
    when: n < 0
    do: |
      pass
"""


@pytest.mark.parametrize("budget", [40, 3000])
def test_the_run_loop_first_looks_at_a_budget_set_after_loading_when_it_is_passed(budget, monkeypatch):
    """flow.run first looks at the budget at Game.first_look, which setting
    Game.step_budget sets too: a budget of 40 set after loading stops a loop that
    asks no one (a turn with no legal action passes) within 41 steps, not at the
    1,024th (where the loop looks next otherwise), in the same words as ever. (The
    per-statement forms: a straight-line `while` counts its own rounds.)"""
    monkeypatch.setattr(Game, "straight", False)
    game = load_game("loop.yaml", text=LOOP_SPEC)
    game.step_budget = budget
    assert game.first_look == min(1024, budget + 1)
    st = game.new_state(2, 0)
    with pytest.raises(RulespecError, match=f"ran {budget:,} steps without asking anyone anything"):
        st.apply(0)
    assert 0 < st.g["n"] <= budget


@pytest.mark.parametrize("budget", [40, 1023, 1024, 1025, 3000])
def test_the_run_loop_runs_budget_plus_one_steps_before_the_budget_stops_it(budget, monkeypatch):
    """flow.run runs exactly budget + 1 instructions (the one that passes the
    budget, as ever) and then stops, whether the budget lies before, at or after a
    1,024-step look. Counted by wrapping every form the loop runs; a step lost or
    counted twice (say, at a frame's end, which is no step, popped on entry or after
    a step) moves the count."""
    monkeypatch.setattr(Game, "straight", False)
    game = load_game("loop.yaml", text=LOOP_SPEC)
    game.step_budget = budget
    st = game.new_state(2, 0)
    ran = [0]

    def counted(form):
        def step(st, fr):
            ran[0] += 1
            form(st, fr)
        return step
    for program in game.programs.values():
        fast, size, checks = program.loop
        program.loop = ([counted(f) for f in fast], size, checks)
    with pytest.raises(RulespecError, match=f"ran {budget:,} steps without asking anyone anything"):
        st.apply(0)
    assert ran[0] == budget + 1


def test_a_staged_position_runs_statement_by_statement(monkeypatch):
    """A scenario staging a position (State.staged) checks no end condition: flow.run
    hands it to the per-statement run, which tests that, so its own loop need not."""
    import interpreter.engine.flow as flow
    game = load_game("loop.yaml", text=LOOP_SPEC)
    st = game.new_state(2, 0)
    seen = []
    real = flow._run_stepped
    monkeypatch.setattr(flow, "_run_stepped", lambda st, finish: seen.append(st) or real(st, finish))
    st.staged = True
    game.step_budget = 50
    with pytest.raises(RulespecError, match="ran 50 steps"):
        st.apply(0)
    assert seen == [st]
