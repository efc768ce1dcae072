"""A one-shot command line per question: ``--engine-cmd './engine "{fen}" {depth}'``.

The template is split like a shell line (quotes group words; no shell runs), then
in each word ``{fen}``, ``{depth}`` and ``{moves}`` (the UCI moves played from the
FEN, space-separated, possibly empty) are filled in.  A template without
``{moves}`` gets the FEN of the node itself, which chesskit computes.  A Chess960
FEN is given in Shredder-FEN (castling rook files, ``HAha``).  With ``--variant``,
``{variant}`` is the variant's name (Fairy-Stockfish's spelling, ``atomic``) and the
command's environment has ``CHESSKIT_VARIANT`` set to it.

The output is read by the same parser as every dialect (see `dialects`): a divide
with or without a total, or a total only; the first answer decides which, and a
total-only command is asked for the count below each move, like a total-only
engine.  A command that is missing, exits non-zero or runs past `timeout` seconds
is an `EngineError`; its whole process group is killed.
"""

from __future__ import annotations

import re
import shlex

from chesskit.compare.engines.base import Engine, check_depth, node_board, one_line, position_label, total_only_divide
from chesskit.compare.engines.dialects import AnswerReader, Dialect
from chesskit.errors import InputError

PLACEHOLDERS = ("{fen}", "{depth}", "{moves}", "{variant}")
_NAMED = re.compile(r"\{[A-Za-z_]+\}")  # what looks like a placeholder
# a placeholder written as str.format would take it: {depth:>5}, {fen!r}, {fen.x} (sent as
# written, or said to be missing)
_FORMATTED = re.compile(r"\{(?:fen|depth|moves|variant)[.:!\[][^{}\s]*\}")


def template_words(template: str) -> list[str]:
    """The words of an ``--engine-cmd`` template, split like a shell line; InputError for one
    that could never run (no {fen} or {depth}, an unknown or formatted placeholder, an
    unclosed quote), found before anything starts."""
    try:
        words = shlex.split(template)
    except ValueError as err:
        raise InputError(f"bad --engine-cmd {template!r}: {str(err).lower()}") from None
    if not words:
        raise InputError("--engine-cmd is empty: give a command line with {fen} and {depth}")
    for word in words:
        formatted = _FORMATTED.search(word)
        if formatted:
            raise InputError(
                f"--engine-cmd {template!r}: {formatted.group()} is not a placeholder: they are replaced as "
                f"written, with no format spec, conversion or field ({', '.join(PLACEHOLDERS)})"
            )
        for unknown in _NAMED.findall(word):
            if unknown not in PLACEHOLDERS:
                # a typo ({move}, {FEN}) reached the engine as it was written
                raise InputError(
                    f"--engine-cmd {template!r} has an unknown placeholder {unknown}: "
                    f"the placeholders are {', '.join(PLACEHOLDERS)}"
                )
    for needed in ("{fen}", "{depth}"):
        if not any(needed in word for word in words):
            raise InputError(f"--engine-cmd {template!r} has no {needed} placeholder")
    if any(p in words[0] for p in PLACEHOLDERS):
        raise InputError(f"--engine-cmd {template!r}: the program itself cannot be a placeholder")
    return words


class OneShotEngine(Engine):
    """A command line run once per perft question."""

    def __init__(self, template: str, timeout: float | None = 30.0):
        self.words = template_words(template)
        self.name = template
        self.timeout = timeout
        self.with_moves = any("{moves}" in word for word in self.words)
        self.dialect: Dialect | None = None

    @property
    def total_only(self) -> bool:
        return self.dialect_info().total_only

    def dialect_info(self) -> Dialect:
        if self.dialect is None:
            from chesskit.compare.engines.detect import START

            self._ask(START, 1, [], False)
        return self.dialect

    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        check_depth(depth)
        if self.dialect_info().total_only:
            if depth < 2:
                raise total_only_divide(self, depth)
            board = node_board(fen, moves, chess960, self.variant)
            return {m: self.perft(fen, depth - 1, [*moves, m], chess960) for m in board.legal_moves()}
        return self._ask(fen, depth, moves, chess960).moves

    def perft(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> int:
        check_depth(depth)
        answer = self._ask(fen, depth, moves, chess960)
        return answer.total if answer.total is not None else sum(answer.moves.values())

    def _argv(self, fen: str, depth: int, moves: list[str], chess960: bool) -> list[str]:
        if moves and not self.with_moves:
            fen, moves = node_board(fen, moves, chess960, self.variant).fen(), []
        if chess960:
            from chesskit.board.fen import shredder_fen

            fen = shredder_fen(fen, self.variant)
        values = {"{fen}": fen, "{depth}": str(depth), "{moves}": " ".join(moves), "{variant}": self.variant}
        argv = []
        for word in self.words:
            for key, value in values.items():
                word = word.replace(key, value)
            argv.append(word)
        return argv

    def _ask(self, fen: str, depth: int, moves: list[str], chess960: bool):
        argv = self._argv(fen, depth, moves, chess960)
        call = f"depth {depth} on {position_label(fen, moves)!r}"
        stdout = self.run_once(argv, call)
        reader = AnswerReader(depth, lambda: node_board(fen, moves, chess960, self.variant))
        for line in stdout.splitlines():
            reader.feed(line)
        answer = reader.finish()
        if answer.empty:
            shown = f"; it printed {one_line(answer.unread())!r}" if answer.unread() else "; it printed nothing"
            raise self.error(f"printed no divide and no total for {call}{shown}")
        if answer.moves and answer.total is not None and sum(answer.moves.values()) != answer.total:
            raise self.error(
                f"printed divide lines summing to {sum(answer.moves.values())} but a total of {answer.total} for {call}"
            )
        if self.dialect is None:
            self.dialect = Dialect(
                "oneshot", "template", not answer.moves, ("san" if answer.san else "uci") if answer.moves else None, answer.notation
            )
        elif not self.dialect.total_only and not answer.moves and answer.total:
            raise self.error(f"printed a total but no divide lines for {call}")
        return answer
