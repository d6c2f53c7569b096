"""docs/authoring.md teaches the whole language: its examples cover every construct and
built-in function, and its worked example is a variant of a real game.

Its commands run, and its outputs appear, with every other document's in
tests/test_docs.py.
"""
from __future__ import annotations

import re

from rulespec import ast
from rulespec.builtins import SIGNATURES
from rulespec.dsl import parse_statements
from tests.doc_blocks import blocks
from tests.paths import ROOT

GUIDE = ROOT / "docs" / "authoring.md"
TEXT = GUIDE.read_text(encoding="utf-8")


def test_the_worked_example_is_a_variant_of_a_real_game():
    """The worked example copies a game of games/ (the lead may switch which)."""
    copied = re.findall(r"^cp (games/\S+\.yaml) ", TEXT, re.M)
    assert copied and all((ROOT / c).exists() for c in copied)
    assert "rulespec compare" in TEXT and "rulespec simulate" in TEXT and "rulespec scenario" in TEXT


def rules_trees():
    return [parse_statements(block.body) for block in blocks(GUIDE) if block.language == "rules"]


def test_language_examples_parse_and_cover_every_construct():
    used = {node.rule for tree in rules_trees() for node in ast.walk(tree)}

    def every(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from every(sub)
    constructs = {cls.rule for cls in every(ast.Node) if cls.rule}
    assert constructs - used == set(), "the guide has no example of these"


def test_every_builtin_is_in_the_guide():
    missing = [name for name in SIGNATURES if f"`{name}(" not in TEXT and f" {name}(" not in TEXT]
    assert not missing, f"built-in functions the guide does not mention: {missing}"


def test_the_guide_is_built_around_the_designers_loop():
    """Edit -> replay (also --against) -> scenario, each as a command tests/test_docs.py runs."""
    loop = TEXT[TEXT.index("## 4. The designer's loop"):TEXT.index("## 5.")]
    commands = [b.body for b in blocks(GUIDE) if b.language == "sh" and b.body in loop]
    order = ["--log before.jsonl", "rulespec replay before.jsonl", "--against",
             "rulespec scenario my-games/siena-edit.scenarios.yaml"]
    at = [next(i for i, c in enumerate(commands) if step in c) for step in order]
    assert at == sorted(at), "the loop's commands come in the loop's order"
    for step in ("rig:", "let:", "stage:", "resume:", "expect_winner:", "expect_scores:"):
        assert step in loop, f"the guide does not show the scenario step {step}"
