"""Cluster perft on a real Dask scheduler and two workers, started here on loopback."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import DASK_INSTALL, KIWIPETE, STARTPOS, need_module, subprocess_env

distributed = need_module("distributed", DASK_INSTALL)  # skipped without it, a failure in CI

from chesskit.board.board import Board  # noqa: E402
from chesskit.cluster import run_perft  # noqa: E402
from chesskit.cluster.errors import ClusterError, ClusterInterrupted  # noqa: E402

POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


def dask_cli(*args: str, log: Path, pythonpath: str | None = None) -> subprocess.Popen:
    """``dask ...`` in its own session (so it and its children can be killed as a group)."""
    beside = Path(sys.executable).with_name("dask")
    return subprocess.Popen(
        [str(beside) if beside.exists() else shutil.which("dask") or "dask", *args],
        stdout=subprocess.DEVNULL,
        stderr=open(log, "wb"),
        env=subprocess_env(pythonpath),
        start_new_session=True,
    )


def stop(process: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)


def start_worker(address: str, name: str, tmp: Path, pythonpath: str | None = None) -> subprocess.Popen:
    options = "--nthreads 1 --nworkers 1 --host 127.0.0.1 --no-dashboard --memory-limit 0".split()
    return dask_cli(
        "worker", address, "--name", name, *options, log=tmp / f"{name}.log", pythonpath=pythonpath
    )


def start_scheduler(tmp: Path) -> tuple[subprocess.Popen, str]:
    """A scheduler on a free port of 127.0.0.1, and its address."""
    info = tmp / "scheduler.json"
    options = "--host 127.0.0.1 --port 0 --no-dashboard".split()
    process = dask_cli("scheduler", *options, "--scheduler-file", str(info), log=tmp / "scheduler.log")
    deadline = time.monotonic() + 60
    while not info.exists() or not info.read_text().strip():
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            pytest.fail("the scheduler did not start: " + (tmp / "scheduler.log").read_text()[-2000:])
        time.sleep(0.2)
    return process, json.loads(info.read_text())["address"]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A scheduler and two one-thread workers on 127.0.0.1; yields (address, monitor client)."""
    Board(STARTPOS).perft(3)  # load the compiled core here before any worker needs it
    tmp = tmp_path_factory.mktemp("dask")
    scheduler, address = start_scheduler(tmp)
    processes = [scheduler]
    monitor = None
    try:
        processes += [start_worker(address, f"w{i}", tmp) for i in (1, 2)]
        monitor = distributed.Client(address, set_as_default=False)
        monitor.wait_for_workers(2, timeout=120)
        yield address, monitor, tmp
    finally:
        if monitor is not None:
            monitor.close()
        for process in reversed(processes):
            stop(process)


@pytest.mark.parametrize(
    "fen, depth, nodes",
    [
        (KIWIPETE, 4, 4085603),
        (STARTPOS, 5, 4865609),
        pytest.param(POS3, 6, 11030083, marks=pytest.mark.slow),
    ],
    ids=["kiwipete-4", "startpos-5", "pos3-6"],
)
def test_totals_of_known_positions(cluster, fen, depth, nodes):
    address, _, _ = cluster
    result = run_perft(Board(fen), depth, scheduler=address)
    assert result.nodes == nodes
    assert result.resumed == 0 and result.tasks > 1 and result.computed_nodes == nodes


@pytest.mark.slow  # perft 6 on a cluster (4-16 s on 2 busy cores)
def test_a_worker_killed_mid_run_costs_only_time(cluster):
    address, monitor, tmp = cluster
    victim = start_worker(address, "victim", tmp)
    try:
        monitor.wait_for_workers(3, timeout=120)
        (victim_address,) = [
            a for a, w in monitor.scheduler_info(n_workers=-1)["workers"].items() if w["name"] == "victim"
        ]
        in_flight: list = []

        def kill_when_busy(status):
            if not in_flight:
                held = monitor.processing(workers=[victim_address]).get(victim_address, ())
                if held:
                    in_flight.extend(held)
                    os.killpg(victim.pid, signal.SIGKILL)

        result = run_perft(Board(STARTPOS), 6, scheduler=address, progress=kill_when_busy)
        assert victim.wait(timeout=30) == -signal.SIGKILL
        assert in_flight, "the victim held no task when it was killed"
        assert result.nodes == 119060324
    finally:
        stop(victim, signal.SIGKILL)


@pytest.mark.slow  # perft 6 on a cluster (4-16 s on 2 busy cores)
def test_an_interrupted_run_resumes_without_recomputing(cluster, tmp_path):
    address, _, _ = cluster
    path = tmp_path / "pos3.ck"

    def interrupt(status):
        if status.done >= 5:
            raise KeyboardInterrupt

    with pytest.raises(ClusterInterrupted) as err:
        run_perft(Board(POS3), 6, scheduler=address, checkpoint=path, progress=interrupt)
    assert str(err.value) == f"interrupted; resume with the same command and --checkpoint {path}"
    assert err.value.exit_code == 130
    first = path.read_text().splitlines()
    done_before = {json.loads(line)["task"]: json.loads(line)["nodes"] for line in first[1:]}
    assert len(done_before) >= 5

    result = run_perft(Board(POS3), 6, scheduler=address, checkpoint=path)
    assert result.nodes == 11030083
    assert result.resumed == len(done_before)
    assert result.computed_nodes == 11030083 - sum(done_before.values())
    after = path.read_text().splitlines()
    assert after[: len(first)] == first  # appended to, never rewritten
    tasks = [json.loads(line)["task"] for line in after[1:]]
    assert sorted(tasks) == list(range(result.tasks))  # each task computed exactly once

    again = run_perft(Board(POS3), 6, scheduler=address, checkpoint=path)
    assert (again.nodes, again.resumed, again.computed_nodes) == (11030083, result.tasks, 0)
    assert path.read_text().splitlines() == after


def test_the_perft_command_on_the_scheduler(cluster, cli):
    address, _, _ = cluster
    result = cli("perft", "kiwipete", "4", "--scheduler", address, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["nodes"] == 4085603 and data["depth"] == 4 and data["fen"] == KIWIPETE
    assert data["resumed"] == 0 and data["tasks"] > 1 and data["split_depth"] == 2
    assert result.stderr == ""

    result = cli("perft", "kiwipete", "4", "--scheduler", address, "--split-depth", "1")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Nodes searched: 4085603"
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        "Nodes searched",
        "Time",
        "Nodes/second",
    ]


def test_a_terminal_gets_a_progress_bar_and_a_table(cluster, cli, monkeypatch):
    from chesskit.cli import output

    address, _, _ = cluster
    monkeypatch.setattr(output, "stdout_is_terminal", lambda: True)
    monkeypatch.setattr(output, "stderr_is_terminal", lambda: True)

    def console(stderr=False):
        from rich.console import Console

        return Console(file=sys.stderr if stderr else sys.stdout, force_terminal=True, width=200)

    monkeypatch.setattr(output, "console", console)
    result = cli("perft", "pos3", "5", "--scheduler", address)
    assert result.exit_code == 0, result.stderr
    assert "674624" in result.stdout and "positions at depth" in result.stdout
    assert "tasks" in result.stderr and "Mnps" in result.stderr and "ETA" in result.stderr  # the bar


def test_waits_for_a_worker_and_refuses_one_without_chesskit(tmp_path):
    """A private scheduler: the run waits until a worker joins; then a worker whose
    chesskit cannot be imported is named before any task is sent (exit 3)."""
    scheduler, address = start_scheduler(tmp_path)
    workers: list[subprocess.Popen] = []
    try:

        def start_one_when_waiting(status):
            if status.waiting and not workers:
                workers.append(start_worker(address, "late", tmp_path))

        result = run_perft(Board(POS3), 4, scheduler=address, progress=start_one_when_waiting)
        assert workers and result.nodes == 43238
        stop(workers[0])

        fake = tmp_path / "fake"
        (fake / "chesskit").mkdir(parents=True)
        (fake / "chesskit" / "__init__.py").write_text("")  # a chesskit without the cluster package
        workers.append(start_worker(address, "broken", tmp_path, pythonpath=str(fake)))
        with pytest.raises(ClusterError) as err:
            run_perft(Board(POS3), 4, scheduler=address)
        assert err.value.exit_code == 3
        assert str(err.value).startswith("worker tcp://127.0.0.1:")
        assert "cannot import chesskit (ModuleNotFoundError" in str(err.value)
    finally:
        for process in workers + [scheduler]:
            stop(process)


@pytest.mark.slow  # perft 6 on a cluster (4-16 s on 2 busy cores)
def test_a_lost_scheduler_ends_the_run_and_another_one_resumes_it(tmp_path):
    path = tmp_path / "pos3.ck"
    (tmp_path / "one").mkdir()
    first_scheduler, address = start_scheduler(tmp_path / "one")
    processes = [first_scheduler, start_worker(address, "one", tmp_path)]
    try:

        def kill_scheduler(status):
            if status.done >= 5 and first_scheduler.poll() is None:
                os.killpg(first_scheduler.pid, signal.SIGKILL)

        with pytest.raises(ClusterError) as err:
            run_perft(Board(POS3), 6, scheduler=address, checkpoint=path, progress=kill_scheduler)
        assert str(err.value) == (
            f"lost the connection to the Dask scheduler at {address}; "
            f"resume with the same command and --checkpoint {path}"
        )
        saved = len(path.read_text().splitlines()) - 1
        assert saved >= 5

        (tmp_path / "two").mkdir()
        second_scheduler, address = start_scheduler(tmp_path / "two")
        processes += [second_scheduler, start_worker(address, "two", tmp_path)]
        result = run_perft(Board(POS3), 6, scheduler=address, checkpoint=path)
        assert (result.nodes, result.resumed) == (11030083, saved)
    finally:
        for process in reversed(processes):
            stop(process, signal.SIGKILL)


@pytest.mark.slow  # its own scheduler and worker processes, 11-27 s of CPU (issue 25); test_totals_of_known_positions runs a cluster in the default run
def test_a_tls_scheduler_with_the_certificates_of_dasks_configuration(tmp_path):
    """docs/cluster.md recommends tls://: a scheduler and a worker with a self-signed
    certificate, and chesskit given the same one through Dask's configuration (issue 27:
    exit 70 before)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is needed to make a test certificate (apt install openssl)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True,
    )
    tls = ["--tls-ca-file", str(cert), "--tls-cert", str(cert), "--tls-key", str(key)]
    info = tmp_path / "scheduler.json"
    options = ["--protocol", "tls", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", *tls]
    scheduler = dask_cli("scheduler", *options, "--scheduler-file", str(info), log=tmp_path / "scheduler.log")
    processes = [scheduler]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            assert scheduler.poll() is None and time.monotonic() < deadline, (tmp_path / "scheduler.log").read_text()
            time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tls://")
        worker_options = "--nthreads 1 --nworkers 1 --host 127.0.0.1 --no-dashboard --memory-limit 0".split()
        processes.append(dask_cli("worker", address, *worker_options, *tls, log=tmp_path / "worker.log"))
        env = subprocess_env()
        command = [sys.executable, "-m", "chesskit", "perft", "startpos", "4", "--scheduler", address, "--json"]
        plain = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        assert plain.returncode == 2 and "a tls:// scheduler needs certificates" in plain.stderr
        env.update(
            DASK_DISTRIBUTED__COMM__TLS__CA_FILE=str(cert),
            DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT=str(cert),
            DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=str(key),
        )
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["nodes"] == 197281  # the published perft(4)
        env["DASK_DISTRIBUTED__COMM__TLS__CA_FILE"] = str(tmp_path / "missing.pem")
        missing = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        assert missing.returncode == 2 and "cannot use the TLS certificates" in missing.stderr
        assert missing.stderr.count("\n") == 1
    finally:
        for process in reversed(processes):
            stop(process)


def _service(answer: bytes | None):
    """A TCP service on a free loopback port that is no Dask scheduler: it sends ``answer``
    to each connection, or (None) accepts and never answers. Returns its address."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if answer is not None:
                conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}", server


@pytest.mark.parametrize("answer, said", [
    # Dask read its first bytes as a message length: a MemoryError ("out of memory", exit 4)
    (b"SSH-2.0-OpenSSH_9.2\r\n" + b"\xff" * 64, "no Dask scheduler answered (something else did"),
    (None, "no Dask scheduler answered within 1 s"),  # it waited for ever
])
def test_a_service_that_is_no_scheduler_is_one_line(answer, said):
    from chesskit.cluster.errors import SchedulerUnreachable

    address, server = _service(answer)
    try:
        began = time.monotonic()
        with pytest.raises(SchedulerUnreachable) as caught:
            run_perft(Board(STARTPOS), 3, scheduler=address, connect_timeout=1)
        assert time.monotonic() - began < 30
        assert said in str(caught.value) and address in str(caught.value) and caught.value.exit_code == 3
    finally:
        server.close()


def test_a_script_without_a_main_guard_is_told_why_its_local_cluster_failed(tmp_path):
    # QA 42a D1: the docs' run_perft with workers= in a plain script: each worker Dask
    # spawned ran the script again, and the run ended in a wall of Dask's tracebacks
    script = tmp_path / "rp.py"
    script.write_text(
        "from chesskit import Board\n"
        "from chesskit.cluster import run_perft\n"
        "print(run_perft(Board(), 2, workers=1).nodes)\n"
    )
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=subprocess_env(), timeout=120, cwd=tmp_path
    )
    assert run.returncode == 1 and run.stdout == ""
    guard = 'needs its run_perft call under `if __name__ == "__main__":`'
    # the worker that ran the script again ended with one line, not Dask's tracebacks
    assert f"chesskit: run_perft ran again in a Dask worker process being started: a script that starts a local cluster {guard}" in run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("chesskit.cluster.errors.WorkersFailed: cannot start 1 local Dask worker: ") and guard in last
    assert "direct cause" not in run.stderr  # Dask's chained tracebacks bury the advice (QA 42c)
    # guarded, the same script counts
    script.write_text(script.read_text().replace("print(", 'if __name__ == "__main__":\n    print('))
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=subprocess_env(), timeout=120, cwd=tmp_path
    )
    assert run.returncode == 0 and run.stdout == "400\n", run.stderr
