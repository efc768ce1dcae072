"""Signals and pipes: Ctrl-C is one line and exit 130, promptly, also in the middle of a
compiled perft or of the first compile, and leaves the handlers as it found them; a closed
stdout (``chesskit suite | head -1``) is exit 141 without a message, not a mismatch."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from chesskit.cli import boundary
from helpers import children_cpu, cpu_seconds, subprocess_env, terminal_reader, wait_for_cpu


# ------------------------------------------------------------------ Ctrl-C


def test_keyboard_interrupt_is_one_line_130(cli, monkeypatch):
    from chesskit.cli import perft_cmd

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(perft_cmd, "load_board", interrupted)
    result = cli("perft", "startpos", "1")
    assert result.exit_code == 130
    assert result.stderr == "chesskit: interrupted\n"


def test_an_interrupt_the_compiler_turned_into_another_error_is_still_interrupted(cli, monkeypatch):
    """numba's compiler can swallow the KeyboardInterrupt and raise something else (a
    RuntimeError "no compiled object yet"): after a Ctrl-C it is still "interrupted", 130.
    No compile runs here: a stand-in for the board's loading receives the SIGINT and raises
    that RuntimeError in its place, as the compiler does."""
    from chesskit.cli import perft_cmd

    def compile_interrupted(*args):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            raise RuntimeError("no compiled object yet for <Library 'divide'>") from None

    monkeypatch.setattr(perft_cmd, "load_board", compile_interrupted)
    result = cli("perft", "startpos", "1")
    assert result.exit_code == 130
    assert result.stderr == "chesskit: interrupted\n"


class _Destructor:
    """An object whose destructor Ctrl-C lands in: Python cannot raise from a destructor,
    so it drops the KeyboardInterrupt there ("Exception ignored in ...")."""

    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(100_000):  # the handler runs at this loop's first turn, in here
            pass


def test_an_interrupt_dropped_in_a_destructor_is_taken_again(cli, monkeypatch):
    """A Ctrl-C whose KeyboardInterrupt lands in a destructor (or a gc or weakref
    callback) is not lost: the main thread takes it again at its next step, and the
    run ends then (130), not after its work (which here would take 20 s more)."""
    from chesskit.cli import perft_cmd

    load_board = perft_cmd.load_board
    went_on = []

    def load(*args):
        _Destructor()  # collected at once
        went_on.append(time.monotonic())
        time.sleep(20)
        return load_board(*args)

    monkeypatch.setattr(perft_cmd, "load_board", load)
    started = time.monotonic()
    result = cli("perft", "startpos", "1")
    assert (result.exit_code, result.stderr) == (130, "chesskit: interrupted\n")
    assert time.monotonic() - started < 10


def test_an_interrupt_kept_by_the_code_it_landed_in_still_ends_the_run_130(cli, monkeypatch):
    """Code that catches the KeyboardInterrupt and goes on (a library's ``except
    BaseException``) cannot turn a Ctrl-C into a success: the run, done, exits 130."""
    from chesskit.cli import perft_cmd

    load_board = perft_cmd.load_board

    def load(*args):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except BaseException:  # noqa: BLE001 -- what the test is about
            pass
        return load_board(*args)

    monkeypatch.setattr(perft_cmd, "load_board", load)
    result = cli("perft", "startpos", "1", "--json")
    assert (result.exit_code, result.stderr) == (130, "chesskit: interrupted\n")
    assert '"nodes": 20' in result.stdout  # it did finish


def test_interrupt_guard_restores_the_handlers(cli):
    before = (signal.getsignal(signal.SIGINT), sys.unraisablehook)
    assert cli("perft", "startpos", "1").exit_code == 0
    assert (signal.getsignal(signal.SIGINT), sys.unraisablehook) == before


# CPU seconds a walk has run past the start-up when a test signals it: well inside the
# compiled walk, however busy the machine (``wait_for_cpu``)
IN_THE_WALK_CPU = 0.8


@pytest.fixture(scope="module")
def start_up_cpu(entry_point) -> float:
    """The CPU seconds of a whole ``chesskit perft startpos 1`` (start-up, the compiled
    core loaded from the cache, exit): a process that has used this much and
    ``IN_THE_WALK_CPU`` more is counting. Run once for the module's signal tests."""
    before = children_cpu()
    subprocess.run([entry_point, "perft", "startpos", "1"], env=subprocess_env(), capture_output=True, timeout=600)
    return children_cpu() - before


@pytest.mark.parametrize("threads", ["1", "2"])
def test_ctrl_c_stops_a_long_perft_promptly(entry_point, start_up_cpu, threads):
    """`chesskit perft startpos 8` then SIGINT: the compiled walk holds the main thread for
    minutes, so a watchdog reports the Ctrl-C: one line, exit 130, promptly. With one thread
    this needs the compiled walk to release the GIL. "Promptly" in CPU, which a busy machine
    does not stretch: the process uses under ``STOP_CPU`` s after the signal, where the whole
    count (85 billion leaves, no table) needs minutes of CPU; a walk that ignored the
    signal would burn that until the 120 s guard."""
    proc = subprocess.Popen(
        [entry_point, "perft", "startpos", "8", "--threads", threads, "--hash", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=subprocess_env(),
    )
    wait_for_cpu(proc, start_up_cpu + IN_THE_WALK_CPU)
    sent = cpu_seconds(proc.pid)
    proc.send_signal(signal.SIGINT)
    used = _reap(proc, guard=120)  # its whole CPU, every thread, read as it ends
    out, err = proc.communicate()  # a line at most: it fits the pipes
    assert proc.returncode == 130, err
    assert err == "chesskit: interrupted\n"
    assert out == ""
    assert used - sent < STOP_CPU, f"{used - sent:.1f} s of CPU after the Ctrl-C"


# CPU seconds a walk may use after a Ctrl-C: the watchdog's poll and the exit, on every
# walk thread; the count it was given needs minutes
STOP_CPU = 5.0


def _reap(proc: subprocess.Popen, guard: float) -> float:
    """Wait for ``proc`` to end, set its return code, and return the CPU seconds (user +
    system, every thread) it used in all, from the kernel's accounting of the reaped child.
    Kills it and fails if it has not ended after ``guard`` s (a hang, not a slow machine)."""
    deadline = time.monotonic() + guard
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            proc.kill()
            proc.communicate()
            pytest.fail(f"{proc.args} did not stop within {guard} s of the signal")
        time.sleep(0.02)


# ------------------------------------------------------------------ signals mid-walk, threaded

# (signal, exit code, the line): the shell's 128 + the signal's number
STOPS = [
    (signal.SIGINT, 130, "chesskit: interrupted"),
    (signal.SIGTERM, 143, "chesskit: terminated (SIGTERM)"),
    (signal.SIGHUP, 129, "chesskit: hung up (SIGHUP)"),
]
# a walk that runs for many minutes, even counting only the tasks already started: each
# of the default pool's tasks is a perft 9 below two plies, with a small table
LONG_WALK = ["startpos", "11", "--hash", "16"]


def _threads_of(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except FileNotFoundError:
        return 0


def _stop_mid_walk(entry_point, start_up_cpu, args, sig, on_terminal=False):
    """Start ``chesskit ARGS`` with the default thread count, wait until the pool's walks
    run, send ``sig``: (exit code, stdout, stderr) once it ended, or fail when it has not
    ended 10 s after the signal (the walks would run for many minutes)."""
    env = subprocess_env()
    cores = len(os.sched_getaffinity(0))
    # the main thread, the signal watchdog, rich's refresh thread on a terminal, and the
    # pool's threads (one per core; none with one core: the walk then runs on the main thread)
    wanted = 2 + int(on_terminal) + (cores if cores > 1 or on_terminal else 0)
    if on_terminal:
        replica, finish = terminal_reader()
        proc = subprocess.Popen([entry_point, *args], stdout=replica, stderr=replica, env=env)
        os.close(replica)
    else:
        proc = subprocess.Popen([entry_point, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 120
        while _threads_of(proc.pid) < wanted and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "chesskit ended before the signal"
        assert _threads_of(proc.pid) >= wanted, "the pool's threads never started"
        wait_for_cpu(proc, start_up_cpu + IN_THE_WALK_CPU)  # well inside the walks
        proc.send_signal(sig)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{' '.join(args)} was still running 10 s after {sig.name}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if on_terminal:
        text = finish()
        return proc.returncode, text, text
    return proc.returncode, proc.stdout.read().decode(), proc.stderr.read().decode()


@pytest.mark.parametrize("command", ["perft", "divide"])
@pytest.mark.parametrize("sig, code, line", STOPS, ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_stops_a_threaded_walk_at_once(entry_point, start_up_cpu, command, sig, code, line):
    """The default (threaded) perft and divide: the main thread waits for the pool, whose
    compiled walks cannot be interrupted; a signal still ends the process at once with
    128 + the signal and its one line, without waiting for the walks to end."""
    returncode, out, err = _stop_mid_walk(entry_point, start_up_cpu, [command, *LONG_WALK], sig)
    assert returncode == code, err
    assert err == line + "\n"
    assert out == ""


def test_ctrl_c_stops_a_threaded_walk_in_json_mode(entry_point, start_up_cpu):
    returncode, out, err = _stop_mid_walk(entry_point, start_up_cpu, ["divide", *LONG_WALK, "--json"], signal.SIGINT)
    assert (returncode, out, err) == (130, "", "chesskit: interrupted\n")


@pytest.mark.parametrize("command", ["perft", "divide"])
def test_ctrl_c_stops_a_threaded_walk_under_its_progress_bar(entry_point, start_up_cpu, command):
    """On a terminal the walk is split over the pool whatever the thread count, under a
    rich progress bar: Ctrl-C ends it at once too, and the bar gives way to the one line."""
    returncode, out, _ = _stop_mid_walk(entry_point, start_up_cpu, [command, *LONG_WALK], signal.SIGINT, on_terminal=True)
    assert returncode == 130, out
    assert out.rstrip().endswith("chesskit: interrupted")
    assert "Traceback" not in out


# ------------------------------------------------------------------ closed pipes


def test_broken_pipe_maps_to_141_without_a_message():
    assert boundary.error_line(BrokenPipeError()) == ("", 141)


def test_closing_the_pipe_early_is_quiet_and_not_a_mismatch(entry_point, tmp_path):
    """`chesskit suite | head -1`: exit 141 (the shell's SIGPIPE code), nothing on stderr."""
    proc = subprocess.Popen(
        [entry_point, "suite", "--max-nodes", "1e4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    first = proc.stdout.readline()
    proc.stdout.close()  # what head does after its line
    code = proc.wait(timeout=300)
    stderr = proc.stderr.read().decode()
    assert first.startswith(b"ok ")
    assert code == 141, stderr
    assert stderr == ""
