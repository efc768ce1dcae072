"""A checkpoint edited by hand or corrupted is refused with its line named (exit 2), never
summed into a wrong total; a header whose split depth is deeper than the run is refused
instead of planning forever (issue 14)."""

from __future__ import annotations

import json

import pytest

from chesskit.board.board import Board
from chesskit.cluster.checkpoint import Checkpoint, line_sum, read_header, split_depth_of
from chesskit.cluster.errors import CheckpointError
from chesskit.cluster.plan import make_plan

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.fixture(scope="module")
def plan():
    return make_plan(Board(KIWIPETE), 4)


TASK_HASH = make_plan(Board(KIWIPETE), 4).task_hash


def with_lines(tmp_path, plan, *extra: bytes):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan) as ck:
        ck.record(0, 10)
    with open(path, "ab") as f:
        for line in extra:
            f.write(line + b"\n")
    return path


@pytest.mark.parametrize(
    "line, why",
    [
        (b'{"task": 1, "nodes": -5}', r"line 3 is corrupt: task 1 has -5 nodes"),
        (b'{"task": 1, "nodes": true}', r"line 3 is corrupt: nodes true is not an integer"),
        (b'{"task": true, "nodes": 5}', r"line 3 is corrupt: task true is not an integer"),
        (b'{"task": 1, "nodes": 5.0}', r"line 3 is corrupt: nodes 5.0 is not an integer"),
        (b'{"task": 1, "nodes": Infinity}', r"line 3 is corrupt"),
        (b'{"task": 1, "nodes": NaN}', r"line 3 is corrupt"),
        (b'{"task": 1, "nodes": "5"}', r"line 3 is corrupt: nodes \"5\" is not an integer"),
        (b'{"task": 1, "nodes": 99999999999999999999999}', r"line 3 is corrupt: task 1 has"),
        (b'{"task": 1, "nodes": 5, "extra": 1}', r"line 3 is corrupt \(expected"),
        (b"[1, 5]", r"line 3 is corrupt \(expected"),
        (b'{"task": -1, "nodes": 5}', r"line 3 names task -1"),
        (b'{"task": 100000, "nodes": 5}', r"line 3 names task 100000"),
        # a second count for a task, with its checksum made to match: two runs' lines mixed
        (b'{"task": 0, "nodes": 11, "sha256": "%s"}' % line_sum(TASK_HASH, 0, 11).encode(),
         r"line 3 gives task 0 11 nodes, an earlier line 10"),
    ],
)
def test_a_bad_task_line_is_refused_with_its_line_named(tmp_path, plan, line, why):
    path = with_lines(tmp_path, plan, line)
    with pytest.raises(CheckpointError, match=why) as caught:
        Checkpoint(path, plan)
    assert caught.value.exit_code == 2
    assert "\n" not in str(caught.value)


def test_a_duplicate_line_that_agrees_is_accepted(tmp_path, plan):
    path = with_lines(tmp_path, plan, b'{"task": 0, "nodes": 10}')
    with Checkpoint(path, plan) as ck:
        assert ck.finished == {0: 10}


def test_a_header_field_of_another_json_type_is_another_run(tmp_path, plan):
    path = tmp_path / "run.ck"
    with Checkpoint(path, plan):
        pass
    header = read_header(path)
    header["depth"] = 4.0  # equal to 4 in Python, but not what chesskit wrote
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(CheckpointError, match="belongs to another run .*depth 4.0 not 4"):
        Checkpoint(path, plan)


def test_infinity_in_the_header_is_refused(tmp_path, plan):
    path = tmp_path / "run.ck"
    path.write_text('{"checkpoint": "chesskit-perft", "format": 1, "depth": Infinity}\n')
    with pytest.raises(CheckpointError, match="not a chesskit perft checkpoint"):
        read_header(path)


@pytest.mark.parametrize("value", [9, -1, True, 2.0, "2", None])
def test_a_header_split_depth_outside_the_run_is_refused(value):
    with pytest.raises(CheckpointError, match=r"line 1 is corrupt: split_depth .* from 0 to the depth \(4\)"):
        split_depth_of("run.ck", {"split_depth": value}, 4)
    assert split_depth_of("run.ck", {"split_depth": 4}, 4) == 4
