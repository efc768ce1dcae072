"""numba's own cache files in chesskit's folder (``chesskit.core.numbaguard``): sealed,
private, and any doubt a recompile, never an exception; and the private parts of numba it
patches are still there in the numba installed."""

from __future__ import annotations

import json
import os
import shutil
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


def _run(tmp_path: Path, order: str, src: Path | None = None) -> dict:
    env = subprocess_env(pythonpath=os.pathsep.join([str(src or tmp_path / "src"), str(Path(__file__).parents[2])]))
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


@pytest.fixture(scope="module")
def intact(tmp_path_factory):
    """``intact(order)``: the demo's source folder and a cache folder its first run wrote,
    made once per order (issue 25: two of each case's four processes). Each case damages a
    copy of that cache folder beside the same source (numba's cache names the source's
    path); a first copy is checked to be a hit, so a miss in a case is the damage's."""
    made = {}

    def make(order: str) -> tuple[Path, Path]:
        if order not in made:
            base = tmp_path_factory.mktemp("intact")
            (base / "src").mkdir()
            (base / "src" / "demo.py").write_text(DEMO)
            first = _run(base, order)
            assert (first["value"], first["hits"]) == (42, 0)
            assert _run(base, order)["hits"] == 1  # the control: an intact file is a hit
            copy = tmp_path_factory.mktemp("copy")
            shutil.copytree(base / "cache", copy / "cache", symlinks=True)
            assert _run(copy, order, base / "src")["hits"] == 1  # and so is a copy of it
            made[order] = base / "src", base / "cache", Path(first["folder"]).relative_to(base / "cache")
        return made[order]

    return make


@pytest.mark.parametrize(
    "order, suffix, damage",
    # each kind of damage, and each order of imports, at least once in the default run; the
    # same damage to the other file with the slow tests (issue 25: 3 s of CPU each)
    [("chesskit first", ".nbi", _truncate), ("numba first", ".nbi", _truncate),
     pytest.param("chesskit first", ".nbc", _truncate, marks=pytest.mark.slow),
     ("chesskit first", ".nbc", _flip), pytest.param("chesskit first", ".nbi", _flip, marks=pytest.mark.slow),
     ("chesskit first", ".nbc", _fifo), ("chesskit first", ".nbi", _unsealed)],
    ids=["index truncated", "index truncated, numba imported first", "data truncated", "data bit flipped",
         "index bit flipped", "data a FIFO", "index unsealed"],
)
def test_a_damaged_numba_cache_file_is_compiled_again(tmp_path, intact, order, suffix, damage):
    src, cache, folder = intact(order)
    shutil.copytree(cache, tmp_path / "cache", symlinks=True)
    files = list((tmp_path / "cache" / folder).rglob(f"demo.plus_one*{suffix}"))
    assert len(files) == 1
    damage(files[0])
    again = _run(tmp_path, order, src)
    assert (again["value"], again["hits"], again["misses"]) == (42, 0, 1)
    assert again["folder"] == str(tmp_path / "cache" / folder)
    third = _run(tmp_path, order, src)
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


@pytest.fixture
def read_only(tmp_path):
    """``read_only(folder)``: ``folder`` mounted read-only at ``tmp_path / "cache"`` (a bind
    mount: permission bits do not stop root, who runs these in CI), unmounted after."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a read-only bind mount needs root and mount(8)")
    point = tmp_path / "cache"
    mounted = []

    def mount(folder: Path) -> Path:
        point.mkdir()
        for args in (["--bind", str(folder), str(point)], ["-o", "remount,bind,ro", str(point)]):
            done = subprocess.run(["mount", *args], capture_output=True, text=True)
            if done.returncode != 0:
                if mounted:
                    subprocess.run(["umount", str(point)], check=False)
                pytest.skip(f"cannot bind-mount read-only here: {done.stderr.strip()}")
            mounted.append(point)
        return point

    yield mount
    if mounted:
        subprocess.run(["umount", "-l", str(point)], check=False)


def test_a_read_only_cache_is_read(tmp_path, intact, read_only):
    # a read-only cache holding the code (a CI image, a cache restored read-only): numba was
    # pointed at an empty private folder, and --stats compiled for 29 s on every run
    src, cache, folder = intact("chesskit first")
    shutil.copytree(cache, tmp_path / "source", symlinks=True)
    read_only(tmp_path / "source")
    with pytest.raises(OSError):
        (tmp_path / "cache" / "probe").write_text("")
    run = _run(tmp_path, "chesskit first", src)
    assert (run["value"], run["hits"], run["misses"]) == (42, 1, 0)
    assert run["folder"] == str(tmp_path / "cache" / folder.parts[0])
