"""``chesskit debug --variant NAME``: the consistency checker of a variant position.

The variant core is copy-make (``chesskit/core/vwalk.py``): ``Board.push`` makes a move on
copies of the arrays (``vmake``, compiled) and ``pop`` restores the arrays kept before it.
This walk pushes and pops every move of the tree to DEPTH through them and checks, in
plain Python from the square array (independently of the compiled code), each invariant
below; the moves themselves come from the variant's compiled walk. Far slower than the
standard checker (some thousands of nodes a second): it is meant for shallow depths.

at every node (the root and every node reached)
  one-king-each           as the variant allows: one each (chess-like variants), none for
                          horde's White, any in antichess, none for an atomic side to move
                          whose king exploded
  colours-disjoint, occupancy-union, bitboards-match-squares   as in standard chess
  pocket-counts           crazyhouse: each pocket count of pawn..queen in 0..N, N the pieces
                          on the board and in the pockets at the root but at least 32 (the
                          FEN reader accepts any count), no other slot used; other
                          variants: no pocket at all
  material-conservation   crazyhouse: the pieces on the board plus those in both pockets
                          are as many as at the root
  promoted-flags          the squares marked promoted hold a piece, never a pawn or a king
                          (crazyhouse only; none elsewhere)
  check-counters          3check: each side's checks given in 0..3; none elsewhere
  zobrist-key             the key equals one computed from scratch, its variant terms
                          (variant, pockets, promoted squares, check counters) included
  castling-rights-placement  each castling right's rook stands on it
after every push (make)
  side-to-move            flipped
  move-applied            the square array is the one before with the move applied
                          (a drop puts the piece from the pocket on an empty square)
  explosion               atomic: a capture also empties its square and every non-pawn
                          square around it (the rule's result, worked out here)
  pocket-update           crazyhouse: a drop takes its piece from the mover's pocket; a
                          capture adds the captured piece to it, as a pawn when it was
                          promoted or taken en passant; nothing else changes
  promoted-update         the promoted mark follows the piece (a promotion sets it, a
                          capture or a move away clears it; a castling rook takes it along)
  check-count-update      3check: the mover's count grows by one exactly when the side to
                          move is in check after the move; the other count never changes
  ep-square, halfmove-clock (a drop resets it, as Fairy-Stockfish), fullmove-number
  mover-not-in-check      the mover's king is not attacked (atomic: unless the kings touch
                          or the enemy king exploded; racing kings: nobody is in check;
                          never in antichess or for horde's White)
at every node with two or more plies below it
  bulk-count              the last ply's count-only mode (``vrules.leaf_count``) equals the
                          moves generated in the children
after every pop (unmake)
  unmake-restores-state   every bitboard, square and state field (pockets, promoted marks,
                          check counters) equals its value before the push
and the FEN read back (``fen-round-trip``) at every node down to ``fen_depth``.

``inject`` names a fault of ``VFAULTS`` (tests): it corrupts the state right after a push
or a pop, so the tests prove that each invariant fires.
"""

from __future__ import annotations

import numpy as np

from chesskit.board import vinject, vload
from chesskit.board.debug import DebugResult, Violation, _bb_name, _piece, _squares
from chesskit.core import state as P
from chesskit.core import vstate as V
from chesskit.geometry import attackers, distance
from chesskit.invariants import FEN_ROUND_TRIP
from chesskit.vocab import (
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    PIECE_NAMES,
    QUEEN,
    ROOK,
    castle_squares,
    drop_piece,
    from_sq,
    is_castling,
    is_drop,
    promotion,
    square_name,
    to_sq,
)
from chesskit.vocab import CAPTURE, DOUBLE, EN_PASSANT

# the variant checker's own invariants (the others are the standard checker's names)
VARIANT_INVARIANTS = (
    "pocket-counts",
    "material-conservation",
    "promoted-flags",
    "check-counters",
    "explosion",
    "pocket-update",
    "promoted-update",
    "check-count-update",
)
# injectable faults (tests) -> the invariant each must trip
VFAULTS = {
    "pocket-overflow": "pocket-counts",  # a pocket count set to 40 (crazyhouse)
    "pocket-grows": "material-conservation",  # a pawn added to the mover's pocket, keyed (crazyhouse)
    "pocket-wrong-piece": "pocket-update",  # a captured piece pocketed as a pawn, keyed (crazyhouse)
    "pocket-unkeyed": "zobrist-key",  # a pawn added to the mover's pocket, the key left (crazyhouse)
    "promoted-pawn": "promoted-flags",  # a pawn marked promoted, keyed (crazyhouse)
    "promoted-lost": "promoted-update",  # a promoted piece's mark dropped when it moves, keyed (crazyhouse)
    "checks-overflow": "check-counters",  # the mover's check count set to 4 (3check)
    "check-not-counted": "check-count-update",  # a check given left uncounted, keyed (3check)
    "explosion-spares": "explosion",  # a non-pawn next to a capture survives it, keyed (atomic)
    "pop-keeps-pocket": "unmake-restores-state",  # pop leaves the mover's pocket one pawn richer (crazyhouse)
    "pop-keeps-checks": "unmake-restores-state",  # pop leaves the mover's check count one higher (3check)
    "pop-keeps-promoted": "unmake-restores-state",  # pop leaves a promoted mark on the moved-from square (crazyhouse)
}
_NO_TABLE = np.zeros(0, dtype=np.uint64)
_CHESS_KINGS = ("crazyhouse", "kingofthehill", "3check", "racingkings")


class _Found(Exception):
    def __init__(self, check: str, move: int | None, expected: str, actual: str):
        super().__init__(check)
        self.check, self.move, self.expected, self.actual = check, move, expected, actual


def run_checks(board, depth: int, inject: str | None = None, fen_depth: int | None = None) -> DebugResult:
    """Check every node of the variant ``board``'s tree to ``depth`` (board unchanged)."""
    depth = board._check_depth(depth, 0)
    if inject is not None and inject not in VFAULTS:
        raise ValueError(f"unknown variant fault {inject!r}")
    walk = _Walk(board, inject, depth - 1 if fen_depth is None else min(fen_depth, depth))
    try:
        walk.node_rules()
        walk.node(depth, 0)
    except _Found as found:
        return DebugResult(walk.nodes, walk.checks, walk.violation(found))
    return DebugResult(walk.nodes, walk.checks)


class _Walk:
    def __init__(self, board, inject: str | None, fen_depth: int):
        self.root = board
        self.board = board.copy()
        self.base = len(self.board._stack)
        self.rules = V.RULES[board._vid]
        self.name = board.variant
        self.inject = inject
        self.fen_depth = fen_depth
        self.nodes = 0
        self.checks = 0
        self.material = _material(self.board)

    # ---------------------------------------------------------------- the walk

    def node(self, left: int, ply: int) -> int:
        """Walk the ``left`` plies below the current node; return its number of moves."""
        if ply <= self.fen_depth:
            self._round_trip()
        if left == 0:
            self.nodes += 1
            return 0
        moves = [int(m) for m in self.board._legal_packed()]
        below = 0
        for move in moves:
            saved = (self.board._bb.copy(), self.board._board.copy(), self.board._st.copy())
            vload.push(self.board, move)
            self.board._stack.append(move)
            self._after_make(move, saved)
            below += self.node(left - 1, ply + 1)
            self.board.pop()
            self._after_pop(move, saved)
        if left >= 2:
            self._bulk(below)
        return len(moves)

    def _bulk(self, below: int) -> None:
        self.checks += 1
        bulk = self.board._count(2, _NO_TABLE)
        if bulk != below:
            raise _Found("bulk-count", None, f"{below} (moves generated in the children)", f"{bulk} (count-only mode)")

    def node_rules(self) -> None:
        b = self.board
        self._structure()
        self._check(int(b._st[P.STM]) in (0, 1), "side-to-move", None, lambda: ("white or black", str(int(b._st[P.STM]))))
        self._castling_placement()

    def _check(self, ok: bool, name: str, move, texts) -> None:
        """Count one check; on failure raise it with ``texts()``: (expected, actual), worked
        out only then (most of the walk's time would go into formatting them)."""
        self.checks += 1
        if not ok:
            raise _Found(name, move, *texts())

    # ---------------------------------------------------------------- after make

    def _after_make(self, move: int, saved) -> None:
        self._inject_after_make(move, saved)
        pbb, pboard, pst = saved
        st = self.board._st
        us = int(pst[P.STM])
        self._check(int(st[P.STM]) == us ^ 1, "side-to-move", move, lambda: (_side(us ^ 1), _side(int(st[P.STM]))))
        self._structure(move)
        self._applied(move, pboard)
        self._pockets_after(move, pbb, pboard, pst)
        self._promoted_after(move, pbb)
        self._checks_after(move, pst)
        self._castling_placement(move)
        self._clocks(move, pboard, pst)
        self._mover_safe(move, us)

    def _structure(self, move=None) -> None:
        bb, board = self.board._bb, self.board._board
        self._kings(move)
        white, black = int(bb[7]), int(bb[15])
        self._check(white & black == 0, "colours-disjoint", move, lambda: ("no square in both colours", _squares(white & black)))
        self._check(white | black == int(bb[P.OCC]), "occupancy-union", move, lambda: (f"occupancy: {_squares(white | black)}", f"occupancy: {_squares(int(bb[P.OCC]))}"))
        expect = [0] * 16
        bits = bb.tolist()
        for sq, pc in enumerate(board.tolist()):
            if pc:
                expect[pc] |= 1 << sq
                expect[7 + 8 * (pc >> 3)] |= 1 << sq
                expect[0] |= 1 << sq
        self.checks += 1
        for j in range(16 if expect != bits[:16] else 0):
            i = (j + 1) & 15
            self._check(expect[i] == bits[i], "bitboards-match-squares", move, lambda: (f"{_bb_name(i)}: {_squares(expect[i])}", f"{_bb_name(i)}: {_squares(int(bb[i]))}"))
        self._pocket_counts(move)
        self._promoted_flags(move)
        self._check_counters(move)
        key = _key_from_scratch(self.board)
        self._check(key == int(bb[P.KEY]), "zobrist-key", move, lambda: (f"key {key:016x} (from scratch)", f"key {int(bb[P.KEY]):016x} (incremental)"))

    def _kings(self, move) -> None:
        bb, turn = self.board._bb, int(self.board._st[P.STM])
        for colour in (0, 1):
            n = int(bb[(colour << 3) | KING]).bit_count()
            if self.rules == V.ANTICHESS:
                allowed = {n}
            elif self.rules == V.HORDE:
                allowed = {0} if colour == 0 else {1}
            elif self.rules == V.ATOMIC and colour == turn:
                allowed = {0, 1}  # its king exploded: the game is over
            else:
                allowed = {1}
            self._check(n in allowed, "one-king-each", move, lambda: (f"{' or '.join(map(str, sorted(allowed)))} {_colour(colour)} king", f"{n} {_colour(colour)} kings"))

    def _pocket_counts(self, move) -> None:
        # The FEN reader accepts any pocket count (more than 32 pieces is only a "cannot
        # arise" note), so the bound is what the root holds, never less than 32: a count
        # above it came from chesskit's own moves, not from the input.
        st, top = self.board._st, max(V.POCKET_MAX - 1, self.material)
        for colour in (0, 1):
            for slot in range(8):
                n = int(st[V.POCKET + colour * 8 + slot])
                fine = 0 <= n <= top if self.rules == V.CRAZYHOUSE and PAWN <= slot <= QUEEN else n == 0
                self._check(fine, "pocket-counts", move, lambda: (f"{_colour(colour)} pocket {_slot(slot)}: "
                            + (f"0..{top}" if PAWN <= slot <= QUEEN and self.rules == V.CRAZYHOUSE else "0"), f"{_colour(colour)} pocket {_slot(slot)}: {n}"))
        if self.rules == V.CRAZYHOUSE:
            total = _material(self.board)
            self._check(total == self.material, "material-conservation", move,
                        lambda: (f"{self.material} pieces on the board and in the pockets", f"{total}"))

    def _promoted_flags(self, move) -> None:
        bb, board = self.board._bb, self.board._board
        marks = int(bb[V.PROMOTED])
        if self.rules != V.CRAZYHOUSE:
            self._check(marks == 0, "promoted-flags", move, lambda: ("no promoted mark", f"marks on {_squares(marks)}"))
            return
        bad = [sq for sq in range(64) if marks >> sq & 1 and int(board[sq]) & 7 not in (KNIGHT, BISHOP, ROOK, QUEEN)]
        self._check(not bad, "promoted-flags", move, lambda: ("marks only on knights, bishops, rooks and queens", ", ".join(f"mark on {square_name(sq)} ({_piece(int(board[sq]))})" for sq in bad)))

    def _check_counters(self, move) -> None:
        st = self.board._st
        top = 3 if self.rules == V.THREECHECK else 0
        for colour in (0, 1):
            n = int(st[V.CHECKS + colour])
            self._check(0 <= n <= top, "check-counters", move, lambda: (f"{_colour(colour)} checks given 0..{top}", f"{_colour(colour)} checks given {n}"))

    def _castling_placement(self, move=None) -> None:
        rights, board = int(self.board._bb[P.CASTLE]), self.board._board
        bad = [sq for sq in range(64) if rights >> sq & 1 and not (
            (sq < 8 and int(board[sq]) == ROOK) or (sq >= 56 and int(board[sq]) == ROOK | 8))]
        self._check(not bad, "castling-rights-placement", move, lambda: ("a rook of its side on each right's square", "no such rook on " + _squares(sum(1 << sq for sq in bad))))

    def _applied(self, move: int, pboard) -> None:
        """The square array after ``move``, worked out from the one before."""
        board = self.board._board
        expect = [int(x) for x in pboard]
        us = int(self.board._st[P.STM]) ^ 1
        frm, to = from_sq(move), to_sq(move)
        blast = []
        if is_drop(move):
            expect[to] = drop_piece(move) | (us << 3)
        elif is_castling(move):
            kto, rto = castle_squares(frm, to)
            king, rook = expect[frm], expect[to]
            expect[frm] = expect[to] = 0
            expect[kto], expect[rto] = king, rook
        else:
            pc = expect[frm]
            if move & EN_PASSANT:
                expect[to - 8 if us == 0 else to + 8] = 0
            expect[frm] = 0
            expect[to] = pc if not promotion(move) else promotion(move) | (us << 3)
            if self.rules == V.ATOMIC and move & CAPTURE:
                blast = [to] + [sq for sq in range(64) if distance(sq, to) == 1 and expect[sq] & 7 not in (0, PAWN)]
                for sq in blast:
                    expect[sq] = 0
        self.checks += 1
        for sq in range(64 if expect != board.tolist() else 0):
            name = "explosion" if sq in blast else "move-applied"
            self._check(expect[sq] == int(board[sq]), name, move, lambda: (f"{square_name(sq)}: {_piece(expect[sq])}", f"{square_name(sq)}: {_piece(int(board[sq]))}"))

    def _pockets_after(self, move: int, pbb, pboard, pst) -> None:
        st = self.board._st
        expect = [int(x) for x in pst[V.POCKET : V.POCKET + 16]]
        us = int(pst[P.STM])
        if is_drop(move):
            expect[us * 8 + drop_piece(move)] -= 1
        elif move & CAPTURE and not is_castling(move) and self.rules == V.CRAZYHOUSE:
            to = to_sq(move)
            promoted = int(pbb[V.PROMOTED]) >> to & 1
            expect[us * 8 + (PAWN if move & EN_PASSANT or promoted else int(pboard[to]) & 7)] += 1
        for i in range(16):
            got = int(st[V.POCKET + i])
            self._check(got == expect[i], "pocket-update", move, lambda: (f"{_colour(i >> 3)} pocket {_slot(i & 7)}: {expect[i]}", f"{_colour(i >> 3)} pocket {_slot(i & 7)}: {got}"))

    def _promoted_after(self, move: int, pbb) -> None:
        before = int(pbb[V.PROMOTED])
        frm, to = from_sq(move), to_sq(move)
        expect = before
        if is_castling(move):
            if before >> to & 1:
                expect ^= (1 << to) | (1 << castle_squares(frm, to)[1])
        elif not is_drop(move):
            expect &= ~((1 << frm) | (1 << to))
            if before >> frm & 1 or promotion(move):
                expect |= 1 << to
        if self.rules != V.CRAZYHOUSE:
            expect = 0
        got = int(self.board._bb[V.PROMOTED])
        self._check(got == expect, "promoted-update", move, lambda: (f"promoted: {_squares(expect)}", f"promoted: {_squares(got)}"))

    def _checks_after(self, move: int, pst) -> None:
        st = self.board._st
        us = int(pst[P.STM])
        expect = [int(pst[V.CHECKS]), int(pst[V.CHECKS + 1])]
        if self.rules == V.THREECHECK and self._attacked_king(us ^ 1):
            expect[us] += 1
        for colour in (0, 1):
            got = int(st[V.CHECKS + colour])
            self._check(got == expect[colour], "check-count-update", move, lambda: (f"{_colour(colour)} checks given {expect[colour]}", f"{_colour(colour)} checks given {got}"))

    def _clocks(self, move: int, pboard, pst) -> None:
        st = self.board._st
        us = int(pst[P.STM])
        frm, to = from_sq(move), to_sq(move)
        ep = P.NO_SQ
        if move & DOUBLE:
            mid = (frm + to) >> 1
            enemy_pawn = PAWN | ((us ^ 1) << 3)
            if any(int(self.board._board[sq]) == enemy_pawn for sq in _pawn_attackers(mid, us ^ 1)):
                ep = mid
        self._check(int(st[P.EP]) == ep, "ep-square", move, lambda: (f"en-passant square {_ep(ep)}", f"en-passant square {_ep(int(st[P.EP]))}"))
        reset = is_drop(move) or (not is_castling(move) and (int(pboard[frm]) & 7 == PAWN or bool(move & CAPTURE)))
        half = 0 if reset else int(pst[P.HALF]) + 1
        self._check(int(st[P.HALF]) == half, "halfmove-clock", move, lambda: (f"halfmove clock {half}", f"halfmove clock {int(st[P.HALF])}"))
        full = int(pst[P.FULL]) + us
        self._check(int(st[P.FULL]) == full, "fullmove-number", move, lambda: (f"fullmove number {full}", f"fullmove number {int(st[P.FULL])}"))

    def _mover_safe(self, move: int, us: int) -> None:
        if self.rules == V.ANTICHESS or (self.rules == V.HORDE and us == 0):
            return
        bb = self.board._bb
        if self.rules == V.ATOMIC:
            mine, theirs = int(bb[(us << 3) | KING]), int(bb[((us ^ 1) << 3) | KING])
            if not theirs or distance(mine.bit_length() - 1, theirs.bit_length() - 1) == 1:
                return
        self._check(not self._attacked_king(us), "mover-not-in-check", move, lambda: (f"{_colour(us)} king not attacked", "attacked"))
        if self.rules == V.RACINGKINGS:
            self._check(not self._attacked_king(us ^ 1), "mover-not-in-check", move,
                        lambda: (f"{_colour(us ^ 1)} king not attacked (no check in racing kings)", "attacked"))

    def _attacked_king(self, colour: int) -> bool:
        kings = int(self.board._bb[(colour << 3) | KING])
        if not kings:
            return False
        board = [int(x) for x in self.board._board]
        return bool(attackers(board, kings.bit_length() - 1, colour ^ 1))

    # ---------------------------------------------------------------- after pop

    def _after_pop(self, move: int, saved) -> None:
        self._inject_after_pop(move)
        b = self.board
        for name, now, before in (("bitboard", b._bb, saved[0]), ("square", b._board, saved[1]), ("state", b._st, saved[2])):
            diff = np.flatnonzero(now != before)
            self._check(diff.size == 0, "unmake-restores-state", move,
                        lambda: (_field(name, int(diff[0]), before) if diff.size else "", _field(name, int(diff[0]), now) if diff.size else ""))

    def _round_trip(self) -> None:
        from chesskit.board.fen import format_fen

        b = self.board
        fen = format_fen(b.setup())
        self.checks += 1
        try:
            again = type(b)(fen, b.chess960, variant=b.variant)
        except Exception as err:  # noqa: BLE001 - any failure to read our own FEN is the finding
            raise _Found(FEN_ROUND_TRIP, None, "the FEN parses", f"{type(err).__name__}: {err}") from None
        for name, now, other in (("bitboard", b._bb, again._bb), ("square", b._board, again._board)):
            diff = np.flatnonzero(now != other)
            if diff.size:
                raise _Found(FEN_ROUND_TRIP, None, _field(name, int(diff[0]), now), _field(name, int(diff[0]), other))
        for i in (P.STM, P.EP, P.HALF, P.FULL, V.CHECKS, V.CHECKS + 1, *range(V.POCKET, V.POCKET + 16)):
            if b._st[i] != again._st[i]:
                raise _Found(FEN_ROUND_TRIP, None, _field("state", i, b._st), _field("state", i, again._st))

    # ---------------------------------------------------------------- faults

    def _inject_after_make(self, move: int, saved) -> None:
        if self.inject is not None:
            vinject.after_make(self.board, self.inject, move, saved, _key_from_scratch)

    def _inject_after_pop(self, move: int) -> None:
        if self.inject is not None:
            vinject.after_pop(self.board, self.inject, move)

    # ---------------------------------------------------------------- reporting

    def violation(self, found: _Found) -> Violation:
        path = [int(m) for m in self.board._stack[self.base :]]
        if found.move is not None and path and path[-1] == found.move and found.check != "unmake-restores-state":
            path = path[:-1]
        replay = self.root.copy()
        moves = []
        for packed in path:
            uci = replay.uci(packed)
            moves.append(uci)
            replay.push(uci)
        move = replay.uci(found.move) if found.move is not None else None
        return Violation(found.check, moves, replay.shown_fen(), move, found.expected, found.actual)


# ---------------------------------------------------------------- helpers


def _material(board) -> int:
    """Pieces on the board and in both pockets."""
    return int(board._bb[P.OCC]).bit_count() + int(sum(board._st[V.POCKET : V.POCKET + 16]))


def _key_from_scratch(board) -> int:
    bb, squares, st = board._bb, board._board, board._st
    key = 0
    for sq, pc in enumerate(squares.tolist()):
        if pc:
            key ^= int(P.Z_PIECE[pc * 64 + sq])
    rights = int(bb[P.CASTLE])
    for sq in range(64):
        if rights >> sq & 1:
            key ^= int(P.Z_CASTLE[sq])
    if int(st[P.STM]) == 1:
        key ^= int(P.Z_SIDE)
    if int(st[P.EP]) != P.NO_SQ:
        key ^= int(P.Z_EP[int(st[P.EP]) & 7])
    return key ^ int(V.Z_VARIANT[board._vid]) ^ int(V.extras_key(st, int(bb[V.PROMOTED])))


def _pawn_attackers(sq: int, colour: int) -> list[int]:
    """The squares from which a pawn of ``colour`` attacks ``sq``."""
    rank = (sq >> 3) - (1 if colour == 0 else -1)
    if not 0 <= rank <= 7:
        return []
    return [rank * 8 + f for f in ((sq & 7) - 1, (sq & 7) + 1) if 0 <= f <= 7]


def _colour(colour: int) -> str:
    return ("white", "black")[colour]


def _side(colour: int) -> str:
    return _colour(colour) if colour in (0, 1) else str(colour)


def _slot(slot: int) -> str:
    return PIECE_NAMES[slot] + "s" if 1 <= slot <= 6 else f"slot {slot}"


def _ep(sq: int) -> str:
    return "-" if sq < 0 else square_name(sq)


def _field(kind: str, i: int, values) -> str:
    """One field of the state arrays, named, with its value."""
    value = int(values[i])
    if kind == "square":
        return f"{square_name(i)}: {_piece(value)}"
    if kind == "bitboard":
        if i == P.KEY:
            return f"key {value & (2**64 - 1):016x}"
        label = "promoted" if i == V.PROMOTED else _bb_name(i)
        return f"{label}: {_squares(value)}"
    if V.POCKET <= i < V.POCKET + 16:
        return f"{_colour((i - V.POCKET) >> 3)} pocket {_slot((i - V.POCKET) & 7)}: {value}"
    if V.CHECKS <= i < V.CHECKS + 2:
        return f"{_colour(i - V.CHECKS)} checks given: {value}"
    names = {P.STM: "side to move", P.EP: "en-passant square", P.HALF: "halfmove clock", P.FULL: "fullmove number"}
    return f"{names.get(i, f'state {i}')}: {value}"
