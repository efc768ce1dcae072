"""The two variant oracles, one implementation for every variant test: perft and divide of
(variant, FEN, depth) by Fairy-Stockfish (PyPI ``pyffish``) and by python-chess's
``chess.variant`` boards.

Both count a node where the game is over (a variant win, loss or draw) as a leaf with no
children, the contract chesskit follows (docs/variants.md). Test-only: GPL, like
python-chess, and never imported by ``chesskit/``. ``require_oracles()`` imports both: a
test module whose oracle is missing fails (both are in the ``test`` extra).

Names are the core's canonical ones (Fairy-Stockfish's UCI_Variant spelling); ``giveaway``
is antichess with castling. FENs are passed to each oracle as given: both read 3check's
``3+3`` remaining-checks field and crazyhouse's ``[..]`` pockets.
"""

from __future__ import annotations

import pytest

# canonical name -> python-chess board class name (chess.variant)
PYTHON_CHESS_BOARDS = {
    "chess": None,
    "atomic": "AtomicBoard",
    "crazyhouse": "CrazyhouseBoard",
    "kingofthehill": "KingOfTheHillBoard",
    "3check": "ThreeCheckBoard",
    "antichess": "AntichessBoard",
    "giveaway": "GiveawayBoard",
    "horde": "HordeBoard",
    "racingkings": "RacingKingsBoard",
}


def require_oracles() -> None:
    """Import the oracles, pyffish and python-chess's variants: test dependencies (the
    ``test`` extra), so a missing one fails the calling test module instead of skipping it."""
    import chess.variant  # noqa: F401
    import pyffish  # noqa: F401


def python_chess_board(variant: str, fen: str, chess960: bool = False):
    import chess
    import chess.variant

    name = PYTHON_CHESS_BOARDS[variant]
    cls = chess.Board if name is None else getattr(chess.variant, name)
    return cls(fen, chess960=chess960)


# ------------------------------------------------------------------ python-chess


def _pc_children(board) -> list:
    if board.is_variant_end():
        return []
    return list(board.legal_moves)


def _pc_perft(board, depth: int) -> int:
    if depth == 0:
        return 1
    moves = _pc_children(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += _pc_perft(board, depth - 1)
        board.pop()
    return total


def python_chess_perft(variant: str, fen: str, depth: int, chess960: bool = False) -> int:
    return _pc_perft(python_chess_board(variant, fen, chess960), depth)


def python_chess_divide(variant: str, fen: str, depth: int, chess960: bool = False) -> dict[str, int]:
    board = python_chess_board(variant, fen, chess960)
    out = {}
    for move in _pc_children(board):
        board.push(move)
        out[move.uci()] = _pc_perft(board, depth - 1)
        board.pop()
    return out


# ------------------------------------------------------------------ Fairy-Stockfish


def _sf_perft(variant: str, fen: str, moves: list[str], depth: int, chess960: bool) -> int:
    import pyffish

    if depth == 0:
        return 1
    children = pyffish.legal_moves(variant, fen, moves, chess960)
    if depth == 1:
        return len(children)
    return sum(_sf_perft(variant, fen, moves + [m], depth - 1, chess960) for m in children)


def fairy_perft(variant: str, fen: str, depth: int, chess960: bool = False) -> int:
    """perft by Fairy-Stockfish: every node's moves from ``pyffish.legal_moves`` (empty
    where the game is over), the moves replayed from ``fen`` so counters stay exact."""
    return _sf_perft(variant, fen, [], depth, chess960)


def fairy_divide(variant: str, fen: str, depth: int, chess960: bool = False) -> dict[str, int]:
    import pyffish

    return {m: _sf_perft(variant, fen, [m], depth - 1, chess960) for m in pyffish.legal_moves(variant, fen, [], chess960)}


def fairy_fen(variant: str, fen: str, moves: list[str], chess960: bool = False) -> str:
    import pyffish

    return pyffish.get_fen(variant, fen, moves, chess960)


# ------------------------------------------------------------------ both


def oracle_perft(variant: str, fen: str, depth: int, chess960: bool = False) -> int:
    """perft by both oracles; AssertionError (with both divides) where they disagree."""
    fairy = fairy_perft(variant, fen, depth, chess960)
    python = python_chess_perft(variant, fen, depth, chess960)
    if fairy != python:
        raise AssertionError(f"oracles disagree on {variant} {fen} depth {depth}: Fairy-Stockfish {fairy}, python-chess {python}")
    return fairy


def first_difference(mine: dict[str, int], theirs: dict[str, int]) -> str | None:
    """A line naming the first move where two divides differ, None if they agree."""
    for move in sorted(set(mine) | set(theirs)):
        if mine.get(move) != theirs.get(move):
            return f"{move}: {mine.get(move)} vs {theirs.get(move)}"
    return None


def perft_file(folder, name):
    """(id, FEN, [(depth, nodes), ...]) of each block of one of python-chess's .perft
    files (GPL: read from $CHESSKIT_PERFT_SETS, never copied here)."""
    path = folder / name
    if not path.is_file():
        pytest.skip(f"{name} is not in $CHESSKIT_PERFT_SETS")
    blocks: list = []
    for line in path.read_text().splitlines():
        word, _, rest = line.partition(" ")
        if word == "id":
            blocks.append([rest.strip(), None, []])
        elif word == "epd":
            blocks[-1][1] = rest.strip()
        elif word == "perft":
            depth, nodes = rest.split()
            blocks[-1][2].append((int(depth), int(nodes)))
    return blocks
