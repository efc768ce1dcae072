#!/usr/bin/env python3
"""A UCI `go perft` engine (python-chess's moves) with a perft hash table that is never
cleared between positions and is keyed by the placement, the side to move and the depth
only: no castling rights, no en-passant square. Within one position's tree it counts right
where no two nodes differ only by those; asked a position after another with the same
pieces and other rights, it reuses the other's counts. The state an engine keeps between
positions, which a descent from the position alone reads as an unmake that does not restore
the state."""

import sys

import chess

TABLE: dict[tuple[str, bool, int], int] = {}


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    key = (board.board_fen(), board.turn, depth)  # the bug: castling rights and e.p. left out
    if key not in TABLE:
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        TABLE[key] = total
    return TABLE[key]


def main() -> None:
    board = chess.Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name uci_hash_kept\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            cut = words.index("moves") if "moves" in words else len(words)
            board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:cut]))
            for move in words[cut + 1:]:
                board.push_uci(move)
        elif words[:2] == ["go", "perft"]:
            depth, total = int(words[2]), 0
            for move in board.legal_moves:
                board.push(move)
                count = perft(board, depth - 1) if depth > 1 else 1
                board.pop()
                print(f"{move.uci()}: {count}")
                total += count
            print(f"\nNodes searched: {total}\n", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
