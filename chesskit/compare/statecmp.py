"""Full-state comparison with a Python adapter that has ``fen()``.

Perft counts cannot see a halfmove clock or a castling right that unmake forgets
to restore; comparing the adapter's ``fen()`` with ours after every push and pop
can.  Six fields (and a variant's own) are compared, in this order, and the first that differs is
reported:

``placement``  the 64 squares (FEN placement, digits expanded)
``turn``       side to move
``castling``   the set of castling rooks: ``K``/``Q`` (outermost rook on that side
               of the king), Shredder file letters and X-FEN all mean rook squares,
               so the notations engines differ on compare equal
``ep``         the en-passant square, normalised to "only when an en-passant
               capture is legal" (the convention on which engines differ): ours is
               kept only if our Board has a legal en-passant capture; theirs counts
               only if it would make a legal en-passant capture possible in our
               position (or names a square a pawn of the side to move attacks but
               that no double push can have produced)
``pockets``    crazyhouse's pockets   } a variant's, compared where the adapter's
``promoted``   its '~' marks          } fen() gives them (python-chess's variant
``checks``     3check's counters      } boards do)
``halfmove``   halfmove clock       } skipped when the adapter's fen() has 4 fields
``fullmove``   fullmove number      } (the halfmove clock also in crazyhouse: a drop resets
                                      it in Fairy-Stockfish and chesskit, python-chess counts
                                      it on; docs/variants.md, "Where the oracles disagree")

Where it is checked (each comparison costs a push, two FENs and a move generation
on both sides, ~0.3 ms, so not every node of a deep perft):

1. a sweep from the start node over the adapter's own walk: its own legal moves,
   iteratively deepened up to the compare depth, comparing after the start
   ``set_fen``, every push and every pop, until ``budget`` pushes (default 2000);
2. at every node the descent visits: after ``set_fen``, each push along the path
   and each of the node's moves pushed and popped.

Moves the adapter lists that are not legal for us are not played (the count
descent reports them).
"""

from __future__ import annotations

from chesskit.board.board import Board
from chesskit.compare.classify import state_hint
from chesskit.compare.descent import StateMismatch
from chesskit.compare.engines.pyadapter import PythonEngine
from chesskit.errors import EngineError, FenError
from chesskit.geometry import distance, flip_rank
from chesskit.variants import get as get_variant
from chesskit.vocab import FILE_NAMES, PAWN, ROOK, parse_square, piece_code, square_name

SWEEP_PUSHES = 2000


class _Budget(Exception):
    """The sweep has used its pushes."""


def legal_ep_square(board: Board) -> int | None:
    """The en-passant square if an en-passant capture is legal in ``board``, else None."""
    ep = board.setup().ep
    if ep is None:
        return None
    for move in board.legal_moves():
        frm, to = parse_square(move[0:2]), parse_square(move[2:4])
        if to == ep and frm & 7 != to & 7 and board.piece_at(frm) & 7 == PAWN:
            return ep
    return None


def _expand(placement: str) -> str | None:
    """64 characters, a8..h8 first, '.' empty; None when malformed."""
    rows = placement.split("/")
    if len(rows) != 8:
        return None
    out = []
    for row in rows:
        text = "".join("." * int(c) if c.isdigit() else c for c in row)
        if len(text) != 8:
            return None
        out.append(text)
    return "".join(out)


def _rights(field: str, cells: str) -> set[int] | None:
    """The castling rook squares a castling field means; None when it is malformed."""
    if field == "-":
        return set()
    rights = set()
    for ch in field:
        white = ch.isupper()
        back = 0 if white else 56
        rook, king = ("R", "K") if white else ("r", "k")
        rank = [cells[flip_rank(back + f)] for f in range(8)]
        low = ch.lower()
        if low in "kq":
            king_file = rank.index(king) if king in rank else 4
            files = range(7, king_file, -1) if low == "k" else range(0, king_file)
            found = next((f for f in files if rank[f] == rook), 7 if low == "k" else 0)
            rights.add(back + found)
        elif low in FILE_NAMES:
            rights.add(back + FILE_NAMES.index(low))
        else:
            return None
    return rights


def _normalise_their_ep(board: Board, ours_fen: list[str], theirs: str) -> int | None:
    """Their ep square if it would allow a legal en-passant capture in our position, else None."""
    try:
        sq = parse_square(theirs)
    except Exception:  # noqa: BLE001 - garbage counts as a (wrong) square
        return -1
    hypothetical = " ".join([*ours_fen[:3], theirs, *ours_fen[4:]])
    try:
        if board.variant == "chess":
            other = Board(hypothetical, chess960=board.chess960 or None)
        else:
            other = Board(hypothetical, chess960=board.chess960 or None, variant=board.variant)
        # an en-passant square no double push explains is read but ignored (board/fen.py)
        unexplained = any(note.startswith("en passant:") for note in other.notes)
    except FenError:
        unexplained = True
    if unexplained:
        # no double push can have left this square; it matters if a pawn could capture onto it
        us = board.turn
        pawn = piece_code(us, PAWN)
        behind = sq - 8 if us == 0 else sq + 8
        if 0 <= behind < 64:
            for df in (-1, 1):
                f = (behind & 7) + df
                if 0 <= f < 8 and board.piece_at((behind & 56) + f) == pawn:
                    return sq
        return None
    return sq if legal_ep_square(other) == sq else None


def _fullmove_field(fen: str) -> int | None:
    """The fullmove number of ``fen`` (its last clock: 3check's ``3+3`` is no clock), or None."""
    clocks = [field for field in fen.split()[4:] if field.isdigit()]
    return int(clocks[-1]) if clocks else None


def kept_fullmove_zero(position_fen: str, their_fen: str) -> int:
    """1 when ``position_fen`` was typed with fullmove number 0 (FEN counts from 1; chesskit
    reads a 0 as 1, as Stockfish and python-chess do) and the engine, just set to it, kept
    the 0: its numbers then run one behind ours, its reading of the field, not a bug;
    else 0 (an engine that read 1 is held to ours)."""
    return int(_fullmove_field(position_fen) == 0 and _fullmove_field(their_fen) == 0)


def diff_state(board: Board, their_fen: str, fullmove_shift: int = 0) -> tuple[str, object, object] | None:
    """``(field, ours, theirs)`` for the first field where ``their_fen`` differs from ``board``.

    ``fullmove_shift``: how far the engine's fullmove numbers run behind ours (1 for an
    engine that kept a typed 0: ``kept_fullmove_zero``); ``ours`` is then shifted too, the
    number the engine should have written. Raises ValueError when
    ``their_fen`` has fewer than 4 fields.
    """
    ours = board.fen().split()
    theirs = their_fen.split()
    if len(theirs) < 4:
        raise ValueError(f"{their_fen!r} is not a FEN (it needs at least 4 fields)")
    variant = getattr(board, "variant", "chess")
    if variant != "chess":
        ours, our_extras = variant_fields(ours, variant)
        try:
            theirs, their_extras = variant_fields(theirs, variant)
        except FenError:
            return ("placement", ours[0], their_fen.split()[0])
    cells = _expand(ours[0])
    if _expand(theirs[0]) != cells:
        return ("placement", ours[0], theirs[0])
    if theirs[1].lower() != ours[1]:
        return ("turn", ours[1], theirs[1])
    if _rights(theirs[2], cells) != set(board.setup().castling):
        return ("castling", ours[2], theirs[2])
    ep = legal_ep_square(board)
    their_ep = None if theirs[3] == "-" else theirs[3]
    if their_ep != (None if ep is None else square_name(ep)):
        normal = None if their_ep is None else _normalise_their_ep(board, ours, their_ep)
        if normal != ep:
            return ("ep", None if ep is None else square_name(ep), their_ep)
    if variant != "chess":
        for field, mine, other in zip(("pockets", "promoted", "checks"), our_extras, their_extras):
            if other is not None and mine != other:
                return (field, mine, other)
    if len(theirs) >= 6:
        clocks = [("halfmove", ours[4], theirs[4]), ("fullmove", ours[5], theirs[5])]
        if variant != "chess" and get_variant(variant).pockets:
            clocks.pop(0)  # the oracles' clocks part at the first drop
        for name, our_text, their_text in clocks:
            if name == "fullmove" and fullmove_shift:
                our_text = str(int(our_text) - fullmove_shift)  # what the engine should say, counting from 0
            if their_text != our_text:
                value = int(their_text) if their_text.isdigit() else their_text
                return (name, int(our_text), value)
    return None


def variant_fields(fields: list[str], variant: str) -> tuple[list[str], tuple]:
    """A variant FEN's fields as standard chess's (placement without pockets or '~'
    marks, no check counters) and its extras as text: (pockets ``[..]``, promoted squares,
    remaining checks ``W+B``), each None where the FEN does not give it."""
    from chesskit.board.fen_variants import format_checks, format_pockets, parse_pockets, split_checks, split_pockets
    from chesskit.variants import get

    rules = get(variant)
    placement, pocket = split_pockets(fields[0], rules)
    marks = []
    cells = "".join("." * int(c) if c.isdigit() else c for c in placement.replace("/", ""))
    at = 0
    for ch in cells:
        if ch == "~":
            marks.append(square_name(flip_rank(at - 1)))
        else:
            at += 1
    given = (len(fields) >= 5 and "+" in fields[4]) or (len(fields) >= 7 and fields[6].startswith("+"))
    rest, checks = split_checks(fields, rules)
    pockets = None if pocket is None else format_pockets(parse_pockets(pocket))
    promoted = (" ".join(sorted(marks)) or "-") if pocket is not None or marks else None
    remaining = format_checks(checks) if given and checks is not None else None
    return [placement.replace("~", ""), *rest[1:]], (pockets, promoted, remaining)


VARIANT_LABELS = {"pockets": "pockets", "promoted": "promoted marks (~)", "checks": "check counters"}


def _variant_hint(field: str, op: str, move: str | None, ours: str, theirs: str) -> str:
    """A one-line likely cause for a difference in a variant's own FEN fields."""
    label = VARIANT_LABELS[field]
    shown = f"ours {ours}, theirs {theirs}"
    if op == "pop":
        return f"unmake (pop {move}) does not restore the {label}: {shown}"
    if op == "set_fen":
        return f"set_fen() then fen() does not give back the {label}: {shown}"
    if field == "pockets":
        mine, other = _pocket_letters(ours), _pocket_letters(theirs)
        if any(item[0].lower() == "p" for item in mine - other) and any(item[0].lower() != "p" for item in other - mine):
            return f"a captured promoted piece goes to the pocket as a pawn (after {move}): {shown}"
        return f"pockets wrong after {move}: a capture adds the piece to the capturer's pocket, a drop takes it out: {shown}"
    if field == "promoted":
        return f"promoted marks wrong after {move}: a promoted piece keeps its mark when it moves, loses it when taken: {shown}"
    return f"check counters wrong after {move}: each check given counts toward three (remaining checks {shown})"


def _pocket_letters(text: str) -> set[str]:
    """The pocket's pieces, each letter numbered (``[PPn]`` -> {P1, P2, n1})."""
    seen: dict[str, int] = {}
    for ch in text.strip("[]"):
        seen[ch] = seen.get(ch, 0) + 1
    return {ch + str(i) for ch, n in seen.items() for i in range(1, n + 1)}


def _explosion_hint(move: str | None, ours: str, theirs: str) -> str | None:
    """Atomic: the placement differs around a capture's square."""
    a, b = _expand(ours.split("[")[0]), _expand(theirs.split("[")[0])
    if a is None or b is None or move is None:
        return None
    to = parse_square(move[2:4])
    near = [i for i in range(64) if a[i] != b[i] and distance(flip_rank(i), to) <= 1]
    if not near:
        return None
    where = square_name(flip_rank(near[0]))
    if a[near[0]].lower() == "p":
        return f"pawn immunity: pawns survive explosions (the engine lost the pawn on {where} to the capture {move})"
    if a[near[0]] == ".":
        return f"explosion radius: every piece but a pawn next to the capture square is exploded (the engine kept {where} after {move})"
    return f"explosion: {where} differs after the capture {move}: {_placement_detail(ours, theirs)}"


def _placement_detail(ours: str, theirs: str) -> str:
    a, b = _expand(ours), _expand(theirs)
    if a is None or b is None:
        return f"fen() gave a malformed placement {theirs!r}"
    shown = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            shown.append(
                f"{square_name(flip_rank(i))} ours {'empty' if x == '.' else x}, theirs {'empty' if y == '.' else y}"
            )
    return "; ".join(shown[:4]) + ("; ..." if len(shown) > 4 else "")


def state_checker(engine, position_fen: str, prefix: list[str], chess960: bool, budget: int):
    """A ``StateChecker`` for ``engine`` if it can show its full state (a Python adapter
    with ``fen()``), else None: what ``compare`` and ``suite`` pass to the descent. In a
    variant, crazyhouse's pockets and promoted marks and 3check's check counters are
    compared too, where the adapter's ``fen()`` writes them."""
    if not isinstance(engine, PythonEngine) or not engine.has_fen():
        return None
    return StateChecker(engine, position_fen, prefix, chess960, budget)


class StateChecker:
    """Compares a ``PythonEngine``'s ``fen()`` with our Board as both play the same moves."""

    def __init__(
        self, engine, position_fen: str, prefix: list[str], chess960: bool, budget: int = SWEEP_PUSHES
    ):
        self.engine = engine
        self.position_fen = position_fen
        self.prefix = list(prefix)
        self.chess960 = bool(chess960)
        self.budget = budget
        self.fullmove_shift = 0  # set at each set_fen: kept_fullmove_zero
        self.pushes = 0  # pushes compared so far, sweep and descent together
        self._left: int | None = None  # pushes the running sweep may still make
        self._at: list[str] = []  # the moves to the node the adapter is being asked about

    # -- the two walks -----------------------------------------------------------

    def sweep(self, max_depth: int) -> StateMismatch | None:
        """The adapter's own walk from the start node, deepening until the budget is used."""
        self._left = self.budget
        try:
            for depth in range(1, max_depth + 1):
                board, found = self._start(self.prefix)
                if found is not None:
                    return found
                found = self._walk(board, list(self.prefix), depth)
                if found is not None:
                    return found
        except _Budget:
            pass
        except EngineError as err:
            raise self._located(err) from None
        finally:
            self._left = None
        return None

    def check_node(self, path: list[str]) -> StateMismatch | None:
        """Every push along ``prefix + path``, then each move of that node pushed and popped."""
        try:
            board, found = self._start(self.prefix + list(path))
            if found is not None:
                return found
            return self._walk(board, self.prefix + list(path), 1)
        except EngineError as err:
            raise self._located(err) from None

    def _located(self, err: EngineError) -> EngineError:
        """``err`` (the adapter raised, or its ``fen()`` made no sense) saying at which node of
        the state check: as the descent's failures say theirs (``descent.located``)."""
        if err.path is not None or type(err) is not EngineError:  # a timeout, a start: as it is
            return err
        board = Board(self.position_fen, chess960=self.chess960 or None, variant=getattr(self.engine, "variant", "chess"))
        for move in self._at:
            board.push(move)
        where = f"after {' '.join(self._at)}" if self._at else "at the start position"
        found = EngineError(f"{err}; it failed in compare's check of its state (push, pop, fen()), {where} (fen {board.shown_fen()})")
        found.path, found.fen = list(self._at), board.shown_fen()
        return found

    # -- helpers ---------------------------------------------------------------

    def _start(self, moves: list[str]) -> tuple[Board, StateMismatch | None]:
        variant = getattr(self.engine, "variant", "chess")
        if variant == "chess":
            board = Board(self.position_fen, chess960=self.chess960 or None)
        else:
            board = Board(self.position_fen, chess960=self.chess960 or None, variant=variant)
        self._at = []
        self.engine.set_fen(self.position_fen, self.chess960)
        found = self._compare(board, [], "set_fen", None)
        for i, move in enumerate(moves):
            if found is not None:
                break
            found = self._push(board, moves[:i], move)
        return board, found

    def _walk(self, board: Board, path: list[str], depth: int) -> StateMismatch | None:
        ours = set(board.legal_moves())
        self._at = list(path)
        for move in self.engine.legal_moves():
            if move not in ours:
                continue
            if self._left is not None:
                if self._left <= 0:
                    raise _Budget()
                self._left -= 1
            found = self._push(board, path, move)
            if found is None and depth > 1:
                found = self._walk(board, path + [move], depth - 1)
            if found is not None:
                return found
            board.pop()
            self._at = path + [move]  # the node it pops back from
            self.engine.pop()
            self._at = list(path)
            found = self._compare(board, path, "pop", move)
            if found is not None:
                return found
        return None

    def _push(self, board: Board, path: list[str], move: str) -> StateMismatch | None:
        """Push ``move`` on both sides and compare; both stay pushed."""
        before = board.piece_at(parse_square(move[2:4]))
        rights = set(board.setup().castling)
        self._at = list(path)  # the node it pushes from
        board.push(move)
        self.engine.push(move)
        self._at = path + [move]
        self.pushes += 1
        found = self._compare(board, path + [move], "push", move)
        if found is not None and found.field == "castling":
            to = parse_square(move[2:4])
            if before & 7 == ROOK and to in rights and before >> 3 == board.turn:
                found.hint = (
                    f"castling right kept after {move} captured the rook on {square_name(to)}: "
                    "rights not cleared when a rook is captured on its home square"
                )
        return found

    def _compare(self, board: Board, path: list[str], op: str, move: str | None) -> StateMismatch | None:
        text = self.engine.fen()
        if op == "set_fen":
            self.fullmove_shift = kept_fullmove_zero(self.position_fen, text)
        try:
            diff = diff_state(board, text, self.fullmove_shift)
        except ValueError as err:
            raise self.engine.error(f"fen() returned {err}") from None
        if diff is None:
            return None
        field, ours, theirs = diff
        mismatch = StateMismatch(list(path), board.shown_fen(), op, move, field, ours, theirs)
        if field == "placement":
            mismatch.hint = f"{state_hint(mismatch)}: {_placement_detail(ours, theirs)}"
            if board.variant == "atomic" and op == "push":
                mismatch.hint = _explosion_hint(move, ours, theirs) or mismatch.hint
        elif field in VARIANT_LABELS:
            mismatch.hint = _variant_hint(field, op, move, ours, theirs)
        return mismatch
