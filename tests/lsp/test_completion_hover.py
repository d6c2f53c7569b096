"""Completion and hover over stdio, at chosen positions of the games."""
from __future__ import annotations

import pytest

from tests.lsp.client import find
from tests.paths import ROOT

SIENA, ZENA, CASTLES, MARKET = (ROOT / g for g in ("games/siena.yaml", "games/zena.yaml",
                                                    "games/castles.yaml", "tests/games/market.yaml"))


def labels(items):
    return {i.label for i in items}


def typed(client, path, old, new, at):
    """Open `path` with `old` replaced by `new`; the position just after `at` in it."""
    text = path.read_text().replace(old, new, 1)
    client.open(path, text)
    return find(text, at, offset=len(at))


def test_after_player_dot_the_per_player_variables_and_zones(client):
    pos = typed(client, MARKET, "      player.coins -= c.cost\n", "      player.\n", "      player.")
    got = labels(client.completion(MARKET, *pos))
    assert {"coins", "prestige", "where", "bet", "sold_this_turn", "hand"} <= got
    assert "cost" not in got and "round_limit" not in got


def test_after_a_card_dot_its_attributes(client):
    pos = typed(client, MARKET, "      move(c, player.hand)\n  sell:",
                "      move(c, player.hand)\n      x = c.\n  sell:", "x = c.")
    got = labels(client.completion(MARKET, *pos))
    assert {"good", "cost", "name", "id", "kind"} <= got and "coins" not in got


def test_a_local_bound_to_players_completes_as_a_player(client):
    pos = typed(client, SIENA, "          gain(b, merchant_share)", "          gain(b.", "gain(b.")
    got = labels(client.completion(SIENA, *pos))
    assert {"florins", "status", "hand", "senesi"} <= got


def test_names_in_scope_and_builtins_with_signatures(client):
    pos = typed(client, MARKET, "      player.coins -= c.cost\n", "      player.coins -= \n",
                "      player.coins -= ")
    items = {i.label: i for i in client.completion(MARKET, *pos)}
    assert {"c", "player", "round", "first", "hand_limit", "deck", "market", "town", "corn",
            "pay", "wealth", "sold", "players", "count", "shuffle"} <= set(items)
    assert items["c"].detail == "local variable" and items["pay"].detail == "procedure pay(p, n)"
    assert items["count"].detail == "count(list/map/zone) -> number"
    assert items["hand_limit"].detail == "constant = 5"


def test_actions_inside_turn_and_phases_after_phase(client):
    pos = typed(client, MARKET, "turn p until done: buy, sell, walk, pray",
                "turn p until done: buy, ", "turn p until done: buy, ")
    assert labels(client.completion(MARKET, *pos)) == {"buy", "sell", "walk", "pray"}
    pos = typed(client, ZENA, "      phase event_phase\n", "      phase \n", "      phase ")
    got = labels(client.completion(ZENA, *pos))
    assert {"event_phase", "advanced_placement", "beginner_placement"} <= got and "count" not in got


def test_yaml_keys_from_the_schema(client):
    pos = typed(client, MARKET, "  pray:\n    when:", "  pray:\n    \n    when:", "  pray:\n    ")
    got = labels(client.completion(MARKET, *pos))
    assert {"do", "when", "for", "label", "description"} <= got
    pos = typed(client, MARKET, "\nconstants:", "\nconst\nconstants:", "\nconst")
    assert {"constants", "phases", "actions", "variants", "scoring"} <= labels(client.completion(MARKET, *pos))


def test_hover_on_a_builtin_shows_its_documentation(client):
    client.open(CASTLES)
    text = CASTLES.read_text()
    line, char = find(text, "count(", offset=1)
    hover = client.hover(CASTLES, line, char)
    assert "count(list/map/zone) -> number" in hover
    assert "number of cards in a zone, or of items in a list" in hover


def test_hover_shows_kind_declaration_description_and_assumption(client):
    text = SIENA.read_text()
    client.open(SIENA)
    line, char = find(text, "beggar_at", nth=1, offset=2)
    hover = client.hover(SIENA, line, char)
    # what the checker knows (its start value), or issue 12's inferred kind once it lands
    assert hover.split("\n")[0] in ("**global variable** `beggar_at` — a symbol (by its start value)",
                                     "**global variable** `beggar_at` — a text")
    assert "Calandrino's black pawn" in hover
    line, char = find(text, "threshold[", nth=2, offset=2)
    hover = client.hover(SIENA, line, char)
    assert "**constant** `threshold` — a map" in hover
    assert "*assumed:* the rulebook gives corn 3 and cloth 7 only" in hover
    line, char = find(text, "gain(b", offset=1)
    hover = client.hover(SIENA, line, char)
    assert "**procedure** `gain`" in hover and "gain(p, n)" in hover


def test_hover_on_zena_per_card_variable(client):
    text = ZENA.read_text()
    client.open(ZENA)
    line, char = find(text, ".placed_in", offset=2)
    hover = client.hover(ZENA, line, char)
    assert hover.startswith("**per-card variable** `placed_in`")
    assert "the area whose row the card sits in while in play" in hover


def test_hover_shows_inferred_kinds_where_issue_12s_inference_is_present(client):
    pytest.importorskip("rulespec.infer", reason="issue 12's kind inference has not landed")
    text = MARKET.read_text()
    client.open(MARKET)
    line, char = find(text, "for i in range(steps)", offset=len("for i in range("))
    assert client.hover(MARKET, line, char).startswith("**local variable** `steps` — a number")
    line, char = find(text, "player.coins -= c.cost", offset=len("player."))
    assert client.hover(MARKET, line, char).startswith("**per-player variable** `coins` — a number")
