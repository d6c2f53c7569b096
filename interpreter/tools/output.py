"""Writing the output file a command's option named (--log, --html, --out, --png).

One rule for every command: a named output file that cannot be opened, written
or closed (a full disk, a path refused by the system) is the user's path, said as
`cannot write PATH: REASON` and exit 2, as the refusals the CLI makes before any
work (interpreter/cli.py, _check_output). Only the file's own operations are
turned into CannotWrite: an OSError from elsewhere in the command (stdout's pipe
closed mid-game) stays what it is.
"""
from __future__ import annotations

import contextlib


class CannotWrite(Exception):
    """The output file the user named could not be opened, written or closed."""

    def __init__(self, path: str, error: OSError):
        super().__init__(f"cannot write {path}: {error.strerror or error}")
        self.path = path


@contextlib.contextmanager
def _blamed_on(path: str):
    try:
        yield
    except OSError as e:
        raise CannotWrite(path, e) from None


class _Guarded:
    """A file whose write and flush failures name its path (CannotWrite)."""

    def __init__(self, f, path: str):
        self._f, self._path = f, path

    def write(self, data):
        with _blamed_on(self._path):
            return self._f.write(data)

    def flush(self):
        with _blamed_on(self._path):
            self._f.flush()


@contextlib.contextmanager
def writing(path: str, binary: bool = False):
    """The file at `path`, opened to be written (text in UTF-8, or bytes), as an
    object with write and flush; any failure of the file itself, its closing
    included (where a full disk is often first seen), raises CannotWrite."""
    with _blamed_on(path):
        f = open(path, "wb") if binary else open(path, "w", encoding="utf-8")
    try:
        yield _Guarded(f, path)
    except BaseException:
        with contextlib.suppress(OSError):   # the first failure is the one to say
            f.close()
        raise
    with _blamed_on(path):
        f.close()


def write_file(path: str, data: str | bytes) -> None:
    """Write all of `data` (text or bytes) to `path`; CannotWrite if it cannot be."""
    with writing(path, binary=isinstance(data, bytes)) as f:
        f.write(data)
