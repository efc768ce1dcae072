"""Worker processes for a suite's many small counts, each with its own GIL.

A suite of small positions (python-chess's random.perft to depth 4: 27,352 counts of 0.1 us
to a few ms) spends some 20-80 us of Python around each walk; on threads that Python
takes turns on one GIL, and two threads reached 1.4-1.5x one (suites25's GIL convoy, see
docs/benchmarks.md). Worker processes run that Python side by side, and the parent, which
reads the files, no longer holds the workers back while it does.

``Workers(n, serve)`` forks ``n`` processes from the caller (so the compiled walk and every
module loaded so far are theirs without loading them again); each receives payloads over
its own socket pair, runs ``serve(payload)`` and sends back what it returns, or the
exception it raised. ``submit`` hands a payload to the worker with the fewest waiting and
returns a ``Future``; the parent keeps no thread for the answers: a future reads its
worker's answers when its result (or ``done``) is asked for, and ``submit`` reads those
that have come (else a worker whose answers the caller has not asked for yet looks busy
and the other is given everything: random.perft's first form left one worker without
work 54 times, 1.3 s, while the other had a queue), and each worker answers in the order
it was given its payloads.

Lifetimes: a worker ignores Ctrl-C (the parent is interrupted, and ends it), takes no part
in the parent's signal handling (``signal.set_wakeup_fd``), dies with its parent (Linux's
``PR_SET_PDEATHSIG``; in any case its socket ends with the parent), and ``close`` kills
and reaps every worker, whatever they were doing: nothing outlives the run.
"""

from __future__ import annotations

import gc
import os
import select
import signal
import sys
import time
from collections import deque
from concurrent.futures import Future
from multiprocessing.connection import Connection, Pipe
from typing import Callable

# fork is what makes a worker cheap (nothing loaded twice); Linux only: macOS's system
# libraries are not safe to use in a forked child of a process with threads
AVAILABLE = hasattr(os, "fork") and sys.platform.startswith("linux")

_STOP_SIGNALS = tuple(
    sig for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if sig
)
_PR_SET_PDEATHSIG = 1


class WorkerLost(RuntimeError):
    """A worker process ended without answering (killed from outside, out of memory)."""


class _Worker:
    def __init__(self, pid: int, conn: Connection):
        self.pid, self.conn = pid, conn
        self.waiting: deque[_Answer] = deque()
        self.poller = select.poll()  # whether an answer has come: Connection.poll builds a selector each time
        self.poller.register(conn.fileno(), select.POLLIN)


class _Answer(Future):
    """The future of one payload: asking for its result (or whether it is done) reads its
    worker's answers, in order, until its own has come."""

    def __init__(self, workers: "Workers", worker: _Worker, then: Callable[[object], object] | None):
        super().__init__()
        self._workers, self._worker, self._then = workers, worker, then

    def done(self) -> bool:
        if not super().done():
            self._workers._read(self._worker, block=False)
        return super().done()

    def result(self, timeout: float | None = None):
        while not super().done():
            self._workers._read(self._worker, block=True)
        return super().result(0)


class Workers:
    """``count`` forked processes, each running ``serve`` on the payloads it is given."""

    def __init__(self, count: int, serve: Callable[[object], object]):
        self.workers: list[_Worker] = []
        self.closed = False
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)  # none lands before a child ignores it
        gc.freeze()  # what exists now is the workers' too: their collector leaves it (and its pages) alone
        try:
            for _ in range(count):
                mine, theirs = Pipe(duplex=True)
                pid = os.fork()
                if pid == 0:  # pragma: no cover -- the child (coverage does not follow it)
                    code = 1
                    try:
                        code = _serve(theirs, [mine, *(w.conn for w in self.workers)], serve, mask)
                    finally:
                        os._exit(code)
                theirs.close()
                self.workers.append(_Worker(pid, mine))
        except BaseException:
            self.close()
            raise
        finally:
            gc.unfreeze()
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def submit(self, payload, then: Callable[[object], object] | None = None) -> Future:
        """Hand ``payload`` to the worker with the fewest waiting; the future's result is
        ``then(answer)`` (``then`` runs here, in the parent) or the worker's exception."""
        if self.closed:
            raise RuntimeError("the worker processes are closed")
        for worker in self.workers:  # the answers that have come: ``waiting`` is then what each has left to do
            while worker.waiting and worker.poller.poll(0):
                self._read(worker, block=True)
        worker = min(self.workers, key=lambda w: len(w.waiting))
        answer = _Answer(self, worker, then)
        worker.waiting.append(answer)
        try:
            worker.conn.send(payload)
        except OSError:
            self._lost(worker)
        return answer

    def _read(self, worker: _Worker, block: bool) -> None:
        """Take ``worker``'s next answer (when one has come, unless ``block``)."""
        if not worker.waiting:
            return
        try:
            if not block and not worker.poller.poll(0):
                return
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker)
            return
        answer = worker.waiting.popleft()
        if not ok:
            answer.set_exception(value)
            return
        try:
            answer.set_result(value if answer._then is None else answer._then(value))
        except BaseException as err:  # noqa: BLE001 -- the answer's own failure
            answer.set_exception(err)

    def _lost(self, worker: _Worker) -> None:
        status = ""
        for _ in range(100):  # its socket ended as it exited: how, once the kernel says
            status = _reap(worker.pid, block=False)
            if status:
                break
            time.sleep(0.01)
        why = f" ({status})" if status else ""
        while worker.waiting:
            worker.waiting.popleft().set_exception(WorkerLost(f"a suite's worker process ended without answering{why}"))

    def close(self) -> None:
        """Kill and reap every worker; what has not been answered is cancelled."""
        if self.closed:
            return
        self.closed = True
        for worker in self.workers:
            while worker.waiting:
                worker.waiting.popleft().cancel()
            worker.conn.close()
            try:
                os.kill(worker.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for worker in self.workers:
            _reap(worker.pid, block=True)

    def shutdown(self, wait: bool = True, cancel_futures: bool = True) -> None:
        """``close`` (``concurrent.futures.Executor``'s name for it)."""
        self.close()


def _reap(pid: int, block: bool) -> str:
    """Wait for child ``pid`` (if it has ended, unless ``block``): how it ended, or ""."""
    try:
        found, status = os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:  # reaped already
        return ""
    if not found:
        return ""
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


def _serve(conn: Connection, others: list[Connection], serve, mask) -> int:  # pragma: no cover -- the child
    """A worker's life: answer each payload until the parent's end closes."""
    for other in others:  # the parent's ends: only the parent may hold them, so that they end with it
        other.close()
    parent = os.getppid()
    try:
        signal.set_wakeup_fd(-1)  # the parent's watchdog must not see this process's signals
    except ValueError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent ends us
    for sig in _STOP_SIGNALS[1:]:
        signal.signal(sig, signal.SIG_DFL)
    _die_with(parent)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    while True:
        try:
            payload = conn.recv()
        except (EOFError, OSError):
            return 0
        try:
            answer = (True, serve(payload))
        except BaseException as err:  # noqa: BLE001 -- sent to the parent, raised there
            answer = (False, err)
        try:
            conn.send(answer)
        except (OSError, EOFError):
            return 0
        except Exception as err:  # noqa: BLE001 -- an exception that cannot be pickled
            conn.send((False, RuntimeError(f"{type(err).__name__}: {err}")))


def _die_with(parent: int) -> None:  # pragma: no cover -- the child
    """Have the kernel kill this process when ``parent`` ends (Linux), so that a parent
    ended by ``os._exit`` or SIGKILL leaves no worker behind."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # it ended before the line above
        os._exit(0)
