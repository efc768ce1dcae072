"""A dialect named with --dialect is checked for `position fen` as a detected one is, `go perft`
included (issue 26 item 5): an engine that ignores it is one clear error, never a false verdict."""

from __future__ import annotations

import sys

import pytest

from chesskit.compare.engines import open_engine
from chesskit.errors import EngineError
from helpers import ENGINES, FAKE_UCI, KIWIPETE, STARTPOS, need_program, one_line, pc_divide

FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'}"
IGNORES = r"ignores 'position fen' .*give a one-shot --engine-cmd instead$"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


@pytest.mark.parametrize(
    "dialect, flags",
    [
        ("uci-perft", ""),
        ("uci-go-perft", "--command go-perft --total stockfish"),
        ("uci-perft-total", "--total-only"),
        ("console-divide", "--loop console --command divide"),
    ],
)
def test_a_named_dialect_is_checked_for_position_fen(dialect, flags):
    with pytest.raises(EngineError, match=IGNORES):
        with open_engine(engine=f"{FAKE} --ignore-position {flags}", dialect=dialect, timeout=10) as engine:
            engine.divide(KIWIPETE, 1, [])
    # the same engine following `position fen` passes the check and counts
    with open_engine(engine=f"{FAKE} {flags}", dialect=dialect, timeout=10) as engine:
        assert engine.perft(KIWIPETE, 1, []) == 48


@pytest.mark.parametrize(
    "position", [["kiwipete"], ["startpos", "--moves", "e2e4 e7e5"]], ids=["position", "with --moves"]
)
def test_compare_with_a_named_dialect_reports_the_ignored_position(cli, position):
    engine = ["--engine", f"{FAKE} --ignore-position", "--dialect", "uci-perft"]
    one_line(cli("compare", position[0], "2", *position[1:], *engine), 3, "ignores 'position fen'")


def test_the_check_costs_one_question_and_the_answers_stay_right():
    with open_engine(engine=FAKE, dialect="uci-perft", timeout=10) as engine:
        assert engine.divide(KIWIPETE, 2, ["e1g1"]) == pc_divide(KIWIPETE, 2, ["e1g1"])


@pytest.mark.parametrize("dialect", [None, "uci-go-perft"], ids=["detected", "named"])
def test_a_go_perft_engine_that_ignores_position_fen_is_caught(dialect):
    with pytest.raises(EngineError, match=IGNORES):
        with open_engine(engine=f"{FAKE_UCI} --ignore-fen", dialect=dialect, timeout=10) as engine:
            engine.divide(KIWIPETE, 1, [])


@pytest.mark.parametrize("dialect", [[], ["--dialect", "uci-go-perft"]], ids=["detected", "named"])
def test_compare_and_suite_with_a_go_perft_engine_that_ignores_position_fen(cli, tmp_path, dialect):
    engine = ["--engine", f"{FAKE_UCI} --ignore-fen", *dialect]
    # not 'misses 28 moves' (Kiwipete's 48 against the start position's 20), nor a
    # false make/unmake verdict after --moves
    one_line(cli("compare", "kiwipete", "2", *engine), 3, "ignores 'position fen'")
    one_line(cli("compare", "startpos", "2", "--moves", "e2e4 e7e5", *engine), 3, "ignores 'position fen'")
    suite = tmp_path / "s.epd"
    suite.write_text(f"{STARTPOS} ;D1 20\n{KIWIPETE} ;D1 48\n")
    result = cli("suite", str(suite), *engine)
    assert result.exit_code == 3 and "ignores 'position fen'" in result.stderr, result.stderr


def test_the_check_is_made_once_for_the_engine_not_at_each_restart(tmp_path, monkeypatch):
    log = tmp_path / "sent"
    monkeypatch.setenv("FAKE_PERFT_LOG", str(log))
    with open_engine(engine=FAKE, dialect="uci-perft", timeout=10) as engine:
        assert engine.perft(KIWIPETE, 1, []) == 48
        engine.close()  # as a suite restarts it after a failure
        assert engine.perft(KIWIPETE, 1, []) == 48
    asked = [line.split(" ", 2)[2] for line in log.read_text().splitlines() if line.startswith("position")]
    # the check (the start position, then Kiwipete), then each question: no check after the restart
    assert asked == [STARTPOS, KIWIPETE, KIWIPETE, KIWIPETE]


@pytest.mark.parametrize("variant", ["horde", "racingkings", "antichess"])
@pytest.mark.parametrize("dialect", [None, "uci-go-perft"], ids=["detected", "named"])
def test_fairy_stockfish_passes_the_check_in_a_variant(variant, dialect):
    """Under --variant the check asks a position of the variant (Kiwipete is none in horde or
    racing kings; in antichess it has 8 moves, not 48): Fairy-Stockfish passes it and counts."""
    import pyffish

    from chesskit.variants import get

    engine = need_program("/usr/games/fairy-stockfish")
    fen = get(variant).start_fen
    with open_engine(engine=engine, variant=variant, dialect=dialect, timeout=20) as eng:
        assert eng.perft(fen, 1, []) == len(pyffish.legal_moves(variant, fen, []))
