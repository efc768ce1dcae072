"""``chesskit perft`` with the cluster options: the local --workers mode with a real Ctrl-C
and resume, and every one-line error (no Dask cluster needed for those)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chesskit.board.board import Board
from chesskit.cluster.checkpoint import Checkpoint
from chesskit.cluster.plan import make_plan
from helpers import DASK_INSTALL, KIWIPETE, need_module, subprocess_env


def need_dask() -> None:
    """Skip without Dask; in CI (which installs the [cluster] extra) fail instead."""
    need_module("distributed", DASK_INSTALL)


def chesskit_process(*args: str) -> subprocess.Popen:
    """``python -m chesskit ...`` in its own session, so that a signal can go to its whole
    process group (the driver and its local workers) as a terminal's Ctrl-C does."""
    return subprocess.Popen(
        [sys.executable, "-m", "chesskit", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=subprocess_env(),
        start_new_session=True,
    )


def finish(process: subprocess.Popen) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode, out, err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow  # perft startpos 6 on two local workers, twice (about 12 s on 2 busy cores)
def test_local_workers_ctrl_c_then_resume(tmp_path):
    need_dask()
    path = tmp_path / "startpos6.ck"
    command = ("perft", "startpos", "6", "--workers", "2", "--checkpoint", str(path), "--json")
    run = chesskit_process(*command)
    deadline = time.monotonic() + 240
    while run.poll() is None and time.monotonic() < deadline:
        if path.exists() and len(path.read_bytes().splitlines()) >= 3:  # the header and two tasks
            break
        time.sleep(0.02)
    os.killpg(run.pid, signal.SIGINT)
    code, out, err = finish(run)
    assert code == 130, err
    assert out == ""
    assert err == f"chesskit: interrupted; resume with the same command and --checkpoint {path}\n"
    finished = len(path.read_text().splitlines()) - 1
    assert finished >= 2

    code, out, err = finish(chesskit_process(*command))
    assert code == 0, err
    data = json.loads(out)
    assert data["nodes"] == 119060324
    assert data["resumed"] == finished
    assert data["tasks"] == len(path.read_text().splitlines()) - 1 > finished
    assert data["split_depth"] == 2 and data["positions"] == 400


def starting_workers(run: subprocess.Popen, children: int = 1) -> bool:
    """Wait until ``run`` is starting its local workers: ``children`` child processes of
    it (the first is multiprocessing's resource tracker; the warm-up before is in
    process). False when the run ended or they did not show."""
    import psutil

    deadline = time.monotonic() + 120
    while run.poll() is None and time.monotonic() < deadline:
        try:
            if len(psutil.Process(run.pid).children()) >= children:
                return True
        except psutil.Error:
            pass
        time.sleep(0.005)
    return False


@pytest.mark.slow  # starts two local workers twice (a few seconds each)
@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [
        (signal.SIGINT, 130, "chesskit: interrupted\n"),
        (signal.SIGTERM, 143, "chesskit: terminated (SIGTERM)\n"),
        (signal.SIGHUP, 129, "chesskit: hung up (SIGHUP)\n"),
    ],
)
def test_a_signal_while_the_workers_start_stops_the_run(signum, code, line):
    # the workers start with Ctrl-C ignored: the run ignored it too then, went on and
    # printed its count with exit 0; a SIGTERM printed Dask's tracebacks; a SIGHUP to the
    # group killed multiprocessing's resource tracker, and the one the workers started
    # again printed a traceback for each of their semaphores
    need_dask()
    run = chesskit_process("perft", "startpos", "7", "--workers", "2")
    # the tracker, and for the hang-up a worker too: it started the second tracker
    assert starting_workers(run, 2 if signum == signal.SIGHUP else 1), run.communicate()
    os.killpg(run.pid, signum)
    assert finish(run) == (code, "", line)


def test_unreachable_scheduler_names_the_address(cli):
    need_dask()
    address = f"tcp://127.0.0.1:{free_port()}"
    result = cli("perft", "startpos", "3", "--scheduler", address)
    assert result.exit_code == 3
    assert result.stderr.startswith(f"chesskit: cannot reach the Dask scheduler at {address}: ")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_a_checkpoint_of_another_position_is_refused(cli, tmp_path):
    need_dask()
    path = tmp_path / "kiwipete.ck"
    with Checkpoint(path, make_plan(Board(KIWIPETE), 4)) as ck:
        ck.record(0, 123)
    before = path.read_bytes()
    result = cli("perft", "startpos", "4", "--workers", "1", "--checkpoint", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"chesskit: checkpoint {path} belongs to another run (fen ")
    assert "refusing to mix them" in result.stderr and result.stderr.count("\n") == 1
    assert path.read_bytes() == before


def test_missing_dask_says_how_to_install(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = cli("perft", "startpos", "3", "--workers", "2")
    assert result.exit_code == 2
    assert result.stderr == (
        'chesskit: the cluster features need the [cluster] extra: pip install "chesskit-perft[cluster]"\n'
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"], "use either --scheduler"),
        (["--workers", "0"], "bad worker count '0'"),
        (["--workers", "two"], "bad worker count 'two'"),
        (["--split-depth", "5"], "bad split depth 5: must be at most the depth (3)"),
        (["--split-depth", "-1"], "bad split depth '-1'"),
        (["--scheduler", "nonsense"], "bad scheduler address 'nonsense'"),
        (["--scheduler", "tcp://127.0.0.1:99999"], "port 99999 is not from 1 to 65535"),  # was "connection refused", exit 3
        (["--workers", "1", "--stats"], "--stats and --all-depths do not run on a cluster"),
        # issue 27: these were exit 70
        (["--scheduler", "inproc://127.0.0.1/1/1"], "over tcp:// or tls://, not inproc://"),
        (["--scheduler", "ucx://127.0.0.1:8786"], "over tcp:// or tls://, not ucx://"),
        (["--scheduler", "tls://127.0.0.1:8786"], "a tls:// scheduler needs certificates: set the distributed.comm.tls"),
        (["--scheduler", "tls://127.0.0.1"], "a tls:// scheduler needs certificates"),
    ],
    ids=["both", "zero-workers", "word-workers", "split-too-deep", "negative-split", "address", "port", "stats",
         "inproc", "ucx", "tls-without-certificates", "tls-without-port"],
)
def test_bad_cluster_options(cli, args, message):
    need_dask()
    result = cli("perft", "startpos", "3", *args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("chesskit: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_count_edited_in_the_checkpoint_is_computed_again(cli, tmp_path):
    # issue 27: before, the edited count was summed (exit 0 with a wrong total)
    need_dask()
    path = tmp_path / "startpos4.ck"
    first = cli("perft", "startpos", "4", "--workers", "1", "--checkpoint", str(path), "--json")
    assert first.exit_code == 0 and json.loads(first.stdout)["nodes"] == 197281  # the published count
    lines = path.read_text().splitlines()
    row = json.loads(lines[3])
    row["nodes"] += 1000
    lines[3] = json.dumps(row, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")
    again = cli("perft", "startpos", "4", "--workers", "1", "--checkpoint", str(path), "--json")
    assert again.exit_code == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["nodes"] == 197281 and report["resumed"] == report["tasks"] - 1
    assert again.stderr == (
        f"chesskit: warning: checkpoint {path} line 4: the count of task {row['task']} does not match "
        "its checksum (edited or damaged); that task is computed again\n"
    )


def test_local_workers_print_nothing_on_stderr_when_dasks_port_is_taken():
    """Another cluster (a second chesskit run, another xdist worker) holds Dask's HTTP port
    8787: the run still prints only its result, no Dask warning on stderr (python-chess:
    perft 3 of the start position is 8902)."""
    need_dask()
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("0.0.0.0", 8787))
    except OSError:
        pass  # taken already by someone else: the condition under test holds anyway
    else:
        holder.listen()
    try:
        code, out, err = finish(chesskit_process("perft", "startpos", "3", "--workers", "2", "--json"))
    finally:
        holder.close()
    assert code == 0, err
    assert err == ""
    assert json.loads(out)["nodes"] == 8902


def test_workers_that_cannot_start_are_named():
    # under `ulimit -v` the workers failed with Dask's "Nanny failed to start", an internal
    # error (exit 70), and Dask's log line about the worker it reaped came after it
    from chesskit.cluster.errors import WorkersFailed

    def failed(inner: BaseException) -> WorkersFailed:
        try:
            try:
                raise inner
            except Exception as err:
                raise RuntimeError("Nanny failed to start.") from err
        except RuntimeError as outer:
            return WorkersFailed(2, outer)

    memory = failed(RuntimeError("can't start new thread"))
    assert memory.exit_code == 4
    assert str(memory) == (
        "cannot start 2 local Dask workers: out of memory (RuntimeError: can't start new thread); "
        "fewer --workers need less"
    )
    other = failed(OSError("[Errno 24] Too many open files"))
    assert other.exit_code == 3
    assert str(other) == "cannot start 2 local Dask workers: OSError: [Errno 24] Too many open files"


@pytest.mark.slow  # starts (and fails to start) two local workers
def test_workers_out_of_memory_is_exit_4():
    need_dask()
    import resource

    def limit() -> None:  # room for the driver, not for two more Python processes' threads
        resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))

    run = subprocess.run(
        [sys.executable, "-m", "chesskit", "perft", "startpos", "4", "--workers", "2"],
        capture_output=True, text=True, env=subprocess_env(), preexec_fn=limit, timeout=300,
    )
    assert run.returncode == 4, run.stderr
    assert run.stderr.startswith("chesskit: ") and run.stderr.count("\n") == 1, run.stderr
    assert run.stdout == ""
