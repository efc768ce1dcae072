"""``chesskit suite -``: a suite piped in on standard input, shown as ``<stdin>``."""

from __future__ import annotations

import json

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
ROOK = "4k3/8/8/8/8/8/8/4K2R w K -"

# line 1 has no id (it is named by the file and the line), line 3 cannot be read
EPD = f"{START} ;D1 20 ;D2 401\n{ROOK} id \"rook\"; D1 15; D2 66;\nnot a position\n"
PERFT = f"id rook\nepd {ROOK}\nperft 1 15\nperft 2 66\n"


def test_an_epd_suite_on_stdin_in_json(cli):
    result = cli("suite", "-", "--json", input=EPD)
    assert result.exit_code == 1, result.stderr  # a mismatch (and a line not run)
    data = json.loads(result.stdout)
    found = [(r["id"], r["depth"], r["ok"], r["file"], r["line"]) for r in data["results"]]
    assert found == [
        ("<stdin>:1", 1, True, "<stdin>", 1), ("<stdin>:1", 2, False, "<stdin>", 1),
        ("rook", 1, True, "<stdin>", 2), ("rook", 2, True, "<stdin>", 2),
    ]
    assert [(e["file"], e["line"]) for e in data["error_lines"]] == [("<stdin>", 3)]
    # nothing to open again: the mismatch's regression names the position by its FEN
    assert data["results"][1]["regression"]["fen"].startswith(START)
    assert "<stdin>:3: invalid FEN" in result.stderr


def test_a_perft_file_on_stdin_in_plain_text(cli):
    result = cli("suite", "-", input=PERFT)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].split()[:4] == ["ok", "rook", "D1-D2", "66"]


def test_stdin_beside_a_file_and_given_twice(cli, tmp_path):
    other = tmp_path / "other.epd"
    other.write_text(f'{START} id "start"; D1 20;\n')
    data = json.loads(cli("suite", "-", str(other), "-", "--json", input=PERFT).stdout)
    assert sorted((r["id"], r["file"]) for r in data["results"]) == [
        ("rook", "<stdin>"), ("rook", "<stdin>"), ("start", str(other)),
    ]


def test_each_run_reads_its_own_stdin(cli):
    """The copy of standard input is not kept for a later run in the same process."""
    first = json.loads(cli("suite", "-", "--json", input=PERFT).stdout)
    second = json.loads(cli("suite", "-", "--json", input=PERFT.replace("id rook", "id castle")).stdout)
    assert {r["id"] for r in first["results"]} == {"rook"}
    assert {r["id"] for r in second["results"]} == {"castle"}


def test_an_empty_stdin_is_one_line_and_exit_2(cli):
    result = cli("suite", "-", input="")
    assert result.exit_code == 2
    assert result.stderr == "chesskit: no suite positions found in <stdin>: no line is a position\n"


def test_the_terminal_tables_name_stdin(cli, terminal):
    result = cli("suite", "-", input=EPD)
    assert result.exit_code == 1
    assert "suite results" in result.stdout and "<stdin>" in result.stdout
    assert "401" in result.stdout and "400" in result.stdout


def test_stdin_as_a_process(run_module):
    proc = run_module("suite", "-", input=PERFT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok    rook")
