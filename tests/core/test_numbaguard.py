"""numba's own cache files in chesskit's folder (``chesskit.core.numbaguard``): sealed,
private, and any doubt a recompile, never an exception; and the private parts of numba it
patches are still there in the numba installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import subprocess_env

DEMO = """
from numba import njit

@njit(cache=True)
def plus_one(x):
    return x + 1
"""

# imports chesskit.core (which picks and guards the folder) before or after numba
DRIVER = """
import json, sys
if sys.argv[1] == "numba first":
    import numba
import chesskit.core
import demo
value = demo.plus_one(41)
stats = demo.plus_one.stats
print(json.dumps({"value": value, "hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values()),
                  "folder": str(chesskit.core.NUMBA_CACHE)}))
"""


def _run(tmp_path: Path, order: str) -> dict:
    env = subprocess_env(pythonpath=os.pathsep.join([str(tmp_path / "src"), str(Path(__file__).parents[2])]))
    env["CHESSKIT_CACHE_DIR"] = str(tmp_path / "cache")
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", DRIVER, order], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout)


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path, 0o600)


def _unsealed(path: Path) -> None:
    """What numba itself writes (a pickle without the seal): not read as ours."""
    from chesskit.core import numbaguard

    data = path.read_bytes()
    path.write_bytes(data[len(numbaguard.MAGIC) + 32 :])


@pytest.mark.parametrize(
    "order, suffix, damage",
    [("chesskit first", ".nbi", _truncate), ("numba first", ".nbi", _truncate), ("chesskit first", ".nbc", _truncate),
     ("chesskit first", ".nbc", _flip), ("chesskit first", ".nbi", _flip), ("chesskit first", ".nbc", _fifo),
     ("chesskit first", ".nbi", _unsealed)],
    ids=["index truncated", "index truncated, numba imported first", "data truncated", "data bit flipped",
         "index bit flipped", "data a FIFO", "index unsealed"],
)
def test_a_damaged_numba_cache_file_is_compiled_again(tmp_path, order, suffix, damage):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "demo.py").write_text(DEMO)
    first = _run(tmp_path, order)
    assert (first["value"], first["hits"]) == (42, 0)
    files = list(Path(first["folder"]).rglob(f"demo.plus_one*{suffix}"))
    assert len(files) == 1
    assert _run(tmp_path, order)["hits"] == 1  # the control: an intact file is a hit
    damage(files[0])
    again = _run(tmp_path, order)
    assert (again["value"], again["hits"], again["misses"]) == (42, 0, 1)
    third = _run(tmp_path, order)
    assert (third["value"], third["hits"]) == (42, 1)  # written again, whole


def test_the_numba_parts_it_patches_are_there():
    import numba  # noqa: F401
    from numba.core import caching

    import chesskit.core  # noqa: F401

    assert caching.IndexDataCacheFile._chesskit_guarded is True
    for name in ("_load_index", "_save_index", "_load_data", "_save_data"):
        assert getattr(caching.IndexDataCacheFile, name).__wrapped__ is not None
    probe = caching.IndexDataCacheFile("/nonexistent", "f-1.py311", "stamp")
    for name in ("_cache_path", "_index_path", "_version", "_source_stamp"):
        assert hasattr(probe, name), name
    for name in ("_data_path", "_dump", "load", "save"):
        assert callable(getattr(probe, name)), name
    assert hasattr(caching.Cache, "load_overload") and hasattr(caching.Cache, "save_overload")
