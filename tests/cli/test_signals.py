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

from chesskit.cli import output
from helpers import subprocess_env


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


def test_interrupt_guard_restores_the_handlers(cli):
    before = (signal.getsignal(signal.SIGINT), sys.unraisablehook)
    assert cli("perft", "startpos", "1").exit_code == 0
    assert (signal.getsignal(signal.SIGINT), sys.unraisablehook) == before


@pytest.mark.parametrize("threads", ["1", "2"])
def test_ctrl_c_stops_a_long_perft_promptly(entry_point, threads):
    """`chesskit perft startpos 8` then SIGINT: the compiled walk holds the main thread for
    minutes, so a watchdog reports the Ctrl-C: one line, exit 130, within seconds. With
    one thread this needs the compiled walk to release the GIL."""
    env = subprocess_env()
    subprocess.run([entry_point, "perft", "startpos", "1"], env=env, capture_output=True, timeout=600)
    proc = subprocess.Popen(
        [entry_point, "perft", "startpos", "8", "--threads", threads, "--hash", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    time.sleep(2)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("perft startpos 8 did not stop within 30 s of Ctrl-C")
    assert proc.returncode == 130, err
    assert err == "chesskit: interrupted\n"
    assert out == ""
    assert time.monotonic() - sent < 10


# ------------------------------------------------------------------ closed pipes


def test_broken_pipe_maps_to_141_without_a_message():
    assert output.error_line(BrokenPipeError()) == ("", 141)


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
