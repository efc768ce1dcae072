"""Seeded random positions for differential tests, made with python-chess (test-only)."""

from __future__ import annotations

import random

import chess


def random_boards(seed: int, count: int, chess960: bool = False, max_plies: int = 80) -> list[chess.Board]:
    """``count`` positions reached by random legal play, from the start position or from
    random Chess960 start arrays; games that end early are restarted."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < count:
        if chess960:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board()
        plies = rng.randrange(1, max_plies)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            # prefer the special moves now and then so they show up often
            special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
            board.push(rng.choice(special) if special and rng.random() < 0.5 else rng.choice(moves))
        if board.is_valid():
            boards.append(board.copy(stack=False))
    return boards
