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


@pytest.fixture
def unassigned_reads_allowed():
    """validate without its definite-assignment check (rulespec/definite.py), for the
    tests of what play does with a local read where it has no value: such specs are
    refused at validate now, and these tests hold the engine's own handling (its
    message, its place, the same with every fast path) as the second defence. A
    patch of its own, which a test's `monkeypatch.undo()` leaves in place."""
    import rulespec.check
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rulespec.check, "check_definite_assignment", lambda *args, **kwargs: [])
        yield
