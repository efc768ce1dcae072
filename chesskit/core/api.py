"""Loading the compiled core from Python: the attack table and the compile notices.

numba compiles each entry point on its first call and caches the machine code on disk
(see ``chesskit/core/__init__.py`` for where; the walk's own copy is ``native.py``'s).
The first run of a fresh install takes seconds, so we say so on stderr then: for the
walk where it is built (``native.walk``), for the other entry points here (``announce``).
"""

import os

from . import NUMBA_CACHE
from .cachedir import FAILED_CHECK, compiling, compiling_again

_T = None


def announce(entry, what: str) -> None:
    """Say on stderr that ``entry`` (a numba function cached on disk: ``--stats``' walk,
    ``debug``'s) compiles now, when neither this process nor the compile cache has it: a
    first ``--stats`` run after a first ``perft`` compiled for seconds in silence. numba's
    private API (the cache's index file); where it is not there, nothing is said."""
    if getattr(entry, "signatures", None):
        return
    files = getattr(getattr(entry, "_cache", None), "_cache_file", None)
    index = getattr(files, "_index_path", None)
    if not isinstance(index, str):
        return
    if not os.path.exists(index):
        compiling(what, NUMBA_CACHE)
    elif not _index_holds_code(files):
        compiling_again(what, NUMBA_CACHE, FAILED_CHECK)


def _index_holds_code(files) -> bool:
    """Whether numba's index file (read as numba reads it: through ``numbaguard``'s checks
    in chesskit's folder) lists any compiled code (True where it cannot be told)."""
    load = getattr(files, "_load_index", None)
    if load is None:
        return True
    try:
        return bool(load())
    except Exception:  # noqa: BLE001 - numba's own reader on a file outside chesskit's folder
        return False


def _refuse_pure_python() -> None:
    """``NUMBA_DISABLE_JIT=1`` is refused (exit 2): the walks are numba's compiled code and
    have no pure-Python form (it was an internal error on a cold cache, and on a warm one
    the saved code ran as if the variable were not set)."""
    value = os.environ.get("NUMBA_DISABLE_JIT", "").strip()
    if value not in ("", "0"):
        from chesskit.errors import InputError

        raise InputError(
            f"NUMBA_DISABLE_JIT={value}: chesskit's move generator is numba's compiled code and "
            "cannot run without it; unset NUMBA_DISABLE_JIT"
        )


def table():
    """The attack table, built on first use (in tenths of a second: the walk's compile is
    announced where it happens, ``native.walk``; said here, it was said by every first run
    of the leaf counters or the debug checker, which compile no walk)."""
    global _T
    if _T is None:
        _refuse_pure_python()
        from .tables import tables

        _T = tables()
    return _T
