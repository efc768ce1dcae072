"""The explorer's divides, breadcrumb and findings as plain text lines (the REPL prints them;
the app shows the same words in its panels)."""

from __future__ import annotations

from chesskit.explore.state import Divide

# how each marked row is labelled
MARKS = {"differs": "differs", "missing": "missing", "extra": "extra"}


def count(value: int | None) -> str:
    return "-" if value is None else str(value)


def divide_lines(divide: Divide, engine_name: str | None, only_marked: bool = False) -> list[str]:
    """A divide as aligned columns (move, SAN, chesskit[, engine], mark) and a total line."""
    engine = divide.theirs is not None or engine_name is not None
    rows = [row for row in divide.rows() if row.marked or not only_marked]
    header = ["move", "SAN", "chesskit"] + (["engine"] if engine else [])
    table = [header]
    for row in rows:
        cells = [row.move, row.san, count(row.ours)]
        if engine:
            cells.append(count(row.theirs) if divide.by_move else "")
        table.append(cells + [MARKS.get(row.status, "")])
    total = ["total", "", str(divide.total)]
    if engine:
        total.append(count(divide.engine_total))
    verdict = {True: "", False: "differs", None: ""}[divide.agree]
    table.append(total + [verdict])
    widths = [max(len(r[i]) for r in table if i < len(r)) for i in range(len(header))]
    lines = []
    for r in table:
        cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1])] + [c.rjust(w) for c, w in zip(r[2:], widths[2:])]
        mark = r[len(header)] if len(r) > len(header) else ""
        lines.append("  ".join(cells + ([mark] if mark else [])).rstrip())
    return lines


def breadcrumb(labels: list[tuple[str, str]]) -> str:
    """``start > 1. e4 (e2e4) > 1... e5 (e7e5)``."""
    return " > ".join(["start"] + [f"{label} ({uci})" for label, uci in labels])


def finding_lines(report) -> list[str]:
    """What compare's descent found: its one-line summary, then each classified move's hint."""
    lines = [report.summary()]
    for note in report.notes:
        kinds = ", ".join(note.kinds)
        lines.append(f"{note.side} {note.shown}" + (f" ({kinds})" if kinds else "") + (f": {note.hint}" if note.hint else ""))
    if report.state is not None and report.state.hint:
        lines.append(report.state.hint)
    return lines
