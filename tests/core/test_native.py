"""The walk's own machine code (``chesskit.core.native``): a warm perft runs it without
importing numba; a damaged, foreign or unloadable object falls back to numba and counts
the same; the runtime stub exits 70. Counts are the published ones (chessprogramming
wiki, Perft Results)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import chess
import pytest

from chesskit.board.board import Board
from chesskit.core import native
from helpers import STARTPOS, copy_cache, pc_perft, subprocess_env

# perft 3 and 4 of the start position (published) and perft 3 after e2e4 (python-chess)
PROBE = """
import json, sys
from chesskit.board.board import Board
b = Board()
out = {"perft3": b.perft(3), "threaded4": b.perft(4, threads=2), "e2e4": b.divide(4)["e2e4"]}
b.push_moves("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1")  # the walk makes a board's moves too
out["pushed"] = b.fen()
out["popped"] = [b.pop() for _ in range(3)]  # a board takes moves back without numba too
out["after_pop"] = [b.fen(), b.perft(3)]
out["numba"] = "numba" in sys.modules
print(json.dumps(out))
"""


def _expected() -> tuple[int, int, int]:
    board = chess.Board(STARTPOS)
    board.push_uci("e2e4")
    return 8902, 197281, pc_perft(board, 3)


def _pushed(moves: str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1") -> chess.Board:
    board = chess.Board(STARTPOS)
    for uci in moves.split():
        board.push_uci(uci)
    return board


def _probe(env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def saved():
    """The saved object and manifest of this cache (a perft builds them if need be)."""
    Board().perft(2)
    assert native.is_saved()
    return native._paths()


@pytest.fixture
def cache_copy(saved, tmp_path):
    """A copy of this cache folder (numba's cache and the saved walk) and its environment."""
    folder = saved[0].parent
    copy_cache(folder, tmp_path / folder.name)
    env = subprocess_env()
    env["CHESSKIT_CACHE_DIR"] = str(tmp_path)
    env.pop("NUMBA_CACHE_DIR", None)
    return tmp_path / folder.name, env


def test_a_warm_perft_runs_the_saved_walk_without_numba(cache_copy):
    _, env = cache_copy
    out = _probe(env)
    assert (out["perft3"], out["threaded4"], out["e2e4"]) == _expected()
    assert out["pushed"] == _pushed().fen()
    assert out["popped"] == ["e1g1", "g8f6", "f1c4"]
    four = _pushed("e2e4 e7e5 g1f3 b8c6")
    assert out["after_pop"] == [four.fen(), pc_perft(four, 3)]
    assert out["numba"] is False


# each damage costs a compile of the walk: all run with the slow tests
@pytest.mark.parametrize(
    "damage", [pytest.param(d, marks=pytest.mark.slow) for d in ("flip", "truncate", "foreign symbol", "no manifest")]
)
def test_a_damaged_saved_walk_falls_back_to_numba_and_is_rewritten(cache_copy, damage):
    folder, env = cache_copy
    obj = next(folder.glob("walk-*.o"))
    manifest = obj.with_suffix(".json")
    good = obj.read_bytes()
    if damage == "flip":
        obj.write_bytes(good[:100] + bytes([good[100] ^ 0xFF]) + good[101:])
    elif damage == "truncate":
        obj.write_bytes(good[: len(good) // 2])
    elif damage == "foreign symbol":  # a symbol this process cannot provide
        meta = json.loads(manifest.read_text())
        meta["undefined"].append("chesskit_no_such_symbol")
        manifest.write_text(json.dumps(meta))
    else:
        manifest.unlink()
    out = _probe(env)
    assert (out["perft3"], out["threaded4"], out["e2e4"]) == _expected()
    assert out["numba"] is True  # it fell back
    if damage != "foreign symbol":  # numba handed over the code again: a good object is back
        rebuilt = obj.read_bytes()
        assert json.loads(manifest.read_text())["sha256"] == hashlib.sha256(rebuilt).hexdigest()
        assert rebuilt[:4] == b"\x7fELF" and len(rebuilt) > len(good) // 2
        again = _probe(env)
        assert (again["perft3"], again["threaded4"], again["e2e4"]) == _expected()
        assert again["numba"] is False


def test_the_manifest_lists_what_the_object_needs(saved):
    obj, manifest = saved
    meta = json.loads(manifest.read_text())
    assert meta["undefined"] == native.undefined_symbols(obj.read_bytes())
    assert "numba_gil_ensure" in meta["undefined"]  # the error path's runtime calls
    with pytest.raises(ValueError):
        native.undefined_symbols(b"not an object file")


def test_the_runtime_stub_reports_an_internal_error_and_exits_70():
    done = subprocess.run(
        [sys.executable, "-c", "from chesskit.core import native; native._internal_error()"],
        env=subprocess_env(), capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 70
    assert done.stderr.strip().splitlines() == [
        "chesskit: internal error in the compiled walk (numba runtime called); please report it"
    ]


def test_the_object_name_carries_the_processor(saved):
    from llvmlite import binding

    assert saved[0].name.startswith(f"walk-{binding.get_host_cpu_name()}-")
    assert os.path.getsize(saved[0]) > 1000


ORDER = """
import sys
import numba
from chesskit.board.board import Board

def boom(x):
    if x > 0:
        raise ValueError("boom")
    return x

boom = numba.njit(boom)
if sys.argv[1] == "numba first":
    boom(0)
    print(Board().perft(3))
else:
    print(Board().perft(3))
    boom(0)
try:
    boom(1)
except ValueError as err:
    print("raised", err)
"""


@pytest.mark.parametrize("order", ["numba first", "chesskit first"])
def test_numba_code_in_the_same_process_still_raises_its_errors(saved, order):
    """The saved walk's runtime stub must never stand in for numba's own runtime: numba
    code in the same process, loaded before or after it, raises its exceptions."""
    done = subprocess.run([sys.executable, "-c", ORDER, order], env=subprocess_env(),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["8902", "raised boom"]


NO_OBJECT = """
import json, sys
from chesskit.core import native
native.SAVES = False  # as on a platform whose objects chesskit does not save (not Linux)
from chesskit.board.board import Board
print(json.dumps({"perft3": Board().perft(3), "saved": native.is_saved()}))
"""


@pytest.mark.slow  # compiles the walk from a cold cache
def test_where_no_object_is_saved_numba_caches_the_walk(tmp_path):
    env = subprocess_env()
    env["CHESSKIT_CACHE_DIR"] = str(tmp_path)
    env.pop("NUMBA_CACHE_DIR", None)
    for _ in range(2):  # the first run compiles, the second loads numba's cache
        done = subprocess.run([sys.executable, "-c", NO_OBJECT], env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {"perft3": 8902, "saved": False}
    assert any("c_entry" in path.name for path in tmp_path.rglob("*.nbi"))  # numba cached it
