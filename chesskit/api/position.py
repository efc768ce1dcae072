"""A position as the API and the CLI take it: ``startpos``, a FEN or a suite id, then moves.

``open_position`` is the one way both turn ``(position, moves, chess960, strict)`` into a
``Board``; ``engine_fen`` is the FEN an external engine is given for it. Importing this
module does not load the compiled core (the Board is imported on first use).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from chesskit import variants
from chesskit.errors import InputError
from chesskit.suites.positions import is_chess960_id, move_words, resolve_position
from chesskit.vocab import MAX_DEPTH

# moves as a space- (or comma-) separated string, or a sequence of UCI strings
Moves = Union[str, Sequence[str]]


def move_list(moves: Moves) -> list[str]:
    """``"e2e4 e7e5"``, ``"e2e4,e7e5"`` or ``["e2e4", "e7e5"]`` -> ``["e2e4", "e7e5"]``."""
    if isinstance(moves, str):
        return move_words(moves)
    if not isinstance(moves, Sequence) or isinstance(moves, (bytes, bytearray)):  # bytes: "got 101" for b"e2e4"
        raise InputError(f"moves must be a string or a sequence of UCI strings, got {moves!r}")
    found = []
    for move in moves:
        if not isinstance(move, str):
            raise InputError(f"a move must be a UCI string such as 'e2e4', got {move!r}")
        found.append(move.strip())
    return found


def check_depth(depth: int, minimum: int = 0) -> int:
    """``depth`` as an int in ``minimum``..MAX_DEPTH; InputError (exit 2) otherwise."""
    if isinstance(depth, bool) or not hasattr(depth, "__index__"):
        raise InputError(f"depth must be an integer >= {minimum}, got {depth!r}")
    depth = int(depth.__index__())
    if depth < minimum:
        raise InputError(f"depth must be an integer >= {minimum}, got {depth}")
    if depth > MAX_DEPTH:
        raise InputError(f"depth must be at most {MAX_DEPTH} (no deeper tree could ever be counted), got {depth}")
    return depth


def check_flags(**flags) -> None:
    """Each of ``flags`` (``strict=...``) must be True or False: InputError otherwise
    (``strict="no"`` was taken as True, where ``chess960="yes"`` is refused)."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise InputError(f"{name} must be True or False, got {value!r}")


def variant_rules(variant: str, chess960: bool | None) -> tuple[str, bool | None]:
    """``(canonical name, chess960)`` of a ``variant=`` argument: any name
    ``chesskit.variants.find`` reads; a 960 name (``atomic960``) turns Chess960 on."""
    if not isinstance(variant, str):
        raise InputError(f"a variant is a name such as 'atomic', got {variant!r}")
    if chess960 is not None and not isinstance(chess960, bool):  # "yes" was taken as True
        raise InputError(f"chess960 must be True (Chess960 castling) or None or False (detected from the position), got {chess960!r}")
    found, named960 = variants.find(variant)
    if chess960:  # refused as ``find`` refuses the 960 name (racingkings960)
        variants.check_960(found, variant)
    return found.name, True if named960 else chess960


def position_fen(position: str, variant: str = "chess") -> tuple[str, str | None]:
    """``(fen, id)`` of a POSITION argument (``suites.positions.resolve_position``), where
    ``startpos`` is the variant's start position."""
    if position.strip() == "startpos":
        return variants.get(variant).start_fen, "startpos"
    return resolve_position(position, variant=variant)


def open_position(
    position: str, moves: Moves = (), chess960: bool | None = None, strict: bool = False, variant: str = "chess"
):
    """Resolve ``position``, build the ``Board`` and play ``moves``; returns ``(board, id)``.

    ``chess960``: True plays Chess960 castling (king takes rook); None (or False) detects
    it from the FEN's castling field or the suite the id comes from. Raises FenError for a bad
    FEN (with ``strict``, also for a position that cannot arise in a game), InputError
    for an unknown id and IllegalMoveError for an illegal move (all exit 2). A position
    that cannot arise is counted otherwise; ``board.notes`` says why. ``variant`` names the
    rules (see ``variant_rules``; ``startpos`` is the variant's start position).
    """
    from chesskit.board.board import Board  # deferred: loads the compiled move generator

    if not isinstance(position, str):
        raise InputError(f"a position is a FEN, 'startpos' or a suite id, got {position!r}")
    check_flags(strict=strict)
    variant, chess960 = variant_rules(variant, chess960)
    played = move_list(moves)
    fen, ident = position_fen(position, variant)
    mode = True if chess960 or is_chess960_id(position) else None
    # standard chess builds the Board exactly as before variants existed
    board = Board(fen, chess960=mode, strict=strict) if variant == "chess" else Board(
        fen, chess960=mode, strict=strict, variant=variant
    )
    for move in played:
        board.push(move)
    return board, ident


def engine_fens(position: str, board, engine_fen: str = "typed") -> tuple[str, str]:
    """The FEN of ``position`` (a FEN or a suite id's, before the moves) to give an engine,
    and the one chesskit counts.

    They differ only for a position that cannot arise in a game: chesskit reads it without
    the castling rights it drops and the en-passant square it ignores, and the engine gets
    it as typed (engines read those in their own ways: Stockfish looks for another rook for
    a right whose rook is missing), or with ``engine_fen="chesskit"`` as chesskit reads it."""
    from chesskit.board.fen import format_fen, parse_fen

    if engine_fen not in ("typed", "chesskit"):
        raise InputError(f"engine_fen must be 'typed' or 'chesskit', got {engine_fen!r}")
    variant = getattr(board, "variant", "chess")
    fen, _ = position_fen(position, variant)
    typed = " ".join(fen.split())
    if not board.notes:
        return typed, typed
    ours = format_fen(parse_fen(fen, board.chess960, variant=variant))
    return (ours if engine_fen == "chesskit" else typed), ours


def engine_fen(position: str, board, which: str = "typed") -> str:
    """The FEN of ``position`` to give an engine (see ``engine_fens``)."""
    return engine_fens(position, board, which)[0]
