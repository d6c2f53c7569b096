"""Hostile input that is refused or handled within bounds however large it is: a
replay stops at the first line where the log and the game part, reading no further;
a spec over a size limit is refused by name. Each input is built just past what it
tests; how fast the limits are is benchmarks/'s to measure, the CPU bounds here
only keep a regression from hanging the suite (tests/cpu.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.tools.log import LogReader
from rulespec import validate
from rulespec.errors import SpecErrors
from rulespec.limits import RULE_CHARS, RULE_TEXT, VARIANTS
from tests.cpu import cpu_bound
from tests.hostile.make_corpus import spec
from tests.hostile.test_messages import run
from tests.shipped import shipped_specs

BASE = Path(__file__).parent / "logs" / "_base.jsonl"


def _log(tmp_path, lines: list[str]) -> Path:
    log = tmp_path / "x.jsonl"
    log.write_text("\n".join(lines) + "\n")
    return log


def test_replay_stops_at_the_first_line_that_differs_and_reads_no_further(tmp_path):
    """Junk decisions after a good header: the game parts at line 2 (its first line
    is a shuffle); the lines after line 3 are not even JSON, and are never read."""
    head = BASE.read_text().splitlines()[0]
    junk = json.dumps({"decision": {"player": 0, "label": "done", "secret": False}})
    log = _log(tmp_path, [head, junk, junk] + ["not json"] * 20_000)
    with cpu_bound(20):
        code, out, err = run("replay", log)
    assert code == 1 and f"{log}:2: the log says" in err and "corrupt" not in err


def test_replay_stops_at_the_first_line_after_the_result(tmp_path):
    lines = BASE.read_text().splitlines()
    log = _log(tmp_path, lines + [json.dumps({"state": "0" * 16})] * 20_000 + ["not json"])
    with cpu_bound(20):
        code, out, err = run("replay", log)
    assert code == 1 and f"{log}:{len(lines) + 1}: the log has lines the game does not" in err


def test_a_corrupt_line_is_found_when_the_replay_reaches_it(tmp_path):
    lines = BASE.read_text().splitlines()
    lines[40] = "not json"
    code, out, err = run("replay", _log(tmp_path, lines))
    assert code == 1 and "corrupt log: line 41 is not JSON" in err


def test_the_log_reader_reads_a_line_when_asked_for_it(tmp_path):
    lines = BASE.read_text().splitlines()
    with LogReader(_log(tmp_path, lines[:3] + ["not json"])) as log:
        assert log.read == 1 and log.next_line() == json.loads(lines[1]) and log.read == 2


# ------------------------------------------------------------ specs
def _refused(text: str) -> str:
    """The first error validate gives `text`, under a CPU bound that no parse of the
    refused rules would meet."""
    with cpu_bound(10), pytest.raises(SpecErrors) as e:
        validate("hostile.yaml", text=text)
    return e.value.errors[0].format()


def test_a_rule_over_the_rule_length_limit_is_refused_unparsed():
    """One expression line `1+1+...` just past the limit: refused for its length at the
    rule, not after a parse for its nesting."""
    error = _refused(spec("g = " + "1+" * (RULE_CHARS // 2) + "1"))
    assert error.startswith("hostile.yaml:8:1: error: this rule is 20,006 characters long, "
                            "over the limit of 20,000 for one rule (limits: rule length)")


def test_rules_over_the_rule_text_limit_are_refused_before_any_is_parsed():
    """Procedures each under the rule length limit, whose sixth passes the total."""
    lines = RULE_CHARS // len("g = 1\n") - 100
    body, count = "      g = 1\n" * lines, RULE_TEXT // (lines * len("g = 1\n")) + 1
    text = spec("pass", extra="procedures:\n" + "".join(f"  p{i}:\n    do: |\n{body}"
                                                        for i in range(count)))
    line = text.splitlines().index(f"  p{count - 1}:") + 2
    assert _refused(text).startswith(f"hostile.yaml:{line}:5: error: the spec's rules pass "
                                     f"100,000 characters in all at this one, over the limit "
                                     f"(limits: rule text)")


def test_rules_under_the_limits_are_checked_as_ever():
    error = _refused(spec("g = 1\n" * 100 + "g = nope"))
    assert "nope" in error and "limits" not in error


def test_variants_over_the_limit_are_refused_at_the_first_too_many():
    variants = "".join(f"  v{i}:\n    changes: {{per_player: {{x: {{start: {i}}}}}}}\n"
                       for i in range(VARIANTS + 1))
    text = spec("pass", extra="variants:\n" + variants)
    line = text.splitlines().index(f"  v{VARIANTS}:") + 1
    assert _refused(text).startswith(f"hostile.yaml:{line}:3: error: the spec has {VARIANTS + 1} "
                                     f"variants, over the limit of {VARIANTS} (limits: variants)")


def test_the_limits_are_far_above_the_shipped_games():
    from rulespec import check, loader
    for path in shipped_specs():
        spec_ = loader.load_spec(path)
        texts = [len(str(check.get_path(spec_.data, r.path)))
                 for r in check.dsl_fields(spec_.data, check.Names.of(spec_.data))]
        assert max(texts) * 5 < RULE_CHARS and sum(texts) * 4 < RULE_TEXT, path
        assert len(spec_.data.get("variants") or {}) * 10 <= VARIANTS, path


def test_the_language_server_says_the_limits_as_validate_does():
    from rulespec.lsp.project import analyze
    text = spec("g = 1\n" * (RULE_TEXT // len("g = 1\n")))
    with cpu_bound(10):
        found = analyze("hostile.yaml", text).diagnostics
    assert [d.message for d in found] == [_refused(text).split(": error: ")[1].rsplit(" [", 1)[0]]
    assert "(limits: rule length)" in found[0].message
