#!/usr/bin/env python3
"""Generate positions/impossible.epd: positions that cannot arise in a game but whose move
tree is defined (one king per side, the side not to move not in check), with their counts.

chesskit counts them as Stockfish and python-chess count them, with a note saying why
they cannot arise (``--strict`` refuses them). The counts come from those two programs,
never from chesskit, each reading the position by its own rules where those agree:

* python-chess gets the FEN as written, except that an en-passant square its own
  ``status()`` calls invalid (no pawn that just pushed past it, its origin occupied, ...)
  is removed first: python-chess would otherwise let a pawn take "en passant" whatever
  stands in front of the square, where Stockfish (and chesskit) ignore the square.
* Stockfish gets the FEN as python-chess writes it back (``Board.fen()``), which drops a
  castling right whose king or rook is not where castling needs it: Stockfish's own FEN
  reader would go looking for another rook of that colour, on any square.
* Where the two still disagree the position keeps python-chess's counts only, and its
  comment says why (Stockfish 15.1 lets an en-passant capture "evade" a check by a piece
  the capture does not touch, and crashes deeper in that position).

    python3 tools/make_impossible.py --out positions

D1-D3 always come from both programs and must agree; deeper counts are Stockfish's.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_positions import (  # noqa: E402 - a sibling script, not a package
    CROSS_CHECK_DEPTH,
    Stockfish,
    debian_version,
    find_stockfish,
    log,
    pychess_perft,
    wrap_comment,
)

REPO = Path(__file__).resolve().parent.parent
NODE_CAP = 5_000_000  # go deeper only while the next depth is expected to stay below this
MIN_DEPTH = 3
MAX_DEPTH = 8
PYTHON_CHESS_ONLY_DEPTH = 3  # where Stockfish disagrees, python-chess counts this deep
TRICKY = "python-chess's examples/perft/tricky.perft"


@dataclass
class Entry:
    id: str
    fen: str
    why: str  # the comment above the line
    stockfish: bool = True  # False: Stockfish disagrees; python-chess's counts only
    counts: dict[int, int] = field(default_factory=dict)


def pychess_board(fen: str) -> chess.Board:
    """The position as python-chess should count it: its invalid ep squares removed."""
    board = chess.Board(fen)
    if board.status() & chess.STATUS_INVALID_EP_SQUARE:
        board.ep_square = None
    return board


def stockfish_fen(fen: str) -> str:
    """The FEN for Stockfish: python-chess's reading, impossible castling rights dropped."""
    return pychess_board(fen).fen(en_passant="fen")


ENTRIES = [
    # ---- from python-chess's tricky.perft (ids there in the comment); chesskit refused all six
    Entry("tricky-align-diag-1", "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1",
          f"{TRICKY} align-diag-1: checks by the d3 bishop and a6 queen from opposite sides of c4"),
    Entry("tricky-align-diag-2", "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1",
          f"{TRICKY} align-diag-2: checks by the b6 bishop and d8 queen from opposite sides of c7"),
    Entry("tricky-align-horizontal", "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1",
          f"{TRICKY} align-horizontal: rooks on d3 and h3 check e3 from both sides"),
    Entry("tricky-align-ep", "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
          f"{TRICKY} align-ep: the queen's check through d3 was there before d2d4; exd3 e.p. blocks it"),
    Entry("tricky-align-ep-pinned", "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",
          f"{TRICKY} align-ep-pinned: the b8 bishop checked e5 through d6 before d7d5"),
    Entry("tricky-ep-unrelated-check", "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1",
          f"{TRICKY} ep-unrelated-check: white was in check from f2 before c7c5; dxc6 e.p. does not "
          "answer that check. python-chess's counts only: Stockfish 15.1 counts dxc6 as a legal "
          "evasion (perft 1 = 3, not 2) and crashes at depth 2", stockfish=False),
    # ---- the classic perftsuite (line 51 as the issue quotes it)
    Entry("perftsuite-bishops-both-sides", "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
          "the king on f3 between the a8 and h1 bishops on one diagonal (from the classic "
          "perftsuite, line 51, with black to move)"),
    # ---- double and triple checks no single move gives
    Entry("double-check-two-knights", "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1",
          "two knights check e8: a double check needs a line a move uncovered"),
    Entry("double-check-two-knights-mirrored", "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1",
          "double-check-two-knights with colours and ranks flipped"),
    Entry("double-check-two-pawns", "4k3/3P1P2/8/8/8/8/8/4K3 b - - 0 1",
          "two pawns check e8"),
    Entry("double-check-knight-pawn", "4k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1",
          "a knight and a pawn check e8"),
    Entry("double-check-adjacent-queen-bishop", "4k3/3Q1B2/8/8/8/8/8/4K3 b - - 0 1",
          "a queen and a bishop, both touching the king, check e8"),
    Entry("triple-check", "4k3/3P1P2/5N2/8/8/8/8/4K3 b - - 0 1",
          "three pieces check e8 (two pawns and a knight)"),
    Entry("double-check-with-ep", "4r2k/7b/8/2p5/4K3/8/8/8 w - c6 0 2",
          "rook and bishop check e4 although the en-passant square says the last move was c7c5"),
    Entry("check-before-double-push", "4r2k/8/8/2p5/4K3/8/8/8 w - c6 0 2",
          "the e8 rook checked e4 already before c7c5, which the en-passant square says was the last move"),
    # ---- too much material
    Entry("too-many-pieces-271-moves", "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1",
          "28 white pieces and 271 legal moves (more than a 256-move buffer holds); every move "
          "leaves black without a move. Stockfish's move list holds 256 moves, yet it agrees here"),
    Entry("nine-pawns", "4k3/8/8/8/P7/PPPPPPPP/8/4K3 w - - 0 1",
          "nine white pawns"),
    Entry("promoted-beyond-missing-pawns", "4k3/8/8/NNNN4/PPPPPPPP/8/8/4K3 w - - 0 1",
          "four knights with all eight pawns still on the board"),
    Entry("black-25-pieces", "4k3/pppppppp/8/nnnnnnnn/nnnnnnnn/8/8/7K b - - 0 1",
          "black has 24 pieces besides its king, 16 of them knights"),
    # ---- castling rights no history explains: dropped, as python-chess drops them
    Entry("castling-rook-missing", "r3k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1",
          "K and k name rooks that are not there: those rights are dropped, Q and q stay"),
    Entry("castling-king-off-back-rank", "r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1",
          "white has castling rights with its king on e2: they are dropped, black's stay"),
    Entry("castling-shredder-file-empty", "4k3/8/8/8/8/8/8/R3K2R w C - 0 1",
          "the Shredder-FEN right C names c1, where no rook stands: dropped"),
    # ---- en-passant squares no double push explains: ignored, as Stockfish ignores them
    Entry("ep-no-pushed-pawn", "4k3/8/8/3P4/8/8/8/4K3 w - c6 0 1",
          "en-passant square c6 without a black pawn on c5 (python-chess would let d5 take on c6)"),
    Entry("ep-origin-occupied", "4k3/2n5/8/2pP4/8/8/8/4K3 w - c6 0 1",
          "en-passant square c6 while c7, where the pushed pawn came from, holds a knight"),
    Entry("ep-knight-in-front", "4k3/8/8/2nP4/8/8/8/4K3 w - c6 0 1",
          "en-passant square c6 with a knight, not a pawn, on c5"),
    Entry("ep-square-occupied", "4k3/8/2n5/2pP4/8/8/8/4K3 w - c6 0 1",
          "en-passant square c6 occupied by a knight"),
    Entry("ep-wrong-rank", "4k3/8/8/3P4/8/8/8/4K3 w - c5 0 1",
          "en-passant square c5: not on the sixth rank with white to move"),
]


def count(sf: Stockfish, entry: Entry) -> None:
    board = pychess_board(entry.fen)
    if not entry.stockfish:
        for depth in range(1, PYTHON_CHESS_ONLY_DEPTH + 1):
            entry.counts[depth] = pychess_perft(board, depth)
        return
    fen = stockfish_fen(entry.fen)
    depth = 1
    while depth <= MAX_DEPTH:
        nodes = sf.perft(fen, depth)
        entry.counts[depth] = nodes
        if depth <= CROSS_CHECK_DEPTH:
            theirs = pychess_perft(board, depth)
            if theirs != nodes:
                raise SystemExit(f"{entry.id}: D{depth}: Stockfish {nodes}, python-chess {theirs}")
        previous = entry.counts.get(depth - 1, 1) or 1
        if depth >= MIN_DEPTH and nodes * max(nodes / previous, 1) > NODE_CAP:
            break
        if nodes == 0 and depth >= MIN_DEPTH:
            break
        depth += 1


def epd_line(entry: Entry) -> str:
    placement, turn, castling, ep, half, full = entry.fen.split()
    ops = [f'id "{entry.id}"']
    if (half, full) != ("0", "1"):
        ops += [f"hmvc {half}", f"fmvn {full}"]
    ops += [f"D{d} {n}" for d, n in sorted(entry.counts.items())]
    return f"{placement} {turn} {castling} {ep} " + " ".join(op + ";" for op in ops)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "positions", help="output folder")
    parser.add_argument("--stockfish", help="path of the Stockfish binary")
    parser.add_argument("--date", default=datetime.date.today().isoformat())
    args = parser.parse_args(argv)
    command = "python3 " + shlex.join(["tools/make_impossible.py", *sys.argv[1:]])
    sf = Stockfish(find_stockfish(args.stockfish))
    deb = debian_version("stockfish")
    engine = f"{sf.name} (Debian package stockfish {deb})" if deb else sf.name
    ids = [entry.id for entry in ENTRIES]
    assert len(set(ids)) == len(ids), "duplicate id"
    for entry in ENTRIES:
        log(entry.id)
        count(sf, entry)
    sf.close()
    header = [
        "chesskit perft suite: positions that cannot arise in a game but whose move tree is",
        "defined (one king per side, the side not to move not in check). chesskit counts them",
        "with a note saying why they cannot arise; --strict refuses them.",
        "",
        f"Source of every D<n> count: {engine}, go perft, Threads=1; D1-D{CROSS_CHECK_DEPTH} "
        f"cross-checked with python-chess {chess.__version__} (any disagreement stops the script).",
        "Each program reads the position by its own rules where they agree: python-chess without",
        "an en-passant square its status() calls invalid (Stockfish ignores those), Stockfish",
        "with the castling rights python-chess keeps (it drops a right whose king or rook is",
        "missing). One position, tricky-ep-unrelated-check, has python-chess's counts only",
        "(D1-D3): Stockfish 15.1 counts it differently and crashes (its comment says how).",
        "Sources of the positions: the six of python-chess's tricky.perft that chesskit refused",
        "(ids tricky-*, counts as in that file), the classic perftsuite's line 51 as issue 10",
        "quotes it, and positions written for this file, one per reason a position cannot arise.",
        "The copy of shakmaty's tests/tricky.perft at hand (commit 07eefe9) holds no position",
        "chesskit refused.",
        f"Generated {args.date} by: {command}",
        "Format: positions/README.md",
    ]
    lines = [f"# {h}" if h else "#" for h in header]
    for entry in ENTRIES:
        lines += ["", *wrap_comment(entry.why, prefix="#   ")]
        lines.append(epd_line(entry))
    out = args.out / "impossible.epd"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log(f"wrote {out} ({len(ENTRIES)} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
