"""Editor support: each game names the JSON Schema in its modeline, and the schema
describes every key the games use, so completion and hover help work."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from rulespec.loader import load_spec
from rulespec.schema import SCHEMA_PATH, load_schema
from tests.paths import ROOT

GAMES = sorted((ROOT / "games").glob("*.yaml"))
SPECS = GAMES + [ROOT / "tests" / "games" / "market.yaml"]
MODELINE = "# yaml-language-server: $schema="


def test_schema_is_valid_json_schema():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema.get("description")


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.name)
def test_modeline_points_at_the_package_schema(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(MODELINE), f"{path.name}: the first line must be the modeline"
    target = (path.parent / first[len(MODELINE):].strip()).resolve()
    assert target == SCHEMA_PATH.resolve()


def _resolve(node: dict, root: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        target = root
        for part in ref[2:].split("/"):
            target = target[part]
        # keep a description written beside the $ref
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _branches(node: dict, root: dict) -> list[dict]:
    node = _resolve(node, root)
    out = [node]
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(key, []):
            out += _branches(branch, root)
    return out


def _child(node: dict, key, value, root: dict):
    """(schema of `key` inside an object schema, whether it is described), or None."""
    for branch in _branches(node, root):
        props = branch.get("properties", {})
        if key in props:
            child = _resolve(props[key], root)
            return child, bool(child.get("description"))
        extra = branch.get("additionalProperties")
        if isinstance(extra, dict):
            child = _resolve(extra, root)
            # a map keyed by names: the entry schema or the map itself says what a name is
            return child, bool(child.get("description") or branch.get("description"))
    return None


def _undescribed(data, node, root, path, out):
    if isinstance(data, dict):
        for key, value in data.items():
            found = _child(node, key, value, root)
            if found is None:
                continue        # free-form data (constants, meta): not keys of the format
            child, described = found
            if not described:
                out.add(f"{path}.{key}")
            _undescribed(value, child, root, f"{path}.{key}", out)
    elif isinstance(data, list):
        for branch in _branches(node, root):
            items = branch.get("items")
            if isinstance(items, dict):
                for item in data:
                    _undescribed(item, items, root, f"{path}[]", out)
                return


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.name)
def test_every_key_the_games_use_is_described(path):
    root = load_schema()
    spec = load_spec(path)
    missing: set[str] = set()
    _undescribed(spec.data, root, root, "$", missing)
    assert not missing, f"keys without a description in the schema: {sorted(missing)}"


def test_value_wrappers_are_described():
    """`assumed:` and `description:` appear in every game: hovering them must say what they are."""
    defs = load_schema()["$defs"]
    for name in ("assumed", "description"):
        assert defs[name].get("description"), name
