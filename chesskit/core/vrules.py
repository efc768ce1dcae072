"""The variants' game ends and the last ply's count, for the variant walk (``vwalk.py``).

Each is chosen per rule set in Python (``GAME_OVER[vid]``, ``LEAF_COUNT[vid]``), like
``vgen.GENERATE``.

``GAME_OVER``: a node where the variant's game is over has no children (both oracles
agree): kingofthehill, a king on d4, e4, d5 or e5; 3check, a side has given three checks;
racingkings, Black's king on the eighth rank, or White's with White to move (Black's last
chance is ``vgen``'s); horde and antichess, a side without pieces. Checkmate and
stalemate need no test: they have no moves.

``checkers``: the pieces that give check to a side's king, by the variant's rules: the one
owner of a variant's "in check" (the ``--stats`` counters, ``Board.is_check`` and with it
``show``, the explorer's SAN and checkmate-or-stalemate ask it).

``LEAF_COUNT``: the replies to ``move`` counted without making it in full: the last-ply
copy-make of standard chess (``makemove.make_for_count``: bitboards, castling rooks, side
to move, en-passant square; no square array, key or clocks) and a bulk count, or 0
where the move ends the game.
"""

import numpy as np
from numba import njit

from .bitboard import RANK_8, ZERO, lsb
from .makemove import make_for_count
from .movegen import attackers_to
from .position import KING, OCC, STM
from .vgen import antichess_moves, chess_moves, crazyhouse_moves, horde_moves, racing_count
from .vmake import gives_check
from . import vatomic, vhouse
from .move import CAPTURE, DROP
from .vstate import ANTICHESS, ATOMIC, CHECKS, CRAZYHOUSE, HORDE, KINGOFTHEHILL, RACINGKINGS, THREECHECK

CENTRE = np.uint64((1 << 27) | (1 << 28) | (1 << 35) | (1 << 36))


@njit(inline="always", cache=True)
def never_over(bb, st):
    """atomic's and crazyhouse's other ends (checkmate, stalemate) have no moves; atomic's
    own is its generator's and leaf count's (a side without a king)."""
    return False


@njit(inline="always", cache=True)
def kingofthehill_over(bb, st):
    return (bb[KING] | bb[8 | KING]) & CENTRE != ZERO


@njit(inline="always", cache=True)
def threecheck_over(bb, st):
    return st[CHECKS] >= 3 or st[CHECKS + 1] >= 3


@njit(inline="always", cache=True)
def racingkings_over(bb, st):
    return bb[8 | KING] & RANK_8 != ZERO or ((st[STM] & 1) == 0 and bb[KING] & RANK_8 != ZERO)


@njit(inline="always", cache=True)
def no_pieces_over(bb, st):
    """horde and antichess: a side without pieces."""
    return bb[7] == ZERO or bb[15] == ZERO


@njit(inline="always", cache=True)
def atomic_over(bb, st):
    return vatomic.game_over(bb)


# Whether the game is over in a position of each rule set: ``GAME_OVER[vid](bb, st)``.
GAME_OVER = {
    ATOMIC: atomic_over,
    CRAZYHOUSE: never_over,
    KINGOFTHEHILL: kingofthehill_over,
    THREECHECK: threecheck_over,
    ANTICHESS: no_pieces_over,
    HORDE: no_pieces_over,
    RACINGKINGS: racingkings_over,
}


@njit(inline="always", cache=True)
def checkers(T, bb, vid, side):
    """The pieces that give check to ``side``'s king in a position of rule set ``vid``:
    none in antichess (no check) and racing kings (no move gives check, no FEN has one),
    none where ``side`` has no king (horde's white, atomic's exploded king), none in atomic
    while the kings touch (``vatomic.kings_touch``, the generator's own test: a capture
    next to one king explodes both); else the enemy pieces attacking the king."""
    if vid == ANTICHESS or vid == RACINGKINGS:
        return ZERO
    kings = bb[(side << 3) | KING]
    if kings == ZERO:
        return ZERO
    ksq = lsb(kings)
    if vid == ATOMIC and vatomic.kings_touch(T, ksq, bb[((side ^ 1) << 3) | KING]):
        return ZERO
    return attackers_to(T, bb, ksq, bb[OCC], side ^ 1)


@njit(cache=True)
def in_check(T, bb, st, vid):
    """Whether the side to move is in check (``checkers``), for ``Board.is_check``."""
    return checkers(T, bb, vid, st[STM] & 1) != ZERO


def _leaf_counter(over, generate):
    """The last ply's count of a rule set whose moves are standard moves (made by
    ``make_for_count``) and whose game ends where ``over`` says."""

    @njit(inline="always")
    def leaf_count(T, bb, board, st, move, leaf_bb, leaf_st, scratch):
        make_for_count(T, bb, board, st, move, leaf_bb, leaf_st)
        if over(leaf_bb, leaf_st):
            return 0
        return generate(T, leaf_bb, board, leaf_st, scratch, True)

    return leaf_count


@njit(inline="always", cache=True)
def threecheck_leaf(T, bb, board, st, move, leaf_bb, leaf_st, scratch):
    """A third check ends the game: no replies."""
    if st[CHECKS + (st[STM] & 1)] >= 2 and gives_check(T, bb, st, move):
        return 0
    make_for_count(T, bb, board, st, move, leaf_bb, leaf_st)
    return chess_moves(T, leaf_bb, board, leaf_st, scratch, True)


@njit(inline="always", cache=True)
def racing_leaf(T, bb, board, st, move, leaf_bb, leaf_st, scratch):
    make_for_count(T, bb, board, st, move, leaf_bb, leaf_st)
    if racingkings_over(leaf_bb, leaf_st):
        return 0
    return racing_count(T, leaf_bb, leaf_st)


@njit(inline="always", cache=True)
def crazyhouse_leaf(T, bb, board, st, move, leaf_bb, leaf_st, scratch):
    if move & DROP:
        vhouse.drop_for_count(bb, st, move, leaf_bb, leaf_st)
    else:
        make_for_count(T, bb, board, st, move, leaf_bb, leaf_st)
        vhouse.copy_pockets(st, leaf_st)
    return crazyhouse_moves(T, leaf_bb, board, leaf_st, scratch, True)


@njit(inline="always", cache=True)
def atomic_leaf(T, bb, board, st, move, leaf_bb, leaf_st, scratch):
    make_for_count(T, bb, board, st, move, leaf_bb, leaf_st)
    if move & CAPTURE:
        vatomic.explode_bits(T, leaf_bb, move)
        if vatomic.game_over(leaf_bb):
            return 0
    return vatomic.count_moves(T, leaf_bb, leaf_st, scratch)


# perft(1) of the child after ``move`` (0 where the move ends the game), for each rule set:
# ``LEAF_COUNT[vid](T, bb, board, st, move, leaf_bb, leaf_st, scratch)``.
LEAF_COUNT = {
    ATOMIC: atomic_leaf,
    CRAZYHOUSE: crazyhouse_leaf,
    KINGOFTHEHILL: _leaf_counter(kingofthehill_over, chess_moves),
    THREECHECK: threecheck_leaf,
    ANTICHESS: _leaf_counter(no_pieces_over, antichess_moves),
    HORDE: _leaf_counter(no_pieces_over, horde_moves),
    RACINGKINGS: racing_leaf,
}
