"""``--html FILE`` of compare, suite and fuzz, and ``show --svg FILE``, read back with real
parsers (``html.parser`` for the page, ``xml.etree`` for each board); every board's pieces,
every count and the regression line checked against python-chess."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import chess
import pytest

from conftest import BARE_KINGS, EP_BELOW
from dom import parse_html, svg_boards
from helpers import ENGINES, KIWIPETE, one_line, pc_divide, pc_perft

NS = {"svg": "http://www.w3.org/2000/svg"}
AFTER_F5 = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"


def board_facts(svg: ET.Element) -> tuple[int, dict[str, str], dict[str, str]]:
    """(squares, {square: piece}, {move: arrow class}) of one board."""
    squares = [r for r in svg.iterfind("svg:rect", NS) if "square" in r.get("class")]
    pieces = {t.get("data-square"): t.get("data-piece") for t in svg.iterfind(".//svg:text", NS) if t.get("data-piece")}
    arrows = {g.get("data-move"): g.get("class") for g in svg.iterfind("svg:g", NS) if g.get("data-move")}
    return len(squares), pieces, arrows


def piece_map(fen: str) -> dict[str, str]:
    return {chess.square_name(sq): p.symbol() for sq, p in chess.Board(fen).piece_map().items()}


def test_compare_report_draws_each_node_with_its_arrows(reports):
    assert reports.compare_result.exit_code == 1, reports.compare_result.stderr
    text = reports.compare.read_text()
    doc = parse_html(text)
    finding = doc.one("section", "finding")
    panels = finding.all("div", "node")
    assert [p.attrs["data-step"] for p in panels] == ["0", "1"]
    assert "hidden" in panels[0].attrs and "hidden" not in panels[1].attrs  # the failing node is shown
    start, failing = svg_boards(text)
    assert board_facts(start) == (64, piece_map(EP_BELOW), {"f7f5": "arrow path"})
    assert board_facts(failing) == (64, piece_map(AFTER_F5), {"e5f6": "arrow missing"})
    assert AFTER_F5 in panels[1].one("figcaption").text_content()
    buttons = finding.all("button")
    assert [(b.attrs["data-step"], b.attrs["aria-pressed"]) for b in buttons] == [("0", "false"), ("1", "true")]
    assert "en passant" in finding.one("ul", "notes").text_content()


def _rows(table) -> dict[str, tuple[str, set[str]]]:
    rows = {}
    for row in table.one("tbody").all("tr"):
        cells = [cell.text_content() for cell in row.all("td")]
        rows[row.attrs["data-move"]] = ((cells[1], cells[2]), row.classes())
    return rows


def test_compare_report_divides_side_by_side_with_the_differing_rows_marked(reports):
    doc = parse_html(reports.compare.read_text())
    start, failing = (panel.one("table", "divide") for panel in doc.all("div", "node"))
    ours = pc_divide(EP_BELOW, 2)
    rows = _rows(start)
    assert set(rows) == set(ours)
    for move, ((chesskit, engine), classes) in rows.items():
        assert int(chesskit.replace(",", "")) == ours[move]
        # the engine misses e5f6 below f7f5 only
        assert int(engine.replace(",", "")) == ours[move] - (move == "f7f5")
        assert ("row-differ" in classes) == (move == "f7f5")
    rows = _rows(failing)
    assert rows["e5f6"] == (("1", "\u2013"), {"row-missing"})
    assert all(not classes for move, (_, classes) in rows.items() if move != "e5f6")
    assert list(rows)[0] == "e5f6"  # the differing rows first


def test_regression_line_has_python_chess_s_count(reports):
    doc = parse_html(reports.compare.read_text())
    line = doc.one("pre", "regression").text_content()
    match = re.fullmatch(r'(\S+ [wb] \S+ \S+) id "[^"]+"; (?:hmvc (\d+); fmvn (\d+); )?D(\d) (\d+);', line)
    assert match, line
    fen = f"{match[1]} {match[2] or 0} {match[3] or 1}"
    assert fen == AFTER_F5
    assert int(match[5]) == pc_perft(chess.Board(fen), int(match[4]))
    # and the pytest test that asks the engine for that count
    assert f'engine.perft("{fen}", {match[4]}) == {match[5]}' in doc.one("pre", "pytest").text_content()


@pytest.mark.parametrize("name", ["compare", "suite"])
def test_page_is_self_contained(reports, name):
    text = getattr(reports, name).read_text()
    doc = parse_html(text)
    assert not doc.all("link") and not doc.all("img") and not doc.all("iframe")
    assert all("src" not in script.attrs for script in doc.all("script"))
    assert all(a.attrs.get("href", "#").startswith("#") for a in doc.all("a"))
    assert not re.findall(r"https?://(?!www\.w3\.org/2000/svg\")", text)  # only the SVG namespace's name
    assert not re.search(r"url\(|@import|@font-face", text)
    style = doc.one("style").text_content()
    assert "prefers-color-scheme: dark" in style and "@media print" in style


def test_suite_report_lists_every_position_and_links_each_finding(reports):
    assert reports.suite_result.exit_code == 1, reports.suite_result.stderr
    text = reports.suite.read_text()
    doc = parse_html(text)
    rows = {row.attrs["data-id"]: row for row in doc.one("table", "positions").one("tbody").all("tr")}
    assert set(rows) == {"ep-below", "bare-kings", "broken"}
    assert {name: row.classes() for name, row in rows.items()} == {
        "ep-below": {"mismatch"}, "bare-kings": {"pass"}, "broken": {"not-run"},
    }  # fmt: skip
    link = rows["ep-below"].one("a")
    finding = doc.one("section", "finding")
    assert link.attrs["href"] == f"#{finding.attrs['id']}"
    assert [cell.text_content() for cell in rows["ep-below"].all("td")][3] == "ep ep-capture"  # the file's tags
    assert "D1-D2" in rows["ep-below"].text_content() and re.search(r"\d+\.\d{3} s", rows["ep-below"].text_content())
    boards = svg_boards(text)
    assert board_facts(boards[-1]) == (64, piece_map(AFTER_F5), {"e5f6": "arrow missing"})
    line = finding.one("pre", "regression").text_content()  # suite's own, for the failing node
    assert line.startswith(" ".join(AFTER_F5.split()[:4]) + ' id "ep-below-after-f7f5";') and line.endswith(f"; D1 {pc_perft(chess.Board(AFTER_F5), 1)};")


def test_compare_with_an_agreeing_engine_draws_the_position(cli, tmp_path):
    out = tmp_path / "agree.html"
    result = cli("compare", BARE_KINGS, "2", "--script", str(ENGINES / "eng_correct.py"), "--html", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    assert "agrees with chesskit at depth 2" in parse_html(text).one("p", "summary").text_content()
    (board,) = svg_boards(text)
    assert board_facts(board) == (64, piece_map(BARE_KINGS), {})


def test_fuzz_report_shows_the_shrunk_position(cli, tmp_path):
    out = tmp_path / "fuzz.html"
    adapter = f"{ENGINES / 'bug_promo_double_check.py'}:Adapter"
    result = cli("fuzz", "--python", adapter, "--seed", "2", "--positions", "100", "--json", "--html", str(out))
    assert result.exit_code == 1, result.stderr
    import json

    data = json.loads(result.stdout)
    text = out.read_text()
    doc = parse_html(text)
    facts = doc.one("dl", "facts").text_content()
    assert data["position_fen"] in facts and data["start_fen"] in facts and "seed2" in facts.replace(" ", "")
    boards = svg_boards(text)
    shown = boards[[p.attrs.get("hidden") is None for p in doc.all("div", "node")].index(True)]
    _, pieces, arrows = board_facts(shown)
    assert pieces == piece_map(data["fen"])
    assert set(" ".join(arrows).split()) == set(data["missing"] + data["extra"])
    assert 'id "fuzz-2' in doc.one("pre", "regression").text_content()
    assert doc.one("pre", "regression").text_content() == data["regression"]["line"]  # as --json gives it


def test_show_svg_writes_the_board_alone(cli, tmp_path):
    out = tmp_path / "board.svg"
    plain = cli("show", KIWIPETE, "--moves", "a2a4")
    result = cli("show", KIWIPETE, "--moves", "a2a4", "--svg", str(out))
    assert result.exit_code == 0 and result.stdout == plain.stdout  # what it prints is unchanged
    svg = ET.parse(out).getroot()
    board = chess.Board(KIWIPETE)
    board.push_uci("a2a4")
    squares, pieces, arrows = board_facts(svg)
    assert (squares, pieces, arrows) == (64, piece_map(board.fen()), {})
    tinted = {r.get("data-square") for r in svg.iterfind("svg:rect", NS) if "last" in r.get("class")}
    assert tinted == {"a2", "a4"}


@pytest.mark.parametrize(
    "args, words",
    [
        (["compare", EP_BELOW, "2", "--script", "{engine}", "--html", "{tmp}"], ["--html", "directory"]),
        (["compare", EP_BELOW, "2", "--script", "{engine}", "--html", "{engine}"], ["--html", "input file"]),
        (["suite", "{suite}", "--script", "{engine}", "--junit", "{tmp}/x", "--html", "{tmp}/x"], ["--html", "--junit"]),
        (["suite", "{suite}", "--html", "{suite}"], ["--html", "input file"]),
        (["fuzz", "--script", "{engine}", "--save", "{tmp}/s.epd", "--html", "{tmp}/s.epd"], ["--html", "--save"]),
        (["show", "startpos", "--svg", "{tmp}/missing/b.svg"], ["--svg", "no such folder"]),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_any_work(cli, tmp_path, args, words):
    suite = tmp_path / "one.epd"
    suite.write_text(f'{BARE_KINGS} ;D1 3 ;id "k"\n')
    engine = tmp_path / "engine.py"  # would leave a mark if it ran
    engine.write_text(f"#!/bin/sh\ntouch {tmp_path}/ran\nexec python3 {ENGINES / 'eng_correct.py'} \"$@\"\n")
    engine.chmod(0o755)
    before = engine.read_text()
    filled = [a.format(engine=engine, tmp=tmp_path, suite=suite) for a in args]
    one_line(cli(*filled), 2, *words)
    assert not (tmp_path / "ran").exists() and engine.read_text() == before
    assert not list(tmp_path.glob("*.html")) and not (tmp_path / "x").exists()


def test_suite_table_shows_engine_errors_and_skipped_positions_in_file_order():
    """A suite whose engine crashed on one position (its first count was made) and skipped
    another: suite's JSON lists them in ``engine_errors`` and ``skipped``; each is one row,
    in file order, with its status and reason."""
    from chesskit.report.html import suite_html

    def result(ident, line, depth, ok=True):
        return {"id": ident, "fen": BARE_KINGS, "depth": depth, "expected": 3, "nodes": 3, "ok": ok,
                "file": "s.epd", "line": line, "seconds": 0.25, "tags": ["kings"]}  # fmt: skip

    crash = {"id": "crash", "file": "s.epd", "line": 2, "status": "engine-error", "seconds": 1.5,
             "reason": "D2: engine killed by signal SIGSEGV", "engine_error": {"reason": "killed"}}  # fmt: skip
    data = {
        "passed": 2, "failed": 0, "errors": 1,
        "results": [result("first", 1, 1), result("crash", 2, 1)],
        "engine_errors": [crash],
        "skipped": [{"id": "big", "file": "s.epd", "line": 3, "status": "skipped", "reason": "every count is over --max-nodes"}],
        "error_lines": [{"file": "s.epd", "line": 4, "id": None, "error": "invalid FEN"}],
    }  # fmt: skip
    doc = parse_html(suite_html(data))
    rows = doc.one("table", "positions").one("tbody").all("tr")
    assert [(r.attrs["data-id"], r.attrs["class"]) for r in rows] == [
        ("first", "pass"), ("crash", "engine-error"), ("big", "skipped"), ("", "not-run"),
    ]  # fmt: skip
    assert "SIGSEGV" in rows[1].text_content() and "1.500 s" in rows[1].text_content()
    assert "over --max-nodes" in rows[2].text_content()
    assert "1 engine error" in doc.one("p", "summary").text_content()
    assert not doc.all("section", "finding")


def test_fuzz_that_finds_nothing_says_so(cli, tmp_path):
    out = tmp_path / "fuzz.html"
    result = cli("fuzz", "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--seed", "2", "--positions", "10", "--html", str(out))
    assert result.exit_code == 0, result.stderr
    doc = parse_html(out.read_text())
    assert doc.one("p", "summary").text_content().startswith("ok: nothing differs (seed 2, 10 positions")
    assert not doc.all("section", "finding")


def test_fuzz_where_the_engine_failed_says_so_and_shows_where(cli, tmp_path):
    """fail_midway's adapter raises at seed 5's position 5 (three queens) and is right
    elsewhere: the page said "ok: nothing differs" of a run that exits 3."""
    out = tmp_path / "fuzz.html"
    spec = f"{ENGINES / 'fail_midway.py'}:Adapter"
    result = cli("fuzz", "--python", spec, "--seed", "5", "--positions", "6", "--json", "--html", str(out))
    assert result.exit_code == 3
    [crash] = json.loads(result.stdout)["engine_errors"]
    doc = parse_html(out.read_text())
    summary = doc.one("p", "summary")
    assert "pass" not in summary.classes() and summary.text_content().startswith("the engine failed on 1 position")
    [section] = doc.all("section", "finding")
    text = section.text_content()
    assert "queen list full" in text and crash["fen"] in text and crash["shrunk_fen"] in text


@pytest.mark.parametrize(
    "given, line, test",
    [
        ({"regression": {"line": 'X id "given"; D1 2;', "pytest": "def test_x(): ..."}}, 'X id "given"; D1 2;', "def test_x(): ..."),
        ({"regression": None}, None, None),  # the command says there is none: none is made up
        ({}, f'{" ".join(AFTER_F5.split()[:4])} id "regression"; hmvc 0; fmvn 3; D1 2;', None),  # built here
    ],
)
def test_regression_given_by_the_command_is_shown_as_given(given, line, test):
    from chesskit.report.html import compare_html

    data = {
        "agree": False, "kind": "moves", "path": [], "fen": AFTER_F5, "position_fen": AFTER_F5, "depth": 1,
        "missing": ["e5f6"], "extra": [], "notes": [],
        "steps": [{"path": [], "depth": 1, "ours": {"e5f6": 1, "e5e6": 1}, "theirs": {"e5e6": 1}}], **given,
    }  # fmt: skip
    doc = parse_html(compare_html(data))
    assert [pre.text_content() for pre in doc.all("pre", "regression")] == ([line] if line else [])
    assert [pre.text_content() for pre in doc.all("pre", "pytest")] == ([test] if test else [])


@pytest.mark.parametrize("engine", [None, "bug_ep_rank_pin.py"])
def test_a_mismatch_in_a_perft_suite_shows_its_block_as_the_text_does(cli, tmp_path, engine):
    """A mismatch read from a ``.perft`` file gives the ``.perft`` block to paste there, on
    the page as in the text (the page gave the EPD line, which the file cannot read), with
    chesskit's own counts (the suite's count made wrong) and with an engine's descent."""
    suite = tmp_path / "mine.perft"
    count = "perft 1 15" if engine is None else "perft 2 191"  # position 3's D1 is 14, its D2 191
    suite.write_text(f"id pos3\nepd 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -\n{count}\n")
    out = tmp_path / "suite.html"
    args = ["suite", str(suite), "--html", str(out)] + ([] if engine is None else ["--script", str(ENGINES / engine)])
    result = cli(*args)
    assert result.exit_code == 1, result.stderr
    lines = result.stdout.splitlines()
    at = lines.index("regression block (paste into your .perft suite):")
    block = [line[2:] for line in lines[at + 1 : lines.index("pytest:", at)]]
    assert block[0].startswith("id pos3") and block[1].startswith("epd ") and block[2].startswith("perft 1 ")
    finding = parse_html(out.read_text()).one("section", "finding")
    assert finding.one("pre", "regression").text_content().splitlines() == block
    assert "paste into your .perft suite" in finding.text_content()


def test_suite_report_is_written_when_the_engine_fails(cli, tmp_path):
    suite = tmp_path / "one.epd"
    suite.write_text(f'{BARE_KINGS} ;D1 3 ;id "kings"\n')
    out = tmp_path / "suite.html"
    result = cli("suite", str(suite), "--script", str(ENGINES / "fail_garbage.py"), "--html", str(out))
    assert result.exit_code == 3, result.stderr
    rows = parse_html(out.read_text()).one("table", "positions").one("tbody").all("tr")
    failed = [row for row in rows if "engine-error" in row.classes()]
    assert [row.attrs["data-id"] for row in failed] == ["kings"]
    assert "e2e4 - 20" in failed[0].text_content()  # the engine's unreadable line, as the error names it


def test_suite_summary_counts_positions_by_outcome(reports):
    summary = parse_html(reports.suite.read_text()).one("header").one("p", "summary").text_content()
    # ep-below mismatched (D1 passed, D2 failed), bare-kings passed; the broken line is an error
    assert summary.startswith("positions: 1 passed, 1 mismatched, 1 error; counts: 2 passed, 1 failed, 1 line not run")


def test_a_clean_suite_report_names_the_engine_it_checked(cli, tmp_path):
    # only a finding's details named the engine: a page of passes did not say whose they were
    suite = tmp_path / "one.epd"
    suite.write_text(f'{BARE_KINGS} ;D1 {pc_perft(chess.Board(BARE_KINGS), 1)} ;id "kings"\n')
    out = tmp_path / "suite.html"
    engine = str(ENGINES / "eng_correct.py")
    result = cli("suite", str(suite), "--script", engine, "--html", str(out))
    assert result.exit_code == 0, result.stderr
    header = parse_html(out.read_text()).one("header")
    assert header.one("p", "muted").text_content() == f"counted by {engine}"
    cli("suite", str(suite), "--html", str(out))  # chesskit's own counts: no engine to name
    assert not parse_html(out.read_text()).one("header").all("p", "muted")


def test_compare_report_of_an_engine_that_crashes_at_a_node(cli, tmp_path):
    """The engine (wrong about en passant, so the descent goes down) segfaults when asked
    about the node after f7f5: exit 3, and the page shows that node and the path to it."""
    out = tmp_path / "crash.html"
    placement = EP_BELOW.split()[0]
    engine = f"{ENGINES / 'fail_on.py'} --fault segv --on {placement} --moves f7f5 --bug no_ep"
    result = cli("compare", EP_BELOW, "2", "--engine", engine, "--html", str(out))
    one_line(result, 3, "SIGSEGV")
    text = out.read_text()
    doc = parse_html(text)
    assert "SIGSEGV" in doc.one("section", "finding").one("p", "summary").text_content()
    assert [b.attrs["data-step"] for b in doc.all("button")] == ["0", "1"]
    start, failed = svg_boards(text)
    assert board_facts(failed) == (64, piece_map(AFTER_F5), {})
    assert board_facts(start)[1] == piece_map(EP_BELOW)
    assert not doc.all("pre", "regression")


HOUSE_BUG = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"  # tests/engines/vbug_drop_last_rank.py's trigger


@pytest.mark.variant_walk
def test_a_crazyhouse_finding_draws_its_pockets_and_the_illegal_drops(cli, tmp_path):
    out = tmp_path / "house.html"
    script = str(ENGINES / "vbug_drop_last_rank.py")
    result = cli("compare", HOUSE_BUG, "1", "--variant", "crazyhouse", "--script", script, "--html", str(out))
    assert result.exit_code == 1, result.stderr
    (board,) = svg_boards(out.read_text())
    squares, pieces, marks = board_facts(board)
    assert (squares, pieces) == (64, {"e1": "K", "e8": "k"})
    assert marks == {f"P@{f}{r}": "drop extra" for f in "abcdefgh" for r in "18" if f != "e"}
    (pocket,) = [t.text for t in board.iterfind("svg:text", NS) if t.get("class") == "pockets"]
    assert pocket == "pockets: white P, black -"


@pytest.mark.variant_walk
def test_the_moves_one_side_lacks_head_the_divide_table(cli, tmp_path):
    # the 13 illegal drops (the bug) came after the ~50 "differs" rows, off the first screen
    out = tmp_path / "house2.html"
    script = str(ENGINES / "vbug_drop_last_rank.py")
    result = cli("compare", "r3k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1", "2", "--variant", "crazyhouse", "--script", script,
                 "--html", str(out))
    assert result.exit_code == 1, result.stderr
    table = parse_html(out.read_text()).one("div", "node").one("table", "divide")
    rows = [(row.attrs["data-move"], row.classes()) for row in table.one("tbody").all("tr")]
    marks = [next(iter(classes), "") for _, classes in rows]
    illegal = sorted({f"P@{f}{r}" for f in "abcdefgh" for r in "18"} - {"P@a8", "P@e1", "P@e8"})  # taken squares
    assert len(illegal) == 13
    assert [move for move, _ in rows[: len(illegal)]] == illegal
    assert marks[: len(illegal)] == ["row-extra"] * len(illegal)
    differ = [move for move, mark in zip((m for m, _ in rows), marks) if mark == "row-differ"]
    assert len(differ) > 40 and marks[len(illegal):len(illegal) + len(differ)] == ["row-differ"] * len(differ)
    assert differ == sorted(differ) and set(marks[len(illegal) + len(differ):]) <= {""}


@pytest.mark.variant_walk
def test_an_engine_that_fails_in_a_crazyhouse_descent_is_named_with_its_node(cli, tmp_path):
    """The failure's line names the node as a crazyhouse position (it was read as standard
    chess, and the pockets made it a bad FEN: exit 2 instead of 3), and the page draws it."""
    out = tmp_path / "crash.html"
    result = cli("compare", HOUSE_BUG, "1", "--variant", "crazyhouse", "--script", str(ENGINES / "fail_exit.py"), "--html", str(out))
    line = one_line(result, 3, "at the start position", "'4k3/8/8/8/8/8/8/4K3[P] w - - 0 1'")
    assert line.count("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1") == 1  # the script's error quotes it: once
    (board,) = svg_boards(out.read_text())
    assert board_facts(board)[1] == {"e1": "K", "e8": "k"}


def test_a_move_listed_twice_has_its_arrow(cli, tmp_path):
    # its extra entry, "e1f2 (listed twice)", was no UCI move to the drawing: no arrow
    page = tmp_path / "twice.html"
    result = cli("compare", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "1", "--python", f"{ENGINES / 'bad_divide.py'}:Twice",
                 "--html", str(page))
    assert result.exit_code == 1
    assert re.findall(r'class="arrow extra" data-move="([^"]*)"', page.read_text()) == ["e1f2"]
    # QA 41c: its note read "e1f2 (listed twice) (listed twice)" here, in explore and compare's heading
    # called the legal e1f2 "not legal"
    assert "(listed twice) (listed twice)" not in page.read_text()
    assert "extra (1): the engine lists, no moves of their own (a move listed twice, a null move)" in result.stdout
    explored = cli("explore", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "1", "--python", f"{ENGINES / 'bad_divide.py'}:Twice",
                   input="auto\n")
    assert "extra e1f2 (listed twice): the engine generates e1f2 twice" in explored.stdout, explored.stdout


@pytest.mark.variant_walk
def test_a_crazyhouse_finding_marks_its_promoted_piece(cli, tmp_path):
    # the a1 queen's '~' (a pawn again when captured) was drawn as a plain queen
    out = tmp_path / "promoted.html"
    script = str(ENGINES / "vbug_drop_last_rank.py")
    result = cli("compare", "4k3/8/8/8/8/8/8/Q~3K2R[P] w - - 0 1", "1", "--variant", "crazyhouse", "--script", script,
                 "--html", str(out))
    assert result.exit_code == 1, result.stderr
    (board,) = svg_boards(out.read_text())
    assert board_facts(board)[1] == {"a1": "Q", "e1": "K", "h1": "R", "e8": "k"}
    flagged = [t.get("data-square") for t in board.iter() if t.get("data-promoted") == "true"]
    marks = [t.get("data-square") for t in board.iter() if t.get("class") == "promoted"]
    assert flagged == marks == ["a1"]


def test_the_html_reports_name_a_variant_and_not_standard_chess():
    # atomic's start FEN reads as standard chess: the page said nothing of the rules
    from chesskit.report.html import compare_html, crash_html, fuzz_html, suite_html

    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    agree = {"agree": True, "depth": 1, "position_fen": start, "path": [], "engine": "e"}
    crash = {"path": [], "fen": start, "depth": 2, "position_fen": start, "engine": "e", "summary": "engine 'e' exited"}
    fuzz = {"agree": True, "seed": 1, "positions": 3, "nodes": 10, "depth": 2, "seconds": 0.1}
    for page in (compare_html, crash_html, fuzz_html):
        data = agree if page is compare_html else crash if page is crash_html else fuzz
        assert '<p class="variant">variant: atomic</p>' in page({**data, "variant": "atomic"}), page
        assert 'class="variant"' not in page(data), page  # standard chess: as before
    assert "<dt>variant</dt><dd>atomic</dd>" in crash_html({**crash, "variant": "atomic"})
    assert "<dt>variant</dt>" not in crash_html(crash)
    # Chess960: Shredder-FEN castling says it, the Details too (QA 41c)
    assert "<dt>rules</dt><dd>Chess960</dd>" in crash_html({**crash, "chess960": True})
    assert "<dt>rules</dt>" not in crash_html(crash)
    row = {"id": "a", "fen": start, "depth": 1, "ok": True, "file": "s.perft", "line": 2}
    mixed = suite_html({"results": [row, {**row, "id": "b", "line": 6, "variant": "atomic"}]})
    assert '<p class="variant">variants: atomic</p>' in mixed
    assert '<code>b</code> <span class="muted">(atomic)</span>' in mixed and "<code>a</code></td>" in mixed
    assert 'class="variant"' not in suite_html({"results": [row]})


@pytest.mark.parametrize("tried, words", [(1, "1 candidate tried"), (3, "3 candidates tried")])
def test_the_shrink_line_counts_its_candidates_in_words(tried, words):
    # "1 candidates tried"
    from chesskit.report.html import _shrunk

    data = {"shrunk": True, "start_fen": "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "position_fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "shrink_tried": tried}
    assert f"4 &rarr; 3 pieces, {words};" in _shrunk(data)


def test_the_move_path_is_numbered_as_a_game_writes_it(cli, tmp_path):
    # QA 41c: the path was numbered by ply, "2. c7c5" for black's reply in move 1
    page = tmp_path / "path.html"
    result = cli("compare", "kiwipete", "3", "--python", f"{ENGINES / 'bug_no_ep.py'}:Adapter", "--html", str(page))
    assert result.exit_code == 1
    labels = re.findall(r'data-step="\d+" aria-pressed="\w+">([^<]*)<', page.read_text())
    assert labels == ["start", "1. e2d1", "1... c7c5"]


@pytest.mark.parametrize("fen, numbers", [
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ["1.", "1...", "2."]),
    ("4k3/8/8/8/8/8/8/4K3 b - - 3 9", ["9...", "10.", "10..."]),
    ("4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 12", ["12.", "12...", "13."]),  # three-check's counters before the clocks
    ("4k3/8/8/8/8/8/8/4K3 w - -", ["1.", "1...", "2."]),  # no clocks
])
def test_move_numbers_follow_the_side_to_move_and_the_fullmove_number(fen, numbers):
    from chesskit.report.finding import _move_number

    assert [_move_number(fen, ply) for ply in range(3)] == numbers
