"""What the tests share (importable as ``helpers``): paths, the positions many files use,
the environment of the processes they start, python-chess as the reference count, seeded
random positions, and the check of a one-line error. Fixtures live in ``conftest.py``."""

from __future__ import annotations

import functools
import importlib
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import chess
import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
ENGINES = TESTS / "engines"

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
EP_FEN = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"  # exf6 e.p. is legal
BEFORE_EP = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"  # f7f5 then allows it

FAKE_UCI = f"{sys.executable} {ENGINES / 'fake_uci.py'}"  # the --engine command of the fake UCI engine


# ------------------------------------------------------------------ what a test needs


STOCKFISH_FALLBACK = "/usr/games/stockfish"  # Debian's package installs it off PATH


def find_stockfish() -> str | None:
    """Stockfish's path: on PATH, else where Debian's package puts it; None without one."""
    found = shutil.which("stockfish")
    if found:
        return found
    if os.access(STOCKFISH_FALLBACK, os.X_OK):
        return STOCKFISH_FALLBACK
    return None


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def pip_install(extras: str) -> str:
    """The command that installs chesskit with ``extras`` into the Python running the tests
    (the README's first command; pip >= 22.3 installs into a virtual environment without pip)."""
    return f'python3 -m pip --python {sys.executable} install -e ".[{extras}]"'


TEST_INSTALL = pip_install("test")
DASK_INSTALL = pip_install("test,cluster")


def missing(what: str, how: str) -> NoReturn:
    """Skip locally; in CI (.ci/run installs everything) a missing tool is a failure.
    Also at a module's top level. ``how``: the command, package or variable that provides
    it, which the skip reason names."""
    if in_ci():
        pytest.fail(f"{what} is missing in CI; {how}", pytrace=False)
    pytest.skip(f"{what} not found; {how}", allow_module_level=True)


def need_module(name: str, install: str):
    """Import ``name``, or ``missing`` it, saying what to install."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"Python module {name}", f"install it: {install}")


def need_program(path: str) -> str:
    """``path`` when it is an executable file, else ``missing`` it."""
    if not os.access(path, os.X_OK):
        missing(path, f"Debian: apt-get install {Path(path).name}")
    return path


# ------------------------------------------------------------------ processes


def copy_cache(src: Path, dst: Path, symlinks: bool = True) -> Path:
    """Copy a cache folder that other test workers may be writing to at the same time.

    numba and chesskit write a cache file as a hidden ``.tmp`` file and rename it into place; one
    listed by the copy may be gone by the time it is read, so those in-flight files are left out.
    """
    shutil.copytree(src, dst, symlinks=symlinks, ignore=shutil.ignore_patterns("*.tmp"))
    return dst


def subprocess_env(pythonpath: str | None = None) -> dict[str, str]:
    """The environment of a process a test starts: the working copy (or ``pythonpath``)
    first on the path, whatever the installed chesskit points at, and no CHESSKIT_DEBUG."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [pythonpath or str(REPO), env.get("PYTHONPATH")]))
    env.pop("CHESSKIT_DEBUG", None)
    return env


_COMPILED_IR = """
import importlib, sys
from numba import njit
if sys.argv[1]:
    assert importlib.import_module(sys.argv[1]).install()
space = {}
exec(sys.argv[3], space)
f = njit(space[sys.argv[2]])
f.compile("int64(int64[::1], int64)")
sys.stdout.write(f.inspect_llvm(f.signatures[0]))
"""


def compiled_ir(source: str, function: str, patch: str = "") -> str:
    """The LLVM IR numba compiles ``function`` of ``source`` to (``int64(int64[::1], int64)``),
    in a fresh process, with ``patch``'s ``install()`` (a module of ``chesskit.core`` that
    changes numba's compiler) or without it: the same IR both ways is the patch's promise."""
    return subprocess.run(
        [sys.executable, "-c", _COMPILED_IR, patch, function, source],
        env=subprocess_env(), capture_output=True, text=True, timeout=300, check=True,
    ).stdout


def terminal_reader():
    """A pseudo-terminal for a child's output, read as a terminal reads it (so that a
    progress bar never blocks): (the descriptor to give the child, which the caller closes
    once the child has it; a call that waits for the child's end of it and returns all the
    text that came)."""
    import pty
    import threading

    master, replica = pty.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: every copy of the replica closed
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()

    def finish() -> str:
        reader.join(timeout=10)
        os.close(master)
        return b"".join(chunks).decode(errors="replace")

    return replica, finish


def gone(pid: int) -> bool:
    """True once ``pid`` has exited (a zombie left to init counts as exited)."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil comes with the [cluster] extra
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def finishes(call, timeout: float = 300):
    """``call()``'s value, or the exception it raised, re-raised here; a test failure if it is
    still running after ``timeout`` seconds. For code that must not hang (an engine that never
    answers must be killed): a generous bound a busy machine does not reach, where a hang
    would otherwise block the run for ever."""
    import threading

    outcome: dict = {}

    def run():
        try:
            outcome["value"] = call()
        except BaseException as err:  # noqa: BLE001 - handed to the test as it was raised
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"still running after {timeout} s: it hangs"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


# ------------------------------------------------------------------ errors


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system, every thread) process ``pid`` has used so far, from
    /proc; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def children_cpu() -> float:
    """CPU seconds of this process's children that have ended and been waited for."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def wait_for_cpu(proc: subprocess.Popen, seconds: float, timeout: float = 120) -> None:
    """Wait until ``proc`` has used ``seconds`` of CPU: past its start-up (whose CPU the
    caller knows, from a short run of the same command) and inside the compiled work that
    burns it, however busy the machine. A fixed sleep is too short under load, where the
    signal a test sends then lands in the imports, and CPU wasted on a quiet machine.
    Fails when the process ends first, or has not got there in ``timeout`` s."""
    import time

    deadline = time.monotonic() + timeout
    while cpu_seconds(proc.pid) < seconds:
        if proc.poll() is not None:
            pytest.fail(f"{proc.args} ended (exit {proc.returncode}) before it had used {seconds:.1f} s of CPU")
        if time.monotonic() > deadline:
            pytest.fail(f"{proc.args} had used {cpu_seconds(proc.pid):.1f} s of CPU after {timeout} s, not {seconds:.1f}")
        time.sleep(0.02)


def one_line(result, code: int, *words: str) -> str:
    """Assert that a run (click's Result or a CompletedProcess) failed with exit ``code`` and
    one ``chesskit: ...`` line on stderr containing every one of ``words``; return the line."""
    exit_code = result.exit_code if hasattr(result, "exit_code") else result.returncode
    assert exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("chesskit: ")
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------------------------ python-chess, the reference


def pc_perft(board: chess.Board, depth: int) -> int:
    """python-chess's perft of ``board`` (left as it was found)."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += pc_perft(board, depth - 1)
        board.pop()
    return total


def pc_divide(fen: str, depth: int, moves=(), chess960: bool = False) -> dict[str, int]:
    """python-chess's divide of ``fen`` after ``moves`` (UCI, in chesskit's move notation)."""
    board = chess.Board(fen, chess960=chess960)
    for move in moves:
        board.push_uci(move)
    result = {}
    for move in list(board.legal_moves):
        uci = board.uci(move)
        board.push(move)
        result[uci] = pc_perft(board, depth - 1)
        board.pop()
    return result


def sf_divide(stockfish: str, fen: str, depth: int) -> dict[str, int]:
    """Stockfish's divide (``go perft``) of ``fen``: {move: count}, parsed here, not by chesskit."""
    commands = f"position fen {fen}\ngo perft {depth}\nquit\n"
    proc = subprocess.run([stockfish], input=commands, capture_output=True, text=True, timeout=300)
    found = dict(re.findall(r"^([a-h][1-8][a-h][1-8][nbrq]?): (\d+)$", proc.stdout, re.MULTILINE))
    assert found, proc.stdout[-300:]
    return {move: int(count) for move, count in found.items()}


def random_boards(seed: int, count: int, chess960: bool = False, max_plies: int = 80) -> list[chess.Board]:
    """``count`` positions reached by random legal play, from the start position or from
    random Chess960 start arrays; games that end early are restarted. Fresh copies each
    call: three test modules collect the same sets (0.7 s of CPU each time made)."""
    return [board.copy(stack=False) for board in _random_boards(seed, count, chess960, max_plies)]


@functools.lru_cache(maxsize=None)
def _random_boards(seed: int, count: int, chess960: bool, max_plies: int) -> tuple[chess.Board, ...]:
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < count:
        if chess960:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board()
        plies = rng.randrange(1, max_plies)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            # prefer the special moves now and then so they show up often
            special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
            board.push(rng.choice(special) if special and rng.random() < 0.5 else rng.choice(moves))
        if board.is_valid():
            boards.append(board.copy(stack=False))
    return tuple(boards)


def allocate_at_most(limit_mb: float, message: str = "Cannot allocate memory", tried: list | None = None):
    """A stand-in for ``core.hashtable.allocate`` (monkeypatch it in) that fails like a
    machine with no room for a table over ``limit_mb`` MiB: MemoryError(``message``) above
    it, the real allocation at or below. Each size asked for is appended to ``tried``."""
    from chesskit.core import hashtable

    real = hashtable.allocate

    def allocate(megabytes):
        if tried is not None:
            tried.append(megabytes)
        if megabytes > limit_mb:
            raise MemoryError(message)
        return real(megabytes)

    return allocate


def lifetime_helper(child) -> bool:
    """multiprocessing's resource tracker: the standard library starts one per process the
    first time something needs it (a Dask local cluster inside a test, say) and it lives
    as long as the process, by design: not the test's leftover."""
    try:
        return "from multiprocessing.resource_tracker import main" in " ".join(child.cmdline())
    except Exception:  # gone meanwhile
        return False


def without(mapping: dict, key) -> dict:
    """A copy of ``mapping`` without ``key``: for ``monkeypatch.setattr`` of a module's
    cache, so that what a stub puts in the copy goes with it (``monkeypatch.delitem`` of a
    key that was not there restores nothing, and the stub's value stayed for the worker's
    later tests: native's walks, CI run 112)."""
    return {k: v for k, v in mapping.items() if k != key}
