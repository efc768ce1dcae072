"""The commands' flags named in an error, as the Python API's keywords.

The layers below the API speak to the command line: ``--hash 1000000 MiB is more than this
machine's memory ...: give a smaller --hash``. A caller of ``chesskit.perft`` gave
``hash_mb=1000000``, so the API says ``hash_mb=1000000 MiB ...: give a smaller hash_mb``.
The commands and the pytest plugin call the layers below directly (or ``Engine.with_flags``)
and keep the flags, which the plugin respells as its own ``--chesskit-...`` options.
"""

from __future__ import annotations

from chesskit.errors import ChesskitError
from chesskit.respell import respell

# each flag an error of the layers below may name, and the API keyword that stands for it
KEYWORDS = {
    "engine": "command",
    "engine-cmd": "engine_cmd",
    "engine-option": "options",
    "script": "script",
    "python": "python",
    "dialect": "dialect",
    "variant": "variant",
    "timeout": "timeout",
    "position-timeout": "position_timeout",
    "hash": "hash_mb",
    "threads": "threads",
    "max-nodes": "max_nodes",
    "max-depth": "max_depth",
    "tags": "tags",
    "skip-chess960": "skip_chess960",
    "fail-fast": "fail_fast",
    "stats": "stats",
    "state-pushes": "state_pushes",
}


def keyworded(message: str) -> str:
    """``message`` with each flag of ``KEYWORDS`` as its keyword: ``--max-nodes 100`` as
    ``max_nodes=100``, ``give a longer --timeout`` as ``give a longer timeout``."""

    def spelt(name: str, given: str | None) -> str:
        keyword = KEYWORDS[name]
        return f"{keyword}={given}" if given else keyword

    return respell(message, KEYWORDS, spelt, value=True)


def keyword_errors(respelled: bool = True) -> "_KeywordErrors":
    """A chesskit error raised inside says the keywords, not the flags (its one-line
    message respelled, unless not ``respelled``; its type and exit code unchanged), and is
    raised again from here: a failing test of the user's shows their call and chesskit's
    one line, not every frame of chesskit's inside (pytest prints them all: an engine that
    hung showed the descent's source)."""
    return _KeywordErrors(respelled)


class _KeywordErrors:
    """``keyword_errors``' context (a class: ``contextlib.contextmanager`` would put the
    inner frames back on an error raised again)."""

    def __init__(self, respelled: bool):
        self.respelled = respelled

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, err, traceback) -> bool:
        if not isinstance(err, ChesskitError):
            return False
        __tracebackhide__ = True  # noqa: F841 (read by pytest: this frame is not shown)
        if self.respelled and err.args and isinstance(err.args[0], str):
            err.args = (keyworded(err.args[0]), *err.args[1:])
        raise err.with_traceback(None)
