"""chesskit's variant core against the bundled variant suites (Fairy-Stockfish's counts,
python-chess's too) and python-chess's published variant sets. Needs the variant core;
atomic and crazyhouse need its second part."""

from __future__ import annotations

from pathlib import Path

import pytest

# compiles variant walks: slow, one xdist group per variant (tests/conftest.py)
pytestmark = pytest.mark.variant_walk

FOLDER = Path(__file__).resolve().parents[2] / "positions" / "variants"
FAST = ("kingofthehill", "horde")


@pytest.mark.parametrize(
    "name",
    [pytest.param(p.stem, marks=() if p.stem in FAST else (pytest.mark.slow,)) for p in sorted(FOLDER.glob("*.epd"))],
)
def test_bundled_variant_suite_matches(cli, name):
    result = cli("suite", str(FOLDER / f"{name}.epd"))
    assert result.exit_code == 0, result.output
    assert "all match" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("name", ["atomic", "crazyhouse", "3check", "giveaway", "horde", "racingkings"])
def test_python_chess_variant_sets_match(cli, perft_sets, name):
    result = cli("suite", str(perft_sets / f"{name}.perft"), "--max-nodes", "2e6")
    assert result.exit_code == 0, result.output
