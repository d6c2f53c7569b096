"""Go to definition, find references and the outline, for names of every sort."""
from __future__ import annotations

import re

import pytest

from tests.lsp.client import find
from tests.paths import ROOT

SIENA, ZENA, CASTLES, MARKET = (str(ROOT / g) for g in (
    "games/siena.yaml", "games/zena.yaml", "games/castles.yaml", "tests/games/market.yaml"))

# (file, a use: text around it, the name in it, nth use; the declaration: text around it, the name)
NAMES = [
    ("procedure", MARKET, "pay(player, 3)", "pay", 0, "  pay:\n", "pay"),
    ("function", MARKET, 'score: "wealth(p)"', "wealth", 0, "  wealth: {", "wealth"),
    ("phase", MARKET, "phase market_day", "market_day", 0, "  market_day:\n", "market_day"),
    ("action", MARKET, "buy, sell, walk", "sell", 0, "  sell:\n", "sell"),
    ("signal", MARKET, "signal sold(", "sold", 0, "  sold: [seller", "sold"),
    ("signal value", MARKET, "when: good == spice", "good", 0, "sold: [seller, good]", "good"),
    ("shared zone", MARKET, "move(c, discard)", "discard", 0, "  discard: {", "discard"),
    ("global", MARKET, "round += 1", "round", 0, "  round: {", "round"),
    ("per-player", MARKET, "player.coins -= c.cost", "coins", 0, "  coins: {", "coins"),
    ("player zone", MARKET, "count(player.hand)", "hand", 0, "  hand: {", "hand"),
    ("constant", MARKET, "< hand_limit", "hand_limit", 0, "  hand_limit: 5", "hand_limit"),
    ("card", MARKET, "good == spice", "spice", 0, "{name: spice,", "spice"),
    ("card attribute", MARKET, "c.good != thief", "good", 0, "attrs: {good:", "good"),
    ("board", MARKET, "next_node(town,", "town", 0, "  town:\n", "town"),
    ("board node", MARKET, "player.where == temple", "temple", 0, "ring: [gate, market, temple", "temple"),
    ("local", MARKET, "for i in range(steps)", "steps", 0, "steps = choose", "steps"),
    ("parameter", MARKET, ">= n:", "n", 0, "params: [p, n]", "n"),
    ("action's for", MARKET, "move(c, player.hand)", "c", 0, "for: c in market", "c"),
    ("per-card", ZENA, ".placed_in", "placed_in", 0, "  placed_in: {", "placed_in"),
    ("card kind", ZENA, "kind(c) == fort_card", "fort_card", 0, "  fort_card:\n", "fort_card"),
    ("procedure", SIENA, "gain(b, merchant_share)", "gain", 0, "  gain:\n", "gain"),
    ("function", CASTLES, "colour_zone(p.estate", "colour_zone", 0, None, None),
]


def _def_position(text, around, name):
    return find(text, around, offset=around.index(name))


@pytest.mark.parametrize("sort, path, around, name, nth, decl, decl_name", NAMES,
                         ids=[f"{n[0]}-{n[3]}" for n in NAMES])
def test_definition_and_references_of_each_sort(client, sort, path, around, name, nth, decl, decl_name):
    text = open(path).read()
    client.open(path)
    line, char = find(text, around, nth, offset=around.index(name))
    found = client.definition(path, line, char)
    if decl is None:   # a builtin: no declaration in the spec
        assert found is None
        return
    dline, dchar = _def_position(text, decl, decl_name)
    assert found == (path, dline, dchar, dchar + len(decl_name))
    refs = client.references(path, line, char)
    assert (path, line, char, char + len(name)) in refs and found in refs
    lines = text.split("\n")
    assert all(lines[r[1]][r[2]:r[3]] == name for r in refs if r[0] == path)
    assert len(refs) >= 2
    without = client.references(path, line, char, declaration=False)
    assert found not in without and len(without) == len(refs) - 1


def test_references_of_a_player_variable_are_every_use_and_nothing_else(client):
    text = open(MARKET).read()
    client.open(MARKET)
    line, char = find(text, "  prestige: {", offset=2)
    refs = client.references(MARKET, line, char)
    lines = text.split("\n")
    # its declaration and every `X.prestige`; not `prestige_goal`, `prestige goal:` or label text
    uses = [(i, m.start()) for i, l in enumerate(lines)
            for m in re.finditer(r"(?<=\.)prestige\b|(?<=^  )prestige(?=:)", l)]
    assert sorted((r[1], r[2]) for r in refs if r[0] == MARKET) == sorted(uses)
    assert any("scenarios" in r[0] for r in refs)   # the scenario files that test it


def test_the_outline_lists_phases_actions_triggers_and_procedures(client):
    client.open(SIENA)
    symbols = {s.name: [c.name for c in s.children] for s in client.symbols(SIENA)}
    assert {"phases", "actions", "triggers", "procedures"} <= set(symbols)
    assert "bankers share in cloth and spices" in symbols["triggers"]
    assert "gain" in symbols["procedures"] and "pay" in symbols["procedures"]
    text = open(SIENA).read()
    phases = text[text.index("\nphases:\n"):text.index("\nactions:\n")]
    assert symbols["phases"] == re.findall(r"^  ([a-z_]+):", phases, re.M)
