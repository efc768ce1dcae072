#!/usr/bin/env python3
"""A perftree script that writes Chess960 castling as the king's move to its destination
(`g1c1` for the king on g1 castling with the rook on b1, `g1g1` where the king stays), not
as UCI_Chess960's king taking its rook; it reads king takes rook in its moves argument.

    castle_kts960.py DEPTH FEN [MOVES]
"""

import sys

import chess

import pchelper


def main() -> None:
    depth, fen = int(sys.argv[1]), sys.argv[2]
    moves = sys.argv[3].split() if len(sys.argv) > 3 else []
    adapter = pchelper.Adapter()
    adapter.set_fen(fen, chess960=pchelper.looks_chess960(fen))
    for move in moves:
        adapter.push(move)
    board = adapter.board
    result = pchelper.divide(adapter, depth)
    for uci, count in result.items():
        move = chess.Move.from_uci(uci)
        if board.chess960 and board.is_castling(move):
            file = 6 if board.is_kingside_castling(move) else 2
            uci = uci[:2] + chess.square_name(chess.square(file, chess.square_rank(move.from_square)))
        print(f"{uci} {count}")
    print()
    print(sum(result.values()))


if __name__ == "__main__":
    main()
