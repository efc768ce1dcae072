"""``chesskit suite`` against hostile suites (issue 27): an understated expected count,
outputs that are inputs, unreadable files and broken links in a folder, UTF-16 files.

Counts are the Perft Results page's (start position: 20, 400, 8902; depth 12: 62,854,969,236,701,747).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from chesskit.board.board import Board

START4 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
ROOK4 = "4k3/8/8/8/8/8/8/4K2R w K -"  # D1 15, D2 66, D3 1197 (python-chess)
GOOD = f'{ROOK4} id "rook"; D1 15; D2 66; D3 1197;\n'


@pytest.fixture
def no_deep_perft(monkeypatch):
    """Fault injection: a perft deeper than 5 fails the test instead of running for ever."""
    original = Board.perft

    def perft(self, depth, *args, **kwargs):
        assert depth <= 5, f"chesskit started perft {depth}"
        return original(self, depth, *args, **kwargs)

    monkeypatch.setattr(Board, "perft", perft)


# ------------------------------------------------------------------ an understated count (item 8)


def test_an_understated_count_is_an_error_not_a_walk_that_never_ends(cli, tmp_path, no_deep_perft):
    (tmp_path / "u.epd").write_text(f'{START4} id "start"; D1 20; D2 400; D12 6285;\n' + GOOD)
    result = cli("suite", str(tmp_path / "u.epd"), "--threads", "1")
    assert result.exit_code == 2, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["ok", "start", "D1-D2"]
    assert lines[1].startswith("ERROR ") and "u.epd:1: D12 6285: not run: chesskit estimates" in lines[1]
    assert lines[2].split()[:3] == ["ok", "rook", "D1-D3"]
    assert lines[-1].endswith("5 passed, all match, 1 line not run (errors)")
    assert result.stderr.startswith("chesskit: 1 line could not be run (first: ")


def test_an_understated_count_is_an_error_in_json_too(cli, tmp_path, no_deep_perft):
    (tmp_path / "u.epd").write_text(f'{START4} id "start"; D7 6285;\n' + GOOD)
    result = cli("suite", str(tmp_path / "u.epd"), "--json", "--threads", "2")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert (data["passed"], data["errors"]) == (3, 1)
    assert data["error_lines"][0]["id"] == "start" and data["error_lines"][0]["line"] == 1
    assert "D7 6285: not run" in data["error_lines"][0]["error"]


def test_an_overstated_count_within_the_limit_still_runs_and_mismatches(cli, tmp_path):
    # a wrong count that is cheap to check is a plain mismatch, not an error
    (tmp_path / "w.epd").write_text(f'{START4} id "start"; D3 100;\n')
    result = cli("suite", str(tmp_path / "w.epd"), "--threads", "1")
    assert result.exit_code == 1
    assert "FAIL  start  D3: expected 100, got 8902" in result.stdout


# ------------------------------------------------------------------ an output may not be an input (item 13)

ENGINE_FILE = "#!/bin/sh\nexit 0\n"


def _engine(tmp_path, name="myeng.py"):
    path = tmp_path / name
    path.write_text(ENGINE_FILE)
    path.chmod(0o755)
    return path


@pytest.mark.parametrize(
    "flags",
    [
        lambda e: ["--script", str(e), "--junit", str(e)],
        lambda e: ["--script", str(e), "--junit", "./" + e.name],  # another spelling
        lambda e: ["--python", f"{e}:Adapter", "--junit", str(e)],  # the adapter's file
        lambda e: ["--python", "myeng:Adapter", "--junit", str(e)],  # the adapter as a module
        lambda e: ["--engine", str(e), "--junit", str(e)],  # the engine binary
        lambda e: ["--engine", "myeng.py", "--junit", str(e)],  # the binary found on PATH
        lambda e: ["--engine", f"sh {e.name} --uci", "--junit", str(e)],  # an interpreter's script
        lambda e: ["--engine-cmd", f"./{e.name} {{fen}} {{depth}}", "--junit", str(e)],
        lambda e: ["--script", str(e), "--junit", str(e.parent / "link.xml")],  # a link to it
    ],
    ids=["script", "script-spelling", "adapter-file", "adapter-module", "engine", "engine-on-path",
         "engine-argument", "engine-cmd", "symlink"],
)
def test_junit_may_not_overwrite_the_engine(cli, tmp_path, monkeypatch, flags):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    engine = _engine(tmp_path)
    (tmp_path / "link.xml").symlink_to(engine)
    (tmp_path / "s.epd").write_text(GOOD)
    result = cli("suite", "s.epd", *flags(engine))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("chesskit: cannot write --junit ") and "it is the input file" in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""
    assert engine.read_text() == ENGINE_FILE and engine.stat().st_mode & 0o777 == 0o755


def test_junit_may_not_overwrite_a_suite_file(cli, tmp_path):
    (tmp_path / "s.epd").write_text(GOOD)
    result = cli("suite", str(tmp_path), "--junit", str(tmp_path / "s.epd"))
    assert result.exit_code == 2 and "it is the input file" in result.stderr
    assert (tmp_path / "s.epd").read_text() == GOOD


def test_fuzz_save_may_not_append_to_the_adapter(cli, tmp_path):
    import shutil
    from pathlib import Path

    engines = Path(__file__).resolve().parent.parent / "engines"
    for name in ("bug_three_queens.py", "pchelper.py"):
        shutil.copy(engines / name, tmp_path / name)
    adapter = tmp_path / "bug_three_queens.py"
    before = adapter.read_text()
    result = cli("fuzz", "--python", f"{adapter}:Adapter", "--seed", "1", "--positions", "5", "--save", str(adapter))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("chesskit: cannot write --save ") and "it is the input file" in result.stderr
    assert adapter.read_text() == before


# ------------------------------------------------------------------ unreadable files in a folder (items 14, 17)

WRONG = f'{START4} id "start"; D1 20; D2 401;\n'  # 400 (Perft Results page)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder of suites: a.epd mismatches, b.epd passes, c.epd cannot be read (fault
    injection: opening it fails with EACCES, which root would not see with chmod 000)."""
    from chesskit.suites import formats

    monkeypatch.chdir(tmp_path)
    suites = tmp_path / "d"
    suites.mkdir()
    (suites / "a.epd").write_text(WRONG)
    (suites / "b.epd").write_text(GOOD)
    (suites / "c.epd").write_text(GOOD.replace("rook", "rook-c"))

    def refusing_open(path, *args, **kwargs):
        if str(path).endswith("c.epd"):
            raise PermissionError(13, "Permission denied", str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(formats, "open", refusing_open, raising=False)
    return suites


def test_an_unreadable_file_is_an_error_and_the_rest_runs(cli, folder):
    result = cli("suite", "d", "--threads", "1")
    assert result.exit_code == 1, result.output  # the mismatch in a.epd is not hidden
    lines = result.stdout.splitlines()
    assert sorted(lines[:3]) == [
        "ERROR d/c.epd: cannot read: Permission denied", "FAIL  start  D2: expected 401, got 400", lines[2]
    ]
    assert lines[2].split()[:2] == ["ok", "rook"]
    assert lines[-1].endswith("4 passed, 1 FAILED, 1 file not run (errors)")  # said "1 line"
    assert result.stderr == (
        "chesskit: 1 of 5 counts did not match; 1 file could not be run (first: d/c.epd: cannot read: Permission denied)\n"
    )


def test_an_unreadable_file_in_json_and_junit(cli, folder):
    result = cli("suite", "d", "--json", "--junit", "r.xml")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["passed"], data["failed"], data["errors"]) == (4, 1, 1)
    assert data["error_lines"] == [{"file": "d/c.epd", "line": None, "id": None, "error": "cannot read: Permission denied"}]
    root = ET.parse("r.xml").getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("6", "1", "1")
    error = next(case for case in root.iter("testcase") if case.find("error") is not None)
    assert error.get("name") == "file" and error.find("error").get("message") == "d/c.epd: cannot read: Permission denied"


def test_a_single_unreadable_file_is_still_one_line(cli, folder):
    result = cli("suite", "d/c.epd")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "chesskit: d/c.epd: cannot read: Permission denied\n"


def test_a_broken_link_in_a_folder_is_reported(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.epd").write_text(GOOD)
    (tmp_path / "d" / "gone.epd").symlink_to("nowhere.epd")
    result = cli("suite", "d")
    assert result.exit_code == 2, result.output
    assert "ERROR d/gone.epd: a broken symbolic link (to nowhere.epd)" in result.stdout.splitlines()
    assert result.stdout.splitlines()[-1].endswith("3 passed, all match, 1 file not run (errors)")


@pytest.mark.parametrize(
    "encoding,name",
    [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")],
)
def test_a_wide_file_is_one_line_not_noise_per_line(cli, tmp_path, monkeypatch, encoding, name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "wide.epd").write_bytes((GOOD * 3).encode(encoding))
    (tmp_path / "ok.epd").write_text(GOOD.replace("rook", "other"))
    result = cli("suite", "wide.epd", "ok.epd")
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stdout.splitlines() if line.startswith("ERROR")]
    assert errors == [f"ERROR wide.epd: this file is {name} (save it as UTF-8)"]
    alone = cli("suite", "wide.epd")
    assert alone.stderr == f"chesskit: wide.epd: this file is {name} (save it as UTF-8)\n"


def test_a_missing_folder_a_file_and_lines_not_run_are_each_named_in_the_summary(cli, tmp_path, monkeypatch):
    # a whole file or folder was counted as "1 line not run (errors)"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.epd").write_text(GOOD + "not a FEN ;D1 1\n" * 2)
    (tmp_path / "empty").mkdir()
    (tmp_path / "gone.epd").symlink_to("nowhere.epd")
    result = cli("suite", "good.epd", "empty", "gone.epd")
    assert result.exit_code == 2, result.output
    assert result.stdout.splitlines()[-1].endswith("3 passed, all match, 2 lines, 1 file and 1 folder not run (errors)")
    assert result.stderr.startswith("chesskit: 2 lines, 1 file and 1 folder could not be run (first: ")
    data = json.loads(cli("suite", "good.epd", "empty", "gone.epd", "--json").stdout)
    # the JSON's "errors" still counts each whole path as one (json.md)
    assert data["errors"] == 4 and [e["file"] for e in data["error_lines"] if e["line"] is None] == ["gone.epd", "empty"]


def test_nul_bytes_make_a_file_not_text(cli, tmp_path):
    (tmp_path / "bin.epd").write_bytes(open("/bin/sh", "rb").read(4096))  # an ELF binary
    result = cli("suite", str(tmp_path / "bin.epd"))
    assert result.exit_code == 2 and result.stderr.endswith("bin.epd: not a text file (it holds NUL bytes)\n")


@pytest.mark.parametrize("kind", ["missing", "fifo", "device"])
def test_a_path_that_cannot_be_read_among_several_is_its_error_and_the_rest_runs(cli, tmp_path, monkeypatch, kind):
    """A missing path, a FIFO or a device before a good file stopped the whole run (exit 2,
    the good file never read); an unreadable file already was an error for that file."""
    import os

    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.epd").write_text(GOOD)
    bad, why = {
        "missing": ("nonexist.epd", "no such suite file or folder"),
        "fifo": ("fifo.epd", "not a suite file or folder (not a regular file)"),
        "device": ("/dev/null", "not a suite file or folder (not a regular file)"),
    }[kind]
    if kind == "fifo":
        os.mkfifo(bad)
    result = cli("suite", bad, "good.epd", "--threads", "1")
    assert result.exit_code == 2, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"ERROR {bad}: {why}"
    assert lines[1].split()[:2] == ["ok", "rook"]
    assert lines[-1].endswith("3 passed, all match, 1 file not run (errors)")
    assert result.stderr == f"chesskit: 1 file could not be run (first: {bad}: {why})\n"
    data = json.loads(cli("suite", bad, "good.epd", "--json").stdout)
    assert (data["passed"], data["errors"]) == (3, 1)
    assert data["error_lines"] == [{"file": bad, "line": None, "id": None, "error": why}]
    alone = cli("suite", bad)  # the only path given: one line, as before
    assert (alone.exit_code, alone.stdout) == (2, "")
    assert alone.stderr == {
        "missing": "chesskit: no such suite file or folder: nonexist.epd\n",
        "fifo": "chesskit: not a suite file or folder: fifo.epd (not a regular file)\n",
        "device": "chesskit: not a suite file or folder: /dev/null (not a regular file)\n",
    }[kind]


def test_an_empty_file_or_folder_among_several_is_reported(cli, tmp_path, monkeypatch):
    """Among other paths an empty file or folder exited 0 without a word; alone each is
    ``no suite ... found`` (exit 2)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.epd").write_text(GOOD)
    (tmp_path / "empty.epd").write_text("# only a comment\n\n")
    (tmp_path / "none").mkdir()
    result = cli("suite", "empty.epd", "none", "good.epd", "--json")
    assert result.exit_code == 2, result.output
    data = json.loads(result.stdout)
    assert data["passed"] == 3
    assert sorted((e["file"], e["line"], e["error"]) for e in data["error_lines"]) == [
        ("empty.epd", None, "no suite positions found: no line is a position"),
        ("none", None, "no suite files (*.epd or *.perft) in this folder"),
    ]
    (tmp_path / "none" / "also-empty.perft").write_text("")
    (tmp_path / "none" / "good.epd").write_text(GOOD.replace("rook", "rook-2"))
    inside = cli("suite", "none", "--threads", "1")  # a folder's empty file among its others
    assert inside.exit_code == 2, inside.output
    assert "ERROR none/also-empty.perft: no suite positions found: no line is a position" in inside.stdout.splitlines()
    for alone in ("empty.epd", "none/also-empty.perft"):
        assert cli("suite", alone).stderr.startswith(f"chesskit: no suite positions found in {alone}: ")


# ------------------------------------------------------------------ bounded memory (item 16)


def test_errors_past_the_cap_are_counted_in_one_entry(cli, tmp_path):
    from chesskit.suites.formats import MAX_ERRORS_KEPT

    bad = MAX_ERRORS_KEPT + 500
    (tmp_path / "bad.epd").write_text(GOOD + "x\n" * bad)
    (tmp_path / "more.epd").write_text("y\n" * 3 + GOOD.replace("rook", "r2"))
    result = cli("suite", str(tmp_path / "bad.epd"), str(tmp_path / "more.epd"), "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert (data["passed"], data["errors"]) == (6, bad + 3)
    lines = data["error_lines"]
    assert len(lines) == MAX_ERRORS_KEPT + 2  # the first ones, then one entry per file for the rest
    assert lines[MAX_ERRORS_KEPT]["line"] == MAX_ERRORS_KEPT + 2
    assert lines[MAX_ERRORS_KEPT]["error"].startswith("500 more lines not run from here on")
    assert lines[-1]["file"].endswith("more.epd") and lines[-1]["error"].startswith("3 more lines not run")
    plain = cli("suite", str(tmp_path / "bad.epd"), "--threads", "1")
    assert plain.stdout.count("\nERROR ") == MAX_ERRORS_KEPT + 1  # the first ones and the folded one
    assert plain.stdout.splitlines()[-1].endswith(f"3 passed, all match, {bad} lines not run (errors)")
