"""What validate refuses in a spec's text, and where: the helpers of the tests that
check a refusal's words and its line and column."""
from __future__ import annotations

import pytest

from rulespec import validate
from rulespec.errors import SpecErrors


def errors_of(text: str, file: str = "game.yaml") -> list:
    """The errors validate raises for the spec `text` (it must refuse it)."""
    with pytest.raises(SpecErrors) as refused:
        validate(file, text=text)
    return refused.value.errors


def where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, col), from 1, of the nth (from 0) occurrence of `needle` in `text`."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
