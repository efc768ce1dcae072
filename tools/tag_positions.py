#!/usr/bin/env python3
"""Tag the bundled positions: derive each position's tags with python-chess and write them
as a ``tags "..."`` operation on its line (and a ``# Tags:`` line in the file's header).

    python3 tools/tag_positions.py positions            # rewrite positions/*.epd
    python3 tools/tag_positions.py --check positions    # exit 1 if a file is not up to date

Every tag is computed here by python-chess, never by chesskit, from the position and the
moves of its first two plies (the moves perft(2) makes). What each tag means:

    check             the side to move is in check
    double-check      the side to move is in double check, or a move gives double check
    discovered-check  a move gives check by a piece other than the one that moved (exactly
                      one checker; for castling the piece that moved is the rook)
    ep                a legal en-passant capture
    ep-pin            an en-passant capture that is pseudo-legal but illegal while the side
                      to move is not in check (a pin: along a rank or a diagonal)
    ep-check          an en-passant capture, legal or not, while the side to move is in check
    castling          a legal castling move (standard chess)
    960-castling      a legal castling move (a Chess960 position)
    promotion         a legal promotion
    underpromotion    a promotion to a knight, bishop or rook whose outcome (check, checkmate,
                      stalemate) differs from the queen promotion's on the same move
    checkmate         the side to move is checkmated, or a move mates
    stalemate         the side to move is stalemated, or a move stalemates
    pin               a piece of the side to move is pinned to its king
    cannot-arise      python-chess's status() calls the position invalid, a side has more
                      promoted pieces than missing pawns, or it is in a double check that no
                      move gives (no checker is a bishop, rook or queen with a square between
                      it and the king); chesskit counts these with a note

"a move" is a legal move at the first or the second ply. ep, castling, promotion,
discovered-check, double-check (by a move) and checkmate (by a move) are what chesskit's
leaf counters count at depths 1 and 2: tests/suites/test_tags.py checks the files against
them, a second, independent derivation.

A position is read as its suite reads it: Chess960 in a file whose name holds ``960``; an
en-passant square python-chess's status() calls invalid is removed (chesskit and Stockfish
ignore it, see tools/make_impossible.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import chess

TAG_ORDER = (
    "check",
    "double-check",
    "discovered-check",
    "ep",
    "ep-pin",
    "ep-check",
    "castling",
    "960-castling",
    "promotion",
    "underpromotion",
    "checkmate",
    "stalemate",
    "pin",
    "cannot-arise",
)
HEADER = (
    "# Tags: derived with python-chess {version} from each position and the moves of its first two\n"
    "# plies, by: python3 tools/tag_positions.py positions (what each tag means: positions/README.md)"
)
_TAGS_OP = re.compile(r'\s*tags\s+"[^"]*"\s*;')
_ID_OP_END = re.compile(r'id\s+"[^"]*"\s*;')


def board_of(fen4: str, chess960: bool) -> chess.Board:
    board = chess.Board(fen4 + " 0 1", chess960=chess960)
    if board.status() & chess.STATUS_INVALID_EP_SQUARE:
        board.ep_square = None
    return board


def _too_much_material(board: chess.Board) -> bool:
    """More promoted pieces than missing pawns (python-chess's status() does not check it):
    a side with P pawns has at most 8 - P pieces beyond 1 queen, 2 rooks, 2 bishops, 2 knights."""
    for color in chess.COLORS:
        pawns = len(board.pieces(chess.PAWN, color))
        extra = sum(
            max(0, len(board.pieces(piece, color)) - start)
            for piece, start in ((chess.QUEEN, 1), (chess.ROOK, 2), (chess.BISHOP, 2), (chess.KNIGHT, 2))
        )
        if pawns + extra > 8:
            return True
    return False


def _impossible_double_check(board: chess.Board) -> bool:
    """A double check no move gives: one of the checkers must be a bishop, rook or queen
    with a square between it and the king (the line the other checker's move uncovered)."""
    king = board.king(board.turn)
    checkers = board.checkers()
    if king is None or len(checkers) < 2:
        return False
    return not any(
        board.piece_type_at(sq) in (chess.BISHOP, chess.ROOK, chess.QUEEN) and chess.between(sq, king)
        for sq in checkers
    )


def _outcome(board: chess.Board) -> tuple[int, bool, bool]:
    return len(board.checkers()), board.is_checkmate(), board.is_stalemate()


def _moved_to(board: chess.Board, move: chess.Move) -> int:
    """Where the piece that moved stands after ``move`` (for castling: the rook)."""
    if not board.is_castling(move):
        return move.to_square
    rank = chess.square_rank(move.from_square)
    kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
    return chess.square(5 if kingside else 3, rank)


def _ply(board: chess.Board, chess960: bool, tags: set[str]) -> None:
    """The tags the moves of ``board`` (one ply) show."""
    in_check = board.is_check()
    for move in board.generate_pseudo_legal_ep():
        if in_check:
            tags.add("ep-check")
        if board.is_legal(move):
            tags.add("ep")
        elif not in_check:
            tags.add("ep-pin")
    promotions: dict[tuple[int, int], dict[int, tuple]] = {}
    for move in board.legal_moves:
        if board.is_castling(move):
            tags.add("960-castling" if chess960 else "castling")
        moved_to = _moved_to(board, move)
        board.push(move)
        outcome = _outcome(board)
        checkers = list(board.checkers())
        board.pop()
        if len(checkers) >= 2:
            tags.add("double-check")
        elif len(checkers) == 1 and checkers[0] != moved_to:
            tags.add("discovered-check")
        if outcome[1]:
            tags.add("checkmate")
        if outcome[2]:
            tags.add("stalemate")
        if move.promotion:
            tags.add("promotion")
            promotions.setdefault((move.from_square, move.to_square), {})[move.promotion] = (outcome[0] > 0, *outcome[1:])
    for results in promotions.values():
        queen = results.get(chess.QUEEN)
        if any(piece != chess.QUEEN and result != queen for piece, result in results.items()):
            tags.add("underpromotion")


def position_tags(fen4: str, chess960: bool) -> list[str]:
    """The tags of a position (its first four FEN fields), in TAG_ORDER."""
    board = board_of(fen4, chess960)
    tags: set[str] = set()
    invalid = chess.Board(fen4 + " 0 1", chess960=chess960).status() != chess.STATUS_VALID
    if invalid or _too_much_material(board) or _impossible_double_check(board):
        tags.add("cannot-arise")
    checkers = len(board.checkers())
    if checkers:
        tags.add("check")
    if checkers >= 2:
        tags.add("double-check")
    if board.is_checkmate():
        tags.add("checkmate")
    if board.is_stalemate():
        tags.add("stalemate")
    king = board.king(board.turn)
    if king is not None and any(
        board.is_pinned(board.turn, sq) for sq in chess.SquareSet(board.occupied_co[board.turn]) if sq != king
    ):
        tags.add("pin")
    _ply(board, chess960, tags)
    for move in list(board.legal_moves):
        board.push(move)
        _ply(board, chess960, tags)
        board.pop()
    return [tag for tag in TAG_ORDER if tag in tags]


def tagged_line(line: str, chess960: bool) -> str:
    """``line`` (a position line of a bundled file) with its ``tags`` operation rewritten."""
    bare = _TAGS_OP.sub("", line, count=1)
    tags = position_tags(" ".join(bare.split()[:4]), chess960)
    if not tags:
        return bare
    op = f' tags "{" ".join(tags)}";'
    match = _ID_OP_END.search(bare)
    if match is None:
        raise SystemExit(f"no id operation to put the tags after: {line[:80]}")
    return bare[: match.end()] + op + bare[match.end() :]


def tagged_file(text: str, chess960: bool) -> str:
    header = HEADER.format(version=chess.__version__)
    out: list[str] = []
    lines = text.split("\n")
    skip_header_tail = False
    for line in lines:
        if skip_header_tail:
            skip_header_tail = False
            if line.startswith("# plies, by: python3 tools/tag_positions.py"):
                continue
        if line.startswith("# Tags: derived with python-chess"):
            skip_header_tail = True
            continue
        if line.startswith("# Format: positions/README.md"):
            out.extend(header.split("\n"))
        stripped = line.strip()
        out.append(line if not stripped or stripped.startswith("#") else tagged_line(line, chess960))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the positions folder (its *.epd files are tagged)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file is not up to date")
    args = parser.parse_args(argv)
    stale = []
    for path in sorted(args.folder.glob("*.epd")):
        text = path.read_text(encoding="utf-8")
        new = tagged_file(text, "960" in path.stem)
        if new != text:
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{path}: {'not up to date' if args.check else 'tagged'}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
