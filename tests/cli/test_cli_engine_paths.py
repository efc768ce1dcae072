"""An engine named by a bare file name in the current folder (issue 26 item 6).

``--script x.sh``, ``--engine x.sh`` and ``--engine-cmd 'x.sh ...'`` run ./x.sh when no
``x.sh`` is on PATH, as ``--script ./x.sh`` always did; an engine that cannot be started
at all is not blamed on the Chess960 position it was first asked about.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import chess
import pytest

from helpers import ENGINES, one_line, pc_perft

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def wrapper(folder: Path, name: str, target: str, *args: str) -> str:
    """An executable ``folder/name`` that runs the test engine ``target`` with ``args``."""
    path = folder / name
    words = " ".join([sys.executable, str(ENGINES / target), *args])
    path.write_text(f'#!/bin/sh\nexec {words} "$@"\n')
    path.chmod(0o755)
    return name


@pytest.mark.parametrize(
    "flag, make",
    [
        ("--script", lambda d: wrapper(d, "mine.sh", "eng_correct.py")),
        ("--engine", lambda d: wrapper(d, "mine.sh", "fake_uci.py")),
        ("--engine-cmd", lambda d: wrapper(d, "mine.sh", "fake_perft.py", "--oneshot") + ' "{fen}" {depth} "{moves}"'),
    ],
    ids=["script", "engine", "engine-cmd"],
)
def test_a_bare_file_name_in_the_current_folder_starts(cli, tmp_path, monkeypatch, flag, make):
    monkeypatch.chdir(tmp_path)
    command = make(tmp_path)
    result = cli("compare", "startpos", "2", flag, command, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["agree"] and sum(data["steps"][0]["theirs"].values()) == 400


def test_a_name_on_path_still_wins_over_the_current_folder(tmp_path, monkeypatch):
    from chesskit.compare.engines.proc import resolve_program

    (tmp_path / "sh").write_text("#!/bin/sh\n")
    (tmp_path / "sh").chmod(0o755)
    monkeypatch.chdir(tmp_path)
    assert resolve_program("sh", "sh") != "./sh"
    assert resolve_program("sh", "sh").endswith("/sh")


def test_a_missing_script_at_a_chess960_position_gets_no_chess960_hint(cli, tmp_path, monkeypatch):
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    count = pc_perft(chess.Board(fen, chess960=True), 1)
    suite = tmp_path / "c960.epd"
    suite.write_text(f'{" ".join(fen.split()[:4])} id "c960-one"; D1 {count};\n')
    monkeypatch.chdir(tmp_path)
    line = one_line(cli("suite", str(suite), "--script", "no-such-script.sh"), 3, "was not found")
    assert "--skip-chess960" not in line and "Chess960" not in line
    # an engine that does start and then fails there keeps the hint
    engine = f"{ENGINES / 'fake_uci.py'} --no-960"
    one_line(cli("suite", str(suite), "--engine", engine), 3, "cannot play Chess960", "--skip-chess960")


def test_a_path_with_spaces_not_quoted_is_told_to_quote_it(cli, tmp_path, monkeypatch):
    # "was not found (no such file '.../with')" said nothing of the file that is there
    folder = tmp_path / "with space"
    folder.mkdir()
    wrapper(folder, "my engine", "fake_uci.py")
    path = str(folder / "my engine")
    line = one_line(cli("compare", "startpos", "1", "--engine", path), 3, f"(no such file {str(tmp_path / 'with')!r})")
    assert line.endswith(f": the command is split at its spaces, and {path!r} is a file: quote it ('{path}')")
    assert cli("compare", "startpos", "1", "--engine", f"'{path}'").exit_code == 0  # as it says
    monkeypatch.chdir(folder)
    one_line(cli("compare", "startpos", "1", "--engine", "my engine"), 3, "(no 'my' on PATH): the command is split")
    # a missing program says what it said (no file of the whole name either)
    assert one_line(cli("compare", "startpos", "1", "--engine", "no such"), 3).endswith("(no 'no' on PATH)")
