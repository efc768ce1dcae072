"""The checkpoint file: header, appended task lines, torn writes, refusals (no Dask)."""

from __future__ import annotations

import json

import pytest

from chesskit.board.board import Board
from chesskit.cluster.checkpoint import Checkpoint, read_header
from chesskit.cluster.errors import CheckpointError
from chesskit.cluster.plan import make_plan
from helpers import KIWIPETE

POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


@pytest.fixture(scope="module")
def plan():
    return make_plan(Board(KIWIPETE), 4)


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_new_checkpoint_starts_with_the_run_header(tmp_path, plan):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        assert ck.finished == {}
    (header,) = lines(path)
    assert header["fen"] == KIWIPETE and header["depth"] == 4
    assert header["split_depth"] == plan.split_depth
    assert header["tasks"] == len(plan.tasks) and header["task_hash"] == plan.task_hash
    assert header["version"]
    assert read_header(path) == header


def test_finished_tasks_are_read_back(tmp_path, plan):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        ck.record(3, 1000)
        ck.record(0, 7)
        ck.record(3, 1000)  # recorded once
    assert len(lines(path)) == 3
    with Checkpoint(path, plan) as ck:
        assert ck.finished == {3: 1000, 0: 7}
        ck.record(1, 5)
    with Checkpoint(path, plan) as ck:
        assert ck.finished == {3: 1000, 0: 7, 1: 5}


def test_a_torn_last_line_is_ignored_and_cut_off(tmp_path, plan):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        ck.record(2, 42)
    with open(path, "ab") as f:
        f.write(b'{"task":5,"nod')  # the crash came mid-write
    with Checkpoint(path, plan) as ck:
        assert ck.finished == {2: 42}
        ck.record(5, 9)
    assert [entry.get("task") for entry in lines(path)] == [None, 2, 5]


def test_a_torn_header_starts_afresh(tmp_path, plan):
    path = tmp_path / "run.ck"
    path.write_bytes(b'{"checkpoint":"chesskit-perft","form')
    with Checkpoint(path, plan) as ck:
        assert ck.finished == {}
    assert lines(path)[0]["task_hash"] == plan.task_hash


@pytest.mark.parametrize(
    "other, named",
    [((POS3, 4), "fen"), ((KIWIPETE, 5), "depth 4 not 5")],
    ids=["position", "depth"],
)
def test_a_checkpoint_of_another_run_is_refused(tmp_path, plan, other, named):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        ck.record(0, 1)
    before = path.read_bytes()
    with pytest.raises(CheckpointError) as err:
        Checkpoint(path, make_plan(Board(other[0]), other[1]))
    assert err.value.exit_code == 2
    assert named in str(err.value) and "refusing to mix" in str(err.value) and str(path) in str(err.value)
    assert path.read_bytes() == before


def test_another_chesskit_version_is_refused(tmp_path, plan):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan):
        pass
    header = lines(path)[0]
    header["version"] = "0.0.1"
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(CheckpointError, match='version "0.0.1" not'):
        Checkpoint(path, plan)


def test_a_file_that_is_no_checkpoint_is_never_overwritten(tmp_path, plan):
    for content in (b"my notes\nline two\n", b"no newline at all"):
        path = tmp_path / "notes.txt"
        path.write_bytes(content)
        with pytest.raises(CheckpointError, match="not a chesskit perft checkpoint"):
            Checkpoint(path, plan)
        assert path.read_bytes() == content


def test_a_corrupt_middle_line_is_refused(tmp_path, plan):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        ck.record(0, 1)
    path.write_bytes(path.read_bytes() + b"garbage\n" + b'{"task":1,"nodes":2}\n')
    with pytest.raises(CheckpointError, match="line 3 is corrupt"):
        Checkpoint(path, plan)


def test_two_runs_cannot_share_a_checkpoint(tmp_path, plan):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan):
        with pytest.raises(CheckpointError, match="in use by another chesskit run"):
            Checkpoint(path, plan)
    with Checkpoint(path, plan):  # the lock went with the first run
        pass


CHESS960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"


def test_a_chess960_header_writes_its_castling_in_shredder_fen_and_reads_the_old_form(tmp_path):
    """A Chess960 run's header says HFhf, as every FEN chesskit writes for one (it said
    KQkq, which reads as standard chess, also in the "belongs to another run" line); a
    checkpoint written with KQkq still resumes."""
    run = make_plan(Board(CHESS960, chess960=True), 3)
    path = tmp_path / "run.ckpt"
    with Checkpoint(path, run) as ck:
        ck.record(0, 123)
    header = lines(path)[0]
    assert header["fen"] == CHESS960 and header["chess960"] is True
    header["fen"] = CHESS960.replace("HFhf", "KQkq")  # as a checkpoint of session 38 wrote it
    path.write_text("\n".join(json.dumps(line) for line in [header, *lines(path)[1:]]) + "\n")
    with Checkpoint(path, run) as ck:
        assert ck.finished == {0: 123}
    other = make_plan(Board(CHESS960.replace("HFhf", "HFh"), chess960=True), 3)
    with pytest.raises(CheckpointError, match=r'fen "bqnb1rkr/\S+ w KQkq - 2 9" not "bqnb1rkr/\S+ w HFh - 2 9"'):
        Checkpoint(path, other)
