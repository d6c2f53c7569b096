"""Opening a file the user named as input (a spec, a scenario, a log) without
waiting on it.

A named pipe (FIFO) with no program writing to it blocks `open` until one comes,
for ever: `rulespec validate some.fifo` hung where every other bad input gets an
error. Opened without blocking, then read as usual, a pipe with no writer reads
as empty (its end), and one a program writes to (the shell's `<(...)`) reads what
it writes. Devices are read as the readers' own byte limits allow (/dev/zero is
refused as too large, by each reader).
"""
from __future__ import annotations

import errno
import os
import stat


def open_input(path):
    """`path` open for reading bytes, as `open(path, "rb")` but that a pipe with no
    writer is not waited on (it reads as empty; `is_pipe` says which). Raises
    OSError as open does (IsADirectoryError for a folder)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        os.set_blocking(fd, True)   # a writer that is there is waited for, as usual
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def is_pipe(f) -> bool:
    """Whether the open file `f` is a pipe (a FIFO, or the shell's `<(...)`)."""
    return stat.S_ISFIFO(os.fstat(f.fileno()).st_mode)
