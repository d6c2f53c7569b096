"""Where things are, for tests in any sub-folder: the repository and tests/."""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
