"""perftree's script protocol: one process per divide.

chesskit runs ``PATH "$depth" "$fen" "$moves"`` where `$moves` is the
space-separated list of UCI moves played from `$fen` (possibly empty), and the
script prints::

    e2e4 20          one `move count` line per legal move (`e2e4: 20` is also accepted,
                     and moves in SAN or long algebraic: `Nf3 20`, `O-O 1`, `Ng1-f3 20`)
    ...
                     a blank line
    400              the total

A count is ASCII digits (at most 19), or digits grouped in threes by one separator, a
comma, an underscore or a space (`1,234,567`, `1_234_567`, `1 234 567`); digits with a
separator that do not group that way (`1,23,456`, `1,234 567`, `1,5`) are refused with
the line quoted, never read as some number.

For a Chess960 position the FEN's castling field is given in Shredder-FEN (the
castling rooks' files, `HAha`), so the script can tell Chess960 from standard chess
without a flag (X-FEN's `KQkq` reads the same in both).

The total must equal the sum of the lines.  A script that is missing, not
executable, exits non-zero, runs past `timeout` seconds or prints anything else
is an `EngineError`; its whole process group is killed on a timeout.
"""

from __future__ import annotations

import re

from chesskit.board.fen import shredder_fen
from chesskit.compare.engines.base import (
    COUNT,
    NULL_MOVE,
    UCI_MOVE,
    Engine,
    add_divide_entry,
    check_depth,
    node_board,
    normalise_move,
    one_line,
)
from chesskit.compare.engines.dialects import MoveNames, move_token
from chesskit.compare.engines.proc import MAX_LINE, too_long_line


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
            if total is None and not _NULL_ROW.match(text) and _count(text, self, call, line) is not None:
                total = _count(text, self, call, line)
                continue
            entry = _divide_row(text, names, self, call, line)
            if entry is not None and total is not None:
                raise self.error(
                    f"printed a divide line after its total for {call}: {one_line(line)!r} "
                    "(expected moves, a blank line, then the total)"
                )
            if entry is None:
                raise self.error(f"printed a line chesskit cannot parse for {call}: {one_line(line)!r}")
            add_divide_entry(result, *entry)
        if total is None:
            raise self.error(f"printed no total line for {call} (expected moves, a blank line, then the total)")
        if not result and total:  # QA 40b #7: "divide lines summing to 0" where it printed none
            raise self.error(
                f"printed a total ({total}) and no divide lines for {call}: a script that prints a total only is "
                "run with --engine-cmd 'SCRIPT {depth} \"{fen}\" \"{moves}\"' (its dialect oneshot-total)"
            )
        if sum(result.values()) != total:
            raise self.error(f"printed divide lines summing to {sum(result.values())} but a total of {total} for {call}")
        return result


# `MOVE COUNT` or `MOVE: COUNT`, whatever the move's notation (checked by move_token) and
# however the count's digits are grouped (checked by _count)
_LINE = re.compile(r"(\S+?)(?::\s*|\s+)([0-9][0-9,_ ]*)")
_NULL_ROW = re.compile(NULL_MOVE + r"(?::|\s)")  # `0000 6`: a divide line (a null move), not a total
# digits grouped in threes by one separator: `1,234,567`, `1_234_567`, `1 234 567`
_GROUPED = re.compile(r"[0-9]{1,3}(?P<sep>[,_ ])[0-9]{3}(?:(?P=sep)[0-9]{3})*")
_SEPARATED = re.compile(r"[0-9]+(?:[,_ ]+[0-9]+)+")  # digits and separators, however grouped
GROUPING = "digits, or digits grouped in threes by one of ',', '_' or a space: 1,234,567"


def _count(text: str, engine: Engine, call: str, line: str) -> int | None:
    """The count ``text`` is (plain or grouped digits), None when it is no count at all; a
    count whose separators group it some other way, or of more than 19 digits, is refused."""
    if re.fullmatch(COUNT, text):
        return int(text)
    if not _SEPARATED.fullmatch(text):
        return None
    digits = re.sub(r"[,_ ]", "", text)
    if _GROUPED.fullmatch(text) and re.fullmatch(COUNT, digits):
        return int(digits)
    raise engine.error(f"printed a count chesskit cannot read for {call}: {one_line(line)!r} (a count is {GROUPING})")


def _divide_row(text: str, names: MoveNames | None, engine: Engine, call: str, line: str) -> tuple[str, int] | None:
    """``('e2e4', 20)`` for ``e2e4 20`` or ``e2e4: 1,234``; ``('g1f3', 20)`` for ``Nf3 20`` (a
    move in SAN or long algebraic); None when the line is no divide line."""
    m = _LINE.fullmatch(text)
    if m is None:
        return None
    if UCI_MOVE.fullmatch(m.group(1)) or m.group(1) == NULL_MOVE:
        move = normalise_move(m.group(1))
    else:
        token = move_token(m.group(1)) if names is not None else None
        if token is None:
            return None
        move = names.to_uci(token)
    count = _count(m.group(2).strip(), engine, call, line)
    return None if count is None else (move, count)
