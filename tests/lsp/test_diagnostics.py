"""Diagnostics over stdio: validate's problems, at the exact characters, as they are typed."""
from __future__ import annotations

import pytest

from rulespec import validate
from rulespec.errors import SpecErrors
from tests.lsp.client import find
from tests.paths import ROOT

GAMES = ["games/siena.yaml", "games/zena.yaml", "games/castles.yaml", "tests/games/market.yaml"]
MARKET = ROOT / "tests/games/market.yaml"


def ranges(diagnostics):
    return [(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character,
             d.message) for d in diagnostics]


@pytest.mark.parametrize("game", GAMES)
def test_a_valid_game_has_no_diagnostics(client, game):
    assert client.open(ROOT / game) == []


# (game, text replaced, its replacement, the word the diagnostic must cover, message part)
SEEDED = [
    ("games/siena.yaml", "gain(b, merchant_share)", "gian(b, merchant_share)", "gian",
     "unknown function 'gian' (did you mean 'gain'?)"),
    ("games/zena.yaml", "phase event_phase", "phase event_phaze", "event_phaze",
     "unknown phase 'event_phaze'"),
    ("games/castles.yaml", "one?\": draw_region_cards, take_tile,",
     "one?\": draw_region_cards, take_tiles,", "take_tiles", "unknown action 'take_tiles'"),
    ("tests/games/market.yaml", "player.coins -= c.cost", "player.coinz -= c.cost", "coinz",
     "unknown attribute '.coinz'"),
    ("tests/games/market.yaml", "  sold_this_turn: {start: [], description:",
     "  sold_this_turn: {start: [], descripton:", "descripton", "unknown key 'descripton'"),
]


@pytest.mark.parametrize("game, old, new, word, message", SEEDED)
def test_a_seeded_mistake_comes_back_at_its_exact_range(client, game, old, new, word, message):
    path = ROOT / game
    text = path.read_text()
    assert old in text
    seeded = text.replace(old, new, 1)
    line, char = find(seeded, new, offset=new.index(word))
    found = ranges(client.change(path, seeded) if str(path) in _opened(client) else client.open(path, seeded))
    assert (line, char, line, char + len(word)) == found[0][:4], found
    assert message in found[0][4]
    # the server says what validate says
    with pytest.raises(SpecErrors) as e:
        validate(path, text=seeded)
    assert [(x.line, x.col, x.message) for x in e.value.errors] == \
        [(f[0] + 1, f[1] + 1, f[4]) for f in found]
    assert client.change(path, text) == []   # fixed: the diagnostic goes away


def _opened(client):
    from pygls.uris import to_fs_path
    return {to_fs_path(uri) for uri in client.versions}


RULE = "    when: player.where == temple and player.coins >= 3\n"
STYLES = {
    "plain": "    when: player.where == temple and playr.coins >= 3\n",
    "double-quoted": '    when: "player.where == temple and playr.coins >= 3"\n',
    "single-quoted": "    when: 'player.where == temple and playr.coins >= 3'\n",
    "plain, two lines": "    when: player.where == temple\n      and playr.coins >= 3\n",
    "quoted, two lines": '    when: "player.where == temple\n      and playr.coins >= 3"\n',
    "literal |": "    when: |\n      player.where == temple and playr.coins >= 3\n",
    "folded >": "    when: >\n      player.where == temple\n      and playr.coins >= 3\n",
    "folded >-": "    when: >-\n      player.where == temple\n      and playr.coins >= 3\n",
    "folded >, a more-indented line": "    when: >\n      player.where == temple\n\n"
                                      "        and playr.coins >= 3\n",
    "flow mapping": "  pray: {when: player.where == temple and playr.coins >= 3,\n         do: pass}\n",
    "literal |, typo on line 2": "    when: |\n      player.where == temple and\n      playr.coins >= 3\n",
    "literal |2": "    when: |2\n        player.where == temple and playr.coins >= 3\n",
}


@pytest.mark.parametrize("style", STYLES)
def test_a_typo_in_every_scalar_style_is_at_its_character(client, style):
    text = MARKET.read_text()
    seeded = text.replace(RULE, STYLES[style])
    if style == "flow mapping":   # the whole action as one flow mapping
        start, end = text.index("  pray:\n"), text.index("\nsignals:")
        seeded = text[:start] + STYLES[style] + text[end:]
    line, char = find(seeded, "playr")
    found = ranges(client.change(MARKET, seeded) if str(MARKET) in _opened(client)
                   else client.open(MARKET, seeded))
    assert found and found[0][:4] == (line, char, line, char + 5), found


def test_a_typo_in_a_variants_changes_is_reported_there(client):
    text = MARKET.read_text()
    seeded = text.replace("      constants: {round_limit: 12, prestige_goal: 15}",
                          "      constants: {round_limit: 12, prestige_goal: 15}\n"
                          "      end:\n        prestige goal:\n"
                          "          when: \"max([p.prestige for p in players]) >= prestig_goal\"")
    line, char = find(seeded, "prestig_goal\"")
    found = ranges(client.change(MARKET, seeded) if str(MARKET) in _opened(client)
                   else client.open(MARKET, seeded))
    assert [f[:4] for f in found] == [(line, char, line, char + len("prestig_goal"))]
    assert found[0][4].startswith("in variant 'long': unknown name 'prestig_goal'")


def test_broken_yaml_is_one_diagnostic_at_the_fault(client):
    text = MARKET.read_text()
    seeded = text.replace("  deck: {visibility: hidden, reshuffle_from: discard}",
                          "  deck: {visibility: hidden, reshuffle_from: discard")
    found = ranges(client.change(MARKET, seeded) if str(MARKET) in _opened(client)
                   else client.open(MARKET, seeded))
    assert len(found) == 1 and found[0][4].startswith("invalid YAML")
