"""The numba-compiled board core. Nothing here imports click or rich; it may import only
``chesskit.vocab`` and ``chesskit.invariants`` (whose functions and constants it compiles),
``chesskit.errors`` and ``chesskit.outpath`` (``native.py`` saves the walk's code with it).

numba's on-disk cache only checks the source file of the function it caches, so a change
to a callee in another module would leave a caller's stale machine code in place. We key
the cache directory by a hash of every source file of the core, so any edit gets a fresh
cache; the pure-Python modules the core compiles or reads constants from
(``chesskit/vocab.py``, ``chesskit/invariants.py``) are hashed with it. The folder also names the slider lookup chosen for this processor (see
``cpu.py``), which the compiled code and the saved attack table depend on. This must run
before numba is first imported.
"""

import hashlib
import os
from pathlib import Path

from .cpu import slider_mode

SLIDERS = slider_mode()

_HERE = Path(__file__).parent
# outside the core's folder, read by its compiled code
SHARED_SOURCES = (_HERE.parent / "vocab.py", _HERE.parent / "invariants.py")


def _core_hash() -> str:
    digest = hashlib.sha256()
    for path in [*sorted(_HERE.glob("*.py")), *SHARED_SOURCES]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("CHESSKIT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "chesskit"
    )
    return Path(base) / f"numba-{_core_hash()}-{SLIDERS}"


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())
