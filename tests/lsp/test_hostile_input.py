"""What an editor may send or a `spec:` may name, however odd: the language server
answers with diagnostics, never an exception, a hang or unbounded memory."""
from __future__ import annotations

import os
import re

import pytest

from rulespec import loader
from rulespec.errors import SpecErrors
from rulespec.limits import SPEC_BYTES
from rulespec.lsp import features as F
from rulespec.lsp import project as P
from tests.paths import ROOT

MARKET = ROOT / "tests/games/market.yaml"
SCENARIO_BODY = "players: 2\nscenarios:\n  - name: r\n    steps: []\n"


def _only(a: P.Analysis) -> P.Diagnostic:
    (found,) = a.diagnostics
    assert not found.message.startswith("internal error")
    return found


# ---------------------------------------------- what a scenario's `spec:` names
@pytest.mark.parametrize("special", ["/dev/zero", "/dev/stdin", "fifo"])
def test_a_spec_that_is_no_regular_file_is_refused_unread(tmp_path, special):
    # /dev/zero never ends, a FIFO waits for a writer, /dev/stdin is the server's own input
    if special == "fifo":
        special = str(tmp_path / "pipe")
        os.mkfifo(special)
    scenario = tmp_path / "s.scenarios.yaml"
    found = _only(P.analyze(str(scenario), f"spec: {special}\n{SCENARIO_BODY}"))
    assert (found.line, found.start) == (0, 0)   # at the `spec:` key
    assert found.message.startswith("cannot read ") and "not a regular file" in found.message


def test_a_spec_over_the_limit_is_refused_in_the_clis_words(tmp_path):
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as f:
        f.truncate(SPEC_BYTES + 1)   # sparse: no disk used
    with pytest.raises(SpecErrors) as cli:
        loader.load_spec(str(huge))
    scenario = tmp_path / "s.scenarios.yaml"
    found = _only(P.analyze(str(scenario), f"spec: huge.yaml\n{SCENARIO_BODY}"))
    assert found.message == cli.value.errors[0].message
    assert "larger than the limit of 16 MB" in found.message
    project = P.Project([str(tmp_path)])   # a closed file the project reads: the same reader
    assert _only(project.analysis(str(huge))).message == found.message


# ------------------------------------------------------------ unpaired surrogates
@pytest.mark.parametrize("bad", ["\ud800", "\udcff"])
def test_an_unpaired_surrogate_is_a_diagnostic_at_its_place(bad):
    # a client may send "\ud800" in JSON; "\udcff" is a byte decoded with surrogateescape
    text = MARKET.read_text().replace("game: Market Town", f"game: Market {bad} Town")
    found = _only(P.analyze(str(MARKET), text))
    assert (found.line, found.start) == (2, 13)
    assert found.message == (f"the text holds an unpaired surrogate (U+{ord(bad):04X}) at line 3, "
                             f"col 14: not valid Unicode, so it cannot be checked")


def test_a_scenarios_open_spec_with_a_surrogate_is_reported_at_spec(tmp_path):
    project = P.Project([str(tmp_path)])
    spec, scenario = tmp_path / "g.yaml", tmp_path / "s.scenarios.yaml"
    project.set_text(str(spec), MARKET.read_text().replace("Town", "\ud800"))
    project.set_text(str(scenario), f"spec: g.yaml\n{SCENARIO_BODY}")
    found = _only(project.analysis(str(scenario)))
    assert "unpaired surrogate (U+D800)" in found.message and found.line == 0


# ------------------------------------------------------- scenario files in a ring
def test_a_scenario_file_naming_itself_is_one_short_error_at_spec(tmp_path):
    scenario = tmp_path / "s.scenarios.yaml"
    text = f"# a copy-paste slip\nspec: s.scenarios.yaml\n{SCENARIO_BODY}"
    scenario.write_text(text)
    for a in (P.analyze(str(scenario), text), P.Project([str(tmp_path)]).analysis(str(scenario))):
        found = _only(a)
        assert (found.line, found.start) == (1, 0)
        assert found.message.startswith("a scenario file cannot be its own spec")


def test_two_scenario_files_naming_each_other_are_refused(tmp_path):
    for name, other in (("a", "b"), ("b", "a")):
        (tmp_path / f"{name}.scenarios.yaml").write_text(f"spec: {other}.scenarios.yaml\n{SCENARIO_BODY}")
    project = P.Project([str(tmp_path)])
    for name, other in (("a", "b"), ("b", "a")):
        found = _only(project.analysis(str(tmp_path / f"{name}.scenarios.yaml")))
        assert found.line == 0 and found.message.startswith(
            f"the spec {other}.scenarios.yaml is a scenario file (it has `spec:` and `scenarios:`)")
    assert project.family(str(tmp_path / "a.scenarios.yaml"))   # navigation copes as well


# ------------------------------------------------- every feature, every position
SHAPES = [" x", " [1, [a]]", "", " 5", " {}", " [x, y]"]   # text, lists, null, a number, an empty map
_KEYED = re.compile(r"(\s*(?:- )?[\w\"']+:)")


def _garbled(lines: list[str], i: int, shape: str) -> str:
    """Line i's value made `shape`, the block beneath it dropped (a map being retyped)."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
        j += 1
    return "\n".join(lines[:i] + [_KEYED.match(lines[i]).group(1) + shape] + lines[j:])


def _versions(path) -> list[str]:
    """A game's head cut mid-line, and garbled at a few of its keys."""
    lines = path.read_text().split("\n")[:60]
    head = "\n".join(lines)
    keyed = [i for i, line in enumerate(lines) if _KEYED.match(line) and i > 0]
    picks = [keyed[k * len(keyed) // len(SHAPES)] for k in range(len(SHAPES))]
    return [head[:len(head) * 2 // 3]] + [_garbled(lines, i, s) for i, s in zip(picks, SHAPES)]


# the shapes that broke the index or completion once: a half-typed variants:, parameters
# and symbols that are not names
MARKET_CASES = [("variants:", "variants:\n  l"), ("symbols: [corn,", "symbols: [1, corn,"),
                ("params: [p, n]", "params: [[a], 1]")]


def _every_feature(a: P.Analysis, lines=None) -> None:
    F.outline(a)
    text_lines = P.split_lines(a.text)
    for line in range(len(text_lines)) if lines is None else lines:
        for char in range(len(text_lines[line]) + 1):
            F.completion(a, line, char)
            F.hover(a, line, char)
            F.definition(a, line, char)
            occ = a.at(line, char)
            if occ is not None:
                F.references([a], occ.symbol)
                if a.names is not None:
                    F.rename_check(a, occ.symbol, "renamed", [a])


def _no_internal_error(a: P.Analysis) -> None:
    assert not any(d.message.startswith("internal error") for d in a.diagnostics)


@pytest.mark.parametrize("game", sorted((ROOT / "games").glob("*.yaml")) + [MARKET],
                         ids=lambda p: p.name)
def test_every_feature_at_every_position_of_a_broken_game(game):
    for text in _versions(game):
        a = P.analyze(str(game), text)
        _no_internal_error(a)
        _every_feature(a)


@pytest.mark.parametrize("old,new", MARKET_CASES, ids=[c[0] for c in MARKET_CASES])
def test_every_feature_near_a_half_typed_market_key(old, new):
    text = MARKET.read_text()
    cut = text.replace(old, new)
    if old == "variants:":
        cut = cut[:cut.index(new) + len(new)]   # the file ends where the typing is
    a = P.analyze(str(MARKET), cut)
    _no_internal_error(a)
    lines = P.split_lines(cut)
    at = next(i for i, line in enumerate(lines) if new.split("\n")[-1] in line)
    _every_feature(a, range(max(0, at - 3), min(at + 4, len(lines))))
    _every_feature(a, [len(lines) - 1])
