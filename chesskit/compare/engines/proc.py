"""Child-process plumbing shared by the UCI and script back ends.

Every engine is started in its own session (so in its own process group): when
it has to go, the whole group is killed, which also takes down any helper a
wrapper script started, and the child is reaped so no zombie is left.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess

from chesskit.errors import EngineError

STOCKFISH_FALLBACK = "/usr/games/stockfish"


def find_stockfish() -> str | None:
    """Path of a Stockfish binary: `stockfish` on PATH, else Debian's /usr/games/stockfish."""
    found = shutil.which("stockfish")
    if found:
        return found
    if os.path.isfile(STOCKFISH_FALLBACK) and os.access(STOCKFISH_FALLBACK, os.X_OK):
        return STOCKFISH_FALLBACK
    return None


def resolve_program(program: str, name: str) -> str:
    """The executable to run for `program`, or an EngineError saying why there is none.

    A bare name is looked up on PATH (`stockfish` also in /usr/games); anything
    with a slash is taken as a path.
    """
    if os.sep not in program and (os.altsep is None or os.altsep not in program):
        found = shutil.which(program)
        if found is None and program == "stockfish":
            found = find_stockfish()
        if found is not None:
            return found
        if not os.path.exists(program):
            raise EngineError(f"engine {name!r} was not found (no {program!r} on PATH)")
    if not os.path.exists(program):
        raise EngineError(f"engine {name!r} was not found (no such file {program!r})")
    if os.path.isdir(program):
        raise EngineError(f"engine {name!r} is not executable ({program!r} is a directory)")
    if not os.access(program, os.X_OK):
        raise EngineError(f"engine {name!r} is not executable (try chmod +x {program})")
    return program


# Every engine process started and not yet killed, by pid (its process group's id): what
# the CLI's signal watchdog kills when it has to end chesskit from another thread.
_LIVE: dict[int, subprocess.Popen] = {}


def kill_all_groups() -> None:
    """SIGKILL the process group of every engine still running (no waiting: safe to call
    from any thread, at any moment, before the process exits)."""
    for pid in list(_LIVE):
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass


def spawn(argv: list[str], name: str, **kwargs) -> subprocess.Popen:
    """Start `argv` in a new session with piped stdout/stderr; OSError -> EngineError."""
    try:
        proc = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            **kwargs,
        )
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise EngineError(f"engine {name!r} could not be started: {why}") from None
    _LIVE[proc.pid] = proc
    return proc


def kill_group(proc: subprocess.Popen) -> None:
    """Kill `proc` and everything in its process group, then reap it."""
    _LIVE.pop(proc.pid, None)
    if hasattr(os, "killpg"):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    elif proc.poll() is None:  # pragma: no cover - not POSIX
        proc.kill()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - unkillable
        pass


def describe_exit(returncode: int) -> str:
    """`exited with code 1` or `was killed by signal SIGSEGV`."""
    if returncode < 0:
        try:
            sig = signal.Signals(-returncode).name
        except ValueError:
            sig = str(-returncode)
        return f"was killed by signal {sig}"
    return f"exited with code {returncode}"
