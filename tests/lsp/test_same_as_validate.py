"""The server's diagnostics are validate's errors: a differential test over every
invalid spec of tests/specs/invalid and the games (base and each variant)."""
from __future__ import annotations

import glob

import pytest

from rulespec import validate
from rulespec.errors import SpecErrors
from rulespec.lsp.project import analyze
from tests.paths import ROOT

SPECS = sorted(glob.glob(str(ROOT / "tests/specs/invalid/*.yaml"))) + \
    [str(ROOT / g) for g in ("games/siena.yaml", "games/zena.yaml", "games/castles.yaml",
                             "tests/games/market.yaml")]
PREFIX = "in variant '"


def errors_of(path, variant=None) -> list[tuple]:
    try:
        validate(path, variant=variant)
    except SpecErrors as e:
        return [(x.line, x.col, x.message) for x in e.errors]
    return []


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.rsplit("/", 1)[-1])
def test_diagnostics_are_validates_errors(path):
    text = open(path, encoding="utf-8").read()
    a = analyze(path, text)
    found = [(d.line + 1, d.start + 1, d.message) for d in a.diagnostics]
    base = [f for f in found if not f[2].startswith(PREFIX)]
    assert base == errors_of(path)
    for variant in (a.spec.data.get("variants") or {}) if a.spec else ():
        own = {(f[0], f[1], f[2].split("': ", 1)[1]) for f in found
               if f[2].startswith(f"{PREFIX}{variant}'")}
        assert set(errors_of(path, variant)) <= set(base) | own, variant
