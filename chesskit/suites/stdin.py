"""A suite read from standard input: ``chesskit suite -``.

``-`` among the suite paths stands for the text piped in (``cat tricky.epd | chesskit
suite -``), in any format a suite file may have (the format is told by its content: it
has no name ending in ``.epd`` or ``.perft``). Its positions and bad lines carry
``STDIN``, a path shown as ``<stdin>`` (``file`` in the JSON, ``<stdin>:3`` in a line's
location, ``<stdin>:3`` as the id of a line without one), which no file system holds: it
is told from a file of that name by its type, not by its spelling, so ``./<stdin>`` is
still a file.

Standard input can be read only once, and a suite is read more than once (its format is
sniffed from its first line, then it is read whole), so the first read copies it into a
temporary file, in bounded chunks (a suite of a million lines costs disk, not memory),
removed when the process ends; every read opens that copy anew. The copy belongs to the
``sys.stdin`` it was read from: a later run in the same process with another standard
input (a test's, the API's caller's) reads that one.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import BinaryIO

# what stands for standard input on the command line, by the usual convention
DASH = "-"
SHOWN = "<stdin>"


class _StdinPath(type(Path())):  # type: ignore[misc]  # PosixPath or WindowsPath
    """The path of the suite read from standard input: ``<stdin>`` wherever it is shown."""

    __slots__ = ()


STDIN: Path = _StdinPath(SHOWN)

_lock = threading.Lock()
_copy: tuple[object, str] | None = None  # (the sys.stdin copied, the copy's file name)


def is_stdin(path: object) -> bool:
    """True for ``STDIN`` (not for a file that happens to be named ``<stdin>``)."""
    return isinstance(path, _StdinPath)


def given(path: str | Path) -> Path:
    """The Path of a suite path given on the command line: ``STDIN`` for ``-``."""
    return STDIN if not isinstance(path, Path) and path == DASH else Path(path)


def open_stdin() -> BinaryIO:
    """Standard input's bytes from the start, as a binary file of its own (a handle on the
    copy; see the module's docstring). Raises OSError."""
    global _copy
    with _lock:
        if _copy is None or _copy[0] is not sys.stdin:
            _copy = (sys.stdin, _copied(sys.stdin))
        name = _copy[1]
    return open(name, "rb")


def _copied(stream) -> str:
    """The name of a new temporary file holding ``stream``'s bytes (none for no stream)."""
    handle, name = tempfile.mkstemp(prefix="chesskit-stdin-")
    atexit.register(_remove, name)
    with open(handle, "wb") as copy:
        source = getattr(stream, "buffer", None)
        if source is not None:
            shutil.copyfileobj(source, copy, 64 * 1024)
        elif stream is not None:  # a text stream with no bytes under it
            copy.write(stream.read().encode("utf-8", "surrogateescape"))
    return name


def _remove(name: str) -> None:
    try:
        os.remove(name)
    except OSError:
        pass
