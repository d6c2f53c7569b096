"""The rules checklists (docs/rules/<game>.md): every spec part and every test they
name exists, and every action, phase, trigger and end condition of the spec is
named by one of their rows, so a rule cannot be added or renamed without its
line from the rulebook following it."""
from __future__ import annotations

import re

import pytest

from rulespec.loader import load_spec
from tests.paths import ROOT, TESTS

GAMES = {"castles": "games/castles.yaml", "siena": "games/siena.yaml", "zena": "games/zena.yaml"}
CODE = re.compile(r"`([^`]+)`")
SCENARIO = re.compile(r'`([\w-]+\.yaml)`: "([^"]+)"')
PYTEST = re.compile(r"`(test_\w+\.py)::(test_\w+)`")


def rows(game: str) -> list[tuple[str, str, str]]:
    """(rule, spec column, test column) of every table row of the checklist."""
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("rule", "---") and not set(cells[0]) <= {"-"}:
            out.append((cells[0], cells[1], cells[2]))
    return out


def spec_paths(spec_column: str) -> list[list[str]]:
    return [ref.split(".") for ref in CODE.findall(spec_column)]


def scenario_names(game: str, file: str) -> set[str]:
    spec = load_spec(str(TESTS / "scenarios" / game / file))   # a YAML reader that locates errors
    return {s["name"] for s in spec.data.get("scenarios") or []}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_row_names_a_spec_part_and_a_test(game):
    table = rows(game)
    assert len(table) >= 20, "a checklist has a row per rule of the rulebook"
    for rule, spec_column, test_column in table:
        assert spec_paths(spec_column), f"{rule}: no spec part named"
        assert SCENARIO.search(test_column) or PYTEST.search(test_column), f"{rule}: no test named"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_spec_part_named_exists(game):
    data = load_spec(str(ROOT / GAMES[game])).data
    for rule, spec_column, _ in rows(game):
        for path in spec_paths(spec_column):
            node = data
            for key in path:
                assert isinstance(node, dict) and key in node, f"{rule}: `{'.'.join(path)}` is not in {GAMES[game]}"
                node = node[key]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_test_named_exists(game):
    names: dict[str, set[str]] = {}
    for rule, _, test_column in rows(game):
        for file, name in SCENARIO.findall(test_column):
            if file not in names:
                names[file] = scenario_names(game, file)
            assert name in names[file], f"{rule}: no scenario \"{name}\" in tests/scenarios/{game}/{file}"
        for file, test in PYTEST.findall(test_column):
            source = (TESTS / "rules" / file).read_text(encoding="utf-8")
            assert re.search(rf"^def {test}\(", source, re.M), f"{rule}: no {test} in tests/rules/{file}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_action_phase_trigger_and_end_is_on_the_checklist(game):
    data = load_spec(str(ROOT / GAMES[game])).data
    named = {".".join(path) for _, spec_column, _ in rows(game) for path in spec_paths(spec_column)}
    missing = [f"{section}.{name}" for section in ("actions", "phases", "triggers", "end")
               for name in data.get(section) or {}
               if f"{section}.{name}" not in named]
    assert not missing, f"not on docs/rules/{game}.md: {missing}"
