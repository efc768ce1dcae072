#!/usr/bin/env python3
"""Generate the perft suites in positions/: standard.epd, special.epd and chess960.epd.

Every expected count comes from an independent source, never from chesskit:

* standard.epd: the published tables of the chessprogramming wiki's "Perft Results"
  page, each count checked against Stockfish's ``go perft``; the leaf counters (S<n>
  opcodes) come from shared/reference/cpw-stats.json.
* special.epd and chess960.epd: Stockfish's ``go perft`` root totals (one engine
  process, Threads=1), with D1-D3 recomputed by python-chess; any disagreement aborts.

The positions are hand-picked (written here, each checked with ``board.is_valid()``
and with an assertion of the feature it is meant to show), colour-flipped twins of
those (same counts, computed separately as a check), constructed Chess960 castling
positions, and positions found by seeded random play.  The same Stockfish and
python-chess versions therefore give the same files; only the date line changes.

    python3 tools/make_positions.py --out positions

Layout of this file: the UCI helper, python-chess helpers, the depth chooser, the
three suites (standard tables, hand-picked list and feature finders, Chess960), and
the writer.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import chess

REPO = Path(__file__).resolve().parent.parent
CPW_STATS = REPO.parent / "shared" / "reference" / "cpw-stats.json"
CPW_URL = "https://www.chessprogramming.org/Perft_Results"

SPECIAL_MIN_DEPTH = 3
C960_MIN_DEPTH = 5
NODE_CAP = 20_000_000  # go deeper only while the next depth is expected to stay below this
MAX_DEPTH = 10
CROSS_CHECK_DEPTH = 3  # python-chess recomputes D1..D3 of every position

SEED_SPECIAL = 20240611
SEED_C960 = 9601960


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- UCI helper


class Stockfish:
    """One Stockfish process, reused for every ``go perft``; results are memoised."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.name = "Stockfish"
        self._send("uci")
        for line in self._lines_until("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name ") :]
        self._send("setoption name Threads value 1")
        self._send("setoption name Hash value 16")
        self._chess960: bool | None = None
        self._cache: dict[tuple[str, int, bool], int] = {}
        self.calls = 0
        self.nodes = 0
        self.wall = 0.0

    def _send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def _lines_until(self, prefix: str) -> Iterator[str]:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"stockfish exited unexpectedly (waiting for {prefix!r})")
            line = line.strip()
            yield line
            if line.startswith(prefix):
                return

    def perft(self, fen: str, depth: int, chess960: bool = False) -> int:
        """The root total of ``go perft depth`` ("Nodes searched: N")."""
        key = (fen, depth, chess960)
        if key in self._cache:
            return self._cache[key]
        if chess960 != self._chess960:
            self._send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
            self._chess960 = chess960
        self._send("ucinewgame")
        self._send(f"position fen {fen}")
        start = time.monotonic()
        self._send(f"go perft {depth}")
        nodes = None
        for line in self._lines_until("Nodes searched:"):
            if line.startswith("Nodes searched:"):
                nodes = int(line.split(":")[1])
        self.wall += time.monotonic() - start
        self.calls += 1
        assert nodes is not None
        self.nodes += nodes
        self._cache[key] = nodes
        return nodes

    def cpu_seconds(self) -> float:
        """User + system CPU time of the engine process so far (Linux /proc)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return float("nan")

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


def find_stockfish(explicit: str | None) -> str:
    for candidate in (explicit, "/usr/games/stockfish", shutil.which("stockfish")):
        if candidate and Path(candidate).is_file():
            return candidate
    raise SystemExit("stockfish not found: pass --stockfish PATH")


def debian_version(package: str) -> str | None:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True
        )
    except OSError:
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


# --------------------------------------------------------------------------- python-chess helpers


def pychess_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += pychess_perft(board, depth - 1)
        board.pop()
    return nodes


def fen_of(board: chess.Board) -> str:
    """The FEN we write: standard FEN en passant (always after a double push).

    Chess960 castling uses X-FEN KQkq only when every castling king is on the e-file
    and every castling rook on the a/h-file; otherwise Shredder-FEN file letters.
    """
    if not board.chess960:
        return board.fen(en_passant="fen")
    rights = board.clean_castling_rights()
    standard = True
    for color in chess.COLORS:
        ours = rights & chess.BB_BACKRANKS & board.occupied_co[color]
        if ours:
            king = board.king(color)
            standard &= king is not None and chess.square_file(king) == 4
            standard &= all(chess.square_file(sq) in (0, 7) for sq in chess.scan_forward(ours))
    return board.fen(shredder=not standard, en_passant="fen")


@dataclass
class Entry:
    """One suite line: FEN (6 fields, as written), counts, and a comment above it."""

    id: str
    fen: str
    chess960: bool = False
    notes: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    stats: dict[int, str] = field(default_factory=dict)

    def board(self) -> chess.Board:
        return chess.Board(self.fen, chess960=self.chess960)


# --------------------------------------------------------------------------- counting


def count_entry(sf: Stockfish, entry: Entry, min_depth: int) -> None:
    """Fill entry.counts from Stockfish, as deep as keeps the largest count near NODE_CAP.

    Depth d+1 is computed only if the count at d times the larger of the last two
    branching ratios stays below NODE_CAP (or d+1 <= min_depth).
    """
    counts: dict[int, int] = {}
    depth = 1
    while True:
        counts[depth] = sf.perft(entry.fen, depth, entry.chess960)
        if depth >= MAX_DEPTH:
            break
        if depth >= min_depth:
            if counts[depth] == 0:
                break
            ratios = [counts[d] / counts[d - 1] for d in (depth, depth - 1) if counts.get(d - 1)]
            estimate = counts[depth] * max(ratios + [1.0])
            if estimate > NODE_CAP:
                break
        depth += 1
    entry.counts = counts


def cross_check(entry: Entry) -> None:
    """python-chess must agree with every Stockfish count at D1..D3; abort otherwise."""
    board = entry.board()
    for depth in range(1, CROSS_CHECK_DEPTH + 1):
        if depth not in entry.counts:
            break
        ours = pychess_perft(board, depth)
        if ours != entry.counts[depth]:
            raise SystemExit(
                f"DISAGREEMENT {entry.id} ({entry.fen}) D{depth}: "
                f"Stockfish {entry.counts[depth]}, python-chess {ours}"
            )


def check_valid(entry: Entry) -> chess.Board:
    board = entry.board()
    if not board.is_valid():
        raise SystemExit(f"{entry.id}: invalid position ({board.status()!r}): {entry.fen}")
    return board


# --------------------------------------------------------------------------- standard.epd

# The published "Perft Results" tables (chessprogramming wiki), depth 1 upward.
PUBLISHED = {
    "startpos": [20, 400, 8902, 197281, 4865609, 119060324],
    "kiwipete": [48, 2039, 97862, 4085603, 193690690, 8031647685],
    "pos3": [14, 191, 2812, 43238, 674624, 11030083, 178633661],
    "pos4": [6, 264, 9467, 422333, 15833292, 706045033],
    "pos4-mirrored": [6, 264, 9467, 422333, 15833292, 706045033],
    "pos5": [44, 1486, 62379, 2103487, 89941194],
    "pos6": [46, 2079, 89890, 3894594, 164075551, 6923051137],
}
POS4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
STANDARD_DEPTH = 6  # pos5's table stops at 5: its D6 comes from Stockfish alone
STAT_KEYS = [
    "captures",
    "en_passant",
    "castles",
    "promotions",
    "checks",
    "discovery_checks",
    "double_checks",
    "checkmates",
]


def build_standard(sf: Stockfish, stats_path: Path, verify_max: int) -> tuple[list, dict]:
    reference = json.loads(stats_path.read_text())["positions"]
    fens = {name: data["fen"] for name, data in reference.items()}
    fens["pos4-mirrored"] = POS4_MIRRORED
    assert chess.Board(fens["pos4"]).mirror().fen() == POS4_MIRRORED
    entries, notes = [], {"verified": [], "stockfish_only": [], "unverified": []}
    for name, table in PUBLISHED.items():
        entry = Entry(name, fens[name])
        check_valid(entry)
        entry.counts = {d: n for d, n in enumerate(table, start=1)}
        for depth, row in reference.get(name, {}).get("depths", {}).items():
            depth = int(depth)
            if row["nodes"] != entry.counts[depth]:
                raise SystemExit(f"{name} D{depth}: cpw-stats.json {row['nodes']} != table")
            entry.stats[depth] = " ".join(f"{k}={row[k]}" for k in STAT_KEYS)
        for depth, published in entry.counts.items():
            if published > verify_max:
                notes["unverified"].append(f"{name} D{depth}")
                continue
            t0 = time.monotonic()
            ours = sf.perft(entry.fen, depth)
            log(f"  {name} D{depth}: {ours} ({time.monotonic() - t0:.1f} s)")
            if ours != published:
                raise SystemExit(f"{name} D{depth}: Stockfish {ours} != published {published}")
            notes["verified"].append(f"{name} D{depth}")
        for depth in range(len(table) + 1, STANDARD_DEPTH + 1):
            t0 = time.monotonic()
            entry.counts[depth] = sf.perft(entry.fen, depth)
            log(f"  {name} D{depth}: {entry.counts[depth]} (Stockfish only, {time.monotonic() - t0:.1f} s)")
            notes["stockfish_only"].append(f"{name} D{depth}")
            entry.notes.append(
                f"{name} D{depth} is not in the published table: it is Stockfish's count alone."
            )
        cross_check(entry)
        entries.append(entry)
    return entries, notes


# --------------------------------------------------------------------------- feature predicates


def mv(uci: str) -> chess.Move:
    return chess.Move.from_uci(uci)


def legal(b: chess.Board, *ucis: str) -> bool:
    return all(mv(u) in b.legal_moves for u in ucis)


def not_legal(b: chess.Board, *ucis: str) -> bool:
    return all(mv(u) not in b.legal_moves for u in ucis)


def pseudo_not_legal(b: chess.Board, *ucis: str) -> bool:
    """Each move is pseudo-legal (right piece, right pattern) but leaves the king attacked."""
    return all(mv(u) in b.pseudo_legal_moves and mv(u) not in b.legal_moves for u in ucis)


def only(b: chess.Board, *ucis: str) -> bool:
    return {m.uci() for m in b.legal_moves} == set(ucis)


def moves_from(b: chess.Board, square: str) -> set[str]:
    sq = chess.parse_square(square)
    return {m.uci() for m in b.legal_moves if m.from_square == sq}


def only_king_moves(b: chess.Board) -> bool:
    king = b.king(b.turn)
    return any(True for _ in b.legal_moves) and all(m.from_square == king for m in b.legal_moves)


def double_check(b: chess.Board) -> bool:
    return len(b.checkers()) == 2


def mates_after(b: chess.Board, uci: str) -> bool:
    b = b.copy()
    b.push(mv(uci))
    return b.is_checkmate()


def gives_check(b: chess.Board, uci: str) -> bool:
    return legal(b, uci) and b.gives_check(mv(uci))


def attacked(b: chess.Board, square: str) -> bool:
    return b.is_attacked_by(not b.turn, chess.parse_square(square))


def after(b: chess.Board, *ucis: str) -> chess.Board:
    b = b.copy()
    for u in ucis:
        b.push(mv(u))
    return b


def pinned_count(b: chess.Board) -> int:
    king = b.king(b.turn)
    return sum(
        1 for sq in chess.scan_forward(b.occupied_co[b.turn]) if sq != king and b.is_pinned(b.turn, sq)
    )


# --------------------------------------------------------------------------- special.epd: hand-picked


@dataclass
class Pick:
    """A hand-picked position: id, FEN, what it shows, and an assertion that it does."""

    id: str
    fen: str
    note: str
    check: Callable[[chess.Board], bool] | None = None
    mirror: bool = True
    also: str = ""  # a published suite that lists the same position
    recalled: dict[int, int] = field(default_factory=dict)  # that suite's counts, compared only


SEDLAK = "Martin Sedlak's perft test list (talkchess)"
PERFTSUITE = "the perftsuite.epd collection"
PEJ = "Peter Ellis Jones' list of tricky positions"

SECTIONS: list[tuple[str, str, list[Pick]]] = [
    (
        "ep",
        "En passant: plain captures, the rank pin (both pawns leave the rank and expose the king), "
        "diagonal pins of the capturer, en passant as the only evasion of a pawn check, en passant "
        "that does not answer a check by another piece, en passant giving (discovered) check.",
        [
            Pick("ep-plain-1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
                 "exd6 e.p. is legal", lambda b: legal(b, "e5d6")),
            Pick("ep-two-capturers-1", "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
                 "two pawns can take en passant on d6", lambda b: legal(b, "c5d6", "e5d6")),
            Pick("ep-opening-1", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                 "1.e4 d5 2.e5 f5: exf6 e.p. legal, the d5 pawn passed by long ago",
                 lambda b: legal(b, "e5f6") and not_legal(b, "e5d6")),
            Pick("ep-rank-pin-1", "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
                 "bxc6 e.p. would empty b5 and c5 and expose Ka5 to Rh5: illegal",
                 lambda b: pseudo_not_legal(b, "b5c6") and legal(b, "b5b6")),
            Pick("ep-rank-pin-2", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
                 "after ...d5, cxd6 e.p. exposes Ka5 to Rh5 along the fifth rank",
                 lambda b: pseudo_not_legal(after(b, "d7d5"), "c5d6"),
                 also=SEDLAK, recalled={6: 1134888}),
            Pick("ep-rank-pin-3", "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
                 "exd3 e.p. would open the fourth rank from Qh4 to Ka4: illegal",
                 lambda b: pseudo_not_legal(b, "e4d3")),
            Pick("ep-rank-pin-4", "8/8/8/8/R1pP2k1/8/8/4K3 b - d3 0 1",
                 "king on the far side: cxd3 e.p. exposes Kg4 to Ra4: illegal",
                 lambda b: pseudo_not_legal(b, "c4d3")),
            Pick("ep-rank-pin-blocked-1", "8/8/8/8/k1NPp2Q/8/8/4K3 b - d3 0 1",
                 "like ep-rank-pin-3 but Nc4 still shields the king: exd3 e.p. is legal",
                 lambda b: legal(b, "e4d3")),
            Pick("ep-diag-pin-1", "4k3/1b6/8/3Pp3/8/5K2/8/8 w - e6 0 1",
                 "d5 is pinned on the b7-f3 diagonal: dxe6 e.p. (and d6) illegal",
                 lambda b: pseudo_not_legal(b, "d5e6", "d5d6")),
            Pick("ep-diag-pin-along-1", "4k3/5b2/8/3Pp3/8/1K6/8/8 w - e6 0 1",
                 "d5 is pinned on the b3-f7 diagonal and e6 lies on it: dxe6 e.p. legal, d6 not",
                 lambda b: legal(b, "d5e6") and pseudo_not_legal(b, "d5d6")),
            Pick("ep-diag-pin-2", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
                 "after d4, cxd3 e.p. would open the a2-e6 diagonal to Ke6",
                 lambda b: pseudo_not_legal(after(b, "d2d4"), "c4d3"),
                 also=SEDLAK, recalled={6: 1015133}),
            Pick("ep-only-evasion-1", "8/2b5/8/1pP5/K7/1r6/k7/8 w - b6 0 1",
                 "...b5+ checked Ka4; cxb6 e.p. removing the checker is the only legal move",
                 lambda b: b.is_check() and only(b, "c5b6")),
            Pick("ep-evasion-2", "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3",
                 "d4+ checked Kc5; cxd3 e.p. captures the checker",
                 lambda b: b.is_check() and legal(b, "c4d3"),
                 also=PEJ, recalled={1: 8}),
            Pick("ep-in-check-useless-1", "2b4k/8/8/3pPK2/8/8/8/8 w - d6 0 1",
                 "...d5 discovered check from Bc8; exd6 e.p. does not answer it: illegal",
                 lambda b: b.is_check() and pseudo_not_legal(b, "e5d6")),
            Pick("ep-gives-check-1", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
                 "cxd3 e.p. removes the d4 pawn from the c5-f2 diagonal: discovered check from Bc5",
                 lambda b: gives_check(b, "c4d3"),
                 also=SEDLAK, recalled={6: 1440467}),
            Pick("ep-discovered-check-1", "8/8/8/RPp4k/8/8/8/4K3 w - c6 0 1",
                 "bxc6 e.p. empties b5 and c5: discovered check from Ra5 to Kh5",
                 lambda b: gives_check(b, "b5c6")),
        ],
    ),
    (
        "castle",
        "Castling: every right, one side's rights, rights lost by a rook captured on its home "
        "square, castling through, into and out of check, blocked by pieces, long castling with "
        "b1/b8 attacked (legal), castling that gives check.",
        [
            Pick("castle-all-1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                 "all four rights, rooks facing each other on open files",
                 lambda b: legal(b, "e1g1", "e1c1"),
                 also=PERFTSUITE, recalled={1: 26, 2: 568, 3: 13744, 4: 314346, 5: 7594526, 6: 179862938}),
            Pick("castle-no-rights-1", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
                 "same squares, no rights: no castling at any depth",
                 lambda b: not_legal(b, "e1g1", "e1c1")),
            Pick("castle-white-k-1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
                 "white short castling only", lambda b: legal(b, "e1g1"),
                 mirror=True, also=PERFTSUITE,
                 recalled={1: 15, 2: 66, 3: 1197, 4: 7059, 5: 133987, 6: 764643}),
            Pick("castle-white-q-1", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
                 "white long castling only", lambda b: legal(b, "e1c1"),
                 also=PERFTSUITE,
                 recalled={1: 16, 2: 71, 3: 1287, 4: 7626, 5: 145232, 6: 846648}),
            Pick("castle-black-k-1", "4k2r/8/8/8/8/8/8/4K3 w k - 0 1",
                 "only black may castle, short", lambda b: legal(after(b, "e1d1"), "e8g8"),
                 also=PERFTSUITE,
                 recalled={1: 5, 2: 75, 3: 459, 4: 8290, 5: 47635, 6: 899442}),
            Pick("castle-black-q-1", "r3k3/8/8/8/8/8/8/4K3 w q - 0 1",
                 "only black may castle, long", lambda b: legal(after(b, "e1d1"), "e8c8"),
                 also=PERFTSUITE,
                 recalled={1: 5, 2: 80, 3: 493, 4: 8897, 5: 52710, 6: 1001523}),
            Pick("castle-white-kq-1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                 "both white rights, bare black king", lambda b: legal(b, "e1g1", "e1c1"),
                 also=PERFTSUITE,
                 recalled={1: 26, 2: 112, 3: 3189, 4: 17945, 5: 532933, 6: 2788982}),
            Pick("castle-black-kq-1", "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
                 "both black rights, bare white king", None,
                 also=PERFTSUITE,
                 recalled={1: 5, 2: 130, 3: 782, 4: 22180, 5: 118882, 6: 3517770}),
            Pick("castle-rook-b1-1", "r3k2r/8/8/8/8/8/8/1R2K2R w Kkq - 0 1",
                 "white's queen rook already left a1 (on b1): only K right",
                 lambda b: not_legal(b, "e1c1"),
                 also=PERFTSUITE, recalled={1: 25, 2: 567, 3: 14095, 4: 328965, 5: 8153719, 6: 195629489}),
            Pick("castle-rook-c1-1", "r3k2r/8/8/8/8/8/8/2R1K2R w Kkq - 0 1",
                 "rook on c1, only K right", None,
                 also=PERFTSUITE, recalled={1: 25, 2: 548, 3: 13502, 4: 312835, 5: 7736373, 6: 184411439}),
            Pick("castle-rook-g1-1", "r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1",
                 "king rook on g1, only Q right", lambda b: not_legal(b, "e1g1"),
                 also=PERFTSUITE, recalled={1: 25, 2: 547, 3: 13579, 4: 316214, 5: 7878456, 6: 189224276}),
            Pick("castle-rook-b8-1", "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
                 "black queen rook on b8, black keeps only k", None,
                 also=PERFTSUITE, recalled={1: 26, 2: 583, 3: 14252, 4: 334705, 5: 8198901, 6: 198328929}),
            Pick("castle-rook-c8-1", "2r1k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
                 "black queen rook on c8, black keeps only k", None,
                 also=PERFTSUITE, recalled={1: 25, 2: 560, 3: 13592, 4: 317324, 5: 7710115, 6: 185959088}),
            Pick("castle-rook-g8-1", "r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1",
                 "black king rook on g8, black keeps only q", None,
                 also=PERFTSUITE, recalled={1: 25, 2: 560, 3: 13607, 4: 320792, 5: 7848606, 6: 190755813}),
            Pick("castle-near-king-k-1", "8/8/8/8/8/8/6k1/4K2R w K - 0 1",
                 "black king on g2 guards f1/g1: no short castling",
                 lambda b: not_legal(b, "e1g1"),
                 also=PERFTSUITE, recalled={1: 12, 2: 38, 3: 564, 4: 2219, 5: 37735, 6: 185867}),
            Pick("castle-near-king-q-1", "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1",
                 "black king on b2 guards c1 (and b1, a1): no long castling",
                 lambda b: not_legal(b, "e1c1"),
                 also=PERFTSUITE, recalled={1: 15, 2: 65, 3: 1018, 4: 4573, 5: 80619, 6: 413018}),
            Pick("castle-king-close-k-1", "4k2r/6K1/8/8/8/8/8/8 w k - 0 1",
                 "white king on g7 next to the black castling path", None,
                 also=PERFTSUITE, recalled={1: 3, 2: 32, 3: 134, 4: 2073, 5: 10485, 6: 179869}),
            Pick("castle-king-close-q-1", "r3k3/1K6/8/8/8/8/8/8 w q - 0 1",
                 "white king on b7 next to the black long-castling path", None,
                 also=PERFTSUITE, recalled={1: 4, 2: 49, 3: 243, 4: 3991, 5: 20780, 6: 367724}),
            Pick("castle-through-check-1", "r3k2r/8/b7/8/8/8/8/R3K2R w KQkq - 0 1",
                 "Ba6 covers f1: O-O passes through check (illegal), O-O-O legal",
                 lambda b: not_legal(b, "e1g1") and legal(b, "e1c1") and attacked(b, "f1")),
            Pick("castle-into-check-1", "r3k2r/8/8/2b5/8/8/8/R3K2R w KQkq - 0 1",
                 "Bc5 covers g1: O-O would land in check (illegal), O-O-O legal",
                 lambda b: not_legal(b, "e1g1") and legal(b, "e1c1") and attacked(b, "g1")),
            Pick("castle-out-of-check-1", "r3k2r/8/8/8/1b6/8/8/R3K2R w KQkq - 0 1",
                 "Bb4+ : no castling out of check, rights stay",
                 lambda b: b.is_check() and not_legal(b, "e1g1", "e1c1")),
            Pick("castle-b1-attacked-1", "r3k2r/8/8/4B3/4b3/8/8/R3K2R w KQkq - 0 1",
                 "Be4 hits b1 and Be5 hits b8: long castling is still legal for both "
                 "(the king never crosses b1/b8); the rooks on h1/h8 are attacked too",
                 lambda b: legal(b, "e1c1", "e1g1") and attacked(b, "b1") and attacked(b, "h1")),
            Pick("castle-blocked-1", "r3kb1r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1",
                 "Nb1 blocks O-O-O (b1 must be empty though the king never goes there); "
                 "Bf8 blocks black's O-O",
                 lambda b: not_legal(b, "e1c1") and legal(b, "e1g1")),
            Pick("castle-rook-captured-1", "r3k2r/8/8/r7/8/8/6B1/R3K2R w KQkq - 0 1",
                 "Bxa8 takes the rook on its home square and ...Rxa8 brings another rook "
                 "there: black's q right must be gone",
                 lambda b: legal(b, "g2a8", "a1a5") and not_legal(after(b, "g2a8", "a5a8", "e1d1"), "e8c8")),
            Pick("castle-rook-captured-2", "r3k2r/8/8/8/8/8/5n2/R3K2R b KQkq - 0 1",
                 "...Nxh1 captures the white rook at home: the K right must go",
                 lambda b: legal(b, "f2h1")),
            Pick("castle-gives-check-1", "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
                 "O-O puts the rook on f1: check to Kf8",
                 lambda b: gives_check(b, "e1g1"), also=SEDLAK, recalled={6: 661072}),
            Pick("castle-gives-check-2", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
                 "O-O-O puts the rook on d1: check to Kd8",
                 lambda b: gives_check(b, "e1c1"), also=SEDLAK, recalled={6: 803711}),
            Pick("castle-rights-1", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
                 "bishops and a queen aimed at both wings and the rooks",
                 None, also=SEDLAK, recalled={4: 1274206}),
            Pick("castle-prevented-1", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
                 "queens on d6 and f3 cover castling squares of both kings",
                 None, also=SEDLAK, recalled={4: 1720476}),
            Pick("castle-in-check-kiwipete-1",
                 "r3k2r/p1pp1pb1/bn2Qnp1/2qPN3/1p2P3/2N5/PPPBBPPP/R3K2R b KQkq - 3 2",
                 "kiwipete after 1.Qxe6?... black is in check with all rights: no castling",
                 lambda b: b.is_check() and not_legal(b, "e8g8", "e8c8"),
                 mirror=False, also=PEJ, recalled={1: 5}),
            Pick("castle-kiwipete-2",
                 "2kr3r/p1ppqpb1/bn2Qnp1/3PN3/1p2P3/2N5/PPPBBPPP/R3K2R b KQ - 3 2",
                 "black has castled long; white keeps both rights",
                 None, mirror=False, also=PEJ, recalled={1: 44}),
        ],
    ),
    (
        "promo",
        "Promotions and underpromotions: with capture, with check, promotion giving mate, "
        "promotion out of check, a pinned pawn promoting by capturing its pinner, promotions on "
        "both sides.",
        [
            Pick("promo-check-1", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
                 "b8=Q+ and b8=R+ check along the eighth rank",
                 lambda b: gives_check(b, "b7b8q") and gives_check(b, "b7b8r"),
                 also=SEDLAK, recalled={6: 217342}),
            Pick("promo-underpromo-check-1", "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
                 "a8=N+ is the only checking promotion",
                 lambda b: gives_check(b, "a7a8n") and not b.gives_check(mv("a7a8q")),
                 also=SEDLAK, recalled={6: 92683}),
            Pick("promo-out-of-check-1", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
                 "Rf8+; exf8 promoting (any piece) removes the checker",
                 lambda b: b.is_check() and legal(b, "e7f8q", "e7f8n"),
                 also=SEDLAK, recalled={6: 3821001}),
            Pick("promo-capture-1", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
                 "a8=Q/R/B/N or axb8=Q/R/B/N", lambda b: legal(b, "a7a8q", "a7b8n")),
            Pick("promo-mate-1", "k7/2P5/1K6/8/8/8/8/8 w - - 0 1",
                 "c8=Q# and c8=R#; c8=B/N do not mate",
                 lambda b: mates_after(b, "c7c8q") and mates_after(b, "c7c8r")
                 and not mates_after(b, "c7c8n")),
            Pick("promo-pinned-1", "2b1k3/1P6/K7/8/8/8/8/8 w - - 0 1",
                 "b7 is pinned on the a6-c8 diagonal: bxc8 promoting is legal, b8 is not",
                 lambda b: legal(b, "b7c8q") and pseudo_not_legal(b, "b7b8q")),
            Pick("promo-both-sides-1", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                 "three pawns each side one step from promotion, knights to capture",
                 None, also=PERFTSUITE,
                 recalled={1: 24, 2: 496, 3: 9483, 4: 182838, 5: 3605103, 6: 71179139}),
            Pick("promo-both-sides-2", "8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1",
                 "the same race without knights", None, also=PERFTSUITE,
                 recalled={1: 18, 2: 270, 3: 4699, 4: 79355, 5: 1533145, 6: 28859283}),
            Pick("promo-both-sides-3", "n1n5/1Pk5/8/8/8/8/5Kp1/5N1N w - - 0 1",
                 "one pawn each side, b7 can take on a8 or c8", None, also=PERFTSUITE,
                 recalled={1: 24, 2: 421, 3: 7421, 4: 124608, 5: 2193768, 6: 37665329}),
            Pick("promo-race-1", "8/Pk6/8/8/8/8/6Kp/8 w - - 0 1",
                 "both sides promote on the next move", None, also=PERFTSUITE,
                 recalled={1: 11, 2: 97, 3: 887, 4: 8048, 5: 90606, 6: 1030499}),
        ],
    ),
    (
        "double-check",
        "Double check: only king moves are legal, even where a capture or a block would answer "
        "one of the checks.",
        [
            Pick("double-check-1", "4r1k1/8/8/8/8/3n4/8/R2QK2R w KQ - 0 1",
                 "Nd3+ and Re8+ (the knight left e5): Qxd3 and castling are illegal",
                 lambda b: double_check(b) and only_king_moves(b)),
            Pick("double-check-2", "r2qk2r/8/8/1B6/8/8/8/4R1K1 b kq - 0 1",
                 "Bb5+ and Re1+: no interposing on d7/e7, no castling",
                 lambda b: double_check(b) and only_king_moves(b)),
            Pick("double-check-3", "3r4/8/4k3/3P4/8/8/8/4R1K1 b - - 0 1",
                 "exd5 check from the pawn and discovered check from Re1: Rxd5 illegal",
                 lambda b: double_check(b) and only_king_moves(b)),
        ],
    ),
    (
        "check",
        "Single checks: captures, blocks and king moves; the king may not step back along the "
        "checking line (x-ray).",
        [
            Pick("check-xray-1", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1",
                 "Ra1+: Kf1 stays on the rook's line (x-ray through the king), illegal",
                 lambda b: b.is_check() and not_legal(b, "e1f1", "e1d1") and legal(b, "e1f2")),
            Pick("check-evasions-1", "4k3/8/8/8/8/2N5/1B6/r3K3 w - - 0 1",
                 "Ra1+: block with Nb1/Nd1, capture Bxa1, or move the king",
                 lambda b: b.is_check() and legal(b, "c3b1", "c3d1", "b2a1")),
            Pick("check-evasions-2", "r6r/1b2k1bq/8/8/7B/8/8/R3K2R b KQ - 3 2",
                 "Bh4+ on a crowded board", lambda b: b.is_check(),
                 mirror=False, also=PEJ, recalled={1: 8}),
            Pick("check-discovered-1", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
                 "black knight moves that uncover checks along the queen's lines",
                 None, also=SEDLAK, recalled={5: 1004658}),
            Pick("check-opening-1", "rnb2k1r/pp1Pbppp/2p5/q7/2B5/8/PPPQNnPP/RNB1K2R w KQ - 3 9",
                 "position 5 a move later: the d7 pawn can promote, Nf2 forks",
                 None, mirror=False, also=PEJ, recalled={1: 39}),
        ],
    ),
    (
        "pin",
        "Pinned pieces of every type: a pinned knight never moves; bishops, rooks and queens move "
        "only along the pin line when it is their kind of line; pawns pinned on a file may push, on "
        "a diagonal may only take the pinner, on a rank may not move.",
        [
            Pick("pin-knight-1", "4k3/4r3/8/8/8/4N3/8/4K3 w - - 0 1",
                 "Ne3 pinned on the e-file: no knight moves", lambda b: not moves_from(b, "e3")),
            Pick("pin-bishop-diag-1", "4k3/8/8/8/1b6/8/3B4/4K3 w - - 0 1",
                 "Bd2 pinned on a diagonal: only Bc3 and Bxb4",
                 lambda b: moves_from(b, "d2") == {"d2c3", "d2b4"}),
            Pick("pin-bishop-file-1", "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1",
                 "Be2 pinned on the e-file: no bishop moves", lambda b: not moves_from(b, "e2")),
            Pick("pin-rook-file-1", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1",
                 "Re2 pinned on the e-file: moves up the file only",
                 lambda b: moves_from(b, "e2") == {f"e2e{r}" for r in range(3, 9)}),
            Pick("pin-rook-diag-1", "4k3/8/8/8/1b6/8/3R4/4K3 w - - 0 1",
                 "Rd2 pinned on a diagonal: no rook moves", lambda b: not moves_from(b, "d2")),
            Pick("pin-queen-diag-1", "4k3/8/8/8/1b6/8/3Q4/4K3 w - - 0 1",
                 "Qd2 pinned on a diagonal: only Qc3 and Qxb4",
                 lambda b: moves_from(b, "d2") == {"d2c3", "d2b4"}),
            Pick("pin-queen-file-1", "4r1k1/8/8/8/8/8/4Q3/4K3 w - - 0 1",
                 "Qe2 pinned on the e-file: moves up the file only",
                 lambda b: moves_from(b, "e2") == {f"e2e{r}" for r in range(3, 9)}),
            Pick("pin-pawn-file-1", "4r1k1/8/8/8/8/3b1b2/4P3/4K3 w - - 0 1",
                 "e2 pinned on the file: e3/e4 legal, exd3/exf3 illegal",
                 lambda b: moves_from(b, "e2") == {"e2e3", "e2e4"}
                 and pseudo_not_legal(b, "e2d3", "e2f3")),
            Pick("pin-pawn-diag-1", "4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1",
                 "d2 pinned by Bc3: dxc3 legal, d3/d4 illegal",
                 lambda b: moves_from(b, "d2") == {"d2c3"}),
            Pick("pin-pawn-rank-1", "4k3/8/8/K1P4r/8/8/8/8 w - - 0 1",
                 "c5 pinned on the fifth rank: c6 illegal",
                 lambda b: pseudo_not_legal(b, "c5c6")),
            Pick("pin-star-1", "3q3k/b5b1/8/2NNR3/r1RKQ2q/2QBP3/8/b2r2b1 w - - 0 1",
                 "Kd4 with a pinned piece on each of its eight lines: 7 legal moves "
                 "(Rb4, Rxa4, Qf4, Qg4, Qxh4, Qb2, Qxa1)",
                 lambda b: pinned_count(b) == 8 and b.legal_moves.count() == 7),
        ],
    ),
    (
        "mate",
        "Checkmate and stalemate: positions with no legal move (all counts 0), and trees whose "
        "leaves include mates and stalemates.",
        [
            Pick("mate-d1-fools-1", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                 "fool's mate: white is checkmated", lambda b: b.is_checkmate()),
            Pick("mate-d1-backrank-1", "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
                 "back-rank mate", lambda b: b.is_checkmate()),
            Pick("mate-d1-smothered-1", "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1",
                 "smothered mate", lambda b: b.is_checkmate()),
            Pick("stalemate-d1-1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
                 "black king stalemated by queen and king", lambda b: b.is_stalemate()),
            Pick("stalemate-d1-2", "k7/P7/K7/8/8/8/8/8 b - - 0 1",
                 "black king stalemated by a pawn and the king", lambda b: b.is_stalemate()),
            Pick("stalemate-d1-pinned-1", "k7/b7/8/8/8/1Q6/7K/R7 b - - 0 1",
                 "Ba7 is pinned on the a-file by Ra1 and Qb3 covers b7/b8: stalemate with a bishop left",
                 lambda b: b.is_stalemate()),
            Pick("mate-leaf-scholar-1",
                 "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                 "Qxf7# is one of the depth-1 leaves", lambda b: mates_after(b, "h5f7")),
            Pick("stalemate-self-1", "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
                 "white's a-pawn can stalemate itself", None,
                 also=SEDLAK, recalled={6: 2217}),
            Pick("mate-stalemate-leaves-1", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
                 "c8=Q/R/B/N: some promotions mate or stalemate further down", None,
                 also=SEDLAK, recalled={7: 567584}),
            Pick("mate-stalemate-leaves-2", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
                 "queen and knight against a lone king: mates and stalemates at the leaves",
                 None, also=SEDLAK, recalled={4: 23527}),
        ],
    ),
    (
        "sparse",
        "Few pieces: deep trees for little work.",
        [
            Pick("sparse-kings-1", "8/8/8/3k4/8/8/3K4/8 w - - 0 1", "bare kings", None),
            Pick("sparse-kpk-1", "8/8/8/8/8/K7/P7/k7 w - - 0 1", "K+P v K in the corner", None,
                 also=PERFTSUITE, recalled={1: 3, 2: 7, 3: 43, 4: 199, 5: 1347, 6: 6249}),
            Pick("sparse-kpkp-1", "7k/3p4/8/8/3P4/8/8/K7 w - - 0 1",
                 "a pawn each; black's d-pawn may still step twice", None),
            Pick("sparse-knights-1", "8/1n4N1/2k5/8/8/5K2/1N4n1/8 w - - 0 1", "two knights each",
                 None, mirror=False, also=PERFTSUITE,
                 recalled={1: 14, 2: 195, 3: 2760, 4: 38675, 5: 570726, 6: 8107539}),
            Pick("sparse-knights-2", "8/1k6/8/5N2/8/4n3/8/2K5 w - - 0 1", "a knight each",
                 None, also=PERFTSUITE,
                 recalled={1: 11, 2: 156, 3: 1636, 4: 20534, 5: 223507, 6: 2594412}),
            Pick("sparse-bishops-1", "B6b/8/8/8/2K5/4k3/8/b6B w - - 0 1", "bishops in the corners",
                 None, mirror=False, also=PERFTSUITE,
                 recalled={1: 17, 2: 278, 3: 4607, 4: 76778, 5: 1320507, 6: 22823890}),
            Pick("sparse-bishops-2", "8/8/1B6/7b/7k/8/2B1b3/7K w - - 0 1", "two bishops against two",
                 None, also=PERFTSUITE,
                 recalled={1: 21, 2: 316, 3: 5744, 4: 93338, 5: 1713368, 6: 28861171}),
            Pick("sparse-rooks-1", "7k/RR6/8/8/8/8/rr6/7K w - - 0 1", "two rooks each on the seventh",
                 None, mirror=False, also=PERFTSUITE,
                 recalled={1: 19, 2: 275, 3: 5300, 4: 104342, 5: 2161211, 6: 44956585}),
            Pick("sparse-rooks-2", "R6r/8/8/2K5/5k2/8/8/r6R w - - 0 1", "rooks in the corners",
                 None, mirror=False, also=PERFTSUITE,
                 recalled={1: 36, 2: 1027, 3: 29215, 4: 771461, 5: 20506480, 6: 525169084}),
            Pick("sparse-queens-1", "6kq/8/8/8/8/8/8/7K w - - 0 1", "lone queen against a king",
                 None, also=PERFTSUITE,
                 recalled={1: 2, 2: 36, 3: 143, 4: 3637, 5: 14893, 6: 391507}),
            Pick("sparse-queens-2", "K7/8/8/3Q4/4q3/8/8/7k w - - 0 1", "queen against queen",
                 None, mirror=False, also=PERFTSUITE,
                 recalled={1: 6, 2: 35, 3: 495, 4: 8349, 5: 166741, 6: 3370175}),
        ],
    ),
    (
        "crowded",
        "Crowded boards: openings and middlegames with most pieces on.",
        [
            Pick("crowded-sicilian-1",
                 "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6",
                 "Open Sicilian, all pieces on", None),
            Pick("crowded-ruy-lopez-1",
                 "r1bqk2r/2ppbppp/p1n2n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1 b kq - 1 7",
                 "Closed Ruy Lopez: white has castled, black still may", None),
            Pick("crowded-pos5-variant-1",
                 "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6",
                 "a relative of position 5 with all four rights", None,
                 also=PERFTSUITE, recalled={1: 42, 2: 1352, 3: 53392}),
            Pick("crowded-knight-opening-1",
                 "r1bqkbnr/pppppppp/n7/8/8/P7/1PPPPPPP/RNBQKBNR w KQkq - 2 2",
                 "1.a3 Na6", None, mirror=False, also=PEJ, recalled={1: 19}),
            Pick("crowded-endgame-pawns-1", "2r5/3pk3/8/2P5/8/2K5/8/8 w - - 5 4",
                 "rook and pawns (a double step on d7 to come)", None,
                 mirror=False, also=PEJ, recalled={1: 9}),
        ],
    ),
]


def mirrored_fen(fen: str) -> str:
    return fen_of(chess.Board(fen).mirror())


def hand_picked_entries() -> Iterator[tuple[str, Entry, Pick, Entry | None]]:
    """(section, entry, pick, mirrored twin or None), validated and feature-checked."""
    for section, _, picks in SECTIONS:
        for pick in picks:
            entry = Entry(pick.id, pick.fen, notes=[pick.note])
            board = check_valid(entry)
            if fen_of(board) != pick.fen:
                raise SystemExit(f"{pick.id}: not in canonical form: {pick.fen} vs {fen_of(board)}")
            if pick.check is not None and not pick.check(board):
                raise SystemExit(f"{pick.id}: the position does not show what it claims: {pick.note}")
            twin = None
            if pick.mirror:
                twin = Entry(
                    f"{pick.id}-mirrored",
                    mirrored_fen(pick.fen),
                    notes=[f"{pick.id} with colours and ranks flipped: the same counts"],
                )
                check_valid(twin)
            yield section, entry, pick, twin


# --------------------------------------------------------------------------- feature finders


@dataclass
class Castle:
    """One castling right of the side to move, as the rules see it."""

    king: int
    rook: int
    kingside: bool
    king_to: int
    rook_to: int
    blockers: set[int]  # occupied squares that must be empty
    king_path: set[int]  # squares the king crosses, both ends included
    legal: bool


def castles(b: chess.Board) -> list[Castle]:
    king = b.king(b.turn)
    out = []
    if king is None:
        return out
    rank = chess.BB_RANK_1 if b.turn == chess.WHITE else chess.BB_RANK_8
    rights = b.clean_castling_rights() & rank & b.occupied_co[b.turn]
    legal_castles = [m for m in b.legal_moves if b.is_castling(m)]
    for rook in chess.scan_forward(rights):
        kingside = chess.square_file(rook) > chess.square_file(king)
        base = chess.square_rank(king) * 8
        king_to = base + (6 if kingside else 2)
        rook_to = base + (5 if kingside else 3)
        k_lo, k_hi = min(king, king_to), max(king, king_to)
        need = set(range(min(king, king_to), max(king, king_to) + 1))
        need |= set(range(min(rook, rook_to), max(rook, rook_to) + 1))
        need -= {king, rook}
        blockers = {s for s in need if b.piece_at(s)}
        is_legal = any(b.is_kingside_castling(m) == kingside for m in legal_castles)
        out.append(
            Castle(king, rook, kingside, king_to, rook_to, blockers, set(range(k_lo, k_hi + 1)), is_legal)
        )
    return out


def has_promotion(b: chess.Board, capture: bool) -> bool:
    return any(m.promotion and b.is_capture(m) == capture for m in b.legal_moves)


STANDARD_FEATURES: list[tuple[str, str, str, Callable[[chess.Board], bool]]] = [
    # (section, id prefix, what it is, predicate)
    ("ep", "ep-rand", "an en-passant capture is legal", lambda b: b.has_legal_en_passant()),
    ("ep", "ep-illegal-rand", "an en-passant capture is pseudo-legal but illegal",
     lambda b: b.has_pseudo_legal_en_passant() and not b.has_legal_en_passant()),
    ("castle", "castle-rand", "castling is legal", lambda b: any(c.legal for c in castles(b))),
    ("castle", "castle-attacked-rand", "a castling right with an empty path, but castling is "
     "illegal because the king is in check or would cross or land on an attacked square",
     lambda b: any(not c.legal and not c.blockers for c in castles(b))),
    ("promo", "promo-rand", "a promotion (no capture) is legal", lambda b: has_promotion(b, False)),
    ("promo", "promo-capture-rand", "a capturing promotion is legal",
     lambda b: has_promotion(b, True)),
    ("double-check", "double-check-rand", "the side to move is in double check", double_check),
    ("check", "check-rand", "in check with at least 16 pieces on the board",
     lambda b: len(b.checkers()) == 1 and chess.popcount(b.occupied) >= 16),
    ("pin", "pin-rand", "at least two pieces of the side to move are pinned",
     lambda b: pinned_count(b) >= 2),
    ("mate", "mate-rand", "checkmate", lambda b: b.is_checkmate()),
    ("mate", "stalemate-rand", "stalemate", lambda b: b.is_stalemate()),
    ("sparse", "sparse-rand", "at most 7 pieces, with pawns",
     lambda b: chess.popcount(b.occupied) <= 7 and bool(b.pawns) and not b.is_game_over()),
    ("crowded", "crowded-rand", "after move 8, at least 28 pieces and 35 legal moves",
     lambda b: len(b.move_stack) >= 16 and chess.popcount(b.occupied) >= 28
     and b.legal_moves.count() >= 35),
]


def pick_move(rng: random.Random, b: chess.Board, moves: list[chess.Move]) -> chess.Move:
    """A random move, weighted: develop back-rank minor pieces and queens, capture sometimes,
    and keep the king and rooks home (so castling stays possible for a while)."""
    weights = []
    home = chess.BB_RANK_1 if b.turn == chess.WHITE else chess.BB_RANK_8
    for m in moves:
        piece = b.piece_type_at(m.from_square)
        w = 1.0
        if b.is_castling(m):
            w = 2.0
        elif piece in (chess.KING, chess.ROOK):
            w = 0.3
        elif piece != chess.PAWN and chess.BB_SQUARES[m.from_square] & home:
            w = 3.0
        if b.is_capture(m):
            w *= 1.5
        weights.append(w)
    return rng.choices(moves, weights)[0]


def random_games(
    seed: int, games: int, plies: int, starts: list[chess.Board]
) -> Iterator[tuple[int, int, chess.Board]]:
    """(game number, ply, position) along seeded random games; ply 0 is the start."""
    rng = random.Random(seed)
    for game in range(games):
        b = starts[game % len(starts)].copy()
        for ply in range(1, plies + 1):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(pick_move(rng, b, moves))
            yield game, ply, b


def find_positions(
    features: list[tuple[str, str, str, Callable[[chess.Board], bool]]],
    positions: Iterator[tuple[int, int, chess.Board]],
    per_feature: int,
    seen: set[str],
    chess960: bool,
    accept: Callable[[chess.Board], bool] = lambda b: True,
    min_ply: int = 4,
) -> dict[str, list[tuple[int, int, chess.Board]]]:
    """The first ``per_feature`` positions showing each feature, at most one per game,
    none before ``min_ply``."""
    found: dict[str, list[tuple[int, int, chess.Board]]] = {f[1]: [] for f in features}
    used_games: dict[str, set[int]] = {f[1]: set() for f in features}
    for game, ply, b in positions:
        if ply < min_ply:
            continue
        for _, prefix, _, predicate in features:
            if len(found[prefix]) >= per_feature or game in used_games[prefix]:
                continue
            if not predicate(b):
                continue
            fen = fen_of(b)
            key = " ".join(fen.split()[:4])
            if key in seen or not b.is_valid() or not accept(b):
                continue
            seen.add(key)
            found[prefix].append((game, ply, chess.Board(fen, chess960=chess960)))
            used_games[prefix].add(game)
            break
        if all(len(v) >= per_feature for v in found.values()):
            break
    return found


# --------------------------------------------------------------------------- special.epd


def build_special(sf: Stockfish) -> tuple[list[tuple[str, str, list[Entry]]], dict]:
    sections = {name: (blurb, []) for name, blurb, _ in SECTIONS}
    seen: set[str] = set()
    report: dict = {"recalled_agree": [], "recalled_differ": [], "hand": 0, "mirrored": 0, "found": 0}
    for section, entry, pick, twin in hand_picked_entries():
        seen.add(" ".join(entry.fen.split()[:4]))
        count_entry(sf, entry, SPECIAL_MIN_DEPTH)
        cross_check(entry)
        if pick.recalled:
            differ = {d: n for d, n in pick.recalled.items() if entry.counts.get(d, n) != n}
            checked = {d: n for d, n in pick.recalled.items() if d in entry.counts}
            for d in pick.recalled:
                if d not in entry.counts:  # deeper than we keep: ask Stockfish once
                    if sf.perft(entry.fen, d) != pick.recalled[d]:
                        differ[d] = pick.recalled[d]
                    checked[d] = pick.recalled[d]
            if differ:
                report["recalled_differ"].append(
                    f"{pick.id}: {pick.also} recalled {differ}, Stockfish "
                    f"{ {d: sf.perft(entry.fen, d) for d in differ} } (Stockfish kept)"
                )
            else:
                report["recalled_agree"].append(pick.id)
                shown = "; ".join(f"D{d} {n}" for d, n in sorted(checked.items()))
                entry.notes.append(f"also in {pick.also}; its counts ({shown}) agree")
        elif pick.also:
            entry.notes.append(f"also in {pick.also}")
        sections[section][1].append(entry)
        report["hand"] += 1
        if twin is not None:
            seen.add(" ".join(twin.fen.split()[:4]))
            count_entry(sf, twin, SPECIAL_MIN_DEPTH)
            if twin.counts != entry.counts:
                raise SystemExit(f"{twin.id}: counts {twin.counts} != {entry.id} {entry.counts}")
            cross_check(twin)
            sections[section][1].append(twin)
            report["mirrored"] += 1
        log(f"  {entry.id}: {entry.counts}")

    starts = [chess.Board()]
    found = find_positions(
        STANDARD_FEATURES, random_games(SEED_SPECIAL, 600, 300, starts), 3, seen, chess960=False
    )
    for section, prefix, what, _ in STANDARD_FEATURES:
        for n, (game, ply, board) in enumerate(found[prefix], start=1):
            entry = Entry(
                f"{prefix}-{n}",
                fen_of(board),
                notes=[f"{what}; seeded random game {game} (seed {SEED_SPECIAL}), ply {ply}"],
            )
            check_valid(entry)
            count_entry(sf, entry, SPECIAL_MIN_DEPTH)
            cross_check(entry)
            sections[section][1].append(entry)
            report["found"] += 1
            log(f"  {entry.id}: {entry.counts}")
        if len(found[prefix]) < 3:
            log(f"  note: only {len(found[prefix])} random positions for {prefix}")
    return [(name, blurb, entries) for name, (blurb, entries) in sections.items()], report


# --------------------------------------------------------------------------- chess960.epd


def c960_features() -> list[tuple[str, str, str, Callable[[chess.Board], bool]]]:
    def legal_castle(test: Callable[[chess.Board, Castle], bool]) -> Callable[[chess.Board], bool]:
        return lambda b: any(c.legal and test(b, c) for c in castles(b))

    def file(sq: int) -> int:
        return chess.square_file(sq)

    def other_rook_blocks(b: chess.Board, c: Castle) -> bool:
        return bool(c.blockers) and all(b.piece_at(s) == chess.Piece(chess.ROOK, b.turn) for s in c.blockers)

    def attacked_path(b: chess.Board, c: Castle) -> bool:
        return not c.legal and not c.blockers

    def rook_path_attacked(b: chess.Board, c: Castle) -> bool:
        lo, hi = min(c.rook, c.rook_to), max(c.rook, c.rook_to)
        squares = set(range(lo, hi + 1)) - c.king_path
        return any(b.is_attacked_by(not b.turn, s) for s in squares)

    def rights_of_mover(b: chess.Board) -> int:
        rank = chess.BB_RANK_1 if b.turn == chess.WHITE else chess.BB_RANK_8
        return chess.popcount(b.clean_castling_rights() & rank)

    return [
        ("castle", "c960-castle-king-on-dest", "castling is legal with the king already on its "
         "destination square", legal_castle(lambda b, c: c.king == c.king_to)),
        ("castle", "c960-castle-rook-on-dest", "castling is legal with the rook already on its "
         "destination square", legal_castle(lambda b, c: c.rook == c.rook_to)),
        ("castle", "c960-castle-adjacent", "castling is legal with king and rook side by side",
         legal_castle(lambda b, c: abs(file(c.king) - file(c.rook)) == 1)),
        ("castle", "c960-castle-bg-rook", "castling is legal with the rook on the b- or g-file",
         legal_castle(lambda b, c: file(c.rook) in (1, 6))),
        ("castle", "c960-castle-one-right", "the side to move has one castling right left and may "
         "use it", lambda b: rights_of_mover(b) == 1 and any(c.legal for c in castles(b))),
        ("castle", "c960-castle-blocked-by-rook", "a castling path is blocked only by the "
         "player's other rook", lambda b: any(other_rook_blocks(b, c) for c in castles(b))),
        ("castle", "c960-castle-attacked", "a castling path is empty but castling is illegal "
         "(check, or an attacked square on the king's path)",
         lambda b: any(attacked_path(b, c) for c in castles(b))),
        ("castle", "c960-castle-rook-path-attacked", "castling is legal although a square only "
         "the rook crosses is attacked", legal_castle(rook_path_attacked)),
        ("castle", "c960-castle-both", "both castlings are legal",
         lambda b: sum(c.legal for c in castles(b)) == 2),
    ]


# (rook, king, rook) files of bare back-rank positions: every piece between king and rooks
# removed so castling is available at once for both sides.
BARE_960 = [
    ("abc", "the king is boxed in by both rooks: long castling is blocked by the other rook "
     "(c1 is the king's destination)"),
    ("fgh", "mirror geometry: short castling is blocked by the other rook on f1 (the rook's "
     "destination); the king already stands on g1"),
    ("ach", "long castling leaves the king where it is (c1)"),
    ("bcg", "rooks on b and g, king already on c1 for long castling"),
    ("agh", "short castling with king on g1 beside the rook: only the rook moves (h1 to f1)"),
    ("bfg", "rooks on b and g; king and rook adjacent on f/g swap places when castling short"),
    ("def", "both rooks already on their destination squares (d1 and f1)"),
    ("cde", "long castling swaps king and rook (d1/c1); short castling brings the e1 rook to f1"),
    ("afg", "short castling swaps king f1 and rook g1"),
    ("abh", "king on b1 crosses five squares to castle short; long castling: rook a1 passes b1"),
    ("bgh", "rook b1 travels to d1 past the king's destination c1; short castling: king stays"),
    ("ceh", "rook c1, king e1, rook h1"),
    ("adg", "rook a1, king d1, rook g1"),
    ("bdh", "rook b1, king d1, rook h1: long castling moves both past each other"),
    ("beg", "rook b1, king e1, rook g1"),
    ("aeh", "the standard geometry written as Chess960"),
]


def bare_960(files: str, black_to_move: bool = False, rights: str | None = None) -> chess.Board:
    r1, k, r2 = (ord(c) - ord("a") for c in files)
    rank = ["."] * 8
    rank[r1] = rank[r2] = "R"
    rank[k] = "K"
    white = "".join(rank)

    def compress(row: str) -> str:
        out, run = "", 0
        for ch in row:
            if ch == ".":
                run += 1
            else:
                out += (str(run) if run else "") + ch
                run = 0
        return out + (str(run) if run else "")

    castling = rights or (files[2].upper() + files[0].upper() + files[2] + files[0])
    fen = (
        f"{compress(white.lower())}/pppppppp/8/8/8/8/PPPPPPPP/{compress(white)} "
        f"{'b' if black_to_move else 'w'} {castling} - 0 1"
    )
    board = chess.Board(fen, chess960=True)
    assert chess.popcount(board.clean_castling_rights()) == len(castling), fen
    return board


def scharnagl_spread() -> list[tuple[int, str]]:
    """Start arrays: fixed landmarks plus a seeded sample."""
    picks: list[tuple[int, str]] = [
        (518, "the standard array"),
        (0, "the first array"),
        (959, "the last array"),
    ]

    def first(test: Callable[[str], bool], why: str) -> None:
        for n in range(960):
            rank = chess.Board.from_chess960_pos(n).board_fen().split("/")[-1]
            row = "".join(ch if not ch.isdigit() else "." * int(ch) for ch in rank)
            if test(row) and n not in [p[0] for p in picks]:
                picks.append((n, why))
                return

    first(lambda r: r.index("K") == 1, "king on b1")
    first(lambda r: r.index("K") == 6, "king on g1")
    first(lambda r: "RKR" in r, "king between adjacent rooks")
    first(lambda r: r[1] == "R" and r[6] == "R", "rooks on b1 and g1")
    first(lambda r: r[3] == "R" and r[5] == "R", "rooks on d1 and f1 (their destinations)")
    first(lambda r: r.index("K") == 2 and r[0] == "R", "king on c1, rook on a1")
    rng = random.Random(SEED_C960)
    taken = {p[0] for p in picks}
    sample = rng.sample([n for n in range(960) if n not in taken], 17)
    picks += [(n, "seeded sample") for n in sorted(sample)]
    return picks


def build_c960(sf: Stockfish) -> tuple[list[tuple[str, str, list[Entry]]], dict]:
    report = {"arrays": 0, "bare": 0, "found": 0}
    seen: set[str] = set()

    def add(entry: Entry, bucket: list[Entry]) -> None:
        check_valid(entry)
        seen.add(" ".join(entry.fen.split()[:4]))
        count_entry(sf, entry, C960_MIN_DEPTH)
        cross_check(entry)
        bucket.append(entry)
        log(f"  {entry.id}: {entry.counts}")

    arrays: list[Entry] = []
    for n, why in scharnagl_spread():
        board = chess.Board.from_chess960_pos(n)
        add(Entry(f"c960-{n}", fen_of(board), True, [f"start array {n}: {why}"]), arrays)
        report["arrays"] += 1

    bare: list[Entry] = []
    for files, why in BARE_960:
        board = bare_960(files)
        add(Entry(f"c960-castle-bare-{files}", fen_of(board), True, [why]), bare)
        report["bare"] += 1
    for files, why in (("abc", "black to move"), ("def", "black to move"), ("bgh", "black to move")):
        board = bare_960(files, black_to_move=True)
        add(Entry(f"c960-castle-bare-{files}-b", fen_of(board), True, [f"bare {files}, {why}"]), bare)
        report["bare"] += 1
    for files, rights, why in (
        ("def", "Fdf", "white lost the d1 rook's right (F kept)"),
        ("bcg", "Bgb", "white kept only the b1 rook's right"),
        ("agh", "Ha", "each side kept one right: white the h1 rook, black the a8 rook"),
    ):
        board = bare_960(files, rights=rights)
        add(Entry(f"c960-castle-one-right-{files}", fen_of(board), True, [why]), bare)
        report["bare"] += 1

    # random play from a seeded set of start arrays
    rng = random.Random(SEED_C960 + 1)
    numbers = rng.sample(range(960), 60)
    starts = [chess.Board.from_chess960_pos(n) for n in numbers]

    def affordable(b: chess.Board) -> bool:
        # rough D5 estimate from D1 and D2: keep positions whose D5 stays near the node cap
        d1 = b.legal_moves.count()
        d2 = pychess_perft(b, 2)
        return d1 > 0 and d1 * (d2 / d1) ** 2 * d1 * d1 <= NODE_CAP

    features = c960_features()
    found = find_positions(
        features, random_games(SEED_C960, 3000, 40, starts), 3, seen, True, affordable, min_ply=6
    )
    play: list[Entry] = []
    for _, prefix, what, _ in features:
        for n, (game, ply, board) in enumerate(found[prefix], start=1):
            origin = f"start array {numbers[game % len(numbers)]}, seeded random game {game}"
            entry = Entry(
                f"{prefix}-{n}",
                fen_of(board),
                True,
                [f"{what}; {origin} (seed {SEED_C960}), ply {ply}"],
            )
            add(entry, play)
            report["found"] += 1
        if len(found[prefix]) < 3:
            log(f"  note: only {len(found[prefix])} random positions for {prefix}")
    return [
        ("arrays", "Start arrays (Scharnagl numbers): landmarks and a seeded sample.", arrays),
        ("bare", "Constructed castling positions: each start geometry (rook, king, rook files) "
         "with every other back-rank piece removed, so both sides may castle at once.", bare),
        ("play", "Positions from seeded random play in Chess960 start arrays, picked for a "
         "castling feature.", play),
    ], report


# --------------------------------------------------------------------------- writing


def epd_line(entry: Entry) -> str:
    placement, turn, castling, ep, half, full = entry.fen.split()
    ops = [f'id "{entry.id}"']
    if (half, full) != ("0", "1"):
        ops += [f"hmvc {half}", f"fmvn {full}"]
    ops += [f"D{d} {n}" for d, n in sorted(entry.counts.items())]
    ops += [f'S{d} "{s}"' for d, s in sorted(entry.stats.items())]
    return f"{placement} {turn} {castling} {ep} " + " ".join(op + ";" for op in ops)


def write_suite(path: Path, header: list[str], sections: list[tuple[str, str, list[Entry]]]) -> int:
    lines = [f"# {h}" if h else "#" for h in header]
    total = 0
    for _, blurb, entries in sections:
        if not entries:
            continue
        lines += ["", *wrap_comment(blurb)]
        for entry in entries:
            for note in entry.notes:
                lines += wrap_comment(note, prefix="#   ")
            lines.append(epd_line(entry))
            total += 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return total


def wrap_comment(text: str, prefix: str = "# ", width: int = 96) -> list[str]:
    words, lines, line = text.split(), [], prefix
    for word in words:
        if len(line) + len(word) + 1 > width and line.strip() != prefix.strip():
            lines.append(line.rstrip())
            line = prefix
        line += word + " "
    lines.append(line.rstrip())
    return lines


def check_ids(all_entries: list[Entry]) -> None:
    seen: set[str] = set()
    for entry in all_entries:
        ok = entry.id and all(c in "abcdefghijklmnopqrstuvwxyz0123456789-" for c in entry.id)
        if not ok or entry.id in seen:
            raise SystemExit(f"bad or duplicate id: {entry.id!r}")
        seen.add(entry.id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "positions", help="output folder")
    parser.add_argument("--stockfish", help="path of the Stockfish binary")
    parser.add_argument("--cpw-stats", type=Path, default=CPW_STATS, help="cpw-stats.json")
    parser.add_argument("--date", default=datetime.date.today().isoformat())
    parser.add_argument(
        "--verify-max-nodes", type=int, default=10**10,
        help="check published counts against Stockfish up to this many nodes (default: all)",
    )
    args = parser.parse_args(argv)
    command = "python3 " + shlex.join(["tools/make_positions.py", *sys.argv[1:]])

    sf = Stockfish(find_stockfish(args.stockfish))
    deb = debian_version("stockfish")
    engine = f"{sf.name} (Debian package stockfish {deb})" if deb else sf.name
    source = (
        f"{engine}, go perft, Threads=1; D1-D{CROSS_CHECK_DEPTH} cross-checked with "
        f"python-chess {chess.__version__}"
    )
    started = time.monotonic()
    args.out.mkdir(parents=True, exist_ok=True)
    summary = {}

    log("standard.epd")
    standard, notes = build_standard(sf, args.cpw_stats, args.verify_max_nodes)
    verified = "every published count" if not notes["unverified"] else (
        "the published counts up to " + f"{args.verify_max_nodes} nodes (not: "
        + ", ".join(notes["unverified"]) + ")"
    )
    header = [
        "chesskit perft suite: the six positions of the chessprogramming wiki's \"Perft Results\" page",
        "(and position 4 mirrored).",
        "",
        f"D<n> counts: the published tables of {CPW_URL};",
        f"{verified} agrees with {engine}, go perft, Threads=1,",
        f"and D1-D{CROSS_CHECK_DEPTH} with python-chess {chess.__version__} perft.",
        *(
            [", ".join(notes["stockfish_only"]) + f": not in the published tables; {engine} go perft, "
             f"Threads=1, alone."]
            if notes["stockfish_only"] else []
        ),
        "S<n> leaf counters (captures, en passant, castles, promotions, checks, discovered checks,",
        "double checks, checkmates of the moves made at the last ply): shared/reference/cpw-stats.json,",
        "computed there with python-chess 1.11.2 and equal to the published tables where they have them;",
        "carried for the depths that file has.",
        f"Generated {args.date} by: {command}",
        "Format: positions/README.md",
    ]
    summary["standard.epd"] = write_suite(
        args.out / "standard.epd", header, [("standard", "The Perft Results positions.", standard)]
    )

    log("special.epd")
    special, special_report = build_special(sf)
    header = [
        "chesskit perft suite: special cases (en passant, castling, promotions, checks, pins,",
        "mates and stalemates, few pieces, crowded boards), grouped by theme.",
        "",
        f"Source of every D<n> count: {source}.",
        f"Generated {args.date} by: {command}",
        "Hand-picked positions were written for this suite (each checked with python-chess",
        "board.is_valid() and an assertion of the feature its comment names); an id ending in",
        "-mirrored is the colour-flipped twin (same counts, computed separately); ids with -rand-",
        f"were found by seeded random play (seed {SEED_SPECIAL}). Where a position also appears in a",
        "published suite, its comment says so and whether that suite's counts agree.",
        "Depths: as deep as keeps the largest count near 2e7 (at least D3).",
        "Format: positions/README.md",
    ]
    summary["special.epd"] = write_suite(args.out / "special.epd", header, special)

    log("chess960.epd")
    c960, c960_report = build_c960(sf)
    header = [
        "chesskit perft suite: Chess960 (castling king-takes-rook; read these in Chess960 mode).",
        "",
        f"Source of every D<n> count: {source}",
        "(Stockfish run with UCI_Chess960 true).",
        f"Generated {args.date} by: {command}",
        "Castling field: X-FEN KQkq only where every castling king is on the e-file and every",
        "castling rook on the a/h-file; otherwise Shredder-FEN rook files (e.g. HAha).",
        f"Random play: seed {SEED_C960}. Depths: at least D5, deeper while the largest count stays",
        "near 2e7.",
        "Format: positions/README.md",
    ]
    summary["chess960.epd"] = write_suite(args.out / "chess960.epd", header, c960)

    check_ids(standard + [e for _, _, es in special for e in es] + [e for _, _, es in c960 for e in es])
    cpu = sf.cpu_seconds()
    sf.close()
    log("")
    for name, n in summary.items():
        log(f"{name}: {n} positions")
    log(f"special: {special_report['hand']} hand-picked, {special_report['mirrored']} mirrored, "
        f"{special_report['found']} found")
    log(f"chess960: {c960_report}")
    log(f"published-suite counts agree: {len(special_report['recalled_agree'])}")
    for line in special_report["recalled_differ"]:
        log(f"  DIFFERS: {line}")
    log(f"Stockfish: {sf.calls} perft calls, {sf.nodes} nodes, {sf.wall:.1f} s wall, "
        f"{cpu:.1f} s CPU; total run {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
