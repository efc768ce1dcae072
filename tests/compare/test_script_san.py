"""A perftree script may write its moves in SAN or long algebraic, as a one-shot
``--engine-cmd`` may (issue 26 item 7): the same script gives the same divide both ways."""

from __future__ import annotations

import sys

import pytest

from chesskit.compare.engines import OneShotEngine, ScriptEngine
from chesskit.errors import EngineError
from helpers import ENGINES, KIWIPETE, pc_divide

PROMO = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"  # promotions, captures that promote

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def san_script(folder, notation: str) -> str:
    """tests/engines/san_script.py as a perftree script writing ``notation`` (san, long)."""
    path = folder / f"{notation}.sh"
    flag = "--long" if notation == "long" else ""
    path.write_text(f'#!/bin/sh\nexec {sys.executable} {ENGINES / "san_script.py"} {flag} "$@"\n')
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("notation", ["san", "long"])
@pytest.mark.parametrize("fen, moves", [(KIWIPETE, ["e1c1"]), (PROMO, [])], ids=["castled", "promotions"])
def test_a_script_in_san_reads_as_its_engine_cmd_does(tmp_path, notation, fen, moves):
    script = san_script(tmp_path, notation)
    expected = pc_divide(fen, 2, moves)
    assert ScriptEngine(script).divide(fen, 2, moves) == expected


def test_the_same_script_as_script_and_as_engine_cmd(tmp_path):
    script = san_script(tmp_path, "san")
    with OneShotEngine(f'{script} {{depth}} "{{fen}}" "{{moves}}"') as oneshot:
        divide = ScriptEngine(script).divide(KIWIPETE, 1, [])
        assert divide == oneshot.divide(KIWIPETE, 1, []) == pc_divide(KIWIPETE, 1)
        assert {"e1g1", "e1c1"} <= divide.keys()  # O-O and O-O-O


def test_a_script_line_that_is_no_move_is_still_refused(tmp_path):
    script = tmp_path / "odd.sh"
    script.write_text("#!/bin/sh\necho 'Xq9 20'\necho\necho 20\n")
    script.chmod(0o755)
    with pytest.raises(EngineError, match=r"printed a line chesskit cannot parse .*'Xq9 20'"):
        ScriptEngine(str(script)).divide(KIWIPETE, 1, [])


@pytest.mark.variant_walk  # compiles crazyhouse's walk on a cold cache
def test_san_with_drops_in_crazyhouse(tmp_path):
    # a SAN king move where the node has drops (``Q@d1``, written the same in both
    # notations): reading the SAN once failed on the drops ("'Q@' is not a square name", exit 2)
    script = tmp_path / "zh.sh"
    script.write_text("#!/bin/sh\nprintf 'Kd1 1\\nKd2 1\\nQ@a4 1\\n\\n3\\n'\n")
    script.chmod(0o755)
    engine = ScriptEngine(str(script))
    engine.variant = "crazyhouse"
    assert engine.divide("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", 1, []) == {"e1d1": 1, "e1d2": 1, "Q@a4": 1}
