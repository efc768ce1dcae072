#!/usr/bin/env python3
"""A perftree script that writes standard castling as the king taking its rook (`e1h1`,
as chessops and lichess write it), and reads either spelling in its moves argument.

    castle_ktr.py [--bug NAME] DEPTH FEN [MOVES]     (--bug: bug_NAME's move generation)
"""

import importlib
import sys

import chess

import pchelper


def main() -> None:
    args = sys.argv[1:]
    adapter = pchelper.Adapter()
    if args[:1] == ["--bug"]:
        adapter = importlib.import_module(f"bug_{args[1]}").Adapter()
        args = args[2:]
    depth, fen = int(args[0]), args[1]
    moves = args[2].split() if len(args) > 2 else []
    adapter.set_fen(fen, chess960=pchelper.looks_chess960(fen))
    for move in moves:
        adapter.push(move)  # python-chess reads e1g1 and e1h1 alike in standard chess
    board = adapter.board
    result = pchelper.divide(adapter, depth)
    for uci, count in result.items():
        move = chess.Move.from_uci(uci)
        if not board.chess960 and board.piece_type_at(move.from_square) == chess.KING:
            step = chess.square_file(move.to_square) - chess.square_file(move.from_square)
            if abs(step) == 2:  # the king's two-square step: write the rook's corner instead
                corner = chess.square(7 if step > 0 else 0, chess.square_rank(move.from_square))
                uci = chess.square_name(move.from_square) + chess.square_name(corner)
        print(f"{uci} {count}")
    print()
    print(sum(result.values()))


if __name__ == "__main__":
    main()
