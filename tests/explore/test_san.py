"""SAN of every legal move, checked against python-chess (the oracle), and reading SAN back."""

from __future__ import annotations

import chess
import pytest

from chesskit.board.board import Board
from chesskit.errors import IllegalMoveError
from chesskit.explore.san import find_move, path_labels, san
from helpers import KIWIPETE, random_boards

POSITIONS = [
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # two rooks reach b1..g1: Rad1, Rhd1
    "k7/8/8/8/2N1N3/8/2N1N3/K7 w - - 0 1",  # four knights reach d3 and the others: Nc2d4-style
    "7k/1P6/8/8/8/8/6p1/K6R b - - 0 1",  # promotions, a capture with check
]


def check_all(fen: str, chess960: bool = False) -> int:
    ours = Board(fen, chess960=chess960 or None)
    theirs = chess.Board(fen, chess960=chess960)
    legal = ours.legal_moves()
    for move in legal:
        expected = theirs.san(theirs.parse_uci(move))
        assert san(ours, move, legal) == expected, (fen, move)
        assert find_move(ours, expected, legal) == move, (fen, expected)
    return len(legal)


@pytest.mark.parametrize("fen", POSITIONS)
def test_san_matches_python_chess(fen):
    assert check_all(fen) > 0


def test_san_matches_python_chess_on_random_games():
    for board in random_boards(seed=21, count=12):
        check_all(board.fen())


def test_chess960_castling_is_o_o_in_king_takes_rook_notation():
    for board in random_boards(seed=960, count=6, chess960=True, max_plies=30):
        check_all(board.fen(), chess960=True)
    # the king one step from its rook: f1g1 takes the rook, O-O
    fen = "4k3/8/8/8/8/8/8/5KRn w G - 0 1"
    assert san(Board(fen, chess960=True), "f1g1") == "O-O"


def test_find_move_reads_uci_either_castling_notation_and_check_marks():
    board = Board(KIWIPETE)
    assert find_move(board, "e1g1") == "e1g1"
    assert find_move(board, "e1h1") == "e1g1"
    assert find_move(board, "O-O-O") == "e1c1"
    assert find_move(board, "0-0") == "e1g1"
    assert find_move(board, "Bxa6") == "e2a6"
    assert find_move(board, "Nxf7") == find_move(board, "Nxf7+") == "e5f7"
    assert find_move(board, "Ke3") is None
    assert find_move(board, "e9e4") is None


def test_path_labels_number_the_moves_from_the_fen():
    board = Board(KIWIPETE)
    assert path_labels(board, ["a2a4", "b4a3", "e1g1"]) == [
        ("1. a4", "a2a4"),
        ("1... bxa3", "b4a3"),
        ("2. O-O", "e1g1"),
    ]
    assert board.move_stack == []


@pytest.mark.variant_walk
def test_crazyhouse_drops_in_san_match_python_chess():
    """Drops are ``N@f3`` and a pawn's ``@e4`` (python-chess's SAN), with check marks, and
    are read back from SAN and from UCI in either case."""
    import chess.variant

    fen = "r1bqk2r/pppp1pp1/2n5/2b1p3/4P3/5N2/PPPP1PPP/RNBQK2R[PNb] w KQkq - 4 5"
    ours = Board(fen, variant="crazyhouse")
    theirs = chess.variant.CrazyhouseBoard(fen)
    legal = ours.legal_moves()
    drops = [m for m in legal if "@" in m]
    assert {m[0] for m in drops} == {"P", "N"}
    for move in legal:
        expected = theirs.san(theirs.parse_uci(move))
        assert san(ours, move, legal) == expected, move
        assert find_move(ours, expected, legal) == move, expected
    assert san(ours, "N@g5", legal) == "N@g5" and san(ours, "P@d6", legal) == "@d6"
    assert find_move(ours, "P@d6", legal) == "P@d6" and find_move(ours, "N@g5+", legal) == "N@g5"
    assert find_move(ours, "B@b5", legal) is None  # white holds no bishop
    # a lower-case letter is a FEN's: black's pawn, with white to move, is refused, as --moves does
    with pytest.raises(IllegalMoveError, match="'p' is a black pawn and white is to move"):
        find_move(ours, "p@d6", legal)
    ours.push("N@g5")
    assert find_move(ours, "b@e3", ours.legal_moves()) == find_move(ours, "B@e3", ours.legal_moves()) == "B@e3"


def test_find_move_reads_long_algebraic_as_engines_print_it():
    # engines print e2-e4 and Ng1-f3 (Sjaak II): typed into explore they were refused
    board = Board(KIWIPETE)
    assert find_move(board, "e2-a6") is None  # a bishop's move needs its letter
    assert find_move(board, "Be2-a6") == "e2a6"
    assert find_move(board, "Be2xa6") == "e2a6" and find_move(board, "Ne5xf7+") == "e5f7"
    assert find_move(board, "a2-a4") == "a2a4" and find_move(board, "d5-d6") == "d5d6"
    assert find_move(board, "Ke1-g1") == "e1g1"  # castling, as the king's move
    assert find_move(board, "Nd2-f3") is None and find_move(board, "Qe2-a6") is None  # no such piece there
    promo = Board("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1")
    assert find_move(promo, "b7-b8=N") == "b7b8n" and find_move(promo, "b7-b8Q") == "b7b8q"


def _spellings(pc: chess.Board, move: chess.Move) -> list[str]:
    """SAN as PGNs and engine logs also write it: the from square's file, rank or both
    (``Nge2``, ``N1e2``, ``Ng1e2``), and a promotion without ``=`` (``a8Q``)."""
    piece = pc.piece_at(move.from_square)
    frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
    promo = chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    if piece.piece_type == chess.PAWN:
        return [to + promo] if frm[0] == to[0] else [frm[0] + "x" + to + promo]
    if pc.is_castling(move):
        return []
    letter = piece.symbol().upper()
    return [letter + frm[0] + to, letter + frm[1] + to, letter + frm + to]


def test_find_move_reads_san_with_more_of_the_from_square_and_promotions_without_equals():
    # QA 40 #4: explore refused Nge2, N1e2, Ng1e2 and a8Q, which python-chess reads, as illegal
    assert find_move(Board("4k3/8/8/8/8/8/8/N3K1N1 w - - 0 1"), "Nge2") == "g1e2"
    assert find_move(Board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"), "a8Q") == "a7a8q"
    opening = Board("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    assert find_move(opening, "d5") is None  # a push to d5, not exd5
    assert find_move(Board("4k3/8/8/8/8/8/8/N3K1N1 w - - 0 1"), "Nae2") is None  # no such knight move
    read = 0
    for pc in random_boards(40, 60):
        board = Board(pc.fen())
        legal = board.legal_moves()
        for move in pc.legal_moves:
            for text in _spellings(pc, move):
                try:
                    meant = pc.parse_san(text)
                except ValueError:  # ambiguous (R8d8 with rooks on b8 and e8): refused by both
                    assert find_move(board, text, legal) is None, (pc.fen(), text)
                    continue
                assert meant == move, text
                assert find_move(board, text, legal) == move.uci(), (pc.fen(), text)
                read += 1
    assert read > 1000
