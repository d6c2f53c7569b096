"""validate checks the presentation: a question names only values the rule can read,
and `presentation:` hides and styles only what the spec declares."""
from __future__ import annotations

import io

from interpreter.cli import main
from tests.paths import ROOT

MARKET = (ROOT / "tests" / "games" / "market.yaml").read_text(encoding="utf-8")


def validate(tmp_path, text):
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["validate", str(path)], stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def test_a_question_naming_an_unknown_value_is_an_error_at_its_line(tmp_path):
    line = next(l for l in MARKET.splitlines() if "choose number" in l)
    bad = MARKET.replace(line, line.rstrip() + ' as "How much, {nobody}?"')
    code, text = validate(tmp_path, bad)
    number = MARKET.splitlines().index(line) + 1
    assert code == 1 and f"spec.yaml:{number}:" in text and "{nobody}" in text
    good = MARKET.replace(line, line.rstrip() + ' as "How much, {player}?"')
    assert validate(tmp_path, good)[0] == 0


def test_presentation_hides_only_declared_things(tmp_path):
    code, text = validate(tmp_path, MARKET + "\npresentation:\n  hidden: [coinz]\n  cards: {nope: {show: x}}\n")
    assert code == 1 and "unknown 'coinz'" in text and "unknown card kind 'nope'" in text
    code, text = validate(tmp_path, MARKET + "\npresentation:\n  hidden: [coins]\n  colours: {red: '#f00'}\n")
    assert code == 0, text


def test_a_question_refuses_anything_but_a_plain_name_at_its_line_saying_what_is_allowed(tmp_path):
    """Nothing but {name} is filled in; the rest was shown as written."""
    line = next(l for l in MARKET.splitlines() if "choose number" in l)
    number = MARKET.splitlines().index(line) + 1
    for placeholder in ("{players[0].coins}", "{zz(1)}", "{ k }", "{p.coins}"):
        bad = MARKET.replace(line, line.rstrip() + f' as "How much, {placeholder}?"')
        code, text = validate(tmp_path, bad)
        assert code == 1 and f"spec.yaml:{number}:" in text, text
        assert f"the question has {placeholder}, which would be shown as written" in text
        assert "a plain name of a value the rule can read" in text
