"""``--stats`` on a terminal: the tables fit its width without cutting a number, and a
count that reports no progress of its own runs beside a bar (``output.in_background``)."""

from __future__ import annotations

import threading

import pytest

from chesskit.cli import output

KIWIPETE_4 = {"nodes": "4085603", "captures": "757163", "e.p.": "1929", "castles": "128013", "checkmates": "43"}


@pytest.fixture
def terminal(monkeypatch):
    def width(columns: int) -> None:
        monkeypatch.setenv("COLUMNS", str(columns))
        monkeypatch.setattr(output, "stdout_is_terminal", lambda: True)

    return width


@pytest.mark.parametrize("columns", [60, 80, 200])
def test_perft_stats_fits_the_terminal_and_cuts_no_number(cli, terminal, columns):
    terminal(columns)
    result = cli("perft", "kiwipete", "4", "--stats")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout  # an 80-column terminal showed the node count as 40856…
    assert all(len(line.rstrip()) <= columns for line in lines[2:]), lines
    for heading, number in KIWIPETE_4.items():
        assert heading in result.stdout and number in result.stdout.split()
    tables = sum(line.split()[:1] == ["depth"] for line in lines)
    assert tables == (1 if columns == 200 else 2)


def test_the_heading_names_the_option_given(cli, terminal):
    # --all-depths was headed "perft 3 --stats"
    terminal(120)
    assert "perft 3 --all-depths" in cli("perft", "kiwipete", "3", "--all-depths").stdout
    assert "perft 3 --stats" in cli("perft", "kiwipete", "3", "--stats").stdout


def test_divide_stats_on_a_narrow_terminal_keeps_every_move_and_total(cli, terminal):
    terminal(80)
    result = cli("divide", "kiwipete", "2", "--stats")
    assert result.exit_code == 0 and "…" not in result.stdout
    words = result.stdout.split()
    assert words.count("a1b1") == 2 and words.count("2039") == 1  # each table repeats the moves; nodes once
    assert "48 moves" in result.stdout


def test_in_background_runs_on_a_thread_of_its_own_and_gives_back_what_it_gave(monkeypatch):
    monkeypatch.setattr(output, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(output, "BUSY_AFTER_S", 0.0)  # the bar at once
    assert output.in_background(lambda: threading.current_thread().name, "x") == "chesskit-count"
    assert output.in_background(lambda: threading.current_thread().name, "x", wanted=False) == threading.current_thread().name

    def fails():
        raise ValueError("bad")

    with pytest.raises(ValueError, match="bad"):
        output.in_background(fails, "x")
    monkeypatch.setattr(output, "stderr_is_terminal", lambda: False)  # a pipe: no thread
    assert output.in_background(lambda: threading.current_thread().name, "x") == threading.current_thread().name


@pytest.mark.parametrize("term, bars", [("xterm-256color", True), ("dumb", False), ("unknown", False), ("", True)])
def test_no_bar_on_a_terminal_that_cannot_redraw_a_line(monkeypatch, term, bars):
    class Tty:
        def isatty(self):
            return True

    monkeypatch.setattr(output.sys, "stderr", Tty())
    monkeypatch.setenv("TERM", term)
    assert output.stderr_is_terminal() is bars  # TERM=dumb: a transient bar left an empty line


def test_debug_shows_a_bar_on_a_terminal():
    # it printed nothing for seconds (kiwipete 3: about 1.3 s) and then the table
    import os
    import subprocess
    import sys

    from helpers import subprocess_env, terminal_reader

    replica, finish = terminal_reader()
    env = {**subprocess_env(), "TERM": "xterm", "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "chesskit", "debug", "kiwipete", "3"],
                            stdout=subprocess.PIPE, stderr=replica, env=env, text=True)
    os.close(replica)
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0 and "ok: no invariant violated" in out
    assert "debug" in finish()  # the bar, on stderr


# atomic's walk, and its counters' walk for --all-depths and --stats: compiled in the README's
# run, the counters' walk took 278-281 s of a worker on a loaded 2-core Zen 3 guest (2026-12-01)
@pytest.mark.variant_walk
@pytest.mark.parametrize("args", [
    ["perft", "startpos", "2"],
    ["perft", "startpos", "2", "--all-depths"],
    ["perft", "startpos", "2", "--stats"],
    ["divide", "startpos", "1"],
    ["divide", "startpos", "1", "--stats"],
    ["debug", "startpos", "1"],
])
def test_a_terminal_heading_names_the_variant(cli, terminal, args):
    # perft --all-depths --variant atomic was headed 'perft 2 --stats  startpos', as in
    # standard chess (so were perft's, divide's and debug's own headings)
    terminal(120)
    atomic = cli(*args, "--variant", "atomic")
    assert atomic.exit_code == 0, atomic.stderr
    assert atomic.stdout.splitlines()[0].split()[-2:] == ["startpos", "atomic"]
    chess = cli(*args)
    assert chess.exit_code == 0, chess.stderr
    assert chess.stdout.splitlines()[0].split()[-1] == "startpos"  # standard chess names none


def test_the_plain_table_widens_a_column_for_a_nine_digit_count():
    # startpos 6's row came out two columns right of its heading (each column was 7 wide)
    from chesskit.cli.stats_cmd import _plain_rows

    lines = _plain_rows("depth", [("5", [4865609, 82719]), ("6", [119060324, 2812008])], ["nodes", "captures"])
    assert lines == [
        "depth        nodes  captures",
        "5          4865609     82719",
        "6        119060324   2812008",
    ]
