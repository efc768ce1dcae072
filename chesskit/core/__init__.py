"""The numba-compiled board core. Nothing here imports click or rich; it may import only
``chesskit.vocab`` and ``chesskit.invariants`` (whose functions and constants it compiles),
``chesskit.errors`` and ``chesskit.outpath`` (``cachefs.py`` saves the cache's files with it).

Importing it picks the compile cache's folders for this run (``cachedir.py``: keyed by
everything the saved code depends on, trusted only when private to this user), points
numba's cache there through ``NUMBA_CACHE_DIR`` and guards numba's cache files
(``numbaguard.py``). This must run before numba is first imported; it does not import
numba itself (a warm run never loads it). ``SLIDERS`` is the slider lookup chosen for
this processor (``cpu.py``), which the compiled code and the attack table depend on.
"""

import os
import sys
from pathlib import Path

from . import cachedir, numbaguard
from .cpu import slider_mode

SLIDERS = slider_mode()
KEY = cachedir.build_key(SLIDERS)  # the build: every saved file's manifest records it
_NAME = cachedir.folder_name(KEY, SLIDERS)
# the folder of the saved walk and attack table, and numba's (None: nothing is saved)
CACHE, NUMBA_CACHE = cachedir.choose(_NAME)


def cache_dir() -> Path:
    """The keyed cache folder this build uses when it can (see ``CACHE`` for this run's)."""
    return cachedir.base() / _NAME


# numba's messages for its failed typing attempts, made by the thousand in every compile and
# never shown, in plain text: with colorama installed each one set up and tore down
# colorama's terminal wrappers (0.3 s of a first run's 7.6; docs/benchmarks.md, session 32)
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
if NUMBA_CACHE is not None:
    os.environ["NUMBA_CACHE_DIR"] = str(NUMBA_CACHE)
    if "numba.core.config" in sys.modules:  # numba came first: it read the variable already
        sys.modules["numba.core.config"].CACHE_DIR = str(NUMBA_CACHE)
numbaguard.install(NUMBA_CACHE)
