"""``chesskit suite --engine/--script/--python [--junit FILE]``: the user's engine over EPD suites, in CI."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import chess
import pytest

import chesskit
from chesskit.errors import InputError
from chesskit.suites import junit
from helpers import BEFORE_EP, ENGINES, FAKE_UCI, KIWIPETE, REPO, one_line, pc_perft

QUIET = "4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1"
START4 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


pytestmark = pytest.mark.usefixtures("no_leftover_children")


def epd(tmp_path: Path, rows: list[tuple[str, str, int]], wrong: dict[str, int] | None = None) -> Path:
    """An EPD file of (id, fen, max depth) with python-chess's counts (``wrong`` overrides D1)."""
    lines = []
    for ident, fen, depth in rows:
        counts = {d: pc_perft(chess.Board(fen), d) for d in range(1, depth + 1)}  # python-chess's
        if wrong and ident in wrong:
            counts[1] = wrong[ident]
        ops = " ".join(f"D{d} {n};" for d, n in counts.items())
        lines.append(f'{" ".join(fen.split()[:4])} id "{ident}"; {ops}')
    path = tmp_path / "mine.epd"
    path.write_text("\n".join(lines) + "\n")
    return path


ROWS = [("quiet", QUIET, 2), ("before-ep", BEFORE_EP, 3), ("kiwipete", KIWIPETE, 2)]


def junit_cases(path: Path) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    return root.findall("./testsuite/testcase")


def test_buggy_script_over_a_suite(cli, tmp_path):
    suite = epd(tmp_path, ROWS)
    out = tmp_path / "junit.xml"
    result = cli(
        "suite", str(suite), "--script", str(ENGINES / "bug_no_ep.py"), "--junit", str(out), "--json"
    )
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    failing = {(r["id"], r["depth"]) for r in data["results"] if not r["ok"]}
    # no_ep: before-ep goes wrong from D2 (after f7f5), kiwipete at D2 (after a2a4, bxa3 e.p.)
    assert failing == {("before-ep", 2), ("before-ep", 3), ("kiwipete", 2)}
    reports = {r["id"]: r["compare"] for r in data["results"] if "compare" in r}
    assert set(reports) == {"before-ep", "kiwipete"}
    assert (reports["before-ep"]["path"], reports["before-ep"]["missing"]) == (["f7f5"], ["e5f6"])
    assert (reports["kiwipete"]["path"], reports["kiwipete"]["missing"]) == (["a2a4"], ["b4a3"])
    assert reports["kiwipete"]["notes"][0]["kinds"] == ["capture", "en passant"]

    cases = junit_cases(out)
    assert [c.get("name") for c in cases] == [
        "quiet D1",
        "quiet D2",
        "before-ep D1",
        "before-ep D2",
        "before-ep D3",
        "kiwipete D1",
        "kiwipete D2",
    ]
    failures = {c.get("name"): c.find("failure") for c in cases if c.find("failure") is not None}
    assert set(failures) == {"before-ep D2", "before-ep D3", "kiwipete D2"}
    first = failures["before-ep D2"]
    assert first.get("message").startswith("depth 2: expected 806, got 805 (-1); ")
    assert "misses e5f6 after f7f5" in first.get("message")
    assert "DISAGREE: the move lists differ after f7f5" in first.text
    assert "hint: en-passant capture not generated" in first.text
    later = failures["before-ep D3"]  # only the shallowest mismatch of a position is chased
    assert later.get("message").startswith(f"depth 3: expected {pc_perft(chess.Board(BEFORE_EP), 3)}, got ")
    assert "DISAGREE" not in later.text
    root = ET.parse(out).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("7", "3", "0")


@pytest.mark.parametrize("kind", ["--script", "--engine", "--python"])
def test_correct_engine_passes(cli, tmp_path, kind):
    suite = epd(tmp_path, ROWS)
    out = tmp_path / "junit.xml"
    target = {
        "--script": str(ENGINES / "eng_correct.py"),
        "--engine": FAKE_UCI,
        "--python": f"{ENGINES / 'eng_correct.py'}:Adapter",
    }[kind]
    result = cli("suite", str(suite), kind, target, "--junit", str(out))
    assert result.exit_code == 0, result.stderr
    assert "7 counts of 3 positions checked" in result.stdout
    cases = junit_cases(out)
    assert len(cases) == 7 and all(c.find("failure") is None for c in cases)


def test_wrong_expected_count_is_flagged(cli, tmp_path):
    suite = epd(tmp_path, [("quiet", QUIET, 1)], wrong={"quiet": 99})
    out = tmp_path / "junit.xml"
    result = cli("suite", str(suite), "--script", str(ENGINES / "eng_correct.py"), "--junit", str(out))
    assert result.exit_code == 1
    assert "chesskit agrees with the engine here: the suite's expected count is in doubt" in result.stdout
    [case] = junit_cases(out)
    assert case.find("failure").get("message").endswith("the suite's expected count is in doubt")


def test_state_bug_in_a_python_adapter(cli, tmp_path):
    fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    suite = epd(tmp_path, [("ep", fen, 3)])
    result = cli("suite", str(suite), "--python", f"{ENGINES / 'bug_ep_not_restored.py'}:Adapter", "--json")
    assert result.exit_code == 1
    [report] = [r["compare"] for r in json.loads(result.stdout)["results"] if "compare" in r]
    assert (report["kind"], report["field"], report["op"], report["ours"], report["theirs"]) == (
        "state",
        "ep",
        "pop",
        "f6",
        None,
    )


def test_limits_apply_to_the_engine(cli, tmp_path, monkeypatch):
    log = tmp_path / "uci.log"
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    suite = epd(tmp_path, ROWS)
    out = tmp_path / "junit.xml"
    result = cli(
        "suite",
        str(suite),
        "--engine",
        FAKE_UCI,
        "--max-depth",
        "2",
        "--max-nodes",
        "1000",
        "--junit",
        str(out),
    )
    assert result.exit_code == 0, result.stderr
    sent = log.read_text().splitlines()
    assert "go perft 3" not in sent
    assert sent.count("uci") == 1  # one engine process for the whole run
    names = [c.get("name") for c in junit_cases(out)]
    assert names == ["quiet D1", "quiet D2", "before-ep D1", "before-ep D2", "kiwipete D1"]


def test_engine_failure_exit_3_and_an_error_testcase(cli, tmp_path):
    suite = epd(tmp_path, [("quiet", QUIET, 2)])
    out = tmp_path / "junit.xml"
    result = cli("suite", str(suite), "--engine", str(ENGINES / "fail_exit.py"), "--junit", str(out))
    assert result.exit_code == 3
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "exited with code 1 after 'uci'" in lines[0]
    case, later = junit_cases(out)  # every testcase is written
    assert case.get("name") == "quiet D1"
    assert "exited with code 1" in case.find("error").get("message")
    assert later.get("name") == "quiet D2" and later.find("error") is None
    assert later.find("skipped").get("message") == "not run: the engine could not be started"


@pytest.mark.parametrize("kind", ["missing", "not executable"])
def test_a_script_that_cannot_be_started_ends_the_run_with_one_line(cli, tmp_path, kind):
    # a --script is started at its first question, not before the run: each position failed
    # on it in turn ('ERROR ... was not found' once per position, 341 for the bundled
    # suites), where --engine ends the run with one line, as docs/usage.md says
    suite = epd(tmp_path, [("quiet", QUIET, 2), ("before-ep", BEFORE_EP, 1), ("kiwipete", KIWIPETE, 1)])
    script = tmp_path / "perftree.sh"
    if kind == "not executable":
        script.write_text("#!/bin/sh\n")
        script.chmod(0o644)
    out = tmp_path / "junit.xml"
    result = cli("suite", str(suite), "--script", str(script), "--junit", str(out))
    why = "was not found" if kind == "missing" else "is not executable"
    line = one_line(result, 3, why)
    assert "failed on" not in line and "ERROR" not in result.stdout
    cases = junit_cases(out)  # the first count the engine's error, every other one not run
    assert [c.get("name") for c in cases] == ["quiet D1", "quiet D2", "before-ep D1", "kiwipete D1"]
    assert why in cases[0].find("error").get("message")
    assert [c.find("skipped").get("message") for c in cases[2:]] == ["not run: the engine could not be started"] * 2
    assert not cli("suite", str(suite), "--script", str(script), "--json").stdout


def test_an_engine_that_fails_as_it_starts_gets_no_chess960_hint(cli, tmp_path):
    # the first position being a Chess960 one, the error said '(at Chess960 position ...;
    # --skip-chess960 leaves those out)' although the engine exited at 'uci', before any position
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    suite = tmp_path / "c960.epd"
    suite.write_text(f'{" ".join(fen.split()[:4])} id "c960-one"; D1 {pc_perft(chess.Board(fen, chess960=True), 1)};\n')
    line = one_line(cli("suite", str(suite), "--engine", str(ENGINES / "fail_exit.py")), 3, "exited with code 1 after 'uci'")
    assert "Chess960" not in line and "--skip-chess960" not in line


def test_a_failure_at_the_standard_array_of_a_chess960_file_gets_no_chess960_hint(cli, tmp_path):
    # c960-518 is the standard start position, asked as standard chess and kept by
    # --skip-chess960: a crash there was told that --skip-chess960 would leave it out
    suite = tmp_path / "std960.epd"
    suite.write_text(f'{START4} id "c960-518"; D1 20; D2 400;\n')
    crashing = f"{ENGINES / 'fail_on.py'} --fault segv --on {START4.split()[0]} --depth 2"
    for skip in ((), ("--skip-chess960",)):
        line = one_line(cli("suite", str(suite), "--engine", crashing, *skip), 3, "c960-518 D2", "SIGSEGV")
        assert "Chess960" not in line and "--skip-chess960" not in line


def test_the_chess960_hint_comes_only_where_the_engine_failed_on_chess960_positions_only(cli, tmp_path):
    # QA 41d: an engine crashing on every position was told that --skip-chess960 leaves the
    # Chess960 ones out, because the first it failed on was one
    placement = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR"
    crash = f"{ENGINES / 'fail_on.py'} --fault segv --on {placement}"
    suite = tmp_path / "mixed.epd"
    # the same array, castling (Chess960) and not (standard chess): the engine crashes on both
    suite.write_text(f'{placement} w HFhf - id "c960-one"; D1 21;\n{placement} w - - id "no-rights"; D1 21;\n')
    line = one_line(cli("suite", str(suite), "--engine", crash), 3, "the engine failed on 2 of 2 positions")
    assert "--skip-chess960" not in line
    suite.write_text(f'{placement} w HFhf - id "c960-one"; D1 21;\n{QUIET[:-4]} id "quiet"; D1 14;\n')
    line = one_line(cli("suite", str(suite), "--engine", crash), 3, "the engine failed on 1 of 2 positions")
    assert line.endswith("; --skip-chess960 leaves the Chess960 positions out)"), line


def test_junit_without_an_engine(cli, tmp_path):
    suite = epd(tmp_path, [("quiet", QUIET, 2)], wrong={"quiet": 3})
    out = tmp_path / "junit.xml"
    result = cli("suite", str(suite), "--junit", str(out))
    assert result.exit_code == 1
    cases = junit_cases(out)
    assert [c.get("name") for c in cases] == ["quiet D1", "quiet D2"]
    failure = cases[0].find("failure")
    assert failure.get("message") == f"depth 1: expected 3, got {pc_perft(chess.Board(QUIET), 1)} ({pc_perft(chess.Board(QUIET), 1) - 3:+d})"
    assert "divide at depth 1:" in failure.text


def test_engine_flags_need_exactly_one(cli, tmp_path):
    suite = epd(tmp_path, [("quiet", QUIET, 1)])
    result = cli("suite", str(suite), "--engine-option", "Hash=1")
    assert result.exit_code == 2
    assert "give exactly one of --engine, --script, --python" in result.stderr


def test_junit_unwritable(cli, tmp_path):
    suite = epd(tmp_path, [("quiet", QUIET, 1)])
    result = cli("suite", str(suite), "--junit", str(tmp_path / "no" / "such" / "dir.xml"))
    assert result.exit_code == 2
    assert result.stderr.startswith("chesskit: cannot write --junit ")


def test_junit_xml_shape():
    cases = [
        junit.Case("a.epd", "a", "x D1", 0.5),
        junit.Case("a.epd", "a", "x D2", 0.25, failure='expected 1 < 2 & "3"', details="long\ntext"),
        junit.Case("b.epd", "b", "y D1", error="engine died"),
    ]
    root = ET.fromstring(junit.to_xml(cases))
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("time")) == (
        "3",
        "1",
        "1",
        "0.750000",
    )
    a, b = root.findall("testsuite")
    assert (a.get("name"), a.get("tests"), a.get("failures")) == ("a.epd", "2", "1")
    assert (b.get("name"), b.get("errors")) == ("b.epd", "1")
    failure = a.findall("testcase")[1].find("failure")
    assert failure.get("message") == 'expected 1 < 2 & "3"' and failure.text == "long\ntext"
    assert b.find("testcase/error").get("message") == "engine died"


# ------------------------------------------------------------------ --skip-chess960


def test_skip_chess960_lets_a_standard_only_engine_run_the_bundled_suites(cli, tmp_path):
    engine = f"{ENGINES / 'fake_uci.py'} --no-960"
    lines = (REPO / "positions" / "chess960.epd").read_text().splitlines()
    mixed = tmp_path / "mixed.epd"  # two standard positions around two Chess960 ones
    mixed.write_text("\n".join([f'{START4} id "a"; D1 20;', *[l for l in lines if "c960-" in l and "KQkq" not in l][:2], f'{START4} id "b"; D1 20;']))
    refused = cli("suite", str(mixed), "--max-nodes", "100", "--engine", engine, "--json")
    assert refused.exit_code == 3  # each Chess960 position is an engine error, the others pass
    one_line(refused, 3, "the engine failed on 2 of 4 positions", "cannot play Chess960", "--skip-chess960")
    data = json.loads(refused.stdout)
    assert data["positions"] == {"passed": 2, "mismatched": 0, "engine_errors": 2, "skipped": 0, "errors": 0, "not_run": 0}
    assert [r["id"] for r in data["results"]] == ["a", "b"]
    assert all(e["id"].startswith("c960-") and "cannot play Chess960" in e["reason"] for e in data["engine_errors"])
    result = cli("suite", "--max-nodes", "100", "--engine", engine, "--skip-chess960", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failed"] == 0 and data["passed"] > 0
    # only the Chess960 lines that are the standard game (c960-518) are played
    played = {r["id"] for r in data["results"] if r["id"].startswith("c960-")}
    assert "c960-518" in played and played == {i for i in played if standard_game(chess960_fens()[i])}


def chess960_fens() -> dict[str, str]:
    """The bundled chess960.epd's FEN of each id (python-chess reads the EPD)."""
    found = {}
    for line in (REPO / "positions" / "chess960.epd").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            board, ops = chess.Board.from_epd(line, chess960=True)
            found[ops["id"]] = board.fen()
    return found


def standard_game(fen: str) -> bool:
    """Whether a Chess960 position is the standard game: no castling rights, or the kings on
    e1/e8 and the castling rooks in the corners (python-chess's reading of its rights)."""
    board = chess.Board(fen, chess960=True)
    rights = chess.SquareSet(board.clean_castling_rights())
    kings = {chess.WHITE: chess.E1, chess.BLACK: chess.E8}
    return all(sq in chess.SquareSet(chess.BB_CORNERS) and board.king(sq < 8) == kings[sq < 8] for sq in rights)


def test_stats_cannot_be_combined_with_an_engine(cli, tmp_path):
    """--stats counts with chesskit itself: with an engine, one line and exit 2, nothing started
    (the CLI and ``chesskit.run_suite`` share the rule)."""
    path = epd(tmp_path, [("start", START4, 1)])
    message = "--stats counts with chesskit itself; it cannot be combined with an engine"
    one_line(cli("suite", str(path), "--stats", "--engine", "./no-such-engine"), 2, message)
    with pytest.raises(InputError, match="^" + message[2:]):  # the API names its keyword, stats
        chesskit.run_suite([str(path)], "./no-such-engine", stats=True)


def test_json_md_names_every_key_of_an_engine_suite_run(cli, tmp_path):
    """``suite --engine ... --json`` emits ``"dialect"``; docs/json.md's suite row did not
    list it (compare's row did)."""
    path = epd(tmp_path, [("start", chess.STARTING_FEN, 1)])
    result = cli("suite", str(path), "--engine", FAKE_UCI, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["dialect"]) == {"name", "moves", "total_only", "notation", "detected"}
    row = next(line for line in (REPO / "docs" / "json.md").read_text().splitlines() if line.startswith("| `suite` |"))
    assert [key for key in data if f'"{key}"' not in row] == []
    assert all(f'"{key}"' in row for key in data["dialect"])


def test_skip_chess960_keeps_a_chess960_line_played_as_standard_chess(cli):
    # `R3K2R w C -`: its only right names an empty file and is dropped, so every engine is
    # asked it as standard chess (Sjeng passes it), but --skip-chess960 left it out
    impossible, c960 = (str(REPO / "positions" / name) for name in ("impossible.epd", "chess960.epd"))
    result = cli("suite", impossible, c960, "--skip-chess960", "--max-nodes", "1000", "--json")
    assert result.exit_code == 0, result.stderr
    ids = {row["id"] for row in json.loads(result.stdout)["results"]}
    assert "castling-shredder-file-empty" in ids
    fens = chess960_fens()  # Chess960 positions with rights stay out, but for the standard game
    assert "c960-518" in ids and all(standard_game(fens[i]) for i in ids if i.startswith("c960-"))


def test_a_descent_ended_by_an_engine_crash_leaves_a_test_of_the_engine(cli, tmp_path):
    # one root move's count is one too many, and the engine exits when asked below a root
    # move: the descent ends in the crash, with no deeper node. The pytest test it left
    # asserted chesskit's own count, which always passes
    script = tmp_path / "crashy.py"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys, chess\n"
        "depth, fen = int(sys.argv[1]), sys.argv[2]\n"
        "if len(sys.argv) > 3 and sys.argv[3].strip():\n"
        "    sys.exit('crashy: out of memory below the root')\n"
        "b = chess.Board(fen)\n"
        "def perft(d):\n"
        "    if d == 0: return 1\n"
        "    n = 0\n"
        "    for m in list(b.legal_moves): b.push(m); n += perft(d - 1); b.pop()\n"
        "    return n\n"
        "counts = {}\n"
        "for i, m in enumerate(list(b.legal_moves)):\n"
        "    b.push(m); counts[m.uci()] = perft(depth - 1) + (i == 0); b.pop()\n"
        "print('\\n'.join(f'{m} {n}' for m, n in counts.items())); print(); print(sum(counts.values()))\n"
    )
    script.chmod(0o755)
    suite = epd(tmp_path, [("quiet", QUIET, 2)])
    result = cli("suite", str(suite), "--script", str(script), "--max-depth", "2", "--json")
    assert result.exit_code == 1, result.stdout + result.stderr  # the mismatch, the crash after it said
    [failed] = [r for r in json.loads(result.stdout)["results"] if r.get("regression")]
    expected = pc_perft(chess.Board(QUIET), failed["depth"])
    assert failed["regression"]["nodes"] == expected
    test = failed["regression"]["pytest"]
    assert f"with chesskit.Engine(script={json.dumps(str(script))}) as engine:" in test
    assert f"assert engine.perft({json.dumps(QUIET)}, {failed['depth']}) == {expected}" in test
    assert "chesskit.perft(" not in test


def test_a_count_that_depends_on_the_positions_asked_before_is_told_so(cli, tmp_path):
    """An engine's hash table kept between positions and keyed without castling rights
    gives B the counts of A (the same pieces with rights): the descent from B alone reads
    it as an unmake that does not restore the state, and its regression test passes on a
    fresh engine. chesskit asks the engine started afresh, which counts B right, and says so."""
    suite = tmp_path / "tt.epd"
    suite.write_text(
        'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - id "A"; D1 26; D3 13744;\n'
        'r3k2r/8/8/8/8/8/8/R3K2R w - - id "B"; D1 24; D3 11522;\n'
    )
    engine = str(ENGINES / "uci_hash_kept.py")
    text = cli("suite", str(suite), "--engine", engine)
    assert text.exit_code == 1
    assert "FAIL  B  D3: expected 11522, got 12810" in text.stdout
    assert "the engine started afresh counts it right (11522): its count depends on the positions asked before it" in text.stdout
    data = json.loads(cli("suite", str(suite), "--engine", engine, "--json").stdout)
    [failing] = [r for r in data["results"] if not r["ok"]]
    assert failing["compare"]["fresh_engine_agrees"] is True
    alone = tmp_path / "b.epd"  # B first: no position before it, the engine counts it right
    alone.write_text('r3k2r/8/8/8/8/8/8/R3K2R w - - id "B"; D3 11522;\n')
    assert cli("suite", str(alone), "--engine", engine).exit_code == 0


def test_a_chess960_mismatchs_descent_shows_the_fen_the_engine_read(cli, tmp_path):
    # QA 41a: the report's position and JSON engine_fen/chesskit_fen said `w KQ` (X-FEN, read
    # as standard chess) where the engine was sent `w FC`, as the suite line and compare show
    line = next(l for l in (REPO / "positions" / "chess960.epd").read_text().splitlines() if '"c960-castle-both-2"' in l)
    suite = tmp_path / "one960.epd"
    suite.write_text(line + "\n")
    result = cli("suite", str(suite), "--python", f"{ENGINES / 'bug_no_ep.py'}:Adapter", "--max-depth", "3", "--json")
    assert result.exit_code == 1, result.stderr
    (report,) = [r["compare"] for r in json.loads(result.stdout)["results"] if r.get("compare")]
    start = "b1rn1r1b/1p2k1pp/p1np4/5pN1/2p5/3P1P1P/PP3NP1/B1R1KR1B w FC - 2 12"
    assert report["engine_fen"] == report["chesskit_fen"] == start
    text = cli("suite", str(suite), "--python", f"{ENGINES / 'bug_no_ep.py'}:Adapter", "--max-depth", "3")
    assert f"position: {start}" in text.stdout and " w KQ " not in text.stdout
