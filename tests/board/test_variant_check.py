"""A variant's "in check" as show and explore say it, against python-chess's ``chess.variant``
boards (the oracle): ``show --json``'s ``check``, the side to move's status (in check,
checkmate, stalemate) and the check marks of explore's SAN. Atomic above all: a king next to
the enemy king is never in check (qa30c item 1: show and explore asked only whether the
king was attacked, while the generator and the ``--stats`` counters knew better), checked
on positions reached by random play that drives the kings together; antichess (no check),
racing kings (no move gives check) and three-check (checks counted) by plain random play.
"""

from __future__ import annotations

import json
import random

import chess
import chess.variant  # noqa: F401 (the oracle's boards: a test dependency, never skipped)
import pytest

from chesskit.board.describe import game_status
from variant_oracles import PYTHON_CHESS_BOARDS, python_chess_board

pytestmark = pytest.mark.variant_walk

# atomic positions where the kings stand, or can step, next to each other
ATOMIC_STARTS = [
    "8/8/8/3k4/8/4K3/8/7R w - - 0 1",
    "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",
    "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQkq - 0 1",
    "2r1k3/1p6/8/8/8/8/6P1/3RK1N1 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
]


def show(cli, fen: str, variant: str, *more: str) -> dict:
    result = cli("show", fen, "--variant", variant, "--json", *more)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def explore_san(cli, fen: str, variant: str) -> dict[str, str]:
    result = cli("explore", fen, "1", "--variant", variant, "--json")
    assert result.exit_code == 0, result.output
    return {row["move"]: row["san"] for row in json.loads(result.stdout)["moves"]}


def expected_status(board) -> str:
    """``game_status``'s words for python-chess's board (variant ends are not compared)."""
    if board.is_checkmate():
        return " (checkmate)"
    if board.is_stalemate():
        return " (stalemate)"
    return " (in check)" if board.is_check() else ""


def agree(cli, variant: str, fen: str) -> None:
    """show's check and status, and explore's SAN of every move, as python-chess has them."""
    board = python_chess_board(variant, fen)
    info = show(cli, fen, variant)
    assert info["check"] == board.is_check(), (variant, fen)
    if not board.is_variant_end():
        assert game_status(info) == expected_status(board), (variant, fen)
    if info["legal_moves"]:
        sans = explore_san(cli, fen, variant)
        for move in board.legal_moves:
            assert sans[move.uci()] == board.san(move), (variant, fen, move.uci())


def kings_near(board, distance: int) -> bool:
    white, black = board.king(chess.WHITE), board.king(chess.BLACK)
    return white is not None and black is not None and chess.square_distance(white, black) <= distance


def atomic_positions(seed: int, count: int) -> list[str]:
    """Atomic positions with the kings at most two squares apart, by random play in which
    a king steps towards the other king more often than chance would have it."""
    import chess.variant

    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        board = chess.variant.AtomicBoard(rng.choice(ATOMIC_STARTS))
        for _ in range(rng.randrange(4, 40)):
            if board.is_game_over():
                break
            if kings_near(board, 2) and rng.random() < 0.5:
                found.append(board.fen())
            moves = list(board.legal_moves)
            enemy = board.king(not board.turn)
            closer = [m for m in moves if m.from_square == board.king(board.turn)
                      and chess.square_distance(m.to_square, enemy) <= 2]
            board.push(rng.choice(closer if closer and rng.random() < 0.6 else moves))
    return found[:count]


@pytest.mark.parametrize(
    "fen, check, status, sans",
    [
        ("8/8/8/3kK3/8/8/8/3R4 b - - 0 1", False, "", {}),
        ("kb6/pKp5/P1P5/8/8/8/8/8 b - - 0 1", False, " (stalemate)", {}),
        ("8/8/8/3k4/8/4K3/8/7R w - - 0 1", False, "", {"e3d4": "Kd4", "e3e4": "Ke4", "h1d1": "Rd1+"}),
    ],
)
def test_touching_kings_are_not_in_check(cli, fen, check, status, sans):
    info = show(cli, fen, "atomic")
    assert info["check"] is check
    assert game_status(info) == status
    explored = explore_san(cli, fen, "atomic") if sans else {}
    assert {move: explored[move] for move in sans} == sans
    agree(cli, "atomic", fen)


def test_touching_kings_text(cli):
    result = cli("show", "kb6/pKp5/P1P5/8/8/8/8/8 b - - 0 1", "--variant", "atomic")
    assert "side to move: black (stalemate)" in result.stdout
    result = cli("show", "8/8/8/3kK3/8/8/8/3R4 b - - 0 1", "--variant", "atomic")
    assert "side to move: black\n" in result.stdout


def test_atomic_random_positions_with_kings_near(cli):
    positions = atomic_positions(seed=30, count=40)
    import chess.variant

    assert sum(kings_near(chess.variant.AtomicBoard(fen), 1) for fen in positions) >= 10
    for fen in positions:
        agree(cli, "atomic", fen)


@pytest.mark.parametrize("variant", ["3check", "racingkings", "antichess"])
def test_other_variants_check_by_random_play(cli, variant):
    """Antichess has no check, racing kings forbids giving one, three-check counts them:
    show's check and status and explore's SAN as python-chess has them, and three-check's
    counters after the game's moves played by chesskit (``show --moves``) as python-chess
    counts them."""
    import chess.variant

    rng = random.Random(variant)
    cls = getattr(chess.variant, PYTHON_CHESS_BOARDS[variant])
    for _ in range(8):
        board = cls()
        for _ in range(rng.randrange(2, 40)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        agree(cli, variant, board.fen())
        if variant == "3check":
            played = show(cli, cls.starting_fen, variant, "--moves", " ".join(m.uci() for m in board.move_stack))
            given = {"white": 3 - board.remaining_checks[chess.WHITE], "black": 3 - board.remaining_checks[chess.BLACK]}
            assert played["checks_given"] == given, board.fen()
            assert played["check"] == board.is_check(), board.fen()
