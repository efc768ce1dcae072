"""The variant checker's injectable faults (``vdebug.VFAULTS``; tests only).

Each corrupts the state right after a push or a pop, the way a bug in the variant core
would, so that the tests can show the invariant it trips firing. A "keyed" fault keeps the
Zobrist key consistent with what it changed (recomputed from scratch), so that the key's
own invariant does not fire first.
"""

from __future__ import annotations

import numpy as np

from chesskit.core import state as P
from chesskit.core import vstate as V
from chesskit.vocab import CAPTURE, EN_PASSANT, KING, PAWN, QUEEN, from_sq, is_castling, to_sq


def after_make(board, name: str, move: int, saved, key_from_scratch) -> None:
    """Corrupt the position just made on ``board`` (``saved``: the arrays before the move;
    ``key_from_scratch(board)``: the key a keyed fault leaves)."""
    bb, squares, st = board._bb, board._board, board._st
    pbb, pboard, pst = saved
    us = int(pst[P.STM])
    mine = V.POCKET + us * 8
    if name == "pocket-overflow":
        st[mine + PAWN] = 40
    elif name == "pocket-grows":
        st[mine + PAWN] += 1
    elif name == "pocket-wrong-piece":
        gained = int(pboard[to_sq(move)]) & 7
        promoted = int(pbb[V.PROMOTED]) >> to_sq(move) & 1
        if move & CAPTURE and not move & EN_PASSANT and not is_castling(move) and gained != PAWN and not promoted:
            st[mine + gained] -= 1
            st[mine + PAWN] += 1
    elif name == "pocket-unkeyed":
        full = [i for i in range(V.POCKET, V.POCKET + 16) if st[i] > 0]
        if full:
            st[full[0]] -= 1
            st[full[0] + 1 if (full[0] - V.POCKET) % 8 < QUEEN else full[0] - 1] += 1  # another type, same colour
        return  # the key is left as it was
    elif name == "promoted-pawn":
        pawns = int(bb[PAWN] | bb[8 | PAWN])
        if pawns:
            bb[V.PROMOTED] |= np.uint64(pawns & -pawns)
    elif name == "promoted-lost":
        if int(pbb[V.PROMOTED]) >> from_sq(move) & 1:
            bb[V.PROMOTED] &= ~np.uint64(1 << to_sq(move))
    elif name == "checks-overflow":
        st[V.CHECKS + us] = 4
    elif name == "check-not-counted":
        if st[V.CHECKS + us] > pst[V.CHECKS + us]:
            st[V.CHECKS + us] -= 1
    elif name == "explosion-spares":
        _spare_one(bb, squares, pboard, move)
    else:
        return
    bb[P.KEY] = np.uint64(key_from_scratch(board))


def _spare_one(bb, squares, pboard, move: int) -> None:
    """Put back the first non-pawn, non-king piece a capture's explosion removed."""
    if not move & CAPTURE:
        return
    to = to_sq(move)
    for sq in range(64):
        pc = int(pboard[sq])
        if sq != to and sq != from_sq(move) and abs((sq & 7) - (to & 7)) <= 1 and abs((sq >> 3) - (to >> 3)) <= 1:
            if pc and pc & 7 not in (PAWN, KING) and squares[sq] == 0:
                bit = np.uint64(1 << sq)
                squares[sq] = pc
                bb[pc] |= bit
                bb[7 + 8 * (pc >> 3)] |= bit
                bb[P.OCC] |= bit
                return


def after_pop(board, name: str, move: int) -> None:
    """Corrupt the position just restored by pop on ``board``."""
    st = board._st
    us = int(st[P.STM])
    if name == "pop-keeps-pocket":
        st[V.POCKET + us * 8 + PAWN] += 1
    elif name == "pop-keeps-checks":
        st[V.CHECKS + us] += 1
    elif name == "pop-keeps-promoted":
        board._bb[V.PROMOTED] |= np.uint64(1 << from_sq(move))
