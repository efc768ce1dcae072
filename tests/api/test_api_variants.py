"""The Python API in a variant: an ``Engine`` opened in a variant reads its positions in those
rules (``startpos`` is the variant's start, a FEN in the variant's dialect, drops among the
moves), compare defaults to the Engine's rules, and the pytest plugin's
``--chesskit-variant``; python-chess's variant boards are the oracle. Each variant compiles
its own walk on first use: slow tests, one xdist group per variant (tests/conftest.py)."""

from __future__ import annotations

import chess.variant
import pytest

import chesskit
from chesskit import variants
from chesskit.errors import InputError
from helpers import ENGINES, REPO, pc_perft

pytestmark = pytest.mark.variant_walk

ADAPTER = f"{ENGINES / 'vpchelper.py'}:Adapter"  # correct in every variant (python-chess)


def oracle(variant: str, fen: str | None = None):
    cls = chess.variant.find_variant(variants.get(variant).pychess)
    return cls() if fen is None else cls(fen)


@pytest.mark.parametrize(
    "variant, fen",
    [
        ("horde", None),  # startpos is the variant's start: the engine was asked the standard one (400, not 128)
        ("racingkings", None),
        ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"),  # pockets: refused as "only crazyhouse has pockets"
        ("3check", "4k3/8/8/8/8/8/8/4KQ2 w - - 1+1 0 1"),
        ("atomic", "8/8/8/8/3k4/4K3/8/8 w - - 0 1"),  # touching kings
        ("horde", "4k3/8/8/8/8/8/8/PPPPPPPP w - - 0 1"),  # first-rank pawns
    ],
)
def test_an_engine_opened_in_a_variant_is_asked_in_its_rules(variant, fen):
    board = oracle(variant, fen)
    with chesskit.Engine(python=ADAPTER, variant=variant) as engine:
        assert engine.perft(fen or "startpos", 2) == pc_perft(board, 2)
        assert sum(engine.divide(fen or "startpos", 1).values()) == board.legal_moves.count()
        assert chesskit.compare(engine, fen or "startpos", 2).agree  # compare takes the Engine's rules


def test_a_drop_is_a_move_of_an_engine_opened_in_crazyhouse():
    fen = "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"
    board = oracle("crazyhouse", fen)
    board.push_uci("N@e4")
    with chesskit.Engine(python=ADAPTER, variant="crazyhouse") as engine:
        assert engine.perft(fen, 2, moves=["N@e4"]) == pc_perft(board, 2)  # it was an IllegalMoveError


def test_a_script_opened_in_horde_counts_horde_startpos():
    # vbug_koth_goal.py's bug is king of the hill's: in horde it is correct
    with chesskit.Engine(script=str(ENGINES / "vbug_koth_goal.py"), variant="horde") as engine:
        assert engine.perft("startpos", 2) == pc_perft(oracle("horde"), 2) == 128


def test_a_case_of_other_rules_than_the_engines_is_an_input_error_not_a_count_of_0():
    from chesskit.api.suite import check_case, suite_cases

    cases, _ = suite_cases([str(REPO / "positions" / "variants" / "racingkings.epd")], max_nodes=100)
    with chesskit.Engine(python=f"{ENGINES / 'eng_correct.py'}:Adapter") as engine:
        with pytest.raises(InputError, match="a racingkings position, and the engine counts chess"):
            check_case(engine, cases[0])
    cases, _ = suite_cases([], max_nodes=100, variant="racingkings")  # the variant's bundled suites
    with chesskit.Engine(python=ADAPTER, variant="racingkings") as engine:
        assert cases and all(check_case(engine, case).ok for case in cases)


def test_run_suite_refuses_an_engine_of_other_rules_than_the_variant_asked():
    # every line failed with "give variant atomic", which the caller had done: the Engine
    # is what to change, as compare says
    with chesskit.Engine(python=ADAPTER, variant="crazyhouse") as engine:
        with pytest.raises(InputError, match=r"the Engine counts crazyhouse .* open it with Engine\(\.\.\., variant='atomic'\)"):
            chesskit.run_suite(engine=engine, max_nodes=10_000, variant="atomic")
        assert chesskit.run_suite(engine=engine, max_nodes=100, variant="crazyhouse").ok  # its own rules run
        # standard chess asked of it is refused too (every bundled line was an error advising
        # "give variant chess"), and with no variant its own rules are the default
        with pytest.raises(InputError, match=r"the Engine counts crazyhouse .* variant='chess'\)"):
            chesskit.run_suite(engine=engine, max_nodes=100, variant="chess")
        own = chesskit.run_suite(engine=engine, max_nodes=100)
        assert own.ok and own.tally()["passed"] > 0 and not own.bad_lines
