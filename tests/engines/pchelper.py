"""Shared helper for the test engines: a correct python-chess adapter and the perftree main.

Each `bug_*.py` file subclasses `Adapter` to add exactly one classic move
generator bug, and doubles as a perftree script (``bug_x.py DEPTH FEN MOVES``).
"""

from __future__ import annotations

import sys

import chess


class Adapter:
    """chesskit's Python adapter protocol over python-chess (correct)."""

    def __init__(self):
        self.board = chess.Board()

    def set_fen(self, fen: str, chess960: bool = False) -> None:
        self.board = chess.Board(fen, chess960=chess960)

    def generate(self) -> list[chess.Move]:
        """The moves this engine believes legal; bugs override this."""
        return list(self.board.legal_moves)

    def legal_moves(self) -> list[str]:
        return [self.board.uci(move) for move in self.generate()]

    def push(self, uci: str) -> None:
        self.board.push(chess.Move.from_uci(uci))

    def pop(self) -> None:
        self.board.pop()

    def fen(self) -> str:
        return self.board.fen()


def perft(adapter: Adapter, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in adapter.legal_moves():
        adapter.push(move)
        total += perft(adapter, depth - 1)
        adapter.pop()
    return total


def divide(adapter: Adapter, depth: int) -> dict[str, int]:
    result = {}
    for move in adapter.legal_moves():
        adapter.push(move)
        result[move] = perft(adapter, depth - 1)
        adapter.pop()
    return result


def looks_chess960(fen: str) -> bool:
    """Shredder-FEN castling letters (`HAha`) mean a Chess960 position."""
    fields = fen.split()
    return len(fields) > 2 and any(c not in "KQkq-" for c in fields[2])


def perftree_main(adapter_class: type[Adapter], argv: list[str] | None = None) -> None:
    """perftree protocol: DEPTH FEN [MOVES] -> `move count` lines, blank line, total."""
    args = sys.argv[1:] if argv is None else argv
    depth, fen = int(args[0]), args[1]
    moves = args[2].split() if len(args) > 2 else []
    adapter = adapter_class()
    adapter.set_fen(fen, chess960=looks_chess960(fen))
    for move in moves:
        adapter.push(move)
    result = divide(adapter, depth)
    for move, count in result.items():
        print(f"{move} {count}")
    print()
    print(sum(result.values()))
