"""Hypothesis runs derandomized under CI (CI=true, as .ci/run is run): the same
examples on every run, so a submission's result does not depend on luck. Run
locally, the property tests keep exploring new examples. At the session's end,
no test has changed a shipped game that tests share (tests/shipped.py)."""
import os

import pytest
from hypothesis import settings

from tests import shipped

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session", autouse=True)
def _shared_games_unchanged():
    """At the session's end: no test changed a game it shared (tests/shipped.py)."""
    yield
    shipped.check()
