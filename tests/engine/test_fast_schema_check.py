"""The compiled schema checks (shapes.fast_validator, on fastjsonschema) refuse exactly
what jsonschema refuses: the fast path must not weaken the check that names a
damaged save or log corrupt (issue 14), only make it cheaper (issue 18).

fastjsonschema knows JSON Schema drafts 4-7 and silently ignores later keywords,
so the first test holds save.schema.json and log.schema.json to keywords it
implements; the others compare both validators' verdicts on every place of real
saves and log lines replaced by values that validators are known to disagree on
(1.0 for an integer, true for 1, a trailing newline against `$`), and on
Hypothesis-damaged saves and logs.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from fastjsonschema import JsonSchemaValueException
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.engine.shapes import (
    fast_validator,
    schema_problem,
    schema_validator,
    shape_problem,
)
from interpreter.engine.state import SAVE_SCHEMA, _surely_fits
from interpreter.tools.log import LOG_SCHEMA
from tests.hostile.test_fuzz_files import LOG_LINES, SAVE, _paths, _replace, damaged
from tests.paths import ROOT
from tests.shipped import shipped

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


def _verdicts(data, schema=SAVE_SCHEMA, definition=None):
    """(fast accepts, jsonschema accepts) for one JSON value."""
    try:
        fast_validator(schema, definition)(data)
        fast = True
    except JsonSchemaValueException:    # its only way to refuse: anything else is a bug
        fast = False
    return fast, schema_validator(schema, definition).is_valid(data)


LOG = [json.loads(line) for line in LOG_LINES]


def _log_line(number):
    return "header" if number == 0 else "event"


def _mid_game_saves():
    saves = []
    for spec in ("games/castles.yaml", "games/siena.yaml", "games/zena.yaml"):
        game = shipped(ROOT / spec)
        state, rand = game.new_state(4, 3), random.Random(3)
        for _ in range(40):
            state.apply(rand.randrange(len(state.legal_actions())))
        saves.append(json.loads(state.to_json()))
    return saves


MID_GAME = _mid_game_saves()


@pytest.mark.parametrize("path", [SAVE_SCHEMA, LOG_SCHEMA], ids=["save", "log"])
def test_the_schema_uses_only_keywords_the_compiled_check_honours(path):
    schema = json.loads(Path(path).read_text(encoding="utf-8"))
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


def _passed_unfit(data) -> bool:
    """State.from_json's pre-check (_surely_fits) lets through what the schema refuses
    (by the compiled check, which the tests above hold to jsonschema's verdicts)."""
    if not _surely_fits(data):
        return False
    try:
        fast_validator(SAVE_SCHEMA)(data)
        return False
    except JsonSchemaValueException:
        return True


@pytest.mark.parametrize("save", [SAVE] + MID_GAME, ids=["market", "castles", "siena", "zena"])
def test_the_pre_check_passes_real_saves_and_nothing_the_schema_refuses(save):
    assert _surely_fits(save)
    paths = list(_paths(save))
    if len(paths) > 400:    # a big save: its structure, and a few cards of each zone
        paths = [p for p in paths if len(p) <= 2 or p[0] in ("stack", "pending")
                 or p[0] == "zones" and p[-1] in (0, 1)]
    wrong = [(path, value) for path in paths for value in TRICKY
             if _passed_unfit(_replace(save, path, value))]
    assert not wrong, wrong[:5]
    for key in list(save) + ["other", "where"]:     # a key too many or too few
        fewer = {k: v for k, v in save.items() if k != key}
        assert not _passed_unfit(fewer) and not _passed_unfit({**save, key: None})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([SAVE] + MID_GAME).flatmap(damaged))
def test_the_pre_check_passes_no_damaged_save_the_schema_refuses(data):
    assert not _passed_unfit(data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged(SAVE))
def test_a_refused_save_is_worded_as_jsonschema_words_it(data):
    words = shape_problem(schema_validator(SAVE_SCHEMA), data)
    assert schema_problem(SAVE_SCHEMA, data) == words


def test_both_validators_agree_on_every_place_of_a_log_replaced_by_a_tricky_value():
    disagree = []
    for number, line in enumerate(LOG[:12]):
        assert _verdicts(line, LOG_SCHEMA, _log_line(number)) == (True, True)
        disagree += [(number, path, value) for path in _paths(line) for value in TRICKY
                     if len(set(_verdicts(_replace(line, path, value), LOG_SCHEMA, _log_line(number)))) == 2]
    assert not disagree, disagree[:5]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(LOG) - 1).flatmap(lambda n: st.tuples(st.just(n), damaged(LOG[n]))))
def test_both_validators_agree_on_damaged_log_lines(numbered):
    number, data = numbered
    fast, slow = _verdicts(data, LOG_SCHEMA, _log_line(number))
    assert fast == slow
