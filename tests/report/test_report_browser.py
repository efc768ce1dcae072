"""The reports in a real browser (headless Chromium, one per module, see conftest.py): each
page loads from disk with no console error, no exception and no request for anything but
the file itself; the shown board has 64 squares and the expected arrows; the path's buttons
switch the board; dark mode and print styles apply; a screenshot and a PDF come out.
Skipped, naming the package, where no Chromium is installed (a failure in CI)."""

from __future__ import annotations

import pytest

from conftest import BARE_KINGS, EP_BELOW
from helpers import ENGINES

SHOWN = ".node:not([hidden])"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def page(browser, reports):
    opened = []

    def open_page(name: str, **options):
        result = browser.open(getattr(reports, name) if isinstance(name, str) and hasattr(reports, name) else name, **options)
        opened.append(result)
        return result

    yield open_page
    for page in opened:
        page.close()


def _luminance(css_colour: str) -> float:
    r, g, b = (int(x) for x in css_colour[css_colour.index("(") + 1 : css_colour.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def test_compare_report_loads_cleanly_with_the_board_and_its_arrows(page, reports, tmp_path):
    shown = page("compare")
    assert shown.problems() == []
    assert shown.eval(f"document.querySelectorAll('{SHOWN} svg rect.square').length") == 64
    arrows = shown.eval(
        f"[...document.querySelectorAll('{SHOWN} svg g.arrow')].map(g => [g.dataset.move, g.getAttribute('class'),"
        " getComputedStyle(g).fill])"
    )
    assert arrows == [["e5f6", "arrow missing", "rgb(21, 128, 61)"]]  # green
    # the board is drawn: it has a size on the page
    width = shown.eval(f"document.querySelector('{SHOWN} svg').getBoundingClientRect().width")
    assert width > 200
    assert shown.screenshot(tmp_path / "compare.png").startswith(PNG)


def test_each_step_of_the_path_shows_its_board(page):
    shown = page("compare")
    visible = f"[...document.querySelectorAll('{SHOWN}')].map(n => n.dataset.step)"
    assert shown.eval(visible) == ["1"]
    shown.eval("document.querySelector('ol.path button[data-step=\"0\"]').click()")
    assert shown.eval(visible) == ["0"]
    assert EP_BELOW in shown.eval(f"document.querySelector('{SHOWN} figcaption').textContent")
    assert shown.eval(f"[...document.querySelectorAll('{SHOWN} g.arrow')].map(g => g.dataset.move)") == ["f7f5"]
    assert shown.eval(f"document.querySelectorAll('{SHOWN} rect.square').length") == 64
    pressed = "[...document.querySelectorAll('ol.path button')].map(b => b.getAttribute('aria-pressed'))"
    assert shown.eval(pressed) == ["true", "false"]
    assert shown.problems() == []


def test_dark_mode_and_print(page, browser):
    light = _luminance(page("compare").eval("getComputedStyle(document.body).backgroundColor"))
    dark_page = page("compare", dark=True)
    dark = _luminance(dark_page.eval("getComputedStyle(document.body).backgroundColor"))
    text = _luminance(dark_page.eval("getComputedStyle(document.body).color"))
    assert light > 0.9 and dark < 0.15 and text > 0.8
    dark_page.send("Emulation.setEmulatedMedia", {"media": "print", "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    assert _luminance(dark_page.eval("getComputedStyle(document.body).backgroundColor")) > 0.9  # prints light
    # in the light palette: the dark one's pale red would not read on paper
    assert dark_page.eval("getComputedStyle(document.querySelector('p.summary')).color") == "rgb(220, 38, 38)"
    assert dark_page.eval("[...document.querySelectorAll('.node')].map(n => getComputedStyle(n).display)") == ["none", "block"]
    assert dark_page.pdf().startswith(b"%PDF")
    assert dark_page.problems() == []


def test_suite_report_table_links_to_its_finding(page, tmp_path):
    shown = page("suite")
    assert shown.problems() == []
    rows = shown.eval("[...document.querySelectorAll('table.positions tbody tr')].map(r => [r.dataset.id, r.className])")
    assert sorted(rows) == [["bare-kings", "pass"], ["broken", "not-run"], ["ep-below", "mismatch"]]
    shown.eval("document.querySelector('table.positions a').click()")
    assert shown.eval("location.hash") == "#finding-1"
    assert shown.eval("document.querySelectorAll('#finding-1 .node:not([hidden]) rect.square').length") == 64
    assert shown.eval("[...document.querySelectorAll('#finding-1 .node:not([hidden]) g.arrow')].map(g => g.dataset.move)") == ["e5f6"]
    assert shown.screenshot(tmp_path / "suite.png").startswith(PNG)


def test_show_svg_opens_alone(page, cli, tmp_path):
    out = tmp_path / "board.svg"
    assert cli("show", EP_BELOW, "--moves", "f7f5", "--svg", str(out)).exit_code == 0
    shown = page(out)
    assert shown.problems() == []
    assert shown.eval("document.querySelectorAll('rect.square').length") == 64
    assert shown.eval("document.querySelectorAll('text.piece').length") == 32


def test_the_checks_catch_a_broken_page(page, tmp_path):
    """What the tests above assert absent is seen when present: a console error, an uncaught
    exception and a request for something on the network."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!DOCTYPE html><html><body><img src='http://127.0.0.1:9/x.png'>"
        "<script>console.error('broken'); throw new Error('thrown');</script></body></html>"
    )
    found = "\n".join(page(bad).problems())
    assert "console error" in found and "thrown" in found and "request: http://127.0.0.1:9/x.png" in found


def test_a_long_id_wraps_and_the_page_keeps_its_width(page, cli, tmp_path):
    # a 150-character id stretched the suite table and the finding's heading past the window
    # (a horizontal scrollbar); the other columns' words must stay whole
    suite = tmp_path / "long.epd"
    suite.write_text(f"{BARE_KINGS} ;D1 4 ;id \"{'x' * 150}\"\n")  # 3 is right: a mismatch, a finding
    out = tmp_path / "long.html"
    assert cli("suite", str(suite), "--html", str(out)).exit_code == 1
    shown = page(out, width=1000)
    assert shown.problems() == []
    assert shown.eval("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    heads = shown.eval("[...document.querySelectorAll('table.positions th')].map(th => th.getBoundingClientRect().height)")
    assert max(heads) < 1.9 * min(heads)  # no header broken over two lines ('resul t')


def test_a_long_path_in_the_file_column_breaks_only_after_a_slash(page, cli, tmp_path):
    # beside a long id the file column shrank to a few letters: '/tmp/qa3', '0w/h.epd', ':1'
    folder = tmp_path / "suites-of-mine" / "regressions"
    folder.mkdir(parents=True)
    suite = folder / "castling-bugs.epd"
    suite.write_text(f"{BARE_KINGS} ;D1 4 ;id \"{'x' * 200}\"\nnot a FEN ;D1 1\n")  # 3 is right
    out = tmp_path / "paths.html"
    assert cli("suite", str(suite), "--html", str(out)).exit_code == 1
    shown = page(out, width=1000)
    assert shown.problems() == []
    # each piece of the path between two '/' (the last with its ':line') lies on one line
    pieces = shown.eval(
        "[...document.querySelectorAll('table.positions tbody tr')].map(tr => [...tr.lastElementChild.childNodes]"
        ".filter(n => n.nodeName !== 'WBR').map(n => { const r = document.createRange();"
        " r.selectNodeContents(n); return [n.textContent, r.getClientRects().length]; }))"
    )
    assert ["".join(text for text, _ in cell) for cell in pieces] == [f"{suite}:1", f"{suite}:2"]
    assert all(text.endswith("/") for cell in pieces for text, _ in cell[:-1])
    assert all(lines == 1 for cell in pieces for _, lines in cell), pieces
    assert shown.eval("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_a_narrow_window_does_not_scroll_sideways_for_the_summary_line(page, cli, tmp_path):
    # QA 41c: at 480 px the summary, a FEN in it, ran off the page (a sideways scrollbar)
    out = tmp_path / "narrow.html"
    result = cli("compare", "kiwipete", "2", "--python", f"{ENGINES / 'bug_no_ep.py'}:Adapter", "--html", str(out))
    assert result.exit_code == 1
    shown = page(out, width=480)
    assert shown.problems() == []
    assert shown.eval("document.querySelector('.summary').scrollWidth <= document.querySelector('.summary').clientWidth")
    assert shown.eval("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
