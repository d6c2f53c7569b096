import re

import pytest
import yaml
from jsonschema import Draft202012Validator

from rulespec.errors import RulespecError
from rulespec.schema import load_schema, schema_text, validate
from tests.paths import ROOT

DOC = ROOT / "docs" / "spec-format.md"


class Yaml12Loader(yaml.SafeLoader):
    """SafeLoader without YAML 1.1 booleans, so a trigger's `on:` stays a string."""


Yaml12Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in rs if tag != "tag:yaml.org,2002:bool"]
    for ch, rs in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), list("tf"))


class FakeSpec:
    """The two things validate() needs from the loader's Spec."""

    def __init__(self, data):
        self.data = data

    def error(self, message, path):
        return RulespecError(message, path="/".join(map(str, path)))


def minimal(**extra):
    return {"game": "Tiny", "players": {"min": 1, "max": 2}, "flow": "pass", **extra}


def errors(data):
    return [(e.path, e.message) for e in validate(FakeSpec(data))]


def test_schema_is_valid_draft_2020_12():
    Draft202012Validator.check_schema(load_schema())
    assert load_schema()["$id"] == "https://rulespec.dev/spec.schema.json"
    assert schema_text().startswith("{")


def test_minimal_spec_passes():
    assert errors(minimal()) == []


def test_doc_example_passes():
    block = re.search(r"```yaml\n(.*?)```", DOC.read_text(), re.S).group(1)
    assert errors(yaml.load(block, Yaml12Loader)) == []


def test_bare_on_read_as_true_gets_a_hint():
    data = minimal(triggers={"t": {True: "sold", "do": "pass"}})
    assert any("quote it" in message for _, message in errors(data))


def test_typo_top_level_key_suggests_the_right_one():
    [(path, message)] = errors(minimal(phasse={}))
    assert path == "phasse"
    assert "did you mean 'phases'" in message


def test_unknown_key_without_close_match_lists_allowed_keys():
    [(path, message)] = errors(minimal(zones={"deck": {"zzz": 1}}))
    assert path == "zones/deck/zzz"
    assert "allowed keys: assumed, description, limit" in message


def test_missing_flow():
    data = minimal()
    del data["flow"]
    assert errors(data) == [("", "missing required key 'flow'")]


def test_wrong_type():
    [(path, message)] = errors(minimal(players={"min": "two", "max": 4}))
    assert path == "players/min"
    assert message == "expected an integer, got str 'two'"


def test_bad_visibility_enum():
    [(path, message)] = errors(minimal(zones={"deck": {"visibility": "owner"}}))
    assert path == "zones/deck/visibility"
    assert "use one of: public, hidden" in message


def test_object_variable_needs_start():
    found = errors(minimal(globals={"price": {"corn": 8}}))
    assert ("globals/price", "missing required key 'start' "
            "(write a map start value as {start: {...}})") in found
    assert errors(minimal(globals={"price": {"start": {"corn": 8}}, "leader": "none"})) == []


def test_bad_rule_names():
    assert errors(minimal(triggers={"pay tax, once": {"on": "x", "do": "pass"}})) == []
    [(path, message)] = errors(minimal(phases={"my phase": {"do": "pass"}}))
    assert path == "phases/my phase"
    assert message.startswith("bad name 'my phase'")


def test_assumed_notes_are_allowed_everywhere_editors_see_them():
    data = minimal(assumed="whole spec", phases={"assumed": "all", "p": {"do": "x", "assumed": "?"}})
    assert errors(data) == []


def test_huge_instances_are_not_printed():
    [(path, message)] = errors(minimal(symbols="x" * 500))
    assert len(message) < 120


@pytest.mark.parametrize("expr", ["p.coins", 3, True])
def test_expressions_may_be_scalars(expr):
    assert errors(minimal(scoring={"score": expr, "tiebreaks": [expr]})) == []


def walk(schema, where="#"):
    """Yield (where, subschema) for every property schema in the tree."""
    if isinstance(schema, dict):
        for name, sub in schema.get("properties", {}).items():
            yield f"{where}/{name}", sub
        for key, sub in schema.items():
            yield from walk(sub, f"{where}/{key}")
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            yield from walk(sub, f"{where}/{i}")


def test_every_property_has_a_description():
    schema = load_schema()
    defs = schema["$defs"]
    missing = []
    for where, sub in walk(schema):
        target = defs[sub["$ref"].split("/")[-1]] if "$ref" in sub else sub
        if "description" not in sub and "description" not in target:
            missing.append(where)
    assert missing == []
