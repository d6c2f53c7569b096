"""Reading files we did not write ourselves: size caps, safe JSON, JSON Schemas.

Saves (`save.schema.json`) and logs (`interpreter/tools/log.schema.json`) are
checked against a schema before any field is used, so a damaged file is
"corrupt log: line 7: `seed`: expected an integer, got str '7'", never a KeyError three calls
later. JSON that nests deeper than Python's recursion allows, holds NaN or
Infinity, or an integer of more than 4,300 digits is corrupt too.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from rulespec.errors import CorruptFile

def read_capped(path, limit: int, what: str) -> str:
    """A file's text, refusing one of more than `limit` bytes before reading it all
    (`/dev/zero` never ends). Raises CorruptFile naming `what` ("log", "save")."""
    try:
        with open(path, "rb") as f:
            raw = f.read(limit + 1)
    except OSError as e:
        raise CorruptFile(f"cannot read {what} {path}: {e.strerror or e}", file=str(path)) from None
    if len(raw) > limit:
        raise CorruptFile(f"corrupt {what}: larger than {limit // 2**20:,} MB", file=str(path))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CorruptFile(f"corrupt {what}: not UTF-8 text (byte {e.start})", file=str(path)) from None


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str):
    """json.loads refusing NaN and Infinity, and nesting too deep for Python's recursion
    (ours nests under ten levels): ValueError with a reason."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _schema(path: str, definition: str | None) -> dict:
    schema = json.loads(Path(path).read_text(encoding="utf-8"))
    if definition is not None:
        schema = {**schema["$defs"][definition], "$defs": schema["$defs"],
                  "$schema": schema["$schema"]}
    return schema


@cache
def schema_validator(path: str, definition: str | None = None):
    """A jsonschema validator for the schema file at `path` (or one of its $defs)."""
    import jsonschema
    schema = _schema(path, definition)
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


@cache
def fast_validator(path: str, definition: str | None = None):
    """The schema at `path` (or one of its $defs) compiled to Python by fastjsonschema:
    a function of one JSON value that returns it, or raises
    fastjsonschema.JsonSchemaValueException. About 40 times faster than jsonschema on
    a save (40 µs against 1.7 ms for a mid-game save of the largest shipped game). fastjsonschema knows
    drafts 4, 6 and 7 and silently ignores later keywords (`prefixItems`), so such a
    schema must use draft-07 keywords only: tests/engine/test_fast_schema_check.py holds it
    to that, and compares both validators' verdicts on fuzzed saves and log lines."""
    import fastjsonschema
    # use_default=False: never fill in defaults, the data is read, not changed
    return fastjsonschema.compile(_schema(path, definition), use_default=False, use_formats=False)


def schema_problem(path: str, data, definition: str | None = None) -> str | None:
    """How `data` breaks the schema at `path` (or one of its $defs), in words, or None
    when it fits. The compiled check (fast_validator) decides; jsonschema only words a
    refusal, as `shape_problem` does, falling back to fastjsonschema's own words."""
    from fastjsonschema import JsonSchemaValueException
    try:
        fast_validator(path, definition)(data)
        return None
    except JsonSchemaValueException as e:
        words = shape_problem(schema_validator(path, definition), data)
        return words or f"`{e.name.removeprefix('data').lstrip('.') or 'the line'}`: {e.message[:200]}"


def shape_problem(validator, data) -> str | None:
    """The most telling way `data` breaks the schema, in words (rulespec.schema's,
    the same as a spec's), or None: "`seed`: expected an integer, got str 'x'"."""
    import jsonschema
    from rulespec.schema import describe
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None:
        return None
    path, message = describe(error)[0]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return f"`{where.lstrip('.')}`: {message}" if where else f"the line: {message}"


def dumps(data) -> str:
    """JSON text with no NaN or Infinity (they are not JSON): such numbers become null."""
    try:
        return json.dumps(data, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(data), allow_nan=False)


def _finite(data):
    if isinstance(data, float):
        return data if data - data == 0 else None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_finite(v) for v in data]
    return data
