"""perftree's script protocol: one process per divide.

chesskit runs ``PATH "$depth" "$fen" "$moves"`` where `$moves` is the
space-separated list of UCI moves played from `$fen` (possibly empty), and the
script prints::

    e2e4 20          one `move count` line per legal move (`e2e4: 20` is also accepted,
                     and moves in SAN or long algebraic: `Nf3 20`, `O-O 1`, `Ng1-f3 20`)
    ...
                     a blank line
    400              the total

For a Chess960 position the FEN's castling field is given in Shredder-FEN (the
castling rooks' files, `HAha`), so the script can tell Chess960 from standard chess
without a flag (X-FEN's `KQkq` reads the same in both).

The total must equal the sum of the lines.  A script that is missing, not
executable, exits non-zero, runs past `timeout` seconds or prints anything else
is an `EngineError`; its whole process group is killed on a timeout.
"""

from __future__ import annotations

import re

from chesskit.board.fen import parse_fen
from chesskit.compare.engines.base import (
    COUNT,
    Engine,
    add_divide_entry,
    check_depth,
    node_board,
    one_line,
    parse_divide_line,
)
from chesskit.compare.engines.dialects import MoveNames, move_token
from chesskit.compare.engines.proc import MAX_LINE, too_long_line
from chesskit.vocab import FILE_NAMES


class ScriptEngine(Engine):
    """A perftree-style perft script."""

    def __init__(self, path: str, timeout: float | None = 30.0):
        self.path = str(path)
        self.name = self.path
        self.timeout = timeout

    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        check_depth(depth)
        given = shredder_fen(fen, self.variant) if chess960 else fen
        argv = [self.path, str(depth), given, " ".join(moves)]
        call = f"depth {depth} on {given!r}" + (f" moves {' '.join(moves)!r}" if moves else "")
        stdout = self.run_once(argv, call)
        return self._parse(stdout, call, MoveNames(lambda: node_board(fen, moves, chess960, self.variant)))

    def _parse(self, stdout: str, call: str, names: MoveNames | None = None) -> dict[str, int]:
        """Read `move count` lines, a blank line, then the total. A move may be written
        in SAN or long algebraic (``Nf3 20``, ``O-O: 1``, ``Ng1-f3 20``), as a one-shot
        ``--engine-cmd`` may write it; ``names`` turns it into UCI."""
        result: dict[str, int] = {}
        total: int | None = None
        for line in stdout.splitlines():
            if len(line) > MAX_LINE:
                raise self.error(f"{too_long_line()} for {call}")
            text = line.strip()
            if not text:
                continue
            if total is None and re.fullmatch(COUNT, text):
                total = int(text)
                continue
            entry = None if total is not None else parse_divide_line(text) or _named_line(text, names)
            if entry is None:
                raise self.error(f"printed a line chesskit cannot parse for {call}: {one_line(line)!r}")
            add_divide_entry(self, result, *entry)
        if total is None:
            raise self.error(f"printed no total line for {call} (expected moves, a blank line, then the total)")
        if sum(result.values()) != total:
            raise self.error(f"printed divide lines summing to {sum(result.values())} but a total of {total} for {call}")
        return result


# `MOVE COUNT` or `MOVE: COUNT`, whatever the move's notation (checked by move_token)
_LINE = re.compile(r"(\S+?)(?::\s*|\s+)(" + COUNT + ")")


def _named_line(text: str, names: MoveNames | None) -> tuple[str, int] | None:
    """``('g1f3', 20)`` for ``Nf3 20`` (a move in SAN or long algebraic); None otherwise."""
    m = _LINE.fullmatch(text)
    token = move_token(m.group(1)) if m is not None and names is not None else None
    if token is None:
        return None
    return names.to_uci(token), int(m.group(2))


def shredder_fen(fen: str, variant: str = "chess") -> str:
    """``fen`` with its castling field in Shredder-FEN: the files of the castling rooks,
    white's upper-case, each side's king-side rook first (``HAha``, ``GEge``)."""
    fields = fen.split()
    if len(fields) < 3 or fields[2] == "-":
        return fen
    setup = parse_fen(fen, chess960=True, variant=variant)
    letters = ""
    for color in (0, 1):
        rooks = sorted((sq for sq in setup.castling if sq >> 3 == 7 * color), reverse=True)
        files = "".join(FILE_NAMES[sq & 7] for sq in rooks)
        letters += files.upper() if color == 0 else files
    fields[2] = letters or "-"
    return " ".join(fields)


