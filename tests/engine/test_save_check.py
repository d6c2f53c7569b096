"""The compiled save check (shapes.fast_validator, on fastjsonschema) refuses exactly
what jsonschema refuses: the fast path must not weaken the check that names a
damaged save corrupt (issue 14), only make it cheaper (issue 18).

fastjsonschema knows JSON Schema drafts 4-7 and silently ignores later keywords,
so the first test holds save.schema.json to keywords it implements; the others
compare both validators' verdicts on every place of real saves replaced by values
that validators are known to disagree on (1.0 for an integer, true for 1, a
trailing newline against `$`), and on Hypothesis-damaged saves.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from fastjsonschema import JsonSchemaValueException
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.engine.game import load_game
from interpreter.engine.shapes import (
    fast_validator,
    schema_problem,
    schema_validator,
    shape_problem,
)
from interpreter.engine.state import SAVE_SCHEMA
from tests.hostile.test_fuzz_files import SAVE, _paths, _replace, damaged
from tests.paths import ROOT

# draft-07 keywords fastjsonschema implements (its draft07.py and the drafts before),
# and the annotations it may ignore: anything else in the schema would be unchecked
HONOURED = {"type", "properties", "required", "additionalProperties", "items", "minItems",
            "maxItems", "const", "enum", "minimum", "maximum", "pattern", "oneOf", "anyOf",
            "allOf", "not", "$ref", "minLength", "maxLength", "minProperties", "maxProperties"}
ANNOTATIONS = {"$schema", "$defs", "title", "description"}
# values on which JSON Schema validators are known to differ
TRICKY = [1.0, 0.0, -0.0, 1.5, -1, 0, 1, 4, 1001, 2**70, True, False, None, "", "1", "12\n",
          "\n", "0" * 21, "x", [], [1.0], ["a", 1, True, 0], {}, {"a": 1}, 1e308]


def _keywords(schema, found):
    """Every keyword used in `schema` (names under properties/$defs are not keywords)."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.add(key)
            children = value.values() if key in ("properties", "$defs") and isinstance(value, dict) else [value]
            for child in children:
                if key not in ("const", "enum"):
                    _keywords(child, found)
    elif isinstance(schema, list):
        for item in schema:
            _keywords(item, found)
    return found


def _verdicts(data):
    """(fast accepts, jsonschema accepts) for one JSON value."""
    try:
        fast_validator(SAVE_SCHEMA)(data)
        fast = True
    except JsonSchemaValueException:    # its only way to refuse: anything else is a bug
        fast = False
    return fast, schema_validator(SAVE_SCHEMA).is_valid(data)


def _mid_game_saves():
    saves = []
    for spec in ("games/castles.yaml", "games/siena.yaml", "games/zena.yaml"):
        game = load_game(ROOT / spec)
        state, rand = game.new_state(4, 3), random.Random(3)
        for _ in range(40):
            state.apply(rand.randrange(len(state.legal_actions())))
        saves.append(json.loads(state.to_json()))
    return saves


MID_GAME = _mid_game_saves()


def test_the_save_schema_uses_only_keywords_the_compiled_check_honours():
    schema = json.loads(Path(SAVE_SCHEMA).read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    unknown = _keywords(schema, set()) - HONOURED - ANNOTATIONS
    assert not unknown, f"fastjsonschema would not check {sorted(unknown)}"


@pytest.mark.parametrize("save", [SAVE] + MID_GAME, ids=["market", "castles", "siena", "zena"])
def test_both_validators_agree_on_every_place_replaced_by_a_tricky_value(save):
    assert _verdicts(save) == (True, True)
    paths = list(_paths(save))
    if len(paths) > 400:    # a big save: its structure, not the 300th card of a zone
        paths = [p for p in paths if len(p) <= 2 or p[0] in ("stack", "pending")]
    disagree = [(path, value) for path in paths for value in TRICKY
                if len(set(_verdicts(_replace(save, path, value)))) == 2]
    assert not disagree, disagree[:5]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([SAVE] + MID_GAME).flatmap(damaged))
def test_both_validators_agree_on_damaged_saves(data):
    fast, slow = _verdicts(data)
    assert fast == slow


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged(SAVE))
def test_a_refused_save_is_worded_as_jsonschema_words_it(data):
    words = shape_problem(schema_validator(SAVE_SCHEMA), data)
    assert schema_problem(SAVE_SCHEMA, data) == words
