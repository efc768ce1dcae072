"""Counts on the GPU path, run by tests/gpu/test_gpu_sim.py in a child process with
``NUMBA_ENABLE_CUDASIM=1`` (numba-cuda's simulator: the kernels run as Python on the CPU;
the variable must be set before numba loads). Reads a JSON list of jobs on stdin, each
``{"fen", "chess960", "depth", "cap", "divide", "drop_aliases"}``, and prints their results as one
JSON list. ``drop_aliases`` (fault injection) makes the leaf level's repeated positions add nothing."""

import json
import sys

from chesskit.board.board import Board
from chesskit.gpu import open_walk


class _Nothing:
    """A kernel launch that does nothing."""

    def __getitem__(self, config):
        return lambda *args: None


def run(job):
    if job.get("drop_aliases"):
        from chesskit.gpu import kernels

        kernels.leaf_aliases = _Nothing()
    board = Board(job["fen"], chess960=job.get("chess960") or None)
    walk = open_walk(job.get("cap"))
    if job.get("divide"):
        return walk.divide(board, job["depth"])
    return walk.perft(board, job["depth"])


if __name__ == "__main__":
    print(json.dumps([run(job) for job in json.load(sys.stdin)]))
