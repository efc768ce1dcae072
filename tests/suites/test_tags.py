"""Tags on suite positions (issue 20 item 6): the ``tags`` operation, ``suite --tags``,
failures grouped by tag, and the bundled positions' tags checked against chesskit's own
leaf counters (the tags were derived with python-chess by tools/tag_positions.py)."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys

import pytest

from chesskit.suites import tags as tags_module
from chesskit.suites.formats import LineError, SuiteRecord, read_suite
from chesskit.suites.runner import load_suites
from helpers import REPO, one_line

RANK_PIN = "8/8/8/KPp4r/8/8/8/7k w - c6"  # bxc6 e.p. would expose Ka5: D1 4, D2 56
EP = "4k3/8/8/3pP3/8/8/8/4K3 w - d6"  # exd6 e.p. legal: D1 7
CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -"  # D1 26

SUITE = f"""\
{RANK_PIN} id "pin"; tags "ep ep-pin"; D1 4; D2 56;
{EP} id "plain"; tags "ep"; D1 7;
{CASTLE} id "castle"; tags "castling"; D1 26;
"""


@pytest.fixture
def suite(tmp_path):
    path = tmp_path / "tagged.epd"
    path.write_text(SUITE)
    return path


def _wrong(tmp_path, text: str):
    path = tmp_path / "wrong.epd"
    path.write_text(text)
    return path


def test_tags_operation_is_read(tmp_path):
    path = tmp_path / "t.epd"
    path.write_text(
        f'{EP} id "a"; tags "ep, ep-pin ep"; D1 7;\n{EP} id "b"; D1 7;\n{EP} id "c"; tags "960-castling"; D1 7;\n'
    )
    a, b, c = read_suite(path)
    assert (a.tags, b.tags, c.tags) == (("ep", "ep-pin"), (), ("960-castling",))


def test_tags_in_a_perft_file(tmp_path):
    path = tmp_path / "t.perft"
    path.write_text(f'id a\nepd {EP} tags "ep";\nperft 1 7\n')
    (record,) = read_suite(path)
    assert record.tags == ("ep",)


@pytest.mark.parametrize("operand", ['"ep;x"', '"-ep"', '"ep/pin"', '"' + "x" * 65 + '"'])
def test_a_bad_tag_is_that_lines_error(tmp_path, operand):
    path = tmp_path / "t.epd"
    path.write_text(f'{EP} id "a"; tags {operand}; D1 7;\n{EP} id "b"; D1 7;\n')
    bad, good = read_suite(path)
    assert isinstance(bad, LineError) and bad.lineno == 1 and "not a tag" in bad.message or "quoted" in bad.message
    assert isinstance(good, SuiteRecord)


def test_tags_given_twice_is_an_error(tmp_path):
    path = tmp_path / "t.epd"
    path.write_text(f'{EP} id "a"; tags "ep"; tags "pin"; D1 7;\n')
    (bad,) = read_suite(path)
    assert isinstance(bad, LineError) and "appears twice" in bad.message


def test_doctests():
    assert doctest.testmod(tags_module).failed == 0


def test_summary_line_cases(suite):
    pin, plain, castle = load_suites([suite])
    assert tags_module.summary_line([pin]) == "failures by tag: the failing position is tagged ep, ep-pin"
    assert tags_module.summary_line([pin, pin, plain]) == (
        "failures by tag: all 2 failing positions are tagged ep; some also: ep-pin 1"
    )
    untagged = SuiteRecord("u", "", {1: 1}, {}, suite, 9)
    assert tags_module.summary_line([castle, pin, untagged]) == (
        "failures by tag: 3 failing positions: castling 1, ep 1, ep-pin 1; untagged 1"
    )
    assert tags_module.summary_line([untagged]) is None
    assert tags_module.by_tag([pin, plain, pin]) == {"ep": 2, "ep-pin": 1}


def test_select_by_tags(cli, suite):
    data = json.loads(cli("suite", str(suite), "--tags", "ep-pin,castling", "--json").stdout)
    assert sorted({r["id"] for r in data["results"]}) == ["castle", "pin"]
    assert {r["id"]: r["tags"] for r in data["results"]} == {"pin": ["ep", "ep-pin"], "castle": ["castling"]}
    data = json.loads(cli("suite", str(suite), "--tags", "ep", "--json").stdout)
    assert sorted({r["id"] for r in data["results"]}) == ["pin", "plain"]


def test_unknown_tag_is_refused(cli, suite):
    line = one_line(cli("suite", str(suite), "--tags", "ep,epp"), 2, "'epp'", "castling, ep, ep-pin")
    assert "'ep'" not in line.split("tagged")[1].split("(")[0]
    one_line(cli("suite", str(suite), "--tags", ","), 2, "--tags")
    one_line(cli("suite", str(suite), "--tags", "e p/x"), 2, "not a tag")


def test_failures_grouped_by_tag(cli, tmp_path):
    # the two ep positions' counts are off by one, the castling one is right
    path = _wrong(tmp_path, SUITE.replace("D2 56", "D2 57").replace("D1 7", "D1 8"))
    result = cli("suite", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[-1] == "failures by tag: all 2 failing positions are tagged ep; some also: ep-pin 1"
    assert lines[-2].endswith("2 passed, 2 FAILED")
    data = json.loads(cli("suite", str(path), "--json").stdout)
    assert data["failures_by_tag"] == {"ep": 2, "ep-pin": 1}
    # one position failing at two depths counts once
    path = _wrong(tmp_path, SUITE.replace("D1 4; D2 56", "D1 5; D2 57"))
    data = json.loads(cli("suite", str(path), "--json").stdout)
    assert data["failed"] == 2 and data["failures_by_tag"] == {"ep": 1, "ep-pin": 1}


def test_failures_grouped_on_a_terminal(cli, tmp_path, terminal):
    path = _wrong(tmp_path, SUITE.replace("D1 26", "D1 25"))
    result = cli("suite", str(path))
    assert result.exit_code == 1
    assert "failures by tag: the failing position is tagged castling" in result.stdout


def test_untagged_suite_prints_no_tag_line(cli, tmp_path):
    path = _wrong(tmp_path, f'{EP} id "plain"; D1 8;\n')
    result = cli("suite", str(path))
    assert result.exit_code == 1 and "by tag" not in result.stdout
    assert json.loads(cli("suite", str(path), "--json").stdout)["failures_by_tag"] == {}


def test_bundled_tags_that_must_be_there():
    """Positions whose theme is their name: each carries its tag (a check of the tagger)."""
    tags = {r.id: set(r.tags) for r in load_suites([REPO / "positions"])}
    assert {"ep", "castling"} <= tags["kiwipete"]
    assert "ep-pin" in tags["pos3"] and "ep-pin" in tags["ep-rank-pin-1"] and "ep-pin" in tags["ep-rank-pin-1-mirrored"]
    assert "960-castling" in tags["c960-3"] and "castling" not in tags["c960-3"]
    assert "underpromotion" in tags["promo-underpromo-check-1"]
    assert {"check", "double-check"} <= tags["double-check-two-knights"]
    assert "cannot-arise" in tags["double-check-two-knights"] and "cannot-arise" not in tags["kiwipete"]
    assert tags["startpos"] == set()
    names = {tag for found in tags.values() for tag in found}
    assert names == set(REQUIRED) | {"check", "pin", "ep-check"}


REQUIRED = (
    "ep", "ep-pin", "castling", "960-castling", "promotion", "underpromotion", "double-check",
    "discovered-check", "stalemate", "checkmate", "cannot-arise",
)


@pytest.mark.slow
def test_bundled_files_are_tagged_as_the_tool_derives():
    found = subprocess.run(
        [sys.executable, str(REPO / "tools" / "tag_positions.py"), "--check", str(REPO / "positions")],
        capture_output=True, text=True,
    )
    assert found.returncode == 0, found.stdout + found.stderr


@pytest.mark.slow
def test_bundled_tags_agree_with_chesskits_counters():
    """A second derivation, by chesskit: its leaf counters of the first two plies (and its
    notes for positions that cannot arise) give the same tags python-chess gave."""
    from chesskit.board.board import Board

    counter_tags = {
        "en_passant": "ep",
        "promotions": "promotion",
        "discovery_checks": "discovered-check",
        "double_checks": "double-check",
        "checkmates": "checkmate",
    }
    for record in load_suites([REPO / "positions"]):
        board = Board(record.fen, chess960=record.chess960 or None)
        rows = [board.stats(1), board.stats(2)]
        derived = {tag for name, tag in counter_tags.items() if any(row[name] for row in rows)}
        if any(row["castles"] for row in rows):
            derived.add("960-castling" if record.chess960 else "castling")
        if record.notes:
            derived.add("cannot-arise")
        if board.is_check() and not board.legal_moves():  # mated at the root: no move to count
            derived.add("checkmate")
        if board.is_check() and "double-check" in record.tags and not any(r["double_checks"] for r in rows):
            derived.add("double-check")  # in double check at the root (the counters count moves only)
        kept = set(record.tags) & (set(counter_tags.values()) | {"castling", "960-castling", "cannot-arise"})
        assert kept == derived, (record.id, sorted(kept), sorted(derived))


def test_engine_errors_are_grouped_with_the_failures(cli, suite):
    """A position the engine crashes on is a failing position of its tags too."""
    from helpers import ENGINES

    engine = f"{sys.executable} {ENGINES / 'fail_on.py'} --fault segv --on 4k3/8/8/3pP3/8/8/8/4K3"
    result = cli("suite", str(suite), "--engine", engine, "--json")
    assert result.exit_code == 3, result.stdout + result.stderr
    data = json.loads(result.stdout)
    assert data["failures_by_tag"] == {"ep": 1}
    text = cli("suite", str(suite), "--engine", engine)
    assert "failures by tag: the failing position is tagged ep" in text.stdout.splitlines()
