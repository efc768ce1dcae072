"""What a fuzz run promises at its edges: ``--time`` bounds it all, shrinking included, and
a finding is never lost (a --save that fails, Ctrl-C while shrinking).

The time tests run on a fake clock that the stand-in engines advance by a cost per call
and per node, so they measure the run's own decisions, never the machine's speed.
python-chess judges that a shrunk or saved position still shows the engine's bug.
"""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time

import chess
import pytest

from chesskit.board.board import Board
from chesskit.compare.engines import open_engine
from chesskit.errors import EngineError
from chesskit.fuzz import save as save_module
from chesskit.fuzz.run import fuzz
from helpers import ENGINES, REPO, subprocess_env

pytestmark = pytest.mark.usefixtures("no_leftover_children")

QUEENS_BUG = f"{ENGINES / 'bug_three_queens.py'}:Adapter"


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class CostlyCorrect:
    """A correct engine (chesskit's own divide: only the time matters here) that costs
    10 ms a call and 1 microsecond a node on the fake clock."""

    name = "costly"

    def __init__(self, clock: FakeClock):
        self.clock = clock

    def divide(self, fen, depth, moves, chess960=False):
        board = Board(fen, chess960=chess960)
        for move in moves:
            board.push(move)
        counts = board.divide(depth)
        self.clock.now += 0.01 + sum(counts.values()) * 1e-6
        return counts


def test_time_bounds_the_deep_depths_of_a_position():
    # before: every depth of the position was compared whatever --time said (tens of fake seconds)
    clock = FakeClock()
    run = fuzz(CostlyCorrect(clock), seed=3, depth=6, max_seconds=2.0, clock=clock)
    assert run.stopped_by == "time" and run.finding is None
    assert run.seconds <= 2.0 and clock.now <= 2.0
    assert run.nodes > 0  # it compared what fitted


def queens(fen: str) -> int:
    board = chess.Board(fen)
    return max(len(board.pieces(chess.QUEEN, color)) for color in chess.COLORS)


class CostlyOnQueens:
    """The three-queens bug engine; a call about a position with three queens of a side
    (the finding, its descent and the shrinking) costs one fake second."""

    name = "queens"

    def __init__(self, inner, clock: FakeClock):
        self.inner, self.clock = inner, clock

    def divide(self, fen, depth, moves, chess960=False):
        if queens(fen) >= 3:
            self.clock.now += 1.0
        return self.inner.divide(fen, depth, moves, chess960)


def test_time_bounds_shrinking_and_keeps_the_finding():
    clock = FakeClock()
    with open_engine(python=QUEENS_BUG) as inner:
        run = fuzz(CostlyOnQueens(inner, clock), seed=1, depth=2, max_positions=200, max_seconds=6.0, clock=clock)
    finding = run.finding
    assert finding is not None and run.stopped_by == "finding"
    # before: shrinking tried its candidates whatever the time (about 15 fake seconds)
    assert run.seconds <= 6.0 + 1.0  # at most the one call under way when time ran out
    assert "--time limit ran out after" in finding.shrunk.error
    assert not finding.report.agree
    assert _pieces(finding.position_fen) < _pieces(finding.start.fen)  # it shrank what the time allowed
    assert _bug_shows(finding.position_fen)


class CrashesOnQueens(CostlyCorrect):
    """A correct engine on the fake clock (10 ms a call) that crashes on any position with
    three queens of one side, as fail_midway's adapter does."""

    name = "crashes"

    def divide(self, fen, depth, moves, chess960=False):
        self.clock.now += 0.01
        if queens(fen) >= 3:
            raise EngineError("engine 'crashes' exited with code -11 (SIGSEGV)")
        return super().divide(fen, depth, moves, chess960)

    def close(self):
        self.clock.now += 0.05  # a restart


@pytest.mark.parametrize("bound", [{"max_positions": 200}, {"max_seconds": 20.0}])
def test_time_keeps_time_to_shrink_a_crash(bound):
    """--time shrinks the position the engine crashed on as --positions does: the positions
    stop with a share of the time left for it (they took it all, the crash never shrunk)."""
    clock = FakeClock()
    run = fuzz(CrashesOnQueens(clock), seed=1, depth=2, clock=clock, **bound)
    first = run.crashes[0]
    assert queens(first.start.fen) >= 3 and run.finding is None
    shrunk = first.shrunk
    assert shrunk is not None and shrunk.tried > 0 and shrunk.error is None, shrunk
    assert queens(shrunk.fen) >= 3 and _pieces(shrunk.fen) < _pieces(first.start.fen)
    if "max_seconds" in bound:
        assert run.stopped_by == "time" and run.seconds <= 20.0


def _pieces(fen: str) -> int:
    return len(chess.Board(fen).piece_map())


def _bug_shows(fen: str) -> bool:
    """python-chess's move list differs from the buggy adapter's somewhere within depth 1-2."""
    sys.path.insert(0, str(ENGINES))
    try:
        import bug_three_queens
    finally:
        sys.path.remove(str(ENGINES))
    board = chess.Board(fen)
    eng = bug_three_queens.Adapter()
    for node in [None, *board.legal_moves]:
        if node is not None:
            board.push(node)
        eng.set_fen(board.fen())
        if set(eng.legal_moves()) != {m.uci() for m in board.legal_moves}:
            return True
        if node is not None:
            board.pop()
    return False


# ------------------------------------------------------------------ --save fails at the end

SABOTAGE = '''
import os, shutil, sys
sys.path.insert(0, {engines!r})
import bug_three_queens

class Adapter(bug_three_queens.Adapter):
    def __init__(self):
        super().__init__()
        target = os.environ["SABOTAGE_PATH"]
        if os.environ["SABOTAGE"] == "remove-folder":
            shutil.rmtree(os.path.dirname(target))
        else:  # the save file replaced by a directory
            os.remove(target)
            os.mkdir(target)
'''


@pytest.mark.parametrize("how", ["remove-folder", "directory"])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_save_that_fails_at_the_end_keeps_the_finding(cli, tmp_path, monkeypatch, how, as_json):
    # before: exit 2 (folder removed) or 70 (a directory), and nothing shown
    (tmp_path / "sabotage.py").write_text(SABOTAGE.format(engines=str(ENGINES)))
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "found.epd"
    target.write_text("")
    monkeypatch.setenv("SABOTAGE", how)
    monkeypatch.setenv("SABOTAGE_PATH", str(target))
    args = ["fuzz", "--python", f"{tmp_path / 'sabotage.py'}:Adapter", "--seed", "1", "--positions", "200"]
    result = cli(*args, "--save", str(target), *(["--json"] if as_json else []))
    assert result.exit_code == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "cannot write --save" in result.stderr
    assert "the finding is shown above" in result.stderr
    if as_json:
        report = json.loads(result.stdout)
        assert report["saved"] is None and _bug_shows(report["position_fen"])
    else:
        assert result.stdout.startswith("FOUND after") or "\nFOUND after" in result.stdout
        assert "DISAGREE" in result.stdout and "saved as" not in result.stdout


def test_a_full_disk_while_saving_keeps_the_finding_and_the_file(cli, tmp_path, monkeypatch):
    target = tmp_path / "mine.epd"
    old = '# mine\n4k3/8/8/8/8/8/8/4K3 w - - id "kings"; D1 5;\n'
    target.write_text(old)
    fresh = tmp_path / "new.epd"

    def full_disk(fd, data):  # half of it reaches the disk, then ENOSPC
        os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(save_module, "_write_all", full_disk, raising=False)
    for path in (target, fresh):
        result = cli("fuzz", "--python", QUEENS_BUG, "--seed", "1", "--positions", "200", "--save", str(path))
        assert result.exit_code == 1 and "No space left on device" in result.stderr
        assert "DISAGREE" in result.stdout
    # before: a half-written line stayed in the old file, and an empty or torn new file
    assert target.read_text() == old
    assert not fresh.exists()


# ------------------------------------------------------------------ Ctrl-C while shrinking

SLOW_WHEN_SHRINKING = '''
import os, sys, time
sys.path.insert(0, {engines!r})
import chess
import bug_three_queens

class Adapter(bug_three_queens.Adapter):
    """Slow once asked about a position with three queens and fewer pieces than the first
    such one: shrinking has begun; a marker file tells the test so."""
    first = None

    def legal_moves(self):
        if max(len(self.board.pieces(chess.QUEEN, c)) for c in chess.COLORS) >= 3:
            count = len(self.board.piece_map())
            if Adapter.first is None:
                Adapter.first = count
            elif count < Adapter.first:
                open(os.environ["SHRINKING_MARKER"], "a").close()
                time.sleep(0.3)
        return super().legal_moves()
'''


def _ctrl_c_once(command: list[str], env: dict, marker, never: str, settle: float) -> tuple[int, str, str]:
    """Run ``command``; once ``marker`` exists (the run got that far: else fail with
    ``never``) and ``settle`` seconds more, Ctrl-C: (exit code, stdout, stderr)."""
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(1200):
            if marker.exists() or process.poll() is not None:
                break
            time.sleep(0.05)
        assert marker.exists(), never
        time.sleep(settle)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, stdout, stderr


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_while_shrinking_shows_and_saves_the_smallest_position(tmp_path, as_json):
    # before: exit 130 with nothing shown and nothing saved
    adapter = tmp_path / "slow.py"
    adapter.write_text(SLOW_WHEN_SHRINKING.format(engines=str(ENGINES)))
    marker = tmp_path / "shrinking"
    saved = tmp_path / "found.epd"
    env = subprocess_env()
    env["SHRINKING_MARKER"] = str(marker)
    command = [sys.executable, "-m", "chesskit", "fuzz", "--python", f"{adapter}:Adapter", "--seed", "1",
               "--positions", "200", "--save", str(saved)] + (["--json"] if as_json else [])
    code, stdout, stderr = _ctrl_c_once(command, env, marker, "shrinking never began", settle=1.0)  # a few slow candidates
    assert code == 130, stderr
    # before: "chesskit: interrupted", the seed said nowhere on stderr
    assert re.fullmatch(r"chesskit: interrupted: while shrinking the finding shown \(fuzz seed 1, position \d+\)\n", stderr)
    lines = saved.read_text().splitlines()
    assert len(lines) == 2 and lines[1].split(" id ")[0]
    if as_json:
        data = json.loads(stdout)
        shown = data["shrunk_fen"]
        assert "interrupted" in data["shrink_error"] and data["shrunk"] is True
        # before: position_fen was the position shrunk so far, while path and fen were the
        # generated position's descent; the report is of the generated position, whole
        assert data["position_fen"] == data["start_fen"] != shown
        # before: the regression line had the saved line's id, fuzz-1, for another position
        assert data["saved"] == "fuzz-1" and data["regression"]["id"].startswith("fuzz-1-generated")
        node = chess.Board(data["position_fen"])
        for move in data["path"]:
            node.push_uci(move)
        assert node.fen().split()[:4] == data["fen"].split()[:4]
    else:
        # before: "shrunk (N candidates tried): FEN", and the report below of another position
        shown = stdout.split("shrunk so far (")[1].split("): ")[1].split(" (")[0]
        assert "the report below is of the generated position" in stdout
        assert "shrinking stopped: interrupted after" in stdout and "DISAGREE" in stdout
    assert lines[1].startswith(" ".join(shown.split()[:4]) + " ")
    assert _bug_shows(shown)
    # the saved counts are right: python-chess's perft at depth 1 and 2
    board = chess.Board(shown)
    d1 = board.legal_moves.count()
    d2 = sum(_after(board, m) for m in list(board.legal_moves))
    assert f"; D1 {d1}; D2 {d2};" in lines[1]


def _after(board: chess.Board, move: chess.Move) -> int:
    board.push(move)
    try:
        return board.legal_moves.count()
    finally:
        board.pop()


class InterruptedInTheDescent:
    """The three-queens bug engine; Ctrl-C lands in the descent of the first difference (the
    second question about a position with three queens: the first finds the difference)."""

    name = "queens"

    def __init__(self, inner):
        self.inner, self.asked = inner, 0

    def divide(self, fen, depth, moves, chess960=False):
        if queens(fen) >= 3:
            self.asked += 1
            if self.asked == 2:
                raise KeyboardInterrupt
        return self.inner.divide(fen, depth, moves, chess960)


def test_ctrl_c_before_a_difference_is_shown_says_where_it_is():
    # before: "interrupted", and nothing of the difference it had found
    with open_engine(python=QUEENS_BUG) as inner:
        with pytest.raises(KeyboardInterrupt) as caught:
            fuzz(InterruptedInTheDescent(inner), seed=1, depth=2, max_positions=200)
    note, descent = caught.value.__notes__  # the descent's: where it had got to
    assert descent.startswith("compare stopped at the start position's depth 1, while the engine counted (")
    assert note.startswith("position ") and " of seed 1 differs at depth " in note
    fen = note.split(": ", 1)[1]
    assert queens(fen) >= 3 and _bug_shows(fen)
    from chesskit.cli.boundary import error_line  # the one line the command prints

    assert error_line(caught.value) == (f"interrupted: {note}; {descent}", 130)


COUNTING_ADAPTER = '''
import os, sys
sys.path.insert(0, {engines!r})
import pchelper

class Adapter(pchelper.Adapter):
    """python-chess's moves; the first question leaves a marker file: the run is under way."""

    def legal_moves(self):
        open(os.environ["FUZZING_MARKER"], "a").close()
        return super().legal_moves()
'''


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_with_no_difference_yet_names_the_seed(tmp_path, as_json):
    # before: "chesskit: interrupted" and, with --json, not even the seed had been shown
    adapter = tmp_path / "counting.py"
    adapter.write_text(COUNTING_ADAPTER.format(engines=str(ENGINES)))
    marker = tmp_path / "fuzzing"
    env = {**subprocess_env(), "FUZZING_MARKER": str(marker)}
    command = [sys.executable, "-m", "chesskit", "fuzz", "--python", f"{adapter}:Adapter", "--seed", "7",
               "--positions", "100000"] + (["--json"] if as_json else [])
    code, stdout, stderr = _ctrl_c_once(command, env, marker, "no position was asked about", settle=0.5)
    assert code == 130, stderr
    (line,) = stderr.splitlines()
    tried = re.fullmatch(r"chesskit: interrupted: (\d+) positions? of seed 7 tried, no difference found yet", line)
    assert tried is not None, line
    assert int(tried.group(1)) >= 1
    if as_json:  # the run so far (QA 42a: it printed nothing), suite's "interrupted" key
        data = json.loads(stdout)
        assert data["interrupted"] == "interrupted" and data["agree"] is True and data["seed"] == 7
        assert data["positions"] == int(tried.group(1)) and data["seconds"] > 0 and data["engine_errors"] == []
    else:
        assert stdout.startswith("fuzz: seed 7 against ")


def test_an_engine_slow_to_restart_is_not_charged_to_the_next_position(cli, tmp_path):
    """After the engine fails on a position it is started again before the next one,
    within its own --timeout: one slower to start than --position-timeout turned every
    later position into an engine error it never saw (55 of 60 in a QA run)."""
    marker = tmp_path / "started-once"
    crashing = tmp_path / "crash_once.py"
    crashing.write_text(  # right on its first two questions (the check that it follows 'position fen'), then a crash
        "import os, signal, sys\n"
        "import chess\n"
        "asked, board = 0, chess.Board()\n"
        "for line in sys.stdin:\n"
        "    words = line.split() or ['']\n"
        "    if words[0] == 'uci': print('id name crash\\nuciok', flush=True)\n"
        "    elif words[0] == 'isready': print('readyok', flush=True)\n"
        "    elif words[0] == 'position': board = chess.Board(' '.join(words[2:8]))\n"
        "    elif words[0] == 'go':\n"
        "        asked += 1\n"
        "        if asked >= 3: os.kill(os.getpid(), signal.SIGSEGV)\n"
        "        print(''.join(f'{m.uci()}: 1\\n' for m in board.legal_moves) + f'\\nNodes searched: {board.legal_moves.count()}', flush=True)\n"
    )
    engine = tmp_path / "slow_restart.sh"
    engine.write_text(
        f"#!/bin/sh\nif [ -e {marker} ]; then sleep 3; exec {sys.executable} {ENGINES / 'fake_uci.py'}; fi\n"
        f"touch {marker}\nexec {sys.executable} {crashing}\n"
    )
    engine.chmod(0o755)
    result = cli("fuzz", "--engine", str(engine), "--positions", "3", "--depth", "1", "--seed", "1",
                 "--position-timeout", "2", "--no-chess960", "--dialect", "uci-go-perft", "--json")
    assert result.exit_code == 3, result.stderr
    data = json.loads(result.stdout)
    assert data["positions"] == 3 and len(data["engine_errors"]) == 1, data["engine_errors"]
    assert "SIGSEGV" in data["engine_errors"][0]["reason"]


class FailsThenInterrupted:
    """python-chess's counts; the first question fails (a crash), a later one is Ctrl-C."""

    name = "flaky"

    def __init__(self, inner):
        self.inner, self.asked = inner, 0

    def divide(self, fen, depth, moves, chess960=False):
        from chesskit.errors import EngineError

        self.asked += 1
        if self.asked == 1:
            raise EngineError("engine 'flaky' crashed (the test's)")
        if self.asked == 8:
            raise KeyboardInterrupt
        return self.inner.divide(fen, depth, moves, chess960)

    def close(self):
        pass


def test_ctrl_c_with_no_difference_yet_names_the_positions_the_engine_failed_on():
    # QA 41d: a CI job's SIGTERM lost them: shown only at the end of the run, and the
    # interrupt's line said "no difference found yet" alone
    with open_engine(python=f"{ENGINES / 'eng_correct.py'}:Adapter") as inner:
        told = []
        with pytest.raises(KeyboardInterrupt) as caught:
            fuzz(FailsThenInterrupted(inner), seed=1, depth=2, max_positions=200, on_crash=told.append)
    (note,) = caught.value.__notes__
    # on_crash was told as it happened (fuzz's command shows its ERROR line then)
    assert [crash.index for crash in told] == [1] and "crashed (the test's)" in told[0].failure.reason
    assert re.fullmatch(
        r"\d+ positions of seed 1 tried, no difference found yet; the engine failed on 1 of them "
        r"\(first: position 1, \S+ [wb] \S+ \S+ \d+ \d+: engine 'flaky' crashed \(the test's\)\)",
        note,
    ), note
