"""A map's key read with no test, in pure spec functions and a turn's fused options
(codegen.py `by_speculation`): where the guess is wrong (a key the map lacks, a
value that is no map) a KeyError or TypeError sends the call to its exact
version, so the same values, the same options and the same error in the same
words come out with by_speculation on and off; code that changes the state or
draws by chance is never run twice."""

import pytest

import interpreter.engine.game as game_module
from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.values import Seat
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS, transcript
from tests.generated import generated_sources
from tests.switches import on_and_off, same_games

SPEC = '''game: Guess
players: {min: 2, max: 2}
constants:
  shape: {a: 0, b: 0, c: 0}     # names the keys a map may have
cards:
  token:
    in: pile
    attrs: {a: 3, b: 4}
    list: [{name: t1}]
zones:
  pile: {visibility: public}
per_player:
  m: {start: {a: 1, b: 2}}
  n: {start: 0}
functions:
  a_of: {params: [x], expr: "x.a"}
  c_of: {params: [p], expr: "p.m.c"}
  sum_ab: {params: [p], expr: "p.m.a + p.m.b"}
  lucky: {params: [p], expr: "p.m.a + roll(6)"}
  via_lucky: {params: [p], expr: "lucky(p) + p.m.b"}
actions:
  bump:
    when: player.m.a > 0 and player.m.b > CUT
    label: '"bump"'
    do: |
      player.n += 1
  rest:
    label: '"rest"'
    do: |
      pass
flow: |
  for p in players:
      turn p: bump, rest
scoring:
  score: "p.n"
'''


def games(monkeypatch, cut="0"):
    return on_and_off(monkeypatch, ExpressionSource, "by_speculation",
                      path="guess.yaml", text=SPEC.replace("CUT", cut))


def outcome(call):
    try:
        return ("value", call())
    except RulespecError as e:
        return ("error", str(e))


@pytest.mark.parametrize("value", [{"a": 1}, {"b": 1}, {}, "x", 3, None, [1, 2]])
def test_a_key_read_gives_the_same_value_or_error(value, monkeypatch):
    """a_of's x is guessed a map: a map with the key, one without, and no map at all."""
    seen = []
    for game in games(monkeypatch):
        st = game.new_state(2, 0)
        seen.append(outcome(lambda: game.calls["a_of"](st, value)))
    assert seen[0] == seen[1]
    assert seen[0][0] == ("value" if value == {"a": 1} else "error")


@pytest.mark.parametrize("value", [{"a": 1, "b": 2}, {"a": 1}, "x", 7])
def test_a_players_map_read_gives_the_same_value_or_error(value, monkeypatch):
    """A player's map variable holding what the guess expects, or not (set here by
    hand, as no rule could): sum_ab and c_of read it."""
    seen = []
    for game in games(monkeypatch):
        st = game.new_state(2, 0)
        st.pv["m"][0] = value
        seen.append([outcome(lambda: game.calls[f](st, Seat(0))) for f in ("sum_ab", "c_of")])
    assert seen[0] == seen[1]


@pytest.mark.parametrize("cut", ["0", "5", "shape.c", "player.m.c"])
def test_a_turns_options_are_the_same_or_fail_alike(cut, monkeypatch):
    """bump's `when` reads player.m's keys; player.m.c is a key it lacks: the fused
    options fail in the words options_for says at bump, as without speculation."""
    seen = []
    for game in games(monkeypatch, cut=cut):
        try:
            st = game.new_state(2, 0)
            seen.append(("options", [o.label for o in st.legal_actions()]))
        except RulespecError as e:
            seen.append(("error", str(e)))
    assert seen[0] == seen[1]


def test_a_fused_turn_that_guesses_wrong_gives_the_exact_options(monkeypatch):
    """A player's map replaced by something else (no map, a card with the keys as
    attributes): the speculating fused options raise a TypeError of their own,
    and the options, or the error, are options_for's."""
    on, off = games(monkeypatch)
    labels = []
    for game in (on, off):
        st = game.new_state(2, 0)
        st.pv["m"][1] = {"a": 1, "b": 2, "z": 0}
        fused = game.turn_options(["bump", "rest"])
        st.pv["m"][0] = {"a": 2, "b": 1}
        labels.append(fused(st, Seat(0))[0])
        st.pv["m"][0] = "no map"
        labels.append(outcome(lambda: fused(st, Seat(0))))
        st.pv["m"][0] = "t1"     # a card: t1.a and t1.b are its attributes
        labels.append(fused(st, Seat(0))[0])
    assert labels[0] == labels[3] == [("bump", None), ("rest", None)]
    assert labels[1] == labels[4] and labels[1][0] == "error"
    assert labels[2] == labels[5] == [("bump", None), ("rest", None)]



def test_pure_code_speculates_and_code_that_draws_does_not():
    """sum_ab's reads have no test, in a `try` whose exact version follows; lucky
    rolls a die and via_lucky calls it: neither is written twice."""
    sources = generated_sources(SPEC.replace("CUT", "0"), "guess.yaml", start=True)
    for name in ("sum_ab", "c_of"):
        fast, exact = sources[f"<rulespec function {name}>"].split("except (KeyError, TypeError):")
        assert fast.startswith("def _fn(") and "    try:\n" in fast and ".__class__ is dict" not in fast
        assert ".__class__ is dict" in exact
    for name in ("lucky", "via_lucky"):
        assert "try:" not in sources[f"<rulespec function {name}>"]
    fused = sources["<rulespec turn options bump rest>"]
    assert "return _turn_fault(st, _turn_player)" in fused and ".__class__ is dict" not in fused


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_speculation(spec, monkeypatch):
    fast, slow = on_and_off(monkeypatch, ExpressionSource, "by_speculation", path=spec)
    same_games(fast, slow)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_fused_options_are_options_for(spec, monkeypatch):
    """At every turn of random games, the fused options (speculating, a leading
    `when` part tested once, a plain walk paired in C) are the values options_for
    gives action by action, the unfused exact way, and the labels it makes."""
    real, seen = game_module.Game.turn_options, []

    def checked(self, action_names):
        fused, names = real(self, action_names), list(action_names)

        def options(st, player):
            values, labels = fused(st, player)
            exact, words = self.options_for(st, player, names)
            assert values == exact
            assert all(a is None or a == b for a, b in zip(labels or [None] * len(values), words))
            seen.append(len(values))
            return values, labels
        return options
    monkeypatch.setattr(game_module.Game, "turn_options", checked)
    game = game_module.load_game(path=spec)
    for seed in range(3):
        transcript(game, game.min_players + seed % 2, seed)
    assert seen
