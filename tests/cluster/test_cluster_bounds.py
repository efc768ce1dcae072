"""Issue 27: a cluster run's memory is bounded before anything starts: the split keeps FEN
keys, not Boards; a split depth with too many positions, more local workers than the
machine can use, and workers whose hash tables would not fit are one line, exit 2."""

from __future__ import annotations

import tracemalloc

import pytest

from chesskit.board.board import Board
from chesskit.cluster import split as split_module
from chesskit.cluster.plan import make_plan
from chesskit.cluster.split import split
from chesskit.errors import InputError
from helpers import DASK_INSTALL, need_module

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


def test_the_split_holds_keys_not_boards():
    split(Board(POS3), 2)  # compiled and loaded before memory is traced
    tracemalloc.start()
    try:
        level = split(Board(POS3), 3)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert level.paths == 2812 and 0 < len(level) < level.paths  # perft(3) of position 3, the published count
    # before: a Board of about 50 KB for each position (over 100 MB)
    assert peak < 20 << 20


def test_a_split_depth_with_too_many_positions_is_refused(monkeypatch):
    monkeypatch.setattr(split_module, "MAX_SPLIT_POSITIONS", 1000, raising=False)
    monkeypatch.setattr(split_module.split, "__defaults__", (1000,), raising=False)
    with pytest.raises(InputError, match=r"bad split depth 3: more than 1,000 distinct positions 3 plies down") as caught:
        make_plan(Board(STARTPOS), 5, 3)
    assert caught.value.exit_code == 2
    assert make_plan(Board(STARTPOS), 5, 2).positions == 400  # within the bound it plans


def need_dask():
    need_module("distributed", DASK_INSTALL)


def test_more_local_workers_than_the_machine_can_use_are_refused(cli, monkeypatch):
    need_dask()
    from chesskit.cluster import driver

    monkeypatch.setattr(driver, "usable_cores", lambda: 2)
    result = cli("perft", "startpos", "3", "--workers", "3")
    # before: 3 worker processes were started (and --workers 100000 grew without bound)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("chesskit: bad worker count 3: at most 2 here (2 usable cores)")
    assert result.stderr.count("\n") == 1
    assert cli("perft", "startpos", "3", "--workers", "100000").exit_code == 2


def test_local_workers_whose_tables_do_not_fit_are_refused(cli, monkeypatch):
    need_dask()
    import chesskit.board.tablesize as tablesize

    monkeypatch.setattr(tablesize, "memory_available_mb", lambda: 600)
    # startpos 5 splits at ply 2: 3 plies remain, so each worker keeps a --hash table
    result = cli("perft", "startpos", "5", "--workers", "2", "--hash", "256")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "chesskit: --workers 2 would need about 912 MiB (each worker about 200 MiB and a 256 MiB hash table), "
        "and 600 MiB are available: use fewer workers or a smaller --hash\n"
    )
