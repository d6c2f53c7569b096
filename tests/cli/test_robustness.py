"""Random damage to the real specs: always FILE:LINE:COL errors and exit 1, never a
traceback, never a hang, never a Python object built from YAML.

The specs mutated are every file in games/ plus tests/games/market.yaml, so the
test covers each game as it lands.
"""
from __future__ import annotations

import io
import re
import signal
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cli import main
from tests.paths import ROOT

SPECS = sorted((ROOT / "games").glob("*.yaml")) + [ROOT / "tests" / "games" / "market.yaml"]
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in SPECS}
WORK = Path(tempfile.mkdtemp(prefix="rulespec-mutants-"))
# CPU seconds per damaged spec: a guard against a blow-up (a validate that grows without
# bound on some damage), not a timing goal (those live in benchmarks/bench.py --cli).
# An undamaged spec validates in about 0.2 s; on a loaded VM one CPU second was
# passed once (2.45 s, fast again on replay), so the guard leaves room for that.
SECONDS = 5.0
HANG = 60          # wall-clock seconds after which a validate counts as hung

# Values of other types to put where a value was: the "swapped types" of the issue.
OTHER_VALUES = ["42", "-1", "true", "null", "[]", "{}", "[1, [2, {a: b}]]", "{start: {x: 1}}",
                '"text"', "~", "1.5", "!!python/object/apply:os.system [echo pwned]",
                "!!binary aGVsbG8=", "*nowhere", "&anchor x", "|", ">-"]
GARBAGE = ["(", ")", "[", "]", ":", ":=", "if", "else", "choose", "by", "\"", "'", "#", "\t",
           "    ", "\n", "\n  ", "..", "+=", "==", "\\", "{", "}", "%", "@", "`", "players",
           "none", "99999999999999999999", "-", ",", "for x in", "phase", "\u00e9", "\x00", "\ufeff"]


def lines_of(name):
    return TEXTS[name].split("\n")


@st.composite
def mutants(draw):
    name = draw(st.sampled_from(sorted(TEXTS)))
    lines = lines_of(name)
    kind = draw(st.sampled_from(["delete", "truncate", "swap_type", "garble", "bytes", "dedent",
                                 "duplicate"]))
    i = draw(st.integers(0, len(lines) - 1))
    if kind == "delete":                       # a deleted key (its line, or a run of lines)
        n = draw(st.integers(1, 8))
        lines = lines[:i] + lines[i + n:]
    elif kind == "truncate":
        text = "\n".join(lines)
        return name, kind, text[:draw(st.integers(0, len(text)))].encode()
    elif kind == "swap_type":                  # key: value -> key: <another type>
        m = re.match(r"^(\s*-?\s*[^:#]+:)\s*(.*)$", lines[i])
        if m:
            lines[i] = f"{m.group(1)} {draw(st.sampled_from(OTHER_VALUES))}"
    elif kind == "garble":                     # most lines of a spec are DSL text
        line = lines[i]
        at = draw(st.integers(0, len(line)))
        lines[i] = line[:at] + draw(st.sampled_from(GARBAGE)) + line[at + draw(st.integers(0, 3)):]
    elif kind == "dedent":
        lines[i] = lines[i].lstrip() if draw(st.booleans()) else "   " + lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    data = "\n".join(lines).encode()
    if kind == "bytes":                        # random bytes, even invalid UTF-8
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    return name, kind, data


ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: \S")


def _hung(signum, frame):
    raise AssertionError(f"validate did not finish within {HANG} seconds")


def validate(path: Path) -> tuple[int, str, float]:
    out, err = io.StringIO(), io.StringIO()
    start = time.process_time()   # CPU time: other jobs on the machine must not fail this
    signal.signal(signal.SIGALRM, _hung)
    signal.alarm(HANG)
    try:
        code = main(["validate", str(path)], out, err)
    finally:
        signal.alarm(0)
    return code, out.getvalue() + err.getvalue(), time.process_time() - start


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutants())
def test_a_damaged_spec_gives_located_errors(mutant):
    name, kind, data = mutant
    path = WORK / name
    path.write_bytes(data)
    code, text, seconds = validate(path)
    assert "Traceback" not in text
    assert seconds < SECONDS, f"{kind}: validate took {seconds:.2f}s"
    assert code in (0, 1), text
    if code == 0:
        return    # the damage happened to leave a valid spec (a comment, a blank line)
    errors = [line for line in text.splitlines() if line.strip()]
    assert errors, "exit 1 with nothing said"
    for line in errors:
        m = ERROR.match(line)
        assert m, f"{kind}: not FILE:LINE:COL: error: {line!r}"
        assert m["file"] == str(path)
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1


def test_yaml_never_builds_python_objects():
    text = TEXTS["market.yaml"].replace(
        "game: Market Town", "game: !!python/object/apply:os.system [touch /tmp/rulespec-pwned]")
    path = WORK / "pwned.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, _ = validate(path)
    assert code == 1 and "YAML tags are not allowed" in out
    assert not Path("/tmp/rulespec-pwned").exists()
