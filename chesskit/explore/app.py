"""The full-screen explorer (Textual): the board drawn large, the state, the divide with the
engine's counts beside chesskit's, and the keys that walk the tree.

Textual (built on rich, which chesskit already draws with) gives a widget tree, key
bindings, a headless pilot for tests and SVG screenshots; it is imported here only, so no
other command pays for it. Everything the screen shows comes from the UI-free
``chesskit.explore.state.Explorer``; counting runs on a daemon thread under a Textual
worker (a compiled walk cannot be stopped, and a daemon thread never holds up quitting),
with a progress bar; Esc cancels it (the engine's process is stopped).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
from typing import Callable

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Input, Label, ProgressBar, Static
from textual.widgets.data_table import RowDoesNotExist

from chesskit.board.describe import describe, game_status, variant_lines
from chesskit.errors import ChesskitError, EngineError
from chesskit.explore.san import san
from chesskit.explore.state import Cancelled, Divide, Explorer, extra_is_move
from chesskit.explore.text import breadcrumb, count, finding_lines
from chesskit.glyphs import FIGURINES, promoted, ranks
from chesskit.typed import plain_int
from chesskit.vocab import FILE_NAMES, parse_square

# (light, dark) square colours: plain, the last move, the selected move by its row's status
PALETTE = {
    "plain": ("#f0d9b5", "#b58863"),
    "last": ("#cdd26a", "#aaa23a"),
    "selected": ("#9cc3e6", "#6d9cc9"),
    "missing": ("#a6dba0", "#6fb36a"),
    "extra": ("#f0a3a3", "#c96b6b"),
}
INTERRUPTED = 130  # the exit code of a session ended by Ctrl-C (128 + SIGINT, as every command's)
COUNTERS_LABEL = "CPW counters"  # the counters' count, as its busy bar names it
# how a row's status is marked in the table
MARK_STYLES = {"differs": ("differs", "bold yellow"), "missing": ("missing", "bold green"), "extra": ("extra", "bold red")}


def _width(cell: str | Text) -> int:
    """A table cell's width on screen, in terminal cells."""
    return cell.cell_len if isinstance(cell, Text) else cell_len(cell)


# the widest the divide table needs (move, SAN, two counts, the mark, with their padding),
# and the rows the screen keeps above and below the board (title, breadcrumb, FEN, keys)
TABLE_WIDTH = 48
OTHER_ROWS = 4
LARGEST_SQUARE = 3


def board_scale(width: int, height: int) -> int:
    """How many lines high a square is drawn on a ``width`` x ``height`` screen (1 to
    ``LARGEST_SQUARE``): as large as leaves the divide table its width beside the board
    and the board its height, so that an 80x24 terminal still shows every column."""
    across = (width - TABLE_WIDTH - 2 - board_width(0)) // 16  # the left panel: the board and 2 of padding
    down = (height - OTHER_ROWS - 1) // 8
    return max(1, min(LARGEST_SQUARE, across, down))


def board_fits(width: int) -> bool:
    """Whether a ``width``-column screen has room for the board (squares one line high) and
    the divide table's every column beside it; narrower, the board and the state below it
    give way to the table (the FEN line above still gives the position)."""
    return width >= board_width(1) + 2 + TABLE_WIDTH  # the left panel's 2 of padding


def board_width(scale: int) -> int:
    """The board's width in cells: the rank digit and a space, eight squares 2h+1 wide,
    and one cell to spare (``BoardView.render`` reads h back from it): 16h + 11."""
    return 2 + 8 * (2 * scale + 1) + 1


class DivideTable(DataTable):
    """The divide: a DataTable that keeps its cursor's row in view when it is made shorter
    (the counters or a finding shown above or below it on a small terminal)."""

    def on_resize(self) -> None:
        if self.row_count:
            self.call_after_refresh(lambda: self.move_cursor(row=self.cursor_row, scroll=True))


# a marked square's brackets where NO_COLOR leaves no colour: compare's (x) missing and
# [x] extra, <x> the selected move's, {x} the last move's
NO_COLOR_MARKS = {"missing": "()", "extra": "[]", "selected": "<>", "last": "{}"}


class BoardView(Widget):
    """The board, as large as the widget allows (cells 2h+1 wide, h high); a crazyhouse
    piece marked promoted has a ``~`` right after its figurine, as ``show`` draws it."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fen = "8/8/8/8/8/8/8/8 w - - 0 1"
        self.last: set[str] = set()
        self.marked: set[str] = set()
        self.mark = "selected"
        self._promoted: set[str] = set()

    def fit(self, scale: int) -> None:
        """Size the board for squares ``scale`` lines high."""
        self.styles.width = board_width(scale)
        self.styles.height = 8 * scale + 1

    def show(self, fen: str, last: str | None, selected: str | None, status: str | None) -> None:
        self.fen = fen
        self.last = {last[:2], last[2:4]} if last else set()
        self.marked = {selected[:2], selected[2:4]} if selected and extra_is_move(selected) else set()
        self.mark = status if status in ("missing", "extra") else "selected"
        self.refresh()

    def render(self) -> Text:
        height = max(1, min((self.size.height - 1) // 8, (self.size.width - 3) // 16))
        width = 2 * height + 1
        self._promoted = promoted(self.fen)
        text = Text()
        for rank_index, row in enumerate(ranks(self.fen)):
            rank = 8 - rank_index
            for line in range(height):
                text.append(f"{rank} " if line == height // 2 else "  ", style="dim")
                for file, piece in zip(FILE_NAMES, row):
                    text.append(*self._cell(f"{file}{rank}", piece, line == height // 2, width))
                text.append("\n")
        text.append("  " + "".join(f.center(width) for f in FILE_NAMES), style="dim")
        return text

    def _cell(self, square: str, piece: str, middle: bool, width: int) -> tuple[str, str]:
        sq = parse_square(square)
        light = ((sq & 7) + (sq >> 3)) % 2 == 1  # a1 is dark
        palette = "plain"
        if square in self.marked:
            palette = self.mark
        elif square in self.last:
            palette = "last"
        background = PALETTE[palette][0 if light else 1]
        glyph = FIGURINES.get(piece, " ") if middle else " "
        cell = glyph.center(width)
        if middle and square in self._promoted:  # crazyhouse's Q~, as show and the reports mark it
            cell = cell[: width // 2 + 1] + "~" + cell[width // 2 + 2 :]
        if middle and palette != "plain" and os.environ.get("NO_COLOR"):  # the colours are the marks (QA 41c)
            pair = NO_COLOR_MARKS[palette]
            cell = pair[0] + cell[1:-1] + pair[1]
        return cell, f"bold black on {background}"


class ErrorScreen(ModalScreen):
    """The last error whole, over the explorer, for an error longer than its panel shows
    (an engine's output quoted at 80 x 24): arrows and page keys scroll it, Esc or ``e``
    closes it."""

    CSS = """
    ErrorScreen { align: center middle; }
    #whole { width: 100%; height: 100%; border: heavy $error; padding: 0 1; }
    #whole Static { color: $error; }
    """
    BINDINGS = [Binding("escape,e,q", "dismiss", "close")]

    def __init__(self, text: str, title: str = "the last error"):
        super().__init__()
        self.text, self.title = text, title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="whole"):
            yield Static(Text(self.text))

    def on_mount(self) -> None:
        whole = self.query_one("#whole", VerticalScroll)
        whole.border_title = self.title
        whole.border_subtitle = "arrows scroll · Esc closes"
        whole.focus()

    async def action_dismiss(self, result=None) -> None:
        self.dismiss(result)


class ExplorerApp(App):
    """``chesskit explore``'s screen over an ``Explorer``."""

    TITLE = "chesskit explore"
    CSS = """
    #top { height: 1; background: $primary; color: $text; padding: 0 1; }
    #crumbs { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    #fen { height: auto; padding: 0 1; text-style: bold; }
    #left { padding: 0 1; }  /* its width, and the board's size: _fit_board, by the screen's */
    #state { height: auto; margin-top: 1; }
    #right { padding: 0 1; }
    #divide { height: 1fr; }
    #summary { height: auto; }
    #counters { height: auto; border: round $secondary; display: none; }
    #finding { height: auto; max-height: 35%; overflow-y: auto; border: round $warning; display: none; }
    #error { height: auto; max-height: 40%; overflow-y: auto; border-left: heavy $error; padding-left: 1; color: $error; display: none; }
    #busy { height: 1; display: none; }
    #busy Label { width: auto; margin-right: 1; }
    #ask { dock: bottom; display: none; }
    """
    BINDINGS = [
        # first in the footer: below 80 columns it is cut at the end, and the way out was the
        # first key lost (QA 41c). Ctrl-C as in a shell: it stops the running count, else it
        # ends the session (130, interrupted); Textual's own Ctrl-C only said "press ctrl+q to
        # quit". Ctrl+Q (Textual's) quits too.
        Binding("q", "quit", "quit", key_display="q/^c"),
        Binding("backspace", "up", "up"),
        Binding("a", "auto", "find bug"),
        Binding("d", "ask('depth')", "depth"),
        # +/- are d's shortcuts: left out of the footer, so that every other key fits 80 columns
        Binding("plus,equals_sign", "depth(1)", "+1", show=False),
        Binding("minus", "depth(-1)", "-1", show=False),
        Binding("f", "copy_fen", "copy FEN"),
        Binding("m", "ask('move')", "move"),
        Binding("s", "toggle_counters", "counters"),
        Binding("g", "recount", "count"),
        # the last error whole (the panel shows 40% of the screen): the panel says so when it cuts
        Binding("e", "show_error", "error", show=False),
        Binding("escape", "cancel", "stop"),
        Binding("ctrl+c", "interrupt", "interrupt", show=False, priority=True),
    ]

    def __init__(self, explorer: Explorer, **kwargs):
        super().__init__(**kwargs)
        self.ex = explorer
        self.exit_code = 0  # the last failure's (as --repl's: 2 bad input, 3 the engine failed)
        self._cancel: threading.Event | None = None  # the running count's
        self._engine_busy: list[bool] = [False]  # whether the running count is asking the engine
        self._counting = ""  # the running count's label ("divide", COUNTERS_LABEL, ...)
        self._asking: str | None = None  # "move" or "depth" while the input line is open
        self.show_counters = False
        self.last_error: str | None = None
        self.last_finding: str | None = None  # the finding panel's text, while it is shown
        self._reselect: str | None = None  # the move to put the cursor on at the next drawing

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        yield Static(id="crumbs")
        yield Static(id="fen")
        with Horizontal():
            with Vertical(id="left"):
                yield BoardView(id="board")
                yield Static(id="state")
            with Vertical(id="right"):
                with Horizontal(id="busy"):
                    yield Label(id="busy-label")
                    yield ProgressBar(id="progress", show_eta=False)
                yield Static(id="error")
                yield Static(id="finding")
                table = DivideTable(id="divide", cursor_type="row", zebra_stripes=True)
                yield table
                yield Static(id="summary")
                yield Static(id="counters")
        yield Input(id="ask")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._fit_board()
        self.query_one(DataTable).focus()
        self.show_node()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_board(event.size)

    def _fit_board(self, size=None) -> None:
        """Size the board for the screen (``size``: the new one, which a resize event
        carries before ``self.size`` has it)."""
        width, height = size or self.size
        scale = board_scale(width, height)
        self.query_one(BoardView).fit(scale)
        left = self.query_one("#left")
        left.styles.width = board_width(scale) + 2  # its padding
        left.display = board_fits(width)

    # ------------------------------------------------------------ drawing

    def show_node(self, count_now: bool = True) -> None:
        """Draw where the explorer stands; count the divide there unless it is known."""
        ex = self.ex
        engine = f"engine: {ex.engine_name or 'starting'}" if ex.has_engine else "no engine (chesskit's own tree)"
        self.query_one("#top", Static).update(_fitted(f"chesskit explore · depth {ex.depth} · ", engine, self.size.width - 2))
        self.query_one("#crumbs", Static).update(breadcrumb(ex.breadcrumb()))
        self.query_one("#fen", Static).update(Text(ex.fen()))
        self.query_one("#state", Static).update(self._state_text())
        divide = ex.cached()
        self._fill_table(divide)
        self._draw_board()
        if count_now and (divide is None or (ex.has_engine and divide.theirs is None)):
            self.count_divide()
        elif count_now and self._cancel is None:
            self._count_counters()

    def _state_text(self) -> Text:
        info = describe(self.ex.board())
        rows = [
            *variant_lines(info),
            ("side to move", info["turn"] + game_status(info)),
            ("castling", info["castling"]),
            ("en passant", info["ep"] or "-"),
            ("clocks", f"halfmove {info['halfmove']}, fullmove {info['fullmove']}"),
            ("chess960", "yes" if info["chess960"] else "no"),
        ]
        text = Text()
        for name, value in rows:
            text.append(f"{name}: ", style="dim")
            text.append(value + "\n")
        for note in self.ex.notes:
            text.append("note: ", style="bold yellow")
            text.append(f"the start position cannot arise in a game: {note}\n")
        return text

    def _fill_table(self, divide: Divide | None) -> None:
        table = self.query_one(DataTable)
        keep = self._reselect or self.selected()
        table.clear(columns=True)
        engine = self.ex.has_engine
        labels = ["move", "SAN", "chesskit", *(["engine", ""] if engine else [])]
        summary = self.query_one("#summary", Static)
        rows = [] if divide is None else [(row.move, self._cells(row, divide, engine)) for row in divide.rows()]
        # each column as wide as its widest cell, given here: left to Textual, the widths are
        # measured only when the table's message queue runs empty, and lines drawn before
        # that stay cached at the headers' widths (every 'a7a8q' shown as 'a7a8', for good)
        for i, label in enumerate(labels):
            table.add_column(label, width=max([_width(label), *(_width(cells[i]) for _, cells in rows)]))
        if divide is None:
            summary.update(Text("counting…", style="dim"))
            self._reselect = keep  # the same move once the count is in (a new depth, say)
            return
        self._reselect = None
        for move, cells in rows:
            table.add_row(*cells, key=move)
        if keep in divide.ours or (divide.theirs and keep in divide.theirs):
            table.move_cursor(row=table.get_row_index(keep))
        summary.update(self._summary(divide))

    def _fill_uncounted(self, table: DataTable, keep: str | None) -> None:
        """The node's legal moves without counts, after Esc cancelled its count (the table
        was left empty and said "counting…" for ever, QA 41c): a move can still be walked."""
        board = self.ex.board()
        legal = board.legal_moves()
        table.clear()
        for move in legal:
            table.add_row(move, san(board, move, legal), Text("?", justify="right"), *(["", ""] if self.ex.has_engine else []), key=move)
        if keep in legal:
            table.move_cursor(row=table.get_row_index(keep))
        text = f"{len(legal)} moves · not counted (cancelled): g counts"
        self.query_one("#summary", Static).update(Text(text, style="dim"))

    @staticmethod
    def _cells(row, divide: Divide, engine: bool) -> list[str | Text]:
        """A divide row's cells: move, SAN, chesskit's count, and the engine's with its mark."""
        cells: list[str | Text] = [row.move, row.san, Text(count(row.ours), justify="right")]
        if engine:
            theirs = count(row.theirs) if divide.by_move else ""
            word, style = MARK_STYLES.get(row.status, ("", ""))
            cells += [Text(theirs, justify="right", style=style), Text(word, style=style)]
            if row.marked:
                cells[0] = Text(row.move, style=style)
        return cells

    def _summary(self, divide: Divide) -> Text:
        text = Text(f"{len(divide.ours)} moves · chesskit {divide.total}")
        if divide.engine_total is not None:
            text.append(f" · engine {divide.engine_total}")
            if divide.agree:
                text.append("  agree", style="bold green")
            else:
                marked = [r for r in divide.rows() if r.marked]
                rows = f"{len(marked)} row{' differs' if len(marked) == 1 else 's differ'}"
                text.append(f"  {rows}" if marked else "  totals differ", style="bold yellow")
                if divide.missing():
                    text.append(f"\nmissing: {' '.join(divide.missing())}", style="bold green")
                if divide.extra():
                    text.append(f"\nextra: {' '.join(divide.extra())}", style="bold red")
        return text

    def selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def _draw_board(self) -> None:
        divide = self.ex.cached()
        move = self.selected()
        status = None
        if divide is not None and move is not None:
            status = next((row.status for row in divide.rows() if row.move == move), None)
        last = self.ex.path[-1] if self.ex.path else (self.ex.prefix[-1] if self.ex.prefix else None)
        self.query_one(BoardView).show(self.ex.fen(), last, move, status)
        self._draw_counters()

    def _draw_counters(self) -> None:
        panel = self.query_one("#counters", Static)
        panel.display = self.show_counters
        if not self.show_counters:
            return
        rows = self.ex.cached_counters()
        move = self.selected()
        if rows is None:
            panel.update(Text(self._counters_pending(), style="dim"))
            return
        if move is None:
            panel.update(Text("the counters of the selected move show once the divide is in", style="dim"))
            return
        row = rows.get(move)
        if row is None:
            panel.update(Text(f"{move}: not a legal move, no counters", style="dim"))
            return
        text = Text(f"{move} at depth {self.ex.depth}\n", style="bold")
        text.append("  ".join(f"{name.replace('_', ' ')} {value}" for name, value in row.items()))
        panel.update(text)

    def _counters_pending(self) -> str:
        """What the counters panel says while the counters here are not known."""
        if self._cancel is None:
            return "the CPW counters are not counted (g counts them)"
        if self._counting == COUNTERS_LABEL:
            return "counting the CPW counters…"
        return f"the CPW counters are counted once the {self._counting} is done"

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._draw_board()

    # ------------------------------------------------------------ keys

    @on(DataTable.RowSelected)
    def _descend(self, event: DataTable.RowSelected) -> None:
        move = event.row_key.value
        divide = self.ex.cached()
        if divide is not None and move not in divide.ours:
            self.error(f"{move} is the engine's move only: not legal, nothing below it to walk")
            return
        self.go(lambda: self.ex.child(move))

    def action_up(self) -> None:
        if not self.ex.path:
            self.message("already at the root")
            return
        self._reselect = self.ex.path[-1]  # back on the move just taken back
        self.go(self.ex.parent)

    def action_depth(self, step: int) -> None:
        self.go(lambda: self.ex.set_depth(max(1, self.ex.depth + step)))

    def action_copy_fen(self) -> None:
        fen = self.ex.fen()
        self.copy_to_clipboard(fen)
        self.notify(f"FEN copied: {fen}")

    def action_toggle_counters(self) -> None:
        self.show_counters = not self.show_counters
        self._draw_counters()
        self._count_counters()

    def _count_counters(self) -> None:
        """Count the CPW counters here if they are shown and not known yet. While another
        count runs they wait: cancelling it would lose the divide or the engine's answer in
        flight; its end counts them (``count_divide``'s ``done``, ``_landed``'s drawing)."""
        if self.show_counters and self.ex.cached_counters() is None and self._cancel is None:
            node = self.ex.node
            self.run_count(COUNTERS_LABEL, lambda cancel, progress: self.ex.counters(node, cancel), lambda _: self._draw_counters())
            self._draw_counters()

    def action_recount(self) -> None:
        """Count here again what is not known yet (after Esc, or an engine failure)."""
        self.clear_error()
        self.show_node()

    def action_ask(self, what: str) -> None:
        ask = self.query_one("#ask", Input)
        self._asking = what
        ask.placeholder = "a move (UCI or SAN), Enter to play it" if what == "move" else "a depth, Enter to set it"
        ask.value = ""
        ask.display = True
        ask.focus()

    @on(Input.Submitted, "#ask")
    def _answered(self, event: Input.Submitted) -> None:
        what, text = self._asking, event.value.strip()
        self._close_ask()
        if not text:
            return
        if what == "move":
            self.go(lambda: self.ex.child(text))
        else:
            depth = plain_int(text)  # not an integer: the explorer's own message (set_depth's)
            self.go(lambda: self.ex.set_depth(text if depth is None else depth))

    def _close_ask(self) -> None:
        ask = self.query_one("#ask", Input)
        ask.display = False
        self._asking = None
        self.query_one(DataTable).focus()

    def action_cancel(self) -> None:
        if self._asking:
            self._close_ask()
        elif self._cancel is not None:
            self.stop_count()
            if self.ex.cached() is None:  # cancelled before any count: the moves, uncounted (it said "counting…")
                self._fill_uncounted(self.query_one(DataTable), self._reselect)
            self._draw_counters()
            self.message("cancelled")

    def action_interrupt(self) -> None:
        """Ctrl-C, as in a shell: closes the input line, else stops the running count (as
        Esc), else ends the session (exit 130, interrupted)."""
        if self._asking or self._cancel is not None:
            self.action_cancel()
        else:
            self.exit_code = INTERRUPTED
            self.exit()

    def action_auto(self) -> None:
        if not self.ex.has_engine:
            self.error("no engine to compare with: start explore with --engine, --script, --python or --engine-cmd")
            return
        node = self.ex.node
        steps = [0]

        def work(cancel, progress):
            def step(s):
                steps[0] += 1
                progress(f"descending: depth {s.depth}", steps[0], node.depth)

            return self.ex.descend(node, step, cancel)

        self.run_count("compare's descent", work, self._landed, engine=True)

    def _landed(self, report) -> None:
        panel = self.query_one("#finding", Static)
        panel.display = True
        self.last_finding = "\n".join(finding_lines(report))
        panel.update(Text(self.last_finding))
        # its hint is cut at 80 x 24 (QA 41c): said, and ``e`` shows it whole
        self.call_after_refresh(self._say_if_cut, panel, self.last_finding)
        if not report.agree:
            self.ex.land(report)
        self.show_node()
        # the cursor on the first missing move, else on the first extra one
        for move in [*report.missing, *report.extra][:1]:
            table = self.query_one(DataTable)
            try:
                table.move_cursor(row=table.get_row_index(move))
            except RowDoesNotExist:  # a row of its own the table has not (a null move, a move listed twice)
                pass

    def go(self, move: Callable[[], object]) -> None:
        """Move (a navigation call on the Explorer), then draw; a bad move is an error line."""
        try:
            move()
        except ChesskitError as err:
            self.error(str(err), err.exit_code)
            return
        self.stop_count()
        self.query_one("#finding", Static).display = False
        self.clear_error()
        self.show_node()

    # ------------------------------------------------------------ messages

    def error(self, text: str, code: int | None = None) -> None:
        """Show ``text``; ``code``: the exit code of what failed (the session's, unless a
        later failure replaces it), None for a hint."""
        if code is not None:
            self.exit_code = code
        panel = self.query_one("#error", Static)
        panel.update(Text(text))
        panel.display = True
        self.last_error = text
        self.call_after_refresh(self._say_if_cut, panel, text)

    def _say_if_cut(self, panel: Static, text: str) -> None:
        """Tell the user how to read an error its panel cuts (more lines than 40% of the
        screen): ``e`` shows it whole."""
        if text not in (self.last_error, self.last_finding) or not panel.display:
            return
        shown = panel.content_region
        if panel.get_content_height(panel.size, self.size, shown.width) > shown.height:
            what = "error" if text == self.last_error else "finding"
            self.notify(f"the {what} has more lines than its panel shows: press e to read it whole", timeout=8)

    def action_show_error(self) -> None:
        """The last error whole, or the finding shown (where no error is)."""
        error_shown = self.query_one("#error", Static).display
        if self.last_finding and self.query_one("#finding", Static).display and not error_shown:
            self.push_screen(ErrorScreen(self.last_finding, "the finding"))
        elif self.last_error:
            self.push_screen(ErrorScreen(self.last_error))

    def message(self, text: str) -> None:
        self.notify(text)

    def clear_error(self) -> None:
        self.query_one("#error", Static).display = False

    # ------------------------------------------------------------ counting in the background

    def count_divide(self) -> None:
        node = self.ex.node

        def done(divide: Divide) -> None:
            if divide.engine_error:
                self.error(
                    f"{divide.engine_error}\nchesskit's counts are shown; the engine is started again for the next count",
                    EngineError.exit_code,
                )
            else:
                self.clear_error()
            if node == self.ex.node:
                self.show_node(count_now=False)
                self._count_counters()

        self.run_count("divide", lambda cancel, progress: self.ex.divide(node, progress, cancel), done)

    def run_count(self, label: str, work, done, engine: bool = False) -> None:
        """Run ``work(cancel, progress)`` on a daemon thread under a worker; ``done(result)`` after.
        ``engine``: it asks the engine from the start (else from its first "engine" report)."""
        self.stop_count()
        cancel = threading.Event()
        self._cancel, self._engine_busy, self._counting = cancel, [engine], label
        self._show_busy(label, 0, None)
        self.run_worker(self._count(label, work, done, cancel, self._engine_busy), group="count", exclusive=True)

    async def _count(self, label: str, work, done, cancel: threading.Event, engine_busy: list[bool]) -> None:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        here = contextvars.copy_context()  # the app's context: callbacks from the thread run in it

        def settle(result, error) -> None:
            if not future.done():
                future.set_exception(error) if error is not None else future.set_result(result)

        def progress(what: str, done_parts: int, total: int | None) -> None:
            if what == "engine":
                engine_busy[0] = True
            loop.call_soon_threadsafe(self._progress, cancel, f"{label}: {what}", done_parts, total, context=here)

        def thread() -> None:
            try:
                result, error = work(cancel, progress), None
            except BaseException as err:  # noqa: BLE001 - handed to the worker
                result, error = None, err
            if not loop.is_closed():  # the session may have ended while a cancelled count stopped
                loop.call_soon_threadsafe(settle, result, error, context=here)

        threading.Thread(target=thread, name="chesskit-explore", daemon=True).start()
        try:
            result = await future
        except Cancelled:
            return
        except ChesskitError as err:
            if not cancel.is_set():
                self.error(str(err), err.exit_code)
            return
        except Exception as err:  # noqa: BLE001 - a bug in a count must not end the session
            if not cancel.is_set():
                self.error(f"internal error: {type(err).__name__}: {err} (this is a bug)")
            return
        finally:
            if self._cancel is cancel:
                self._cancel = None
                if self.is_running:
                    self.query_one("#busy").display = False
                    self._draw_counters()  # waiting for this count, or for nothing now
        if not cancel.is_set():
            done(result)

    def _progress(self, cancel: threading.Event, label: str, done: int, total: int | None) -> None:
        if self._cancel is not cancel or not self.is_running:
            return
        if label.endswith(": engine"):
            label = "waiting for the engine"
            self.show_node(count_now=False)  # chesskit's counts, while the engine counts
        self._show_busy(label, done, total)

    def _show_busy(self, label: str, done: int, total: int | None) -> None:
        self.query_one("#busy").display = True
        self.query_one("#busy-label", Label).update(f"{label} (Esc cancels)")
        self.query_one(ProgressBar).update(total=total, progress=done)

    def stop_count(self) -> None:
        """Cancel the running count: its thread stops at its next report, an engine's process at once."""
        if self._cancel is None:
            return
        self._cancel.set()
        self._cancel = None
        if self._engine_busy[0]:
            self.ex.abort_engine()
        self.workers.cancel_group(self, "count")
        self.query_one("#busy").display = False


def _fitted(head: str, tail: str, width: int) -> str:
    """``head + tail`` in ``width`` cells: a long tail (an engine's command) shortened from its
    start with an ellipsis, its end (the file name) kept; the whole tail was dropped at 80
    columns (QA 41c)."""
    room = width - len(head)
    if len(tail) <= room or room < 8:
        return head + tail
    return head + "…" + tail[len(tail) - room + 1 :]


def run_app(explorer: Explorer) -> int:
    app = ExplorerApp(explorer)
    app.run()
    return app.exit_code

