"""Counts on the GPU path, run by tests/gpu/test_gpu_sim.py in a child process with
``NUMBA_ENABLE_CUDASIM=1`` (numba-cuda's simulator: the kernels run as Python on the CPU;
the variable must be set before numba loads). Reads a JSON list of jobs on stdin, each
``{"fen", "chess960", "depth", "cap", "divide", "drop_aliases", "rows"}``, and prints their results as
one JSON list. ``drop_aliases`` (fault injection) makes the leaf level's repeated positions add nothing;
``rows`` makes a perft's result ``[count, rows]``: by depth, how many rows of its levels repeated
another row of their level (``aliases``) or were found in the table (``found``), the walk's own tally
(``Walk.profiled``)."""

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
    if not job.get("rows"):
        return walk.perft(board, job["depth"])
    with walk.profiled():
        count = walk.perft(board, job["depth"])
    rows = {"aliases": {}, "found": {}}
    for name, n in walk.profile_done.items():
        if name.startswith("depth ") and name.endswith((" rows aliases", " rows in the table")):
            depth = name.split()[1]
            rows["aliases" if name.endswith("aliases") else "found"][depth] = int(n)
    return [count, rows]


if __name__ == "__main__":
    print(json.dumps([run(job) for job in json.load(sys.stdin)]))
