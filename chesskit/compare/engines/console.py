"""An engine asked for perft in its own dialect: in the UCI loop or in a console.

Built on `UciEngine`'s process handling (one process for the run, a reader thread,
a deadline on every answer, the whole process group killed on failure).  The
dialect (see `dialects`) is given, or detected on the first start (see `detect`):

    UCI loop   > position fen F moves M...   > isready  < readyok
               > perft D  (or divide D, go perft D)      > isready
               < the answer ... and readyok (before or after it: Fairy-Stockfish
                 answers isready while its perft thread still counts)
    console    > position fen F moves M...   > perft D   < the answer, ending with its total
    xboard     > setboard F, the moves, ping N < pong N
               > perft D   > ping N+1          < the answer ... pong N+1  (see `xboard`)

An answer ends at its total line once `readyok` was seen (UCI loop), at readyok
after divide lines when the engine prints no total, and at the total in a console.
"""

from __future__ import annotations

import queue
import re
import time

from chesskit.compare.engines.base import CANNOT_PLAY_960, castles_in_960, check_depth, node_board, one_line, position_label, seconds_text, sent_fen, total_only_divide  # noqa: F401 (node_board re-exported)
from chesskit.compare.engines.dialects import Answer, AnswerReader, Dialect, bad_count
from chesskit.compare.engines import detect, xboard
from chesskit.compare.engines.uci import UciEngine
from chesskit.errors import EngineOptionError, InputError

# How long to wait for `uciok` before taking the engine for a console (capped by --timeout).
UCIOK_WAIT = 10.0
# How long an answer is waited for after the engine went quiet (past its readyok): more of
# an answer that may be whole (a total, a divide with no total line) may still come.
ANSWER_GRACE = 2.0
# The same for a probe, a depth-1 question on the start position: its answer comes in one
# burst, in milliseconds (2 s, twice, was most of Ethereal's and Sjaak II's start-up).
PROBE_GRACE = 0.5
# How long a probe's search may go on after `stop` before the engine is started afresh for
# the next probe (Sjaak II ignores it: its `go perft 1` searched for 2.6 s of its 3.6 s start)
STOP_WAIT = 0.5
# What a UCI engine prints after `uci`: seen while it is taken for a console, its late handshake.
_UCI_HANDSHAKE = re.compile(r"^(uciok|option name .*|id (name|author) .*)$")
# A reply to `uci` that says the engine does not know it.
_REFUSED = re.compile(r"unknown|invalid|unrecogni[sz]ed|not recogni[sz]ed|illegal|not supported", re.IGNORECASE)


class _NoUciok(Exception):
    """The engine did not say `uciok` in time: it is a console."""


class PerftEngine(UciEngine):
    """Any engine with a perft command in a UCI loop or a console (see the module doc)."""

    def __init__(self, cmd, options=None, timeout: float | None = 30.0, dialect: Dialect | None = None):
        super().__init__(cmd, options, timeout)
        self.dialect = dialect  # None until detected
        self.detected = False  # True once the dialect came from detection
        self.detect_seconds = 0.0  # how long detecting it took (the CLI's dialect note says so when long)
        self.expect_total = dialect is None or dialect.total_only or dialect.command == "go-perft"
        self._console = dialect is not None and dialect.loop == "console"
        self._xboard: xboard.Features | None = None  # the features of an engine driven in xboard mode
        self._refused = False  # the console refused a command that set the position
        self._ping = 0
        self._waiting_uciok = False
        self._named_uci = False  # in the handshake of a named UCI dialect
        self._no_uciok = False  # it did not say `uciok` in the wait
        self.late_uci = False  # and printed UCI's handshake later: a UCI engine slow to start
        self._position_checked = False  # once for the engine, not again when it is restarted
        # a detection probe got an answer (Ethereal: a search for `go perft 1`, `20` for
        # `perft 1`), or the engine said `readyok` after one and printed nothing else, not
        # even a refusal (a UCI engine with no perft yet ignores what it does not know, as
        # UCI asks): it is awake, and a later probe's silence after its readyok is no
        # answer (Ethereal's `divide 1` waited 30 s at every start; such an engine, the
        # whole --timeout for each of its three probes). An engine that counts before its
        # readyok (a bare `perft` in the UCI thread) still has the whole --timeout, since
        # readyok waits for it; so has one that refuses what it does not know (`Unknown
        # command`) and counts in a thread: its silence is not ignorance
        self._probe_answered = False
        # the total-only UCI dialect of an engine found to divide in xboard, whose UCI loop
        # offers UCI_Chess960 (Sjaak II): spoken from the first Chess960 position on
        self.chess960_dialect: Dialect | None = None
        self.switched_for_960: Dialect | None = None  # that dialect, once it is spoken
        if dialect is not None and dialect.loop != "uci" and self.options:
            raise InputError(f"--engine-option needs a UCI engine; a {dialect.loop} dialect has no options")

    # -- the Engine interface -------------------------------------------------

    @property
    def total_only(self) -> bool:
        return self.dialect_info().total_only

    def dialect_info(self) -> Dialect:
        self._ensure_started()
        return self.dialect

    def ready_for(self, fen: str, chess960: bool = False) -> None:
        if castles_in_960(fen, chess960, self.variant):
            self._speak_960()

    def _speak_960(self) -> None:
        """From the first Chess960 question on, the engine's UCI loop (totals): xboard has no
        Chess960 that chesskit sets (Sjaak II; ``chess960_dialect``). Starts the engine."""
        self._ensure_started()
        if self._xboard is not None and self.chess960_dialect is not None:
            self.switched_for_960, self.chess960_dialect = self.chess960_dialect, None
            self.restart(self.switched_for_960)
            self.expect_total = True

    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        check_depth(depth)
        if chess960:  # (asked in Chess960: ``base.asked_as``) its totals, not its xboard divide
            self._speak_960()
        if self.dialect_info().total_only:
            return self._divide_by_totals(fen, depth, moves, chess960)
        answer = self.query(fen, depth, moves, chess960)
        return answer.moves

    def perft(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> int:
        check_depth(depth)
        answer = self.query(fen, depth, moves, chess960)
        return answer.total if answer.total is not None else sum(answer.moves.values())

    def _divide_by_totals(self, fen, depth, moves, chess960) -> dict[str, int]:
        """A divide from a total-only engine: its count below each of chesskit's legal moves."""
        if depth < 2:
            raise total_only_divide(self, depth)
        board = node_board(fen, moves, chess960, self.variant)
        return {m: self.perft(fen, depth - 1, [*moves, m], chess960) for m in board.legal_moves()}

    # -- start and detection --------------------------------------------------

    def _ensure_started(self) -> None:
        if self._proc is not None:
            return
        super()._ensure_started()
        try:
            if self.dialect is None:
                self.detect()
            elif not self._position_checked:  # a named dialect is checked as a detected one is
                detect.check_position(self, self.dialect, answered=False)
                self._position_checked = True
        except BaseException:
            self._kill()
            raise

    def _handshake(self) -> None:
        if self.variant != "chess" and self.dialect is not None and self.dialect.loop != "uci":
            raise self.error(f"cannot be told to play {self.variant} in a {self.dialect.loop} dialect (only UCI_Variant)")
        if self._console:
            return
        if self.dialect is not None and self.dialect.loop == "xboard":
            self._start_xboard(probing=False)
            if self._xboard is None:  # a named dialect that gets no answer fails at once
                raise self.error(
                    f"did not answer 'xboard' and 'protover 2' with feature lines within "
                    f"{self._feature_wait():g} s, as an xboard engine does{xboard.heard_nothing(self)}"
                )
            return
        if self.dialect is not None:
            self._named_uci = True  # a named UCI dialect the engine plainly refuses fails at once
            try:
                super()._handshake()
            finally:
                self._named_uci = False
            return
        self._full_timeout = self.timeout  # the wait for uciok is shorter; the rest has --timeout
        self.timeout = self.uciok_wait()[0]
        self._waiting_uciok = True
        try:
            super()._handshake()
        except _NoUciok:
            self._no_uciok = True
            if self.options:
                # the user's option, not the engine, is at fault: bad input (exit 2), as an
                # option a UCI engine does not offer (QA 40b #4: it was exit 3)
                said = self.error("never said 'uciok' (not a UCI engine: it offers no options), so --engine-option cannot be set")
                raise EngineOptionError(str(said)) from None
            if self.variant != "chess":
                raise self.error(f"never said 'uciok', so it cannot be told to play {self.variant} (UCI_Variant)") from None
            self._start_xboard(probing=False)
            self._console = self._xboard is None
        finally:
            self.timeout = self._full_timeout
            self._waiting_uciok = False

    def _readline(self, deadline: float | None) -> str:
        if self._named_uci:
            line = super()._readline(deadline)
            if _REFUSED.search(line) and not _UCI_HANDSHAKE.match(line.strip()) and not line.startswith("info"):
                # `Error (unknown command): uci`: no UCI engine
                raise self.error(f"does not speak UCI (dialect {self.dialect.name}): it answered 'uci' with {one_line(line)!r}")
            return line
        if not self._waiting_uciok:
            return super()._readline(deadline)
        line = self._poll(deadline)
        if line is not None and line.strip() == "uci":
            # `cat`: each probe after this waited its whole --timeout for an answer that
            # never comes, 72 s before it was refused (QA 40b #5)
            raise self.error("echoes what it is sent ('uci' came back as it was): it is not a chess engine (is the command right?)")
        if line is None or _REFUSED.search(line):  # silence, or `Unknown command: uci`
            raise _NoUciok()
        if line.strip() == "uciok":
            self._waiting_uciok = False
            self.timeout = self._full_timeout
        return line

    @property
    def is_console(self) -> bool:
        return self._console

    def protocol(self) -> str | None:
        """"xboard" where it answered xboard's features, "UCI" where it said ``uciok``, None
        for a console (it answered no handshake)."""
        return "xboard" if self._xboard is not None else None if self._console else "UCI"

    @property
    def loop(self) -> str:
        """Where the engine is asked now: "uci", "console" or "xboard"."""
        return "xboard" if self._xboard is not None else "console" if self._console else "uci"

    def _feature_wait(self) -> float:
        return xboard.FEATURE_WAIT if self.timeout is None else min(self.timeout, xboard.FEATURE_WAIT)

    def _start_xboard(self, probing: bool) -> bool:
        """Try the xboard handshake (see `xboard`); whether the engine answered it. An
        engine without the ping feature is then read like a console (no synchronisation)."""
        features = xboard.handshake(self, self._feature_wait(), probing)
        if features is None:
            return False
        self._xboard = features
        self._console = False
        if features.ping:  # what it says to the handshake (`Error (unknown command): isready`) ends here
            reply, deadline = self._request_ready("protover 2"), self._deadline()
            while self._readline(deadline).strip() != reply:
                pass
        self._drain()
        return True

    def _respawn(self) -> None:
        """A fresh process in place of one whose search went on after `stop` while its
        dialect was being found (its handshake, options and variant again)."""
        self._kill()
        self._chess960 = False
        UciEngine._ensure_started(self)

    def restart(self, dialect: Dialect) -> None:
        """Start the engine again, to speak `dialect` (in its UCI loop) from now on."""
        self._kill()
        self._xboard, self._console, self.dialect = None, dialect.loop == "console", dialect
        UciEngine._ensure_started(self)

    def offers_chess960(self) -> bool:
        """Whether the engine's UCI handshake offered UCI_Chess960."""
        return "uci_chess960" in self.uci_options

    def switch_to_xboard(self) -> bool:
        """Try xboard on an engine whose UCI loop has no divide (Sjaak II speaks both)."""
        return self._start_xboard(probing=True)

    def uciok_wait(self) -> tuple[float, bool]:
        """How long the handshake waits for `uciok` before taking the engine for a console,
        and whether that is the cap (UCIOK_WAIT: a longer --timeout would not wait longer)."""
        if self.timeout is None or self.timeout >= UCIOK_WAIT:
            return UCIOK_WAIT, True
        return self.timeout, False

    def detect(self) -> Dialect:
        """Find the dialect this (started) engine speaks by probing it (see ``detect``),
        check that it follows `position fen`, and keep it."""
        began = time.monotonic()
        chosen, totals = detect.choose(self)
        self.dialect, self.expect_total = chosen, totals
        self.detected = True
        detect.check_position(self, chosen, answered=True)
        self._position_checked = True
        self.detect_seconds = time.monotonic() - began
        return chosen

    def probe(self, verb: str) -> tuple[Answer, bool]:
        """Ask `verb` (a depth-1 question) on the start position, not insisting on an
        answer; returns (answer, whether a search started instead). A `go` that may
        have begun a search that prints nothing is stopped. Under --variant the engine is
        already in the variant: the standard start position is sent as it is (20 moves in
        every variant chesskit knows but racing kings, which is asked its own start:
        ``detect.probe_position``)."""
        fen, _ = detect.probe_position(self.variant)
        rules = "chess" if fen == detect.START else self.variant  # the moves are read as the standard start's
        self.set_position(fen, [], False, raw=True)
        answer, search = self.ask(verb, 1, lambda: node_board(fen, [], False, rules), probe=True)
        if verb.startswith("go ") and answer.empty and not search:
            self._send("stop")
        self._probe_answered = self._probe_answered or search or not answer.empty
        return answer, search

    # -- asking ---------------------------------------------------------------

    def query(self, fen: str, depth: int, moves: list[str], chess960: bool) -> Answer:
        dialect = self.dialect_info()
        self.set_position(fen, moves, chess960)
        command = dialect.verb(depth)
        answer, search = self.ask(command, depth, lambda: node_board(fen, moves, chess960, self.variant))
        where = f"{command!r} on {position_label(fen, moves)!r}"
        if search:
            said = f" (it printed {one_line(answer.bestmove)!r})" if answer.bestmove else ""
            named = "" if self.detected else f"; without --dialect {dialect.name} chesskit detects the dialect it speaks"
            raise self.error(f"started a search on {where} instead of counting{said}{named}")
        if dialect.total_only:
            if answer.total is None:
                raise self.error(f"printed no total for {where}{_skipped(answer)}")
            return answer
        if not answer.moves and self.expect_total and answer.total is None:
            raise self.error(f"printed no divide for {where}{_skipped(answer)}")
        if answer.empty and answer.unread() and node_board(fen, moves, chess960, self.variant).legal_moves():
            # only lines chesskit cannot read ("Unknown command: 'perft 2'", a --dialect the
            # engine does not speak): not an empty divide, which would report every legal
            # move missing
            raise self.error(f"printed no divide for {where}{_skipped(answer)}")
        if answer.total is None and answer.moves and answer.late:
            # no total line, and lines still came after `readyok`: a thread prints the
            # answer, which may not be over when the engine goes quiet; a list cut short
            # would look like missing moves
            legal = set(node_board(fen, moves, chess960, self.variant).legal_moves())
            unlisted = legal - answer.moves.keys()
            if unlisted:
                raise self.error(
                    f"answered {where} with {len(answer.moves)} divide lines, some after 'readyok', and no "
                    f"total line; {len(unlisted)} of the position's {len(legal)} legal moves are not among "
                    "them: the answer may be incomplete, so no bug is reported from it (an engine that "
                    "prints a total line, or a one-shot --engine-cmd, can be compared)"
                )
        if answer.total is not None and not answer.moves and answer.total:
            raise self.error(
                f"answered {where} with a total of {answer.total} and no divide lines "
                f"(a total-only engine: name the dialect {dialect.total_name})"
            )
        if answer.total is not None and sum(answer.moves.values()) != answer.total:
            raise self.error(
                f"answered {where} with divide lines summing to {sum(answer.moves.values())} "
                f"but a total of {answer.total}{_unread_rows(answer)}"
            )
        return answer

    def set_position(self, fen: str, moves: list[str], chess960: bool, raw: bool = False) -> None:
        if chess960:
            self._speak_960()
        if self._xboard is not None:
            if chess960:
                raise self.error(f"{CANNOT_PLAY_960} (chesskit sets no Chess960 variant in an xboard dialect)")
            for command in xboard.position_commands(self, self._xboard, fen, moves, lambda: node_board(fen, moves, False)):
                self._send(command)
            self._sync_xboard(position_label(fen, moves))
            return
        if chess960 != self._chess960:
            if self._console:
                raise self.error(f"{CANNOT_PLAY_960} (a console dialect has no UCI_Chess960 option)")
            self._set_chess960(chess960)
        sent = fen if raw else sent_fen(fen, self.variant, chess960)
        self._send(f"position fen {sent}" + (f" moves {' '.join(moves)}" if moves else ""))
        if self._console:
            self._refused = any(_REFUSED.search(line) for line in self._drain())
        else:
            self._sync()

    def ask(self, command: str, depth: int, board_factory, probe: bool = False) -> tuple[Answer, bool]:
        """Send `command` and read its answer; returns (answer, whether a search started instead).

        A probe does not insist on an answer: when the engine says nothing in answer
        within --timeout after `readyok` (in a console: after the command), the answer is
        empty; once it has begun, it ends when the engine stays quiet for PROBE_GRACE seconds
        (an answer: ANSWER_GRACE).
        """
        reader = AnswerReader(depth, board_factory, total_only=self.dialect is not None and self.dialect.total_only)
        answer = reader.answer
        legal: set[str] = set()

        def complete() -> bool:
            return self._complete(answer, board_factory, legal)

        self._send(command)
        ready_reply = self._request_ready(command)
        ready, search, searching, refused, stop_by = ready_reply is None, False, False, False, 0.0
        # a refusal of the position's commands or of this one (`Illegal move: position fen ...`):
        # an engine that then prints no answer gets a short grace, not the whole --timeout
        turned_down, self._refused = self._refused and not probe, False
        deadline = self._deadline()
        quiet: float | None = None  # a probe's deadline for more output
        began = False  # the engine said something in answer (a count, a total, a refusal)

        def wait_more() -> float:
            if probe and not began and deadline is not None and not self._probe_answered:
                # a slow engine's first line gets the whole --timeout; once it is awake
                # (``_probe_answered``), silence after readyok is no answer
                return deadline
            return time.monotonic() + _grace(self.timeout, probe)
        while True:
            if ready and not searching:
                if complete() or search or (probe and refused and answer.empty):
                    break  # a search (`bestmove`) is no count: `query` says so at once
                if probe and ready_reply is not None and ready_reply.startswith("pong"):
                    break  # an xboard engine answers `ping` once it has done what came before
                if probe or self._may_be_over(answer, depth, ready_reply, refused or turned_down):
                    # not whole yet (a total before its divide lines, lines still coming
                    # after readyok): read on while the engine keeps talking
                    quiet = quiet or wait_more()
            if probe and searching:  # a search: `bestmove` is due at once
                line = self._poll(min(stop_by, deadline) if deadline else stop_by)
                if line is None:  # it ignores `stop` (Sjaak II's runs 2-3 s): the next probe asks a fresh process
                    self._respawn()
                    return reader.finish(), True
            elif quiet is not None:
                line = self._poll(min(quiet, deadline) if deadline else quiet)
                if line is None:
                    if searching:
                        raise self.error(f"did not stop the search it started on {command!r}")
                    break
            else:
                line = self._answer_line(command, answer, deadline, searching)
            text = line.strip()
            if text == ready_reply and not ready:
                ready = True
                continue
            if not self._console and text.startswith("bestmove"):
                search, searching, answer.bestmove = True, False, text
                continue
            if not self._console and text.startswith("info") and (" pv " in f"{text} " or " score " in text):
                if not searching and not search:
                    searching, stop_by = True, time.monotonic() + STOP_WAIT
                    self._send("stop")
                continue
            kind = reader.feed(line)
            if kind == "skip":
                self._refuse_bad_count(command, line)
            if kind == "skip" and _REFUSED.search(text):
                refused = True  # `Unknown command: perft 1`
            elif kind == "divide" and ready and not self._console:
                answer.late = True
            began = began or kind != "skip" or refused
            if quiet is not None:  # a probe waits as long as the engine keeps talking
                quiet = wait_more()
        if probe and ready and ready_reply is not None and not began:
            self._probe_answered = True  # it read this probe (readyok) and ignored it (wait_more)
        return reader.finish(), search

    def _may_be_over(self, answer: Answer, depth: int, ready_reply: str | None, turned_down: bool) -> bool:
        """Whether an answer read past the engine's `readyok` may already be all of it, so
        that silence ends it (ANSWER_GRACE) instead of --timeout: a total line, a divide with
        no total line to wait for, a refusal, or a bare number alone where the engine
        confirmed it had read the question (Ethereal's `perft N` where a divide was asked:
        `query` names the total-only dialect). A bare number equal to the depth may be an
        echo of it before the answer, and a bare 0 would end it as an empty divide (every
        move missing, a false bug), so those are still waited for. A console confirms
        nothing, so there a bare number alone may end the answer only in a named divide
        dialect (Ethereal's `perft 1` named console-perft waited out --timeout)."""
        confirmed = ready_reply is not None or (
            self._console and self.dialect is not None and not self.dialect.total_only
        )
        return (
            answer.total is not None
            or bool(answer.moves and not self.expect_total and not self._console)
            or (turned_down and answer.empty)
            or (confirmed and not answer.moves and answer.bare not in (None, 0, depth))
        )

    def _answer_line(self, command: str, answer: Answer, deadline: float | None, searching: bool = False) -> str:
        """The next line of the answer to ``command``; --timeout passing is an EngineError
        that quotes what the engine printed and chesskit could not read, if anything (or,
        ``searching``, says the engine started a search that `stop` did not end)."""
        line = self._poll(deadline)
        if line is None:
            self._kill()
            within = f"within {seconds_text(self.timeout)} s"
            if searching:
                raise self.error(
                    f"started a search on {command!r} instead of counting, and `stop` did not end it {within}: "
                    "give a longer --timeout, or name the dialect it counts in with --dialect"
                )
            raise self.error(f"did not answer {command!r} {within}{_printed(answer)}")
        return line

    def _refuse_bad_count(self, command: str, line: str) -> None:
        """A skipped line that is the answer but for its count (negative, too long) fails at once."""
        why = bad_count(line)
        if why is not None:
            self._kill()
            raise self.error(f"printed {why} in answer to {command!r}: {one_line(line)!r}")

    def _complete(self, answer: Answer, board_factory, legal: set[str]) -> bool:
        """Whether the answer is whole: a total its divide lines sum to, or (no total
        line in this dialect) every legal move of the node listed (``legal``: filled once)."""
        if answer.total is not None:
            if answer.moves:
                return answer.consistent
            # a total alone: the whole answer of a total-only dialect, else perhaps
            # the first line (some engines print the total before the divide)
            return answer.total == 0 or (self.dialect is not None and self.dialect.total_only)
        if answer.moves and not self.expect_total and not self._console:
            if not legal:
                legal.update(board_factory().legal_moves())
            return legal <= answer.moves.keys()
        return False

    def _request_ready(self, command: str) -> str | None:
        """Ask the engine to say when it has read `command` (`isready`, or `ping N` to an
        xboard engine); the reply to wait for, or None in a console (nothing to ask)."""
        if self._xboard is not None:
            if not self._xboard.ping:
                return None
            self._ping += 1
            self._send(f"ping {self._ping}", answering=command)
            return f"pong {self._ping}"
        if self._console:
            return None
        self._send("isready", answering=command)
        return "readyok"

    def _sync_xboard(self, where: str) -> None:
        """Wait for `pong` after the position's commands; a refusal before it (`Illegal
        move`, `Error`) fails. Without the ping feature, what came so far is read."""
        reply = self._request_ready(self._last_command)
        deadline = self._deadline()
        while True:
            if reply is None:
                line = self._poll(time.monotonic() + 0.05)
                if line is None:
                    return
            else:
                line = self._readline(deadline)
            if reply is not None and line.strip() == reply:
                return
            if xboard.is_error(line):
                raise self.error(f"refused the position {where!r}: {one_line(line)!r}")

    def _taken(self, line) -> str:
        line = super()._taken(line)
        if self._no_uciok and _UCI_HANDSHAKE.match(line.strip()):
            self.late_uci = True  # ``detect.choose`` names it so
        return line

    def _poll(self, deadline: float | None) -> str | None:
        """The next line, or None when `deadline` passes (the engine is left running)."""
        try:
            line = self._next_line(deadline)
        except queue.Empty:
            return None
        return self._taken(line)  # the caps on line and answer size (uci.py)

    def _drain(self) -> list[str]:
        """Drop what the console printed since the last answer (prompts, timings); the lines."""
        lines = []
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return lines
            lines.append(self._taken(line))


def _grace(timeout: float | None, probe: bool) -> float:
    grace = PROBE_GRACE if probe else ANSWER_GRACE
    return grace if timeout is None else min(grace, timeout)


def _unread_rows(answer: Answer) -> str:
    """The lines shaped like divide lines whose move could not be read, when their counts
    make up the difference between the divide lines and the total (a null move `0000`)."""
    rows = answer.unread_rows
    if not rows or sum(n for _, n in rows) != answer.total - sum(answer.moves.values()):
        return ""
    return f"; the difference is {', '.join(repr(text) for text, _ in rows)}, not a move chesskit can read"


def _printed(answer: Answer) -> str:
    """For an answer that timed out: the line it printed that chesskit could not read, if
    any, else the divide lines it printed without the total that ends them."""
    if answer.unread():
        return f"{_skipped(answer)}, not a line chesskit can read"
    if answer.moves and answer.total is None:
        lines = len(answer.moves)
        last = next(reversed(answer.moves))
        return (
            f"; it printed {lines} divide line{'s' if lines > 1 else ''} (the last for {last}: "
            f"{answer.moves[last]}) and no total after them"
        )
    return ""


def _skipped(answer: Answer) -> str:
    if answer.unread():
        return f"; it printed {one_line(answer.unread())!r}"
    return "; it printed nothing"
