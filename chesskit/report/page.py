"""The HTML page around a report: one self-contained file (its style and its script inline,
no fonts, images or scripts from anywhere else), light and dark (``prefers-color-scheme``)
and printable (``@media print``: every step's panel hidden but the shown one, buttons
drawn as plain text, light colours, a finding never split across pages where it fits).

The script only switches which step of a finding is shown: the page reads whole without it.
"""

from __future__ import annotations

from html import escape

CSS = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0;
  --panel: #f6f8fa; --missing: #15803d; --extra: #dc2626; --differ: #b45309; --link: #0969da;
  --pass: #15803d; --fail: #dc2626; --error: #9a3412; --mark: rgba(234, 179, 8, 0.22); }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
    --missing: #4ade80; --extra: #f87171; --differ: #fbbf24; --link: #4493f8;
    --pass: #4ade80; --fail: #f87171; --error: #fb923c; --mark: rgba(234, 179, 8, 0.16); }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 1.5rem; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; } h2 { font-size: 1.2rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; color: var(--muted); }
a { color: var(--link); }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .9em; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.summary { font-weight: 600; overflow-wrap: anywhere; } /* a FEN in it wraps: a narrow page scrolled sideways */
.finding { border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 1.25rem 0; }
.finding-grid { display: grid; grid-template-columns: minmax(300px, 420px) 1fr; gap: 1.5rem; }
@media (max-width: 800px) { .finding-grid { grid-template-columns: 1fr; } }
.node figure { margin: 0; } .node figcaption { font-size: .85rem; overflow-wrap: anywhere; }
.chessboard { max-width: 100%; height: auto; display: block; }
ol.path { list-style: none; padding-left: 0; margin: 0; }
ol.path button { font: inherit; cursor: pointer; background: none; color: var(--link); border: 1px solid transparent;
  border-radius: 4px; padding: 0 .3rem; }
ol.path button[aria-pressed="true"] { border-color: var(--link); font-weight: 600; }
.badge { display: inline-block; border-radius: 4px; padding: 0 .35rem; font-size: .8rem; font-weight: 600;
  border: 1px solid currentColor; }
.missing { color: var(--missing); } .extra { color: var(--extra); } .differ { color: var(--differ); }
:is(td, p).pass { color: var(--pass); } :is(td, p).mismatch { color: var(--fail); }
:is(td, p):is(.engine-error, .not-run) { color: var(--error); }
table { border-collapse: collapse; font-size: .9rem; }
th, td { border-bottom: 1px solid var(--line); padding: .1rem .6rem; text-align: left; }
td code, td.muted { overflow-wrap: anywhere; } /* a long id or file name wraps, the words of the others stay whole */
td.where span { white-space: nowrap; } /* FILE:LINE breaks after a '/' (<wbr>), each name whole: the column keeps its width */
table.divide { margin-top: .75rem; } table.divide caption { text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.row-missing, tr.row-extra, tr.row-differ { background: var(--mark); }
tr.row-missing td, tr.row-extra td, tr.row-differ td { font-weight: 600; }
ul.notes { padding-left: 1.2rem; margin: 0; } ul.notes li { margin-bottom: .3rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table.positions { width: 100%; }
@media print {
  :root { color-scheme: light; --bg: #fff; --fg: #000; --muted: #444; --line: #999; --panel: #fff; --link: #000;
    --missing: #15803d; --extra: #dc2626; --differ: #b45309; --pass: #15803d; --fail: #dc2626; --error: #9a3412;
    --mark: rgba(234, 179, 8, 0.22); }
  body { max-width: none; padding: 0; font-size: 11pt; }
  .finding { break-inside: avoid; page-break-inside: avoid; }
  .node[hidden] { display: none !important; }
  ol.path button { border: none; padding: 0; color: #000; }
  ol.path button[aria-pressed="true"] { text-decoration: underline; }
  a { text-decoration: none; }
}
"""

# Shows one step of a finding: the panel whose data-step matches the button pressed.
SCRIPT = """
document.querySelectorAll('.finding').forEach(function (finding) {
  var buttons = finding.querySelectorAll('ol.path button');
  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      var step = button.getAttribute('data-step');
      finding.querySelectorAll('.node').forEach(function (node) {
        node.hidden = node.getAttribute('data-step') !== step;
      });
      buttons.forEach(function (other) {
        other.setAttribute('aria-pressed', String(other === button));
      });
    });
  });
});
"""


def esc(text: object) -> str:
    """``text`` as HTML text or an attribute value (quotes escaped too)."""
    return escape(str(text), quote=True)


def page(title: str, body: str) -> str:
    """The whole document: ``body`` is HTML already escaped."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}\n"
        f"<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )
