"""Reply counts that a quiet move or a capture provably leaves as they were, or changes by
what a few of T's pieces gain and lose.

Two plies above the leaves, perft counts the replies of side T after each move of side S
(to move). Many of S's moves are quiet moves away from T's king: after any of them T
has the moves it would have if S passed (T to move in the same position, no en-passant
square), but for what T's sliders and pawns gain or lose where the move emptied or filled
a square they reach. The walk counts T's moves once per node, on the position that
``pass_copy`` writes, with the same count it makes for each move (one inlined copy of the
generator's counting mode: first-run compile time), and each move whose change to that
count is known without making it (``reply_change``, with what ``sensitive_squares``
found at the node) takes the count plus its change instead of a copy-make and a count
of its own.

A quiet move of S's piece from ``f`` to ``x`` (no capture, promotion, castling or en
passant, and not a double push that leaves an en-passant square) changes the board only
on ``f`` and ``x``. T's legal moves depend on the board through:

- which squares S attacks around T's king, and on the king's castling paths (the
  king's moves and castling; the king lifted, as the generator tests its moves), and
  checks and pins on T's king (along its lines, T's own pieces seen through). Along a
  line from such a square, S's attack changes only where an S slider sees the square
  (the slider leaving, or a piece arriving in between), where one S piece stands in
  front of a slider that would see it (that piece leaving), or where an S bishop, rook
  or queen arrives on a line of its kind (``_lines``); a knight, pawn or king attacks
  by table, from ``f`` before and ``x`` after. A pinned T piece's moves keep to its pin
  line, which is one of these lines;
- castling's empty squares: T's back rank, while T has a castling right;
- S's king: when S is in check, T "attacks" it in the position where S passes, so no
  move takes the shared count then;
- and what T's unpinned pieces reach. A knight's or the king's targets are every square
  without a T piece, whoever stands there: unchanged. A slider's moves are its attacks
  off T's pieces, and change only if it sees ``f`` or ``x``; a pawn pushes onto empty
  squares and takes on S's. These are counted again, for the sliders that see a moved
  square and for the pawns when the move touches their push or capture squares, before
  and after the move (``_gained``).

A capture (no promotion, no en passant) changes the board on ``f`` and ``x`` as well:
``x`` holds an S piece instead of a T piece, so T loses the taken piece's moves, and T's
pieces that see ``x`` may now take there (a knight one more move, a slider one more, a
pawn by the generator's rule); its occupancy, the rays that stop there, is the same. A
capture beside T's king may free a square for the king, so every square beside it is
``hard``, those T holds too (no quiet move lands on those).

A move that touches none of the first three (``hard``), whose knight, pawn or king
attacks none of the king's squares and whose bishop, rook or queen arrives on no line of
its kind to them has T's count with S passing, changed by ``_gained`` when it touches
what T's sliders or pawns reach, or takes (captures: Kiwipete 6, pos4 6 and pos6 6 3-4%
faster, startpos about 1% slower: docs/benchmarks.md, 2026-11-30). A quiet move that
touches only what T's pawns reach (more than half of those at startpos 7) has its change
counted in the walk itself (``_pawns_gained``, inlined), without the call, from T's pawn
moves with S passing that ``sensitive_squares`` counts for every node: startpos 6 about 8%
faster, Kiwipete 5 and pos6 5 6-7%, deep counts with a table 3-7% (docs/benchmarks.md,
2026-11-30, session 31). ``sensitive_squares``
writes these tests once per node as two masks per piece type of S (the squares it may
leave, and land on), so that a
move's test is two lookups by its piece, with no branch on the piece (startpos 7 8%
faster, pos6 6 3%, the others even: docs/benchmarks.md, 2026-11-29 evening).

On positions a few plies from the start nine moves in ten take the shared count (three
in four have the same number of replies); in Kiwipete's and in middlegames about seven in
ten, in pos3's rook endings about two in five. The shared count is
``movegen._generate``'s, and the pawns' change ``movegen._pawn_moves``'s: the rules of
moves are not written again here. The moves whose count is the shared count unchanged
(touching nothing T's sliders and pawns reach either) are named once more by masks, the
lump masks, which the walk's move list takes (``movegen.generate_at``): it only counts
them, and the walk adds the shared count for each.
"""

import numpy as np
from numba import carray, njit

from chesskit.vocab import PROMO_MASK

from .attacks import K_ATT, N_ATT, between, bishop_attacks, rook_attacks
from .bitboard import ALL, ONE, RANK_1, RANK_3, RANK_6, RANK_8, ZERO, lsb, popcount
from .makemove import ep_kept
from .move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, PROMO_SHIFT, from_sq, to_sq
from .movegen import LAND, LEAVE, PASS, _open_castlings, _pawn_moves, attackers_to, king_lines, pawn_attacks
from .noref import address
from .position import BB_SIZE, BISHOP, CASTLE, EP, KING, KNIGHT, MAX_MOVES, NO_SQ, OCC, PAWN, QUEEN, ROOK, ST_SIZE, STM, WHITE, occ_of
from .wordcopy import copy_words

# the moves whose replies are always counted: castling, en passant, promotions
_UNSHARED = CASTLING | EN_PASSANT | (PROMO_MASK << PROMO_SHIFT)

# what ``sensitive_squares`` finds at a node, by its place in the row from word
# ``SQUARES_ROW`` on (below; it returns the first, which every move is tested against)
REACH = 0  # the squares T's unpinned sliders and pawns reach: a move touching them changes T's count
DIAGONAL_REACH = 1  # the squares T's unpinned bishops and queens reach
STRAIGHT_REACH = 2  # the squares T's unpinned rooks and queens reach
PAWN_REACH = 3  # the squares T's unpinned pawns push to or take on
T_DIAGONAL = 4  # T's unpinned bishops and queens
T_STRAIGHT = 5  # T's unpinned rooks and queens
PAWNS = 6  # T's unpinned pawns
KNIGHTS = 7  # T's unpinned knights
# and what it writes to the row it is given, by S's piece type (``vocab``: 1 to 6): the
# squares a quiet move of that piece may land on (``row[LAND + pt]``) and leave
# (``row[LEAVE + pt]``) with T's count shared; and from word ``LUMP_ROW`` on the same for
# the moves whose count is T's count unchanged, which ``movegen.generate_at`` counts in a
# lump instead of listing them (its ``LUMPS`` masks)
LUMP_ROW = 16
# and from word ``DIAGONAL_ROW`` on, by square, what T's unpinned bishop or queen there
# attacks along diagonals with S passing; from ``STRAIGHT_ROW`` on, a rook's or queen's
# along ranks and files (``_gained`` starts from them)
DIAGONAL_ROW = 32
STRAIGHT_ROW = 96
# and from word ``SQUARES_ROW`` on, what it found (``REACH`` to ``KNIGHTS``: ``_gained``
# reads them there, a tuple argument would be copied on every call)
SQUARES_ROW = 160
# and at word ``PAWN_MOVES_ROW`` the moves of T's unpinned pawns with S passing (counted for
# every node: a move touching what T's pawns reach needs them, and counted here they cost
# the walk's first-run compile nothing; docs/benchmarks.md, 2026-11-30, session 31)
PAWN_MOVES_ROW = 176


@njit(inline="always", cache=True)
def pass_copy(T, bb, st, nb, nst):
    """At a node two plies above the leaves (S to move): write onto ``nb``/``nst`` the
    position with S passing (the same board, T to move, no en-passant square), for the
    walk's count of T's moves there; False, writing nothing, when S is in check."""
    us = st[STM] & 1
    if attackers_to(T, bb, lsb(bb[(us << 3) | KING]), bb[OCC], us ^ 1):
        return False
    copy_words(nb, bb, CASTLE)
    nb[CASTLE] = bb[CASTLE]
    nst[STM] = us ^ 1
    nst[EP] = NO_SQ
    return True


@njit(inline="always", cache=True)
def _lines(T, sq, occ, ours, diagonal, straight):
    """The lines from ``sq`` (stopped by ``occ``) along which S's attack on ``sq`` can
    change: the squares where an S piece leaving or arriving changes it (from ``sq`` to
    each S slider that sees it; the one S piece in front of a slider that would see it
    once that piece has gone), and every square of the diagonal and straight lines (a
    bishop or queen arriving on the first, a rook or queen on the second, would see
    ``sq``)."""
    d = bishop_attacks(T, sq, occ)
    r = rook_attacks(T, sq, occ)
    live = ZERO
    sliders = (d & diagonal) | (r & straight)
    while sliders:  # each with its line: one leaving or a piece arriving in between
        s = lsb(sliders)
        sliders &= sliders - ONE
        live |= between(T, sq, s) | (ONE << np.uint64(s))
    hidden = (bishop_attacks(T, sq, occ ^ (d & ours)) & ~d & diagonal) | (rook_attacks(T, sq, occ ^ (r & ours)) & ~r & straight)
    while hidden:  # only the S piece in between, leaving, uncovers it
        s = lsb(hidden)
        hidden &= hidden - ONE
        live |= between(T, sq, s) & ours
    return live, d, r


@njit(inline="always", cache=True)
def _slider_rows(T, pcs, occ, row, start, straight):
    """Write to ``row[start + s]`` the attacks of each slider ``s`` of ``pcs`` along ranks
    and files (``straight``) or diagonals, with occupancy ``occ``; return all of them."""
    reach = ZERO
    while pcs:
        s = lsb(pcs)
        pcs &= pcs - ONE
        att = rook_attacks(T, s, occ) if straight else bishop_attacks(T, s, occ)
        row[start + s] = att
        reach |= att
    return reach


@njit(inline="always", cache=True)  # compiled into ``sensitive_squares_at``, the walk's call
def sensitive_squares(T, bb, st, row):
    """What a quiet move or a capture of S (to move) is tested against (``reply_change``),
    by S's piece type, written to ``row``: the squares it may land on and leave with T's
    count shared. None of them is ``hard`` (T's king's squares, its lines of check and pin,
    castling's); a knight's, pawn's or king's squares attack none of T's king's squares
    and castling paths (``zone``); a bishop or queen lands on no diagonal line to those,
    a rook or queen on no straight one. Writes from ``SQUARES_ROW`` on the squares that
    T's unpinned bishops and queens, rooks and queens, and pawns reach (a move touching
    them changes T's count by what those pieces gain and lose), those pieces and T's
    unpinned knights; returns all that T's unpinned sliders and pawns reach (``REACH``)."""
    us = st[STM] & 1
    them = us ^ 1
    tb = them << 3
    ub = us << 3
    occ = bb[OCC]
    ours = bb[occ_of(us)]
    theirs = bb[occ_of(them)]
    ksq = lsb(bb[tb | KING])
    # T's pieces that S pins: their moves keep to the pin line, all of it in ``hard`` below
    pinned = king_lines(T, bb, ksq, us)[1] & theirs
    # what T's unpinned sliders and pawns reach
    t_diagonal = (bb[tb | BISHOP] | bb[tb | QUEEN]) & ~pinned
    t_straight = (bb[tb | ROOK] | bb[tb | QUEEN]) & ~pinned
    pawns = bb[tb | PAWN] & ~pinned
    diagonal_reach = _slider_rows(T, t_diagonal, occ, row, DIAGONAL_ROW, False)
    straight_reach = _slider_rows(T, t_straight, occ, row, STRAIGHT_ROW, True)
    pawn_reach = pawn_attacks(pawns, them)
    if them == WHITE:
        push = pawns << np.uint64(8)
        pawn_reach |= push | ((push & RANK_3) << np.uint64(8))
    else:
        push = pawns >> np.uint64(8)
        pawn_reach |= push | ((push & RANK_6) >> np.uint64(8))
    # the king's squares: its own, those it may move to, its open castlings' paths
    kbit = ONE << np.uint64(ksq)
    zone = kbit | (T[K_ATT + ksq] & ~theirs)
    back = RANK_1 if them == WHITE else RANK_8
    rights = bb[CASTLE] & back
    # and the squares beside it that T holds: a capture there may free one for the king
    hard = zone | T[K_ATT + ksq]
    if rights:
        hard |= back
        rights, paths = _open_castlings(T, them, ksq, occ, rights)
        zone |= paths
    diagonal = bb[ub | BISHOP] | bb[ub | QUEEN]
    straight = bb[ub | ROOK] | bb[ub | QUEEN]
    # checks and pins: the king's lines, T's own pieces seen through
    live, diagonals, straights = _lines(T, ksq, ours, ours, diagonal, straight)
    hard |= live
    # S's attacks on the squares the king may move to, the king lifted
    occ_noking = occ ^ kbit
    squares = zone & ~kbit
    while squares:
        live, d, r = _lines(T, lsb(squares), occ_noking, ours, diagonal, straight)
        hard |= live
        diagonals |= d
        straights |= r
        squares &= squares - ONE
    # the squares from which S's knight or king would attack one of the zone's squares
    knight_ring = ZERO
    king_ring = ZERO
    squares = zone
    while squares:
        z = lsb(squares)
        squares &= squares - ONE
        knight_ring |= T[N_ATT + z]
        king_ring |= T[K_ATT + z]
    row[LAND + PAWN] = ~(hard | pawn_attacks(zone, them))  # an S pawn there would attack the zone
    row[LAND + KNIGHT] = ~(hard | knight_ring)
    row[LAND + BISHOP] = ~(hard | diagonals)
    row[LAND + ROOK] = ~(hard | straights)
    row[LAND + QUEEN] = ~(hard | diagonals | straights)
    row[LAND + KING] = ~(hard | king_ring)
    row[LEAVE + PAWN] = row[LAND + PAWN]
    row[LEAVE + KNIGHT] = row[LAND + KNIGHT]
    row[LEAVE + BISHOP] = ~hard
    row[LEAVE + ROOK] = ~hard
    row[LEAVE + QUEEN] = ~hard
    row[LEAVE + KING] = row[LAND + KING]
    reach = diagonal_reach | straight_reach | pawn_reach
    # the moves that touch nothing T's sliders and pawns reach either: T's count as it is
    # (``reply_change`` 0), and a double push only where no T pawn could take en passant
    for pt in range(PAWN, KING + 1):
        row[LUMP_ROW + LAND + pt] = row[LAND + pt] & ~reach
        row[LUMP_ROW + LEAVE + pt] = row[LEAVE + pt] & ~reach
    row[LUMP_ROW + PASS] = ~pawn_attacks(bb[tb | PAWN], them)
    knights = bb[tb | KNIGHT] & ~pinned
    found = (reach, diagonal_reach, straight_reach, pawn_reach, t_diagonal, t_straight, pawns, knights)
    for i in range(len(found)):
        row[SQUARES_ROW + i] = found[i]
    row[PAWN_MOVES_ROW] = _pawn_moves(None, 0, them, pawns, ~occ, ours, ALL, True, ZERO, ZERO)[0]
    return reach


@njit(cache=True)
def sensitive_squares_at(T_, nT, bb_, st_, row_, start):
    """``sensitive_squares`` of the state arrays at addresses ``T_`` (``nT`` words), ``bb_``
    and ``st_``, writing the row at address ``row_`` from word ``start`` on: the walk's
    call, which passes no array."""
    T, bb, st = carray(T_, (nT,)), carray(bb_, (BB_SIZE,)), carray(st_, (ST_SIZE,))
    return sensitive_squares(T, bb, st, carray(row_, (start + 2 * MAX_MOVES,))[start:])


# ``reply_change``'s answer for a move whose replies are not known from the shared count
NOT_SHARED = -(1 << 20)


@njit(inline="always", cache=True)
def _sliders_gained(T, pcs, row, start, straight, moved, to, after, free, free_after):
    """What T's sliders ``pcs`` (along ranks and files, ``straight``, or diagonals) gain
    by S's move of the squares ``moved`` to ``to``: each one's attacks with S passing are
    ``row[start + s]``; one standing on ``to`` is taken, one that sees neither square is
    unchanged, the others are looked up again on ``after`` (``free``, ``free_after``: the
    squares without a T piece before and after)."""
    gained = 0
    while pcs:
        s = lsb(pcs)
        pcs &= pcs - ONE
        att = row[start + s]
        if s == to:  # taken
            gained -= popcount(att & free)
        elif att & moved:
            now = rook_attacks(T, s, after) if straight else bishop_attacks(T, s, after)
            gained += popcount(now & free_after) - popcount(att & free)
    return gained


@njit(inline="always", cache=True)
def _pawns_gained(row, pawns, ours, us, fbit, xbit, after):
    """How many more moves T's unpinned pawns ``pawns`` have after S's move from ``fbit``
    to ``xbit`` (occupancy ``after``; a capture when ``xbit`` held a T piece) than with S
    passing (``PAWN_MOVES_ROW``), by the generator's own rule."""
    opp = (ours ^ fbit) | xbit
    return _pawn_moves(None, 0, us ^ 1, pawns & ~xbit, ~after, opp, ALL, True, ZERO, ZERO)[0] - np.int64(row[PAWN_MOVES_ROW])


@njit(cache=True)  # a call, made only for a move that touches what T's pieces reach, or a capture
def _gained(T_, nT, row_, occ, ours, us, frm, to, capture):
    """How many more moves T's unpinned pieces but its king have after S's move from
    ``frm`` to ``to``, quiet or (``capture``) taking a T piece, than with S passing
    (negative: fewer). Nothing else of the board changes for them: the move empties
    ``frm`` and fills ``to``, or, taking, leaves ``to`` filled by an S piece that T may
    take now, and T loses the taken piece's moves. A knight's moves are every square but
    T's own: only those that see ``to`` gain one, by a capture. A slider's moves are its
    attacks off its own pieces, and only a slider that sees a square that changed changes:
    its attacks with S passing are in the node's row (``row_``, from ``DIAGONAL_ROW`` and
    ``STRAIGHT_ROW`` on), and only those after the move are looked up. The pawns are
    counted by the generator's own rule after the move (``_pawns_gained``; before it, once
    a node: ``PAWN_MOVES_ROW``). ``T_``, ``row_``: addresses (``nT`` words of attack tables), not arrays:
    an array argument costs numba's reference counting and seven words."""
    T = carray(T_, (nT,))
    row = carray(row_, (PAWN_MOVES_ROW + 1,))
    squares = row[SQUARES_ROW:]
    fbit = ONE << np.uint64(frm)
    xbit = ONE << np.uint64(to)
    moved = fbit | xbit
    free = ~(occ ^ ours)  # not T's pieces
    if capture:
        after = occ ^ fbit
        free_after = free | xbit
    else:
        after = occ ^ moved
        free_after = free
    gained = 0
    diagonal = squares[T_DIAGONAL]
    if (moved & squares[DIAGONAL_REACH]) | (xbit & diagonal):
        gained += _sliders_gained(T, diagonal, row, DIAGONAL_ROW, False, moved, to, after, free, free_after)
    straight = squares[T_STRAIGHT]
    if (moved & squares[STRAIGHT_REACH]) | (xbit & straight):
        gained += _sliders_gained(T, straight, row, STRAIGHT_ROW, True, moved, to, after, free, free_after)
    if capture:
        knights = squares[KNIGHTS]
        gained += popcount(T[N_ATT + to] & knights)
        if xbit & knights:
            gained -= popcount(T[N_ATT + to] & free)
    pawns = squares[PAWNS]
    if (moved & squares[PAWN_REACH]) | (xbit & pawns):
        gained += _pawns_gained(row, pawns, ours, us, fbit, xbit, after)
    return gained


@njit(inline="always", cache=True)
def reply_change(T, bb, board, us, move, reach, row):
    """How many more replies T has after S's ``move`` than when S passes (``reach`` and
    ``row``: ``sensitive_squares``), or ``NOT_SHARED`` when that is not known without making it."""
    if move & _UNSHARED:
        return NOT_SHARED
    frm = from_sq(move)
    to = to_sq(move)
    pt = np.uint64(board[frm] & 7)
    if ((row[np.uint64(LAND) + pt] >> np.uint64(to)) & (row[np.uint64(LEAVE) + pt] >> np.uint64(frm)) & ONE) == ZERO:
        return NOT_SHARED
    if (move & DOUBLE) and ep_kept(T, bb, (frm + to) >> 1, us):
        return NOT_SHARED
    capture = (move & CAPTURE) != 0
    fbit = ONE << np.uint64(frm)
    xbit = ONE << np.uint64(to)
    moved = fbit | xbit
    if capture or (moved & (row[SQUARES_ROW + DIAGONAL_REACH] | row[SQUARES_ROW + STRAIGHT_REACH])):
        return _gained(address(T), T.shape[0], address(row), bb[OCC], bb[occ_of(us)], us, frm, to, capture)
    if moved & reach:  # a quiet move touching only what T's pawns reach: counted here, no call
        return _pawns_gained(row, row[SQUARES_ROW + PAWNS], bb[occ_of(us)], us, fbit, xbit, bb[OCC] ^ moved)
    return 0
