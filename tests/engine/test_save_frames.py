"""A save's flow stack and the locals in it are what the engine itself could have
saved, or the load is refused.

A review found edited saves that loaded and then misbehaved: a frame doubled or
standing at an instruction its program never stops at (the game replayed a turn,
or failed later at the spec's line), a rule's local holding a number its rule never
makes (a countdown of 10**30 turns ran into the step limit at castles.yaml:559),
and Castles' `parts` (draw_estate's [board, dq, dr(, turns)] rows) holding anything
(hex_layout failed at castles.yaml:307, blaming the spec). Each case here is made
from a real save of a random game and must be refused as CorruptFile("corrupt save
file: `place`: ...") with words that say what is wrong; every save the engine makes
still loads and plays on the same."""
from __future__ import annotations

import json
import random

import pytest

from rulespec.errors import CorruptFile
from tests.paths import ROOT
from tests.save_data import at, places, same_step
from tests.shipped import shipped, specs_and_variants

GAMES = ("siena", "zena", "castles")


def game_of(name):
    return shipped(ROOT / "games" / f"{name}.yaml")


def saved(name, want=lambda data: True, players=3, tries=60):
    """(game, save data) at the first decision of random games of `name` (seeds 0,
    1, ...) whose save data `want` accepts, after a few decisions at least."""
    game = game_of(name)
    for seed in range(tries):
        state, pick = game.new_state(players, seed), random.Random(seed)
        while not state.is_terminal() and state.decisions < 400:
            state.apply(pick.randrange(len(state.legal_actions())))
            data = json.loads(state.to_json())
            if not state.is_terminal() and state.decisions > 3 and want(data):
                return game, data
    raise AssertionError(f"no save of {name} found")


def refused(game, data) -> str:
    """The message of the CorruptFile a load of `data` raises."""
    with pytest.raises(CorruptFile) as e:
        game.state_from_json(json.dumps(data))
    assert e.value.message.startswith("corrupt save file: ")
    return e.value.message.removeprefix("corrupt save file: ")


def copied(data):
    return json.loads(json.dumps(data))


def deep(data) -> bool:
    return len(data["stack"]) >= 3


# ------------------------------------------------------------ the flow stack
@pytest.mark.parametrize("name", GAMES)
def test_a_doubled_frame_is_refused(name):
    """The top frame copied twice loaded, and once it was over the copy beneath
    asked the same decision again: another game, silently."""
    game, data = saved(name, deep)
    for i in range(len(data["stack"])):
        edit = copied(data)
        edit["stack"].insert(i, copied(data["stack"][i]))
        message = refused(game, edit)   # the copy beneath stands where it started no frame like it
        assert message.startswith((f"`stack[{i}]`: ", f"`stack[{i + 1}]`: ")), message
        assert " lies on " in message, message


def test_a_stacks_refusal_names_the_save_and_the_frame():
    game, data = saved("castles", deep)
    data["stack"].append(copied(data["stack"][-1]))
    with pytest.raises(CorruptFile) as e:
        game.state_from_json(json.dumps(data), "game.save")
    top = len(data["stack"]) - 2
    assert e.value.format().startswith(f"game.save:1:1: error: corrupt save file: `stack[{top}]`: ")
    assert "castles.yaml" not in e.value.format()


@pytest.mark.parametrize("name", GAMES)
def test_a_frame_where_its_program_never_stops_is_refused(name):
    """A frame stands where a decision waits (the top one) or where it started the
    frame above it: any other instruction, or one past the last, loaded and then
    ran on from the middle of a statement (castles.yaml:276 'tile_box holds 0
    cards called castle'), or another rule's turn."""
    game, data = saved(name, deep)
    top = len(data["stack"]) - 1
    for i, (proc, pc, _, _) in enumerate(data["stack"]):
        program = game.programs[proc]
        stops = program.waits if i == top else program.starts
        for other in [p for p in range(len(program.code) + 2) if p not in stops and p != pc]:
            edit = copied(data)
            edit["stack"][i][1] = other
            message = refused(game, edit)
            assert message.startswith(f"`stack[{i}") and f"instruction {other}" in message, message


@pytest.mark.parametrize("name", GAMES)
def test_a_frame_missing_from_the_middle_is_refused(name):
    game, data = saved(name, deep)
    edit = copied(data)
    removed = edit["stack"].pop(1)
    message = refused(game, edit)
    assert message.startswith("`stack[1]`: ") and " lies on " in message, (removed[0], message)


@pytest.mark.parametrize("name", GAMES)
def test_a_frame_made_secret_or_open_against_its_start_is_refused(name):
    """A frame's `secret` was read by no check: flipped, later decisions were secret
    (or open) as no rule made them."""
    game, data = saved(name, deep)
    edit = copied(data)
    edit["stack"][-1][2] = not edit["stack"][-1][2]
    message = refused(game, edit)
    assert message.startswith(f"`stack[{len(data['stack']) - 1}]`: ") and "starts it" in message, message
    edit = copied(data)
    edit["stack"][0][2] = True
    assert refused(game, edit).startswith("`stack[0]`: the flow, in the open, is the frame at the bottom")


def test_the_bottom_frame_is_the_flow():
    game, data = saved("zena", deep)
    edit = copied(data)
    del edit["stack"][0]
    assert refused(game, edit).startswith("`stack[0]`: the flow, in the open, is the frame at the bottom "
                                          "of the stack, not phase ")


# ------------------------------------------------------------ the engine's keys in a frame
@pytest.mark.parametrize("name", GAMES)
def test_the_engines_keys_must_agree_with_where_the_frame_stands(name):
    """A loop's or a turn's book-keeping left where the frame does not stand at it,
    a wrong count of open `secretly` blocks and a decision's answer in a frame that
    is not on top each loaded: a stale `$turn [p, true]` skipped that turn."""
    game, data = saved(name, deep)
    for i, (proc, pc, _, env) in enumerate(data["stack"]):
        program = game.programs[proc]
        stale = [(key, [[], 0]) for key, first, last, _, _ in program.for_loops
                 if not first <= pc <= last and key not in env]
        stale += [(key, [{"$seat": 0}, True]) for key, (at, _) in program.keyed.items()
                  if at != pc and key.startswith("$turn")]
        for key, value in stale:
            edit = copied(data)
            edit["stack"][i][3][key] = value
            message = refused(game, edit)
            assert message.startswith(f"`stack[{i}].{key}`: ") and "instruction" in message, message
        edit = copied(data)
        edit["stack"][i][3]["$secret"] = env.get("$secret", 0) + 1
        assert "open `secretly` blocks, but instruction" in refused(game, edit)
    edit = copied(data)
    edit["stack"][0][3]["$in"] = 0
    assert refused(game, edit) == ("`stack[0].$in`: a decision's answer, in a frame that is not on top "
                                   "of the stack")


@pytest.mark.parametrize("name", GAMES)
def test_a_local_the_rule_surely_gave_a_value_is_kept(name):
    """A local dropped from a frame loaded, and the rule's next read of it failed as
    the spec's error ("'declines' has no value here", siena.yaml:756)."""
    game, data = saved(name, deep)
    dropped = 0
    for i, (proc, pc, _, env) in enumerate(data["stack"]):
        for local in sorted(game.programs[proc].holds.get(pc, ())):
            edit = copied(data)
            del edit["stack"][i][3][local]
            dropped += 1
            message = refused(game, edit)
            assert message.startswith(f"`stack[{i}]`: no local '{local}', which "), message
    assert dropped


def test_an_action_frame_keeps_its_player():
    game, data = saved("siena", lambda d: d["stack"][-1][0].startswith("action:"))
    top = len(data["stack"]) - 1
    del data["stack"][top][3]["player"]
    assert refused(game, data) == (f"`stack[{top}]`: no 'player', which every frame of action "
                                   f"{data['stack'][top][0].removeprefix('action:')} is given")


# ------------------------------------------------------------ what a rule stores in a local
def in_play_round(data) -> bool:
    return any(frame[0] == "phase:play_round" for frame in data["stack"])


@pytest.mark.parametrize("value", [10 ** 30, 5])
def test_a_local_number_no_rule_makes_is_refused(value):
    """Castles' play_round counts the round's last turns down: -1, the player count,
    or less. 10**30 there loaded and ran 100,000 steps into the limit at
    castles.yaml:559, blaming the spec."""
    game, data = saved("castles", in_play_round, players=4)
    frame = next(i for i, f in enumerate(data["stack"]) if f[0] == "phase:play_round")
    data["stack"][frame][3]["turns_left"] = value
    assert refused(game, data) == (f"`stack[{frame}].turns_left`: the number {value}, but the rules "
                                   "store only a number up to 4 here")


def test_a_local_text_no_rule_stores_is_refused():
    """Siena's opening sale stores "decline" or a card of the table in `lot`: a text
    "" loaded and failed at siena.yaml:771 (" is not a card")."""
    game, data = saved("siena", lambda d: d["stack"][-1][0] == "phase:opening_auction_sale")
    top = len(data["stack"]) - 1
    data["stack"][top][3]["lot"] = ""
    assert refused(game, data) == f'`stack[{top}].lot`: expected "decline" or a card, got text ""'


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_number_past_the_integer_bound_is_refused_wherever_it_is(name):
    """Every whole number a save holds for the rules (locals, loops' items, the
    engine's book-keeping, globals, per-player and per-card values, items of lists
    and maps): one past the integer bound is refused there, by its place."""
    game, data = saved(name, deep)
    bound = game.bounds.integer_bound
    numbers = [path for path in places(data) if path[0] in ("globals", "per_player", "per_card", "stack")
               and at(data, path).__class__ is int and not (path[0] == "stack" and len(path) == 3)]
    assert len(numbers) > 10
    for path in numbers:
        for value in (bound, -bound):
            edit = copied(data)
            at(edit, path[:-1])[path[-1]] = value
            message = refused(game, edit)   # (a player's number: no such player)
            assert "more than 1,000 digits" in message or "no player" in message, (path, message)
            assert message.startswith(f"`{path[0]}"), (path, message)


# ------------------------------------------------------------ Castles' parts
def building_parts(data) -> bool:
    top = data["stack"][-1]
    return top[0] == "proc:draw_estate" and bool(top[3].get("parts"))


ROWS = ("expected [a board, a number from 1 to 2,000,001, a number, 3] or "
        "[a board, a number from 0 to 2,000,000, a number]")


@pytest.mark.parametrize("parts, says", [
    ([["x"]], f"item 1: {ROWS}, got a list of 1 item"),
    ([["region_A1", 0]], f"item 1: {ROWS}, got a list of 2 items"),
    ([["region_A1", 0, 0, 3, 4]], f"item 1: {ROWS}, got a list of 5 items"),
    ([[1, 2, 3]], "item 1: item 1: expected a board, got the number 1"),
    ([["nope", 0, 0]], "item 1: item 1: no board 'nope' in this game"),
    ([[{"$seat": 0}, 0, 0]], "item 1: item 1: expected a board, got player 0"),
    ([["region_A1", 0, "x"]], 'item 1: item 3: expected a number, got text "x"'),
    ([["region_A1", 10 ** 30, 0]],
     f"item 1: item 2: the number {10 ** 30}, but the rules store only a number from 0 to 2,000,000 here"),
    ([["region_A1", 1, 4, 2]], "item 1: item 4: the number 2, but the rules store only 3 here"),
])
def test_castles_parts_hold_what_draw_estate_appends(parts, says):
    """draw_estate appends [board, dq, dr] or [board, dq + 1, dr + 4, 3] to `parts`,
    dq a board's width times the boards before it: any other row loaded and failed
    at castles.yaml:307 ('hex_layout: each part is [board, dq, dr] or ...', 'nope
    is not a board'), or built an estate no player could."""
    game, data = saved("castles", building_parts)
    top = len(data["stack"]) - 1
    data["stack"][top][3]["parts"] = parts
    assert refused(game, data) == f"`stack[{top}].parts`: {says}"


# ------------------------------------------------------------ other parts no check read
def choosing_several(data) -> bool:
    return any(k.startswith("$several") and v[0] for k, v in data["stack"][-1][3].items())


def test_a_several_choices_picks_are_of_its_options_kind():
    """Zena's end-of-round discard keeps [picked, still offered, how many]: a pick ""
    loaded and failed at zena.yaml:715 (' is not a card') when the choice was done."""
    game, data = saved("zena", choosing_several, players=4)
    top = len(data["stack"]) - 1
    key = next(k for k in data["stack"][top][3] if k.startswith("$several"))
    data["stack"][top][3][key][0][0] = ""
    assert refused(game, data) == f"`stack[{top}].{key}`: picked, item 1: no card '' in this game"


def estate_made(data) -> bool:
    return bool(data["per_player"]["estate"][0]["$dict"])


@pytest.mark.parametrize("edit, says", [
    (lambda cell: cell.pop("colour"), "a cell of a hex layout is {colour, board, q, r}"),
    (lambda cell: cell.__setitem__("colour", ""), 'text "" is no colour of board '),
])
def test_a_hex_layout_cell_has_a_colour_of_its_board(edit, says):
    """A cell without its colour loaded and failed at castles.yaml:404 ('has no
    colour'); one of a colour its board has not played on as no estate could."""
    game, data = saved("castles", estate_made)
    cell = next(iter(data["per_player"]["estate"][0]["$dict"]))
    edit(data["per_player"]["estate"][0]["$dict"][cell]["$dict"])
    assert refused(game, data).startswith(f"`per_player.estate[0]`: cell '{cell}': {says}")


def test_the_generators_state_is_a_64_bit_number():
    game, data = saved("zena")
    data["rng"] = str(2 ** 64)
    assert refused(game, data).startswith("`rng`: the random generator's state is a 64-bit number")


def test_a_game_not_over_has_ended_by_nothing():
    game, data = saved("zena")
    data["ended_by"] = "the flow ended"
    assert refused(game, data) == "`ended_by`: a game not over has ended by nothing"


# ------------------------------------------------------------ triggers waiting their turn
CHAIN = """
game: Chained Asks
players: {min: 2, max: 3}
globals:
  round: {start: 0}
per_player:
  coins: {start: 5, visibility: owner}
signals:
  rang: [who]
triggers:
  first bell:
    on: rang
    do: |
      n = choose number from 0 to 2 by who
      who.coins += n
  second bell:
    on: rang
    do: |
      m = choose number from 0 to 1 by who
      who.coins -= m
procedures:
  ask_twice:
    params: [p]
    do: |
      a = choose number from 1 to 2 by p
      signal rang(p)
      return a
flow: |
  while round < 3:
      round += 1
      secretly for p in players:
          x = ask_twice(p)
          p.coins += x
scoring:
  score: p.coins
"""


def test_a_signals_triggers_wait_beneath_the_one_running(tmp_path):
    """A signal pushes all its triggers: the later ones lie at their start beneath
    the one that asks, each as secret as the frame that signalled (here a procedure
    called in a `secretly` round). Such stacks load and go on; the triggers swapped,
    or one made open, are refused."""
    from interpreter.engine.game import load_game
    (tmp_path / "chain.yaml").write_text(CHAIN)
    game = load_game(tmp_path / "chain.yaml")
    state, pick, waiting = game.new_state(2, 1), random.Random(1), None
    while not state.is_terminal():
        loaded = game.state_from_json(state.to_json())
        assert loaded.to_json() == state.to_json()
        data = json.loads(state.to_json())
        if [f[0] for f in data["stack"][-2:]] == ["trigger:second bell", "trigger:first bell"]:
            waiting = data
        state.apply(pick.randrange(len(state.legal_actions())))
    assert waiting is not None and waiting["stack"][-2][1] == 0 and waiting["stack"][-1][2] is True
    swapped = copied(waiting)
    swapped["stack"][-2:] = swapped["stack"][-1:-3:-1]
    assert refused(game, swapped).startswith("`stack[2]`: trigger first bell stands at instruction 1, "
                                             "where it starts no rule, but trigger second bell lies on it")
    opened = copied(waiting)
    opened["stack"][-1][2] = False
    assert refused(game, opened) == ("`stack[3]`: trigger first bell is in the open, but trigger second "
                                     "bell starts it secretly")


# ------------------------------------------------------------ every save the engine makes
@pytest.mark.parametrize("spec, variant, counts", specs_and_variants(),
                         ids=lambda v: getattr(v, "name", None) or str(v))
def test_every_save_of_random_games_loads_and_goes_on_the_same(spec, variant, counts):
    """The saves at every decision (and chance node) of random games of every shipped
    spec and variant load; a loaded one's next decisions and save are the game's."""
    game = shipped(spec, variant)
    for seed, chance in ((0, "sample"), (1, "explicit")):
        state, pick = game.new_state(counts[-1], seed, chance=chance), random.Random(seed)
        while not state.is_terminal() and state.decisions < 150:
            loaded = game.state_from_json(state.to_json())
            same_step(state, loaded, pick)
            assert loaded.to_json() == state.to_json()
