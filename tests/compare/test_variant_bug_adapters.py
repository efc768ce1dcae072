"""The deliberately buggy variant adapters of tests/engines/ (vbug_*.py, one per variant bug
class of issue 22), run through chesskit's Python-adapter back end under a variant: each
one's divide at its trigger differs from Fairy-Stockfish's (pyffish) exactly by its bug,
and the correct adapter (vpchelper.Adapter over python-chess's variant boards) agrees
with Fairy-Stockfish there. compare and fuzz finding them: test_variant_compare.py."""

from __future__ import annotations

from pathlib import Path

import pytest

import pyffish

from chesskit.compare.engines import open_engine  # noqa: E402
from chesskit.errors import EngineError  # noqa: E402

ENGINES = Path(__file__).resolve().parents[1] / "engines"

# (adapter file, variant, trigger FEN, moves to the node where the bug shows,
#  moves only the buggy adapter lists there, moves only Fairy-Stockfish lists there)
BUGS = [
    ("vbug_atomic_radius", "atomic", "8/8/8/2k5/1b6/8/8/1R2K3 w - - 0 1", ["b1b4"], "any", set()),
    ("vbug_atomic_pawns", "atomic", "4k3/8/8/8/3ppp2/4n3/4P3/4K2Q w - - 0 1", ["h1e4"], set(), {"d4d3", "f4f3"}),
    ("vbug_atomic_kings_touch", "atomic", "8/8/8/3k4/8/4K3/8/8 w - - 0 1", [], set(), {"e3d4", "e3e4"}),
    ("vbug_drop_last_rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", [], {"P@a1", "P@h8"}, set()),
    ("vbug_promoted_returns", "crazyhouse", "3rk3/8/8/8/8/8/8/3Q~K3[] b - - 0 1", ["d8d1", "e1e2"], {"Q@a1"}, {"P@a2"}),
    ("vbug_drop_into_check", "crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", [], {"N@f1", "N@e2"}, set()),
    ("vbug_third_check", "3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 1+3 0 1", ["a1a8"], {"e8e7"}, set()),
    ("vbug_koth_goal", "kingofthehill", "8/8/8/8/2K5/8/8/k7 w - - 0 1", ["c4d5"], {"a1a2"}, set()),
    ("vbug_forced_capture_ep", "antichess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", [], {"e5e6", "e1d1"}, set()),
    ("vbug_horde_first_rank", "horde", "4k3/8/8/8/8/8/8/P3P2P w - - 0 1", [], set(), {"a1a3", "e1e3", "h1h3"}),
    ("vbug_racing_last_chance", "racingkings", "8/1k3K2/8/8/8/8/8/8 w - - 0 1", ["f7f8"], set(), {"b7b8"}),
    ("vbug_racing_plays_on", "racingkings", "8/5K2/1k6/8/8/8/8/8 w - - 0 1", ["f7e8"], {"b6a5", "b6c7"}, set()),
]


def _ff_divide(variant: str, fen: str, moves: list[str]) -> set[str]:
    return set(pyffish.legal_moves(variant, fen, moves))


def _adapter_moves(spec: str, variant: str, fen: str, moves: list[str]) -> set[str]:
    with open_engine(python=spec, variant=variant, timeout=60) as engine:
        return set(engine.divide(fen, 1, moves))


@pytest.mark.parametrize("name,variant,fen,path,extra,missing", BUGS, ids=[b[0] for b in BUGS])
def test_each_bug_shows_at_its_trigger_and_nowhere_above_it(name, variant, fen, path, extra, missing):
    spec = str(ENGINES / f"{name}.py") + ":Adapter"
    for depth in range(len(path)):  # the nodes above the bug agree
        assert _adapter_moves(spec, variant, fen, path[:depth]) == _ff_divide(variant, fen, path[:depth])
    buggy = _adapter_moves(spec, variant, fen, path)
    right = _ff_divide(variant, fen, path)
    assert buggy != right
    if extra == "any":
        assert buggy - right or right - buggy
    else:
        assert extra <= buggy - right and missing <= right - buggy
    correct = str(ENGINES / "vpchelper.py") + ":Adapter"
    assert _adapter_moves(correct, variant, fen, path) == right


def test_an_adapter_without_a_variant_keyword_is_refused_in_one_line():
    spec = str(ENGINES / "eng_correct.py") + ":Adapter"
    with pytest.raises(EngineError, match="takes no 'variant' keyword"):
        open_engine(python=spec, variant="atomic")


def test_a_uci_engine_without_uci_variant_is_refused(stockfish_path):
    with open_engine(engine=stockfish_path, variant="horde", timeout=30) as engine:
        with pytest.raises(EngineError, match="offers no UCI_Variant option"):
            engine.divide("4k3/8/8/8/8/8/8/P3P2P w - - 0 1", 1, [])
