"""A map's or list's item stored by generated code (compile.py _item_store_lines)
plays as the closures store it (setter's set_item): the same values, the same
copy made (clones share values), the same error in the same words, raised by the
same part, for a global's, a local's or a player's item, set or updated."""
import pytest

from interpreter.engine.compile import Compiler
from interpreter.engine.game import load_game
from rulespec.errors import RulespecError
from tests.engine.test_cache_equivalence import SPECS
from tests.switches import on_and_off, same_games

SPEC = '''game: Items
players: {min: 2, max: 2}
symbols: [corn, wine, cloth, spices, a, b]
constants:
  goods: [corn, wine]
globals:
  stock: {start: {corn: 1, wine: 2}}
  row: {start: [5, 6, 7]}
  total: {start: 0}
  kept: {start: []}
per_player:
  bag: {start: {corn: 0}}
flow: |
  FLOW
scoring:
  score: "total"
'''

FLOWS = [
    'stock[corn] += 2\ntotal = stock[corn] * 10 + stock[wine]',
    'for g in goods:\n    stock[g] -= 1\ntotal = stock[corn] + stock[wine]',
    'row[1] = 9\ntotal = row[0] + row[1] + row[2]',
    'row[2] -= 10\ntotal = row[2] * row[0]',
    'kept = row\nrow[0] = 1\ntotal = kept[0] * 10 + row[0]',          # the copy: kept keeps 5
    'local = [1, 2]\nlocal[0] += 5\ntotal = local[0]',
    'm = stock\nm[wine] = 9\ntotal = m[wine] * 10 + stock[wine]',       # a local's copy
    'stock[spices] = 3\ntotal = stock[spices]',                        # a new key
    'stock[cloth] += 1',                                               # no such key to update
    'row[5] = 1',                                                      # past the list's end
    'row[corn] = 1',                                                   # a list's key not a number
    'for g in goods:\n    row[count(row) - 1 + stock[g]] = 1',           # past the end, the 2nd time
    'for p in players:\n    p.bag[corn] += 2\n    p.bag[wine] = 3\ntotal = players[0].bag[corn] * 10 + players[1].bag[wine]',
    'players[1].bag[cloth] += 1',                                       # a player's: no such key
    'players[5].bag[corn] = 1',                                         # no such owner
]


def games(monkeypatch, **kwargs):
    return on_and_off(monkeypatch, Compiler, "item_stores", **kwargs)


def outcome(text, stores, monkeypatch):
    """The game's end (its state and scores) or its error, item stores on or off."""
    monkeypatch.setattr(Compiler, "item_stores", stores)
    try:
        st = load_game(path="items.yaml", text=text).new_state(2, 0)
    except RulespecError as e:
        return "error", str(e)
    finally:
        monkeypatch.undo()
    return "state", st.to_json(spec=False), st.scores()


@pytest.mark.parametrize("flow", FLOWS)
def test_an_item_store_plays_as_the_closures_play_it(flow, monkeypatch):
    text = SPEC.replace("FLOW", "\n  ".join(flow.split("\n")))
    generated = outcome(text, True, monkeypatch)
    assert generated == outcome(text, False, monkeypatch)


@pytest.mark.parametrize("store", ["stock[corn] += 2", "players[0].bag[corn] += 2"])
def test_an_item_store_is_generated(store):
    game = load_game(path="items.yaml", text=SPEC.replace("FLOW", store + "\n  total = 1"))
    code = game.programs["flow"].code[0]
    assert "set_item" not in repr(code.__code__.co_names) and code.__code__.co_filename.startswith("<rulespec")


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.rsplit("/", 1)[-1][:-5])
def test_games_are_the_same_with_and_without_item_stores(spec, monkeypatch):
    generated, closures = games(monkeypatch, path=spec)
    same_games(generated, closures, seeds=3)
