"""A scenario file gets the same help, with the names of the spec its `spec:` names."""
from __future__ import annotations

from tests.lsp.client import find
from tests.paths import ROOT

SCENARIO = ROOT / "tests/scenarios/market/moving.yaml"
MARKET = str(ROOT / "tests/games/market.yaml")


def test_a_scenario_file_is_checked_against_its_spec(client):
    text = SCENARIO.read_text()
    assert client.open(SCENARIO) == []
    seeded = text.replace("players[0].where == temple and", "players[0].wher == temple and")
    (found,) = client.change(SCENARIO, seeded)
    line, char = find(seeded, "wher ==")
    assert (found.range.start.line, found.range.start.character, found.range.end.character) == \
        (line, char, char + 4)
    assert found.message == "unknown attribute '.wher' (did you mean 'where'?)"
    seeded = text.replace("seed: 4", "seed: 4\nplayerz: 3")
    (found,) = client.change(SCENARIO, seeded)
    assert found.range.start.line == 4 and "playerz" in found.message   # the scenario schema
    client.change(SCENARIO, text)


def test_definition_and_hover_in_a_scenario_reach_into_the_spec(client):
    text = SCENARIO.read_text()
    client.open(SCENARIO)
    line, char = find(text, "players[0].prestige", offset=len("players[0]."))
    spec = open(MARKET).read()
    assert client.definition(SCENARIO, line, char) == (MARKET, *find(spec, "  prestige: {", offset=2),
                                                       find(spec, "  prestige: {")[1] + 10)
    assert client.hover(SCENARIO, line, char).startswith("**per-player variable** `prestige`")
    line, char = find(text, "== temple", offset=3)
    assert client.definition(SCENARIO, line, char)[0] == MARKET


def test_completion_in_a_scenario_offers_the_specs_names(client):
    text = SCENARIO.read_text()
    seeded = text.replace("      - expect: players[0].where == gate\n",
                          "      - expect: players[0].\n")
    client.open(SCENARIO, seeded)
    line, char = find(seeded, "      - expect: players[0].", offset=len("      - expect: players[0]."))
    labels = {i.label for i in client.completion(SCENARIO, line, char)}
    assert {"coins", "prestige", "where", "hand"} <= labels
    client.change(SCENARIO, text)
