"""One finding of a report: what ``compare`` found, drawn.

``finding_html(data, anchor, heading)`` takes compare's ``--json`` object (``path``,
``fen``, ``steps``, ``missing``, ``extra``, ``notes``, ``kind``, the state keys, and
``position_notes``) and the context its JSON leaves out: ``position_fen`` (the root the
path starts from), ``chess960``, ``engine`` and ``summary`` (``Report.summary()``). A
``regression`` key, when present, is the regression line as given (its ``block`` instead,
for a mismatch in a ``.perft`` suite: ``regression_html``); otherwise it is built from the
failing node's step (``regression_line``).

The section has the failing node's board with the missing moves as green arrows and the
extra ones as red arrows, the move path as a list of buttons (each shows its node's board,
the move followed next as a blue arrow, and both divides of that node side by side with
the differing rows marked), the classification and its hints, and the regression line.
"""

from __future__ import annotations

from chesskit.report.page import esc
from chesskit.report.replay import path_fens
from chesskit.report.svg import Arrow, board_svg


def finding_html(data: dict, anchor: str, heading: str, extra_facts: list[tuple[str, str]] = ()) -> str:
    path = list(data.get("path") or [])
    fens = path_fens(data.get("position_fen") or data.get("fen"), data.get("chess960"), path, data.get("variant", "chess"))
    if fens[-1] is None and data.get("fen"):
        fens[-1] = data["fen"]  # the failing node's own FEN, whatever the replay could do
    steps = {tuple(step["path"]): step for step in data.get("steps") or []}
    last = len(path)
    panels = [_node_panel(data, path, i, fens[i], steps.get(tuple(path[:i])), i == last) for i in range(last + 1)]
    facts = [*extra_facts, *_facts(data)]
    return (
        f'<section class="finding" id="{esc(anchor)}">\n<h2>{esc(heading)}</h2>\n'
        f'<p class="summary mismatch">{esc(data.get("summary") or _summary(data))}</p>\n'
        '<div class="finding-grid">\n'
        f'<div class="boards">{"".join(panels)}</div>\n<div class="details">\n'
        f"<h3>Move path</h3>\n{_path_list(path, steps, fens[0])}\n"
        f"{_classification(data)}{_facts_html(facts)}{_regression(data, fens)}"
        "</div>\n</div>\n</section>\n"
    )


def _summary(data: dict) -> str:
    where = " ".join(data.get("path") or []) or "(start)"
    return f"the engine and chesskit disagree after {where}"


def _node_panel(data: dict, path: list[str], i: int, fen: str | None, step: dict | None, failing: bool) -> str:
    arrows = []
    if failing and data.get("kind") == "moves":
        arrows = [Arrow(m, "missing") for m in data.get("missing") or []]
        # a move listed twice ("e1f2 (listed twice)") has its arrow too
        arrows += [Arrow(m.split(" (")[0], "extra") for m in data.get("extra") or []]
    elif not failing:
        arrows = [Arrow(path[i], "path")]
    last_move = path[i - 1] if i else None
    board = (
        board_svg(fen, arrows, last_move, chess960=data.get("chess960"), variant=data.get("variant", "chess"))
        if fen
        else '<p class="muted">(this node could not be set up)</p>'
    )
    where = "the failing node" if failing else ("the start" if i == 0 else f"after {' '.join(path[:i])}")
    caption = f"{where}: <code>{esc(fen or '?')}</code>"
    divide = _divide_table(step) if step is not None else ""
    hidden = "" if failing else " hidden"
    return (
        f'<div class="node" data-step="{i}"{hidden}><figure>{board}<figcaption>{caption}</figcaption></figure>'
        f"{divide}</div>\n"
    )


def _path_list(path: list[str], steps: dict, start_fen: str | None) -> str:
    items = []
    for i in range(len(path) + 1):
        step = steps.get(tuple(path[:i]))
        label = "start" if i == 0 else f"{_move_number(start_fen, i - 1)} {path[i - 1]}"
        at = f' <span class="muted">depth {step["depth"]}</span>' if step is not None else ""
        pressed = "true" if i == len(path) else "false"
        items.append(f'<li><button type="button" data-step="{i}" aria-pressed="{pressed}">{esc(label)}</button>{at}</li>')
    return f'<ol class="path">{"".join(items)}</ol>'


def _move_number(start_fen: str | None, ply: int) -> str:
    """``9.`` or ``9...``: the number of the path's ``ply``-th move (from 0) as a game
    writes it, from the start FEN's side to move and fullmove number (its last field;
    "2. c7c5" read as white's second move where it was black's reply in move 1)."""
    fields = (start_fen or "").split()
    black_first = fields[1:2] == ["b"]
    first = int(fields[-1]) if len(fields) >= 6 and fields[-1].isdigit() else 1
    turn = ply + black_first
    return f"{max(first, 1) + turn // 2}{'...' if turn % 2 else '.'}"


# the order of a divide table's rows: the moves one side lacks (most often the bug itself),
# then the counts that differ, then the rest; by move within each
_ROW_ORDER = {"missing": 0, "extra": 0, "differ": 1, "": 2}


def _divide_table(step: dict) -> str:
    """chesskit's divide and the engine's, side by side; the rows that differ marked, those
    of the missing and extra moves first (``_ROW_ORDER``)."""
    ours, theirs = step.get("ours") or {}, step.get("theirs") or {}
    rows = []
    for move in {*ours, *theirs}:
        a, b = ours.get(move), theirs.get(move)
        if a is None:
            mark = "extra"
        elif b is None:
            mark = "missing" if theirs or step.get("theirs_total") is None else ""
        else:
            mark = "differ" if a != b else ""
        row = f' class="row-{mark}"' if mark else ""
        badge = f'<span class="badge {mark}">{"differs" if mark == "differ" else mark}</span>' if mark else ""
        rows.append((
            (_ROW_ORDER[mark], move),
            f"<tr{row} data-move=\"{esc(move)}\"><td><code>{esc(move)}</code></td>"
            f'<td class="num">{_count(a)}</td><td class="num">{_count(b)}</td><td>{badge}</td></tr>',
        ))
    total_theirs = step.get("theirs_total", sum(theirs.values()))
    return (
        f'<table class="divide"><caption class="muted">divide at depth {esc(step.get("depth"))}</caption>'
        '<thead><tr><th>move</th><th class="num">chesskit</th><th class="num">engine</th><th></th></tr></thead>'
        f"<tbody>{''.join(row for _, row in sorted(rows))}</tbody><tfoot><tr><th>total</th><th class=\"num\">{_count(sum(ours.values()))}</th>"
        f'<th class="num">{_count(total_theirs)}</th><th></th></tr></tfoot></table>'
    )


def _shown_move(note: dict) -> str:
    """A JSON note's move beside its kinds: a row listed twice (``e1f2 (listed twice)``) by
    its move alone, its kind saying it (the words came twice)."""
    move = note.get("move", "")
    for kind in note.get("kinds") or []:
        move = move.removesuffix(f" ({kind})")
    return move


def _count(n) -> str:
    return "&ndash;" if n is None else f"{n:,}"


def _classification(data: dict) -> str:
    items = []
    for note in data.get("notes") or []:
        side = note.get("side", "")
        kinds = ", ".join(note.get("kinds") or [])
        items.append(
            f'<li><span class="badge {esc(side)}">{esc(side)}</span> <code>{esc(_shown_move(note))}</code>'
            f'{f" <span class=muted>({esc(kinds)})</span>" if kinds else ""}<br>{esc(note.get("hint", ""))}</li>'
        )
    if data.get("kind") == "state":
        items.append(
            f'<li><span class="badge differ">state</span> {esc(data.get("field"))}: chesskit '
            f"<code>{esc(_shown(data.get('ours')))}</code>, engine <code>{esc(_shown(data.get('theirs')))}</code>"
            f"{_after(data)}<br>{esc(data.get('hint') or '')}</li>"
        )
    for note in data.get("position_notes") or []:
        items.append(f'<li><span class="badge differ">position</span> {esc(note)}</li>')
    if not items:
        return ""
    return f'<h3>Classification</h3>\n<ul class="notes">{"".join(items)}</ul>\n'


def _shown(value) -> str:
    return "-" if value is None else str(value)


def _after(data: dict) -> str:
    op, move = data.get("op"), data.get("move")
    if not op or op == "walk":
        return ""
    return f" after {esc(op)} <code>{esc(move)}</code>" if move else f" after {esc(op)}"


def _facts(data: dict) -> list[tuple[str, str]]:
    facts = []
    if data.get("engine"):
        facts.append(("engine", esc(data["engine"])))
    if data.get("variant", "chess") != "chess":  # its FENs may read as standard chess
        facts.append(("variant", esc(data["variant"])))
    if data.get("chess960"):  # Shredder-FEN castling says it, but not to every reader (QA 41c)
        facts.append(("rules", "Chess960"))
    if data.get("engine_failure"):  # the difference was found after it, at shallower depths
        facts.append(("engine failed", esc(data["engine_failure"])))
    if data.get("depth") is not None and "seed" not in data:  # fuzz gives its depths in its run line
        facts.append(("depth", esc(data["depth"])))
    if data.get("total_only"):
        counts = data.get("move_counts") or {}
        facts.append(("engine answers", "totals only" + (f" (moves: chesskit {counts.get('chesskit')}, engine "
                                                         f"{counts.get('engine')})" if counts else "")))
    return facts


def _facts_html(facts: list[tuple[str, str]]) -> str:
    if not facts:
        return ""
    rows = "".join(f"<dt>{esc(name)}</dt><dd>{value}</dd>" for name, value in facts)
    return f'<h3>Details</h3>\n<dl class="facts">{rows}</dl>\n'


def _regression(data: dict, fens: list[str | None]) -> str:
    """The regression line (and pytest test) given as ``regression`` (compare's
    ``Regression.to_json()``, or a line; None: there is none), else one built here."""
    return regression_html(data["regression"] if "regression" in data else _built_line(data, fens))


def regression_html(given: dict | str | None) -> str:
    """The regression a command's JSON gives (``{"line", "pytest"}``, or a line; None: none)
    as the text shows it: its ``.perft`` ``block`` where it has one (a mismatch in a
    ``.perft`` suite, where an EPD line is no line), else its suite line; then its test."""
    found = given if isinstance(given, dict) else {"line": given}
    if found.get("block"):  # a block's text ends with a newline, as the file's lines do
        heading, where, pasted = "Regression block", "paste into your .perft suite", found["block"].rstrip("\n")
    else:
        heading, where, pasted = "Regression line", "paste into your suite", found.get("line")
    if not pasted:
        return ""
    html = f'<h3>{heading} <span class="muted">({where})</span></h3>\n<pre class="regression">{esc(pasted)}</pre>\n'
    test = found.get("pytest")
    if test:
        html += f'<h3>pytest</h3>\n<pre class="pytest">{esc(test)}</pre>\n'
    return html


def _built_line(data: dict, fens: list[str | None]) -> str:
    """The deepest node whose totals differ, with chesskit's count there."""
    for step in reversed(data.get("steps") or []):
        theirs = step.get("theirs_total", sum((step.get("theirs") or {}).values()))
        if sum((step.get("ours") or {}).values()) != theirs:
            depth = len(step["path"])
            fen = fens[depth] if depth < len(fens) else None
            line = regression_line(fen, step, data.get("id") or "regression")
            if line and data.get("chess960"):
                line += "  # Chess960: in a file whose name has 960 in it, or in Shredder-FEN"
            return line
    return ""


def regression_line(fen: str | None, step: dict | None, ident: str) -> str:
    """A node both sides divided, as an EPD suite line with chesskit's count at the depth of
    that divide (``FEN id "..."; D2 1234;``), or "" when chesskit has no count there."""
    if not fen or step is None or not step.get("ours"):
        return ""
    fields = fen.split()
    ops = [f'id "{ident}"']
    if len(fields) == 6 and (fields[4], fields[5]) != ("0", "1"):
        ops += [f"hmvc {fields[4]}", f"fmvn {fields[5]}"]
    ops.append(f"D{step['depth']} {sum(step['ours'].values())}")
    return " ".join(fields[:4]) + " " + "; ".join(ops) + ";"
