"""positions/variants/: each file's counts are the oracles' (Fairy-Stockfish as pyffish,
python-chess's chess.variant), checked here without chesskit: every line at D1 and D2 by
both oracles by default, every depth by python-chess under slow. The header of each file
names its sources and the command that wrote it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import chess.variant as chess_variant
import pyffish

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "positions" / "variants"
FILES = sorted(FOLDER.glob("*.epd"))
VARIANTS = ("atomic", "crazyhouse", "kingofthehill", "3check", "antichess", "giveaway", "horde", "racingkings")
_LINE = re.compile(r"^(?P<epd>.*?) id \"(?P<id>[^\"]+)\"; variant (?P<variant>\S+);(?P<ops>.*)$")


def _lines(path: Path) -> list[tuple[str, str, str, dict[int, int]]]:
    out = []
    for text in path.read_text().splitlines():
        if not text or text.startswith("#"):
            continue
        match = _LINE.match(text)
        assert match, f"{path.name}: unexpected line {text!r}"
        depths = {int(d): int(n) for d, n in re.findall(r"D(\d+) (\d+);", match["ops"])}
        out.append((match["id"], match["variant"], match["epd"], depths))
    return out


def _pc_perft(board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += _pc_perft(board, depth - 1)
        board.pop()
    return total


def _ff_perft(variant: str, fen: str, depth: int, chess960: bool, path: tuple = ()) -> int:
    moves = pyffish.legal_moves(variant, fen, list(path), chess960)
    if depth == 1:
        return len(moves)
    return sum(_ff_perft(variant, fen, depth - 1, chess960, (*path, m)) for m in moves)


CASES = [
    pytest.param(path.stem, *line, id=f"{path.stem}:{line[0]}") for path in FILES for line in _lines(path)
]


def test_one_file_per_variant_and_960_forms():
    assert {p.stem for p in FILES} >= {*VARIANTS, "atomic960", "crazyhouse960"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_header_names_the_oracles_and_the_command(path):
    head = path.read_text().split("\n\n", 1)[0]
    assert "Fairy-Stockfish" in head and "pyffish" in head and "python-chess" in head
    assert "python3 tools/make_variant_positions.py" in head
    lines = _lines(path)
    assert len(lines) >= 2 and len({ident for ident, *_ in lines}) == len(lines)
    assert {variant for _, variant, _, _ in lines} == {path.stem.removesuffix("960")}


def _shallow(cases):
    """A handful per file by default: the first four lines (hand-picked special cases)."""
    seen: dict[str, int] = {}
    kept = []
    for case in cases:
        stem = case.values[0]
        seen[stem] = seen.get(stem, 0) + 1
        if seen[stem] <= 4:
            kept.append(case)
    return kept


@pytest.mark.parametrize("stem,ident,variant,epd,depths", _shallow(CASES))
def test_d1_by_both_oracles_and_d2_by_python_chess(stem, ident, variant, epd, depths):
    """pyffish answers a move list in about 5 ms: one call here, D2 under slow."""
    chess960 = stem.endswith("960")
    fen = f"{epd} 0 1"
    board = chess_variant.find_variant(variant)(fen, chess960=chess960)
    assert _ff_perft(variant, fen, 1, chess960) == depths[1], "Fairy-Stockfish D1"
    for depth in (1, 2) if depths[2] <= 20_000 else (1,):  # a bigger D2: under slow (every depth)
        assert _pc_perft(board, depth) == depths[depth], f"python-chess D{depth}"


@pytest.mark.slow
# a position without moves (antichess-stalemate: D1 0) records no D2
@pytest.mark.parametrize("stem,ident,variant,epd,depths", [c for c in CASES if 2 in c.values[-1]])
def test_d2_agrees_with_fairy_stockfish(stem, ident, variant, epd, depths):
    assert _ff_perft(variant, f"{epd} 0 1", 2, stem.endswith("960")) == depths[2]


@pytest.mark.slow
@pytest.mark.parametrize("stem,ident,variant,epd,depths", CASES)
def test_every_depth_agrees_with_python_chess(stem, ident, variant, epd, depths):
    """The generator recomputed every depth with python-chess; this repeats it (Fairy-Stockfish
    via pyffish takes 5 ms a node: its deep counts are the generator's alone)."""
    board = chess_variant.find_variant(variant)(f"{epd} 0 1", chess960=stem.endswith("960"))
    for depth, count in depths.items():
        assert _pc_perft(board, depth) == count, f"D{depth}"
