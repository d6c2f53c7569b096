"""Hypothesis fuzzers for the files rulespec reads back: logs and saves (the spec
fuzzer is tests/cli/test_robustness.py). A damaged file is refused as corrupt or,
when its damage is harmless, read; it never raises anything but a RulespecError."""
from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cli import main
from rulespec.errors import RulespecError
from tests.paths import ROOT
from tests.shipped import shipped

HOSTILE = Path(__file__).parent
LOG_LINES = (HOSTILE / "logs" / "_base.jsonl").read_text().splitlines()
SAVE = json.loads((HOSTILE / "saves" / "_base.json").read_text())
GAME = shipped(ROOT / "tests" / "games" / "market.yaml")

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)


def _paths(data, prefix=()):
    """Every place in a JSON value: tuples of keys and indexes."""
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:30]):
            yield from _paths(v, prefix + (i,))


def _replace(data, path, value):
    """`data` (JSON) with the place at `path` holding `value`; `data` is unchanged. Only
    the lists and maps on the path are copied (a whole copy per place made the tests
    that try every place spend half their time copying): the rest is shared, so the
    result is read (validated, dumped), never changed in place."""
    if not path:
        return value
    copy = list(data) if isinstance(data, list) else dict(data)
    copy[path[0]] = _replace(data[path[0]], path[1:], value)
    return copy


@st.composite
def damaged(draw, data):
    """`data` with one place replaced by other JSON, or deleted."""
    paths = list(_paths(data))
    path = draw(st.sampled_from(paths))
    if path and draw(st.booleans()):
        data = json.loads(json.dumps(data))
        target = data
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]
        return data
    return _replace(data, path, draw(JSON))


@st.composite
def damaged_logs(draw):
    lines = [json.loads(line) for line in LOG_LINES]
    kind = draw(st.sampled_from(["value", "value", "drop", "swap", "text"]))
    i = draw(st.integers(0, len(lines) - 1))
    if kind == "value":
        lines[i] = draw(damaged(lines[i]))
    elif kind == "drop":
        del lines[i]
    elif kind == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    if kind == "text":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["{", "]", "\n", "NaN", "\x00", '"', "1e999"])) + text[at:]
    return text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_logs())
def test_a_damaged_log_is_replayed_or_named_corrupt(tmp_path_factory, text):
    log = tmp_path_factory.mktemp("logs") / "fuzzed.jsonl"
    log.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    code = main(["replay", str(log)], stdout=out, stderr=err)
    assert code in (0, 1)
    if code == 1:
        assert "fuzzed.jsonl" in err.getvalue()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged(SAVE))
def test_a_damaged_save_loads_and_plays_on_or_is_named_corrupt(data):
    _loads_and_plays_on_or_is_named_corrupt(data)


def _loads_and_plays_on_or_is_named_corrupt(data):
    try:
        state = GAME.state_from_json(json.dumps(data))
        for _ in range(300):
            if state.is_terminal():
                break
            state.apply(0)
    except RulespecError as e:
        assert e.message


TAGS = st.sampled_from(["$dict", "$map", "$zone", "$seat"])


@st.composite
def saves_with_a_bad_tag(draw):
    """The save with one value replaced by a tagged object (how zones, seats and maps
    are saved) that holds any JSON: {"$dict": 5}, {"$map": [[[1], 2]]}, {"$seat": "x"}."""
    places = [p for p in _paths(SAVE) if len(p) >= 2 and p[0] in ("globals", "per_player", "per_card", "stack")]
    path = draw(st.sampled_from(places))
    return _replace(SAVE, path, {draw(TAGS): draw(JSON)})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(saves_with_a_bad_tag())
def test_a_save_with_a_bad_tagged_value_loads_and_plays_on_or_is_named_corrupt(data):
    _loads_and_plays_on_or_is_named_corrupt(data)
