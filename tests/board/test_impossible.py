"""Positions that cannot arise in a game but whose move tree is defined: chesskit counts
them as Stockfish and python-chess do (the counts here are computed by those two, in the
test), says why they cannot arise in ``notes``, and refuses them with ``strict=True``.
Positions without a defined tree (no king, the side not to move in check) and pawns on
the first or last rank stay refused."""

from __future__ import annotations

import re
import subprocess

import chess
import pytest

from chesskit.board.board import Board
from chesskit.board.fen import parse_epd, parse_fen
from chesskit.core.position import MAX_MOVES
from chesskit.errors import FenError
from helpers import REPO, pc_perft

IMPOSSIBLE = REPO / "positions" / "impossible.epd"
# Stockfish 15.1 lets dxc6 e.p. "evade" the f2 pawn's check here (and crashes at depth 2);
# python-chess counts it by the rules, and so does chesskit
STOCKFISH_DISAGREES = {"tricky-ep-unrelated-check"}


def _suite_lines() -> list[tuple[str, str]]:
    """(id, 6-field FEN as written) of every line of positions/impossible.epd."""
    found = []
    for raw in IMPOSSIBLE.read_text().splitlines():
        if raw.strip() and not raw.startswith("#"):
            record = parse_epd(raw)
            found.append((record.ops["id"], record.given))
    return found


LINES = _suite_lines()
IDS = [ident for ident, _ in LINES]


def pychess_board(fen: str) -> chess.Board:
    """The position as python-chess counts it, without an en-passant square its own
    status() calls invalid: Stockfish ignores those squares, python-chess would let a
    pawn take "en passant" whatever stands in front of them."""
    board = chess.Board(fen)
    if board.status() & chess.STATUS_INVALID_EP_SQUARE:
        board.ep_square = None
    return board



def stockfish_perft(stockfish: str, fen: str, depth: int) -> int:
    """Stockfish's ``go perft`` of the position as python-chess reads it (castling rights
    whose king or rook is missing dropped: Stockfish would look for another rook)."""
    commands = [f"position fen {pychess_board(fen).fen(en_passant='fen')}", f"go perft {depth}", "quit"]
    proc = subprocess.run(
        [stockfish], input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=120
    )
    match = re.search(r"Nodes searched: (\d+)", proc.stdout)
    assert match, proc.stdout[-300:]
    return int(match.group(1))


def test_the_suite_holds_what_its_header_says():
    assert len(LINES) >= 20
    assert {"tricky-align-diag-1", "tricky-ep-unrelated-check", "too-many-pieces-271-moves"} <= set(IDS)


@pytest.mark.parametrize("ident, fen", LINES, ids=IDS)
def test_counted_like_python_chess(ident, fen):
    board = Board(fen)
    expected = pychess_board(fen)
    assert sorted(board.legal_moves()) == sorted(m.uci() for m in expected.legal_moves)
    assert board.perft(2) == pc_perft(expected, 2)


@pytest.mark.stockfish
@pytest.mark.parametrize("ident, fen", [line for line in LINES if line[0] not in STOCKFISH_DISAGREES])
def test_counted_like_stockfish(stockfish_path, ident, fen):
    board = Board(fen)
    depth = 3 if ident != "too-many-pieces-271-moves" else 2
    assert board.perft(depth) == stockfish_perft(stockfish_path, fen, depth)
    assert board.perft(depth, threads=2, hash_mb=1) == board.perft(depth)


@pytest.mark.parametrize("ident, fen", LINES, ids=IDS)
def test_each_position_says_why_it_cannot_arise_and_strict_refuses_it(ident, fen):
    board = Board(fen)
    assert board.notes, ident
    with pytest.raises(FenError) as err:
        Board(fen, strict=True)
    # the strict refusal is the first note, word for word (the note adds what is done about it)
    assert board.notes[0].startswith(f"{err.value.field}: {err.value.reason}")


@pytest.mark.parametrize("ident, fen", LINES, ids=IDS)
def test_debug_checker_raises_no_false_alarm(ident, fen):
    assert Board(fen).debug(2).ok


def test_python_chess_tricky_perft_all_count(perft_sets):
    """Every position of python-chess's tricky.perft (read from $CHESSKIT_PERFT_SETS, not
    copied: it is GPL), to the counts in that file, which python-chess produced."""
    checked = 0
    board = None
    for line in (perft_sets / "tricky.perft").read_text().splitlines():
        if line.startswith("epd "):
            board = Board(line[4:].strip())
        elif line.startswith("perft ") and board is not None:
            _, depth, nodes = line.split()
            if int(nodes) <= 200_000:
                assert board.perft(int(depth)) == int(nodes), board.fen()
                checked += 1
    assert checked > 40


# ---------------------------------------------------------------- move buffers


def test_more_legal_moves_than_256():
    fen = dict(LINES)["too-many-pieces-271-moves"]
    board = Board(fen)
    expected = chess.Board(fen)
    assert expected.legal_moves.count() == 271
    assert len(board.legal_moves()) == 271 and len(board.divide(1)) == 271
    assert board.perft(2) == pc_perft(expected, 2)
    assert board.stats(1)["nodes"] == 271 and len(board.divide_stats(1)) == 271
    assert MAX_MOVES >= 271


def test_the_move_buffer_bound_holds_for_queen_boards():
    """Boards full of queens, random kings: far more moves than 256, never more than the bound."""
    import random

    rng = random.Random(7)
    most = 0
    for _ in range(60):
        squares = rng.sample(range(64), 40)
        board = chess.Board(None)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2 : rng.randrange(10, 40)]:
            board.set_piece_at(sq, chess.Piece(chess.QUEEN, chess.WHITE))
        if board.is_attacked_by(chess.WHITE, squares[1]):
            continue
        ours = Board(board.fen())
        count = len(ours.legal_moves())
        assert count == board.legal_moves.count()
        most = max(most, count)
    assert most <= MAX_MOVES


# ---------------------------------------------------------------- still refused


@pytest.mark.parametrize(
    "fen, fragment",
    [
        ("4kP2/8/8/8/8/8/8/4K3 w - - 0 1", "pawns never stand on the first or last rank"),
        ("4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "pawns never stand on the first or last rank"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "white has no king"),
        ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "white has 2 kings"),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "black (not to move) is in check"),
        ("8/8/8/3k4/4K3/8/8/8 w - - 0 1", "kings stand next to each other"),
    ],
)
def test_positions_without_a_defined_tree_stay_refused(fen, fragment):
    for strict in (False, True):
        with pytest.raises(FenError, match=re.escape(fragment)):
            parse_fen(fen, strict=strict)
