"""Hypothesis runs derandomized under CI (CI=true, as .ci/run is run): the same
examples on every run, so a submission's result does not depend on luck. Run
locally, the property tests keep exploring new examples."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
