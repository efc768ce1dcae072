"""The full-screen explorer, headless through Textual's pilot: keys in, the screen read back
from its SVG screenshot (what a user would see), counts checked against python-chess."""

from __future__ import annotations

import asyncio
import html
import re
import sys
import threading
import time
import xml.etree.ElementTree as ET

import chess
import chess.variant
import pytest
from textual.widgets import DataTable

from chesskit.board.board import Board
from chesskit.compare.engines import open_engine
from chesskit.explore.app import BoardView, ErrorScreen, ExplorerApp, board_scale, board_width
from chesskit.explore.state import Explorer
from chesskit.glyphs import FIGURINES
from helpers import ENGINES, KIWIPETE, gone, pc_divide

pytestmark = pytest.mark.usefixtures("no_leftover_children")

SIZE = (160, 64)  # every row of a 48-move divide shown: no scrollbar taking the mark column's width, no row scrolled away (CI under load: a2a4 without its mark, a7a8q off-screen)
AFTER_A4 = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1"
# two white queens: a7a8q makes a third, and fail_midway.py exits 1 on such a position
QUEENS = "4k3/P7/8/8/8/8/8/QQ2K3 w - - 0 1"


def screen(app) -> list[str]:
    """The screen's lines, read from the app's SVG screenshot (cells 12.2 px wide)."""
    svg = app.export_screenshot()
    root = ET.fromstring(svg)
    lines: dict[int, dict[int, str]] = {}
    for node in root.iter("{http://www.w3.org/2000/svg}text"):
        clip = node.get("clip-path", "")
        found = re.search(r"line-(\d+)", clip)
        if not found or node.text is None:
            continue
        column = round((float(node.get("x")) - 12.2) / 12.2)
        row = lines.setdefault(int(found.group(1)), {})
        for i, char in enumerate(html.unescape(node.text).replace("\xa0", " ")):
            row[column + i] = char
    out = []
    for n in range(max(lines) + 1 if lines else 0):
        row = lines.get(n, {})
        out.append("".join(row.get(c, " ") for c in range(max(row) + 1 if row else 0)).rstrip())
    return out


def shows(app, *words: str) -> bool:
    text = "\n".join(screen(app))
    return all(word in text for word in words)


def row_of(app, move: str) -> str:
    """``move``'s row in the divide table as shown: move, SAN, counts, mark."""
    found = [m.group(0) for line in screen(app) for m in [re.search(rf"\b{move}\s+\S+\s+\d+.*", line)] if m]
    assert found, f"no row for {move}:\n" + "\n".join(screen(app))
    return found[-1]


async def idle(pilot, app) -> None:
    """Wait until no count runs (generous: a busy machine is slow, but it must end)."""
    deadline = time.monotonic() + 120
    await pilot.pause()
    while app._cancel is not None or any(w.is_running for w in app.workers):
        assert time.monotonic() < deadline, "the count never finished"
        await pilot.pause(0.05)
    # and until the screen has caught up: under load the table was read between the count's
    # end and its redraw (CI: b4a3's row without its mark, its SAN cut to the old width)
    shown = None
    while _measuring(app) or shown != (shown := screen(app)):
        assert time.monotonic() < deadline, "the screen never settled"
        await pilot.pause(0.1)


def _measuring(app) -> bool:
    """Whether the divide table still has rows or cells to measure: Textual sizes its
    columns only when the app's message queue runs empty, so a screen read before shows the
    rows at the old widths (CI under load: every 'a7a8q' cut to 'a7a8', for two reads
    0.1 s apart)."""
    table = app.query_one(DataTable)
    return bool(getattr(table, "_require_update_dimensions", False) or getattr(table, "_new_rows", None)
                or getattr(table, "_updated_cells", None))


async def until(pilot, check, seconds: float = 60) -> None:
    """Wait until ``check()`` holds, at most ``seconds`` (a redraw under load can lag the
    count's end by more than ``idle``'s settling pause); the caller then asserts it, so a
    state that never comes fails with what was shown."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except AssertionError:
            pass
        await pilot.pause(0.1)


def make(fen=KIWIPETE, depth=2, **opts) -> Explorer:
    board = Board(fen)
    factory = (lambda: open_engine(timeout=60, **opts)) if opts else None
    return Explorer(board, depth, board.fen(), factory, state_pushes=0)


def run(explorer: Explorer, script, settle: bool = True, size=SIZE) -> ExplorerApp:
    """Run ``script(pilot, app)`` on the app, once the first count is done (``settle``)."""
    app = ExplorerApp(explorer)

    async def main():
        async with app.run_test(size=size) as pilot:
            if settle:
                await idle(pilot, app)
            await script(pilot, app)

    try:
        asyncio.run(main())
    finally:
        explorer.close()
    return app


def test_a_lands_on_the_failing_node_and_shows_its_fen_and_the_missing_move():
    # and s shows the CPW counters of the move under the cursor there
    ex = make(python=f"{ENGINES / 'bug_no_ep.py'}:Adapter")

    async def script(pilot, app):
        expected = pc_divide(KIWIPETE, 2)
        await until(pilot, lambda: len(row_of(app, "a2a4").split()) >= 5)  # the mark drawn last
        line = row_of(app, "a2a4")
        assert line.split()[1:5] == ["a4", str(expected["a2a4"]), str(expected["a2a4"] - 1), "differs"]
        await pilot.press("a")
        await idle(pilot, app)
        assert shows(app, AFTER_A4, "1. a4 (a2a4)", "missing: b4a3", "en passant")
        assert row_of(app, "b4a3").split() == ["b4a3", "bxa3", "1", "-", "missing"]
        assert app.selected() == "b4a3"  # the cursor (and the board's highlight) on the missing move
        await pilot.press("s")  # chesskit's CPW counters for the selected move
        await idle(pilot, app)
        assert shows(app, "b4a3 at depth 1", "captures 1", "en passant 1", "checks 0")
        await pilot.press("backspace")  # the counters follow: the start node's, below a2a4
        await idle(pilot, app)
        board = chess.Board(KIWIPETE)
        board.push_uci("a2a4")
        captures = sum(board.is_capture(move) for move in board.legal_moves)
        assert app.selected() == "a2a4" and shows(app, "a2a4 at depth 2", f"captures {captures} ")

    assert run(ex, script).exit_code == 0  # a difference is no failure on the full screen


def test_enter_descends_and_backspace_ascends():
    ex = make(depth=2)

    async def script(pilot, app):
        assert shows(app, KIWIPETE, "start")
        for _ in range(3):
            await pilot.press("down")  # a1b1 a1c1 a1d1 -> a2a3
        assert app.selected() == "a2a3"
        await pilot.press("enter")
        await idle(pilot, app)
        after = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/P1N2Q1p/1PPBBPPP/R3K2R b KQkq - 0 1"
        assert shows(app, after, "start > 1. a3 (a2a3)", "depth 1")
        assert len([line for line in screen(app) if re.search(r"\s1$", line)]) >= 20  # depth-1 rows count 1
        await pilot.press("backspace")
        await idle(pilot, app)
        assert shows(app, KIWIPETE, "depth 2") and not shows(app, "a3 (a2a3)")
        assert app.selected() == "a2a3"  # back on the move just taken back
        assert row_of(app, "a2a3").split()[:3] == ["a2a3", "a3", str(pc_divide(KIWIPETE, 2)["a2a3"])]
        # m types a move (SAN), + and - change the depth, f copies the FEN
        await pilot.press("m", *"Nxf7", "enter")
        await idle(pilot, app)
        assert ex.path == ["e5f7"] and shows(app, "1. Nxf7 (e5f7)")
        await pilot.press("plus")
        await idle(pilot, app)
        assert ex.depth == 2 and shows(app, "depth 2")
        assert row_of(app, "e8f7").split()[2] == str(pc_divide(KIWIPETE, 2, ["e5f7"])["e8f7"])
        await pilot.press("minus", "f")
        await idle(pilot, app)
        assert ex.depth == 1 and app.clipboard == ex.fen()
        await pilot.press("m", *"Ke3", "enter")
        assert shows(app, "illegal move 'Ke3'")

    run(ex, script)


def test_an_engine_crash_shows_an_error_panel_and_the_explorer_goes_on():
    crashing = f'{sys.executable} {ENGINES / "fail_midway.py"} {{depth}} "{{fen}}"'
    ex = make(fen=QUEENS, depth=1, engine_cmd=crashing)

    async def script(pilot, app):
        assert row_of(app, "a7a8q").split()[-2:] == ["1", "1"]  # the engine answers here
        await pilot.press("m", *"a8=Q", "enter")  # a third queen: the engine exits 1
        await idle(pilot, app)
        assert shows(app, "exited", "chesskit's counts are shown")
        after = "Q3k3/8/8/8/8/8/8/QQ2K3 b - - 0 1"
        assert shows(app, after) and row_of(app, "e8d7").split()[-1] == "1"  # chesskit's count stands
        await pilot.press("backspace", "plus")
        await idle(pilot, app)
        assert not shows(app, "exited")
        expected = pc_divide(QUEENS, 2)
        assert row_of(app, "a7a8q").split()[-2:] == [str(expected["a7a8q"])] * 2  # the engine is back

    # the session's exit code says the engine failed, as --repl's does (it was 0)
    assert run(ex, script).exit_code == 3


def test_an_engine_error_is_shown_whole_on_an_80_by_24_terminal(monkeypatch):
    # the red panel showed three lines of the error at 80 x 24, cut before "exited with code
    # 1" ended and without "chesskit's counts are shown; the engine is started again ..."
    # (the command, which the error quotes, is the same length wherever the test runs)
    monkeypatch.setenv("CHESSKIT_TEST_PY", sys.executable)
    monkeypatch.setenv("CHESSKIT_TEST_ENGINE", str(ENGINES / "fail_midway.py"))
    crashing = 'sh -c \'exec "$CHESSKIT_TEST_PY" "$CHESSKIT_TEST_ENGINE" "$0" "$1"\' {depth} "{fen}"'
    ex = make(fen=QUEENS, depth=1, engine_cmd=crashing)

    async def script(pilot, app):
        await pilot.press("m", *"a8=Q", "enter")  # a third queen: the engine exits 1
        await idle(pilot, app)
        panel = app.query_one("#error")
        shown = panel.content_region
        assert panel.display and panel.get_content_height(panel.size, app.size, shown.width) <= shown.height  # nothing cut
        right = [line[line.index("┃") + 1:] for line in screen(app) if "┃" in line]  # the panel's lines
        text = " ".join(" ".join(right).split())
        assert "exited with code 1 for depth 1" in text, screen(app)
        assert text.endswith("chesskit's counts are shown; the engine is started again for the next count"), screen(app)
        assert row_of(app, "e8d7").split()[-1] == "1"  # and the table is still in sight

    assert run(ex, script, size=(80, 24)).exit_code == 3


def test_an_error_longer_than_its_panel_is_read_whole_with_e():
    # an engine's error of many lines was cut at 80 x 24 (its panel takes 40% of the screen),
    # with no way to read the rest: the panel says so, and e shows it whole, scrolling
    ex = make(fen=QUEENS, depth=1)
    long = "\n".join(f"engine output line {n}" for n in range(40))

    async def script(pilot, app):
        app.error(long, 3)
        await pilot.pause(0.3)
        assert shows(app, "engine output line 0") and not shows(app, "engine output line 39")
        assert any("press e to read it whole" in str(n.message) for n in app._notifications)
        await pilot.press("e")
        await pilot.pause(0.3)
        assert shows(app, "the last error", "engine output line 0")
        await pilot.press("end")
        await pilot.pause(0.3)
        assert shows(app, "engine output line 39")
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert not shows(app, "the last error") and len(app.screen_stack) == 1  # the explorer again

    assert run(ex, script, size=(80, 24)).exit_code == 3


def test_a_short_error_says_nothing_of_e():
    ex = make(fen=QUEENS, depth=1)

    async def script(pilot, app):
        app.error("one line", 2)
        await pilot.pause(0.3)
        assert shows(app, "one line")
        assert not any("press e" in str(n.message) for n in app._notifications)

    run(ex, script, size=(80, 24))


def test_the_table_is_drawn_at_its_cells_widths_even_before_textual_measures_them():
    # CI, twice in four runs: the screen drew the freshly filled table before the table's
    # idle-time measuring, Textual kept those lines cached, and every 'a7a8q' stayed 'a7a8'
    ex = make(fen=QUEENS, depth=1)

    async def script(pilot, app):
        table = app.query_one(DataTable)
        app._fill_table(ex.cached())
        for y in range(table.size.height):
            table.render_line(y)  # drawn now, before the table's queue has run empty
        await idle(pilot, app)
        assert row_of(app, "a7a8q").split() == ["a7a8q", "a8=Q+", "1"]
        assert row_of(app, "a1a2").split() == ["a1a2", "Qaa2", "1"]

    run(ex, script)


async def _bug_no_ep_counted(pilot, app):
    """The screen's lines once bug_no_ep's divide of Kiwipete at depth 2 is in the table
    (its a2a4 row: python-chess's count, the adapter's one less)."""
    expected = pc_divide(KIWIPETE, 2)
    await until(pilot, lambda: len(row_of(app, "a2a4").split()) >= 5)
    assert row_of(app, "a2a4").split() == ["a2a4", "a4", str(expected["a2a4"]), str(expected["a2a4"] - 1), "differs"]
    return screen(app)


def test_an_80_by_24_terminal_shows_the_whole_board_and_every_column_of_the_table():
    # the board was drawn 59 x 25 whatever the terminal: at 80 x 24 its first rank and the
    # table's counts were off the screen
    ex = make(python=f"{ENGINES / 'bug_no_ep.py'}:Adapter")

    async def script(pilot, app):
        lines = await _bug_no_ep_counted(pilot, app)
        assert all(len(line) <= 80 for line in lines) and len(lines) <= 24
        first = lines[-1].split()[:2]  # the way out first: a narrower terminal cuts the footer's end
        assert first[0].endswith("/^c") and first[1] == "quit", lines[-1]  # (this reader drops column 0's "q")
        assert lines[-1].split()[-4:] == ["g", "count", "esc", "stop"]  # every key in the footer
        assert any(re.match(r"1\s+♖", line) for line in lines)  # the first rank, with its rook on a1
        assert any(re.match(r"\s+a\s+b\s+c\s+d\s+e\s+f\s+g\s+h\b", line) for line in lines)
        # the finding and then the counters above and below the table leave it two rows:
        # the selected (missing) move's row stays in view
        await pilot.press("a")
        await idle(pilot, app)
        assert row_of(app, "b4a3").split()[-2:] == ["-", "missing"]
        await pilot.press("s")
        await idle(pilot, app)
        assert shows(app, "b4a3 at depth 1", "en passant 1")
        await until(pilot, lambda: row_of(app, "b4a3"))
        assert row_of(app, "b4a3").split()[-2:] == ["-", "missing"]

    run(ex, script, size=(80, 24))


@pytest.mark.parametrize("width", [60, 76])
def test_a_terminal_too_narrow_for_the_board_and_the_table_keeps_every_column_of_the_table(width):
    # at 60 columns the table lost its engine column (cut to "en") and its marks beside the
    # board: the board, which the FEN line above still gives, gives way to the table
    ex = make(python=f"{ENGINES / 'bug_no_ep.py'}:Adapter")

    async def script(pilot, app):
        lines = await _bug_no_ep_counted(pilot, app)
        assert all(len(line) <= width for line in lines), lines
        assert not app.query_one("#left").display and not any(re.match(r"1\s+♖", line) for line in lines)
        assert KIWIPETE in " ".join(lines[:4])  # the position, in the FEN line (wrapped at 60 columns)
        await pilot.resize_terminal(*SIZE)  # wide again: the board is back
        await pilot.pause(0.3)
        await idle(pilot, app)
        assert app.query_one("#left").display and any(re.match(r"1\s+♖", line) for line in screen(app))

    run(ex, script, size=(width, 24))


def test_a_terminal_resized_to_80_by_24_redraws_the_board_to_fit():
    ex = make(depth=1)

    async def script(pilot, app):
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.3)
        await idle(pilot, app)
        lines = screen(app)
        assert any(re.match(r"1\s+♖", line) for line in lines), "\n".join(lines)
        assert row_of(app, "a1b1").split() == ["a1b1", "Rb1", "1"]
        await pilot.resize_terminal(*SIZE)
        await pilot.pause(0.3)
        await idle(pilot, app)
        assert app.query_one(BoardView).size == (board_width(3), 25)

    run(ex, script)


@pytest.mark.parametrize("size, scale", [((80, 24), 1), ((100, 30), 2), ((120, 40), 3), ((160, 64), 3), ((200, 20), 1), ((40, 10), 1)])
def test_the_board_is_as_large_as_leaves_the_table_its_width(size, scale):
    assert board_scale(*size) == scale
    width, height = size
    if scale < 3:  # one size larger would squeeze the table or not fit the height (3 is the largest)
        assert width - board_width(scale + 1) - 2 < 48 or 8 * (scale + 1) + 1 > height - 4


@pytest.mark.variant_walk  # each case compiles its variant's walk on a cold cache
@pytest.mark.parametrize("variant, fen, lines", [
    # a three-check FEN has seven fields: the explorer ended with a traceback on any of them
    ("3check", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+2 0 2",
     ["variant: 3check", "checks given: white 2, black 1", "side to move: white"]),
    # a crazyhouse FEN's pockets and promoted mark: the pockets shown, the board not shifted
    ("crazyhouse", "r2qk2r/ppp2ppp/2n2n2/8/8/2N2N2/PPP2PPP/R1BQ~K2R[BNPbnp] w KQkq - 0 9",
     ["variant: crazyhouse", "pockets: BNPbnp", "side to move: white"]),
    # a variant's game ends without mate: antichess's side without a move has won, not been stalemated
    ("antichess", "8/8/8/7p/7P/8/8/8 b - - 0 1", ["side to move: black (the game is over: black has no"]),  # the panel wraps
    # and a variant's own end is named
    ("kingofthehill", "rnbq1bnr/pppppppp/8/3k4/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
     ["side to move: white (the game is over: the black king"]),  # the panel wraps the rest
])
def test_a_variant_position_shows_its_state_and_board(variant, fen, lines):
    from chesskit.cli.options import load_board

    board, _ = load_board(fen, "", False, False, variant)
    ex = Explorer(board, 1, fen, None, state_pushes=0)

    async def script(pilot, app):
        shown = screen(app)
        for line in lines:
            assert any(row.startswith(line) for row in shown), f"{line!r} not shown:\n" + "\n".join(shown)
        if variant == "crazyhouse":  # R1BQ~K2R: the king on e1, nothing pushed along by the mark
            first = next(row for row in shown if row.startswith("1 "))
            assert first[: board_width(3)].split() == ["1", "♖", "♗", "♕~", "♔", "♖"]

    run(ex, script)


def drawn_pieces(lines: list[str], marks: bool = False) -> dict[str, str]:
    """The board on the screen as {square: FEN letter}: each file's column is where its
    letter stands under the board, each rank's line the one that starts with its digit.
    ``marks``: the letter with what is drawn right after its figurine (``Q~``)."""
    letters = {glyph: letter for letter, glyph in FIGURINES.items()}
    width = board_width(3) + 1  # the board's columns (the left panel's padding first): the table is beyond
    files = next(line[:width] for line in lines if line[:width].split() == list("abcdefgh"))
    columns = {ch: i for i, ch in enumerate(files) if ch in "abcdefgh"}
    pieces = {}
    for line in lines:
        if line[:2] in {f"{r} " for r in "12345678"}:
            for f, col in columns.items():
                if col < min(len(line), width) and line[col] in letters:
                    after = line[col + 1 : col + 2].strip() if marks else ""
                    pieces[f"{f}{line[0]}"] = letters[line[col]] + after
    return pieces


@pytest.mark.variant_walk  # each case compiles its variant's walk on a cold cache
@pytest.mark.parametrize("variant, fen", [
    ("atomic", None), ("kingofthehill", None), ("3check", None), ("antichess", None), ("horde", None),
    ("racingkings", None), ("crazyhouse", "r1b1k2r/ppp2ppp/2n5/8/8/2N5/PPP2PPP/R1BQ~K2R[BNPbnpq] w KQkq - 0 9"),
])
def test_the_drawn_board_is_python_chess_variant_board(variant, fen):
    board = Board(fen, variant=variant)
    ex = Explorer(board, 1, board.fen(), None, state_pushes=0)
    reference = chess.variant.find_variant(variant)(board.fen())

    async def script(pilot, app):
        expected = {chess.square_name(sq): piece.symbol() for sq, piece in reference.piece_map().items()}
        # CI under load (a variant's walk compiling in the worker): the screen was read before
        # the board was first drawn, and showed none of its pieces
        await until(pilot, lambda: drawn_pieces(screen(app)) == expected)
        assert drawn_pieces(screen(app)) == expected

    run(ex, script)


@pytest.mark.variant_walk  # compiles crazyhouse's walk on a cold cache
@pytest.mark.parametrize("fen", [
    "r1b1k2r/ppp2ppp/2n5/8/8/2N5/PPP2PPP/R1BQ~K2R[BNPbnpq] w KQkq - 0 9",
    "r~3k3/8/8/8/8/8/8/1N~2K2Q~[] w - - 0 1",
])
def test_crazyhouse_promoted_pieces_are_marked_on_the_board(fen):
    # the explorer drew Q~ as a plain queen (show, compare and the HTML reports mark it):
    # which pieces go back to a pocket as pawns when captured was not on the screen
    board = Board(fen, variant="crazyhouse")
    ex = Explorer(board, 1, board.fen(), None, state_pushes=0)
    reference = chess.variant.CrazyhouseBoard(fen)

    async def script(pilot, app):
        expected = {
            chess.square_name(sq): piece.symbol() + ("~" if reference.promoted & chess.BB_SQUARES[sq] else "")
            for sq, piece in reference.piece_map().items()
        }
        await until(pilot, lambda: drawn_pieces(screen(app), marks=True) == expected)
        assert drawn_pieces(screen(app), marks=True) == expected

    run(ex, script)


def test_escape_cancels_a_count_and_stops_the_engine(tmp_path, monkeypatch):
    pids = tmp_path / "pids"
    monkeypatch.setenv("CHESSKIT_HANG_PIDFILE", str(pids))
    ex = make(depth=1, script=str(ENGINES / "fail_hang.py"))

    async def script(pilot, app):
        await started(pilot, pids)
        await pilot.pause(0.2)
        assert shows(app, "waiting for the engine", "Esc cancels"), "\n".join(screen(app))
        await pilot.press("escape")
        await idle(pilot, app)
        assert not shows(app, "Esc cancels") and app._cancel is None
        # chesskit's own counts are on screen, the hung engine's processes are gone
        assert row_of(app, "e1g1").split()[:3] == ["e1g1", "O-O", "1"]
        await all_gone(pilot, pids)
        # g asks again (the engine is started afresh, and hangs again): Esc once more
        pids.unlink()
        await pilot.press("g")
        await started(pilot, pids)
        await pilot.pause(0.2)
        assert shows(app, "waiting for the engine")
        await pilot.press("escape")
        await idle(pilot, app)
        await all_gone(pilot, pids)

    run(ex, script, settle=False)


async def started(pilot, pids) -> None:
    deadline = time.monotonic() + 60
    while not (pids.exists() and pids.read_text().split()):
        assert time.monotonic() < deadline, "the hanging engine never started"
        await pilot.pause(0.05)


async def all_gone(pilot, pids) -> None:
    for pid in map(int, pids.read_text().split()):
        deadline = time.monotonic() + 30
        while not gone(pid):
            assert time.monotonic() < deadline, f"engine process {pid} still runs"
            await pilot.pause(0.05)


def test_a_position_that_cannot_arise_shows_its_note_and_d_types_a_depth():
    fen = "4k3/8/8/8/8/8/8/4K3 w K - 0 1"  # a castling right without its rook
    ex = make(fen=fen, depth=1)

    async def script(pilot, app):
        assert shows(app, "cannot arise in a game", "no white rook east of the", "castling: -")
        await pilot.press("d", "3", "enter")
        await idle(pilot, app)
        assert ex.depth == 3 and shows(app, "depth 3")
        expected = pc_divide("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 3)
        assert row_of(app, "e1d1").split()[:3] == ["e1d1", "Kd1", str(expected["e1d1"])]
        await pilot.press("d", *"x", "enter")
        assert shows(app, "bad depth 'x': an integer from 1 to 100") and ex.depth == 3  # the line mode's words

    run(ex, script)


def test_a_puts_the_cursor_on_an_extra_move_where_none_is_missing():
    # bug_ep_rank_pin generates the illegal f4e3 after e2e4 in pos3: the cursor stayed on
    # the first row, and Enter went down a move that was not the finding
    pos3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    ex = make(pos3, 2, python=f"{ENGINES / 'bug_ep_rank_pin.py'}:Adapter")

    async def script(pilot, app):
        await pilot.press("a")
        await idle(pilot, app)
        assert shows(app, "generates illegal f4e3")
        assert app.selected() == "f4e3"

    run(ex, script)


def test_a_long_finding_or_error_leaves_the_table_in_sight():
    # a finding of many lines (a long path, many missing moves) pushed the divide table
    # off an 80x24 screen
    from rich.text import Text
    from textual.widgets import Static

    ex = make(python=f"{ENGINES / 'bug_no_ep.py'}:Adapter")

    async def script(pilot, app):
        await pilot.press("a")
        await idle(pilot, app)
        for panel in ("#finding", "#error"):
            shown = app.query_one(panel, Static)
            shown.update(Text("\n".join(f"line {n}" for n in range(40))))
            shown.display = True
        await pilot.pause(0.2)
        assert app.query_one(DataTable).region.height >= 3

    run(ex, script, size=(80, 24))


class Gated(Explorer):
    """An explorer whose divide (``where="divide"``) or engine answer (``where="engine"``)
    waits for ``gate``: the test presses keys while that count is surely in flight."""

    def __init__(self, *args, where: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.gate, self.where = threading.Event(), where

    def divide(self, *args, **kwargs):
        if self.where == "divide":
            assert self.gate.wait(60), "the test never opened the gate"
        return super().divide(*args, **kwargs)

    def _engine_divide(self, *args, **kwargs):
        if self.where == "engine":
            assert self.gate.wait(60), "the test never opened the gate"
        return super()._engine_divide(*args, **kwargs)


@pytest.mark.parametrize("where", ["divide", "engine"])
def test_s_while_a_count_runs_keeps_that_count_and_shows_the_counters_after_it(where):
    # s cancelled the divide (or stopped the engine) in flight and nothing counted it again:
    # the table stayed on 'counting…' (the engine's column empty) and the counters panel
    # said 'None: not a legal move, no counters'
    board = Board(KIWIPETE)
    factory = lambda: open_engine(timeout=60, python=f"{ENGINES / 'eng_correct.py'}:Adapter")  # noqa: E731
    ex = Gated(board, 2, board.fen(), factory, state_pushes=0, where=where)

    async def script(pilot, app):
        await until(pilot, lambda: app._cancel is not None and (where == "divide" or app._engine_busy[0]))
        await pilot.pause(0.2)
        assert shows(app, "waiting for the engine" if where == "engine" else "counting…")
        await pilot.press("s")
        await pilot.pause(0.2)
        assert shows(app, "CPW counters are counted once the divide is done")
        ex.gate.set()
        await idle(pilot, app)
        expected = pc_divide(KIWIPETE, 2)
        await until(pilot, lambda: len(row_of(app, "a2a4").split()) >= 4)
        assert row_of(app, "a2a4").split()[:4] == ["a2a4", "a4", str(expected["a2a4"]), str(expected["a2a4"])]
        assert shows(app, f"chesskit {sum(expected.values())} · engine {sum(expected.values())}", "agree")
        board = chess.Board(KIWIPETE)
        board.push_uci(app.selected())
        captures = sum(board.is_capture(move) for move in board.legal_moves)
        assert shows(app, f"{app.selected()} at depth 2", f"captures {captures} ")

    assert run(ex, script, settle=False).exit_code == 0


def test_ctrl_c_stops_the_running_count_and_then_ends_the_session_with_130():
    # Ctrl-C only showed Textual's "press ctrl+q to quit", whatever ran
    board = Board(KIWIPETE)
    ex = Gated(board, 2, board.fen(), None, state_pushes=0, where="divide")

    async def script(pilot, app):
        await until(pilot, lambda: app._cancel is not None)
        await pilot.press("ctrl+c")
        await pilot.pause(0.2)
        assert app._cancel is None and app.is_running and not shows(app, "Esc cancels")
        ex.gate.set()
        await pilot.press("g")  # counted again
        await idle(pilot, app)
        assert row_of(app, "a2a4").split()[:3] == ["a2a4", "a4", str(pc_divide(KIWIPETE, 2)["a2a4"])]
        await pilot.press("ctrl+c")  # nothing runs: the session ends
        await until(pilot, lambda: not app.is_running, 10)
        assert not app.is_running

    assert run(ex, script, settle=False).exit_code == 130


def test_escape_during_chesskits_own_count_leaves_the_moves_to_walk(monkeypatch):
    # QA 41c: the table was left with its header alone and "counting…" for ever, and Enter
    # did nothing; now the moves, uncounted, with the key that counts them
    ex = make(depth=7)  # Kiwipete 7: minutes of counting

    async def script(pilot, app):
        await until(pilot, lambda: shows(app, "Esc cancels"))
        await pilot.press("escape")
        await idle(pilot, app)
        assert shows(app, "48 moves · not counted (cancelled): g counts"), "\n".join(screen(app))
        assert not shows(app, "counting…")
        assert re.search(r"\be1g1\s+O-O\s+\?", "\n".join(screen(app)))
        app.query_one(DataTable).move_cursor(row=app.query_one(DataTable).get_row_index("e1g1"))
        await pilot.press("escape")  # nothing runs: no effect
        ex.depth = 1  # walking on counts the node below at a depth that ends at once
        await pilot.press("enter")
        await idle(pilot, app)
        assert ex.path == ["e1g1"], ex.path

    run(ex, script, settle=False)


def test_e_shows_a_finding_its_panel_cuts_whole():
    # QA 41c: at 80 x 24 the finding's hint (what the bug is) was cut, and e showed nothing
    ex = make(depth=3, python=f"{ENGINES / 'bug_no_ep.py'}:Adapter")

    async def script(pilot, app):
        await pilot.press("a")
        await idle(pilot, app)
        assert app.last_finding and "or it is ignored" in app.last_finding
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ErrorScreen))
        assert "or it is ignored" in "\n".join(screen(app))

    run(ex, script, size=(80, 24))


def test_a_long_engine_name_is_shortened_in_the_title_not_dropped():
    # QA 41c: at 80 columns the title read "... · engine:" with the name dropped
    from chesskit.explore.app import _fitted

    head, tail = "chesskit explore · depth 2 · ", "engine: tests/engines/bug_castle_through_check.py:Adapter"
    fitted = _fitted(head, tail, 78)
    assert fitted.startswith(head + "…") and len(fitted) == 78 and fitted.endswith("bug_castle_through_check.py:Adapter")
    assert _fitted(head, "engine: stockfish", 78) == head + "engine: stockfish"


def test_without_colour_the_marked_squares_have_brackets(monkeypatch):
    # QA 41c #6: under NO_COLOR the last move and the selected missing move were grey shades
    view = BoardView()
    view.show("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "e2e4", "d7d5", "missing")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert view._cell("e4", "P", True, 5)[0] == "  ♙  "  # the colour marks it
    monkeypatch.setenv("NO_COLOR", "1")
    assert view._cell("e4", "P", True, 5)[0] == "{ ♙ }"  # the last move
    assert view._cell("d7", "p", True, 5)[0] == "( ♟ )"  # the selected move, missing
    assert view._cell("d5", ".", True, 5)[0] == "(   )"
    assert view._cell("d5", ".", False, 5)[0] == "     "  # the square's other lines
    assert view._cell("a1", "R", True, 5)[0] == "  ♖  "  # unmarked
