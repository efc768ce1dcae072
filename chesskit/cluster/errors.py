"""The cluster's errors: each is one line for the user, with the CLI's exit codes."""

from __future__ import annotations

from chesskit.errors import ChesskitError, InputError

BOTH_WAYS = "use either --scheduler (a running Dask cluster) or --workers N (a local one), not both"
INSTALL_HINT = 'the cluster features need the [cluster] extra: pip install "chesskit-perft[cluster]"'


class ExtraMissing(InputError):
    """Dask (the ``[cluster]`` extra) is not installed (exit 2)."""

    def __init__(self):
        super().__init__(INSTALL_HINT)


class CheckpointError(InputError):
    """A checkpoint file that cannot be used for this run: another position, depth,
    split or version, a corrupt line, or a file in use by another run (exit 2)."""


class ClusterError(ChesskitError):
    """An external service failed: the scheduler is unreachable, or a task kept failing
    on the workers (exit 3, like a failing engine)."""

    exit_code = 3


class SchedulerUnreachable(ClusterError):
    def __init__(self, address: str, reason: str):
        self.address = address
        super().__init__(f"cannot reach the Dask scheduler at {address}: {reason}")


class ClusterInterrupted(ChesskitError):
    """Ctrl-C during a cluster run: the futures are cancelled, the client closed (exit 130)."""

    exit_code = 130

    def __init__(self, checkpoint: str | None):
        if checkpoint:
            message = f"interrupted; resume with the same command and --checkpoint {checkpoint}"
        else:
            message = "interrupted; nothing was saved (add --checkpoint FILE to make a run resumable)"
        super().__init__(message)


class WorkersFailed(ClusterError):
    """Local workers that did not start: out of memory (exit 4, as the CLI reports any
    run that ran out) or another reason Dask gives (exit 3)."""

    def __init__(self, workers: int, err: BaseException, hint: str | None = None):
        cause = err
        while cause.__cause__ is not None or cause.__context__ is not None:
            cause = cause.__cause__ or cause.__context__
        reason = f"{type(cause).__name__}: {cause}" if str(cause) else type(cause).__name__
        memory = isinstance(cause, MemoryError) or "can't start new thread" in str(cause)
        if memory:  # a thread's stack is memory: under `ulimit -v` that fails first
            self.exit_code = 4
            reason = f"out of memory ({reason}); fewer --workers need less"
        elif hint is not None:  # the likely cause, where Dask's reason does not name it
            reason += f" ({hint})"
        super().__init__(f"cannot start {workers} local Dask worker{'s' * (workers != 1)}: {reason}")
