"""A save is data anyone can edit: what the rules decide is not taken from it.

On load the pending decision is made again by the rules at the saved position and
must equal the saved one; every value must fit its declaration (kind, bounds,
one_of, seats, cards, zones, phases of this game); explicit chance is saved and
goes on exactly. Each refusal is CorruptFile("corrupt save file: ..."), placed at
the save (never at the spec) and naming where in the file."""
from __future__ import annotations

import json
import random

import pytest

from rulespec.errors import CorruptFile
from tests.paths import ROOT
from tests.save_data import places, same_step
from tests.shipped import shipped, shipped_specs

MARKET = ROOT / "tests" / "games" / "market.yaml"
KUHN = ROOT / "tests" / "games" / "kuhn.yaml"
DICE = ROOT / "tests" / "games" / "dice.yaml"

# P1 (seat 0) decides what to sell at a market turn; P2 holds corn#4 (an audit's save)
SELLING = json.loads(
    '{"format":1,"game":"Market Town","spec":"8bd1ae3a6bd3fa73","spec_id":"72531049a13a4980",'
    '"variant":null,"players":3,"globals":{"round":1,"first":{"$seat":0}},"per_player":{'
    '"coins":[3,5,5],"prestige":[0,0,0],"where":["market","gate","gate"],"bet":[0,0,0],'
    '"sold_this_turn":[["walked","cloth"],[],[]]},"per_card":{},"zones":{"deck":["corn#3",'
    '"corn#5","wine#2","corn#1","cloth#3","spice#3","corn#2","corn#6","spice#2","wine#4",'
    '"thief#1"],"discard":["cloth#2"],"market":[],"hand@0":["wine#3","wine#5","cloth#1",'
    '"cloth#4"],"hand@1":["corn#4","wine#1"],"hand@2":["thief#2","spice#1"]},'
    '"rng":"17104583881150172773","rng_version":2,"stack":[["flow",11,false,{"p":{"$seat":2}}],'
    '["phase:turns",3,false,{"$for4":[[{"$seat":0},{"$seat":1},{"$seat":2}],1],'
    '"p":{"$seat":0},"$turn5":[{"$seat":0},true]}]],"pending":{"player":0,"labels":['
    '"sell wine#3","sell wine#5","done"],"values":[["sell","wine#3"],["sell","wine#5"],"done"],'
    '"kind":"action","secret":false,"where":["tests/games/market.yaml",91]},"over":false,'
    '"ended_by":null,"phase":"turns","decisions":12}')


def edited(change) -> str:
    data = json.loads(json.dumps(SELLING))
    change(data)
    return json.dumps(data)


def refused(text, game=None) -> CorruptFile:
    with pytest.raises(CorruptFile) as e:
        (game or shipped(MARKET)).state_from_json(text)
    return e.value


def test_the_audits_save_loads_as_it_is():
    state = shipped(MARKET).state_from_json(json.dumps(SELLING))
    assert [o.label for o in state.legal_actions()] == ["sell wine#3", "sell wine#5", "done"]


def test_an_edited_pending_option_is_refused_not_played():
    # audit: `sell corn#4` (P2's card) put in P1's options moved P2's card and paid P1
    def sell_theirs(d):
        d["pending"]["labels"][0] = "sell corn#4"
        d["pending"]["values"][0] = ["sell", "corn#4"]
    error = refused(edited(sell_theirs))
    assert error.message == ("corrupt save file: the pending decision's options are not what "
                             "the rules offer here")


@pytest.mark.parametrize("part, value", [
    ("player", 1), ("kind", "one"), ("secret", True),
    ("labels", ["sell wine#5", "sell wine#3", "done"]),
    ("values", [["sell", "wine#3"], ["sell", "wine#5"], ["sell", "cloth#1"], "done"]),
])
def test_any_other_edit_of_the_pending_decision_is_refused(part, value):
    def change(d):
        d["pending"][part] = value
        if part == "values":
            d["pending"]["labels"].insert(2, "sell cloth#1")
    assert "not what the rules offer here" in refused(edited(change)).message


def test_the_saved_where_is_not_trusted():
    def change(d):
        d["pending"]["where"] = ["/etc/passwd", 10 ** 20]
    state = shipped(MARKET).state_from_json(edited(change))
    assert state.pending.where[1] != 10 ** 20 and state.pending.where[0].endswith("market.yaml")


@pytest.mark.parametrize("change, message", [
    (lambda d: d["per_player"]["bet"].__setitem__(0, 99),
     "`per_player.bet[0]`: 99 is above bet's maximum 2"),
    (lambda d: d["per_player"]["coins"].__setitem__(1, "5"),
     '`per_player.coins[1]`: expected a number, got text "5"'),
    (lambda d: d["per_player"]["coins"].__setitem__(1, None),
     "`per_player.coins[1]`: expected a number, got none"),
    (lambda d: d["per_player"]["coins"].__setitem__(1, 1.5),
     "`per_player.coins[1]`: expected a number, got the fraction 1.5"),
    (lambda d: d["per_player"]["coins"].__setitem__(1, True),
     "`per_player.coins[1]`: expected a number, got true or false"),
    (lambda d: d["globals"].__setitem__("first", {"$seat": 99}),
     "`globals.first`: no player 99 in a game of 3 (seats 0 to 2)"),
    (lambda d: d["globals"].__setitem__("first", {"$seat": -1}),
     "`globals.first`: no player -1 in a game of 3 (seats 0 to 2)"),
    (lambda d: d.__setitem__("phase", "zzz"), "`phase`: no phase 'zzz' in this game"),
    (lambda d: d["per_player"]["where"].__setitem__(0, 3),
     "`per_player.where[0]`: expected a text, got the number 3"),
    (lambda d: d["per_player"]["sold_this_turn"].__setitem__(0, [["x"]]),
     "`per_player.sold_this_turn[0]`: item 1: expected a text, got a list"),
    (lambda d: d["zones"]["market"].extend(d["zones"].pop("deck")) or d["zones"].__setitem__("deck", []),
     "`zones.market`: 11 cards, over the zone's limit of 6"),
    (lambda d: d["stack"][1][3].__setitem__("p", {"$seat": 7}),
     "`stack[1].p`: no player 7 in a game of 3 (seats 0 to 2)"),
])
def test_a_value_that_breaks_its_declaration_is_refused_where_it_is(change, message):
    error = refused(edited(change))
    assert error.message == "corrupt save file: " + message, error.message


LOOP = "`stack[1].$for4`: a `for` loop"


@pytest.mark.parametrize("value, says", [
    ([[{"$seat": 0}, {"$seat": 1}, {"$seat": 2}], 99], " of 3 items cannot have done 99 of them"),
    ([[{"$seat": 0}, {"$seat": 1}, {"$seat": 2}], -1], " of 3 items cannot have done -1 of them"),
    ("x", "'s book-keeping is [its items, how many are done], not text \"x\""),
    ([[], 0, 0], "'s book-keeping is [its items, how many are done], not a list"),
])
def test_a_loops_book_keeping_that_is_not_one_is_refused_at_load(value, says):
    """The loop's items and count are read only when its body is over, after the
    pending decision the load makes again: a count past the items (the other seats'
    turns skipped) or a text there played on, or failed later blaming the spec."""
    error = refused(edited(lambda d: d["stack"][1][3].__setitem__("$for4", value)))
    assert error.message == "corrupt save file: " + LOOP + says, error.message


def test_a_frame_inside_a_loop_without_its_book_keeping_is_refused_at_load():
    """The turn waits inside the `for p in ...` loop of the turns phase: with the loop's
    $for4 gone, the loop's end failed later as "$for4 has no value here" at the spec."""
    error = refused(edited(lambda d: d["stack"][1][3].pop("$for4")))
    assert error.message == ("corrupt save file: `stack[1]`: the frame stopped inside a `for` loop "
                             "(instruction 3) but holds no $for4, the loop's book-keeping"), error.message


@pytest.mark.parametrize("key, value, says", [
    ("p", "gate", "`stack[1].p`: expected a player, got text \"gate\""),
    ("p", 1, None),     # a seat's number is a seat
    ("$for4", [[{"$seat": 0}, "gate", {"$seat": 2}], 1], "`stack[1].$for4`: item 2: expected a player, got text \"gate\""),
    ("$for4", [[{"$seat": 0}, [1], {"$seat": 2}], 1], "`stack[1].$for4`: item 2: expected a player, got a list"),
    ("$for4", [[{"$seat": 0}, 7, {"$seat": 2}], 1], "`stack[1].$for4`: item 2: no player 7 in a game of 3 (seats 0 to 2)"),
])
def test_a_local_or_loop_item_of_another_kind_is_refused_at_load(key, value, says):
    """A local and a loop's items are read by the rules only later: a text where the
    turns' `for p in ...` walks players failed at the next seat's turn as a rule's
    error at the spec's line ("gate is not a seat"), blaming the spec for the save."""
    text = edited(lambda d: d["stack"][1][3].__setitem__(key, value))
    if says is None:
        assert shipped(MARKET).state_from_json(text).pending is not None
        return
    assert refused(text).message == "corrupt save file: " + says


@pytest.mark.parametrize("value", [-1, "x", True])
def test_a_count_of_secret_blocks_that_is_not_one_is_refused_at_load(value):
    error = refused(edited(lambda d: d["stack"][1][3].__setitem__("$secret", value)))
    assert error.message.startswith("corrupt save file: `stack[1].$secret`: the count of open "
                                    "`secretly` blocks must be a whole number, 0 or more"), error.message


P = [{"$seat": 0}, {"$seat": 1}, {"$seat": 2}]
AUCTION = {"order": P, "active": P[1:], "high": {"$seat": 0}, "price": 2, "turn": 1}


@pytest.mark.parametrize("key, value, says", [
    ("$turn5", "x", "a turn's book-keeping is [its player, whether they acted], not text \"x\""),
    ("$turn5", [{"$seat": 0}], "a turn's book-keeping is [its player, whether they acted], not a list"),
    ("$turn5", [{"$seat": 7}, True], "no player 7 in a game of 3 (seats 0 to 2)"),
    ("$turn5", ["gate", True], "a turn's player must be a player, not text \"gate\""),
    ("$several3", [[], ["corn#1"], -1], "a several-choice's book-keeping is [picked, still offered, how many]"),
    ("$several3", {"$dict": {}}, "a several-choice's book-keeping is [picked, still offered, how many]"),
    ("$auction2", {"$dict": {**AUCTION, "price": "x"}}, "an auction's book-keeping is a map of order,"),
    ("$auction2", {"$dict": {**AUCTION, "high": {"$seat": 5}}}, "no player 5 in a game of 3"),
    ("$auction2", {"$dict": {**AUCTION, "active": [{"$seat": 0}], "order": P[1:]}},
     "an auction's bidders still in must be among its bidders"),
    ("$zzz", 1, "not a key the engine keeps in a frame"),
    ("$turn", [{"$seat": 0}, True], "not a key the engine keeps in a frame"),
])
def test_the_engines_own_keys_in_a_frame_are_checked_at_load(key, value, says):
    """Read by the rules only later, a bad one failed at the next apply as a rule's
    error at the spec (market.yaml:91:11 "an item past the end of a list")."""
    error = refused(edited(lambda d: d["stack"][1][3].__setitem__(key, value)))
    assert error.message.startswith(f"corrupt save file: `stack[1].{key}`: {says}"), error.message


@pytest.mark.parametrize("key, value", [
    ("$turn5", [1, False]), ("$several3", [[], ["corn#1", "wine#2"], 1]),
    ("$auction2", {"$dict": AUCTION}), ("$secret", 0)])
def test_the_engines_own_keys_well_made_load(key, value):
    text = edited(lambda d: d["stack"][1][3].__setitem__(key, value))
    assert shipped(MARKET).state_from_json(text).pending is not None


@pytest.mark.parametrize("tagged", [{"$seat": "0"}, {"$card": "wine#3"}, {"$zzz": 1}])
def test_a_bad_tagged_value_is_named_a_corrupt_save(tagged):
    error = refused(edited(lambda d: d["globals"].__setitem__("first", tagged)))
    assert error.message.startswith("corrupt save file: unexpected object in saved data")


def test_a_save_error_is_placed_at_the_save_not_the_spec():
    text = edited(lambda d: d["per_player"]["bet"].__setitem__(0, 99))
    assert refused(text).format().startswith("<save>:1:1: error: corrupt save file:")
    with pytest.raises(CorruptFile) as e:
        shipped(MARKET).state_from_json(text, "game.save")
    assert e.value.format().startswith("game.save:1:1: error: corrupt save file:")
    assert "market.yaml" not in e.value.format()


def test_a_save_of_random_generator_v1_loads():
    # a save holds the generator's state, not a seed: v1 steps as v2 does (rng.SAME_STEPS)
    state = shipped(MARKET).state_from_json(edited(lambda d: d.__setitem__("rng_version", 1)))
    assert json.loads(state.to_json())["rng"] == SELLING["rng"]


# ------------------------------------------------------------ explicit chance
@pytest.mark.parametrize("spec", [KUHN, DICE, MARKET])
def test_explicit_chance_is_saved_and_goes_on_exactly(spec):
    game = shipped(spec)
    for seed in range(4):
        state = game.new_state(2, seed, chance="explicit")
        r = random.Random(seed)
        steps = 0
        while not state.is_terminal() and steps < 60:
            steps += 1
            loaded = game.state_from_json(state.to_json())
            assert loaded.is_chance_node() == state.is_chance_node()
            assert loaded.chance_outcomes() == state.chance_outcomes()
            assert loaded.to_json() == state.to_json()
            same_step(state, loaded, r)
            assert loaded.to_json() == state.to_json()
            assert loaded.is_chance_node() == state.is_chance_node()


def test_an_edited_chance_answer_is_refused():
    # market.yaml's set-up draws several cards in one instruction: answers are kept
    game = shipped(MARKET)
    state = game.new_state(2, 1, chance="explicit")
    r = random.Random(1)
    while not (state.is_chance_node() and state.explicit.answers) and not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(r.choice(state.chance_outcomes())[0])
        else:
            state.apply(r.randrange(len(state.legal_actions())))
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
    data = json.loads(state.to_json())
    data["chance"]["answers"][0][1] = "dragon"
    assert "corrupt save file: the rules cannot go on" in refused(json.dumps(data), game).message
    data["chance"]["answers"][0][0] = "roll"
    assert ("`chance.answers`: the answers do not fit the chance nodes"
            in refused(json.dumps(data), game).message)
    data = json.loads(state.to_json())
    data["chance"]["group"][next(iter(data["chance"]["group"]))] = data["chance"]["groups"] + 1
    assert "`chance.group`" in refused(json.dumps(data), game).message


def test_a_sampled_save_stays_as_it_was():
    state = shipped(KUHN).new_state(2, 3)
    assert '"chance"' not in state.to_json()


# ------------------------------------------------------------ every shipped game
@pytest.mark.parametrize("spec", shipped_specs(), ids=lambda p: p.name)
def test_saves_of_random_mid_game_states_load_and_go_on_identically(spec):
    game = shipped(spec)
    r = random.Random(spec.name)
    for _ in range(2):
        players = r.randint(game.min_players, min(game.max_players, 4))
        state = game.new_state(players, r.randrange(1000))
        for _ in range(r.randrange(5, 60)):
            if state.is_terminal():
                break
            state.apply(r.randrange(len(state.legal_actions())))
        text = state.to_json()
        loaded = game.state_from_json(text)
        assert loaded.to_json() == text
        for _ in range(20):
            if state.is_terminal():
                break
            i = r.randrange(len(state.legal_actions()))
            assert loaded.legal_actions() == state.legal_actions()
            state.apply(i)
            loaded.apply(i)
        assert loaded.to_json() == state.to_json()


# ------------------------------------------------------------ edits found by a fuzzer
def mid_game(name: str, moves: int) -> tuple:
    """(the game, a save of it as data) after `moves` random decisions of 3 players."""
    game = shipped(ROOT / "games" / f"{name}.yaml")
    state, pick = game.new_state(3, seed=0), random.Random(0)
    for _ in range(moves):
        state.apply(pick.randrange(len(state.legal_actions())))
    return game, json.loads(state.to_json())


def _set(*path_and_value):
    *path, key, value = path_and_value

    def change(data):
        for step in path:
            data = data[step]
        data[key] = value
    return change


@pytest.mark.parametrize("name, moves, change, message", [
    # a map declared by its start holds no none: play failed "none has no 'lord'"
    ("zena", 5, _set("per_player", "pawns", 2, None),
     "`per_player.pawns[2]`: expected a map of texts to texts, got none"),
    # a number every rule stores a player into: play failed "7 is not a seat"
    ("zena", 5, _set("globals", "first_player", 7),
     "`globals.first_player`: no player 7 in a game of 3 (seats 0 to 2)"),
    # beyond the integer bound, which every write of the rules keeps within
    ("zena", 5, _set("globals", "round", 10 ** 1000),
     "`globals.round`: a whole number of more than 1,000 digits, which the rules cannot make "
     "(limits: integer_digits)"),
    # play failed "none has no items to look up"
    ("siena", 5, _set("globals", "ready", None), "`globals.ready`: expected a map of texts to numbers, got none"),
    # play failed "none has no 'hand'"
    ("siena", 5, _set("globals", "initiative", 0, None), "`globals.initiative`: item 1: expected a player, got none"),
    # a hex layout's cell is what hex_layout makes: play failed "none has no 'colour'"
    ("castles", 30, _set("per_player", "estate", 0, "$dict", "0,0", {"$dict": {}}),
     "`per_player.estate[0]`: cell '0,0': a cell of a hex layout is {colour, board, q, r}"),
    # play failed "-1,3 has no value here"
    ("castles", 30, _set("per_player", "estate", 0, "$dict", "0,0", "$dict", "q", -1),
     "`per_player.estate[0]`: cell '0,0': its q and r are not the whole numbers its name says"),
    # a map the rules change only item by item keeps its start's keys: play failed
    # "corn has no value here" (`ready[g] -= 1`)
    ("siena", 5, _set("globals", "ready", "$dict", {}),
     "`globals.ready`: no key 'corn', which it starts with and no rule takes away"),
    ("siena", 5, _set("globals", "frame", "$dict", {}),
     "`globals.frame`: no key 'corn', which it starts with and no rule takes away"),
    # and gains none where no rule stores an item (`ready[g] = ...`) that may add one
    ("siena", 5, _set("globals", "ready", "$dict", "silk", 0),
     "`globals.ready`: a key 'silk' it does not start with, which no rule adds"),
    # a number no rule stores a player into holds none (Seat is an int: it passed)
    ("siena", 30, _set("per_player", "florins", 1, {"$seat": 0}),
     "`per_player.florins[1]`: expected a number, got player 0"),
    # drawn from region_boards, a constant of board names: a board, not any text
    ("castles", 0, _set("stack", 2, 3, "board", ""),
     "`stack[2].board`: no board '' in this game"),
])
def test_an_edit_that_failed_at_play_blaming_the_spec_is_refused_at_load(name, moves, change, message):
    """Each loaded and then failed at play as a rule's error at a line of the spec."""
    game, data = mid_game(name, moves)
    change(data)
    assert refused(json.dumps(data), game).message == "corrupt save file: " + message


EDITS = [None, -1, 7, 10 ** 30, 1.5, True, "", "x", "hand@0", [], {}, [0], {"$seat": 9}, {"$seat": 0}]


@pytest.mark.parametrize("name, moves", [("zena", 20), ("siena", 20), ("castles", 40)])
def test_one_value_edits_are_refused_or_play_on(name, moves):
    """A save with one value edited either is refused as corrupt or plays on to the
    end: never a rule's error or a limit at the spec's line, blaming the spec."""
    from rulespec.errors import LimitError, RuleError
    game, data = mid_game(name, moves)
    pick = random.Random(1)
    places_in = list(places(data))
    for path in pick.sample(places_in, min(40, len(places_in))):
        for value in pick.sample(EDITS, 3):
            edit = json.loads(json.dumps(data))
            _set(*path, value)(edit)
            try:
                state = game.state_from_json(json.dumps(edit))
            except CorruptFile:
                continue
            try:
                for _ in range(300):
                    if state.is_terminal():
                        break
                    state.apply(pick.randrange(len(state.legal_actions())))
            except (RuleError, LimitError) as e:
                pytest.fail(f"{path} = {value!r} loaded, then at play: {e}")
