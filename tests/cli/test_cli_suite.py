"""``chesskit suite``: passing and failing runs, limits, JSON, terminal rendering."""

from __future__ import annotations

import json

import pytest

from chesskit.cli import output
from helpers import one_line

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"
GOOD_LINE = f'{START} id "s"; D1 20; D2 400;'

GOOD = f"""\
# counts from the Perft Results page
{START} id "start"; D1 20; D2 400; D3 8902;
{KIWIPETE} id "kiwi"; D1 48; D2 2039;
{POS3} id "pos3"; D1 14; D2 191; D3 2812;
"""
# kiwi's D2 is one too many, D3 of pos3 one too few
WRONG = GOOD.replace("D2 2039", "D2 2040").replace("D3 2812", "D3 2811")


@pytest.fixture
def good(tmp_path):
    path = tmp_path / "good.epd"
    path.write_text(GOOD)
    return path


@pytest.fixture
def wrong(tmp_path):
    path = tmp_path / "wrong.epd"
    path.write_text(WRONG)
    return path


def test_passing_suite_plain(cli, good):
    result = cli("suite", str(good))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["ok", "start", "D1-D3", "8902", "nodes", lines[0].split()[-1]]
    assert lines[1].split()[:4] == ["ok", "kiwi", "D1-D2", "2039"]
    assert lines[-1].startswith("8 counts of 3 positions checked in ")
    assert lines[-1].endswith("8 passed, all match")
    assert result.stderr == ""


def test_limits(cli, good):
    data = json.loads(cli("suite", str(good), "--max-depth", "1", "--json").stdout)
    assert [(r["id"], r["depth"]) for r in data["results"]] == [("start", 1), ("kiwi", 1), ("pos3", 1)]
    data = json.loads(cli("suite", str(good), "--max-nodes", "1e3", "--json").stdout)
    assert [(r["id"], r["depth"]) for r in data["results"]] == [
        ("start", 1), ("start", 2), ("kiwi", 1), ("pos3", 1), ("pos3", 2),
    ]


def test_limits_that_leave_nothing_to_run_still_report_every_position_skipped(cli, good):
    # exit 2 and stdout empty: a CI job asking for --json got no object, though json.md counts
    # such positions as skipped. Still exit 2: a run that checked no count is no pass
    result = cli("suite", str(good), "--max-nodes", "0", "--json")
    assert result.exit_code == 2
    assert result.stderr == "chesskit: nothing to run: no expected count of 3 positions is within --max-nodes 0\n"
    data = json.loads(result.stdout)
    assert data["positions"] == {"passed": 0, "mismatched": 0, "engine_errors": 0, "skipped": 3, "errors": 0, "not_run": 0}
    assert [(s["id"], s["reason"]) for s in data["skipped"]] == [
        ("start", "every count over --max-nodes 0 (the least: 20)"),
        ("kiwi", "every count over --max-nodes 0 (the least: 48)"),
        ("pos3", "every count over --max-nodes 0 (the least: 14)"),
    ]
    assert data["results"] == [] and data["error_lines"] == []
    text = cli("suite", str(good), "--max-depth", "0")
    assert text.exit_code == 2 and "nothing to run" in text.stderr and "within --max-nodes 1000000 and --max-depth 0" in text.stderr
    assert "3 skipped" in text.stdout and "no count checked" in text.stdout and "all match" not in text.stdout
    # each position and why, as --json gives them (the text named none)
    assert text.stdout.splitlines()[:3] == [
        "skip  start  every depth over --max-depth 0",
        "skip  kiwi   every depth over --max-depth 0",
        "skip  pos3   every depth over --max-depth 0",
    ]


def test_positions_over_the_limits_are_listed_in_file_order_on_a_pipe(cli, good):
    result = cli("suite", str(good), "--max-nodes", "30")
    assert result.exit_code == 0
    assert [line.split()[:2] for line in result.stdout.splitlines()[:3]] == [["ok", "start"], ["skip", "kiwi"], ["ok", "pos3"]]
    assert "skip  kiwi   every count over --max-nodes 30 (the least: 48)" in result.stdout


def test_a_terminal_run_with_nothing_to_run_shows_each_position_skipped(cli, good, terminal):
    # an empty results table, and the summary in green for a run that exits 2
    result = cli("suite", str(good), "--max-nodes", "0")
    assert result.exit_code == 2
    assert "skipped" in result.stdout and "suite results" not in result.stdout
    assert all(ident in result.stdout for ident in ("start", "kiwi", "pos3"))


CHESS960_ONLY = """\
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - id "c960-0"; D1 20; D2 400;
rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - id "c960-959"; D1 20; D2 400;
"""


def test_skip_chess960_that_leaves_nothing_to_run_still_reports_every_position_skipped(cli, tmp_path):
    # it stopped with the stderr line alone (exit 2): no --json object, no summary, where
    # --max-nodes 0 reports each position skipped and why
    path = tmp_path / "c960.epd"
    path.write_text(CHESS960_ONLY)
    why = "nothing to run: every position is a Chess960 one and --skip-chess960 leaves them out"
    result = cli("suite", str(path), "--skip-chess960", "--json")
    assert result.exit_code == 2
    assert result.stderr == f"chesskit: {why}\n"
    data = json.loads(result.stdout)
    assert data["positions"] == {"passed": 0, "mismatched": 0, "engine_errors": 0, "skipped": 2, "errors": 0, "not_run": 0}
    assert [(s["id"], s["status"], s["reason"]) for s in data["skipped"]] == [
        (ident, "skipped", "a Chess960 position: --skip-chess960 leaves it out") for ident in ("c960-0", "c960-959")
    ]
    assert data["results"] == [] and data["error_lines"] == []
    text = cli("suite", str(path), "--skip-chess960")
    assert text.exit_code == 2 and text.stderr == f"chesskit: {why}\n"
    assert "2 skipped" in text.stdout and "no count checked" in text.stdout


def test_nothing_to_run_starts_no_engine(cli, good, tmp_path):
    # the limits are known before the engine is asked: nothing to run is exit 2, not the engine's 3
    result = cli("suite", str(good), "--max-nodes", "0", "--engine", str(tmp_path / "no-such-engine"))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("chesskit: nothing to run")


def test_json_schema(cli, good):
    result = cli("suite", str(good), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) == {"passed", "failed", "results", "errors", "error_lines", "positions", "engine_errors", "skipped", "failures_by_tag"}
    assert (data["passed"], data["failed"], data["errors"], data["error_lines"]) == (8, 0, 0, [])
    assert (data["engine_errors"], data["skipped"]) == ([], [])
    assert data["positions"] == {"passed": 3, "mismatched": 0, "engine_errors": 0, "skipped": 0, "errors": 0, "not_run": 0}
    first = data["results"][0]
    assert first == {
        "id": "start", "fen": START + " 0 1", "depth": 1, "expected": 20, "nodes": 20, "ok": True, "notes": [],
        "file": str(good), "line": 2, "tags": [], "regression": None,
    }
    assert all(set(r) == set(first) for r in data["results"])


def test_positions_count_the_lines_refused_and_the_positions_not_counted(cli, tmp_path):
    """``positions.errors`` was 0 while 27 lines were refused (impossible.epd --strict): only
    a position refused while counting was counted, and the last line added up to 0 of 27."""
    from helpers import REPO

    impossible = str(REPO / "positions" / "impossible.epd")
    data = json.loads(cli("suite", impossible, "--strict", "--max-nodes", "1e3", "--json").stdout)
    assert data["errors"] == len(data["error_lines"]) == 27
    assert data["positions"] == {"passed": 0, "mismatched": 0, "engine_errors": 0, "skipped": 0, "errors": 27, "not_run": 0}
    plain = cli("suite", impossible, "--strict", "--max-nodes", "1e3", "--threads", "1")
    assert plain.stdout.splitlines()[-2] == "positions: 0 passed, 0 mismatched, 0 engine errors, 0 skipped, 27 errors"
    # refused when read (line 2) and when counted (line 3, a clock its moves would pass): each counted once
    mixed = tmp_path / "mixed.epd"
    mixed.write_text(f"{GOOD_LINE}\nnot a position\n{START} 4611686018427387904 1 ;D1 20\n")
    data = json.loads(cli("suite", str(mixed), "--json").stdout)
    assert [e["line"] for e in data["error_lines"]] == [2, 3]
    assert data["positions"] == {"passed": 1, "mismatched": 0, "engine_errors": 0, "skipped": 0, "errors": 2, "not_run": 0}
    lines = cli("suite", str(mixed), "--threads", "1").stdout.splitlines()
    assert lines[-2] == "positions: 1 passed, 0 mismatched, 0 engine errors, 0 skipped, 2 errors"


def test_mismatch_exits_1_and_prints_the_divide(cli, wrong):
    result = cli("suite", str(wrong))
    assert result.exit_code == 1
    out = result.stdout
    assert "FAIL  kiwi   D2: expected 2040, got 2039" in out
    assert "FAIL  pos3   D3: expected 2811, got 2812" in out
    assert "mismatch: kiwi (" in out and "wrong.epd:3)" in out
    assert f"fen: {KIWIPETE} 0 1" in out
    assert "depth 2: expected 2040, got 2039 (-1)" in out
    assert "divide at depth 2:" in out
    assert "e1g1: 43\n" in out  # kiwipete divide at depth 2 (Stockfish)
    assert "\nNodes searched: 2039\n" in out
    assert "\nNodes searched: 2812\n" in out
    assert out.splitlines()[-1].endswith("6 passed, 2 FAILED")
    assert result.stderr == "chesskit: 2 of 8 counts did not match\n"


def test_a_mismatch_at_a_position_that_cannot_arise_says_so(cli, tmp_path):
    suite = tmp_path / "odd.epd"
    suite.write_text('4k3/8/8/3P4/8/8/8/4K3 w - c6 id "ep-no-pushed-pawn"; D1 7;\n' f'{START} id "start"; D1 20;\n')
    result = cli("suite", str(suite))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    at = lines.index("depth 1: expected 7, got 6 (-1)")
    assert lines[at + 1].startswith("this position cannot arise in a game (")
    assert lines[at + 1].endswith("): an engine may count it its own way")
    assert result.stdout.count("cannot arise in a game (") == 1  # not at the start position


def test_mismatch_json(cli, wrong):
    result = cli("suite", str(wrong), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["passed"], data["failed"]) == (6, 2)
    bad = [r for r in data["results"] if not r["ok"]]
    assert [(r["id"], r["depth"], r["expected"], r["nodes"]) for r in bad] == [
        ("kiwi", 2, 2040, 2039), ("pos3", 3, 2811, 2812),
    ]
    assert sum(bad[0]["divide"].values()) == 2039 and len(bad[0]["divide"]) == 48


def test_mismatch_as_a_process(run_module, wrong):
    proc = run_module("suite", str(wrong), "--max-depth", "2")
    assert proc.returncode == 1
    assert "mismatch: kiwi" in proc.stdout and "Nodes searched: 2039" in proc.stdout
    assert proc.stderr == "chesskit: 1 of 6 counts did not match\n"


def test_terminal_rendering(cli, wrong, monkeypatch):
    monkeypatch.setattr(output, "stdout_is_terminal", lambda: True)
    monkeypatch.setattr(output, "stderr_is_terminal", lambda: True)
    monkeypatch.chdir(wrong.parent)  # paths are shown relative to the working directory
    result = cli("suite", wrong.name)
    assert result.exit_code == 1
    out = result.stdout
    assert "suite results" in out and "wrong.epd" in out and "2 FAILED" in out
    assert "mismatches" in out and "2040" in out and "2039" in out
    assert "e1g1: 43" in out
    assert "6 passed, 2 FAILED" in out


def test_several_paths_and_folders(cli, good, tmp_path):
    other = tmp_path / "more"
    other.mkdir()
    (other / "extra.epd").write_text(f'{START} id "extra"; D1 20;\n')
    data = json.loads(cli("suite", str(good), str(other), "--json").stdout)
    assert data["passed"] == 9 and data["failed"] == 0


def test_bundled_suite_default_run(cli):
    result = cli("suite", "--max-nodes", "2e4", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failed"] == 0 and data["passed"] > 50
    ids = {r["id"] for r in data["results"]}
    assert "kiwipete" in ids


# ------------------------------------------------------------------ the summary line


def test_summary_counts_in_the_singular(cli, tmp_path):
    (tmp_path / "s.epd").write_text(GOOD_LINE + "\n")
    result = cli("suite", str(tmp_path / "s.epd"), "--max-depth", "1")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1].startswith("1 count of 1 position checked in ")


_LOADED_AFTER_SUITE = """
import sys
from chesskit.cli.main import main
try:
    main(["suite", *sys.argv[1:]])
except SystemExit as end:
    print("exit", end.code)
print(" ".join(m for m in ("chesskit.compare.engines", "chesskit.compare.regression", "xml.etree.ElementTree") if m in sys.modules))
"""


@pytest.mark.parametrize("extra", [["--threads", "1"], []])
def test_a_run_of_chesskits_own_counts_loads_no_engine_code(good, extra):
    """What every ``suite`` process starts with is kept to what its run needs: compare's
    engines (and the regression lines, which name an engine) and the XML of --junit load
    only where a run has an engine, a mismatch or --junit (about 0.03 s of each start)."""
    import subprocess
    import sys

    from helpers import subprocess_env

    done = subprocess.run(
        [sys.executable, "-c", _LOADED_AFTER_SUITE, str(good), "--json", *extra],
        capture_output=True, text=True, env=subprocess_env(), timeout=300,
    )
    lines = done.stdout.splitlines()
    assert json.loads(lines[0])["results"] and lines[1] == "exit 0", done.stderr
    assert lines[2:] == [""], f"loaded: {lines[2:]}"


def test_a_mismatch_still_gives_its_regression_and_junit_its_xml(cli, wrong, tmp_path):
    """The deferred imports above still load where they are needed."""
    junit = tmp_path / "out.xml"
    result = cli("suite", str(wrong), "--json", "--junit", str(junit))
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [r["regression"]["depth"] for r in data["results"] if r.get("regression")] == [2, 3]
    assert "<failure" in junit.read_text()


def test_nothing_to_run_is_said_beside_a_bad_line(cli, tmp_path):
    # only "1 line could not be run (...)": the limits' "nothing to run" was lost
    path = tmp_path / "mine.epd"
    path.write_text('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "s"; D1 20;\nbad line here;\n')
    line = one_line(cli("suite", str(path), "--max-depth", "0"), 2, "nothing to run: no expected count of 1 position is within")
    assert "1 line could not be run" in line
