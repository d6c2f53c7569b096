"""Check a spec's shape against spec.schema.json, with messages a designer can act on.

The same JSON Schema drives editors (yaml-language-server) and `validate`, so
the two never disagree. jsonschema's own messages print whole instances and
schema jargon; `describe` rewrites each error into one short sentence, for
specs here and for saves and logs (interpreter/engine/shapes.py) alike.
"""
from __future__ import annotations

import difflib
import functools
import json
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from .errors import RulespecError

SCHEMA_PATH = Path(__file__).with_name("spec.schema.json")
SCENARIO_SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")

_TYPE_NAMES = {"string": "a string", "integer": "an integer", "number": "a number",
               "boolean": "true/false", "object": "a map", "array": "a list",
               "null": "null"}


def schema_text(scenario: bool = False) -> str:
    """The JSON Schema of specs, or of scenario files (`scenario=True`), as text."""
    return (SCENARIO_SCHEMA_PATH if scenario else SCHEMA_PATH).read_text(encoding="utf-8")


@functools.cache
def load_schema(scenario: bool = False) -> dict:
    return json.loads(schema_text(scenario))


@functools.cache
def _validator(scenario: bool = False) -> Draft202012Validator:
    return Draft202012Validator(load_schema(scenario))


def validate(spec, scenario: bool = False) -> list[RulespecError]:
    """All shape errors in `spec.data`, one per problem, in file order.

    spec: a loaded file (rulespec.loader.Spec); scenario: check it as a scenario
    file (scenario.schema.json) rather than a game spec."""
    found: dict[tuple, RulespecError] = {}
    for err in _validator(scenario).iter_errors(spec.data):
        for path, message in describe(err, yaml=True):
            found.setdefault((path, message), spec.error(message, path))
    return sorted(found.values(), key=lambda e: (e.line or 0, e.col or 0))


def describe(err: ValidationError, yaml: bool = False) -> list[tuple[tuple, str]]:
    """Our words for one jsonschema error: a list of (path, message), one per
    problem it stands for (a map with two unknown keys is two problems). path:
    the keys and indexes from the document's root to the value at fault; message:
    one short sentence that does not repeat the path (the caller places it: at a
    file position for a spec, as `a.b[2]` for a save). yaml: the document was
    YAML, so a text that came out as true/false, a number or null says why. An
    anyOf/oneOf error is described by its closest branch (jsonschema's best_match)."""
    err = best_match([err])
    if err.validator in ("anyOf", "oneOf") and err.context:
        err = best_match(err.context)
    path, kind, value, inst = tuple(err.absolute_path), err.validator, err.validator_value, err.instance
    if kind == "additionalProperties" and value is False:
        return [(path + (key,), _unknown_key(key, err.schema)) for key in _extra_keys(err)]
    if kind == "required":
        return [(path, _missing_key(key)) for key in value if key not in inst]
    if "propertyNames" in err.absolute_schema_path:
        # propertyNames errors point at the map; any of them (a bad name, an
        # integer key) is about one key, so point at that key instead.
        path = path + (inst,)
        if kind == "pattern":
            return [(path, f"bad name {_short(inst)}: {err.schema.get('description', '')}")]
    message = _message(kind, value, inst, err)
    if yaml and kind == "type":
        message += _unquoted(value, inst)
    return [(path, message)]


def _unquoted(wanted, inst) -> str:
    """For a YAML file: why a text came out as something else. An unquoted `true`,
    `no`, `5` or `1.0` is read as true/false or a number, an empty value as null."""
    if "string" not in ([wanted] if isinstance(wanted, str) else wanted):
        return ""
    if isinstance(inst, (bool, int, float)):
        return " (YAML reads it unquoted as that value: put the text in quotes)"
    if inst is None:
        return " (nothing is written after the colon)"
    return ""


def _message(kind: str, value, inst, err: ValidationError) -> str:
    if kind == "type":
        types = [value] if isinstance(value, str) else value
        wanted = ", ".join(_TYPE_NAMES.get(t, t) for t in types[:-1])
        wanted = f"{wanted} or {_TYPE_NAMES.get(types[-1])}" if wanted else _TYPE_NAMES.get(types[-1])
        got = "null" if inst is None else f"{type(inst).__name__} {_short(inst)}"
        return f"expected {wanted}, got {got}"
    if kind == "const":
        return f"expected {json.dumps(value)}, got {_short(inst)}"
    if kind == "enum":
        return f"{_short(inst)} is not allowed here; use one of: {', '.join(map(str, value))}"
    if kind == "minimum":
        return f"must be at least {value}, got {_short(inst)}"
    if kind == "maximum":
        return f"must be at most {value}, got {_short(inst)}"
    if kind == "minItems":
        return f"needs at least {value} items, got {len(inst)}"
    if kind == "items" and value is False:
        return f"too many items: expected {len(err.schema.get('prefixItems', []))}, got {len(inst)}"
    # Anything rarer: jsonschema's message, cut short so no huge instance is printed.
    return _cut(err.message, 120)


def _extra_keys(err: ValidationError) -> list[str]:
    allowed = err.schema.get("properties", {})
    return [key for key in err.instance if key not in allowed]


def _missing_key(key: str) -> str:
    if key == "start":  # the usual cause: a map start value written as shorthand
        return "missing required key 'start' (write a map start value as {start: {...}})"
    return f"missing required key {key!r}"


def _unknown_key(key, schema: dict) -> str:
    if isinstance(key, bool):  # YAML 1.1 reads bare on/off/yes/no keys as booleans
        return f"unknown key {key!r} (a bare `on`, `yes` or `no` is read as true/false; quote it)"
    allowed = sorted(schema.get("properties", {}))
    close = difflib.get_close_matches(str(key), allowed, n=1)
    if close:
        return f"unknown key {key!r} (did you mean {close[0]!r}?)"
    return f"unknown key {key!r}; allowed keys: {', '.join(allowed)}"


def _short(value) -> str:
    return _cut(repr(value), 60)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
