"""``chesskit fuzz`` end to end: buggy engines the suites miss are found and shrunk; exit codes; --save.

Each buggy engine below is built on python-chess with one injected bug that only shows
in positions the bundled suites never reach: the first test of each checks that
``chesskit suite`` against it passes (up to 5000 nodes per count here; 20000 was also
checked by hand when they were written), the second that fuzz finds it, within a bound
on the positions tried, and shrinks it to a few pieces that still show the bug.
python-chess is the oracle that confirms the shrunk position's bug, not chesskit.
"""

from __future__ import annotations

import json
import os
import sys

import chess
import pytest

from helpers import ENGINES, FAKE_UCI, REPO, need_program

PY = sys.executable

pytestmark = pytest.mark.usefixtures("no_leftover_children")

# engine -> (fuzz options, the most positions fuzz may need, the most pieces the shrunk position may keep)
BUGS = {
    "three_queens": (["--seed", "1"], 200, 5),
    "edge_knight": (["--seed", "7"], 1500, 3),  # seeds 1-8 needed 253-2766 positions
    "c960_adjacent": (["--seed", "3", "--chess960"], 1500, 4),  # seeds 1-8: 53-1333
    "promo_double_check": (["--seed", "8"], 1000, 5),  # seeds 1-8: 2-309
}


def adapter(name: str) -> str:
    return f"{ENGINES / f'bug_{name}.py'}:Adapter"


def fuzz_json(cli, *args):
    result = cli("fuzz", *args, "--json")
    return result, (json.loads(result.stdout) if result.stdout.strip() else None)


def _engine_moves(name: str, fen: str, chess960: bool) -> set[str]:
    sys.path.insert(0, str(ENGINES))
    try:
        module = __import__(f"bug_{name}")
    finally:
        sys.path.remove(str(ENGINES))
    eng = module.Adapter()
    eng.set_fen(fen, chess960=chess960)
    return set(eng.legal_moves())


def _pieces(fen: str) -> int:
    return len(chess.Board(fen.split(" ", 1)[0] + " w - - 0 1").piece_map())


REACHABLE_SUITES = [str(REPO / "positions" / f"{name}.epd") for name in ("standard", "special", "chess960")]


@pytest.mark.parametrize(
    # 4 s of CPU each (issue 25): one in the default run, the others with the slow tests
    "name", [n if n == "edge_knight" else pytest.param(n, marks=pytest.mark.slow) for n in sorted(BUGS)]
)
def test_the_bundled_suites_pass_against_the_buggy_engine(cli, name):
    # the point of fuzzing: these bugs hide from every bundled suite
    if name == "three_queens":
        # ... except that positions/impossible.epd (boards that cannot arise in a game) has
        # one with 24 queens; the suites of positions that can arise never reach 3 queens
        result = cli("suite", *REACHABLE_SUITES, "--python", adapter(name), "--max-nodes", "5000")
        assert result.exit_code == 0, result.stdout[-2000:]
        impossible = cli("suite", str(REPO / "positions" / "impossible.epd"), "--python", adapter(name), "--max-nodes", "5000")
        failed = [line.split()[1] for line in impossible.stdout.splitlines() if line.startswith("FAIL")]
        assert failed == ["too-many-pieces-271-moves"]
        return
    result = cli("suite", "--python", adapter(name), "--max-nodes", "5000")
    assert result.exit_code == 0, result.stdout[-2000:]
    assert "all match" in result.stdout


@pytest.mark.parametrize("name", sorted(BUGS))
def test_fuzz_finds_and_shrinks_the_bug(cli, name):
    options, max_positions, max_pieces = BUGS[name]
    result, report = fuzz_json(cli, "--python", adapter(name), *options, "--positions", str(max_positions))
    assert result.exit_code == 1, result.stderr
    assert report["agree"] is False and report["kind"] == "moves"
    assert report["positions"] <= max_positions
    assert report["shrunk"] is True and _pieces(report["fen"]) <= max_pieces
    # shrinking removed pieces: the shrunk root has fewer than the failing node the first
    # descent found (rerooting alone would leave as many)
    assert report["shrink_tried"] > 0
    assert _pieces(report["position_fen"]) < _pieces(report["first_fen"]), report
    # the shrunk node still shows the bug, by python-chess's account
    chess960 = "--chess960" in options
    board = chess.Board(report["fen"], chess960=chess960)
    legal = {board.uci(m) for m in board.legal_moves}
    theirs = _engine_moves(name, report["fen"], chess960)
    assert sorted(legal - theirs) == sorted(report["missing"])
    assert sorted(theirs - legal) == sorted(report["extra"])
    assert legal != theirs
    # one line on stderr naming the finding and the seed
    assert result.stderr.count("\n") == 1 and "fuzz seed" in result.stderr


@pytest.mark.slow  # three fuzz runs of up to 800 positions, 9-11 s of CPU (issue 25)
def test_same_seed_same_report(cli):
    args = ["--python", adapter("edge_knight"), "--seed", "5", "--positions", "800"]
    first, a = fuzz_json(cli, *args)
    second, b = fuzz_json(cli, *args)
    assert first.exit_code == second.exit_code == 1
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    other, c = fuzz_json(cli, "--python", adapter("edge_knight"), "--seed", "6", "--positions", "800")
    assert c["start_fen"] != a["start_fen"]


def test_plain_report_has_seed_start_and_shrunk_position(cli):
    result = cli("fuzz", "--python", adapter("three_queens"), "--seed", "1", "--positions", "200")
    assert result.exit_code == 1
    out = result.stdout
    assert out.startswith("fuzz: seed 1 against ")
    for needle in ("FOUND after", "seed 1", "generated (", "first seen:", "shrunk (", "DISAGREE", "missing (", "hint"):
        assert needle in out, needle


def test_uci_engine_is_fuzzed_the_same_way(cli):
    engine = f"{PY} {ENGINES / 'fake_uci.py'} --bug three_queens"
    result, report = fuzz_json(cli, "--engine", engine, "--seed", "1", "--positions", "200", "--no-chess960")
    assert result.exit_code == 1, result.stderr
    assert report["shrunk"] and report["missing"] and _pieces(report["fen"]) <= 7


def test_a_finding_a_fresh_engine_does_not_repeat_is_called_the_engines_state(cli):
    # before: nothing said that the engine, asked the shown position first, counts it right
    # (Sjaak II's castling rights kept from earlier positions looked like a move generation bug)
    engine = f"{PY} {ENGINES / 'fake_uci.py'} --keep-castling"
    result = cli("fuzz", "--engine", engine, "--seed", "2", "--positions", "100", "--no-chess960", "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["fresh_engine_agrees"] is True
    board = chess.Board(data["position_fen"])  # counted alone, the fake counts right: python-chess agrees
    assert board.legal_moves.count() == sum(data["steps"][0]["ours"].values())
    plain = cli("fuzz", "--engine", engine, "--seed", "2", "--positions", "100", "--no-chess960")
    assert "the engine started afresh agrees here: its answer depends on the positions it was asked before" in plain.stdout
    # the one stderr line, which a CI log keeps, says it too (QA 42b D4)
    assert plain.stderr.strip().endswith("; the engine started afresh agrees there: its answer depends on the positions asked before")
    # a move generation bug is one a fresh engine repeats
    data = json.loads(cli("fuzz", "--engine", f"{PY} {ENGINES / 'fake_uci.py'} --bug no_ep", "--seed", "1", "--json").stdout)
    assert data["fresh_engine_agrees"] is False


def test_correct_engine_exits_0_saying_how_much_agreed(cli):
    result = cli("fuzz", "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--seed", "2", "--positions", "150")
    assert result.exit_code == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("ok: 150 positions and ") and "nodes agreed at depths 1-2" in last and "(seed 2)" in last
    result, report = fuzz_json(cli, "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--seed", "2", "--positions", "150", "--depth", "1")
    assert result.exit_code == 0 and report["agree"] is True and report["positions"] == 150
    assert report["nodes"] > 150 and report["start_fen"] is None and report["shrunk"] is False and report["seed"] == 2
    # no node and no position: every FEN key null (engine_fen and chesskit_fen were "")
    assert all(report[key] is None for key in ("fen", "engine_fen", "chesskit_fen", "position_fen", "first_fen"))
    assert report["castling_spelling"] is None  # compare's key, in fuzz's object too (docs/json.md)


def test_time_bound_stops_the_run(cli):
    # without --positions only the time ends it; it ends before a depth that would not fit
    # (test_fuzz_bounds checks the bound on a fake clock), so on a busy machine it may
    # compare no position in full
    result, report = fuzz_json(cli, "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--time", "1.5", "--seed", "9")
    assert result.exit_code == 0 and report["agree"] and report["seconds"] > 0


def test_time_bounds_the_engines_start_too(cli):
    """--time bounds the whole run: an engine whose start (its dialect found) takes it all
    compares nothing, and that is bad input, not "ok: 0 positions agreed" (exit 0)."""
    result, report = fuzz_json(cli, "--engine", f"{FAKE_UCI} --slow-uci 1.5", "--time", "1", "--seed", "9")
    assert result.exit_code == 2 and report is None
    assert "no position was compared within --time: the engine's start" in result.stderr


def test_stockfish_agrees(cli, stockfish_path):
    result, report = fuzz_json(cli, "--engine", stockfish_path, "--seed", "11", "--positions", "300")
    assert result.exit_code == 0, result.stderr
    assert report["positions"] == 300


@pytest.mark.parametrize("how", ["--script", "--python"])
def test_engine_failing_mid_run_exits_3_with_one_line(cli, how):
    spec = str(ENGINES / "fail_midway.py") + ("" if how == "--script" else ":Adapter")
    result = cli("fuzz", how, spec, "--seed", "5", "--positions", "300", "--fail-fast")
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1 and "fuzz seed 5, position" in result.stderr
    # it answered some positions before failing
    position = int(result.stderr.split("position ")[1].split(":")[0].split(")")[0].split(";")[0])
    assert position > 1
    assert result.stdout.splitlines()[-1].startswith(f"{position - 1} of {position} positions and ")


def test_engine_failing_on_a_position_fails_that_position_only(cli):
    """fail_midway's adapter raises on positions with three queens of one colour (seed 5:
    position 5): that position is an engine error, the engine is restarted, the run goes on
    to position 6, and the crashing position is shrunk to what still makes it fail."""
    spec = f"{ENGINES / 'fail_midway.py'}:Adapter"
    result, report = fuzz_json(cli, "--python", spec, "--seed", "5", "--positions", "6")
    assert result.exit_code == 3
    assert report["positions"] == 6 and report["fen"] is None  # no finding: it is right elsewhere
    [crash] = report["engine_errors"]
    assert crash["position"] == 5 and "queen list full" in crash["reason"] and crash["depth"] == 1
    assert crash["fen"].split()[0].lower().count("q") >= 3
    placement = crash["shrunk_fen"].split()[0]  # the kings and the three queens of one colour
    assert sorted(c for c in placement if c.isalpha()) in (sorted("KkQQQ"), sorted("Kkqqq"))
    assert crash["shrink_tried"] > 0 and crash["shrunk_depth"] == 1
    assert result.stderr.startswith("chesskit: engine ") and f"shrunk: {crash['shrunk_fen']}" in result.stderr
    plain = cli("fuzz", "--python", spec, "--seed", "5", "--positions", "6")
    assert plain.exit_code == 3
    # the adapter's error quotes the FEN (set_fen('...')): the line gives it once
    assert f"ERROR position 5 (placement/queens): {crash['reason']}" in plain.stdout
    assert f"set_fen({crash['fen']!r})" in crash["reason"] and plain.stdout.count(crash["fen"]) == 1
    tried = crash["shrink_tried"]
    # the ERROR line is shown as the position fails (a run a CI job's time limit ends has
    # shown it), its shrinking after the run, naming the position again
    lines = plain.stdout.splitlines()
    assert lines[1].startswith("ERROR position 5 (placement/queens): ")
    assert lines[2] == (
        f"ERROR position 5 shrunk ({tried} candidate{'s' * (tried != 1)} tried): {crash['shrunk_fen']}"
        " (the engine still fails at depth 1)"
    )
    assert lines[3].startswith("5 of 6 positions and ") and len(lines) == 4


def test_the_first_crash_is_shrunk_after_a_hang(cli, tmp_path, monkeypatch):
    # a hang on position 1 (a timeout) came first: no crash was shrunk at all
    monkeypatch.setenv("CHESSKIT_HANG_ONCE", str(tmp_path / "hung"))
    spec = f"{ENGINES / 'fail_midway.py'}:HangsOnce"
    result, report = fuzz_json(cli, "--python", spec, "--seed", "5", "--positions", "6", "--timeout", "1")
    assert result.exit_code == 3 and report["fen"] is None
    hang, crash = report["engine_errors"]
    assert hang["position"] == 1 and "within 1 s" in hang["reason"] and hang["shrunk_fen"] is None
    assert crash["position"] == 5 and "queen list full" in crash["reason"]
    assert crash["shrink_tried"] > 0 and crash["shrunk_depth"] == 1
    assert sorted(c for c in crash["shrunk_fen"].split()[0] if c.isalpha()) in (sorted("KkQQQ"), sorted("Kkqqq"))
    assert result.stderr.count("\n") == 1 and f"position 5 shrunk: {crash['shrunk_fen']}" in result.stderr


@pytest.mark.parametrize("kind", ["missing", "not executable", "no interpreter line"])
def test_a_script_that_cannot_be_started_stops_the_run_at_once(cli, tmp_path, kind):
    # --script is first run on the first position: it went on failing every generated
    # position until --time ran out (600 s in the README's example), then shrank the first
    script = tmp_path / "perftree.sh"
    if kind != "missing":
        script.write_text("print('no #! line')\n")
        script.chmod(0o755 if kind == "no interpreter line" else 0o644)
    result, report = fuzz_json(cli, "--script", str(script), "--seed", "1", "--positions", "500")
    assert result.exit_code == 3 and result.stderr.count("\n") == 1
    assert report["positions"] == 1 and report["fen"] is None
    [crash] = report["engine_errors"]
    assert crash["shrunk_fen"] is None and crash["shrink_tried"] == 0
    why = {"missing": "was not found", "not executable": "is not executable", "no interpreter line": "could not be started"}
    assert why[kind] in crash["reason"] and why[kind] in result.stderr


def test_save_appends_a_suite_line_that_catches_the_bug(cli, tmp_path):
    suite = tmp_path / "mine.epd"
    suite.write_text("# my suite\n4k3/8/8/8/8/8/8/4K3 w - - id \"kings\"; D1 5;")  # no final newline
    for _ in range(2):
        result, report = fuzz_json(cli, "--python", adapter("three_queens"), "--seed", "1", "--positions", "200", "--save", str(suite))
        assert result.exit_code == 1
    lines = suite.read_text().splitlines()
    assert lines[1].startswith("4k3/8/8/8/8/8/8/4K3")  # the old last line was completed, not joined
    saved = [line for line in lines if line.startswith(report["position_fen"].split()[0])]
    # the same finding again (the same seed run twice) is not appended again as fuzz-1-2
    assert len(saved) == 1 and 'id "fuzz-1";' in saved[0]
    assert report["saved"] == "fuzz-1"
    again = cli("fuzz", "--python", adapter("three_queens"), "--seed", "1", "--positions", "200", "--save", str(suite))
    assert again.exit_code == 1 and f"already in {suite} as 'fuzz-1': not saved again" in again.stdout
    # a file whose fuzz-1 is another position gets it under a fresh id
    other = tmp_path / "other.epd"
    other.write_text('4k3/8/8/8/8/8/8/4K3 w - - id "fuzz-1"; D1 5;\n')
    assert fuzz_json(cli, "--python", adapter("three_queens"), "--seed", "1", "--positions", "200", "--save", str(other))[1]["saved"] == "fuzz-1-2"
    assert all(" D3 " in line for line in saved)
    # the counts are right (python-chess's perft) and the suite catches the engine
    board = chess.Board(report["position_fen"])
    d2 = sum(1 for m in board.legal_moves for _ in _replies(board, m))
    assert f" D2 {d2};" in saved[0]
    assert cli("suite", str(suite)).exit_code == 0
    assert cli("suite", str(suite), "--python", adapter("three_queens")).exit_code == 1


def test_save_into_a_perft_suite_appends_a_block_of_its_format(cli, tmp_path):
    """``--save`` into a python-chess style ``.perft`` file appends an ``id``/``epd``/``perft``
    block (an EPD line there was an 'unknown line' error of that suite), with a fresh id
    the second time, and the suite then catches the engine."""
    suite = tmp_path / "mine.perft"
    suite.write_text("id kings\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5")  # no final newline
    for _ in range(2):
        result, report = fuzz_json(cli, "--python", adapter("three_queens"), "--seed", "1", "--positions", "200", "--save", str(suite))
        assert result.exit_code == 1
    lines = suite.read_text().splitlines()
    assert lines[2] == "perft 1 5"  # the old last line was completed, not joined
    # saved once: the second run found it in the file's fuzz-1 block
    assert lines.count("id fuzz-1") == 1 and lines.count("id fuzz-1-2") == 0 and report["saved"] == "fuzz-1"
    at = lines.index("id fuzz-1")
    assert lines[at + 1].startswith("epd " + " ".join(report["position_fen"].split()[:4]))
    board = chess.Board(report["position_fen"])
    d2 = sum(1 for m in board.legal_moves for _ in _replies(board, m))
    assert lines[at + 2 : at + 5] == [f"perft 1 {board.legal_moves.count()}", f"perft 2 {d2}", lines[at + 4]]
    assert lines[at + 4].startswith("perft 3 ")
    checked = cli("suite", str(suite), "--json")
    assert checked.exit_code == 0 and json.loads(checked.stdout)["errors"] == 0, checked.stdout
    assert cli("suite", str(suite), "--python", adapter("three_queens")).exit_code == 1


@pytest.mark.variant_walk  # the suite run reads each file in atomic: compiles atomic's walk on a cold cache
@pytest.mark.parametrize("name, text", [
    ("mine.perft", "variant atomic\nid a\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\n"),
    ("atomic.perft", "id a\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\n"),
    ("atomic.epd", 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "a"; D1 20;\n'),
])
def test_a_standard_finding_saved_where_a_variant_rules_says_it_is_standard_chess(cli, tmp_path, name, text):
    """A standard chess finding appended to a file that is read in atomic (its ``variant``
    line, its name) was read back in atomic's rules, expecting chess counts there; it now
    carries ``variant chess``, and each of its counts is python-chess's standard one."""
    suite = tmp_path / name
    suite.write_text(text)
    result, report = fuzz_json(cli, "--python", adapter("three_queens"), "--seed", "1", "--positions", "200", "--save", str(suite))
    assert result.exit_code == 1
    saved = [line for line in suite.read_text().splitlines() if "fuzz-1" in line or line.startswith("epd ")][-1]
    assert "variant chess;" in saved
    checked = cli("suite", str(suite), "--json")
    assert checked.exit_code == 0, checked.stdout
    data = json.loads(checked.stdout)
    ours = [r for r in data["results"] if r["id"] == "fuzz-1"]
    board = chess.Board(report["position_fen"])
    assert {r["depth"]: r["nodes"] for r in ours if r["depth"] == 1} == {1: board.legal_moves.count()}
    assert len(ours) == 3 and all(r["ok"] and "variant" not in r for r in ours), ours


def _replies(board: chess.Board, move: chess.Move):
    board.push(move)
    moves = list(board.legal_moves)
    board.pop()
    return moves


@pytest.mark.parametrize("kind", ["dir", "fifo", "nofolder"])
def test_save_refuses_bad_paths_before_running(cli, tmp_path, kind):
    if kind == "dir":
        path = tmp_path
    elif kind == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    else:
        path = tmp_path / "missing" / "x.epd"
    result = cli("fuzz", "--python", adapter("three_queens"), "--seed", "1", "--save", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("chesskit: cannot write --save") and result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--depth", "0"], "--depth"),
        (["--depth", "x"], "--depth"),
        (["--seed", "-3"], "--seed"),
        (["--time", "abc"], "--time"),
        (["--time", "-1"], "--time"),
        (["--positions", "0"], "--positions"),
        (["--positions", "many"], "--positions"),
        (["--timeout", "0"], "--timeout"),
    ],
)
def test_bad_input_exits_2_with_one_line(cli, args, needle):
    result = cli("fuzz", "--python", adapter("three_queens"), *args)
    assert result.exit_code == 2
    assert needle in result.stderr and result.stderr.count("\n") == 1


def test_no_engine_is_bad_input(cli):
    result = cli("fuzz", "--positions", "5")
    assert result.exit_code == 2 and "give exactly one of --engine, --script, --python" in result.stderr


def test_terminal_output_draws_the_report(cli, monkeypatch):
    from chesskit.cli import output

    monkeypatch.setattr(output, "stdout_is_terminal", lambda: True)
    monkeypatch.setattr(output, "stderr_is_terminal", lambda: True)
    result = cli("fuzz", "--python", adapter("three_queens"), "--seed", "1", "--positions", "200")
    assert result.exit_code == 1
    assert "FOUND after" in result.stdout and "missing (chesskit only)" in result.stdout


def test_engine_without_chess960_is_told_about_no_chess960(cli):
    """The first Chess960 position it cannot play fails (exit 3, with the hint); the rest of
    the run tries standard positions only, instead of failing every Chess960 one with
    castling rights (Sjaak II: 608 of 5,581 positions)."""
    engine = f"{PY} {ENGINES / 'fake_uci.py'} --no-960"
    result = cli("fuzz", "--engine", engine, "--seed", "1", "--positions", "60")
    assert result.exit_code == 3
    assert "--no-chess960 leaves Chess960 positions out" in result.stderr and result.stderr.count("\n") == 1
    assert "only standard positions were tried after position" in result.stderr
    result, report = fuzz_json(cli, "--engine", engine, "--seed", "1", "--positions", "60")
    assert result.exit_code == 3
    errors = report["engine_errors"]
    assert len(errors) == 1 and errors[0]["chess960"] is True and "cannot play Chess960" in errors[0]["reason"]
    assert report["chess960_dropped_at"] == errors[0]["position"] and report["positions"] == 60
    assert errors[0]["shrunk_fen"] is None  # not a crash: nothing to shrink
    result = cli("fuzz", "--engine", engine, "--seed", "1", "--positions", "60", "--no-chess960")
    assert result.exit_code == 0, result.stderr


def test_total_only_engine_is_fuzzed_through_its_totals(cli):
    """An engine that answers perft with a total only (another dialect) is compared by totals,
    and compare's descent narrows the finding down by asking it about each move."""
    engine = f"{PY} {ENGINES / 'fake_perft.py'} --loop console --command perft --total-only --bug three_queens"
    result, report = fuzz_json(cli, "--engine", engine, "--seed", "1", "--positions", "200", "--no-chess960")
    assert result.exit_code == 1, result.stderr
    assert report["dialect"]["total_only"] is True
    assert report["shrunk"] is True and report["fen"].split()[0].count("Q") + report["fen"].split()[0].count("q") >= 3


@pytest.mark.parametrize("binary", ["/usr/games/ethereal-chess", "/usr/games/fairy-stockfish"])
def test_real_engines_of_other_dialects_agree(cli, binary):
    need_program(binary)
    # --timeout 5: detection waits the whole --timeout (30 s by default) on each probe
    # Ethereal leaves unanswered; both engines answer in milliseconds
    result, report = fuzz_json(cli, "--engine", binary, "--seed", "12", "--positions", "150", "--timeout", "5")
    assert result.exit_code == 0, result.stderr
    assert report["positions"] == 150 and report["dialect"] is not None


def test_a_depth_that_does_not_fit_in_time_is_named_when_nothing_was_compared(cli):
    """The first position's deepest depth was not expected to fit in --time: the line said
    only that the engine's start "took 0.0 s of it"; it names the depth and both ways out."""
    result, report = fuzz_json(cli, "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--depth", "6", "--time", "2", "--seed", "9")
    assert result.exit_code == 2 and report is None
    assert "the first position's depth 6 was not expected to finish in what was left" in result.stderr
    assert result.stderr.rstrip().endswith("give a longer --time or a smaller --depth")


def test_a_crash_that_depends_on_the_positions_asked_before_is_not_shrunk_into_a_false_reproducer(cli, monkeypatch):
    # QA 40b #1: the shrink asked candidate after candidate of one engine process and took
    # the one asked when its counter ran out as "the engine still fails": a fresh engine
    # answered it. fail_counted fails on its 8th position since it started, whatever it is
    monkeypatch.setenv("FAIL_AFTER", "8")
    spec = f"{ENGINES / 'fail_counted.py'}:Adapter"
    result, report = fuzz_json(cli, "--python", spec, "--seed", "5", "--positions", "12")
    assert result.exit_code == 3 and report["fen"] is None
    crash = report["engine_errors"][0]
    assert "history full" in crash["reason"]
    assert crash["fresh_engine_fails"] is False and crash["shrunk_fen"] is None and crash["shrink_tried"] == 0
    assert crash["shrink_error"].startswith("a fresh engine answers this position")
    assert "shrunk:" not in result.stderr
    plain = cli("fuzz", "--python", spec, "--seed", "5", "--positions", "12")
    assert "\nERROR position 4 shrinking stopped: a fresh engine answers this position" in plain.stdout


def test_a_crash_a_fresh_engine_repeats_is_shrunk_and_said_to_fail_afresh(cli):
    spec = f"{ENGINES / 'fail_midway.py'}:Adapter"
    result, report = fuzz_json(cli, "--python", spec, "--seed", "5", "--positions", "6")
    [crash] = report["engine_errors"]
    assert crash["fresh_engine_fails"] is True and crash["shrunk_fen"] != crash["fen"]
