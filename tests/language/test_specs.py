"""Spec files as test cases: every valid spec validates and plays; every invalid
spec fails with the error its first line announces.

An invalid spec starts with `# expect: LINE:COL: MESSAGE-SUBSTRING` (COL may be
`*`); it may add `# variant: NAME` (validate with that variant applied) and
`# xfail: REASON` (a known bug: the case must fail until it is fixed). A valid
spec may carry `# xfail: REASON` too.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli import main
from rulespec import SpecErrors, validate
from tests.playout import play_random
from tests.paths import TESTS

HERE = TESTS / "specs"
VALID = sorted((HERE / "valid").glob("*.yaml"))
INVALID = sorted((HERE / "invalid").glob("*.yaml"))

EXPECT = re.compile(r"^# expect: (\d+):(\d+|\*): (.+)$")


def header(path: Path) -> dict:
    """The `# key: value` comment lines at the top of a spec file."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^# (expect|variant|xfail): (.*)$", line)
        if not m:
            break
        found[m.group(1)] = m.group(2).strip()
    return found


def cases(paths):
    out = []
    for path in paths:
        reason = header(path).get("xfail")
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


def test_enough_cases():
    assert len(VALID) >= 6
    assert len(INVALID) >= 40
    for path in INVALID:
        assert EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0] if path.stat().st_size
                            else ""), f"{path.name}: first line must be `# expect: LINE:COL: TEXT`"


# ------------------------------------------------------------------- valid specs
@pytest.mark.parametrize("path", cases(VALID))
def test_valid_spec_validates_and_plays(path):
    checked = validate(path)
    variants = list((checked.spec.data.get("variants") or {}))
    for variant in [None] + variants:
        game = load_game(path, variant=variant)
        for players in sorted({game.min_players, game.max_players}):
            state = play_random(game, players, seed=players)
            assert state.is_terminal() and state.ended_by
            assert len(state.scores()) == players
            assert set(state.winner()) <= set(range(players))


@pytest.mark.parametrize("path", cases(VALID))
def test_valid_spec_cli_validate_all_variants(path):
    out, err = io.StringIO(), io.StringIO()
    assert main(["validate", "--all-variants", str(path)], out, err) == 0, out.getvalue() + err.getvalue()
    assert out.getvalue() == ""
    assert "ok: 1 file valid" in err.getvalue()


# ----------------------------------------------------------------- invalid specs
def expectation(path: Path):
    m = EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    line, col, text = m.groups()
    return int(line), (None if col == "*" else int(col)), text


@pytest.mark.parametrize("path", cases(INVALID))
def test_invalid_spec_error(path):
    line, col, text = expectation(path)
    variant = header(path).get("variant")
    with pytest.raises(SpecErrors) as info:
        validate(path, variant=variant)
    formatted = info.value.format()
    where = re.escape(f"{path}:{line}:") + (r"\d+" if col is None else str(col)) + ": error: "
    assert any(re.match(where, out) and text in out for out in formatted.splitlines()), (
        f"expected {line}:{col or '*'}: ...{text}... in:\n{formatted}")


@pytest.mark.parametrize("path", cases(INVALID))
def test_invalid_spec_cli(path):
    line, col, text = expectation(path)
    variant = header(path).get("variant")
    out, err = io.StringIO(), io.StringIO()
    argv = ["validate", str(path)] + (["--variant", variant] if variant else [])
    # a --variant the spec does not declare is bad usage: exit 2, said on stderr
    usage = text.startswith("unknown variant")
    assert main(argv, out, err) == (2 if usage else 1)
    assert "Traceback" not in err.getvalue() + out.getvalue()
    said = (err if usage else out).getvalue()
    assert f"{path}:{line}:" in said
    assert text in said
    assert all(re.match(r"^.+:\d+:\d+: error: ", x) for x in said.splitlines())
