"""Python adapters that misbehave in ways an in-process adapter could hurt chesskit with
(issue 14): each must end the run with exit 3 and one line, never reach chesskit's stdout,
and leave no process behind."""

import os
import subprocess
import sys

import pchelper


class Prints(pchelper.Adapter):
    """Correct, but chatty: print() in every hook (and a write to fd 1 from C level)."""

    def set_fen(self, fen, chess960=False):
        print("set_fen called", fen)
        os.write(1, b"raw write to fd 1\n")
        super().set_fen(fen, chess960)

    def legal_moves(self):
        moves = super().legal_moves()
        print("moves:", len(moves))
        return moves


class ExitsQuietly(pchelper.Adapter):
    """os._exit(0) in push: in-process that ended chesskit with exit 0."""

    def push(self, uci):
        os._exit(0)


class _Weird(BaseException):
    """Not an Exception: `except Exception` does not catch it."""


class RaisesBaseException(pchelper.Adapter):
    def legal_moves(self):
        raise _Weird("weird")


class RaisesKeyboardInterrupt(pchelper.Adapter):
    def push(self, uci):
        raise KeyboardInterrupt


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no str for you")


class RaisesUnprintable(pchelper.Adapter):
    def legal_moves(self):
        raise _Unprintable()


class RaisesGeneratorExit(pchelper.Adapter):
    def pop(self):
        raise GeneratorExit("closing")


class StartsAHelper(pchelper.Adapter):
    """Starts a sleeping child process, then hangs: the helper must die with it.
    The helper's pid goes to $CHESSKIT_HANG_PIDFILE."""

    def legal_moves(self):
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        pidfile = os.environ.get("CHESSKIT_HANG_PIDFILE")
        if pidfile:
            with open(pidfile, "w") as f:
                f.write(f"{os.getpid()} {helper.pid}\n")
        import time

        time.sleep(120)


class HugeMoveList(pchelper.Adapter):
    """legal_moves() returns a list far past what a position can hold."""

    def legal_moves(self):
        return ["e2e4"] * 20_000_000
