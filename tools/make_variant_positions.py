#!/usr/bin/env python3
"""Generate the variant perft suites in positions/variants/: one EPD file per variant.

Every expected count comes from Fairy-Stockfish (PyPI ``pyffish``, a current release,
its ``legal_moves`` walked move by move: a node whose game is over has no legal moves
there), and every count is recomputed by python-chess's ``chess.variant`` boards; a
position where the two disagree keeps Fairy-Stockfish's counts (issue 22: follow the
current Fairy-Stockfish release) and is printed with the first node where the legal
moves differ, for docs/variants.md "Where the oracles disagree". Neither oracle is
imported by chesskit (both are GPL, test-only).

The positions are hand-picked (each written here with what it shows and a check of
that feature on the python-chess board) and positions found by seeded random play in
the variant, picked for the variant's special cases. The same pyffish and python-chess
versions give the same files; only the date line changes.

    python3 tools/make_variant_positions.py --out positions/variants [--only atomic,horde]

pyffish answers one ``legal_moves`` call in about 5 ms whatever the position, so the
depth of each position is chosen to keep it under ``CALL_CAP`` calls (bulk counting at
the last ply): the counts are shallow, their job is to hit the special cases.
"""

from __future__ import annotations

import argparse
import datetime
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import chess
import chess.variant
import pyffish

REPO = Path(__file__).resolve().parent.parent
CALL_CAP = 1500  # pyffish legal_moves calls per position (about 7 s)
MIN_DEPTH = 2
MAX_DEPTH = 6
RANDOM_PER_VARIANT = 4
SEED = 22220022


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- oracles


def full_fen(epd: str) -> str:
    """The EPD fields (4, or 5 with 3check's remaining checks) with the clocks added."""
    return f"{epd} 0 1"


def ff_legal(variant: str, fen: str, path: list[str], chess960: bool) -> list[str]:
    return pyffish.legal_moves(variant, fen, path, chess960)


def ff_perft(variant: str, fen: str, depth: int, chess960: bool, path: list[str] | None = None) -> int:
    """Fairy-Stockfish's perft: its legal moves walked by move path from the root FEN."""
    path = path or []
    moves = ff_legal(variant, fen, path, chess960)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    return sum(ff_perft(variant, fen, depth - 1, chess960, path + [m]) for m in moves)


def pc_board(variant: str, fen: str, chess960: bool) -> chess.Board:
    return chess.variant.find_variant(variant)(fen, chess960=chess960)


def pc_legal(board: chess.Board) -> list[str]:
    return [board.uci(m) for m in board.legal_moves]


def pc_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += pc_perft(board, depth - 1)
        board.pop()
    return total


def first_difference(variant: str, fen: str, depth: int, chess960: bool) -> tuple[list[str], set, set] | None:
    """The first node (moves from the root) where the two oracles' legal moves differ,
    with the moves only Fairy-Stockfish and only python-chess list."""
    board = pc_board(variant, fen, chess960)

    def walk(path: list[str], left: int):
        ff = set(ff_legal(variant, fen, path, chess960))
        pc = set(pc_legal(board))
        if ff != pc:
            return path, ff - pc, pc - ff
        if left <= 1:
            return None
        for move in sorted(ff):
            board.push(board.parse_uci(move))
            found = walk(path + [move], left - 1)
            board.pop()
            if found:
                return found
        return None

    return walk([], depth)


# --------------------------------------------------------------------------- entries


@dataclass
class Entry:
    id: str
    epd: str  # 4 EPD fields (3check: 5, with the remaining checks)
    note: str
    check: Callable[[chess.Board], bool] | None = None
    chess960: bool = False
    depths: dict[int, int] = field(default_factory=dict)
    checked: int = 0  # python-chess agrees up to this depth
    disagreement: str = ""


def moves_of(board: chess.Board) -> set[str]:
    return set(pc_legal(board))


def has(*ucis: str) -> Callable[[chess.Board], bool]:
    return lambda b: set(ucis) <= moves_of(b)


def lacks(*ucis: str) -> Callable[[chess.Board], bool]:
    return lambda b: not (set(ucis) & moves_of(b))


def both(*tests: Callable[[chess.Board], bool]) -> Callable[[chess.Board], bool]:
    return lambda b: all(t(b) for t in tests)


def pseudo(*ucis: str) -> Callable[[chess.Board], bool]:
    return lambda b: set(ucis) <= {b.uci(m) for m in b.generate_pseudo_legal_moves()}


def over_after(uci: str) -> Callable[[chess.Board], bool]:
    def test(b: chess.Board) -> bool:
        b.push_uci(uci)
        try:
            return b.is_variant_end()
        finally:
            b.pop()

    return test


def all_captures(b: chess.Board) -> bool:
    moves = list(b.legal_moves)
    return bool(moves) and all(b.is_capture(m) for m in moves)


HAND: dict[str, list[Entry]] = {
    "atomic": [
        Entry("atomic-start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "the start position"),
        Entry("atomic-self-explosion", "4k3/8/8/8/8/8/3n4/3RK3 w - -",
              "Rxd2 would explode the capturer's own king on e1: not legal; the king may not capture at all",
              both(lacks("d1d2", "e1d2"), pseudo("d1d2"))),
        Entry("atomic-explode-king", "4k3/3p4/8/8/8/8/8/3QK3 w - -",
              "Qxd7 explodes the king on e8: the game ends there (no moves below it)", over_after("d1d7")),
        Entry("atomic-kings-touch", "8/8/8/3kK3/8/8/8/4r3 w - -",
              "kings side by side: the rook's attack on e5 is no check while they touch", lambda b: not b.is_check()),
        Entry("atomic-kings-part", "8/8/8/3kK3/8/8/8/4r3 b - -",
              "black to move: a king step that parts the kings puts the white king in the rook's check",
              lambda b: bool(list(b.legal_moves))),
        Entry("atomic-pawn-immunity", "4k3/8/8/8/3ppp2/4n3/4P3/4K2Q w - -",
              "Qxe4 explodes the knight on e3 beside it; the pawns on d4 and f4 survive", has("h1e4")),
        Entry("atomic-pawn-survives", "4k3/8/8/8/8/3p4/2P1P3/4K3 w - -",
              "cxd3 and exd3: the capturing pawn is destroyed, the pawn beside it survives", has("c2d3", "e2d3")),
        Entry("atomic-ep", "4k3/8/8/3pP3/8/8/8/4K3 w - d6",
              "en passant explodes around d6, where the capturing pawn lands", has("e5d6")),
        Entry("atomic-ep-near-king", "8/8/2k5/3pP3/8/8/8/4K3 w - d6",
              "en passant next to the enemy king explodes it: the game ends", over_after("e5d6")),
        Entry("atomic-explode-out-of-check", "8/8/8/2k5/1b6/8/8/1R2K3 w - -",
              "in check from b4: Rxb4 explodes the king on c5 beside it and wins", over_after("b1b4")),
        Entry("atomic-castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -", "castling both ways for both sides"),
        Entry("atomic-promo-capture", "1n2k3/P7/8/8/8/8/8/4K3 w - -",
              "a promotion capture on b8 explodes: the promoted piece is lost with the knight",
              has("a7b8q")),
    ],
    "crazyhouse": [
        Entry("crazyhouse-start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq -", "the start position"),
        Entry("crazyhouse-pawn-drop-ranks", "4k3/8/8/8/8/8/8/4K3[Pp] w - -",
              "pawns are dropped on ranks 2 to 7 only", both(has("P@a2", "P@h7"), lacks("P@a1", "P@a8"))),
        Entry("crazyhouse-full-pockets", "4k3/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -", "every piece type in hand"),
        Entry("crazyhouse-promoted-returns-pawn", "3rk3/8/8/8/8/8/8/3Q~K3[] b - -",
              "the queen on d1 was a pawn: taken, it goes to hand as a pawn", has("d8d1")),
        Entry("crazyhouse-promoted-black", "4k3/8/8/8/8/8/8/Rq~2K3[] w - -",
              "black's promoted queen gives check; Rxb1 puts a pawn, not a queen, in white's hand", has("a1b1")),
        Entry("crazyhouse-promotion-marks", "4k3/1P6/8/8/8/8/8/4K3[] w - -",
              "a promoted pawn is marked: taken later, it goes to hand as a pawn", has("b7b8q", "b7b8n")),
        Entry("crazyhouse-drop-block", "4k3/8/8/8/8/8/8/r3K3[N] w - -",
              "in check from a1: drops between rook and king (b1, c1, d1) answer it", has("N@b1", "N@d1")),
        Entry("crazyhouse-no-drop-double-check", "4k3/8/8/8/8/5n2/8/r3K3[QRBNP] w - -",
              "double check from a1 and f3: no drop answers it, only king moves",
              lambda b: b.is_check() and not any("@" in m for m in moves_of(b))),
        Entry("crazyhouse-drop-check", "4k3/8/8/8/8/8/8/4K3[Q] w - -", "queen drops that give check and mate"),
        Entry("crazyhouse-drop-pin", "3qk3/8/8/8/8/8/3B4/3K4[] w - -",
              "the bishop on d2 is pinned: only king moves; below, captures fill the pockets"),
        Entry("crazyhouse-castling", "r3k2r/8/8/8/8/8/8/R3K2R[Pp] w KQkq -",
              "castling with pawns to drop on the path"),
    ],
    "kingofthehill": [
        Entry("koth-start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "the start position"),
        Entry("koth-one-step", "8/8/8/8/8/3K4/8/k7 w - -",
              "Kd4 or Ke4 reaches the centre and wins: nothing is counted below", over_after("d3d4")),
        Entry("koth-both-near", "8/8/8/2k5/8/4K3/8/8 w - -",
              "both kings a step from the centre: white moves first, e4 and d4 win at once"),
        Entry("koth-capture-in-centre", "8/8/8/8/3n4/2K5/8/k7 w - -",
              "Kxd4 takes the knight on a centre square and wins", over_after("c3d4")),
        Entry("koth-check-centre", "4k3/8/8/8/8/3K4/8/3r4 w - -",
              "in check from d1: escaping to e4 wins at once", both(has("d3e4"), over_after("d3e4"))),
        Entry("koth-guarded-centre", "4k3/8/8/8/8/4K3/8/3r4 w - -",
              "the rook on d1 guards d4; e4 is free and wins", both(lacks("e3d4"), over_after("e3e4"))),
    ],
    "3check": [
        Entry("3check-start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3", "the start position"),
        Entry("3check-one-left", "4k3/8/8/8/8/8/8/R3K2R w KQ - 1+3",
              "white gave two checks: a third (Ra8+ or Rh8+) wins", over_after("a1a8")),
        Entry("3check-both-at-two", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1",
              "both sides one check from winning; castling that gives check counts"),
        Entry("3check-castle-check", "5k2/8/8/8/8/8/8/4K2R w K - 1+3",
              "castling puts the rook on f1 with check: the third check", over_after("e1g1")),
        Entry("3check-discovered", "4k3/8/8/8/8/8/4N3/4R1K1 w - - 1+3",
              "a knight move discovers the rook's check: the third check, game over", over_after("e2c3")),
        Entry("3check-ep-check", "4k3/8/8/3pP3/8/8/8/4R2K w - d6 1+3",
              "exd6 en passant opens the e-file: the rook's discovered check is the third", over_after("e5d6")),
        Entry("3check-promo-check", "4k3/P7/8/8/8/8/8/4K3 w - - 1+3",
              "promotion with check (a8=Q+, a8=R+) is the third check", over_after("a7a8q")),
        Entry("3check-black-one-left", "r3k3/8/8/8/8/8/8/4K3 b - - 3+1",
              "black to move with one check left: Ra1+ wins", over_after("a8a1")),
    ],
    "antichess": [
        Entry("antichess-start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -", "the start position (no castling)"),
        Entry("antichess-forced", "4k3/8/8/3p4/4P3/8/8/4K3 w - -",
              "a capture is possible: exd5 is the only legal move", lambda b: moves_of(b) == {"e4d5"}),
        Entry("antichess-king-promotion", "8/P7/8/8/8/8/8/k7 w - -",
              "no white king; a pawn promotes to a king too", has("a7a8k", "a7a8q")),
        Entry("antichess-king-captures", "8/8/8/8/8/8/1p6/K7 w - -",
              "the king is an ordinary piece, forced to capture", lambda b: moves_of(b) == {"a1b2"}),
        Entry("antichess-no-pieces", "8/8/8/8/8/8/1p6/K7 b - -",
              "bxa1 (any promotion) is forced and takes white's last piece: white wins, nothing below",
              over_after("b2a1q")),
        Entry("antichess-stalemate", "8/8/8/8/8/p7/P7/8 w - -", "no legal moves at the root: D1 is 0"),
        Entry("antichess-many-captures", "r3k2r/8/8/3Q4/8/8/8/R3K2R w - -",
              "the queen captures or nothing: every legal move is a capture", all_captures),
        Entry("antichess-ep-forced", "8/8/8/3pP3/8/8/8/8 w - d6", "en passant is a capture: forced",
              lambda b: moves_of(b) == {"e5d6"}),
    ],
    "giveaway": [
        Entry("giveaway-start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
              "the start position, with castling rights"),
        Entry("giveaway-castling", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq -", "castling in antichess's rules"),
        Entry("giveaway-castle-attacked", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -",
              "the rooks face each other: a capture is forced, so no castling"),
    ],
    "horde": [
        Entry("horde-start", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq -",
              "the start position"),
        Entry("horde-first-rank-push", "4k3/8/8/8/8/8/8/P3P2P w - -",
              "white pawns on the first rank push one or two squares", has("a1a3", "e1e3", "a1a2")),
        Entry("horde-first-rank-ep", "4k3/8/8/8/8/1p6/8/P7 w - -",
              "a1a3 from the first rank passes a2, which the pawn on b3 attacks: en passant below", has("a1a3")),
        Entry("horde-black-wins", "4k3/8/8/8/8/8/3q4/4P3 b - -",
              "black takes the last white piece: the game ends", over_after("d2e1")),
        Entry("horde-promotion", "4k3/1P6/8/8/8/8/PPPPPPPP/PPPPPPPP w - -", "a horde pawn promotes"),
        Entry("horde-black-castles", "r3k2r/8/8/8/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP b kq -",
              "black castles in front of the horde"),
    ],
    "racingkings": [
        Entry("racingkings-start", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - -", "the start position"),
        Entry("racingkings-last-chance", "8/1k3K2/8/8/8/8/8/8 w - -",
              "white reaches rank 8 first; black gets one move to equal (a draw) or loses"),
        Entry("racingkings-too-late", "8/5K2/1k6/8/8/8/8/8 w - -",
              "white reaches rank 8 and black cannot follow: the game ends at once",
              over_after("f7f8")),
        Entry("racingkings-no-check", "8/8/8/8/8/8/k7/6RK w - -",
              "Rg2 and Ra1 would give check: not legal", lacks("g1g2", "g1a1")),
        Entry("racingkings-black-first", "8/k7/8/8/8/8/8/7K b - -",
              "black reaches rank 8: black wins at once", over_after("a7a8")),
        Entry("racingkings-blocked", "1r6/3K4/8/8/8/1k6/8/8 w - -",
              "black's rook on b8 holds the eighth rank against the white king"),
    ],
}

HAND_960: dict[str, list[Entry]] = {
    "atomic": [
        Entry("atomic960-castle-through", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb -",
              "Chess960 castling in atomic (Shredder castling letters)", chess960=True),
        Entry("atomic960-king-rook-adjacent", "4k3/8/8/8/8/8/8/5KRr w G -",
              "king and rook side by side, an enemy rook past the rook", chess960=True),
        Entry("atomic960-start-7", "qnrbbkrn/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKRN w GCgc -", "a start array",
              chess960=True),
    ],
    "crazyhouse": [
        Entry("crazyhouse960-castle-drop", "1r2k1r1/8/8/8/8/8/8/1R2K1R1[Nn] w GBgb -",
              "Chess960 castling with knights to drop on the path", chess960=True),
        Entry("crazyhouse960-start-7", "qnrbbkrn/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKRN[] w GCgc -", "a start array",
              chess960=True),
    ],
}


# --------------------------------------------------------------------------- random play


def _features() -> dict[str, Callable[[chess.Board], bool]]:
    def atomic(b: chess.Board) -> bool:  # a legal capture lands next to a king
        kings = [k for k in (b.king(chess.WHITE), b.king(chess.BLACK)) if k is not None]
        return any(
            b.is_capture(m) and any(chess.square_distance(m.to_square, k) == 1 for k in kings) for m in b.legal_moves
        )

    def crazyhouse(b: chess.Board) -> bool:
        in_hand = set(str(b.pockets[b.turn]))  # the piece letters in the mover's pocket
        return len(in_hand) >= 2 or (bool(in_hand) and bool(b.promoted))

    def koth(b: chess.Board) -> bool:
        centre = chess.SquareSet(chess.BB_CENTER)
        return any(
            k is not None and any(chess.square_distance(k, c) == 1 for c in centre)
            for k in (b.king(chess.WHITE), b.king(chess.BLACK))
        )

    def three(b: chess.Board) -> bool:
        return min(b.remaining_checks) <= 2 and max(b.remaining_checks) <= 2

    def anti(b: chess.Board) -> bool:
        return all_captures(b) and len(list(b.legal_moves)) >= 2

    def horde(b: chess.Board) -> bool:
        return any(m.from_square < 8 and m.to_square - m.from_square == 16 for m in b.legal_moves)

    def racing(b: chess.Board) -> bool:
        return any(k is not None and chess.square_rank(k) >= 5 for k in (b.king(chess.WHITE), b.king(chess.BLACK)))

    return {
        "atomic": atomic, "crazyhouse": crazyhouse, "kingofthehill": koth, "3check": three,
        "antichess": anti, "giveaway": anti, "horde": horde, "racingkings": racing,
    }


def epd_of(board: chess.Board) -> str:
    fields = board.fen().split()
    return " ".join(fields[:-2])  # without the clocks (3check keeps its remaining checks)


def random_entries(variant: str, prefix: str, count: int, chess960: bool, start: str) -> list[Entry]:
    """``count`` positions of seeded random play from ``start`` with the variant's feature."""
    feature = _features()[variant]
    rng = random.Random(f"{SEED}-{prefix}")
    found: list[Entry] = []
    seen: set[str] = set()
    for _game in range(400):
        if len(found) >= count:
            break
        board = pc_board(variant, start, chess960)
        for ply in range(rng.randint(8, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_variant_end() or not list(board.legal_moves) or not feature(board):
            continue
        epd = epd_of(board)
        if epd in seen:
            continue
        seen.add(epd)
        found.append(Entry(f"{prefix}-rand-{len(found) + 1}", epd,
                           f"seeded random play, {board.ply()} plies from the start", chess960=chess960))
    return found


# --------------------------------------------------------------------------- counting


def count(variant: str, entry: Entry) -> None:
    fen = full_fen(entry.epd)
    board = pc_board(variant, fen, entry.chess960)
    calls = 1
    for depth in range(1, MAX_DEPTH + 1):
        if depth > MIN_DEPTH and calls > CALL_CAP:
            break
        ff = ff_perft(variant, fen, depth, entry.chess960)
        entry.depths[depth] = ff
        pc = pc_perft(board, depth)
        if pc == ff and not entry.disagreement:
            entry.checked = depth
        elif pc != ff and not entry.disagreement:
            diff = first_difference(variant, fen, depth, entry.chess960)
            path, ff_only, pc_only = diff if diff else ([], set(), set())
            entry.disagreement = (
                f"D{depth}: Fairy-Stockfish {ff}, python-chess {pc}; first at moves {' '.join(path) or '(root)'}: "
                f"only Fairy-Stockfish lists {sorted(ff_only)}, only python-chess {sorted(pc_only)}"
            )
            log(f"  DISAGREE {entry.id}: {entry.disagreement}")
        calls = ff  # the next depth asks once per node of this one
        if ff == 0:
            break


def check_entry(variant: str, entry: Entry) -> None:
    fen = full_fen(entry.epd)
    ok, = [pyffish.validate_fen(fen, variant, entry.chess960)]
    if ok != pyffish.FEN_OK:
        raise SystemExit(f"{entry.id}: Fairy-Stockfish refuses {fen!r} ({ok})")
    board = pc_board(variant, fen, entry.chess960)
    if not board.is_valid():
        raise SystemExit(f"{entry.id}: python-chess calls {fen!r} invalid ({board.status()!r})")
    if entry.check is not None and not entry.check(board):
        raise SystemExit(f"{entry.id}: the position does not show what its note says: {entry.note}")


# --------------------------------------------------------------------------- writing


def header(variant: str, file_name: str, entries: list[Entry], today: str) -> list[str]:
    chess_version = chess.__version__
    ff_version = ".".join(str(p) for p in pyffish.version())
    lines = [
        f"# chesskit perft suite: {variant}{' (Chess960 castling)' if '960' in file_name else ''}, "
        "hand-picked special cases and positions of seeded random play.",
        "#",
        f"# D<n> counts: Fairy-Stockfish, as PyPI pyffish {ff_version} (its legal_moves walked move by move;",
        "# a node whose game is over has no moves), every depth recomputed by python-chess "
        f"{chess_version} chess.variant.",
        "# Where they disagree the file keeps Fairy-Stockfish's count and the line above the position says so",
        "# (docs/variants.md, \"Where the oracles disagree\").",
        f"# Generated {today} by: python3 tools/make_variant_positions.py --out positions/variants",
        "# Format: positions/README.md (the variant opcode names the rules of each line)",
        "",
    ]
    return lines


def line_of(variant: str, entry: Entry) -> str:
    ops = [f'id "{entry.id}"', f"variant {variant}"]
    ops += [f"D{d} {n}" for d, n in sorted(entry.depths.items())]
    return f"{entry.epd} " + "; ".join(ops) + ";"


def write_file(path: Path, variant: str, entries: list[Entry], today: str) -> None:
    out = header(variant, path.name, entries, today)
    for entry in entries:
        out.append(f"# {entry.note}")
        if entry.disagreement:
            out.append(f"#   python-chess disagrees: {entry.disagreement}")
        out.append(line_of(variant, entry))
    path.write_text("\n".join(out) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(REPO / "positions" / "variants"))
    parser.add_argument("--only", default="", help="comma-separated variants (default: all)")
    parser.add_argument("--random", type=int, default=RANDOM_PER_VARIANT)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    only = {v for v in args.only.split(",") if v}
    today = datetime.date.today().isoformat()
    jobs = [(v, v, False, entries) for v, entries in HAND.items()]
    jobs += [(v, f"{v}960", True, entries) for v, entries in HAND_960.items()]
    disagreements = []
    for variant, name, c960, entries in jobs:
        if only and variant not in only and name not in only:
            continue
        entries = list(entries)
        start = full_fen(entries[0].epd)
        entries += random_entries(variant, name, args.random, c960, start)
        for entry in entries:
            check_entry(variant, entry)
            count(variant, entry)
            log(f"{name} {entry.id}: {entry.depths} python-chess to D{entry.checked}")
            if entry.disagreement:
                disagreements.append((name, entry))
        write_file(out / f"{name}.epd", variant, entries, today)
    for name, entry in disagreements:
        print(f"- {name} `{entry.epd}` ({entry.id}): {entry.disagreement}")


if __name__ == "__main__":
    main()
