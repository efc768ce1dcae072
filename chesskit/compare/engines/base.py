"""The `Engine` interface shared by every back end, and the helpers they share.

An engine answers one question: the divide of a position at a depth, as a dict
``{root move (UCI): leaf count}``.  The position is given the way perftree gives
it: a root FEN plus the UCI moves played from it.  Every failure - cannot start,
crashed, hung, talked nonsense - is an `EngineError` whose text is one line that
names the engine and says what happened.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from abc import ABC, abstractmethod

from chesskit.compare.engines.castling import chess960_divide, read_castling, standard_letters, standard_path
from chesskit.compare.engines.proc import (
    OutputLimit,
    communicate_bounded,
    describe_exit,
    drain,
    kill_group,
    output_held,
    report_survivors,
    resolve_program,
    spawn,
)
from chesskit.errors import EngineError, TotalOnlyDivideError

# The longest --timeout: about 11 days, well inside what thread and timer waits accept.
MAX_TIMEOUT = 1e6

# A UCI move as engines print it: from, to, optional promotion.  Chess960
# castling (king takes own rook, `e1h1`) has the same shape.  Upper-case
# promotion letters (perftree's `a7b8Q`) are accepted and lower-cased.  Variants add
# drops (`P@e4`, crazyhouse) and the promotion to a king (`e7e8k`, antichess).
_MOVE = r"(?:[a-h][1-8][a-h][1-8][nbrqkNBRQK]?|[PNBRQpnbrq]@[a-h][1-8])"
UCI_MOVE = re.compile(_MOVE)

# A count as engines print it: ASCII digits, at most 19 (a 64-bit count), so a number of
# thousands of digits or a superscript digit is a line chesskit cannot parse (exit 3).
COUNT = r"[0-9]{1,19}"

# UCI's null move: an engine that lists it in a divide generates a move that moves nothing
NULL_MOVE = "0000"
# the key of a move's second divide line (``e2e4 (listed twice)``): the engine generates it twice
TWICE = " (listed twice)"

# `e2e4: 20` (Stockfish) or `e2e4 20` (perftree); `0000: 1`, a null move, is read too.
_DIVIDE_LINE = re.compile("(" + _MOVE + "|" + NULL_MOVE + r")(?::\s*|\s+)(" + COUNT + ")")


class Engine(ABC):
    """Something that can divide a position; use it as a context manager.

    Every subclass's ``divide`` is wrapped (``__init_subclass__``) so that castling written
    as the king taking its own rook in standard chess (`e1h1`) reads as chesskit's `e1g1`
    (see ``castling``); ``castling_spelling`` then says so."""

    name: str = "engine"
    # True for an engine that answers perft with a total only (no divide lines):
    # ask it with `perft`; `descend` then asks for the count below each move itself.
    total_only: bool = False
    # "king-takes-rook" once the engine wrote a standard castle as `e1h1`, "king-to-square"
    # once it wrote a Chess960 castle as the king's destination (`g1c1`); else None
    castling_spelling: str | None = None
    # the rules it counts in (a canonical name of chesskit.variants), set by open_engine
    variant: str = "chess"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("divide")
        if own is not None and not getattr(own, "reads_castling", False):
            cls.divide = _reading_castling(own)
        own = cls.__dict__.get("perft")
        if own is not None and not getattr(own, "reads_castling", False):
            cls.perft = _standard_without_rights(own)

    @abstractmethod
    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        """Leaf counts at `depth` below each legal move of `fen` + `moves` (depth >= 1)."""

    def perft(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> int:
        """The leaf count at `depth` (depth >= 1); back ends with a cheaper total override it."""
        return sum(self.divide(fen, depth, moves, chess960).values())

    def start(self) -> None:
        """Start the engine now, if it is not running (its process, its handshake, within
        its own --timeout): a suite or fuzz run restarts it after a failure before the next
        position, whose --position-timeout is for answers. Here: nothing (an engine run
        per question, or an object of the caller's)."""

    def dialect_info(self):
        """The `Dialect` this engine speaks (None: not a perft dialect engine, or not known yet)."""
        return None

    def ready_for(self, fen: str, chess960: bool = False) -> None:
        """Before questions about ``fen`` and its tree: an engine that speaks another dialect
        there switches now, so that ``total_only`` says how they will be answered (an
        xboard engine asked Chess960 in its UCI loop, ``console.PerftEngine``). Here: nothing."""

    def close(self) -> None:
        """Release the engine (stop its process); safe to call twice. Here: stop a one-shot
        command still running (``run_once``), from any thread: its answer becomes an EngineError."""
        running = getattr(self, "_running", None)
        if running is not None:
            kill_group(running)

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def error(self, what: str) -> EngineError:
        """An `EngineError` reading ``engine '<name>' <what>``; in a variant ``engine '<name>'
        (in atomic) <what>``: its FENs may read as standard chess (the start position), and a
        script that ignores ``$CHESSKIT_VARIANT`` fails just so."""
        rules = "" if self.variant == "chess" else f" (in {self.variant})"
        return EngineError(f"engine {self.name!r}{rules} {what}")

    def run_once(self, argv: list[str], call: str) -> str:
        """Run a one-shot command line (no stdin, output capped, ``self.timeout``) and
        return its stdout. Its whole process group is killed afterwards (helpers it left
        running too); a hang, an answer past the output limits or a non-zero exit is an
        `EngineError` naming ``call`` and the last line it printed."""
        argv = [resolve_program(argv[0], self.name), *argv[1:]]
        env = None if self.variant == "chess" else {**os.environ, "CHESSKIT_VARIANT": self.variant}
        proc = spawn(argv, self.name, stdin=subprocess.DEVNULL, env=env)
        self._running = proc  # close() on another thread stops it (explore's Esc)
        try:
            out, err = communicate_bounded(proc, self.timeout, call)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            drain(proc)
            raise self.error(f"did not answer {call} within {seconds_text(self.timeout)} s") from None
        except OutputLimit as limit:  # a line past MAX_LINE or an answer past MAX_ANSWER
            kill_group(proc)
            drain(proc)
            shown = str(limit) if call in str(limit) else f"{limit} for {call}"
            raise self.error(shown) from None
        except BaseException:
            kill_group(proc)
            drain(proc)
            raise
        finally:
            self._running = None
        kill_group(proc)  # helpers it left running in its group
        if output_held([proc.stdout, proc.stderr]):  # a helper outside the group holds them
            report_survivors(self.name, [proc.stdout, proc.stderr])
        drain(proc)
        stdout = out.decode("utf-8", "replace")
        if proc.returncode != 0:
            last = _last_line(err.decode("utf-8", "replace")) or _last_line(stdout)
            shown = f"last output: {one_line(last)!r}" if last else "it printed nothing"
            raise self.error(f"{describe_exit(proc.returncode)} for {call}; {shown}")
        return stdout


# how every back end begins the error of an engine that cannot play Chess960 (fuzz then
# leaves the Chess960 positions out of the rest of its run)
CANNOT_PLAY_960 = "cannot play Chess960"


def answers_by_totals(engine, fen: str, chess960: bool) -> bool:
    """Whether ``engine`` answers questions about ``fen`` with totals only (its
    ``total_only``), once it is switched to the dialect they will be asked in
    (``Engine.ready_for``: Sjaak II asked Chess960 gives totals); an engine without
    ``ready_for`` (a test's, a wrapper's that has none) is not switched."""
    ready_for = getattr(engine, "ready_for", None)
    if ready_for is not None:
        ready_for(fen, chess960)
    return bool(getattr(engine, "total_only", False))


def castles_in_960(fen: str, chess960: bool, variant: str = "chess") -> bool:
    """Whether a question about ``fen`` (and the moves played from it) must be asked in
    Chess960 (``asked_as``)."""
    return asked_as(fen, chess960, variant)[1]


def asked_as(fen: str, chess960: bool, variant: str = "chess") -> tuple[str, bool]:
    """``(fen, chess960)``: how an engine is asked a question about ``fen`` and the moves
    played from it. In Chess960 only where the game differs from standard chess: a Chess960
    position without castling rights, or whose kings and castling rooks stand on standard
    chess's squares (Chess960 number 518: ``HAha``), is the same game, and an engine that
    cannot play Chess960 (an xboard or console dialect, a UCI engine without UCI_Chess960)
    is asked it as standard chess, its castling field in ``KQkq`` letters, not failed
    (fuzz's Chess960 placements without rights, a third of its positions, were each an
    engine error for Sjeng; ``c960-518`` was one for every xboard engine). A variant's
    position, and one whose castling field chesskit reads otherwise than it is written (a
    right dropped), keep their question as it was."""
    if not chess960:
        return fen, False
    fields = fen.split()
    if len(fields) >= 3 and fields[2] == "-":
        return fen, False
    if variant != "chess":
        return fen, True
    return _standard_castling(fen)


@functools.lru_cache(maxsize=4096)  # a descent asks about the same root FEN again and again
def _castling_read(fen: str):
    """The ``Setup`` of a Chess960 ``fen`` whose castling field chesskit reads as it is
    written, else None (unreadable, or a right dropped: the field then goes as written)."""
    from chesskit.board.fen import parse_fen
    from chesskit.errors import FenError

    try:
        setup = parse_fen(fen, chess960=True)
    except FenError:
        return None
    return None if any(note.startswith("castling") for note in setup.notes) else setup


def _with_castling(fen: str, letters: str) -> str:
    fields = fen.split()
    fields[2] = letters
    return " ".join(fields)


def _standard_castling(fen: str) -> tuple[str, bool]:
    setup = _castling_read(fen)
    letters = None if setup is None else standard_letters(setup.board, setup.castling)
    return (fen, True) if letters is None else (_with_castling(fen, letters), False)


def _standard_without_rights(perft):
    """``perft`` asked in standard chess where Chess960 makes no difference (``asked_as``)."""

    @functools.wraps(perft)
    def wrapped(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> int:
        asked, in_960 = asked_as(fen, chess960, self.variant)
        if chess960 and not in_960:
            moves = standard_path(moves, lambda: node_board(fen, [], True, self.variant))
        return perft(self, asked, depth, moves, in_960)

    wrapped.reads_castling = True
    return wrapped


def _reading_castling(divide):
    """``divide`` with its answer passed through ``castling.read_castling``, asked in
    standard chess where Chess960 makes no difference (``asked_as``), its castles then
    written as Chess960 writes them (``castling.chess960_divide``)."""

    @functools.wraps(divide)
    def wrapped(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        asked, in_960 = asked_as(fen, chess960, self.variant)
        path = moves
        if chess960 and not in_960:
            path = standard_path(moves, lambda: node_board(fen, [], True, self.variant))
        result = divide(self, asked, depth, path, in_960)
        node = lambda: node_board(asked, path, in_960, self.variant)  # noqa: E731
        result, spelled = read_castling(result, node, in_960)
        if spelled is not None:
            self.castling_spelling = spelled
        if chess960 and not in_960:  # the standard game's castles, as Chess960 writes them
            result = chess960_divide(result, node)
        return result

    wrapped.reads_castling = True
    return wrapped


def total_only_divide(engine: Engine, depth: int) -> TotalOnlyDivideError:
    """The error of a divide at ``depth`` (below 2) asked of an engine that prints only totals."""
    dialect = engine.dialect_info()
    named = f" (dialect {dialect.name})" if dialect is not None else ""
    return TotalOnlyDivideError(
        f"engine {engine.name!r} prints only totals{named}, so it cannot list its moves: its divide "
        f"needs depth >= 2 (chesskit asks its total below each of its own moves), not depth {depth}; "
        "its perft at depth 1 is its move count"
    )


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def check_depth(depth: int) -> None:
    if not isinstance(depth, int) or depth < 1:
        raise ValueError(f"divide needs depth >= 1, got {depth!r}")


def normalise_move(move: str) -> str:
    """Lower-case the promotion letter: `a7b8Q` -> `a7b8q`; a drop's piece is upper case (`P@e4`)."""
    if "@" in move:
        return move[0].upper() + move[1:].lower()
    return move.lower()


def parse_divide_line(line: str) -> tuple[str, int] | None:
    """``('e2e4', 20)`` for ``e2e4: 20`` or ``e2e4 20``; None when the line is not one."""
    m = _DIVIDE_LINE.fullmatch(line.strip())
    if m is None:
        return None
    return normalise_move(m.group(1)), int(m.group(2))


def add_divide_entry(result: dict[str, int], move: str, count: int) -> None:
    """Store one divide line. A move listed again is kept under ``move + TWICE`` (counts
    summed there), so the divide still sums to the engine's total, and compare's descent
    reports it as a move the engine generates twice at that node: a bug of its move
    generation (exit 1), as a null move (``0000``, kept as it is) is, not a failure to run."""
    key = move + TWICE if move in result else move
    result[key] = result.get(key, 0) + count


def seconds_text(seconds: float) -> str:
    """A wait in an engine error: ``30``, ``2.92`` (the rest of a --position-timeout was
    printed ``2.91577``)."""
    return f"{round(seconds, 2):g}"


def unless_quoted(reason: str, fen: str, text: str) -> str:
    """``text``, which names ``fen``, to add to an engine failure's ``reason``; "" where the
    reason quotes that FEN already (a script's ``on 'FEN'``, an adapter's ``set_fen('FEN')``),
    so that the message gives it once."""
    return "" if fen in reason else text


def one_line(text: str, limit: int = 200) -> str:
    """Collapse `text` to one line of at most `limit` characters."""
    flat = " | ".join(part.strip() for part in str(text).splitlines() if part.strip())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def sent_fen(fen: str, variant: str, chess960: bool) -> str:
    """``fen`` as a UCI engine is sent it: a Chess960 position's castling field in
    Shredder-FEN, the castling rooks' files (``C`` for the rook on c1), as it is shown
    (``board.fen.shown_fen``); a variant's in the FEN dialect of Fairy-Stockfish and other
    ``UCI_Variant`` engines; standard chess unchanged. X-FEN's ``Q`` (the outermost rook
    west of the king) is read otherwise by some engines: Sjaak II took the black rook on b1
    for white's in ``3k4/8/8/8/8/1R6/8/1rRK4 w Q -``, and so lost the right with it.
    Stockfish, Fairy-Stockfish, Ethereal and Sjaak II read the file letters with
    UCI_Chess960 on. A Chess960 castling field chesskit reads otherwise than it is written
    (a right without its rook, dropped) goes as written."""
    if variant == "chess":
        return _shredder_as_written(fen) if chess960 else fen
    from chesskit.board.fen import format_fen, parse_fen

    return format_fen(parse_fen(fen, True if chess960 else None, variant=variant), dialect="fairy", shredder=chess960)


def _shredder_as_written(fen: str) -> str:
    from chesskit.board.fen import shredder_castling

    fields = fen.split()
    if len(fields) < 3 or fields[2] == "-":
        return fen
    setup = _castling_read(fen)
    return fen if setup is None else _with_castling(fen, shredder_castling(setup))


def position_label(fen: str, moves: list[str]) -> str:
    """`FEN` or `FEN moves e2e4 e7e5`, for messages."""
    return f"{fen} moves {' '.join(moves)}" if moves else fen


def node_board(fen: str, moves: list[str], chess960: bool, variant: str = "chess"):
    """chesskit's Board of `fen` + `moves` (for SAN and for the moves of a total-only engine)."""
    from chesskit.board.board import Board

    if variant == "chess":
        board = Board(fen, chess960=True if chess960 else None)
    else:
        board = Board(fen, chess960=True if chess960 else None, variant=variant)
    for move in moves:
        board.push(move)
    return board
