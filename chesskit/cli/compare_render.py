"""Drawing a ``chesskit.compare.descent.Report``: plain text for pipes (and JUnit messages), rich for terminals."""

from __future__ import annotations

from chesskit.compare.classify import DEPTH_SHIFT, FIELD_LABELS, LISTING_KINDS
from chesskit.compare.descent import shown_value
from chesskit.cli.boardview import FILES, SQUARES, colour_depth, rich_board
from chesskit.glyphs import promoted, ranks

# square highlights (truecolor, basic): chesskit-only moves, engine-only moves, both
MISSING = ("#7fc97f", "green")
EXTRA = ("#f08080", "red")
BOTH = ("#e0b050", "yellow")


def _where(path: list[str]) -> str:
    return " ".join(path) if path else "(start)"


def marked_squares(report) -> tuple[set[str], set[str]]:
    """Square names touched by the missing and by the extra moves (or the state mismatch's move)."""
    missing = {sq for m in report.missing for sq in (m[0:2], m[2:4])}
    extra = {sq for m in report.extra for sq in (m[0:2], m[2:4])}
    if report.state is not None and report.state.move and report.state.field != "walk":
        extra |= {report.state.move[0:2], report.state.move[2:4]}
    return missing, extra


def state_checked_line(report) -> str:
    n = report.state_checked
    pushes = f"{n} push{'' if n == 1 else 'es'}"
    state = report.state
    if state is not None and state.op == "push":  # the last push differed: its pop was never made
        pops = n - 1
        return f"full state compared after {pushes} and {pops} pop{'' if pops == 1 else 's'}: it differed after the last push"
    return f"full state compared after {pushes} and {'its pop' if n == 1 else 'their pops'}"


def _rows(step) -> list[str]:
    """The moves of a step's count table: both sides' moves, sorted by UCI like divide."""
    return sorted(set(step.ours) | set(step.theirs))


def headline(report) -> str:
    if report.agree:
        same = "count" if report.total_only else "divide"
        return f"agree: {report.engine} and chesskit give the same {same} at depth {report.depth}"
    if report.kind == "moves":
        return f"DISAGREE: the move lists differ after {_where(report.path)}"
    state = report.state
    if state.field == "walk" and state.hint.startswith(DEPTH_SHIFT):
        return f"DISAGREE: the engine counts another depth than it is asked ({report.depth})"
    if state.field == "walk":
        return f"DISAGREE: the engine's counts depend on how it reaches {_where(report.path)}"
    label = FIELD_LABELS.get(state.field, state.field)
    return f"DISAGREE: the {label} differ{'' if label.endswith('s') else 's'} after {state.op} {state.move or ''}".rstrip()


def descent_lines(report) -> list[str]:
    lines = []
    for step in report.steps:
        ours, theirs = sum(step.ours.values()), step.engine_total()
        diff = sorted(step.differing())
        shown = ", ".join(
            f"{m} {shown_value(step.ours.get(m))} vs {shown_value(step.theirs.get(m))}" for m in diff[:4]
        )
        more = f" (+{len(diff) - 4} more)" if len(diff) > 4 else ""
        verdict = f"differ: {shown}{more}" if diff else "same" if ours == theirs else "totals differ"
        lines.append(
            f"  depth {step.depth}  {_where(step.path):<24} chesskit {ours:>10}  engine {theirs:>10}  {verdict}"
        )
    return lines


def board_lines(fen: str, missing: set[str], extra: set[str]) -> list[str]:
    """The board as text; ``(x)`` marks squares of missing moves, ``[x]`` of extra ones, ``{x}`` both;
    a crazyhouse piece marked promoted gets a ``~`` after it where its square has no mark,
    and a line under the board names all of them."""
    marked = promoted(fen)
    lines = []
    for rank, row in zip(range(8, 0, -1), ranks(fen)):
        cells = []
        for file, piece in zip(FILES, row):
            sq = f"{file}{rank}"
            left, right = (
                ("{", "}")
                if sq in missing and sq in extra
                else ("(", ")") if sq in missing else ("[", "]") if sq in extra else (" ", "~" if sq in marked else " ")
            )
            cells.append(f"{left}{piece}{right}")
        lines.append((f"  {rank} " + "".join(cells)).rstrip())
    lines.append("     " + "  ".join(FILES))
    if marked:
        lines.append(f"  x~ promoted (a pawn again when captured): {' '.join(sorted(marked))}")
    return lines


def _likely_why(report) -> str:
    """What the likely illegal moves of a total-only engine are: the king's steps into
    check, or a pinned piece's moves and en passant (QA 40b #2: king moves were called
    pinned pieces')."""
    from chesskit.board.fen import parse_fen
    from chesskit.vocab import KING, parse_square

    board = parse_fen(report.fen, report.chess960 or None).board
    kings = sum(board[parse_square(move[:2])] & 7 == KING for move in report.likely_extra)
    if kings == len(report.likely_extra):
        return "the king's steps into check: the engine does not test the squares its king moves to"
    pinned = "a pinned piece's, or en passant along a line to the king: the engine does not test its king's safety after them"
    return pinned if not kings else f"the king's steps into check and {pinned}"


def count_lines(report) -> list[str]:
    """What a total-only engine's counts tell about the move lists (nothing for a divide)."""
    if not report.total_only or report.move_counts is None:
        return []
    counts = report.move_counts
    lines = [f"move count here: chesskit {counts['chesskit']}, engine {counts['engine']} (it answers with totals only)"]
    if report.inferred:
        lines.append("the missing moves are inferred: they are the only ones whose counts make up the engine's shortfall")
    if report.unnamed_missing:
        lines.append(f"the engine misses {report.unnamed_missing} move(s); its totals cannot tell which")
    if report.unnamed_extra:
        lines.append(f"the engine generates {report.unnamed_extra} illegal move(s); totals cannot name them")
        if report.likely_extra:
            n = len(report.likely_extra)
            which = "the one move here that leaves" if n == 1 else f"the {n} moves here that leave"
            lines.append(
                f"likely {' '.join(report.likely_extra)}: {which} the king in check, as many as the engine has too "
                f"many ({_likely_why(report)})"
            )
        over = _game_over(report) if counts["chesskit"] == 0 else None
        if over is not None:  # what a divide's extra moves are told (compare/vclassify.py)
            lines.append(f"the game is over here ({over}): the engine plays on")
    return lines


def _game_over(report) -> str | None:
    """Why the game is over at the report's node by its variant's rules, or None."""
    if report.variant == "chess" or not report.fen:
        return None
    from chesskit.board.fen import parse_fen
    from chesskit.board.gameover import game_over
    from chesskit.errors import InputError

    try:
        return game_over(parse_fen(report.fen, report.chess960, variant=report.variant), no_moves=True)
    except InputError:
        return None


def _extra_heading(report) -> str:
    """What the extra rows are: a move listed twice is legal, only listed again."""
    extras = [note for note in report.notes if note.side == "extra"]
    listed = [note for note in extras if LISTING_KINDS & set(note.kinds)]
    if listed and len(listed) == len(extras):
        return "the engine lists, no moves of their own (a move listed twice, a null move)"
    return "the engine generates, they are not legal" + (" (or are listed twice)" if listed else "")


def note_lines(report) -> list[str]:
    lines = count_lines(report)
    for side, moves, what in (
        ("missing", report.missing, "chesskit generates, the engine does not"),
        ("extra", report.extra, _extra_heading(report)),
    ):
        if not moves:
            continue
        lines.append(f"{side} ({len(moves)}): {what}")
        by_hint: dict[str, list] = {}  # the moves of one hint together, the hint said once after them
        for note in (n for n in report.notes if n.side == side):
            by_hint.setdefault(note.hint, []).append(note)
        for hint, notes in by_hint.items():
            for note in notes:
                lines.append(f"  {note.shown:<6} {', '.join(note.kinds) or '-'}")
            lines.append(f"         hint{f' ({len(notes)} moves)' if len(notes) > 1 else ''}: {hint}")
    return lines


def state_lines(report) -> list[str]:
    state = report.state
    if state.field == "walk" and state.move is None:  # a total-only engine
        return [
            f"the engine's own perft of this node gives {state.theirs}",
            f"asked about each move directly its counts add up to {state.ours}",
            f"hint: {state.hint}",
        ]
    if state.field == "walk":
        return [
            f"the engine's divide of the parent gave {state.move}: {state.theirs}",
            f"asked about this node directly it agrees with chesskit: {state.ours}",
            f"hint: {state.hint}",
        ]
    return [
        f"after: {state.op}" + (f" {state.move}" if state.move else ""),
        f"field: {state.field}",
        f"ours: {shown_value(state.ours)}",
        f"theirs: {shown_value(state.theirs)}",
        f"hint: {state.hint}",
    ]


def count_table_lines(report) -> list[str]:
    lines = []
    for step in report.steps:
        lines.append(f"depth {step.depth} after {_where(step.path)}:")
        lines.append(f"  {'move':<7}{'chesskit':>10}{'engine':>10}")
        for move in _rows(step):
            a, b = step.ours.get(move), step.theirs.get(move)
            # a total-only engine's step without counts by move: nothing to tell the rows apart
            flag = "  <" if a != b and step.theirs else ""
            lines.append(f"  {move:<7}{shown_value(a):>10}{shown_value(b):>10}{flag}")
        lines.append(f"  {'total':<7}{sum(step.ours.values()):>10}{step.engine_total():>10}")
    return lines


def fen_lines(report) -> list[str]:
    """Which FEN each side counted, where they differ (nothing where they are the same)."""
    if report.counted_fen == report.position_fen:
        return []
    return [
        "engine counted: the position as given (above)",
        f"chesskit counted: {report.counted_fen} "
        "(as chesskit reads it; --engine-fen chesskit gives the engine this FEN)",
    ]


def failure_lines(report) -> list[str]:
    """Where the engine failed deeper than the difference found (``descent._shallower``)."""
    if report.engine_failure is None:
        return []
    return [
        f"engine failed: {report.engine_failure}",
        f"asked again at shallower depths there, started afresh: at depth {report.depth} it differs (below)",
    ]


def plain_text(report) -> str:
    """The whole report as plain text (pipes, JUnit failure messages)."""
    rules = [] if report.variant == "chess" else [f"variant: {report.variant}"]  # the FEN may read as standard chess
    lines = [
        headline(report), f"engine: {report.engine}", *rules, f"position: {report.position_fen}", *fen_lines(report),
        *failure_lines(report), "",
    ]
    if report.steps:
        lines.append("descent:")
        lines += descent_lines(report)
    if report.state_checked:
        lines.append(state_checked_line(report))
    if report.agree:
        return "\n".join(lines) + "\n"
    lines += ["", f"path: {_where(report.path)}", f"fen: {report.fen}", ""]
    missing, extra = marked_squares(report)
    lines += board_lines(report.fen, missing, extra)
    if report.kind == "state" and extra:
        lines.append(f"  [x] squares of {report.state.move}")
    if report.kind == "moves":
        both = ", {x} of both" if missing & extra else ""  # crazyhouse: two pocket pieces' drops
        lines.append(f"  (x) squares of missing moves, [x] of extra moves{both}")
        lines.append("")
        lines += note_lines(report)
    else:
        lines.append("")
        lines += state_lines(report)
    if report.steps:
        lines += ["", "counts at each step:"]
        lines += count_table_lines(report)
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ rich


def render_terminal(report, con) -> None:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    style = "bold green" if report.agree else "bold red"
    con.print(Text(headline(report), style=style))
    con.print(Text(f"engine {report.engine}", style="dim"))
    con.print(Text(f"position {report.position_fen}", style="dim"))
    for line in fen_lines(report):
        con.print(Text(line, style="yellow"))
    for line in failure_lines(report):
        con.print(Text(line, style="red"))
    if report.steps:
        con.print(_descent_table(report))
    if report.state_checked:
        con.print(
            Text(state_checked_line(report), style="dim")
        )
    if report.agree:
        return

    con.print(Text.assemble(("path ", "dim"), (_where(report.path), "bold")))
    con.print(Text.assemble(("fen  ", "dim"), report.fen))
    missing, extra = marked_squares(report)
    legend = (
        ("missing move", "extra move") if report.kind == "moves" else ("", f"squares of {report.state.move}")
    )
    con.print(_board(con, report.fen, missing, extra, legend))
    if report.kind == "moves":
        notes = Table(box=None, padding=(0, 2), show_header=True)
        for name in ("", "move", "kinds", "likely cause"):
            notes.add_column(name, overflow="fold")
        for note in report.notes:
            colour = "green" if note.side == "missing" else "red"
            notes.add_row(
                Text(note.side, style=colour), Text(note.shown, style="bold"), ", ".join(note.kinds), note.hint
            )
        for line in count_lines(report):
            con.print(Text(line, style="yellow"))
        if report.notes or not report.total_only:
            con.print(
                Panel(notes, title="missing (chesskit only) and extra (engine only) moves", title_align="left")
            )
    else:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim")
        grid.add_column(overflow="fold")
        for line in state_lines(report):
            name, _, value = line.partition(": ")
            grid.add_row(name, value)
        con.print(Panel(grid, title="state mismatch", title_align="left", border_style="red"))
    for step in report.steps:
        con.print(_step_table(step))


def _descent_table(report):
    """One row per step of the descent: its counts and the moves whose counts differ."""
    from rich.table import Table
    from rich.text import Text

    steps = Table(title="descent", title_justify="left", box=None, padding=(0, 2))
    for name, justify in (
        ("depth", "right"),
        ("path", "left"),
        ("chesskit", "right"),
        ("engine", "right"),
        ("differing", "left"),
    ):
        steps.add_column(name, justify=justify, overflow="fold")
    for step in report.steps:
        diff = sorted(step.differing())
        shown = ", ".join(
            f"{m} {shown_value(step.ours.get(m))}/{shown_value(step.theirs.get(m))}" for m in diff[:4]
        )
        steps.add_row(
            str(step.depth),
            _where(step.path),
            f"{sum(step.ours.values()):,}",
            f"{step.engine_total():,}",
            (
                Text(shown + (" ..." if len(diff) > 4 else ""), style="red")
                if diff
                else Text("same", style="green")
                if sum(step.ours.values()) == step.engine_total()
                else Text("totals differ", style="red")
            ),
        )
    return steps


def _step_table(step):
    """One step's divide, chesskit's count beside the engine's, the differing rows red."""
    from rich.table import Table

    table = Table(
        title=f"depth {step.depth} after {_where(step.path)}",
        title_justify="left",
        box=None,
        padding=(0, 2),
    )
    table.add_column("move")
    table.add_column("chesskit", justify="right")
    table.add_column("engine", justify="right")
    for move in _rows(step):
        a, b = step.ours.get(move), step.theirs.get(move)
        row_style = "red" if a != b else None
        table.add_row(move, shown_value(a), shown_value(b), style=row_style)
    table.add_row("total", f"{sum(step.ours.values()):,}", f"{step.engine_total():,}", style="bold")
    return table


def _board(con, fen: str, missing: set[str], extra: set[str], legend: tuple[str, str]):
    from rich.text import Text

    palette = colour_depth(con)
    tier = 0 if palette == "rich" else 1  # index into the colour pairs

    def background(sq: str, light: bool) -> str:
        if sq in missing and sq in extra:
            return BOTH[tier]
        if sq in missing:
            return MISSING[tier]
        if sq in extra:
            return EXTRA[tier]
        return SQUARES[palette][0 if light else 1]

    def brackets(sq: str) -> str:  # NO_COLOR: the plain text's marks, {x} for both
        return "{}" if sq in missing and sq in extra else "()" if sq in missing else "[]" if sq in extra else ""

    board = rich_board(fen, background, brackets if con.no_color else None)
    key = Text()
    for label, colours, pair in zip(legend, (MISSING, EXTRA), ("()", "[]")):
        if label:
            key.append(f"{pair[0]}x{pair[1]}" if con.no_color else "  ", style=f"on {colours[tier]}")
            key.append(f" {label}   ")
    out = Text()
    out.append_text(board)
    if key:
        out.append("\n")
        out.append_text(key)
    return out
