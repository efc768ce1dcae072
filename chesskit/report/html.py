"""The ``--html FILE`` report of ``compare``, ``fuzz`` and ``suite``: one self-contained page.

Each function takes the command's ``--json`` object with a little context its JSON leaves
out (the CLI adds it, see ``chesskit.cli.html_out``):

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

from collections import OrderedDict

from chesskit.report.finding import finding_html
from chesskit.report.page import esc, page
from chesskit.report.replay import path_fens
from chesskit.report.svg import board_svg


def compare_html(data: dict) -> str:
    engine = data.get("engine") or "the engine"
    if data.get("agree"):
        verdict = f"{engine} agrees with chesskit at depth {data.get('depth')}"
        fen = path_fens(data.get("position_fen"), data.get("chess960"), list(data.get("path") or []))[-1]
        board = board_svg(fen, chess960=data.get("chess960")) if fen else ""
        body = f'<p class="summary pass">{esc(verdict)}</p>\n<div class="finding">{board}<code>{esc(fen or "")}</code></div>'
    else:
        verdict = data.get("summary") or "the engine disagrees with chesskit"
        body = finding_html(data, "finding-1", f"compare at depth {data.get('depth')}")
    return page(f"chesskit compare: {verdict}", f"<header><h1>chesskit compare</h1></header>\n<main>\n{body}\n</main>")


def fuzz_html(data: dict) -> str:
    run = (
        f"seed {data.get('seed')}, {data.get('positions', 0):,} positions, {data.get('nodes', 0):,} nodes compared "
        f"at depths 1-{data.get('depth')} in {data.get('seconds', 0):.1f} s"
    )
    if data.get("agree", data.get("fen") is None):
        verdict = f"ok: nothing differs ({run})"
        body = f'<p class="summary pass">{esc(verdict)}</p>'
    else:
        verdict = data.get("summary") or "a finding"
        facts = [
            ("seed", esc(data.get("seed"))),
            ("run", esc(run)),
            ("generated", f"<code>{esc(data.get('start_fen'))}</code> <span class=muted>({esc(data.get('source'))})</span>"),
            ("first seen", f"{esc(' '.join(data.get('first_path') or []) or '(start)')}: <code>{esc(data.get('first_fen'))}</code>"),
            ("shrunk position", _shrunk(data)),
        ]
        body = finding_html(data, "finding-1", "fuzz finding: the shrunk position", facts)
    return page(f"chesskit fuzz: {verdict}", f"<header><h1>chesskit fuzz</h1></header>\n<main>\n{body}\n</main>")


def _shrunk(data: dict) -> str:
    start, shrunk = data.get("start_fen") or "", data.get("position_fen") or ""
    if not data.get("shrunk"):
        return "nothing could go: the generated position is shown"
    pieces = f"{_pieces(start)} &rarr; {_pieces(shrunk)} pieces, {esc(data.get('shrink_tried', 0))} candidates tried"
    stopped = f"; stopped: {esc(data['shrink_error'])}" if data.get("shrink_error") else ""
    return f"<code>{esc(shrunk)}</code> <span class=muted>({pieces}{stopped}; the path starts here)</span>"


def _pieces(fen: str) -> int:
    return sum(ch.isalpha() for ch in fen.split()[0]) if fen else 0


# ------------------------------------------------------------------ suite


def suite_html(data: dict) -> str:
    groups = _positions(data.get("results") or [])
    findings, anchors = [], {}
    for key, entries in groups.items():
        bad = next((e for e in entries if not e.get("ok")), None)
        if bad is not None and _status(entries) == "mismatch":
            anchors[key] = f"finding-{len(anchors) + 1}"
            findings.append(_suite_finding(bad, anchors[key]))
    rows = [_position_row(entries, anchors.get(key)) for key, entries in groups.items()]
    broken = data.get("engine_error")
    if broken:
        rows.append(_error_row(broken.get("id") or "", "", "engine error", broken.get("error", "")))
    for line in data.get("error_lines") or []:
        where = f"{line.get('file')}:{line.get('line')}" if line.get("line") else str(line.get("file"))
        rows.append(_error_row(line.get("id") or "", where, "not run", line.get("error", "")))
    verdict = _suite_verdict(data)
    table = (
        '<table class="positions"><thead><tr><th>position</th><th>result</th><th>depths</th><th>tags</th>'
        '<th class="num">time</th><th>file</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    body = (
        f'<header><h1>chesskit suite</h1><p class="summary {"pass" if verdict[1] else "mismatch"}">'
        f"{esc(verdict[0])}</p></header>\n<main>\n{table}\n{''.join(findings)}</main>"
    )
    return page(f"chesskit suite: {verdict[0]}", body)


def _positions(results: list[dict]) -> "OrderedDict[tuple, list[dict]]":
    groups: OrderedDict[tuple, list[dict]] = OrderedDict()
    for entry in results:
        groups.setdefault((entry.get("file"), entry.get("line"), entry.get("id")), []).append(entry)
    return groups


def _status(entries: list[dict]) -> str:
    if any(e.get("engine_error") or e.get("error") for e in entries):
        return "engine error"
    return "pass" if all(e.get("ok") for e in entries) else "mismatch"


def _position_row(entries: list[dict], anchor: str | None) -> str:
    first = entries[0]
    status = _status(entries)
    depths = [e.get("depth") for e in entries if e.get("depth") is not None]
    span = "" if not depths else f"D{min(depths)}" + (f"-D{max(depths)}" if max(depths) != min(depths) else "")
    shown = f'<a href="#{anchor}">{status}</a>' if anchor else esc(status)
    reason = next((e.get("engine_error") or e.get("error") for e in entries if e.get("engine_error") or e.get("error")), "")
    if reason:
        shown += f'<br><span class="muted">{esc(reason)}</span>'
    tags = {tag for e in entries for tag in (e.get("tags") or [])}
    seconds = sum(e.get("seconds") or 0 for e in entries)
    return (
        f'<tr class="{status.replace(" ", "-")}" data-id="{esc(first.get("id"))}"><td><code>{esc(first.get("id"))}</code></td>'
        f'<td class="{status.replace(" ", "-")}">{shown}</td><td>{span}</td><td>{esc(" ".join(sorted(tags)))}</td>'
        f'<td class="num">{seconds:.3f} s</td><td class="muted">{esc(first.get("file"))}:{esc(first.get("line"))}</td></tr>'
    )


def _error_row(ident: str, where: str, status: str, why: str) -> str:
    css = status.replace(" ", "-")
    return (
        f'<tr class="{css}" data-id="{esc(ident)}"><td><code>{esc(ident)}</code></td><td class="{css}">{esc(status)}'
        f'<br><span class="muted">{esc(why)}</span></td><td></td><td></td><td></td><td class="muted">{esc(where)}</td></tr>'
    )


def _suite_verdict(data: dict) -> tuple[str, bool]:
    passed, failed, errors = data.get("passed", 0), data.get("failed", 0), data.get("errors", 0)
    text = f"{_plural(passed, 'count')} passed, {failed} failed"
    if errors:
        text += f", {_plural(errors, 'line')} not run"
    if data.get("engine_error"):
        text += f"; the engine failed: {data['engine_error'].get('error', '')}"
    return text, not failed and not errors and not data.get("engine_error")


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _suite_finding(entry: dict, anchor: str) -> str:
    ident, depth = entry.get("id"), entry.get("depth")
    heading = f"{ident} at depth {depth}: expected {entry.get('expected', 0):,}, counted {entry.get('nodes', 0):,}"
    where = [("file", f"{esc(entry.get('file'))}:{esc(entry.get('line'))}"), ("position", f"<code>{esc(entry.get('fen'))}</code>")]
    report = entry.get("compare")
    if report is not None and not report.get("agree"):
        return finding_html({"id": ident, **report}, anchor, heading, where)
    if report is not None:
        why = "chesskit agrees with the engine here: the suite's expected count is in doubt"
    elif entry.get("stats_mismatch"):
        diffs = ", ".join(f"{k} expected {v['expected']:,}, got {v['actual']:,}" for k, v in entry["stats_mismatch"].items())
        why = f"the leaf counters differ: {diffs}"
    else:
        why = "chesskit's count differs from the suite's: the expected count or chesskit is wrong"
    board = board_svg(entry["fen"]) if entry.get("fen") else ""
    divide = entry.get("divide") or {}
    rows = "".join(f'<tr><td><code>{esc(m)}</code></td><td class="num">{n:,}</td></tr>' for m, n in divide.items())
    table = f'<table class="divide"><caption class="muted">chesskit\'s divide at depth {esc(depth)}</caption><tbody>{rows}</tbody></table>' if rows else ""
    facts = "".join(f"<dt>{esc(name)}</dt><dd>{value}</dd>" for name, value in where)
    return (
        f'<section class="finding" id="{esc(anchor)}"><h2>{esc(heading)}</h2><p class="summary mismatch">{esc(why)}</p>'
        f'<div class="finding-grid"><div class="boards">{board}</div><div class="details"><dl class="facts">{facts}</dl>'
        f"{table}</div></div></section>\n"
    )
