"""The ``--html FILE`` report of ``compare``, ``fuzz`` and ``suite``: one self-contained page.

Each function takes the command's ``--json`` object with a little context its JSON leaves
out (the CLI adds it, see ``chesskit.cli.html_out``):

- ``crash_html(data)``: compare when the engine failed at a node (see there);
- ``compare_html(data)``: compare's object, plus ``position_fen`` (POSITION, the root of
  the path), ``chess960``, ``engine`` and ``summary`` (see ``chesskit.report.finding``);
- ``fuzz_html(data)``: fuzz's object (its ``position_fen`` is the shrunk root), plus
  ``chess960``, ``engine`` and ``summary``;
- ``suite_html(data)``: suite's object, each result with ``seconds`` and, where an engine
  was compared, its ``compare`` object with compare's context; ``engine`` and, when the
  engine ended the run, ``engine_error`` (``{"id", "error"}``). A result's ``tags`` and a
  result that is an engine error (``engine_error``, or ``error``) are shown when present.

Nothing here counts or runs anything: a path is only replayed to draw its boards.
"""

from __future__ import annotations

import re
from collections import OrderedDict

from chesskit.report.finding import finding_html, regression_html
from chesskit.report.page import esc, page
from chesskit.report.replay import path_fens
from chesskit.report.svg import board_svg
from chesskit.words import plural


def compare_html(data: dict) -> str:
    engine = data.get("engine") or "the engine"
    if data.get("agree"):
        verdict = f"{engine} agrees with chesskit at depth {data.get('depth')}"
        variant = data.get("variant", "chess")
        fen = path_fens(data.get("position_fen"), data.get("chess960"), list(data.get("path") or []), variant)[-1]
        board = board_svg(fen, chess960=data.get("chess960"), variant=variant) if fen else ""
        body = f'<p class="summary pass">{esc(verdict)}</p>\n<div class="finding">{board}<code>{esc(fen or "")}</code></div>'
    else:
        verdict = data.get("summary") or "the engine disagrees with chesskit"
        failure = data.get("engine_failure")  # found asking shallower depths after it (QA 42c)
        heading = f"compare at depth {data.get('depth')}" + (", asked after the engine failed deeper" if failure else "")
        body = finding_html(data, "finding-1", heading)  # its Details give the failure's words

    return _command_page("compare", verdict, body, data.get("variant"))


def _command_page(command: str, verdict: str, body: str, variant: str | None = None) -> str:
    """The page; a variant's (not standard chess) is named under the heading: its FENs may
    read as standard chess (the start position of atomic)."""
    rules = f'<p class="variant">variant: {esc(variant)}</p>' if variant and variant != "chess" else ""
    header = f"<header><h1>chesskit {command}</h1>{rules}</header>"
    return page(f"chesskit {command}: {verdict}", f"{header}\n<main>\n{body}\n</main>")


def crash_html(data: dict) -> str:
    """compare's page when the engine failed at a node: ``path``, ``fen``, ``depth`` (as
    ``EngineError`` gives them), ``position_fen``, ``chess960``, ``engine`` and ``summary``
    (the error's line). The node the engine failed on is a finding too."""
    finding = {**data, "kind": "crash", "steps": [], "regression": None}
    body = finding_html(finding, "finding-1", f"the engine failed at depth {data.get('depth')}")
    return _command_page("compare", data.get('summary', ''), body, data.get("variant"))


def fuzz_html(data: dict) -> str:
    run = (
        f"seed {data.get('seed')}, {plural(data.get('positions', 0), 'position')}, {data.get('nodes', 0):,} nodes compared "
        f"at depths 1-{data.get('depth')} in {data.get('seconds', 0):.1f} s"
    )
    errors = data.get("engine_errors") or []
    if data.get("agree", data.get("fen") is None):
        if errors:  # nothing differed where the engine answered: it still failed (exit 3)
            verdict = f"the engine failed on {plural(len(errors), 'position')}, nothing else differs ({run})"
            body = f'<p class="summary mismatch">{esc(verdict)}</p>'
        else:
            verdict = f"ok: nothing differs ({run})"
            body = f'<p class="summary pass">{esc(verdict)}</p>'
    else:
        verdict = data.get("summary") or "a finding"
        facts = [
            ("seed", esc(data.get("seed"))),
            ("run", esc(run)),
            ("generated", f"<code>{esc(data.get('start_fen'))}</code> <span class=muted>({esc(data.get('source'))})</span>"),
            ("first seen", f"{esc(' '.join(data.get('first_path') or []) or '(start)')}: "
                           f"<code>{esc(data.get('first_fen'))}</code>"),
            ("shrunk position", _shrunk(data)),
        ]
        body = finding_html(data, "finding-1", "fuzz finding: the shrunk position", facts)
    return _command_page("fuzz", verdict, body + _fuzz_engine_errors(errors), data.get("variant"))


def _fuzz_engine_errors(errors: list[dict]) -> str:
    """The generated positions the engine failed on (fuzz's ``engine_errors``), the run having
    gone on: each one's failure, where, and the shrunk position that still fails, if any."""
    if not errors:
        return ""
    items = []
    for error in errors:
        where = " ".join(error.get("path") or []) or "(start)"
        shrunk = ""
        if error.get("shrunk_fen"):
            shrunk = (f"<br>still fails at depth {esc(error.get('shrunk_depth'))} after shrinking: "
                      f"<code>{esc(error['shrunk_fen'])}</code>")
        items.append(
            f"<li>position {esc(error.get('position'))} <span class=muted>({esc(error.get('source'))})</span>: "
            f"{esc(error.get('reason'))}<br><code>{esc(error.get('fen'))}</code>, depth {esc(error.get('depth'))}, "
            f"at {esc(where)}{shrunk}</li>"
        )
    return (f'\n<section class="finding" id="engine-errors"><h2>engine errors: {plural(len(errors), "position")}</h2>'
            f'<ul>{"".join(items)}</ul></section>')


def _shrunk(data: dict) -> str:
    start, shrunk = data.get("start_fen") or "", data.get("position_fen") or ""
    if not data.get("shrunk"):
        return "nothing could go: the generated position is shown"
    pieces = f"{_pieces(start)} &rarr; {_pieces(shrunk)} pieces, {esc(plural(int(data.get('shrink_tried', 0)), 'candidate'))} tried"
    stopped = f"; stopped: {esc(data['shrink_error'])}" if data.get("shrink_error") else ""
    return f"<code>{esc(shrunk)}</code> <span class=muted>({pieces}{stopped}; the path starts here)</span>"


def _pieces(fen: str) -> int:
    return sum(ch.isalpha() for ch in fen.split()[0]) if fen else 0


# ------------------------------------------------------------------ suite


def suite_html(data: dict) -> str:
    groups = _positions(data.get("results") or [])
    # positions the engine failed on, or skipped: by (file, line, id), as the results are
    others = {_key(p): p for p in [*(data.get("engine_errors") or []), *(data.get("skipped") or [])]}
    findings, anchors = [], {}
    for key, entries in groups.items():
        bad = next((e for e in entries if not e.get("ok")), None)
        if bad is not None and key not in others and _status(entries) == "mismatch":
            anchors[key] = f"finding-{len(anchors) + 1}"
            findings.append(_suite_finding(bad, anchors[key], data.get("engine")))
    rows = [(key, _position_row(entries, anchors.get(key), others.get(key))) for key, entries in groups.items()]
    for key, position in others.items():
        if key not in groups:
            rows.append((key, _position_row([position], None, position)))
    broken = data.get("engine_error")
    if broken:
        rows.append(((None, None, None), _error_row(broken.get("id") or "", "", "engine error", broken.get("error", ""))))
    for line in data.get("error_lines") or []:
        where = f"{line.get('file')}:{line.get('line')}" if line.get("line") else str(line.get("file"))
        row = _error_row(line.get("id") or "", where, "not run", line.get("error", ""))
        rows.append(((line.get("file"), line.get("line"), None), row))
    files: dict = {}
    for (file, _, _), _row in rows:
        files.setdefault(file, len(files))
    rows.sort(key=lambda row: (files[row[0][0]], row[0][1] or 0))  # file order, then line order
    verdict = _suite_verdict(data)
    table = (
        '<table class="positions"><thead><tr><th>position</th><th>result</th><th>depths</th><th>tags</th>'
        '<th class="num">time</th><th>file</th></tr></thead>'
        f"<tbody>{''.join(row for _, row in rows)}</tbody></table>"
    )
    # whose counts were checked: a clean report named no engine, only a finding's details did
    counted = f'<p class="muted">counted by {esc(data["engine"])}</p>' if data.get("engine") else ""
    variants = sorted({r["variant"] for r in data.get("results") or [] if r.get("variant", "chess") != "chess"})
    rules = f'<p class="variant">variants: {esc(", ".join(variants))}</p>' if variants else ""
    body = (
        f'<header><h1>chesskit suite</h1><p class="summary {"pass" if verdict[1] else "mismatch"}">'
        f"{esc(verdict[0])}</p>{counted}{rules}</header>\n<main>\n{table}\n{''.join(findings)}</main>"
    )
    return page(f"chesskit suite: {verdict[0]}", body)


def _key(entry: dict) -> tuple:
    return (entry.get("file"), entry.get("line"), entry.get("id"))


def _positions(results: list[dict]) -> "OrderedDict[tuple, list[dict]]":
    groups: OrderedDict[tuple, list[dict]] = OrderedDict()
    for entry in results:
        groups.setdefault((entry.get("file"), entry.get("line"), entry.get("id")), []).append(entry)
    return groups


def _status(entries: list[dict]) -> str:
    if any(e.get("engine_error") or e.get("error") for e in entries):
        return "engine error"
    return "pass" if all(e.get("ok") for e in entries) else "mismatch"


def _position_row(entries: list[dict], anchor: str | None, position: dict | None = None) -> str:
    """One position: its counts' ``entries`` (suite's ``results``), and ``position``, its
    entry in ``engine_errors`` or ``skipped`` when it has one (then its status wins)."""
    first = entries[0]
    status = _status(entries)
    reason = next((e.get("engine_error") or e.get("error") for e in entries if e.get("engine_error") or e.get("error")), "")
    if position is not None:
        status = {"engine-error": "engine error"}.get(position.get("status"), position.get("status") or status)
        reason = position.get("reason") or reason
    depths = [e.get("depth") for e in entries if isinstance(e.get("depth"), int)]
    span = "" if not depths else f"D{min(depths)}" + (f"-D{max(depths)}" if max(depths) != min(depths) else "")
    shown = f'<a href="#{anchor}">{status}</a>' if anchor else esc(status)
    if reason and not isinstance(reason, dict):
        shown += f'<br><span class="muted">{esc(reason)}</span>'
    tags = {tag for e in entries for tag in (e.get("tags") or [])}
    seconds = position.get("seconds") if position is not None and position.get("seconds") is not None else None
    if seconds is None:
        seconds = sum(e.get("seconds") or 0 for e in entries)
    css, where = status.replace(" ", "-"), f"{first.get('file')}:{first.get('line')}"
    variant = first.get("variant", "chess")
    rules = f' <span class="muted">({esc(variant)})</span>' if variant != "chess" else ""
    return (
        f'<tr class="{css}" data-id="{esc(first.get("id"))}"><td><code>{esc(first.get("id"))}</code>{rules}</td>'
        f'<td class="{css}">{shown}</td><td>{span}</td><td>{esc(" ".join(sorted(tags)))}</td>'
        f'<td class="num">{seconds:.3f} s</td>{_where_cell(where)}</tr>'
    )


def _where_cell(where: str) -> str:
    """The file column's cell for ``FILE:LINE``: a long path breaks after a ``/`` (``<wbr>``),
    each folder's or the file's name kept whole (``td.where span``: not at a '-' either)
    unless it is longer than 40 characters."""
    parts = [esc(part) for part in re.split(r"(?<=[/\\])", where) if part]
    shown = "<wbr>".join(part if len(part) > 40 else f"<span>{part}</span>" for part in parts)
    return f'<td class="muted where">{shown}</td>'


def _error_row(ident: str, where: str, status: str, why: str, seconds: float | None = None) -> str:
    css = status.replace(" ", "-")
    time = "" if seconds is None else f"{seconds:.3f} s"
    return (
        f'<tr class="{css}" data-id="{esc(ident)}"><td><code>{esc(ident)}</code></td><td class="{css}">{esc(status)}'
        f'<br><span class="muted">{esc(why)}</span></td><td></td><td></td><td class="num">{time}</td>'
        f"{_where_cell(where)}</tr>"
    )


def _suite_verdict(data: dict) -> tuple[str, bool]:
    passed, failed, errors = data.get("passed", 0), data.get("failed", 0), data.get("errors", 0)
    text = f"{plural(passed, 'count')} passed, {failed} failed"
    if errors:
        text += f", {plural(errors, 'line')} not run"
    engine_errors = len(data.get("engine_errors") or [])
    if engine_errors:
        text += f", {plural(engine_errors, 'engine error')}"
    if data.get("engine_error"):
        text += f"; the engine failed: {data['engine_error'].get('error', '')}"
    tally = data.get("positions")
    if isinstance(tally, dict):  # suite's count of positions by outcome
        kept = [(name, n) for name, n in tally.items() if n or name in ("passed", "mismatched")]
        # "1 error", "2 engine errors"; "passed", "skipped", "not run" read the same for one
        shown = ", ".join(f"{n} {name.replace('_', ' ').removesuffix('s' if n == 1 else '')}" for name, n in kept)
        text = f"positions: {shown}; counts: {text.replace(plural(passed, 'count') + ' passed', f'{passed} passed', 1)}"
    return text, not failed and not errors and not engine_errors and not data.get("engine_error")


def _suite_finding(entry: dict, anchor: str, engine: str | None = None) -> str:
    ident, depth = entry.get("id"), entry.get("depth")
    heading = f"{ident} at depth {depth}: expected {entry.get('expected', 0):,}, counted {entry.get('nodes', 0):,}"
    where = [
        ("file", f"{esc(entry.get('file'))}:{esc(entry.get('line'))}"),
        ("position", f"<code>{esc(entry.get('fen'))}</code>"),
    ]
    report = entry.get("compare")
    given = {"regression": entry["regression"]} if "regression" in entry else {}  # suite's, where it has one
    if report is not None and not report.get("agree"):
        return finding_html({"id": ident, **report, **given}, anchor, heading, where)
    if report is not None:
        why = "chesskit agrees with the engine here: the suite's expected count is in doubt"
    elif entry.get("stats_mismatch"):
        diffs = ", ".join(f"{k} expected {v['expected']:,}, got {v['actual']:,}" for k, v in entry["stats_mismatch"].items())
        why = f"the leaf counters differ: {diffs}"
    elif engine:  # compare's descent did not end: the run was interrupted in it, or the engine failed there
        why = f"{engine}'s count differs from the suite's; compare's descent to the move where it goes wrong did not finish"
    else:
        why = "chesskit's count differs from the suite's: the expected count or chesskit is wrong"
    board = board_svg(entry["fen"], variant=entry.get("variant", "chess")) if entry.get("fen") else ""
    divide = entry.get("divide") or {}
    rows = "".join(f'<tr><td><code>{esc(m)}</code></td><td class="num">{n:,}</td></tr>' for m, n in divide.items())
    counter = "the engine" if engine else "chesskit"
    caption = f'<caption class="muted">{counter}\'s divide at depth {esc(depth)}</caption>'
    table = f'<table class="divide">{caption}<tbody>{rows}</tbody></table>' if rows else ""
    facts = "".join(f"<dt>{esc(name)}</dt><dd>{value}</dd>" for name, value in where)
    regression = regression_html(entry.get("regression"))
    return (
        f'<section class="finding" id="{esc(anchor)}"><h2>{esc(heading)}</h2><p class="summary mismatch">{esc(why)}</p>'
        f'<div class="finding-grid"><div class="boards">{board}</div><div class="details"><dl class="facts">{facts}</dl>'
        f"{regression}{table}</div></div></section>\n"
    )
