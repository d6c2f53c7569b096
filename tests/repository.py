"""A copy of this repository as a clone would hold it, for tests that install it afresh."""
from __future__ import annotations

import shutil
import subprocess

from tests.paths import ROOT

IDENTITY = {"GIT_AUTHOR_NAME": "rulespec tests", "GIT_AUTHOR_EMAIL": "tests@rulespec.invalid",
            "GIT_COMMITTER_NAME": "rulespec tests", "GIT_COMMITTER_EMAIL": "tests@rulespec.invalid"}


def copy_of_the_repository(to):
    """The files git knows (committed or not, but not ignored), copied to `to`, so what is
    tested is the working tree; outside a git checkout, the tree without run leftovers."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        shutil.copytree(ROOT, to, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__"))
        return to
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)
    return to


def git(where, *args, env=None) -> subprocess.CompletedProcess:
    """git in `where`, as the tests' identity; never raises (callers check returncode)."""
    return subprocess.run(["git", "-C", str(where), *args], env=env, capture_output=True, text=True)
