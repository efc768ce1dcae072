"""make / unmake (``chesskit.core.makemove``): after a make the state arrays are exactly
those of the resulting position loaded fresh from python-chess's FEN (every bitboard, the
castling rooks, the square array, side to move, en-passant square, both clocks), the
incremental Zobrist key equals the key computed from scratch, and unmake restores every
field as it was. The last-ply copy-make of perft writes the same bitboards as make, and
the keys perft looks a child up by before making its move (``child_keys``: the state's
key and the walk's second key) are the keys of the position after the move, loaded fresh."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest
from numba import njit

from chesskit.board.board import Board
from chesskit.core import position as P
from chesskit.core.api import table
from chesskit.core.makemove import child_key, child_keys, make_for_count, make_move, unmake_move
from chesskit.core.move import CASTLING, EN_PASSANT, promotion
from chesskit.core.movegen import generate
from helpers import KIWIPETE, random_boards

STANDARD = random_boards(seed=1, count=150)
CHESS960 = random_boards(seed=2, count=100, chess960=True)

# Positions where every kind of move is legal at once or where make has a rule to get right.
SPECIAL = {
    "kiwipete: both castlings, captures, a double push next to an enemy pawn": (KIWIPETE, False),
    "black castles both ways, rooks capturable": ("r3k2r/8/8/8/8/8/6B1/R3K2R b KQkq - 3 20", False),
    "en passant on both wings": ("4k3/8/8/1pP1pP2/8/8/8/4K3 w - b6 0 2", False),
    "en passant, black": ("4k3/8/8/8/3pPp2/8/8/4K3 b - e3 0 1", False),
    "a double push with no pawn to take en passant": ("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 7 9", False),
    "promotions capturing the castling rooks": ("r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1", False),
    "black promotions capturing the castling rooks": ("r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1", False),
    "Chess960: king f1 beside rook g1 and a far rook": ("4k3/8/8/8/8/8/8/R4KR1 w GA - 0 1", True),
    "Chess960: king already on g1": ("4k3/8/8/8/8/8/8/R5KR w HA - 0 1", True),
    "Chess960: king b1 rook a1, king takes rook lands on c1": ("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", True),
    "Chess960: rook b1 king c1, king stays, rook jumps over": ("1rk5/8/8/8/8/8/8/1RK5 w Bb - 0 1", True),
    "Chess960: black, king g8 rooks f8 h8": ("5rkr/8/8/8/8/8/8/4K3 b hf - 0 1", True),
}


def _state(board: Board):
    return board._bb, board._board, board._st, board._hist, board._hkeys


def _snapshot(board: Board):
    return board._bb.copy(), board._board.copy(), board._st.copy()


def _legal(board: Board) -> list[int]:
    out = np.empty(P.MAX_MOVES, dtype=np.int64)
    n = generate(table(), board._bb, board._board, board._st, out)
    return [int(m) for m in out[:n]]


def _pc_ep(reference: chess.Board) -> int:
    """The en-passant square as python-chess keeps it under Stockfish's rule (a pawn of the
    side to move attacks it: its "xfen" convention), an oracle independent of the rule
    that make and a FEN's load share (``state.ep_kept``)."""
    return reference.ep_square if reference.has_pseudo_legal_en_passant() else P.NO_SQ


def _assert_is_the_fresh_position(board: Board, reference: chess.Board, ply: int) -> None:
    """``board`` (after make) holds exactly what loading ``reference``'s FEN gives."""
    fresh = Board(reference.fen(en_passant="fen"), chess960=reference.chess960)
    assert board._st[P.EP] == fresh._st[P.EP] == _pc_ep(reference)
    bb, squares, st, _, _ = _state(board)
    assert np.array_equal(squares, fresh._board)
    for i in range(P.BB_SIZE):  # pieces, occupancies, castling rooks, the key
        assert bb[i] == fresh._bb[i], f"bb[{i}]"
    for field in (P.STM, P.EP, P.HALF, P.FULL):
        assert st[field] == fresh._st[field], f"st[{field}]"
    assert st[P.PLY] == ply
    assert bb[P.KEY] == P.compute_key(bb, squares, st)  # the incremental key, from scratch


def _assert_restored(board: Board, before) -> None:
    for name, now, then in zip(("bb", "board", "st"), _snapshot(board), before):
        assert np.array_equal(now, then), name


def _every_move_made_and_unmade(pc_board: chess.Board) -> int:
    ours = Board(pc_board.fen(en_passant="fen"), chess960=pc_board.chess960)
    before = _snapshot(ours)
    ply = int(ours._st[P.PLY])
    made = 0
    for move in _legal(ours):
        uci = ours.uci(move)
        make_move(table(), *_state(ours), move)
        pc_board.push_uci(uci)
        _assert_is_the_fresh_position(ours, pc_board, ply + 1)
        unmake_move(*_state(ours))
        pc_board.pop()
        _assert_restored(ours, before)
        made += 1
    assert made == pc_board.legal_moves.count()
    return made


@pytest.mark.parametrize("name", list(SPECIAL))
def test_every_move_of_a_special_position(name):
    fen, chess960 = SPECIAL[name]
    assert _every_move_made_and_unmade(chess.Board(fen, chess960=chess960)) > 0


@pytest.mark.parametrize("pc_board", STANDARD[:50] + CHESS960[:30], ids=lambda b: b.fen())
def test_every_move_of_a_random_position(pc_board):
    _every_move_made_and_unmade(pc_board.copy())


def test_the_special_positions_hold_the_moves_they_name():
    """python-chess's view: castling, en passant, promotions and captured castling rooks occur."""
    kinds = set()
    for fen, chess960 in SPECIAL.values():
        board = chess.Board(fen, chess960=chess960)
        for move in board.legal_moves:
            if board.is_castling(move):
                kinds.add("castle960" if chess960 else "castle")
            if board.is_en_passant(move):
                kinds.add("ep")
            if move.promotion and move.promotion != chess.QUEEN:
                kinds.add("underpromotion")
            if board.piece_type_at(move.to_square) == chess.ROOK and board.has_castling_rights(not board.turn):
                kinds.add("rook captured")
            if board.is_zeroing(move) is False:
                kinds.add("quiet")
    assert kinds == {"castle", "castle960", "ep", "underpromotion", "rook captured", "quiet"}


@pytest.mark.parametrize("seed", range(6))
def test_a_long_random_line_unmakes_back_to_every_earlier_state(seed):
    """Make 60 random moves (checking each position), then unmake them one by one: each
    unmake gives back exactly the state saved before that move."""
    rng = random.Random(seed)
    pc_board = random_boards(seed=100 + seed, count=1, chess960=seed % 2 == 1, max_plies=10)[0]
    ours = Board(pc_board.fen(en_passant="fen"), chess960=pc_board.chess960)
    saved = []
    for ply in range(60):
        moves = _legal(ours)
        if not moves:
            break
        move = rng.choice(moves)
        saved.append(_snapshot(ours))
        pc_board.push_uci(ours.uci(move))
        make_move(table(), *_state(ours), move)
        _assert_is_the_fresh_position(ours, pc_board, ply + 1)
    assert len(saved) > 10
    while saved:
        unmake_move(*_state(ours))
        _assert_restored(ours, saved.pop())


@pytest.mark.parametrize("pc_board", STANDARD[:40] + CHESS960[:40], ids=lambda b: b.fen())
def test_push_follows_python_chess_and_pop_restores(pc_board):
    ours = Board(pc_board.fen(en_passant="fen"), chess960=pc_board.chess960)
    start = ours.fen()
    start_key = ours.key
    pushed = 0
    for move in list(pc_board.legal_moves)[:12]:
        ours.push(move.uci())
        pc_board.push(move)
        assert ours.fen() == pc_board.fen(en_passant="xfen")
        # the incremental key equals the key of the same position loaded fresh
        assert ours.key == Board(ours.fen(), chess960=ours.chess960).key
        assert ours.pop() == move.uci()
        pc_board.pop()
        pushed += 1
    assert ours.fen() == start and ours.key == start_key
    assert pushed == min(12, pc_board.legal_moves.count())


@njit(cache=False)
def _copy_make(T, bb, board, st, move, nb, nst):
    make_for_count(T, bb, board, st, move, nb, nst)


@pytest.mark.parametrize("name", list(SPECIAL))
def test_copy_make_of_the_last_ply_writes_what_make_writes(name):
    """perft's last-ply make writes only bitboards, castling rooks, side to move and the
    en-passant square into a copy: they must equal what make leaves."""
    fen, chess960 = SPECIAL[name]
    ours = Board(fen, chess960=chess960)
    before = _snapshot(ours)
    for move in _legal(ours):
        nb = np.zeros(P.BB_SIZE, dtype=np.uint64)
        nst = np.zeros(P.ST_SIZE, dtype=np.int64)
        _copy_make(table(), ours._bb, ours._board, ours._st, move, nb, nst)
        _assert_restored(ours, before)  # the copy-make leaves the position alone
        make_move(table(), *_state(ours), move)
        assert np.array_equal(nb[: P.CASTLE + 1], ours._bb[: P.CASTLE + 1]), ours.uci(move)
        assert (nst[P.STM], nst[P.EP]) == (ours._st[P.STM], ours._st[P.EP])
        unmake_move(*_state(ours))


@njit(cache=False)
def _child_keys(T, bb, board, st, key2, move):
    return child_keys(T, bb, board, st, key2, move)


@njit(cache=False)
def _child_key(T, bb, board, st, move):
    return child_key(T, bb, board, st, move)


def _key2(board: Board) -> int:
    return int(P.compute_key2(board._bb, board._board, board._st))


def _every_child_key(pc_board: chess.Board) -> int:
    ours = Board(pc_board.fen(en_passant="fen"), chess960=pc_board.chess960)
    before = _snapshot(ours)
    key2 = np.uint64(_key2(ours))
    checked = 0
    for move in _legal(ours):
        key, child2 = _child_keys(table(), ours._bb, ours._board, ours._st, key2, move)
        assert _child_key(table(), ours._bb, ours._board, ours._st, move) == key  # the GPU walk's
        _assert_restored(ours, before)  # nothing is made
        pc_board.push_uci(ours.uci(move))
        fresh = Board(pc_board.fen(en_passant="fen"), chess960=pc_board.chess960)
        assert fresh._st[P.EP] == _pc_ep(pc_board)  # the fresh key hashes the right square
        assert key == fresh.key, f"{pc_board.peek().uci()} from {ours.fen()}"
        assert child2 == _key2(fresh), f"key 2: {pc_board.peek().uci()} from {ours.fen()}"
        pc_board.pop()
        checked += 1
    assert checked == pc_board.legal_moves.count()
    return checked


@pytest.mark.parametrize("chess960", [False, True])
def test_both_keys_carried_down_random_games_equal_the_keys_from_scratch(chess960):
    """The walk carries key 2 down a line of moves (``child_keys`` from the parent's), as
    make carries key 1: along random games (castling, en passant, promotions; Chess960
    too) both stay the keys of the position loaded fresh, and unmake gives key 1 back."""
    rng = random.Random(23 + chess960)
    plies = 0
    kinds = set()
    for game in range(12):
        pc_board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        pc_board.chess960 = chess960
        ours = Board(pc_board.fen(en_passant="fen"), chess960=chess960)
        key2 = np.uint64(_key2(ours))
        keys1 = []
        while not pc_board.is_game_over() and pc_board.ply() < 160:
            moves = _legal(ours)
            special = [m for m in moves if m & (CASTLING | EN_PASSANT) or promotion(m)]
            move = rng.choice(special if special and rng.random() < 0.7 else moves)
            kinds.update(kind for kind, seen in (("castle", move & CASTLING), ("ep", move & EN_PASSANT), ("promotion", promotion(move))) if seen)
            key, key2 = _child_keys(table(), ours._bb, ours._board, ours._st, np.uint64(key2), move)
            keys1.append(ours.key)
            pc_board.push_uci(ours.uci(move))
            make_move(table(), *_state(ours), move)
            fresh = Board(pc_board.fen(en_passant="fen"), chess960=chess960)
            assert (ours.key, key, int(key2)) == (fresh.key, fresh.key, _key2(fresh)), pc_board.fen()
            plies += 1
        for key in reversed(keys1):
            unmake_move(*_state(ours))
            assert ours.key == key
    assert plies > 500 and kinds == {"castle", "ep", "promotion"}


def test_the_two_keys_are_independent():
    """Key 2's terms are not key 1's (nor a fixed transform of them): a position's two keys
    differ, and so do the XOR differences of two positions under each key."""
    assert not np.intersect1d(P.Z_PIECE, P.Z2_PIECE).size and P.Z_SIDE != P.Z2_SIDE
    assert not np.intersect1d(P.Z_CASTLE, P.Z2_CASTLE).size and not np.intersect1d(P.Z_EP, P.Z2_EP).size
    a, b = Board(), Board(KIWIPETE)
    assert a.key != _key2(a) and (a.key ^ b.key) != (_key2(a) ^ _key2(b))


@pytest.mark.parametrize("name", list(SPECIAL))
def test_the_key_of_a_child_before_its_move_is_made_special(name):
    """Castling (960 too), en passant, a double push with and without a pawn to take en
    passant, promotions capturing castling rooks: the key from the move alone is the key of
    the position after it, computed from scratch."""
    fen, chess960 = SPECIAL[name]
    assert _every_child_key(chess.Board(fen, chess960=chess960)) > 0


@pytest.mark.parametrize("pc_board", STANDARD[50:90] + CHESS960[30:50], ids=lambda b: b.fen())
def test_the_key_of_a_child_before_its_move_is_made_random(pc_board):
    _every_child_key(pc_board.copy())
