"""The Python-facing Board: FEN in, UCI moves, push/pop, perft and divide.

It owns the core's state arrays (see ``chesskit/core/position.py``) and calls the compiled
functions on them. Moves are UCI strings here; standard chess castles as ``e1g1`` and
Chess960 as king-takes-rook ``e1h1`` (``push`` accepts either form in both).
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from chesskit.board import counters, debug, vload
from chesskit.board import threads as _threads
from chesskit.board.fen import STARTING_FEN, Setup, format_fen, parse_fen
from chesskit.core import state as P
from chesskit.core.api import table
from chesskit.core.tables import tables
from chesskit.errors import IllegalMoveError, InputError
from chesskit.geometry import attackers
from chesskit.variants import get as variant_named
from chesskit.board.fen import MAX_CLOCK
from chesskit.vocab import (
    COLOR_NAMES,
    PIECE_LETTERS,
    PIECE_NAMES,
    WHITE,
    PROMOTION_LETTERS,
    castle_squares,
    drop_piece,
    from_sq,
    is_castling,
    is_drop,
    parse_square,
    piece_code,
    promotion,
    square_name,
    to_sq,
)


_ZOBRIST_INTS: tuple | None = None


def _zobrist_ints() -> tuple:
    """The state's Zobrist keys (``core/state.py``) as Python ints: piece terms by
    ``code * 64 + square``, castling terms by the rook's square, the side's, en passant's
    by file."""
    global _ZOBRIST_INTS
    if _ZOBRIST_INTS is None:
        _ZOBRIST_INTS = (P.Z_PIECE.tolist(), P.Z_CASTLE.tolist(), int(P.Z_SIDE), P.Z_EP.tolist())
    return _ZOBRIST_INTS


def _uci_shaped(move: str) -> bool:
    """Whether ``move`` is written as a UCI move (``e2e4``, ``e7e8q``, a drop ``N@e4``),
    legal or not."""
    try:
        if move[1:2] == "@":
            return len(move) == 4 and parse_square(move[2:]) >= 0
        promotion = move[4:] in ("", "q", "r", "b", "n", "k")  # k: antichess
        return len(move) in (4, 5) and promotion and parse_square(move[:2]) >= 0 and parse_square(move[2:4]) >= 0
    except InputError:
        return False


class Board:
    """A chess position (standard or Chess960, or a variant's) backed by the compiled core."""

    variant = "chess"  # the canonical name of the variant (``chesskit.variants``)

    def __init__(
        self, fen: str | None = None, chess960: bool | None = None, strict: bool = False, *, variant: str = "chess"
    ):
        """``strict=True`` refuses a position that cannot arise in a game (FenError);
        otherwise it is counted and ``notes`` says why it cannot arise (see board/fen.py).
        ``variant`` names the rules (any name ``chesskit.variants.find`` reads); ``fen``
        defaults to the variant's start position."""
        name, named960 = vload.canonical(variant)
        chess960 = True if named960 else chess960
        if name == "chess":
            self._load(parse_fen(STARTING_FEN if fen is None else fen, chess960, strict))
        else:
            self._load(vload.parse(name, fen, chess960, strict))

    @classmethod
    def from_fen(cls, fen: str, chess960: bool | None = None, strict: bool = False, *, variant: str = "chess") -> "Board":
        return cls(fen, chess960, strict, variant=variant)

    @classmethod
    def from_setup(cls, setup: Setup) -> "Board":
        board = cls.__new__(cls)
        board._load(setup)
        return board

    # ------------------------------------------------------------ state

    def _load(self, setup: Setup) -> None:
        bb, board, st, hist, hkeys = P.new_state()
        squares = setup.board
        board[:] = squares
        st[P.STM] = setup.turn
        st[P.HALF] = setup.halfmove
        st[P.FULL] = setup.fullmove
        # plain Python ints, not numpy: a Board can be made without waking the compiled
        # core, and on 64 squares ints cost a few microseconds where numpy's per-call
        # overhead cost 50 (a suite sets up thousands of boards)
        piece_keys, castle_keys, side_key, ep_keys = _zobrist_ints()
        words = [0] * P.BB_SIZE
        key = 0
        for square, code in enumerate(squares):
            if code:
                bit = 1 << square
                words[code] |= bit
                words[7 + (code & 8)] |= bit  # occ_of(colour): bb[7] white, bb[15] black
                key ^= piece_keys[code * 64 + square]
        words[P.OCC] = words[7] | words[15]
        rights = [int(sq) for sq in setup.castling]
        for square in rights:
            words[P.CASTLE] |= 1 << square
            key ^= castle_keys[square]
        if setup.turn == P.BLACK:
            key ^= side_key
        bb[:] = words
        st[P.EP] = self._normalise_ep(setup, bb)
        if st[P.EP] != P.NO_SQ:
            key ^= ep_keys[st[P.EP] & 7]
        bb[P.KEY] = key
        self._bb, self._board, self._st, self._hist, self._hkeys = bb, board, st, hist, hkeys
        self.chess960 = setup.chess960
        self.notes = list(setup.notes)  # why the loaded position cannot arise in a game
        self._stack: list[int] = []
        # the arrays (bb, board, st) before each move of ``_stack``: ``pop`` puts them back
        self._saved: list[tuple] = []
        if setup.variant != "chess":
            vload.load(self, setup, setup.variant)

    @staticmethod
    def _normalise_ep(setup: Setup, bb) -> int:
        """Keep the en-passant square only if a pawn of the side to move attacks it: the
        rule make applies after a double push (``state.ep_kept``, compiled there), here on
        the pieces' bitboards ``bb`` and the attack table (plain numpy, loaded only for a
        FEN that names an en-passant square)."""
        if setup.ep is None:
            return P.NO_SQ
        us = setup.turn
        if P.ep_kept(tables(), bb, setup.ep, us ^ 1):
            return setup.ep
        return P.NO_SQ

    def setup(self) -> Setup:
        ep = int(self._st[P.EP])
        rights = int(self._bb[P.CASTLE])
        castling = []
        while rights:  # the set bits, lowest first
            low = rights & -rights
            castling.append(low.bit_length() - 1)
            rights ^= low
        setup = Setup(
            board=self._board.tolist(),  # Python ints, ten times as fast as one int() a square
            turn=int(self._st[P.STM]),
            castling=castling,
            ep=None if ep == P.NO_SQ else ep,
            halfmove=int(self._st[P.HALF]),
            fullmove=int(self._st[P.FULL]),
            chess960=self.chess960,
        )
        if self.variant != "chess":
            vload.describe(self, setup)
        return setup

    def _state(self) -> tuple:
        """The core's state arrays, in the order its compiled functions take them."""
        return self._bb, self._board, self._st, self._hist, self._hkeys

    def fen(self) -> str:
        return format_fen(self.setup())

    def shown_fen(self) -> str:
        """The FEN to show the user: Shredder-FEN's castling letters in Chess960
        (``chesskit.board.fen.shown_fen``), ``fen()`` otherwise. ``fen()`` stays X-FEN:
        what the engine back ends send."""
        return format_fen(self.setup(), shredder=bool(self.chess960))

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other._bb, other._board, other._st = P.aligned_copy(self._bb), self._board.copy(), self._st.copy()
        other._hist, other._hkeys = self._hist.copy(), self._hkeys.copy()
        other.chess960 = self.chess960
        other.notes = list(self.notes)
        other._stack = list(self._stack)
        other._saved = [tuple(a.copy() for a in saved) for saved in self._saved]
        if self.variant != "chess":
            other.variant, other._vid = self.variant, self._vid
        return other

    @property
    def turn(self) -> int:
        return int(self._st[P.STM])

    @property
    def key(self) -> int:
        """The Zobrist key."""
        return int(self._bb[P.KEY])

    @property
    def move_stack(self) -> list[str]:
        return [self.uci(m) for m in self._stack]

    def piece_at(self, sq: int) -> int:
        """The piece code on square ``sq`` (0 = a1 ... 63 = h8; 0 for an empty square)."""
        return int(self._board[_index(sq, 64, "square")])

    def king_square(self, color: int) -> int:
        """The square of the king of ``color`` (0 white, 1 black), -1 when there is none."""
        return int(self._bb[piece_code(_index(color, 2, "colour"), P.KING)]).bit_length() - 1

    def is_check(self) -> bool:
        """Whether the side to move is in check: standard chess's answer is read from the
        squares in plain Python (``geometry.attackers``), so that ``show`` or a SAN list
        does not load numba's compiler (~1.5 s) for one question."""
        if self.variant != "chess":
            return vload.is_check(self)
        board = self._board.tolist()
        return bool(attackers(board, board.index(piece_code(self.turn, P.KING)), 1 - self.turn))

    # ------------------------------------------------------------ moves

    def uci(self, move: int) -> str:
        """The UCI string of a packed move in this position's notation."""
        frm, to = from_sq(move), to_sq(move)
        if is_drop(move):  # crazyhouse: 'N@e4'
            return PIECE_LETTERS[drop_piece(move)].upper() + "@" + square_name(to)
        if is_castling(move) and not self.chess960:
            to = castle_squares(frm, to)[0]
        return square_name(frm) + square_name(to) + PROMOTION_LETTERS.get(promotion(move), "k" if promotion(move) == P.KING else "")

    def _legal_packed(self, prefix: tuple[int, ...] = ()) -> np.ndarray:
        """The packed legal moves after the packed moves of ``prefix``."""
        if self.variant != "chess":
            from chesskit.core import ventry

            return ventry.legal(self._vid, table(), self._state(), prefix)
        from chesskit.core import entry  # the walk lists moves too: one function to compile

        return entry.legal(table(), self._state(), prefix)

    def _count(self, depth: int, tt, prefix: tuple[int, ...] = ()) -> int:
        """perft(``depth``) after the packed moves of ``prefix`` (the compiled walk)."""
        if self.variant != "chess":
            from chesskit.core import ventry

            return ventry.count(self._vid, table(), self._state(), depth, tt, prefix)
        from chesskit.core import entry

        return entry.count(table(), self._state(), depth, tt, prefix)

    def _why_no_move(self) -> str:
        """Why the side to move has no legal move: the game is over by the variant's own
        rules, or checkmate, or stalemate (``gameover.py``)."""
        from chesskit.board.gameover import game_over, without_moves

        over = game_over(self.setup(), no_moves=True) if self.variant != "chess" else None
        return f"the game is over: {over}" if over else without_moves(self.variant, self.is_check(), COLOR_NAMES[self.turn])

    def legal_moves(self) -> list[str]:
        return [self.uci(int(m)) for m in self._legal_packed()]

    def _find(self, uci: str) -> int:
        moves = self._legal_packed()
        typed = uci  # the error quotes what was typed
        if uci[1:2] == "@":
            uci = self.drop_uci(uci)
        else:
            # only a move from the square it names can be it: the others need no UCI
            # string made (a push's lookup was most of its time, Kiwipete's 48 strings)
            try:
                moves = moves[from_sq(moves) == parse_square(uci[:2])]
            except InputError:
                pass  # no square first: no move matches, and the error below lists them all
        for move in moves:
            move = int(move)
            if self.uci(move) == uci:
                return move
            if is_castling(move):  # accept both castling notations
                frm, to = from_sq(move), to_sq(move)
                king_to = castle_squares(frm, to)[0]
                if uci in (square_name(frm) + square_name(to), square_name(frm) + square_name(king_to)):
                    return move
        legal = self.legal_moves()
        shaped = _uci_shaped(uci)
        why = vload.illegal_why(self, uci, self._legal_packed()) if shaped and self.variant != "chess" else ""
        raise IllegalMoveError(typed, self.shown_fen(), legal, uci=shaped, ended=None if legal else self._why_no_move(), why=why)

    def drop_uci(self, move: str) -> str:
        """The drop ``move`` (``N@e4``) as UCI writes it, its piece letter upper case: the
        side to move drops. A lower-case letter is read as a FEN's, so it must name the
        side to move's piece (``n@e5``, black to move); one of the other side's (``n@e4``,
        white to move: a black knight) is an IllegalMoveError, never that side's drop."""
        letter = move[:1]
        drops = self.variant != "chess" and variant_named(self.variant).pockets  # elsewhere no drop is legal
        if drops and letter.islower() and self.turn == WHITE and letter in PIECE_LETTERS.strip():
            upper = letter.upper() + move[1:]
            raise IllegalMoveError(
                move, self.shown_fen(), self.legal_moves(),
                why=f"{letter!r} is a black {PIECE_NAMES[PIECE_LETTERS.index(letter)]} and white is to move: a drop is "
                f"written with an upper-case letter ({upper}) and drops a piece of the side to move",
            )
        return letter.upper() + move[1:]

    def _reserve(self, plies: int, exact: bool = False, margin: int = 0) -> None:
        """Grow the history stack so ``plies`` more moves fit (and ``margin`` rows more),
        after checking that they cannot take a clock past ``MAX_CLOCK`` (else no FEN of the
        tree would read back); ``exact``: the caller checks the clocks itself, after the move."""
        if not exact:
            self._check_clocks(plies)
        need = int(self._st[P.PLY]) + plies + margin + 1
        if need > self._hist.shape[0]:
            size = max(need, 2 * self._hist.shape[0])
            self._hist = np.resize(self._hist, (size, self._hist.shape[1]))
            self._hkeys = np.resize(self._hkeys, (size, self._hkeys.shape[1]))

    def _check_clocks(self, plies: int = 0, move: str | None = None) -> None:
        """InputError when ``plies`` more moves could take a clock past ``MAX_CLOCK``: the
        halfmove clock grows by one a ply at most, the fullmove number after each black move."""
        black_moves = (plies + (1 if int(self._st[P.STM]) == P.BLACK else 0)) // 2
        for name, index, grows in (("halfmove clock", P.HALF, plies), ("fullmove number", P.FULL, black_moves)):
            value = int(self._st[index])
            if value + grows > MAX_CLOCK:
                if move:
                    what = f"move {move} would take the {name}"
                else:
                    what = f"the moves of this tree would take the {name} (now {value})"
                raise InputError(f"{what} past {MAX_CLOCK}, the largest a FEN may give")

    def push(self, uci: str) -> None:
        """Make a legal move given in UCI; IllegalMoveError lists the legal ones."""
        if not isinstance(uci, str):
            raise InputError(f"a move is a UCI string such as 'e2e4', not {uci!r}")
        move = self._find(uci.strip())
        self._make(move)
        try:
            self._check_clocks(move=uci.strip())
        except InputError:
            self.pop()
            raise

    def each_child(self) -> Iterator[str]:
        """Make each legal move in turn and yield its UCI with the board in the position
        after it; the move is taken back before the next (and when the caller stops early).
        A tree's children without a UCI string typed, looked up and checked for each: the
        cluster's split makes hundreds of thousands. The clocks are not checked (a child's
        FEN is the caller's; its perft does not depend on them)."""
        for move in self._legal_packed():
            move = int(move)
            self._make(move)
            try:
                yield self.uci(move)
            finally:
                self.pop()

    def _make(self, move: int) -> None:
        """Make the legal packed ``move`` (``push`` finds it)."""
        self._reserve(1, exact=True)
        if self.variant != "chess":
            vload.push(self, move)
        else:
            from chesskit.core import entry  # the walk makes it: no other compiled function to load

            saved = (self._bb.copy(), self._board.copy(), self._st.copy())
            entry.play(table(), self._state(), move)
            self._saved.append(saved)
        self._stack.append(move)

    def push_moves(self, moves: str | list[str]) -> None:
        for uci in moves.split() if isinstance(moves, str) else moves:
            self.push(uci)

    def pop(self) -> str:
        """Take back the last move: the arrays it changed are put back as they were before
        it (no compiled function to load, in every variant; the history rows past the ply
        are left, as the core's ``unmake`` leaves them)."""
        if not self._stack:
            raise InputError("no move to take back")
        move = self._stack.pop()
        saved = self._saved.pop()
        if self.variant != "chess":
            self._bb, self._board, self._st = saved  # a variant's push made new arrays
        else:
            self._bb[:], self._board[:], self._st[:] = saved  # in place: the walk's arguments keep their addresses
        return self.uci(move)

    # ------------------------------------------------------------ perft

    @staticmethod
    def _check_depth(depth: int, minimum: int) -> int:
        if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < minimum:
            raise InputError(f"depth must be an integer >= {minimum}, got {depth!r}")
        return int(depth)

    def perft(
        self, depth: int, hash_mb: float = 0, threads: int = 1, progress=None, check: bool = False, table=None
    ) -> int:
        """The number of leaf nodes of the legal move tree ``depth`` plies deep.

        ``hash_mb`` sizes a transposition table (0: none); ``threads`` > 1 splits the tree
        two plies down and walks the pieces in parallel. ``progress(done, total, nodes)``
        is called as parts of the tree finish. ``check=True`` (test runs) counts with the
        consistency checker instead, raising ``chesskit.board.debug.InvariantError`` on a violation.
        ``table`` is a transposition table from ``chesskit.core.hashtable.allocate`` to use instead
        of a fresh one, so that what one call learns serves the next (it must only ever be
        used for standard chess or only for Chess960, as the keys do not tell them apart).
        """
        if check:
            return self.debug(depth).raise_for_violation().nodes
        return sum(self._run(self._check_depth(depth, 0), hash_mb, threads, progress, tt=table).values())

    def divide(self, depth: int, hash_mb: float = 0, threads: int = 1, progress=None, table=None) -> dict[str, int]:
        """perft(depth - 1) below each legal move, in generation order."""
        return self._run(self._check_depth(depth, 1), hash_mb, threads, progress, by_move=True, tt=table)

    def _run(self, depth, hash_mb, threads, progress, by_move=False, tt=None) -> dict:
        """perft as ``{"": nodes}``, or divide as ``{move: nodes}`` (see ``chesskit.board.threads``)."""
        from chesskit.core.hashtable import allocate

        if depth == 0:
            return {"": 1}
        threads = self._check_threads(threads)
        self._check_size(depth)
        self._reserve(depth, margin=2)
        if tt is None:
            try:
                tt = allocate(hash_mb)
            except MemoryError:  # the request, not the machine, is at fault: exit 2
                raise InputError(f"a hash table of {hash_mb} MiB does not fit in this machine's memory") from None
        return _threads.run(self, depth, tt, threads, progress, by_move)

    def _check_size(self, depth: int) -> None:
        """An InputError (exit 2) for a tree whose count a 64-bit count may not hold: its
        size guessed from shallow counts (``tablesize.estimated_leaves``, a few ms; it can
        be several times low, hence the margin of ``tablesize.LARGEST_TREE``) over that
        bound. Only from depth 7 on: a shallower tree cannot come near it."""
        from chesskit.board import tablesize

        if depth < tablesize.ESTIMATE_FROM:
            return
        guessed = tablesize.estimated_leaves(lambda k: self.perft(k), depth)
        if guessed > tablesize.LARGEST_TREE:
            raise InputError(
                f"perft {depth} of this position has about {guessed:.2e} leaves, more than chesskit counts "
                f"(at most about {tablesize.LARGEST_TREE:.2e}: 64-bit counts); ask a shallower depth"
            )

    def warm_up(self, threads: int = 1) -> None:
        """Load (or, the first time, compile) everything a perft of this board with
        ``threads`` uses, so that timings that follow measure only the counting: the core's
        walk, which perft, divide and the thread pool's tasks all run, and a variant's own."""
        Board().perft(1)
        if self.variant != "chess":
            vload.warm_up(self)

    @staticmethod
    def _check_threads(threads: int) -> int:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise InputError(f"threads must be an integer >= 1, got {threads!r}")
        return threads

    # ------------------------------------------------------------ counters and checks

    def stats(self, depth: int) -> dict[str, int]:
        """perft(depth) as "nodes" and the leaf-move counters (standard chess's eight, or the
        variant's: see ``chesskit.board.counters`` and ``vcounters``)."""
        return counters.perft_stats(self, depth)

    def divide_stats(self, depth: int) -> dict[str, dict[str, int]]:
        """``stats`` below each legal root move, in generation order (depth >= 1)."""
        return counters.divide_stats(self, depth)

    def debug(self, depth: int):
        """Walk the tree to ``depth`` checking every invariant after every make and unmake;
        returns a ``chesskit.board.debug.DebugResult`` (``.ok``, ``.violation``); a variant's
        tree is checked by ``chesskit.board.vdebug``."""
        if self.variant != "chess":
            from chesskit.board import vdebug

            return vdebug.run_checks(self, depth)
        return debug.run_checks(self, depth)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"


def _index(value, size: int, what: str) -> int:
    """``value`` as an index below ``size``, or an InputError (numpy would wrap -1 around
    to the last one, and raise its own IndexError past the end)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise InputError(f"a {what} is an integer from 0 to {size - 1}, not {value!r}")
    return int(value)
