"""A variant position on a ``Board``: its state arrays loaded from a ``Setup`` and read
back, push (copy-make: the previous arrays are kept for ``pop``) and check.

The arrays are ``chesskit/core/vstate.py``'s: the standard ones made longer, with the check
counters, pockets and promoted pieces, and a key that includes them and the variant.
Plain numpy, except ``push`` (the variant's walk makes the move) and ``is_check``
(compiled, loaded on first use).
"""

from __future__ import annotations

import numpy as np

from chesskit.board.fen import Setup, parse_fen
from chesskit.core import state as P
from chesskit.core import vstate as V
from chesskit.core.api import table
from chesskit.errors import InputError
from chesskit.variants import find, get
from chesskit.vocab import CAPTURE, COLOR_NAMES, PIECE_LETTERS, PIECE_NAMES, parse_square, square_name


def canonical(name: str) -> tuple[str, bool]:
    """The canonical name of any variant name ``chesskit.variants.find`` reads, and
    whether the name asks for Chess960 (``atomic960``)."""
    variant, chess960 = find(name)
    return variant.name, chess960


def parse(name: str, fen: str | None, chess960: bool | None, strict: bool) -> Setup:
    """The Setup of a variant FEN (its start position when ``fen`` is None)."""
    return parse_fen(get(name).start_fen if fen is None else fen, chess960, strict, variant=name)


def load(board, setup: Setup, name: str) -> None:
    """Make ``board``'s standard arrays, just loaded from ``setup``, a variant position's."""
    vid = V.IDS[name]
    if V.RULES[vid] not in V.COUNTED:
        counted = ", ".join(n for i, n in enumerate(V.NAMES) if V.RULES[i] in V.COUNTED)
        raise InputError(f"variant {name}: chesskit's core does not count it yet (it counts {counted})")
    bb, b, st = V.new_vstate()
    bb[: P.BB_SIZE] = board._bb
    b[:] = board._board
    st[: P.ST_SIZE] = board._st
    promoted = 0
    for sq in setup.promoted:
        promoted |= 1 << sq
    bb[V.PROMOTED] = np.uint64(promoted)
    if setup.checks is not None:
        st[V.CHECKS], st[V.CHECKS + 1] = setup.checks
    pockets = setup.pockets
    if pockets is not None:
        for colour in (0, 1):
            for ptype, count in enumerate(pockets[colour]):
                if ptype:
                    st[V.POCKET + colour * 8 + ptype] = count
    bb[P.KEY] ^= V.Z_VARIANT[vid] ^ V.extras_key(st, promoted)
    board._bb, board._board, board._st = bb, b, st
    board.variant, board._vid = name, vid


def describe(board, setup: Setup) -> None:
    """Write ``board``'s variant fields into ``setup`` (read back from the arrays)."""
    st = board._st
    setup.variant = board.variant
    if board.variant == "3check":
        setup.checks = (int(st[V.CHECKS]), int(st[V.CHECKS + 1]))
    if board.variant == "crazyhouse":
        setup.pockets = tuple(tuple(int(st[V.POCKET + c * 8 + p]) if 0 < p < 6 else 0 for p in range(7)) for c in (0, 1))
        promoted = int(board._bb[V.PROMOTED])
        setup.promoted = [sq for sq in range(64) if promoted >> sq & 1]


def warm_up(board) -> None:
    """Load the walk of ``board``'s variant, or, the first time, compile it (seconds;
    ``native.walk`` says so on stderr, as for the standard walk)."""
    from chesskit.core import native

    native.walk(V.RULES[board._vid], board.variant)


def push(board, move: int) -> None:
    """Make the packed ``move`` (legal) on ``board``, keeping the arrays before it."""
    from chesskit.core import ventry

    state = (board._bb, board._board, board._st)
    board._saved.append(state)
    board._bb, board._board, board._st = ventry.play(board._vid, table(), state, move)


def is_check(board) -> bool:
    """Whether the side to move is in check by its variant's rules: the counters' and the
    generator's answer (``vrules.checkers``: never in antichess or racing kings, nor
    without a king, nor in atomic while the kings touch)."""
    from chesskit.core.vrules import in_check

    return bool(in_check(table(), board._bb, board._st, board._vid))


_SQUARES = {square_name(sq) for sq in range(64)}


def illegal_why(board, move: str, legal) -> str:
    """A variant's own reason why ``move`` (UCI-shaped, not among the packed ``legal``
    moves) is not legal, where its rules tell one; "" otherwise. Antichess: a capture is
    possible, so only captures are legal. Crazyhouse: a king's drop, a pawn's on the first or
    eighth rank, a drop on an occupied square, a drop of a piece the side to move has none
    of in hand."""
    variant = get(board.variant)
    if variant.rules == "antichess" and len(legal) and all(int(m) & CAPTURE for m in legal):
        return f"captures are compulsory in {variant.name}: a capture is possible, so only captures are legal"
    ptype = PIECE_LETTERS.find(move[:1].lower()) if move[1:2] == "@" else -1
    turn = int(board._st[P.STM])
    if variant.pockets and ptype == 6:
        return "a king is never in hand: it cannot be dropped"
    target = move[2:4]
    if variant.pockets and ptype == 1 and target[1:] in ("1", "8"):
        return "a pawn cannot be dropped on the first or eighth rank"
    if variant.pockets and 0 < ptype < 6 and target in _SQUARES and board.piece_at(parse_square(target)):
        return f"{target} is not empty: a piece is dropped on an empty square"
    if variant.pockets and 0 < ptype < 6 and not board._st[V.POCKET + turn * 8 + ptype]:
        held = "".join(PIECE_LETTERS[p] * int(board._st[V.POCKET + turn * 8 + p]) for p in range(1, 6))
        colour = COLOR_NAMES[turn]
        return f"{colour} has no {PIECE_NAMES[ptype]} in hand ({colour}'s pocket: {(held.upper() if turn == 0 else held) or 'empty'})"
    return ""
