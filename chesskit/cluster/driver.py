"""The Dask side: connect (or start a local cluster), submit the tasks, collect them.

``run_perft`` plans the split (``chesskit.cluster.plan``), opens the checkpoint, warms the
compiled core in this process (so local workers only load the cache), then submits every
unfinished task and sums the results as they complete, recording each in the checkpoint.

Dask reschedules the tasks of a worker that dies; a task that keeps killing workers
(``distributed.scheduler.allowed-failures``, 3 by default) or raises on a worker ends the
run with a ``ClusterError`` (exit 3). Ctrl-C cancels the futures, closes the client (and
the local cluster) and raises ``ClusterInterrupted`` (exit 130).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import time
import uuid
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from chesskit import __version__
from chesskit.board.threads import usable_cores
from chesskit.cluster.checkpoint import Checkpoint, read_header, same_fen, split_depth_of
from chesskit.cluster.errors import (
    BOTH_WAYS,
    ClusterError,
    ClusterInterrupted,
    ExtraMissing,
    SchedulerUnreachable,
    WorkersFailed,
)
from chesskit.cluster.plan import make_plan
from chesskit.cluster.worker import run_batch
from chesskit.errors import InputError
from chesskit.outpath import check_output

# The largest hash table a worker uses for one position, in MiB (see worker.table_mb).
DEFAULT_HASH_MB = 256
# What one local worker process holds without its hash table (Python, Dask, numba and the
# compiled core), in MiB: measured 150-190 on Linux x86-64.
WORKER_MB = 200
CONNECT_TIMEOUT = 10.0


@dataclass
class ClusterResult:
    nodes: int  # perft(depth): the exact total
    tasks: int  # tasks in the plan
    resumed: int  # tasks taken from the checkpoint instead of computed
    split_depth: int
    positions: int  # unique positions at the split depth
    computed_nodes: int  # the part of ``nodes`` computed by this run
    seconds: float  # wall time from connecting to the last result


@dataclass
class Status:
    """What a progress callback is told, once at the start and after every task."""

    done: int  # tasks finished, including the resumed ones
    total: int
    nodes: int  # nodes counted so far, including the resumed tasks
    computed: int  # nodes computed by this run
    estimate_done: int  # estimated nodes of the finished tasks
    estimate_total: int
    seconds: float  # since the tasks were submitted
    resumed: int  # tasks taken from the checkpoint
    resumed_estimate: int = 0  # their estimated nodes: not part of this run's pace
    waiting: bool = False  # connected, but no worker has joined the scheduler yet

    @property
    def rate(self) -> float:
        """Nodes a second computed by this run (0 before the first task)."""
        return self.computed / self.seconds if self.seconds > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left, from this run's pace through the estimated work."""
        done_here = self.estimate_done - self.resumed_estimate
        if done_here <= 0 or self.seconds <= 0:
            return None
        return (self.estimate_total - self.estimate_done) * self.seconds / done_here


def require_dask():
    """Import dask.distributed, or raise the one-line install hint."""
    try:
        import distributed
    except ImportError:
        raise ExtraMissing() from None
    return distributed


def _check_arguments(board, depth, scheduler, workers, checkpoint, split_depth) -> tuple[int, int | None, int | None]:
    """The checked ``depth``, ``workers`` and ``split_depth`` of a run (InputError when one
    is wrong); a checkpoint of the same position and depth gives the split it was made with."""
    if checkpoint is not None:  # a FIFO would block, a directory or device cannot hold it
        check_output(checkpoint, "--checkpoint", append=True)
    depth = _check_int("depth", depth, 0)
    if scheduler is not None and workers is not None:
        raise InputError(BOTH_WAYS)
    if workers is not None:
        workers = _check_int("workers", workers, 1)
        most = max(2, usable_cores())
        if workers > most:
            raise InputError(
                f"bad worker count {workers}: at most {most} here ({usable_cores()} usable cores); a local "
                f"worker is one single-threaded process, and each beyond the cores adds only its memory "
                f"(about {WORKER_MB} MiB and its --hash table)"
            )
    if split_depth is not None:
        split_depth = _check_int("split depth", split_depth, 0)
        if split_depth > depth:
            raise InputError(f"bad split depth {split_depth}: must be at most the depth ({depth})")
    elif checkpoint is not None:
        header = read_header(checkpoint)
        if header and same_fen(header.get("fen"), board.fen(), bool(board.chess960)) and header.get("depth") == depth:
            split_depth = split_depth_of(checkpoint, header, depth)  # resume with the split it was made with

    return depth, workers, split_depth


def run_perft(
    board,
    depth: int,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    checkpoint: str | os.PathLike | None = None,
    split_depth: int | None = None,
    hash_mb: float = DEFAULT_HASH_MB,
    progress: Callable[[Status], None] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    warn: Callable[[str], None] | None = None,
) -> ClusterResult:
    """perft(``depth``) of ``board`` on Dask: on the scheduler at ``scheduler``
    (``tcp://host:port``), or on a local cluster of ``workers`` processes (default: one
    per core). ``checkpoint`` names a file that records finished tasks and is resumed
    from when it exists. ``progress(status)`` is called as tasks finish. ``warn(line)`` is
    told what in the checkpoint could not be verified (default: ``warnings.warn``)."""
    require_dask()
    if scheduler is None:
        _not_in_a_starting_worker()
    depth, workers, split_depth = _check_arguments(board, depth, scheduler, workers, checkpoint, split_depth)
    plan = make_plan(board, depth, split_depth)
    if scheduler is None:
        _check_memory(workers, plan, hash_mb)
    # Load (or compile) the core here, once, before any worker starts and needs it.
    if plan.tasks:
        run_batch(plan.tasks[0].positions[:1], min(plan.remaining, 2), plan.chess960, 1)

    with contextlib.ExitStack() as stack:
        record = None
        finished: dict[int, int] = {}
        if checkpoint is not None:
            ck = stack.enter_context(Checkpoint(checkpoint, plan))
            finished, record = dict(ck.finished), ck.record
            for line in ck.warnings:
                (warn or _warn)(line)
        pending = [t for t in plan.tasks if t.index not in finished]
        start = time.monotonic()
        status = Status(
            done=len(finished),
            total=len(plan.tasks),
            nodes=sum(finished.values()),
            computed=0,
            estimate_done=sum(t.estimate for t in plan.tasks if t.index in finished),
            estimate_total=plan.estimate,
            seconds=0.0,
            resumed=len(finished),
        )
        status.resumed_estimate = status.estimate_done
        if pending:
            client = stack.enter_context(_connect(scheduler, workers, connect_timeout))
            _compute(client, plan, pending, hash_mb, status, record, progress, scheduler, checkpoint)
        elif progress:
            progress(status)
        return ClusterResult(
            nodes=status.nodes,
            tasks=len(plan.tasks),
            resumed=len(finished),
            split_depth=plan.split_depth,
            positions=plan.positions,
            computed_nodes=status.computed,
            seconds=time.monotonic() - start,
        )


def _compute(client, plan, pending, hash_mb, status, record, progress, scheduler, checkpoint) -> None:
    """Wait for a worker, check the workers, submit ``pending`` (largest first) and fold
    each result into ``status``."""
    from distributed import as_completed

    run = uuid.uuid4().hex[:8]
    futures = {}
    try:
        if not client.scheduler_info()["workers"]:
            status.waiting = True
            if progress:
                progress(status)
            client.wait_for_workers(1)
            status.waiting = False
        _check_workers(client)
        if progress:
            progress(status)
        submitted = time.monotonic()
        for rank, task in enumerate(sorted(pending, key=lambda t: -t.estimate)):
            future = client.submit(
                run_batch,
                task.positions,
                plan.remaining,
                plan.chess960,
                hash_mb,
                key=f"chesskit-perft-{plan.task_hash}-{task.index}-{run}",
                priority=len(pending) - rank,
                pure=False,
            )
            futures[future] = task
        for future in as_completed(list(futures), loop=client.loop):
            task = futures[future]
            nodes = _result(future, task, scheduler, checkpoint)
            if record:
                record(task.index, nodes)
            status.done += 1
            status.nodes += nodes
            status.computed += nodes
            status.estimate_done += task.estimate
            status.seconds = time.monotonic() - submitted
            future.release()
            if progress:
                progress(status)
    except KeyboardInterrupt:
        with contextlib.suppress(Exception):
            client.cancel(list(futures), force=True)
        raise ClusterInterrupted(str(checkpoint) if checkpoint is not None else None) from None


# Evaluated on every worker by the builtin eval, so that the probe itself needs nothing of
# chesskit to reach the worker: imports the task function's module, returns the version.
_WORKER_PROBE = "__import__('chesskit.cluster.worker').__version__"


def _check_workers(client) -> None:
    """Every worker present must import the same chesskit as this process.

    A worker without chesskit cannot even unpack a task: Dask drops it and the run would
    wait for ever, so this is checked before anything is submitted."""
    answers = client.run(eval, _WORKER_PROBE, on_error="return")
    for address, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            raise ClusterError(
                f"worker {address} cannot import chesskit ({type(answer).__name__}: {answer}); "
                f'install "chesskit-perft[cluster]" {__version__} on every worker'
            )
        if answer != __version__:
            raise ClusterError(
                f"worker {address} has chesskit {answer}, this is {__version__}; "
                "install the same version on every worker"
            )


def _result(future, task, scheduler: str | None, checkpoint) -> int:
    try:
        return int(future.result())
    except Exception as err:  # noqa: BLE001 - a worker's failure, reported as one line
        name = type(err).__name__
        resume = f"; resume with the same command and --checkpoint {checkpoint}" if checkpoint else ""
        # the futures are cancelled, or fetching the result fails (CommClosedError)
        if "scheduler-connection-lost" in str(err) or isinstance(err, OSError):
            where = f" at {scheduler}" if scheduler else ""
            raise ClusterError(f"lost the connection to the Dask scheduler{where}{resume}") from None
        hint = ""
        if name == "KilledWorker":
            hint = " (every worker that ran it died: out of memory?)"
        raise ClusterError(f"task {task.index} failed on the cluster: {name}: {err}{hint}{resume}") from None


# --------------------------------------------------------------------------- connecting


@contextlib.contextmanager
def _connect(scheduler: str | None, workers: int | None, timeout: float) -> Iterator:
    """A Client on the scheduler at ``scheduler``, or on a new local cluster."""
    from distributed import Client

    quiet = _quiet_logs()
    try:
        if scheduler is not None:
            security = _security(scheduler)
            address = _probe(scheduler, timeout, security)
            try:
                client = Client(address, timeout=timeout, set_as_default=False, security=security)
            except (OSError, TimeoutError) as err:  # it answered the probe, then went away
                raise SchedulerUnreachable(scheduler, str(err) or type(err).__name__) from None
            try:
                yield client
            finally:
                with contextlib.suppress(Exception):
                    client.close(timeout=timeout)
        else:
            with _local_cluster(workers or usable_cores()) as cluster:
                client = Client(cluster, set_as_default=False)
                try:
                    yield client
                finally:
                    with contextlib.suppress(Exception):
                        client.close(timeout=timeout)
    finally:
        quiet.close()


# what a script that starts a local cluster needs (Dask starts its workers with
# multiprocessing's spawn, which runs the main script again in each)
MAIN_GUARD = (
    'a script that starts a local cluster needs its run_perft call under `if __name__ == "__main__":` '
    "(each worker process Dask starts runs the script again); a script read from stdin cannot start one"
)


def _not_in_a_starting_worker() -> None:
    """A worker process that multiprocessing's spawn is starting runs the caller's script
    again: a ``run_perft`` there (the script had no ``__main__`` guard) would start a
    cluster from each worker. It ends that worker with one line, not Dask's tracebacks;
    the caller's ``run_perft`` then fails with the same advice (``WorkersFailed``)."""
    import multiprocessing

    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise SystemExit(f"chesskit: run_perft ran again in a Dask worker process being started: {MAIN_GUARD}")


def _main_unguarded() -> bool:
    """Whether the process's main module may be why spawned workers failed: a script of the
    user's (run again in each) or one read from stdin (which cannot be); chesskit's own
    command, a package's ``__main__``, ``python -c`` and an interactive session are not."""
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    return path is not None and Path(path).name not in ("chesskit", "__main__.py")


@contextlib.contextmanager
def _local_cluster(n: int):
    """N worker processes of one thread each, on loopback, without a dashboard.

    The workers are started with SIGINT ignored (they inherit that), so a Ctrl-C on the
    terminal reaches only this process, which then shuts them down in order. A Ctrl-C,
    SIGTERM or SIGHUP that comes while they start is held (Dask's start-up, interrupted
    half way, prints its tracebacks) and taken once the cluster is up, which is then
    closed; or, when the start failed, instead of that failure: a SIGHUP or SIGTERM
    to the whole process group reaches the starting workers too, whose deaths Dask then
    reports as "Nanny failed to start worker process" (exit 3 for a hang-up).
    """
    from distributed import LocalCluster

    _quiet_resource_tracker()
    failed = None
    with _held_signals() as held:
        with warnings.catch_warnings():
            # without a dashboard, Dask still opens its HTTP server on port 8787 and warns
            # when another cluster (a second chesskit run) holds it: chesskit uses no port
            # of it, and the warning would be the run's only stderr line
            warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
            try:
                cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
            except Exception as err:  # Dask's "Nanny failed to start", its cause inside
                _end_stray_workers()
                failed = err
    if failed is not None:
        if held:
            signal.raise_signal(held[0])  # to the handler the run had: KeyboardInterrupt
        if _main_unguarded():  # the advice is the cause: Dask's chained tracebacks would bury it
            raise WorkersFailed(n, failed, MAIN_GUARD) from None
        raise WorkersFailed(n, failed) from failed
    try:
        if held:
            # to the handler the run had (KeyboardInterrupt) at once, the cluster closed below:
            # closed first, the signal's watchdog (``cli.signals``) could find its grace over
            # and the run's handler back, and print the run's line too (twice in all)
            signal.raise_signal(held[0])
        yield cluster
    finally:
        with contextlib.suppress(Exception):
            cluster.close(timeout=20)


@contextlib.contextmanager
def _held_signals() -> Iterator[list[int]]:
    """While the body starts local workers: SIGINT ignored (the workers inherit that, so a
    Ctrl-C on the terminal reaches only this process), SIGTERM and SIGHUP recorded in the
    list yielded instead of acted on, and a Ctrl-C recorded too. An ignored signal cannot
    be seen, so a ``sleep`` in this process group stands watch: the terminal's Ctrl-C ends
    it. Handlers are restored on the way out. Outside the main thread (where no handler
    can be set) nothing is changed."""
    held: list[int] = []
    if not _in_main_thread() or signal.getsignal(signal.SIGINT) is None:
        yield held
        return

    def hold(signum, frame):
        held.append(signum)

    watch = _watch_for_ctrl_c() if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN else None
    previous = {signal.SIGINT: signal.signal(signal.SIGINT, signal.SIG_IGN)}
    for sig in STOP_SIGNALS[1:]:
        if signal.getsignal(sig) not in (signal.SIG_IGN, None):  # one ignored (nohup) stays so
            previous[sig] = signal.signal(sig, hold)
    try:
        yield held
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if watch is not None:
            if watch.poll() == -signal.SIGINT:
                held.insert(0, signal.SIGINT)
            with contextlib.suppress(OSError):
                watch.kill()
            watch.wait()


# Ctrl-C, SIGTERM, SIGHUP: the signals the CLI turns into an interrupt.
STOP_SIGNALS = tuple(
    sig for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if sig
)


def _watch_for_ctrl_c():
    """A ``sleep`` in this process group (a Ctrl-C on the terminal ends it), or None."""
    import shutil
    import subprocess

    sleep = shutil.which("sleep")
    if sleep is None:
        return None
    try:
        return subprocess.Popen(
            [sleep, "3600"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    except OSError:
        return None


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (unless it runs) with its stderr on
    /dev/null: a run stopped while the workers start ends with semaphores of theirs
    unreleased, and the tracker then warned of them at exit, after the run's one line.
    It inherits this process's descriptor 2, which points at /dev/null meanwhile, and
    SIGHUP blocked (the tracker ignores SIGINT and SIGTERM itself): a hang-up of the whole
    process group killed it, and the workers started another on the terminal's stderr,
    which printed a traceback for each semaphore it had never seen. Blocked, not ignored:
    a SIGHUP to this process meanwhile is taken when it is unblocked."""
    from multiprocessing import resource_tracker

    saved = os.dup(2)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
            resource_tracker.ensure_running()
        finally:
            os.dup2(saved, 2)
            os.close(devnull)
    except OSError:
        pass
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(saved)


def _end_stray_workers() -> None:
    """End the worker processes a failed start left running (Dask would reap them at exit,
    with a log line after the run's one-line error)."""
    import multiprocessing

    for process in multiprocessing.active_children():
        if process.name.startswith("Dask Worker process"):
            process.terminate()
            process.join(5)


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


# The connections chesskit makes: a plain one, or TLS with Dask's configured certificates.
# (inproc:// names a scheduler inside another process's memory, which no command can reach;
# ucx:// needs UCX and its Dask plugin on every machine, and chesskit is not tested on it.)
SCHEMES = ("tcp", "tls")
TLS_SETTINGS = (
    "the distributed.comm.tls.ca-file, .client.cert and .client.key settings of Dask's configuration "
    "(or DASK_DISTRIBUTED__COMM__TLS__CA_FILE, __CLIENT__CERT and __CLIENT__KEY)"
)


def _security(scheduler: str):
    """Dask's ``Security`` for a ``tls://`` address, from Dask's own configuration, as
    ``dask worker`` and ``dask scheduler`` take it; None for ``tcp://``. Any other scheme,
    or TLS without certificates, is bad input (exit 2)."""
    from distributed.comm.addressing import parse_address

    try:
        scheme, location = parse_address(scheduler)
    except ValueError as err:
        raise InputError(f"bad scheduler address {scheduler!r}: {err} (expected tcp://HOST:PORT)") from None
    port = location.rpartition(":")[2]
    if ":" in location and port.isdigit() and not 0 < int(port) < 1 << 16:
        # the connection then failed as "connection refused" (exit 3), as if nothing listened there
        raise InputError(f"bad scheduler address {scheduler!r}: port {port} is not from 1 to 65535")
    if scheme not in SCHEMES:
        raise InputError(
            f"bad scheduler address {scheduler!r}: chesskit reaches a Dask scheduler over tcp:// or tls://, "
            f"not {scheme}://"
        )
    if scheme == "tcp":
        return None
    import ssl

    from distributed.security import Security

    security = Security()
    if not security.tls_ca_file:
        raise InputError(f"--scheduler {scheduler}: a tls:// scheduler needs certificates: set {TLS_SETTINGS}")
    try:
        security.get_connection_args("client")  # reads the files: a missing or bad one is named now
    except (OSError, ssl.SSLError, ValueError) as err:
        reason = getattr(err, "strerror", None) or str(err) or type(err).__name__
        raise InputError(f"--scheduler {scheduler}: cannot use the TLS certificates of Dask's configuration: {reason}") from None
    return security


def _probe(scheduler: str, timeout: float, security=None) -> str:
    """Check that a Dask scheduler answers at ``scheduler``; return the address.

    A plain TCP connect first, so that a refused connection or an unknown host fails at
    once with the reason; then Dask's own handshake (over TLS for a ``tls://`` address),
    so that another service on the port is not mistaken for a scheduler.
    """
    import asyncio

    from distributed.comm import connect
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler)
        host, port = parse_host_port(location)
    except ValueError as err:
        raise InputError(f"bad scheduler address {scheduler!r}: {err} (expected {scheme}://HOST:PORT)") from None
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except socket.gaierror:
        raise SchedulerUnreachable(scheduler, f"unknown host {host!r}") from None
    except ConnectionRefusedError:
        reason = "connection refused (is 'dask scheduler' running there?)"
        raise SchedulerUnreachable(scheduler, reason) from None
    except OSError as err:
        raise SchedulerUnreachable(scheduler, err.strerror or str(err) or "timed out") from None

    connection_args = security.get_connection_args("client") if security is not None else {}

    async def handshake():
        comm = await connect(scheduler, timeout=timeout, **connection_args)
        await comm.close()

    try:
        # bounded as a whole: Dask's handshake waits for ever on a service that accepts and
        # never answers, and reads another one's bytes as a message length (a MemoryError)
        asyncio.run(asyncio.wait_for(handshake(), timeout))
    except (OSError, asyncio.TimeoutError) as err:
        if str(err):
            said = f" ({err})"
        else:  # wait_for's timeout says nothing of its own
            said = f" within {timeout:g} s" if isinstance(err, asyncio.TimeoutError) else ""
        raise SchedulerUnreachable(scheduler, f"no Dask scheduler answered{said}") from None
    except Exception as err:  # noqa: BLE001 (what another service sent, read as Dask's messages)
        reason = f"no Dask scheduler answered (something else did: Dask cannot read what it sent, {type(err).__name__})"
        raise SchedulerUnreachable(scheduler, reason) from None
    return scheduler


class _quiet_logs:
    """Silence Dask's (and its tornado's) log lines while the run lasts: lost workers,
    reconnection attempts and their tracebacks. The run reports its own outcome in one
    line. Some of these loggers have a level of their own, so each is set."""

    PREFIXES = ("distributed", "tornado")

    def __init__(self):
        names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in self.PREFIXES]
        self._saved = {}
        for name in set(names) | set(self.PREFIXES):
            logger = logging.getLogger(name)
            self._saved[name] = logger.level
            logger.setLevel(logging.CRITICAL + 1)

    def close(self) -> None:
        for name, level in self._saved.items():
            logging.getLogger(name).setLevel(level)


def _check_memory(workers: int | None, plan, hash_mb: float) -> None:
    """Refuse (exit 2) a local cluster whose processes and hash tables would not fit in the
    memory available, rather than let the machine swap or kill them one by one."""
    from chesskit.board.tablesize import memory_available_mb
    from chesskit.cluster.worker import table_mb

    available = memory_available_mb()
    n = workers or usable_cores()
    each = WORKER_MB + table_mb(plan.remaining, hash_mb)
    if available is not None and n * each > available:
        who = f"--workers {n}" if workers else f"{n} local workers (one per core)"
        raise InputError(
            f"{who} would need about {n * each:,.0f} MiB (each worker about {WORKER_MB} MiB and a "
            f"{table_mb(plan.remaining, hash_mb):g} MiB hash table), and {available:,} MiB are available: "
            "use fewer workers or a smaller --hash"
        )


def _warn(line: str) -> None:
    import warnings

    warnings.warn(line, stacklevel=3)


def _check_int(name: str, value, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(f"bad {name} {value!r}: must be an integer >= {minimum}")
    return value
