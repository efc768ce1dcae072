"""A UCI engine that understands `go perft` (Stockfish and most modern engines).

One process serves the whole run.  It is started on the first `divide`:

    > uci                      < id name ... / option name ... / uciok
    > setoption name N value V (for each --engine-option)
    > setoption name UCI_Variant value V (with --variant; UCI_Chess960 too for a 960 form)
    > isready                  < readyok
    > ucinewgame
    > setoption name UCI_Chess960 value true|false   (only when that changes)
    > position fen F moves M1 M2 ...
    > isready                  < readyok
    > go perft D               < e2e4: 600 ... <blank> Nodes searched: 8902

Stockfish prints its divide as ``move: count`` lines, then ``Nodes searched: N``;
`info` lines and blank lines are skipped, anything else is an error that quotes
the line.  Output is read by a thread into a queue, so every wait has a deadline
(`timeout` seconds per command) and a hung engine cannot hang chesskit.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import subprocess
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass

from chesskit.compare.engines.base import (
    CANNOT_PLAY_960,
    COUNT,
    Engine,
    add_divide_entry,
    check_depth,
    one_line,
    parse_divide_line,
    seconds_text,
    sent_fen,
)
from chesskit.compare.engines.proc import (
    MAX_ANSWER,
    OutputLimit,
    describe_exit,
    kill_group,
    read_lines,
    report_survivors,
    resolve_program,
    spawn,
    too_much_output,
)
from chesskit.errors import EngineError, EngineOptionError, InputError

_NODES = re.compile(r"Nodes searched\s*:\s*(" + COUNT + ")")

# Lines read ahead of chesskit and not yet taken: past this the reader thread waits, and
# so does the engine (its pipe fills), so unread output cannot pile up in memory.
QUEUE_LINES = 4096
# How long past an answer's deadline the lines already read ahead are still taken (see
# ``UciEngine._next_line``)
LATE_GRACE_S = 0.5
# How often a wait for the engine's next line checks that its process still runs (see
# ``UciEngine._next_line``)
EXIT_POLL_S = 0.2


@dataclass
class UciOption:
    name: str
    type: str
    choices: tuple[str, ...] = ()  # a combo's `var` values
    low: int | None = None  # a spin's `min` and `max`
    high: int | None = None

    def refuses(self, value: str) -> str | None:
        """Why ``value`` is no value of this option as the engine declared it (a spin takes
        an integer within min..max, a check true or false, a combo one of its vars); None
        when it is one. A bad value is caught here: Stockfish aborts on `Threads=abc`."""
        text = str(value).strip()
        if self.type == "spin":
            bounds = f" from {self.low} to {self.high}" if self.low is not None and self.high is not None else ""
            try:
                number = int(text)
            except ValueError:
                return f"takes an integer{bounds}"
            if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
                return f"takes an integer{bounds}"
        elif self.type == "check" and text.lower() not in ("true", "false"):
            return "takes true or false"
        elif self.type == "combo" and self.choices and text.lower() not in (c.lower() for c in self.choices):
            return f"takes one of {', '.join(self.choices)}"
        return None


# a word that only a shell reads: a pipe, a redirection, a list or background operator
_SHELL_WORD = re.compile(r"\|\|?|&&?|;|[0-9]*(>>?|<<?<?)\S*")


class UciEngine(Engine):
    """An external UCI engine driven through `go perft`."""

    def __init__(self, cmd: str | list[str], options: dict[str, str] | None = None, timeout: float | None = 30.0):
        try:
            self.argv = shlex.split(cmd) if isinstance(cmd, str) else [str(part) for part in cmd]
        except ValueError as err:  # an unbalanced quote
            raise InputError(f"bad --engine command {cmd!r}: {str(err).lower()}") from None
        if not self.argv:
            raise InputError("--engine is empty: give the engine's command")
        if isinstance(cmd, str) and (shell := next((w for w in self.argv[1:] if _SHELL_WORD.fullmatch(w)), None)):
            # ``stockfish | cat`` ran stockfish with the arguments '|' and 'cat': it exited at
            # once, and the error named the last command written to it (QA 40b #6)
            raise InputError(
                f"bad --engine command {cmd!r}: no shell runs the command, so {shell!r} would reach the engine as an "
                "argument; put the pipeline or redirection in a script and give its path (or sh -c '...')"
            )
        self.name = cmd if isinstance(cmd, str) else shlex.join(self.argv)
        self.options = dict(options or {})
        self.timeout = timeout
        self.id_name: str | None = None
        self.uci_options: dict[str, UciOption] = {}  # lower-cased name -> option
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue(QUEUE_LINES)
        self._answer_chars = 0  # read since the last command: at most MAX_ANSWER
        self._stdout_tail: deque[str] = deque(maxlen=10)
        self._stderr_tail: deque[str] = deque(maxlen=10)
        self._lines_read = 0  # lines of stdout taken since the process started
        self._read_at_command = 0  # _lines_read when the last command was sent
        self._threads: list[threading.Thread] = []
        self._finalizer: weakref.finalize | None = None
        self._chess960 = False
        self._last_command = "(start)"
        self._handshaken = False  # the running process has finished its handshake

    # -- the Engine interface -------------------------------------------------

    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        check_depth(depth)
        self._ensure_started()
        if chess960 != self._chess960:
            self._set_chess960(chess960)
        self._send(f"position fen {sent_fen(fen, self.variant, chess960)}" + (f" moves {' '.join(moves)}" if moves else ""))
        self._sync()
        go = f"go perft {depth}"
        self._send(go)
        return self._read_divide(go)

    def start(self) -> None:
        self._ensure_started()

    def close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            proc.stdin.close()
            proc.wait(timeout=1)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        self._kill()

    # -- process and pipes ----------------------------------------------------

    def _ensure_started(self) -> None:
        if self._proc is not None:
            return
        program = resolve_program(self.argv[0], self.name)
        proc = spawn(
            [program, *self.argv[1:]],
            self.name,
            stdin=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        self._proc = proc
        self._lines = queue.Queue(QUEUE_LINES)
        self._stdout_tail.clear()
        self._stderr_tail.clear()
        self._lines_read = 0
        self._read_at_command = 0
        self._handshaken = False
        self._finalizer = weakref.finalize(self, kill_group, proc)
        self._threads = [
            threading.Thread(target=_pump, args=(proc.stdout, self._lines.put), daemon=True),
            threading.Thread(target=_pump, args=(proc.stderr, self._stderr_tail.append, False), daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        try:
            self._handshake()
        except BaseException:
            self._kill()
            raise
        self._handshaken = True

    def _handshake(self) -> None:
        self._send("uci")
        deadline = self._deadline()
        while True:
            text = self._readline(deadline).strip()
            if text == "uciok":
                break
            if text.startswith("id name "):
                self.id_name = text[len("id name ") :].strip()
            elif text.startswith("option name "):
                option = _parse_option(text)
                if option is not None:
                    self.uci_options[option.name.lower()] = option
            # anything else before uciok (banners, copyright lines) is ignored
        for name, value in self.options.items():
            self._setoption(name, value)
        if self.variant != "chess":
            self._set_variant()
        self._sync()
        self._send("ucinewgame")

    def _set_variant(self) -> None:
        """``setoption name UCI_Variant value NAME``, when the engine offers that variant
        (its UCI_Variant combo lists it); an EngineError (exit 3) when it does not."""
        from chesskit.variants import get

        wanted = get(self.variant).fairy
        option = self.uci_options.get("uci_variant")
        if option is None:
            raise self.error(f"cannot play {self.variant} (it offers no UCI_Variant option)")
        if option.choices and wanted not in option.choices:
            offered = ", ".join(option.choices)
            raise self.error(f"does not offer the variant {wanted!r} (its UCI_Variant offers: {offered})")
        self._send(f"setoption name {option.name} value {wanted}")

    def _setoption(self, name: str, value: str) -> None:
        option = self.uci_options.get(name.lower())
        if option is None:
            offered = ", ".join(sorted(opt.name for opt in self.uci_options.values())) or "none"
            raise EngineOptionError(f"engine {self.name!r} has no option {name!r} (it offers: {offered})")
        refused = option.refuses(value) if option.type != "button" else None
        if refused is not None:
            raise EngineOptionError(
                f"engine {self.name!r} option {option.name!r} ({option.type}) {refused}, not {str(value)!r}"
            )
        if option.type == "button":
            self._send(f"setoption name {option.name}")
        else:
            self._send(f"setoption name {option.name} value {value}")
        if option.name.lower() == "uci_chess960":
            self._chess960 = str(value).strip().lower() == "true"

    def _set_chess960(self, chess960: bool) -> None:
        if "uci_chess960" not in self.uci_options:
            if chess960:
                raise self.error(f"{CANNOT_PLAY_960} (it does not offer the UCI_Chess960 option)")
        else:
            self._send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
            self._send("ucinewgame")
        self._chess960 = chess960

    def _sync(self) -> None:
        """`isready` / `readyok`; whatever the engine says meanwhile is skipped."""
        self._send("isready")
        deadline = self._deadline()
        while self._readline(deadline).strip() != "readyok":
            pass

    def _read_divide(self, go: str) -> dict[str, int]:
        deadline = self._deadline()
        result: dict[str, int] = {}
        while True:
            line = self._readline(deadline)
            text = line.strip()
            if not text or text.split()[0] == "info":
                continue
            nodes = _NODES.fullmatch(text)
            if nodes is not None:
                total = int(nodes.group(1))
                break
            entry = parse_divide_line(text)
            if entry is None:
                self._kill()
                raise self.error(f"printed a line chesskit cannot parse after {go!r}: {one_line(line)!r}")
            add_divide_entry(result, *entry)
        if sum(result.values()) != total:
            raise self.error(
                f"answered {go!r} with divide lines summing to {sum(result.values())} "
                f"but 'Nodes searched: {total}'"
            )
        return result

    def _deadline(self) -> float | None:
        return None if self.timeout is None else time.monotonic() + self.timeout

    def _send(self, command: str, answering: str | None = None) -> None:
        """Write ``command``; ``answering``: the command the engine's answer (or its exit)
        is blamed on, when ``command`` only asks it to say that it has read that one (an
        engine that crashed on ``go perft 1`` closes its input before ``isready`` reaches
        it, and the crash is ``go perft 1``'s)."""
        self._last_command = command if answering is None else answering
        if answering is None:
            self._read_at_command = self._lines_read
        self._answer_chars = 0
        try:
            self._proc.stdin.write(command + "\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):
            raise self._exited() from None

    def _next_line(self, deadline: float | None):
        """The next item of the line queue, waiting until ``deadline``; queue.Empty when it
        passes. Lines already queued are taken past it only for ``LATE_GRACE_S`` (chesskit
        a little behind an answer that came in time): an engine that never stops printing
        keeps the queue full, and was read until the answer's size limit, minutes past it."""
        if deadline is not None and time.monotonic() > deadline + LATE_GRACE_S:
            raise queue.Empty
        exited_at = None
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                return self._lines.get(timeout=EXIT_POLL_S if left is None else min(EXIT_POLL_S, left))
            except queue.Empty:
                if self._proc is not None and self._proc.poll() is not None:
                    # it exited, and no end of its output came: a process it started holds the
                    # pipe (it waited out --timeout and was told as a hang); its end, after a
                    # grace for the lines still on their way
                    exited_at = exited_at or time.monotonic()
                    if time.monotonic() - exited_at >= EXIT_POLL_S:
                        return None
                if left is not None and time.monotonic() >= deadline:
                    raise

    def _readline(self, deadline: float | None) -> str:
        try:
            line = self._next_line(deadline)
        except queue.Empty:
            self._kill()
            raise self.error(f"did not answer {self._last_command!r} within {seconds_text(self.timeout)} s") from None
        return self._taken(line)

    def _taken(self, line) -> str:
        """An item taken from the line queue, checked: the end of the output (None), a line
        past MAX_LINE, or an answer past MAX_ANSWER is an EngineError; else the line."""
        if line is None:
            raise self._exited()
        if isinstance(line, OutputLimit):
            self._kill()
            raise self.error(f"{line} after {self._last_command!r}")
        self._answer_chars += len(line) + 1
        if self._answer_chars > MAX_ANSWER:
            self._kill()
            raise self.error(str(too_much_output(repr(self._last_command))))
        self._stdout_tail.append(line)
        self._lines_read += 1
        return line

    def stderr_lines(self) -> list[str]:
        """The last lines the engine printed on stderr (at most ten)."""
        return list(self._stderr_tail)

    def printed_anything(self) -> bool:
        """Whether the running process has printed a line on stdout (or on stderr)."""
        return self._lines_read > 0 or any(line.strip() for line in self._stderr_tail)

    def _exited(self) -> EngineError:
        """The error for an engine whose output ended (it exited or crashed)."""
        proc = self._proc
        try:
            what = describe_exit(proc.wait(timeout=1))
        except subprocess.TimeoutExpired:
            what = "closed its output"
        self._take_unread()
        self._kill()
        err = self.error(f"{what} after {self._last_command!r}; {self._last_output()}{self._script_hint()}")
        # it had answered its protocol's handshake (``uciok``, xboard's features): it started,
        # and then it crashed (``--bisect`` judges such a commit: run_options.starting)
        err.crashed_after_handshake = self._handshaken and self.protocol() is not None
        return err

    def _script_hint(self) -> str:
        """Where a script exited before any handshake: it may be a perftree script, which
        takes its question as arguments and reads no stdin (its usage error said only
        ``IndexError``)."""
        scripts = (".py", ".sh", ".js", ".rb", ".pl")
        if self._handshaken or not any(part.endswith(scripts) and os.path.isfile(part) for part in self.argv[:2]):
            return ""
        said = " ".join([*self._stderr_tail, *self._stdout_tail]).lower()
        if not any(word in said for word in ("indexerror", "usage:", "arguments are required")):
            return ""  # it failed for a reason of its own (a missing file, a module)
        return " (if it is a perftree script, its depth, FEN and moves as arguments, give it with --script)"

    def protocol(self) -> str | None:
        """The protocol whose handshake the engine answered: "UCI" here (``uciok``); None
        where it answered none (``console.py``: a console's loop)."""
        return "UCI"

    def _take_unread(self) -> None:
        """Take what the engine printed and chesskit had not read when its output ended: an
        engine that says why it fails and exits before its first command reaches it (a
        missing network file; Stockfish running its arguments as commands) is found by the
        write failing, its lines still queued. They count as read since that command, so
        its last one is quoted; the readers get a moment to reach the end of the output."""
        until = time.monotonic() + 0.5
        for thread in self._threads:
            thread.join(timeout=max(0.0, until - time.monotonic()))
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if isinstance(line, str):
                self._stdout_tail.append(line)
                self._lines_read += 1

    def _last_output(self) -> str:
        """The engine's last line on stderr, else on stdout since the command it failed on:
        not the ``readyok`` of the question before (``killed by signal SIGABRT after 'go
        perft 2'; last output: 'readyok'`` read as if it had answered that much). In the
        handshake, whatever it printed: its start-up lines say why it stops (Stockfish
        given an argument runs it as a command, says ``Unknown command``, and exits before
        the xboard handshake that follows a missing ``uciok``)."""
        since = self._lines_read - self._read_at_command if self._handshaken else len(self._stdout_tail)
        for tail in (self._stderr_tail, list(self._stdout_tail)[-since:] if since else []):
            lines = [line for line in tail if line.strip()]
            if lines:
                return f"last output: {one_line(lines[-1])!r}"
        return "it printed nothing"

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        kill_group(proc)
        until = time.monotonic() + 1
        for thread in self._threads:
            while thread.is_alive() and time.monotonic() < until:  # a reader waiting for room: make some
                try:
                    while True:
                        self._lines.get_nowait()
                except queue.Empty:
                    pass
                thread.join(timeout=0.05)
        # A reader still running waits on a pipe that a process outside the group holds
        # open: closing that pipe would wait for the reader (its lock) for ever, so it is
        # left to the reader, and the survivor is reported.
        held = [stream for stream, thread in zip((proc.stdout, proc.stderr), self._threads) if thread.is_alive()]
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if any(stream is other for other in held):
                continue
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        if held:
            report_survivors(self.name, held)
        if self._finalizer is not None:
            self._finalizer.detach()
        self._chess960 = False


def _pump(stream, put, mark_end: bool = True) -> None:
    """Copy `stream` line by line into `put`, each line capped (``proc.read_lines``); then
    None marks the end (if `mark_end`). A line past the cap is put as its OutputLimit
    (stdout) or cut short (stderr, only shown), and on stdout ends the reading."""
    try:
        for line in read_lines(stream, truncate=not mark_end):
            put(line)
    except OutputLimit as limit:
        put(limit)
    except (OSError, ValueError):
        pass
    finally:
        if mark_end:
            put(None)


def _parse_option(text: str) -> UciOption | None:
    """`option name Skill Level type spin default 20 ...` -> UciOption('Skill Level', 'spin')."""
    tokens = text.split()
    if "type" not in tokens[2:]:
        return None
    at = tokens.index("type", 2)
    name = " ".join(tokens[2:at])
    kind = tokens[at + 1] if at + 1 < len(tokens) else ""
    choices = tuple(tokens[i + 1] for i in range(at, len(tokens) - 1) if tokens[i] == "var")
    bounds = {tokens[i]: tokens[i + 1] for i in range(at, len(tokens) - 1) if tokens[i] in ("min", "max")}
    low, high = (_integer(bounds.get(key)) for key in ("min", "max"))
    return UciOption(name, kind, choices, low, high) if name else None


def _integer(text: str | None) -> int | None:
    try:
        return None if text is None else int(text)
    except ValueError:
        return None
