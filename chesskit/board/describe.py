"""A position's state as ``show`` prints it and the explorer's state panel shows it, read
from its FEN (so it matches what ``fen`` prints): side to move, castling, en passant, the
clocks, check, the legal moves, and a variant's pockets and check counters (``variant_lines``)."""

from __future__ import annotations

from chesskit.board.gameover import CHECKMATE, STALEMATE, game_over, without_moves


def describe(board, ident: str | None = None) -> dict:
    """The state shown by ``show``, taken from the FEN so it matches ``fen`` exactly (a
    Chess960 position's in Shredder-FEN, ``Board.shown_fen``: castling by rook files)."""
    fen = board.shown_fen()
    variant = getattr(board, "variant", "chess")
    if variant != "chess":
        return _describe_variant(board, ident, variant)
    placement, turn, castling, ep, halfmove, fullmove = fen.split()
    return {
        "fen": fen,
        "id": ident,
        "turn": "white" if turn == "w" else "black",
        "castling": castling,
        "ep": None if ep == "-" else ep,
        "halfmove": int(halfmove),
        "fullmove": int(fullmove),
        "chess960": bool(board.chess960),
        "check": bool(board.is_check()),
        "legal_moves": sorted(board.legal_moves()),
        "notes": board.notes,
    }


def _describe_variant(board, ident: str | None, variant: str) -> dict:
    """``describe`` of a variant's position: its fields read from the FEN in its dialect,
    plus ``variant``, crazyhouse's ``pockets`` and three-check's ``checks_given``."""
    from chesskit.board.fen import parse_fen
    from chesskit.board.fen_variants import format_pockets
    from chesskit.vocab import square_name

    fen = board.shown_fen()
    setup = parse_fen(fen, board.chess960, variant=variant)
    fields = fen.split()
    info = {
        "fen": fen,
        "id": ident,
        "variant": variant,
        "turn": "white" if setup.turn == 0 else "black",
        "castling": fields[2],
        "ep": None if setup.ep is None else square_name(setup.ep),
        "halfmove": setup.halfmove,
        "fullmove": setup.fullmove,
        "chess960": bool(board.chess960),
        "check": bool(board.is_check()),
        "legal_moves": sorted(board.legal_moves()),
        "notes": board.notes,
    }
    info["game_over"] = game_over(setup, no_moves=not info["legal_moves"])
    if setup.pockets is not None:
        info["pockets"] = format_pockets(setup.pockets)[1:-1]
    if setup.checks is not None:
        info["checks_given"] = {"white": setup.checks[0], "black": setup.checks[1]}
    return info


def game_status(info: dict) -> str:
    """What to add to the side to move of ``describe``'s ``info``: in check, checkmate,
    stalemate, or a variant's own end of the game (``gameover.py``); in antichess a side
    without a legal move has won."""
    if info.get("game_over"):
        return f" (the game is over: {info['game_over']})"
    if not info["legal_moves"]:
        why = without_moves(info.get("variant", "chess"), info["check"], info["turn"])
        return f" ({why})" if why in (CHECKMATE, STALEMATE) else f" (no legal moves: {why})"
    return " (in check)" if info["check"] else ""


def variant_lines(info: dict) -> list[tuple[str, str]]:
    """The (name, value) lines a variant adds to the state of ``describe``'s ``info``: its
    name, crazyhouse's pockets, three-check's checks given (none for standard chess)."""
    lines = [("variant", info["variant"])] if "variant" in info else []
    if "pockets" in info:
        lines.append(("pockets", info["pockets"] or "-"))
    if "checks_given" in info:
        lines.append(("checks given", f"white {info['checks_given']['white']}, black {info['checks_given']['black']}"))
    return lines
