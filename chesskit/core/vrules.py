"""The variants' game ends and the last ply's count, for the variant walk (``vwalk.py``).

``game_over``: a node where the variant's game is over has no children (both oracles
agree): kingofthehill, a king on d4, e4, d5 or e5; 3check, a side has given three checks;
racingkings, Black's king on the eighth rank, or White's with White to move (Black's last
chance is ``vgen``'s); horde and antichess, a side without pieces. Checkmate and
stalemate need no test: they have no moves.

``leaf_count``: the replies to ``move`` counted without making it in full: the last-ply
copy-make of standard chess (``makemove.make_for_count``: bitboards, castling rooks, side
to move, en-passant square; no square array, key or clocks) and a bulk count, or 0
where the move ends the game.
"""

import numpy as np
from numba import njit

from .bitboard import RANK_8, ZERO
from .makemove import make_for_count
from .position import KING, STM
from .vgen import vgenerate
from .vmake import gives_check
from . import vatomic, vhouse
from .move import CAPTURE, DROP
from .vstate import ANTICHESS, ATOMIC, CHECKS, CRAZYHOUSE, HORDE, KINGOFTHEHILL, RACINGKINGS, THREECHECK

CENTRE = np.uint64((1 << 27) | (1 << 28) | (1 << 35) | (1 << 36))


@njit(inline="always", cache=True)
def game_over(vid, bb, st):
    """Whether the game is over in a position of variant ``vid`` (compile-time constant)."""
    if vid == KINGOFTHEHILL:
        return (bb[KING] | bb[8 | KING]) & CENTRE != ZERO
    if vid == THREECHECK:
        return st[CHECKS] >= 3 or st[CHECKS + 1] >= 3
    if vid == RACINGKINGS:
        return bb[8 | KING] & RANK_8 != ZERO or ((st[STM] & 1) == 0 and bb[KING] & RANK_8 != ZERO)
    if vid == HORDE or vid == ANTICHESS:
        return bb[7] == ZERO or bb[15] == ZERO
    if vid == ATOMIC:
        return vatomic.game_over(bb)
    return False


@njit(inline="always", cache=True)
def leaf_count(vid, T, bb, board, st, move, leaf_bb, leaf_st, scratch):
    """perft(1) of the child after ``move``: 0 where the move ends the game."""
    if vid == THREECHECK:
        if st[CHECKS + (st[STM] & 1)] >= 2 and gives_check(T, bb, st, move):
            return 0
    if vid == CRAZYHOUSE:
        if move & DROP:
            vhouse.drop_for_count(bb, st, move, leaf_bb, leaf_st)
        else:
            make_for_count(T, bb, board, st, move, leaf_bb, leaf_st)
            vhouse.copy_pockets(st, leaf_st)
        return vgenerate(vid, T, leaf_bb, board, leaf_st, scratch, True)
    make_for_count(T, bb, board, st, move, leaf_bb, leaf_st)
    if vid == ATOMIC:
        if move & CAPTURE:
            vatomic.explode_bits(T, leaf_bb, move)
            if vatomic.game_over(leaf_bb):
                return 0
        return vatomic.generate(T, leaf_bb, leaf_st, scratch, True)
    if vid == KINGOFTHEHILL or vid == RACINGKINGS or vid == HORDE or vid == ANTICHESS:
        if game_over(vid, leaf_bb, leaf_st):
            return 0
    return vgenerate(vid, T, leaf_bb, board, leaf_st, scratch, True)

