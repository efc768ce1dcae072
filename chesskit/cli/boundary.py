"""The CLI's single error boundary: whatever ends a run becomes one ``chesskit: ...``
line on stderr and an exit code (0 ok, 1 mismatch, 2 bad input, 3 engine failure, 4 out
of memory, 70 a bug, 128 + the signal when interrupted, 141 when stdout was closed)."""

from __future__ import annotations

import errno
import os
import re
import signal
import sys

import click

from chesskit.cli import signals
from chesskit.cli.output import PROG
from chesskit.errors import ChesskitError, InputError

INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug in chesskit, never a user's mistake
OUT_OF_MEMORY = 4  # the machine (or `ulimit -v`) ran out of memory during the run

# A write failed because of where the output goes, not because of chesskit: a full disk
# (`> /dev/full`), a quota, a file too large, a read-only or failing device.
_UNWRITABLE = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO}

_NUMBER_AS_OPTION = re.compile(r"-\d+")


class OutputClosed(ChesskitError):
    """The reader of stdout went away (``chesskit suite | head -1``): stop quietly.

    Not a mismatch and not an error worth a line: exit 141, what the shell reports
    for a writer killed by SIGPIPE (128 + 13), and print nothing.
    """

    exit_code = 128 + 13

    def __init__(self):
        super().__init__("")


def _is_broken_pipe(err: BaseException) -> bool:
    return isinstance(err, BrokenPipeError) or (isinstance(err, OSError) and err.errno == errno.EPIPE)


def error_line(err: BaseException) -> tuple[str, int]:
    """The one stderr line and the exit code for an exception that ends the CLI."""
    signum = signals.stopped_by()
    if signum is not None:
        code = 128 + int(signum)
        if isinstance(err, ChesskitError) and err.exit_code in (signals.Interrupted.exit_code, code):
            # its own words (a cluster run says how to resume), naming the signal
            text = str(err)
            if signum != signal.SIGINT and text.startswith("interrupted"):
                text = signals.interrupt_message(signum) + text[len("interrupted") :]
            return text, code
        return str(signals.Interrupted(signum, signals.notes_of(err))), code
    if isinstance(err, ChesskitError):
        return str(err), err.exit_code
    if _is_broken_pipe(err):
        return "", OutputClosed.exit_code
    if _out_of_memory(err):
        return (
            f"out of memory{_memory_limit()}: {_what(err)} (a smaller --hash or DEPTH needs less)",
            OUT_OF_MEMORY,
        )
    if isinstance(err, OSError) and err.errno in _UNWRITABLE:
        return f"cannot write the output: {err.strerror or err}", InputError.exit_code
    if isinstance(err, click.exceptions.NoSuchOption) and _NUMBER_AS_OPTION.fullmatch(
        err.option_name
    ):
        # `chesskit perft startpos -1`: click sees an option; the user meant a depth, and
        # is told the command's rule for it (divide's DEPTH is at least 1)
        from chesskit.cli.options import parse_depth

        rule = getattr(err.ctx.command, "depth_rule", {}) if err.ctx is not None else {}
        try:
            parse_depth(err.option_name, **rule)
        except InputError as bad:
            return str(bad), bad.exit_code
        return f"bad depth {err.option_name!r}", InputError.exit_code
    if isinstance(err, click.ClickException):
        message = err.format_message()
        # click's IntRange calls a non-number "not a valid integer range"
        message = message.replace("is not a valid integer range", "is not an integer")
        if isinstance(err, click.UsageError):
            if "unexpected extra argument" in message and _looks_like_split_fen(err.ctx):
                message += " (a FEN has spaces: quote it)"
            if isinstance(err, click.exceptions.NoSuchOption) and (command := _engine_before(err)):
                # `--engine ./eng --mode total`: click offered '--moves' (QA 40b #9)
                message = (
                    f"No such option {err.option_name!r}: the engine's own arguments go in one quoted word "
                    f"with its command ({command[0]} '{command[1]} {err.option_name} ...')"
                )
            if err.ctx is not None:
                message = message.rstrip(".") + f" (see '{err.ctx.command_path} --help')"
        return message, err.exit_code
    if isinstance(err, (KeyboardInterrupt, click.Abort)):
        stopped = signals.Interrupted(signal.SIGINT, signals.notes_of(err))
        return str(stopped), stopped.exit_code
    if _memory_limit() and isinstance(err, (OSError, SystemError, ImportError)):
        # under `ulimit -v`, an allocation that fails inside a library (numba's loader,
        # numpy) surfaces as OSError, SystemError or a failed import rather than
        # MemoryError; any other error stays what it is, a bug (exit 70)
        return (
            f"failed under the memory limit{_memory_limit()}, probably out of memory: {_what(err)}",
            OUT_OF_MEMORY,
        )
    return (
        f"internal error: {_what(err)} (this is a bug; set CHESSKIT_DEBUG=1 for the traceback)",
        INTERNAL_ERROR,
    )


# The longest error line shown whole: a legal-move list or an engine's options fit; a 100 KB
# POSITION echoed back does not.
MAX_ERROR_LINE = 4000


def _within(message: str) -> str:
    """``message``, or its start and end with what was left out between them counted."""
    if len(message) <= MAX_ERROR_LINE:
        return message
    keep = MAX_ERROR_LINE // 2
    cut = len(message) - 2 * keep
    return f"{message[:keep]} ... ({cut} characters left out) ... {message[-keep:]}"


# the options that take an engine's command, whose own arguments must be quoted with it
_ENGINE_FLAGS = ("--engine", "--script", "--engine-cmd", "--python")


def _engine_before(err) -> tuple[str, str] | None:
    """``(flag, command)`` where the unknown option came right after an engine's command
    (``--engine ./eng --mode``), else None."""
    args = err.ctx.meta.get("chesskit.args", []) if err.ctx is not None else []
    for i in range(2, len(args)):
        if args[i] == err.option_name and args[i - 2] in _ENGINE_FLAGS:
            return args[i - 2], args[i - 1]
    return None


def _looks_like_split_fen(ctx: click.Context | None) -> bool:
    """True when the POSITION given looks like the first field of an unquoted FEN."""
    if ctx is None:
        return True
    position = ctx.params.get("position")
    return position is None or "/" in str(position)


def _what(err: BaseException) -> str:
    """``Type: message`` on one line, even when ``str(err)`` raises."""
    try:
        text = str(err)
    except Exception:  # noqa: BLE001 - a message is not worth a second error
        text = ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _out_of_memory(err: BaseException) -> bool:
    return isinstance(err, MemoryError) or (isinstance(err, OSError) and err.errno == errno.ENOMEM)


def _memory_limit() -> str:
    """`` (ulimit -v 512 MiB)`` when the process runs under an address-space limit, else ''."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError, AttributeError):
        return ""
    if soft == resource.RLIM_INFINITY:
        return ""
    return f" (ulimit -v {soft // (1024 * 1024)} MiB)"


def fail(err: BaseException) -> None:
    """Print ``chesskit: <message>`` on stderr as one line and exit with the error's code.

    A closed stdout prints nothing (and stdout is pointed at /dev/null so the
    interpreter's last flush cannot complain either)."""
    message, code = error_line(err)
    message = _within(" ".join(message.split()))  # one line, whatever the message held
    if os.environ.get("CHESSKIT_DEBUG") and code == INTERNAL_ERROR:
        raise err
    if code == OutputClosed.exit_code:
        silence_stdout()
        end(code)
    try:
        click.echo(f"{PROG}: {message}", err=True)
    except OSError:  # stderr is gone too: the exit code is all that is left
        pass
    end(code)


def end(code: int) -> None:
    """Exit with ``code``: ``sys.exit``, unless a compiled walk is still running on a
    thread (a threaded perft that was interrupted): the interpreter would wait for it
    before exiting, for minutes, so the output is flushed and the process ends at once."""
    threads = sys.modules.get("chesskit.board.threads")
    if threads is None or not threads.walks_left_running():
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


def silence_stdout() -> None:
    """Point stdout at /dev/null (after its reader went away), dropping what is buffered."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (click's test runner): nothing will flush to a pipe
