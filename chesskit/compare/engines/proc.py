"""Child-process plumbing shared by the UCI and script back ends.

Every engine is started in its own session (so in its own process group): when
it has to go, the whole group is killed, which also takes down any helper a
wrapper script started, and the child is reaped so no zombie is left.
"""

from __future__ import annotations

import errno
import os
import re
import shlex
import select
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import time

from chesskit.errors import EngineNotStarted

GAMES_DIR = "/usr/games"  # Debian installs chess engines here
STOCKFISH_FALLBACK = "/usr/games/stockfish"

# What chesskit reads from an engine is bounded, so an engine printing endless or huge
# lines cannot exhaust memory: one line at most MAX_LINE characters, one answer (all the
# lines of one divide) at most MAX_ANSWER. Past either, the engine failed (exit 3).
MAX_LINE = 64 * 1024
MAX_ANSWER = 64 * 1024 * 1024
# How much of an engine's stderr is kept, for the "last output" of an error message.
STDERR_TAIL = 4096


class OutputLimit(Exception):
    """An engine's output went past MAX_LINE or MAX_ANSWER; ``str()`` says which."""


def too_long_line() -> OutputLimit:
    return OutputLimit(f"printed a line longer than {MAX_LINE // 1024} KiB")


def too_much_output(what: str) -> OutputLimit:
    return OutputLimit(f"printed more than {MAX_ANSWER // (1024 * 1024)} MiB answering {what}")


def read_lines(stream, limit: int = MAX_LINE, truncate: bool = False):
    """The lines of a text ``stream`` without their line ends, each read with a cap: a line
    longer than ``limit`` raises OutputLimit (or, with ``truncate``, is cut to ``limit``
    and the rest of it skipped, for stderr that is only shown)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith("\n"):
            if not truncate:
                raise too_long_line()
            while line and not line.endswith("\n"):  # skip to the end of the line
                line = stream.readline(limit)
            yield "(a line longer than the limit)"
            continue
        yield line.rstrip("\r\n")


def find_stockfish() -> str | None:
    """Path of a Stockfish binary: `stockfish` on PATH, else Debian's /usr/games/stockfish."""
    found = shutil.which("stockfish")
    if found:
        return found
    if os.path.isfile(STOCKFISH_FALLBACK) and os.access(STOCKFISH_FALLBACK, os.X_OK):
        return STOCKFISH_FALLBACK
    return None


def resolve_program(program: str, name: str) -> str:
    """The executable to run for `program`, or an EngineNotStarted saying why there is none.

    A bare name is looked up on PATH, then in Debian's /usr/games (where the packages
    `stockfish`, `ethereal-chess` and `fairy-stockfish` put their engines, off a root
    user's PATH), then in the current folder (`--script x.sh` runs ./x.sh: the path
    returned then has a slash, so the exec does not search PATH for it again); anything
    with a slash is taken as a path. The errors are `EngineNotStarted`.
    """
    if os.sep not in program and (os.altsep is None or os.altsep not in program):
        found = shutil.which(program) or shutil.which(program, path=GAMES_DIR)
        if found is not None:
            return found
        if not os.path.exists(program):
            raise EngineNotStarted(f"engine {name!r} was not found (no {program!r} on PATH){_split_path(program, name)}")
        program = os.path.join(os.curdir, program)
    if not os.path.exists(program) and os.path.islink(program):  # a loop, or its target gone
        raise EngineNotStarted(f"engine {name!r} was not found ({program!r} is a symbolic link to {os.readlink(program)!r}, which leads to no file)")
    if not os.path.exists(program):
        raise EngineNotStarted(f"engine {name!r} was not found (no such file {program!r}){_split_path(program, name)}")
    if os.path.isdir(program):
        raise EngineNotStarted(f"engine {name!r} is not executable ({program!r} is a directory)")
    if not os.access(program, os.X_OK):
        raise EngineNotStarted(f"engine {name!r} is not executable (try chmod +x {program})")
    return program


def _split_path(program: str, name: str) -> str:
    """What a not-found error adds where the command, a path with spaces, was split at them,
    or where it was written for a shell, which does not run it (a variable, ``~``, an
    assignment before the program)."""
    if program != name and os.path.isfile(name):
        return f": the command is split at its spaces, and {name!r} is a file: quote it ({shlex.quote(name)})"
    if program.startswith("~") or "$" in program or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", program):
        return (
            ": no shell runs the command, so variables, '~' and 'NAME=value' before it are not expanded; "
            "write the path in full, and set a variable the engine needs before chesskit (NAME=value chesskit ...)"
        )
    return ""


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
    """Start `argv` in a new session with piped stdout/stderr; OSError -> EngineNotStarted (an EngineError)."""
    try:
        proc = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            **kwargs,
        )
    except OSError as exc:
        raise EngineNotStarted(f"engine {name!r} could not be started: {why_not_started(argv[0], exc)}") from None
    _LIVE[proc.pid] = proc
    return proc


def why_not_started(program: str, exc: OSError) -> str:
    """The OSError of an exec, with what it means: a folder gives "Permission denied";
    a script that exists gives "No such file or directory" when the interpreter its #!
    line names does not, and "Exec format error" when it has no #! line at all."""
    why = exc.strerror or str(exc)
    if exc.errno == errno.EACCES and os.path.isdir(program):
        return f"{why}: it is a directory"
    if exc.errno not in (errno.ENOENT, errno.ENOEXEC) or not os.path.isfile(program):
        return why
    try:
        with open(program, "rb") as script:
            first = script.readline(256)
    except OSError:
        return why
    if first.startswith(b"#!"):
        line = first[2:].rstrip(b"\n").strip(b" \t")
        interpreter = line.split(b" ")[0].decode(errors="replace")
        if exc.errno == errno.ENOENT and interpreter.endswith("\r"):
            # the kernel looks for '/bin/sh\r', which "/bin/sh" hides
            return (
                f"{why}: its #! line ends in a carriage return, so the interpreter looked for is "
                f"{interpreter!r}: the file has Windows (CRLF) line endings; convert it to LF (dos2unix)"
            )
        if exc.errno == errno.ENOENT:
            return f"{why}: the interpreter its #! line names, {interpreter.strip()!r}, does not exist"
        return why
    if exc.errno == errno.ENOEXEC:
        return f"{why}: neither a program this system runs nor a script with a #! line"
    return why


def communicate_bounded(proc: subprocess.Popen, timeout: float | None, what: str) -> tuple[bytes, bytes]:
    """Like ``proc.communicate(timeout=...)`` for a child whose stdin is not a pipe, but
    bounded: stdout up to MAX_ANSWER bytes in lines of at most MAX_LINE (else OutputLimit),
    of stderr only the last STDERR_TAIL bytes. Raises subprocess.TimeoutExpired past
    ``timeout`` seconds; the caller kills the group either way.

    The answer is complete when the child exits (waitpid), not when its pipes close: a
    helper it left running may hold them open for ever. What the child wrote before it
    exited is still read (it waits in the pipe)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    out = bytearray()
    err = bytearray()
    partial = 0  # the length of stdout's unfinished last line
    exited = _exit_watch(proc)
    with selectors.DefaultSelector() as sel:
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                os.set_blocking(stream.fileno(), False)
                sel.register(stream, selectors.EVENT_READ)
        if exited is not None:
            sel.register(exited, selectors.EVENT_READ)
        try:
            done = False  # the child exited: read what is left in the pipes, then stop
            while len(sel.get_map()) > (0 if exited is None or done else 1):
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise subprocess.TimeoutExpired(proc.args, timeout)
                if done:
                    ready = [(key, 0) for key in list(sel.get_map().values())]
                else:
                    wait = remaining if exited is not None else _poll_step(remaining)
                    ready = sel.select(wait)
                    if exited is None and proc.poll() is not None:
                        done = True
                got = False
                for key, _ in ready:
                    if key.fileobj is exited:
                        sel.unregister(exited)
                        done = True
                        continue
                    try:
                        chunk = os.read(key.fd, 65536)
                    except BlockingIOError:
                        if done:
                            sel.unregister(key.fileobj)  # empty, but held open by a helper
                        continue
                    got = True
                    if not chunk:
                        sel.unregister(key.fileobj)
                    elif key.fileobj is proc.stdout:
                        first = chunk.find(b"\n")
                        if (first if first >= 0 else len(chunk)) + partial > MAX_LINE:
                            raise too_long_line()
                        last = chunk.rfind(b"\n")
                        partial = partial + len(chunk) if last < 0 else len(chunk) - last - 1
                        out += chunk
                        if len(out) > MAX_ANSWER:
                            raise too_much_output(what)
                    else:
                        err += chunk
                        del err[:-STDERR_TAIL]
                if done and not got and exited is None:
                    break
        finally:
            if exited is not None:
                os.close(exited)
    remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
    proc.wait(timeout=remaining)
    return bytes(out), bytes(err)


def _exit_watch(proc: subprocess.Popen) -> int | None:
    """A descriptor that becomes readable when ``proc`` exits (Linux's pidfd), or None."""
    if not hasattr(os, "pidfd_open"):
        return None
    try:
        return os.pidfd_open(proc.pid)
    except OSError:
        return None


def _poll_step(remaining: float | None) -> float:
    """Without a pidfd the exit is polled for: wait at most this long at a time."""
    return 0.05 if remaining is None else min(0.05, remaining)


def pipe_holders(streams) -> list[int]:
    """The pids of other processes that hold one of these pipes open (found through
    /proc; empty where there is none): a helper an engine left running outside its
    process group, which chesskit cannot reap."""
    names = set()
    for stream in streams:
        try:
            info = os.fstat(stream.fileno())
        except (OSError, ValueError, AttributeError):
            continue
        if stat.S_ISFIFO(info.st_mode):
            names.add(f"pipe:[{info.st_ino}]")
    found: list[int] = []
    if not names:
        return found
    try:
        pids = [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return found
    me = os.getpid()
    for pid in sorted(pids):
        if pid == me:
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") in names:
                    found.append(pid)
                    break
            except OSError:
                continue
    return found


def report_survivors(name: str, streams) -> None:
    """One line on stderr about processes of engine ``name`` that outlived it and hold its
    output open: chesskit does not wait for them (nor kill them: they left its group)."""
    pids = pipe_holders(streams)
    if pids:
        who = ("process " if len(pids) == 1 else "processes ") + ", ".join(str(pid) for pid in pids[:8])
        if len(pids) > 8:
            who += f" and {len(pids) - 8} more"
    else:
        who = "a process"
    sys.stderr.write(
        f"chesskit: warning: engine {name!r} left {who} running outside its process group, "
        "holding its output open; chesskit did not wait for it\n"
    )
    sys.stderr.flush()


def output_held(streams, settle: float = 0.5) -> bool:
    """Whether one of these non-blocking pipes stays open at the far end: no end of file
    within ``settle`` seconds (processes just killed need a moment to let go of them)."""
    until = time.monotonic() + settle
    waiting = [stream for stream in streams if stream is not None]
    while waiting:
        still = []
        for stream in waiting:
            try:
                while os.read(stream.fileno(), 65536):
                    pass
            except BlockingIOError:
                still.append(stream)
            except (OSError, ValueError):
                pass
        waiting = still
        left = until - time.monotonic()
        if not waiting or left <= 0:
            break
        try:
            select.select(waiting, [], [], min(left, 0.05))
        except (OSError, ValueError):
            break
    return bool(waiting)


def drain(proc: subprocess.Popen) -> None:
    """Close the pipes of a killed process and reap it (what is left in them is dropped)."""
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:  # pragma: no cover - unkillable
        pass


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
