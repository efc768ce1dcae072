"""The suite's logic callable from Python (suites/session.py), its one "only the counters
differ" test, and ``chesskit suite``'s one note line (issue 25 items 5, 10).

Counts are the Perft Results page's (start position 20, 400, 8902; 2 checks... none at depth 1).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from chesskit.errors import InputError, MismatchError
from chesskit.suites.session import execute, prepare

from helpers import REPO

START4 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def test_a_suite_runs_from_python(tmp_path):
    suite = tmp_path / "s.epd"
    suite.write_text(f'{START4} id "start"; D1 20; D2 401; D3 8902;\nnot a line\n')
    planned = prepare([suite], max_nodes=10**6)
    assert [t.depth for t in planned.tasks] == [1, 2, 3] and len(planned.errors) == 1
    seen = []
    outcome = execute(planned, threads=1, on_result=seen.append)
    assert [r.nodes for r in seen] == [20, 400, 8902]  # published
    assert [(r.task.depth, r.nodes) for r in outcome.failed] == [(2, 400)]
    assert outcome.not_run == 1 and outcome.failed[0].divide is not None
    verdict = outcome.verdict()
    assert isinstance(verdict, MismatchError)
    assert str(verdict) == "1 of 3 counts did not match; 1 line could not be run (first: " + str(outcome.errors[0]) + ")"


def test_a_clean_run_has_no_verdict_and_bad_lines_alone_are_input_errors(tmp_path):
    good = tmp_path / "g.epd"
    good.write_text(f'{START4} id "start"; D1 20; D2 400;\n')
    assert execute(prepare([good])).verdict() is None
    good.write_text(good.read_text() + "junk\n")
    assert isinstance(execute(prepare([good])).verdict(), InputError)


def test_only_the_counters_differ_is_one_test(tmp_path):
    suite = tmp_path / "c.epd"
    suite.write_text(f'{START4} id "start"; D1 20; S1 "checks=1";\n')  # no check at depth 1
    outcome = execute(prepare([suite]), stats=True)
    (result,) = outcome.failed
    assert result.counters_only and result.stats == {"checks": (1, 0)}
    suite.write_text(f'{START4} id "start"; D1 21; S1 "checks=0";\n')
    (result,) = execute(prepare([suite]), stats=True).failed
    assert not result.counters_only


def test_the_bundled_suites_print_one_note_line(cli):
    result = cli("suite", "--max-nodes", "2e4")
    assert result.exit_code == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if "note:" in line]
    impossible = json.loads(cli("suite", "--max-nodes", "2e4", "--json").stdout)
    noted = {(r["file"], r["line"]) for r in impossible["results"] if r["notes"]}
    assert len(noted) > 1
    assert notes == [
        f"chesskit: note: {len(noted)} positions cannot arise in a game; they are counted anyway (--verbose lists why)"
    ]
    verbose = cli("suite", "--max-nodes", "2e4", "--verbose")
    listed = [line for line in verbose.stderr.splitlines() if "note:" in line]
    assert len(listed) >= len(noted) and all("this position cannot arise in a game" in line for line in listed)
    assert verbose.stdout.splitlines()[-1].split(":")[-1] == result.stdout.splitlines()[-1].split(":")[-1]


SUITE_MODULES = [*sorted((REPO / "chesskit" / "suites").glob("*.py")), *sorted((REPO / "chesskit" / "cli").glob("suite*.py"))]


@pytest.mark.parametrize("path", SUITE_MODULES, ids=lambda p: p.name)
def test_suite_functions_are_under_80_lines(path: Path):
    long = [
        f"{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 80
    ]
    assert long == []


def test_a_position_timeout_in_compares_descent_is_still_a_timeout():
    # --json gave "timed_out": false when --position-timeout stopped the engine during the
    # descent: the located error was a plain EngineError (QA session 38b)
    from chesskit.compare.descent import located
    from chesskit.geometry import START_FEN
    from chesskit.suites.guard import EngineFailure, PositionTimeout

    err = located(PositionTimeout("engine 'x' did not finish the position within --position-timeout 3 s"), (["e2e4"], 1), START_FEN, False)
    assert isinstance(err, PositionTimeout) and err.path == ["e2e4"] and err.depth == 1
    assert "it failed at depth 1 of compare's descent, after e2e4" in str(err)
    failure = EngineFailure.of(err, 2)
    assert failure.timed_out and failure.in_descent and failure.to_json()["timed_out"] is True


def test_the_bundled_suites_against_an_engine_leave_out_the_positions_that_cannot_arise(cli):
    # QA 40b #8: Stockfish, counting one of impossible.epd's its own way, failed the default
    # run; named, the file runs as before
    from chesskit.suites.session import NOT_BY_DEFAULT

    engine = f"{REPO / 'tests' / 'engines' / 'eng_correct.py'}:Adapter"
    result = cli("suite", "--python", engine, "--max-depth", "1", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    left_out = {entry["id"] for entry in data["skipped"] if entry["reason"] == NOT_BY_DEFAULT}
    impossible = REPO / "positions" / "impossible.epd"
    assert {entry["file"] for entry in data["skipped"] if entry["reason"] == NOT_BY_DEFAULT} == {str(impossible)}
    assert "tricky-ep-unrelated-check" in left_out and len(left_out) > 20
    named = json.loads(cli("suite", str(impossible), "--python", engine, "--max-depth", "1", "--json").stdout)
    assert {r["id"] for r in named["results"] if r["ok"]} >= left_out
