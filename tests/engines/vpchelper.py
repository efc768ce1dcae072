#!/usr/bin/env python3
"""Shared helper for the variant test engines: a correct adapter over python-chess's
variant boards (``chess.variant``) and the perftree main, which reads the variant from
``$CHESSKIT_VARIANT`` (what chesskit sets for a --script under --variant).

Each ``vbug_*.py`` file subclasses ``Adapter`` (or its board class) to add exactly one
variant bug, and doubles as a perftree script.
"""

from __future__ import annotations

import os
import sys

import chess
import chess.variant

import pchelper


class Adapter(pchelper.Adapter):
    """chesskit's Python adapter protocol over python-chess's variant boards (correct)."""

    board_classes: dict[str, type[chess.Board]] = {}  # a bug's own board class per variant

    def set_fen(self, fen: str, chess960: bool = False, variant: str = "chess") -> None:
        cls = self.board_classes.get(variant) or chess.variant.find_variant(variant)
        self.board = cls(fen, chess960=chess960)

    def push(self, uci: str) -> None:
        # parse_uci reads castling in either notation but refuses a move python-chess finds
        # illegal; a bug adapter plays its own wrong moves (P@a1 ...) too, so those are pushed
        # as they are written
        try:
            move = self.board.parse_uci(uci)
        except chess.IllegalMoveError:
            move = chess.Move.from_uci(uci)
        self.board.push(move)


def perftree_main(adapter_class: type[Adapter], argv: list[str] | None = None) -> None:
    """perftree protocol (DEPTH FEN [MOVES]) in the variant named by $CHESSKIT_VARIANT."""
    args = sys.argv[1:] if argv is None else argv
    depth, fen = int(args[0]), args[1]
    moves = args[2].split() if len(args) > 2 else []
    adapter = adapter_class()
    adapter.set_fen(fen, chess960=pchelper.looks_chess960(fen), variant=os.environ.get("CHESSKIT_VARIANT", "chess"))
    for move in moves:
        adapter.push(move)
    result = pchelper.divide(adapter, depth)
    for move, count in result.items():
        print(f"{move} {count}")
    print()
    print(sum(result.values()))


if __name__ == "__main__":
    perftree_main(Adapter)
