"""The variant counters (``perft --stats --variant NAME``) computed by python-chess's
``chess.variant`` boards: a plain leaf walk that applies docs/variants.md's definitions
("Counters") to each move made, independently of chesskit's core. Test-only (GPL).

A node where the game is over (``is_variant_end``) has no children, as in
``variant_oracles``; checkmates count a check after which the side to move has no legal
move by the variant's move rules (python-chess's ``generate_legal_moves``, which for
kingofthehill and 3check ignores the game's end).
"""

from __future__ import annotations

import chess

from variant_oracles import python_chess_board

CENTRE = chess.BB_D4 | chess.BB_E4 | chess.BB_D5 | chess.BB_E5
NO_CHECKS = {"antichess", "giveaway", "racingkings"}


def _count(variant: str, board, move, row: dict[str, int]) -> None:
    """Add ``move`` (not yet made) to ``row``, make it and leave it made."""
    row["nodes"] += 1
    mover = board.turn
    capture = board.is_capture(move) and move.drop is None
    promoted_victim = bool(getattr(board, "promoted", 0) & chess.BB_SQUARES[move.to_square])
    occupied = chess.popcount(board.occupied)
    king_before = board.king(mover)
    castling = move.drop is None and board.is_castling(move)
    kingside = castling and board.is_kingside_castling(move)
    checks_left = getattr(board, "remaining_checks", [3, 3])[mover]
    if move.drop is not None:
        row["drops"] += 1
    else:
        row["captures"] += capture
        row["en_passant"] += board.is_en_passant(move)
        row["castles"] += castling
        row["promotions"] += move.promotion is not None
        row["king_promotions"] += move.promotion == chess.KING
        if variant == "crazyhouse":
            row["promoted_captures"] += capture and promoted_victim and not board.is_en_passant(move)
    board.push(move)
    them = board.turn
    if variant == "atomic" and capture:
        row["exploded_pieces"] += occupied - chess.popcount(board.occupied)
        row["king_explosions"] += board.king(them) is None
    king = board.king(mover)
    if variant == "kingofthehill" and king is not None and chess.BB_SQUARES[king] & CENTRE:
        row["goal_reached"] += 1
    if variant == "racingkings" and chess.square_rank(king) == 7 and chess.square_rank(king_before) != 7:
        row["goal_reached"] += 1
    if variant == "3check" and board.remaining_checks[mover] <= 0 < checks_left:
        row["third_checks"] += 1
    if variant in ("antichess", "giveaway", "horde"):
        if not board.occupied_co[them]:
            row["no_pieces"] += 1
        elif variant != "horde" and not any(board.generate_legal_moves()):
            row["no_moves"] += 1
    if variant in NO_CHECKS:
        return
    checkers = board.checkers_mask()
    if not checkers:
        return
    row["checks"] += 1
    row["drop_checks"] += move.drop is not None
    if chess.popcount(checkers) > 1:
        row["double_checks"] += 1
    else:
        landed = move.to_square
        if castling:  # the rook's square
            landed = chess.square(5 if kingside else 3, chess.square_rank(move.from_square))
        row["discovery_checks"] += chess.lsb(checkers) != landed
    row["checkmates"] += not any(_moves_ignoring_the_end(variant, board))


def _moves_ignoring_the_end(variant: str, board):
    """The side to move's legal moves by the variant's move rules, also where the game is
    over (python-chess lists none there): kingofthehill's and 3check's are chess moves."""
    if variant in ("kingofthehill", "3check"):
        return chess.Board(" ".join(board.fen().split()[:4]), chess960=board.chess960).generate_legal_moves()
    return board.generate_legal_moves()


def _children(board) -> list:
    return [] if board.is_variant_end() else list(board.legal_moves)


def _walk(variant: str, board, depth: int, rows: list[dict[str, int]], ply: int) -> None:
    for move in _children(board):
        _count(variant, board, move, rows[ply])
        if ply + 1 < depth:
            _walk(variant, board, depth, rows, ply + 1)
        board.pop()


def python_chess_counters(variant: str, fen: str, depth: int, names, chess960: bool = False) -> list[dict[str, int]]:
    """The counters ``names`` of the moves made at plies 1..``depth``, one dict per ply."""
    board = python_chess_board(variant, fen, chess960)
    rows = [dict.fromkeys(_ALL, 0) for _ in range(depth)]
    _walk(variant, board, depth, rows, 0)
    return [{name: row[name] for name in names} for row in rows]


def python_chess_divide_counters(variant: str, fen: str, depth: int, names, chess960: bool = False) -> dict[str, dict[str, int]]:
    """Per root move, the counters ``names`` of the moves made at ply ``depth`` below it."""
    board = python_chess_board(variant, fen, chess960)
    out = {}
    for move in _children(board):
        rows = [dict.fromkeys(_ALL, 0) for _ in range(depth)]
        _count(variant, board, move, rows[0])
        if depth > 1:
            _walk(variant, board, depth, rows, 1)
        board.pop()
        out[move.uci()] = {name: rows[depth - 1][name] for name in names}
    return out


_ALL = (
    "nodes", "captures", "en_passant", "castles", "promotions", "checks", "discovery_checks", "double_checks",
    "checkmates", "drops", "drop_checks", "promoted_captures", "exploded_pieces", "king_explosions", "third_checks",
    "goal_reached", "king_promotions", "no_pieces", "no_moves",
)
