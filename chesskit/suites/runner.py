"""Loading EPD perft suites and running them through ``Board.perft``.

A suite line is an EPD record, four FEN fields then opcodes::

    r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - id "kiwipete"; D1 48; D2 2039;

``D<n> <count>`` gives the expected perft count at depth n; ``S<n> "..."`` opcodes (per-depth
statistics such as captures or checks) are kept raw; ``hmvc``/``fmvn`` set the clocks.
Blank lines and lines starting with ``#`` are skipped. Files whose name contains ``960``
(``chess960.epd``) are read in Chess960 mode; elsewhere a Chess960 position is recognised
from its FEN. A line that does not parse stops the
load with an InputError naming ``file:line``.

Running is split in two: ``plan`` picks the (position, depth) pairs within the limits and
``run`` yields one ``SuiteResult`` per pair as it finishes, so a caller can draw progress.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from chesskit.board.counters import compare, parse_stat_opcode
from chesskit.board.fen import parse_epd
from chesskit.errors import InputError
from chesskit.suites.positions import display_path, positions_dir
from chesskit.timer import Timer

DEFAULT_MAX_NODES = 1_000_000

_DEPTH_OP = re.compile(r"D(\d+)")
_STAT_OP = re.compile(r"S(\d+)")


@dataclass(frozen=True)
class SuiteRecord:
    """One position of a suite with its expected counts."""

    id: str
    fen: str
    depths: dict[int, int]  # depth -> expected perft count
    stats: dict[int, str]  # depth -> the raw S<n> opcode text
    path: Path
    lineno: int
    chess960: bool = False
    # why the position cannot arise in a game (it is counted anyway; see board/fen.py)
    notes: tuple[str, ...] = ()

    @property
    def location(self) -> str:
        return f"{display_path(self.path)}:{self.lineno}"


@dataclass(frozen=True)
class Task:
    """One count to check: ``record`` at ``depth`` should give ``expected`` nodes."""

    record: SuiteRecord
    depth: int
    expected: int


@dataclass
class SuiteResult:
    """The outcome of one Task; ``divide`` is filled in for the shallowest mismatch of a position."""

    task: Task
    nodes: int
    seconds: float
    divide: dict[str, int] | None = field(default=None)
    report: object | None = field(default=None)  # a chesskit.compare.descent.Report (engine runs)
    # ``run(stats=True)`` where the record has S<depth>: the counters that differ,
    # {name: (expected, actual)}, empty when all match; None when not checked
    stats: dict[str, tuple[int, int]] | None = field(default=None)

    @property
    def ok(self) -> bool:
        return self.nodes == self.task.expected and not self.stats

    def stats_text(self) -> str:
        """``"S3: checks expected 12, got 11"`` for a counter mismatch, else ``""``."""
        if not self.stats:
            return ""
        diffs = ", ".join(f"{name} expected {want}, got {got}" for name, (want, got) in self.stats.items())
        return f"S{self.task.depth}: {diffs}"

    def to_json(self) -> dict:
        record = self.task.record
        entry = {
            "id": record.id,
            "fen": record.fen,
            "depth": self.task.depth,
            "expected": self.task.expected,
            "nodes": self.nodes,
            "ok": self.ok,
            "notes": list(record.notes),
        }
        if self.stats is not None:
            entry["stats_ok"] = not self.stats
            entry["stats_mismatch"] = {n: {"expected": e, "actual": a} for n, (e, a) in self.stats.items()}
        return entry


# --------------------------------------------------------------------------- loading


def suite_paths(paths: Iterable[str | Path] = ()) -> list[Path]:
    """Expand files and folders (default: the positions folder) into ``*.epd`` files, once each."""
    given = [Path(p) for p in paths] or [positions_dir()]
    files: list[Path] = []
    seen: set[Path] = set()
    for path in given:
        if path.is_dir():
            found = sorted(p for p in path.glob("*.epd") if p.is_file())
        elif path.is_file():
            found = [path]
        elif path.exists():  # a FIFO or a device: reading it could block forever
            raise InputError(f"not a suite file or folder: {path} (not a regular file)")
        else:
            raise InputError(f"no such suite file or folder: {path}")
        for file in found:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                files.append(file)
    return files


def load_suites(paths: Iterable[str | Path] = (), strict: bool = False) -> list[SuiteRecord]:
    """Load every record of the given EPD files/folders; ids must be unique across them.
    ``strict`` makes a position that cannot arise in a game an error of its line."""
    records: list[SuiteRecord] = []
    where: dict[str, str] = {}
    paths = list(paths)
    files = suite_paths(paths)
    for path in files:
        for record in load_file(path, strict):
            if record.id in where:
                raise InputError(
                    f"{record.location}: duplicate id {record.id!r} (first at {where[record.id]})"
                )
            where[record.id] = record.location
            records.append(record)
    if not records:
        shown = ", ".join(display_path(Path(p)) for p in paths or [positions_dir()])
        raise InputError(f"no suite positions found in {shown}")
    return records


def load_file(path: Path, strict: bool = False) -> list[SuiteRecord]:
    """The records of one EPD file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{display_path(path)}: cannot read: {err}") from err
    records = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            records.append(parse_line(line, path, lineno, strict))
        except InputError as err:
            raise InputError(f"{display_path(path)}:{lineno}: {err}") from err
    return records


def parse_line(line: str, path: Path, lineno: int, strict: bool = False) -> SuiteRecord:
    """One EPD line into a SuiteRecord; raises InputError (without the location)."""
    # a file named like chess960.epd is read in Chess960 mode; elsewhere the FEN decides
    epd = parse_epd(line, True if "960" in path.stem else None, strict)
    depths: dict[int, int] = {}
    stats: dict[int, str] = {}
    ident = None
    for name, value in epd.ops.items():
        if name == "id":
            ident = value
        elif match := _DEPTH_OP.fullmatch(name):
            depths[int(match.group(1))] = _count(name, value)
        elif match := _STAT_OP.fullmatch(name):
            stats[int(match.group(1))] = value
    if not depths:
        raise InputError("no D<n> opcodes (expected counts), e.g. 'D1 20;'")
    if not ident:
        ident = f"{path.stem}:{lineno}"
    return SuiteRecord(
        id=ident,
        fen=epd.fen,
        depths=dict(sorted(depths.items())),
        stats=dict(sorted(stats.items())),
        path=path,
        lineno=lineno,
        chess960=bool(epd.setup.chess960),
        notes=tuple(epd.setup.notes),
    )


def _count(name: str, value: str) -> int:
    if not value.isdigit():
        raise InputError(f"{name}: expected count {value!r} is not a non-negative integer")
    return int(value)


# --------------------------------------------------------------------------- running


def plan(
    records: Iterable[SuiteRecord],
    max_depth: int | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> list[Task]:
    """The counts to check: every depth up to ``max_depth`` whose expected count is at most
    ``max_nodes`` (None: no limit), shallowest first within each position."""
    tasks = []
    for record in records:
        for depth, expected in record.depths.items():
            if max_depth is not None and depth > max_depth:
                continue
            if max_nodes is not None and expected > max_nodes:
                continue
            tasks.append(Task(record, depth, expected))
    return tasks


def run(tasks: Iterable[Task], stats: bool = False) -> Iterator[SuiteResult]:
    """Run each task through ``Board.perft``, yielding its result as soon as it is known.

    At the shallowest mismatching depth of each position the result carries the divide
    (sorted by move) so the failure can be chased move by move. With ``stats``, a depth
    whose record has an ``S<depth>`` opcode is counted with ``Board.stats`` and its
    leaf counters are checked too.
    """
    from chesskit.board.board import Board  # deferred: compiles/loads the move generator

    Board().perft(1)  # load (or compile) the move generator before the first timing
    if stats:
        Board().stats(1)
    boards: dict[int, Board] = {}
    diverged: set[int] = set()
    for task in tasks:
        key = id(task.record)
        board = boards.get(key)
        if board is None:
            boards.clear()  # tasks come grouped by position; keep one board alive
            board = boards[key] = Board(task.record.fen, chess960=task.record.chess960 or None)
        wanted = None
        if stats and task.depth in task.record.stats:
            try:
                wanted = parse_stat_opcode(task.record.stats[task.depth])
            except InputError as err:
                raise InputError(f"{task.record.location}: S{task.depth}: {err}") from err
        with Timer() as timer:
            row = board.stats(task.depth) if wanted is not None else None
            nodes = row["nodes"] if row is not None else board.perft(task.depth)
        result = SuiteResult(task, nodes, timer.elapsed_s)
        if wanted is not None:
            result.stats = compare(wanted, row)
        if nodes != task.expected and key not in diverged:
            diverged.add(key)
            if task.depth >= 1:
                result.divide = dict(sorted(board.divide(task.depth).items()))
        yield result


def run_engine(tasks: Iterable[Task], engine, state_pushes: int = 2000) -> Iterator[SuiteResult]:
    """Like ``run``, but the counts come from an external ``engine`` (see ``chesskit.compare.engines``).

    At the shallowest mismatching depth of each position the result carries the engine's
    divide and ``report``: the compare descent of the engine against chesskit (when chesskit
    agrees with the engine there, the suite's expected count is the one in doubt).
    An EngineError ends the run.
    """
    from chesskit.board.board import Board
    from chesskit.compare.descent import descend
    from chesskit.compare.statecmp import state_checker

    diverged: set[int] = set()
    for task in tasks:
        record = task.record
        total_only = task.depth >= 1 and getattr(engine, "total_only", False)
        with Timer() as timer:
            if total_only:  # no divide to show: the descent asks below each move
                divide, nodes = {}, engine.perft(record.fen, task.depth, [], record.chess960)
            else:
                divide = engine.divide(record.fen, task.depth, [], record.chess960) if task.depth else {"": 1}
                nodes = sum(divide.values())
        result = SuiteResult(task, nodes, timer.elapsed_s)
        if not result.ok and id(record) not in diverged and task.depth >= 1:
            diverged.add(id(record))
            result.divide = dict(sorted(divide.items()))
            board = Board(record.fen, chess960=record.chess960 or None)
            checker = state_checker(engine, record.fen, [], record.chess960, state_pushes)
            result.report = descend(board, engine, task.depth, record.fen, [], checker, engine.name)
        yield result
