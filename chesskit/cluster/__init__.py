"""Deep perft on a Dask cluster: split, batch, distribute, checkpoint, sum.

The tree is cut at a *split depth*: the positions reached there are merged by FEN (a
transposition is counted once, with its multiplicity), grouped into batches sized for
seconds of work, and sent to Dask workers, each of which runs the compiled core on its
batch. The total is the sum of ``multiplicity * perft(remaining depth)``.

Modules, one concern each:

- ``split``      the unique positions at the split depth, and choosing that depth
- ``plan``       estimating each position's work, batching, the task list's hash
- ``checkpoint`` the append-only JSON-lines record of finished tasks
- ``worker``     the function a Dask worker runs (imports only ``chesskit.board.board``)
- ``driver``     the Dask client: connect, submit, collect, Ctrl-C, lost workers
- ``errors``     the one-line errors and their exit codes

The command-line glue (``perft --scheduler/--workers/--checkpoint``) lives in
``chesskit.cli.cluster_cmd``; nothing here imports the CLI.

Importing this package does not import Dask; ``run_perft`` does, and says how to
install the ``[cluster]`` extra when it is missing.
"""

from __future__ import annotations

__all__ = ["ClusterResult", "run_perft"]


def __getattr__(name: str):
    if name in __all__:
        from chesskit.cluster import driver

        return getattr(driver, name)
    raise AttributeError(f"module 'chesskit.cluster' has no attribute {name!r}")
