"""Issue 27: a count edited by hand is caught by its line's checksum and computed again; a
format 1 checkpoint is resumed with a warning; a file that is no checkpoint is refused
without being read into memory; a full disk leaves no empty or torn checkpoint."""

from __future__ import annotations

import errno
import json
import tracemalloc

import pytest

from chesskit.board.board import Board
from chesskit.cluster import checkpoint as checkpoint_module
from chesskit.cluster.checkpoint import Checkpoint, read_header
from chesskit.cluster.errors import CheckpointError
from chesskit.cluster.plan import make_plan
from helpers import KIWIPETE


@pytest.fixture(scope="module")
def plan():
    return make_plan(Board(KIWIPETE), 4)


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows))


@pytest.mark.parametrize("edit", ["count", "checksum", "dropped"])
def test_an_edited_line_is_not_summed_and_its_task_is_computed_again(tmp_path, plan, edit):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        ck.record(0, 1000)
        ck.record(1, 2000)
    rows = _lines(path)
    assert rows[0]["format"] == 2 and rows[1]["sha256"] == checkpoint_module.line_sum(plan.task_hash, 0, 1000)
    if edit == "count":
        rows[2]["nodes"] = 2001  # a plausible count typed over the real one
    elif edit == "checksum":
        rows[2]["sha256"] = "0" * 16
    else:
        del rows[2]["sha256"]
    _write(path, rows)
    with Checkpoint(path, plan) as ck:
        # before: {0: 1000, 1: 2001} was summed into the total
        assert ck.finished == {0: 1000}
        assert len(ck.warnings) == 1 and "line 3" in ck.warnings[0] and "task 1" in ck.warnings[0]
        assert "computed again" in ck.warnings[0]
        ck.record(1, 2000)
    with Checkpoint(path, plan) as ck:  # the recomputed line is the one that counts
        assert ck.finished == {0: 1000, 1: 2000}
        assert ck.warnings == []  # before: the edited line was warned about on every resume


def test_a_format_1_checkpoint_resumes_with_a_warning(tmp_path, plan):
    path = tmp_path / "old.ck"
    header = checkpoint_module.header_for(plan)
    header["format"] = 1
    _write(path, [header, {"task": 2, "nodes": 30}, {"task": 5, "nodes": 60}])
    with Checkpoint(path, plan) as ck:
        assert ck.finished == {2: 30, 5: 60}
        assert len(ck.warnings) == 1 and "format 1" in ck.warnings[0] and "cannot be verified" in ck.warnings[0]
        ck.record(7, 90)
    assert _lines(path)[-1] == {"task": 7, "nodes": 90}  # the file keeps its format
    assert read_header(path)["format"] == 1


@pytest.mark.parametrize("newline", [False, True])
def test_a_large_file_that_is_no_checkpoint_is_refused_without_reading_it(tmp_path, plan, newline):
    path = tmp_path / "big.bin"
    path.write_bytes(b"x" * (20 << 20) + (b"\n" if newline else b""))
    tracemalloc.start()
    try:
        for step in (lambda: read_header(path), lambda: Checkpoint(path, plan)):
            with pytest.raises(CheckpointError, match="not a chesskit perft checkpoint"):
                step()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # before: the whole file was read (20 MiB and more)
    assert peak < 1 << 20
    assert path.stat().st_size >= 20 << 20  # never overwritten


def test_an_overlong_task_line_is_corrupt_and_costs_no_memory(tmp_path, plan):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        ck.record(0, 10)
    with open(path, "ab") as f:
        f.write(b'{"task":1,"nodes":' + b"1" * (20 << 20) + b"}\n")
    tracemalloc.start()
    try:
        with pytest.raises(CheckpointError, match="line 3 is corrupt"):
            Checkpoint(path, plan)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def _full_disk_after(nbytes: int):
    def write_all(handle, data):  # ``nbytes`` reach the disk, then ENOSPC
        handle.write(data[:nbytes])
        raise OSError(errno.ENOSPC, "No space left on device")

    return write_all


def test_a_full_disk_leaves_no_empty_checkpoint(tmp_path, plan, monkeypatch):
    path = tmp_path / "new.ck"
    monkeypatch.setattr(checkpoint_module, "_write_all", _full_disk_after(0), raising=False)
    with pytest.raises(CheckpointError, match="cannot write checkpoint .*No space left on device"):
        Checkpoint(path, plan)
    assert not path.exists()  # before: a 0-byte file


def test_a_full_disk_mid_line_leaves_the_written_lines_whole(tmp_path, plan, monkeypatch):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        ck.record(0, 10)
        before = path.read_bytes()
        monkeypatch.setattr(checkpoint_module, "_write_all", _full_disk_after(7), raising=False)
        with pytest.raises(CheckpointError, match="No space left on device"):
            ck.record(1, 20)
    assert path.read_bytes() == before  # no torn line left
    monkeypatch.undo()
    with Checkpoint(path, plan) as ck:
        assert ck.finished == {0: 10} and ck.warnings == []
