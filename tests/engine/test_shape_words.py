"""A spec, a save and a log that break their JSON Schema the same way are told so in
the same words: rulespec.schema.describe words every jsonschema error, and the
engine's file checks (shapes.shape_problem) only add where in the file it is."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from interpreter.engine.shapes import schema_problem, shape_problem
from interpreter.engine.state import SAVE_SCHEMA
from rulespec.schema import describe
from tests.paths import TESTS
from tests.shipped import shipped

SCHEMA = {"type": "object", "required": ["seed"], "additionalProperties": False,
          "properties": {"seed": {"type": "integer"}, "format": {"const": 2},
                         "steps": {"type": "array", "items": {"type": "object"}}}}


@pytest.mark.parametrize("data, path, message", [
    ({"seed": "7"}, ("seed",), "expected an integer, got str '7'"),
    ({}, (), "missing required key 'seed'"),
    ({"seed": 1, "sede": 1}, ("sede",), "unknown key 'sede' (did you mean 'seed'?)"),
    ({"seed": 1, "format": 3}, ("format",), "expected 2, got 3"),
    ({"seed": 1, "steps": [{}, 5]}, ("steps", 1), "expected a map, got int 5"),
])
def test_describe_words_each_kind_once_and_the_file_check_says_the_same(data, path, message):
    validator = Draft202012Validator(SCHEMA)
    (error,) = validator.iter_errors(data)
    assert describe(error) == [(path, message)]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    assert shape_problem(validator, data) == (f"`{where}`: {message}" if where else f"the line: {message}")


def test_a_save_and_a_spec_with_a_wrong_type_read_alike():
    from rulespec import validate
    from rulespec.errors import SpecErrors
    spec_text = (TESTS / "games" / "market.yaml").read_text(encoding="utf-8")
    with pytest.raises(SpecErrors) as info:
        validate("market.yaml", text=spec_text.replace("players: {min: 2", 'players: {min: "2"', 1))
    spec_words = info.value.errors[0].message
    game = shipped(str(TESTS / "games" / "market.yaml"))
    save = json.loads(game.new_state(2, 1).to_json())
    save["over"] = "no"
    save_words = schema_problem(SAVE_SCHEMA, save)
    assert spec_words == "expected an integer, got str '2'"
    assert save_words == "`over`: expected true/false, got str 'no'"
