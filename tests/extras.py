"""Optional extras that are too heavy for the README's test command (Ray: about 250 MB).

A test module that needs one calls `need(extra, module)` at its top: without the
extra it is skipped with a reason that says how to run it (pytest -rs prints
it), unless RULESPEC_REQUIRE_EXTRAS names the extra, as .ci/run does after
installing it: then a missing extra fails instead of passing quietly.
"""
from __future__ import annotations

import importlib
import os

import pytest


def need(extra: str, module: str):
    """The imported module; else skip (or fail when the extra is required)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        required = os.environ.get("RULESPEC_REQUIRE_EXTRAS", "").split(",")
        message = (f"needs the '{extra}' extra, which the README's test command leaves out: "
                   f"pip install -e '.[{extra}]' && python -m pytest -m {extra} (.ci/run does)")
        if extra in required:
            pytest.fail(f"RULESPEC_REQUIRE_EXTRAS={extra}, but {message}", pytrace=False)
        pytest.skip(message, allow_module_level=True)
