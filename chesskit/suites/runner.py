"""Loading perft suites (EPD and ``.perft``) and running them through ``Board.perft``.

The files are read by ``chesskit.suites.formats``: every position, and every line that
cannot be run as an error for that line (``LineError``), so one bad line never stops a
run. ``load_entries`` gathers both over files and folders and tells apart ids that
several files use; ``load_suites`` is the strict form (the first bad line raises).

Running is split in two: ``plan`` picks the (position, depth) pairs within the limits and
``run`` yields one ``SuiteResult`` per pair, in order, so a caller can draw progress;
with threads it counts several positions at once and splits the big counts.
"""

from __future__ import annotations

import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

from chesskit.errors import EngineError, InputError
from chesskit.suites.formats import MAX_ERRORS_KEPT, Entries, LineError, SuiteRecord, display_path, printable, read_suite
from chesskit.suites import stdin
from chesskit.suites.positions import positions_dir
from chesskit.timer import Timer
from chesskit.variants import a_position

DEFAULT_MAX_NODES = 1_000_000



@dataclass(frozen=True, slots=True)
class Task:
    """One count to check: ``record`` at ``depth`` should give ``expected`` nodes."""

    record: SuiteRecord
    depth: int
    expected: int


@dataclass(slots=True)
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
    # why the position could not be counted (its board cannot be set up, say); None when counted
    error: str | None = field(default=None)
    # an engine run: the engine failed in compare's descent of this mismatch (``report`` is None)
    engine_error: str | None = field(default=None)
    # with ``report``: the engine's dialect once the descent was done (compare's
    # "dialect_answered", None for a script or adapter) and how it spelt castling
    answered: dict | None = field(default=None)
    castling_spelling: str | None = field(default=None)
    # with ``report``: whether the engine started afresh counts it right (its wrong count
    # depended on the positions asked before it); None when that could not be asked
    fresh_agrees: bool | None = field(default=None)

    @property
    def ok(self) -> bool:
        return self.error is None and self.nodes == self.task.expected and not self.stats

    @property
    def counters_only(self) -> bool:
        """Counted right, but the leaf counters differ (``run(stats=True)``): the one test
        of "only the counters differ" that every report uses."""
        return self.error is None and self.nodes == self.task.expected and bool(self.stats)

    @property
    def mismatch(self) -> bool:
        """Counted, and the count or the leaf counters differ from the suite's."""
        return self.error is None and not self.ok

    def stats_text(self) -> str:
        """``"S3: checks expected 12, got 11"`` for a counter mismatch, else ``""``."""
        if not self.stats:
            return ""
        diffs = ", ".join(f"{name} expected {want}, got {got}" for name, (want, got) in self.stats.items())
        return f"S{self.task.depth}: {diffs}"

    def to_json(self) -> dict:
        record = self.task.record
        entry = {
            "id": record.label,
            "fen": record.shown_fen,
            "depth": self.task.depth,
            "expected": self.task.expected,
            "nodes": self.nodes,
            "ok": self.ok,
            "notes": list(record.notes),
            "file": str(record.path),
            "line": record.lineno,
        }
        if self.stats is not None:
            entry["stats_ok"] = not self.stats
            entry["stats_mismatch"] = {n: {"expected": e, "actual": a} for n, (e, a) in self.stats.items()}
        return entry


# --------------------------------------------------------------------------- loading


SUITE_SUFFIXES = (".epd", ".perft")


@dataclass
class Loaded:
    """What a set of suite files holds: the positions to run and the lines that cannot be,
    and the files in the order they were read (``in_file_order``)."""

    records: list[SuiteRecord]
    errors: list[LineError]
    files: list[Path] = field(default_factory=list)


def suite_paths(paths: Iterable[str | Path] = ()) -> list[Path]:
    """Expand files and folders (default: the positions folder) into suite files
    (``*.epd`` and ``*.perft`` in a folder), once each. A path that does not exist, or is
    neither a regular file nor a folder (a FIFO, a device: reading it could block), raises
    InputError when it is the only one given; among several it is left out
    (``load_entries`` reports it as an error for that path, and reads the others)."""
    return _sources(paths)[0]


def _sources(paths: Iterable[str | Path]) -> tuple[list[Path], list[LineError], list[Path], list[InputError]]:
    """``suite_paths``' files, the file-level LineErrors of the paths among several that
    cannot be read (see there), the folders among several with no suite file, and the
    InputErrors the paths that cannot be read would raise alone."""
    paths = list(paths)
    if any(str(p).strip() == "" for p in paths if not isinstance(p, Path)):  # Path("") is the current folder
        raise InputError("an empty suite path: give a suite file or folder")
    given = [stdin.given(p) for p in paths] or [positions_dir()]
    files: list[Path] = []
    bad: list[LineError] = []
    empty: list[Path] = []
    alone: list[InputError] = []
    seen: set[Path] = set()
    for path in given:
        found, why = _expand(path)
        if why is not None:
            if len(given) == 1:
                raise InputError(why[1])
            bad.append(LineError(path, 0, why[0]))
            alone.append(InputError(why[1]))
            continue
        if not found and path.is_dir() and len(given) > 1:
            empty.append(path)
        for file in found:
            key = file if stdin.is_stdin(file) else file.resolve()
            if key not in seen:
                seen.add(key)
                files.append(file)
    return files, bad, empty, alone


def _expand(path: Path) -> tuple[list[Path], tuple[str, str] | None]:
    """The suite files of one path (a folder's ``*.epd`` and ``*.perft``, or the file),
    or ``([], (why, message))`` for a path that does not exist or is no regular file nor
    folder: why as an error for that path, the message naming it. ``-``'s ``stdin.STDIN``
    is a suite file."""
    if stdin.is_stdin(path):
        return [path], None
    if path.is_dir():
        # a broken link, a FIFO, ... with a suite's name: read_suite reports it
        return sorted(p for p in path.iterdir() if p.suffix.lower() in SUITE_SUFFIXES and not p.is_dir()), None
    if path.is_file():
        return [path], None
    if path.exists():  # a FIFO or a device: reading it could block forever
        why = "not a suite file or folder (not a regular file)"
        return [], (why, f"not a suite file or folder: {path} (not a regular file)")
    bundled = bundled_suite(path)
    if bundled is not None:
        return [bundled], None
    return [], ("no such suite file or folder", f"no such suite file or folder: {path}")


def bundled_suite(path: Path) -> Path | None:
    """The bundled suite file a relative ``path`` that is not here names (``impossible.epd``,
    ``impossible``, ``variants/atomic.epd``, ``atomic``), or None: an installed chesskit has
    no ``positions/`` folder to name, and its skip lines and docs say to name the file."""
    if path.is_absolute() or not path.parts:
        return None
    folder = positions_dir()
    names = [path] if path.suffix.lower() in SUITE_SUFFIXES else [path, path.with_name(path.name + ".epd")]
    for name in names:
        for candidate in (folder / name, folder / "variants" / name):
            if candidate.is_file():
                return candidate
    return None


NO_SUITE_FILES = "no suite files (" + " or ".join(f"*{suffix}" for suffix in SUITE_SUFFIXES) + ")"
NO_POSITIONS = "no suite positions found"


def load_entries(
    paths: Iterable[str | Path] = (), strict: bool = False, variant: str | None = None, seen: Callable[[SuiteRecord], None] | None = None
) -> Loaded:
    """Every position and every bad line of the given files/folders (``strict``: a position
    that cannot arise in a game is an error for its line, see ``board/fen.py``).

    Ids are unique within a file (``chesskit.suites.formats.read_suite``); an id that
    several files use is told apart by the file's name: each record's ``name`` is its id,
    or ``file:id`` (``tricky.perft:pos-2``) when another file of the run uses the id too.
    A file that cannot be read (no permission, a broken link, UTF-16), and among several
    paths one that does not exist or is no regular file nor folder, is an error for the
    whole file (a LineError at line 0) and the other files are read; so is, where the run
    has anything else to run or report, a file that holds no line at all to run or report
    and a folder given among several that holds no suite file. Raises InputError for the
    only path given when it does not exist, when no file can be read at all (the first
    one's reason), and when the files hold no line at all to run or report. ``variant``:
    the rules of the files and lines that name none (``read_suite``).
    """
    paths = list(paths)
    files, bad, empty_folders, unreadable = _sources(paths)
    records: list[SuiteRecord] = []
    errors: list[LineError] = [*bad, *(LineError(f, 0, f"{NO_SUITE_FILES} in this folder") for f in empty_folders)]
    read_any = False  # a file that holds a line to run or report
    for path in files:
        try:
            entries = read_suite(path, strict, variant, seen)
        except InputError as err:
            unreadable.append(err)
            entries = [LineError(path, 0, str(err).removeprefix(f"{display_path(path)}: "))]
        read_any = read_any or bool(entries)
        # nothing in it: reported where the run has something else (else raised below)
        capped = Entries(path, MAX_ERRORS_KEPT - len(errors))
        for entry in entries or [LineError(path, 0, f"{NO_POSITIONS}: no line is a position")]:
            capped.append(entry)
        for entry in capped.done():
            (records if isinstance(entry, SuiteRecord) else errors).append(entry)
    if unreadable and len(unreadable) == len(files) + len(bad) and not empty_folders:
        raise unreadable[0]
    if not read_any and not bad:
        shown = ", ".join(display_path(stdin.given(p)) for p in paths or [positions_dir()])
        if not files:  # only folders given, and none holds a suite file
            raise InputError(f"{NO_SUITE_FILES} in {shown}")
        raise InputError(f"{NO_POSITIONS} in {shown}: no line is a position")
    _tell_apart(records)
    return Loaded(records, errors, files)


def in_file_order(errors: list[LineError], files: list[Path]) -> list[LineError]:
    """``errors`` by file, in the order ``files`` were read (a path that is none of them,
    one given that does not exist, first), and by line within a file: the lines refused
    while reading and those refused when run (a position the engine cannot count) as
    they stand in the files."""
    rank = {path: i for i, path in enumerate(files)}
    return sorted(errors, key=lambda error: (rank.get(error.path, -1), error.lineno))


def _tell_apart(records: list[SuiteRecord]) -> None:
    """Name each record whose id another file of the run uses too ``file:id`` (in place: a
    second list of a million records would not fit)."""
    files_of: dict[str, set[Path]] = {}
    for record in records:
        files_of.setdefault(record.id, set()).add(record.path)
    shared = {ident for ident, files in files_of.items() if len(files) > 1}
    # the file's name tells them apart; where two files share a name too, their whole path
    names = {(p.name, i) for i in shared for p in files_of[i]}
    same_name = len(names) < sum(len(files_of[i]) for i in shared)
    for index, r in enumerate(records):
        if r.id in shared:
            records[index] = replace(r, name=f"{display_path(r.path) if same_name else r.path.name}:{r.id}")


def load_suites(paths: Iterable[str | Path] = (), strict: bool = False) -> list[SuiteRecord]:
    """The records of the given files/folders; the first bad line raises InputError."""
    loaded = load_entries(paths, strict)
    if loaded.errors:
        raise InputError(str(loaded.errors[0]))
    return loaded.records


def load_file(path: Path, strict: bool = False) -> list[SuiteRecord]:
    """The records of one suite file; the first bad line raises InputError."""
    return load_suites([path], strict)


# --------------------------------------------------------------------------- running


def skipped(
    records: Iterable[SuiteRecord],
    max_depth: int | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> list[tuple[SuiteRecord, str]]:
    """The records ``plan`` makes no count of, each with why: every count over ``max_nodes``
    (or every depth over ``max_depth``)."""
    found = []
    for record in records:
        depths = [d for d in record.depths if max_depth is None or d <= max_depth]
        if not depths:
            found.append((record, f"every depth over --max-depth {max_depth}"))
        elif max_nodes is not None and all(record.depths[d] > max_nodes for d in depths):
            least = min(record.depths[d] for d in depths)
            found.append((record, f"every count over --max-nodes {max_nodes} (the least: {least})"))
    return found


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


# A count expected to exceed this many nodes is split over all the threads (``Board.perft``
# with ``threads``); smaller ones run whole, several positions at once, one per thread.
# Splitting costs each of a count's tasks its Python and a turn on the GIL, which only a
# large count pays for: every 20th position of random.perft to depth 5 (counts up to
# 10^8 nodes), two threads, took 9.6-10.1 s split from 20 M nodes up, 4.0-4.9 s with
# none split, against 5.2-9.1 s on one thread (docs/benchmarks.md, 2026-11-29 afternoon)
SPLIT_NODES = 1_000_000_000
# Positions with only small counts go to a thread in batches of about this many expected
# nodes (a millisecond or two of counting) or BATCH_POSITIONS positions: one task per
# position cost the pool's hand-off (and a wake-up of the thread that collects the
# results) for each few hundred microseconds of counting.
BATCH_NODES = 2_000_000
BATCH_POSITIONS = 64
# A worker process's batch: a hand-off costs a pickle, a socket's round trip and a
# wake-up, so larger (random.perft D1-D4, 1,700 batches of 2 M nodes against 530 of
# 8 M: 0.15-0.2 CPU s less in the parent, which reads the files meanwhile)
PROCESS_BATCH_NODES = 8_000_000
# The shallowest count given the shared table. Below it the table can only cost: no
# position repeats within a tree's first two plies, and the walk neither stores nor looks
# up a node one ply above the leaves, so a count to depth 4 never finds an entry (and
# looking, storing and the table's cache misses cost it 10-30%, random.perft D1-D4).
TABLE_FROM_DEPTH = 5
_NO_TABLE = np.zeros(0, dtype=np.uint64)
# How many batches may be queued ahead of the one whose results are due next.
_AHEAD_PER_THREAD = 4
# How many ``Ahead`` may have started and not finished: more, so that the workers still
# have work (about 0.3 s of it with PROCESS_BATCH_NODES) while the parent goes from
# reading the files to running them (planning, estimating, setting up the run: 0.1-0.2 s
# in which, with 4 per thread, they ran dry)
_STARTED_PER_THREAD = 32


def run(
    tasks: Iterable[Task],
    stats: bool = False,
    threads: int = 1,
    hash_mb: float = 0,
    progress: Callable[[Task, float], None] | None = None,
    gpu=None,
    ahead: "Ahead | None" = None,
) -> Iterator[SuiteResult]:
    """Run each task through ``Board.perft``, yielding the results in task order.

    At the shallowest mismatching depth of each position the result carries the divide
    (sorted by move) so the failure can be chased move by move. With ``stats``, a depth
    whose record has an ``S<depth>`` opcode is counted with ``Board.stats`` and its
    leaf counters are checked too. A position that cannot be counted (its board cannot be
    set up) gives results with ``error`` set.

    ``threads`` > 1 counts several positions at once: standard chess positions whose
    counts need no table on that many worker processes (``procs``: the Python around
    each small count runs in parallel too), the others on that many threads (the compiled
    walk releases the GIL); a count expected above ``SPLIT_NODES`` is split over all the
    threads. The counts are the same as with one thread. ``hash_mb`` sizes one transposition table
    shared by every count (one for standard chess, one for Chess960). ``progress(task,
    fraction)`` is called as a count above ``SPLIT_NODES`` advances (the fraction of it
    done); it costs the walk a little, so pass it only when something is drawn. ``gpu``
    (a ``chesskit.gpu.walk.Walk``): every count and divide is made on the GPU instead, one
    position after another (``threads``, ``hash_mb`` and ``progress`` are for the CPU walk).
    ``ahead``: the counts started while the files were read (its threads and table are
    this run's; its counts are taken where they are the task's, the rest made here); it is
    closed when the run ends.
    """
    from chesskit.board.board import Board  # deferred: compiles/loads the move generator

    if ahead is not None and (stats or gpu is not None or threads != ahead.threads or hash_mb != ahead.tables.hash_mb):
        ahead.close()  # not made for this run (the caller's slip): its counts are not used
        ahead = None
    Board().perft(1)  # load (or compile) the move generator before the first timing
    if stats:
        Board().stats(1)
    tables = _Tables(hash_mb) if ahead is None else ahead.tables
    jobs = by_position(tasks)
    if gpu is not None:
        for job in jobs:
            yield from _run_job(job, False, tables, 1, gpu=gpu)
        return
    if threads <= 1:
        for job in jobs:
            yield from _run_job(job, stats, tables, 1, progress=progress)
        return
    yield from _run_threads(jobs, stats, threads, tables, progress, ahead)


def _run_threads(jobs, stats, threads, tables, progress, ahead) -> Iterator[SuiteResult]:
    """``run`` on ``threads`` threads or worker processes (see there)."""
    batches = _Batches(threads, tables, stats) if ahead is None else ahead.batches
    window = _Window(_AHEAD_PER_THREAD * threads)

    try:
        for job in jobs:
            cut = 0  # the shallow counts run whole; from the first big one on, each is split
            while cut < len(job) and job[cut].expected <= SPLIT_NODES:
                cut += 1
            small, big = job[:cut], job[cut:]
            started = ahead.take(job) if ahead is not None and not big else None
            if started is not None:  # counted while the files were read: in its place in the order
                window.add(batches.flush())
                window.add_share(started)
            elif not big:
                window.add(batches.add(small))
            if not big:
                yield from window.due()
                continue
            window.add(batches.flush())
            if small:
                window.add(batches.add(small, alone=True))
            done: list[SuiteResult] = []
            while window:  # what is queued first, then the big counts over every thread
                done = window.next()
                yield from done
            diverged = bool(small) and any(r.mismatch for r in done)
            yield from _run_job(big, stats, tables, threads, diverged, progress)
        window.add(batches.flush())
        while window:
            yield from window.next()
    finally:
        batches.close(wait=True)
        if ahead is not None:
            ahead.close()


class _Window:
    """The results due next, in order: the futures of the batches ``run`` submitted and
    ``Ahead``'s shares of batches started earlier. At most ``room`` of the batches submitted
    here wait (a file of a million lines never queues a million counts); the shares do not
    count, as they give the workers nothing more to do: counted with them, a stretch of
    positions started ahead left the workers with a batch or two queued while the parent
    waited for the oldest (random.perft: a worker found its queue empty 45-54 times)."""

    def __init__(self, room: int):
        self.room = room
        self.items: deque = deque()  # futures and shares, in order
        self.queued = 0  # the futures among them

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, submitted: list[tuple[Future, list[list[Task]]]]) -> None:
        self.items.extend(future for future, _ in submitted)
        self.queued += len(submitted)

    def add_share(self, share: "_Share") -> None:
        self.items.append(share)

    def next(self) -> list[SuiteResult]:
        """The first item's results (waiting for them)."""
        item = self.items.popleft()
        if not isinstance(item, _Share):
            self.queued -= 1
        return item.result()

    def due(self) -> Iterator[SuiteResult]:
        """The results that must be taken now: those up to the batch that makes more than
        ``room`` wait. Not sooner: the workers' queues are filled first (taking the results
        of a stretch of positions started ahead, before reaching the next position to
        submit, left the workers without work for 0.1-0.2 s after the files were read)."""
        while self.items and self.queued > self.room:
            yield from self.next()


class _Batches:
    """Whole positions of small counts, gathered into batches (``BATCH_NODES`` or
    ``PROCESS_BATCH_NODES``, ``BATCH_POSITIONS``) and handed out: to worker processes
    (``procs``, one GIL each) for standard chess positions whose counts need no table,
    to a pool of threads for the rest (variants, ``--stats``, counts that share the
    table). Both are made on first use and closed by ``close``. ``add`` and ``flush``
    return what they submitted: (future of the batch's results in order, its positions)."""

    def __init__(self, threads: int, tables: "_Tables", stats: bool):
        self.threads, self.tables, self.stats = threads, tables, stats
        self.jobs: list[list[Task]] = []
        self.weight = 0
        self.in_process = False  # where the batch gathered so far goes
        self.pool: ThreadPoolExecutor | None = None
        self.workers = None  # a procs.Workers
        self.no_workers = False  # they could not be started
        self.closed = False

    def add(self, job: list[Task], alone: bool = False) -> list[tuple[Future, list[list[Task]]]]:
        """Gather ``job`` (``alone``: as a batch of its own, submitted now)."""
        in_process = self._in_process(job)
        submitted = self.flush() if alone or (self.jobs and in_process != self.in_process) else []
        self.jobs.append(job)
        self.in_process = in_process
        self.weight += sum(task.expected for task in job)
        full = PROCESS_BATCH_NODES if in_process else BATCH_NODES
        if alone or self.weight >= full or len(self.jobs) >= BATCH_POSITIONS:
            submitted += self.flush()
        return submitted

    def flush(self) -> list[tuple[Future, list[list[Task]]]]:
        """Submit the batch gathered so far."""
        if not self.jobs or self.closed:
            return []
        jobs, self.jobs, self.weight = self.jobs, [], 0
        if self.in_process and self.workers is None and not self.no_workers:
            from chesskit.suites.procs import Workers

            try:
                self.workers = Workers(self.threads, _counted_packed)
            except OSError:  # no process to be had (a limit on processes, memory): threads count it all
                self.no_workers = True
        if self.in_process and not self.no_workers:
            future = self.workers.submit(_packed(jobs), then=lambda answers: _unpacked(jobs, answers))
        else:
            if self.pool is None:
                self.pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="chesskit-suite")
            future = self.pool.submit(_counted, jobs, self.stats, self.tables)
        return [(future, jobs)]

    def _in_process(self, job: list[Task]) -> bool:
        from chesskit.suites import procs

        return (
            PROCESSES
            and procs.AVAILABLE
            and not self.stats
            and job[0].record.variant == "chess"
            and (self.tables.hash_mb == 0 or all(task.depth < TABLE_FROM_DEPTH for task in job))
        )

    def close(self, wait: bool) -> None:
        """No more batches: what has not started is cancelled (the workers are ended)."""
        self.closed = True
        self.jobs = []
        if self.workers is not None:
            self.workers.close()
        if self.pool is not None:
            self.pool.shutdown(wait=wait, cancel_futures=True)


# Standard chess positions of small counts go to worker processes (``_Batches``); False:
# threads for all (a test's comparison)
PROCESSES = True


def _packed(jobs: list[list[Task]]) -> list[tuple]:
    """A batch as a worker process gets it: for each position what its board is made of
    (``SuiteRecord.board``) and its (depth, expected) counts; plain tuples pickle in a
    tenth of the time the Tasks and records take."""
    return [
        (r.fen, r.chess960, r.variant, r.notes, r.setup, [(t.depth, t.expected) for t in job])
        for job in jobs
        for r in (job[0].record,)
    ]


def _counted_packed(packed: list[tuple]) -> list[tuple]:
    """``_counted`` in a worker process, of a batch that ``_packed`` packed: each result
    as (nodes, seconds, divide, error), in order (``_unpacked``); no table, no ``--stats``."""
    jobs = []
    for fen, chess960, variant, notes, setup, counts in packed:
        record = SuiteRecord("", fen, {}, {}, _NOWHERE, 0, chess960, notes=notes, variant=variant, setup=setup)
        jobs.append([Task(record, depth, expected) for depth, expected in counts])
    return [(r.nodes, r.seconds, r.divide, r.error) for r in _counted(jobs, False, _Tables(0))]


_NOWHERE = Path()


def _unpacked(jobs: list[list[Task]], answers: list[tuple]) -> list[SuiteResult]:
    """The SuiteResults of ``jobs``' tasks from a worker's ``_counted_packed``."""
    tasks = [task for job in jobs for task in job]
    return [SuiteResult(task, n, s, divide=d, error=e) for task, (n, s, d, e) in zip(tasks, answers, strict=True)]


class Ahead:
    """Counts started while the suite files are still read, so that the workers count
    while the main thread reads (``prepare``'s reading is most of a big suite's serial
    part). Speculative: ``offer`` (``load_entries``'s ``seen``) hands each record's small
    counts within the limits to the workers, in ``run``'s batches (``_Batches``); ``run``
    then ``take``s a position's results only where its planned tasks are exactly those
    (the same line, position and (depth, expected) counts: ``--tags``, ``--skip-chess960``
    and the estimate may plan otherwise), re-labelled with the planned tasks
    (``load_entries`` may rename a record), and counts the others itself. At most
    ``_STARTED_PER_THREAD`` batches per thread wait: beyond that a record is left to
    ``run``, so a file of a million lines never queues a million counts. For chesskit's
    CPU walk with ``threads`` > 1 and no ``--stats``; ``close`` (``run`` does, at its end)
    cancels what has not started."""

    def __init__(self, threads: int, hash_mb: float, max_depth: int | None, max_nodes: int | None):
        self.threads, self.max_depth, self.max_nodes = threads, max_depth, max_nodes
        self.tables = _Tables(hash_mb)
        self.batches = _Batches(threads, self.tables, False)
        self.pending: deque[Future] = deque()
        # (file, line) -> (the record's tasks, their batch's future, where they start in it)
        self.started: dict[tuple[Path, int], tuple[list[Task], Future, int]] = {}
        self.closed = False

    def offer(self, record: SuiteRecord) -> None:
        """Start ``record``'s counts if they are all small and the workers have room."""
        if self.closed:
            return
        from chesskit.suites.estimate import beyond_doubt

        tasks = plan([record], self.max_depth, self.max_nodes)
        # never a count that the estimate might refuse (an understated one could run for hours)
        if not tasks or any(task.expected > SPLIT_NODES or not beyond_doubt(task, self.max_nodes) for task in tasks):
            return
        if len(self.pending) >= _STARTED_PER_THREAD * self.threads:  # asking costs a system call: only when full
            while self.pending and self.pending[0].done():
                self.pending.popleft()
            if len(self.pending) >= _STARTED_PER_THREAD * self.threads:
                return
        if not self.started and not self.batches.jobs:
            from chesskit.board.board import Board

            Board().perft(1)  # the walk loaded here (once a count is due), before a worker wants it
        self._started(self.batches.add(tasks))

    def submit(self) -> None:
        """Hand the batch gathered so far to the workers."""
        if not self.closed:
            self._started(self.batches.flush())

    def _started(self, submitted: list[tuple[Future, list[list[Task]]]]) -> None:
        for future, jobs in submitted:
            at = 0
            for tasks in jobs:
                record = tasks[0].record
                self.started[(record.path, record.lineno)] = (tasks, future, at)
                at += len(tasks)
            self.pending.append(future)

    def take(self, job: list[Task]) -> "_Share | None":
        """``job``'s share of a started batch if it was started with the same tasks, else None."""
        record = job[0].record
        found = self.started.pop((record.path, record.lineno), None)
        if found is None:
            return None
        tasks, future, at = found
        was = tasks[0].record
        if (was.fen, was.chess960, was.variant, was.setup) != (record.fen, record.chess960, record.variant, record.setup):
            return None
        if [(t.depth, t.expected) for t in tasks] != [(t.depth, t.expected) for t in job]:
            return None
        return _Share(future, at, job)

    def close(self) -> None:
        """No more counts: what has not started is cancelled."""
        self.closed = True
        self.batches.close(wait=False)


class _Share:
    """One position's results within a batch's future (``Ahead.take``): ``result()`` gives
    them re-labelled with the planned tasks."""

    def __init__(self, future: Future, at: int, job: list[Task]):
        self.future, self.at, self.job = future, at, job

    def result(self) -> list[SuiteResult]:
        results = self.future.result()[self.at : self.at + len(self.job)]
        for result, task in zip(results, self.job):
            result.task = task
        return results


def by_position(tasks: Iterable[Task]) -> list[list[Task]]:
    """The tasks in runs of the same record (plan gives them grouped)."""
    jobs: list[list[Task]] = []
    for task in tasks:
        if jobs and jobs[-1][0].record is task.record:
            jobs[-1].append(task)
        else:
            jobs.append([task])
    return jobs


class _Tables:
    """The shared transposition tables, made on first use: one per variant for standard
    castling and one for Chess960 (their keys do not tell the rules apart)."""

    def __init__(self, hash_mb: float):
        self.hash_mb = hash_mb
        self.tables: dict[tuple[str, bool], object] = {}
        self.lock = threading.Lock()

    def get(self, chess960: bool, variant: str = "chess"):
        key = (variant, chess960)
        with self.lock:
            if key not in self.tables:
                from chesskit.core.hashtable import allocate

                self.tables[key] = allocate(self.hash_mb)
            return self.tables[key]



def _counted(jobs: list[list[Task]], stats: bool, tables: _Tables) -> list[SuiteResult]:
    """``_run_job`` of each position's tasks on one thread, to the end (what a worker of
    the pool runs), the results in order."""
    return [result for tasks in jobs for result in _run_job(tasks, stats, tables, 1)]


def _run_job(
    tasks: list[Task],
    stats: bool,
    tables: _Tables,
    threads: int,
    diverged: bool = False,
    progress: Callable[[Task, float], None] | None = None,
    gpu=None,
) -> Iterator[SuiteResult]:
    """The results of one position's tasks, counted here (``threads`` for each count, or
    on ``gpu``). A position the walk refuses (``Board.perft``'s InputError: a clock that
    its moves would take past ``MAX_CLOCK``, a tree too big for a 64-bit count) gives
    results with ``error`` for that count and the ones after it."""
    record = tasks[0].record
    try:
        board = record.board()
    except InputError as err:
        for task in tasks:
            yield SuiteResult(task, 0, 0.0, error=printable(str(err)))
        return
    if gpu is not None:
        try:
            gpu.check(board)  # a variant: this position's error, the rest runs
        except InputError as err:
            for task in tasks:
                yield SuiteResult(task, 0, 0.0, error=printable(str(err)))
            return
    for index, task in enumerate(tasks):
        try:
            result = _count_task(board, task, stats, tables, threads, diverged, progress, gpu)
        except InputError as err:  # the walk refuses it (a clock past MAX_CLOCK, a tree past 64-bit counts)
            for rest in tasks[index:]:  # this position's error, the counts made stand: the run goes on
                yield SuiteResult(rest, 0, 0.0, error=printable(str(err)))
            return
        diverged = diverged or result.nodes != task.expected
        yield result


def _count_task(board, task: Task, stats: bool, tables: _Tables, threads: int, diverged: bool, progress, gpu) -> SuiteResult:
    """One count of ``_run_job`` (see there), with the divide where it is the position's
    first mismatch (``diverged``: one came before). Raises InputError where the walk
    refuses the position."""
    from chesskit.board.counters import compare, counter_names, parse_stat_opcode

    record = task.record
    # a table only where it can pay (TABLE_FROM_DEPTH); the shared one made on first use
    table = tables.get(bool(board.chess960), record.variant) if gpu is None and task.depth >= TABLE_FROM_DEPTH else _NO_TABLE
    wanted = None
    if stats and task.depth in record.stats:  # read when the line was (formats.parse_epd_line)
        wanted = parse_stat_opcode(record.stats[task.depth], counter_names(board))
    report = None
    if progress is not None and task.expected > SPLIT_NODES and task.depth >= 4:  # worth a bar
        report = lambda done, total, nodes, task=task: progress(task, done / total)  # noqa: E731
    with Timer() as timer:
        if wanted is not None:
            row = board.stats(task.depth)
            nodes = row["nodes"]
        elif gpu is not None:
            nodes = gpu.perft(board, task.depth)
        else:
            nodes = board.perft(task.depth, threads=threads, progress=report, table=table)
    result = SuiteResult(task, nodes, timer.elapsed_s)
    if wanted is not None:
        result.stats = compare(wanted, row)
    if nodes != task.expected and not diverged and task.depth >= 1:
        by_move = gpu.divide(board, task.depth) if gpu is not None else board.divide(task.depth, threads=threads, table=table)
        result.divide = dict(sorted(by_move.items()))
    return result


def run_engine(tasks: Iterable[Task], engine, state_pushes: int = 2000) -> Iterator[SuiteResult]:
    """Like ``run``, but the counts come from an external ``engine`` (see ``chesskit.compare.engines``).

    At the shallowest mismatching depth of each position the result carries the engine's
    divide and ``report``: the compare descent of the engine against chesskit (when chesskit
    agrees with the engine there, the suite's expected count is the one in doubt).
    An EngineError is raised; one in the descent comes after the mismatch's result, which
    then has ``engine_error`` set (``chesskit.suites.session`` makes either that
    position's result and goes on). An interrupt in the descent carries the mismatch's
    result, without its report, as ``unfinished_result``. A mismatch that chesskit's walk cannot descend (the
    position's clocks would pass ``MAX_CLOCK``) is a result with ``error``: the position's.
    """
    from chesskit.compare.descent import descend
    from chesskit.compare.engines.base import answers_by_totals
    from chesskit.compare.statecmp import state_checker

    diverged: set[int] = set()
    rules = getattr(_unwrapped(engine), "variant", "chess")
    for task in tasks:
        record = task.record
        if record.variant != rules:  # the engine is set to one variant for the run
            yield SuiteResult(
                task, 0, 0.0, error=f"{a_position(record.variant)}, and the engine counts {rules} (give --variant {record.variant})"
            )
            continue
        with Timer() as timer:
            total_only = task.depth >= 1 and answers_by_totals(engine, record.fen, record.chess960)
            divide, nodes = _engine_count(engine, task, total_only)
        result = SuiteResult(task, nodes, timer.elapsed_s)
        if not result.ok and id(record) not in diverged and task.depth >= 1:
            diverged.add(id(record))
            result.divide = dict(sorted(divide.items()))
            try:
                board = record.board()
                checker = state_checker(_unwrapped(engine), record.fen, [], record.chess960, state_pushes)
                if checker is not None:
                    checker.engine = engine  # its questions bounded as the engine's are
                # the FEN as shown and as the engine read it: Shredder-FEN for a Chess960 position (X-FEN's
                # KQ, shown where the engine got FC, reads as standard chess)
                result.report = descend(board, engine, task.depth, record.shown_fen, [], checker, engine.name)
                result.answered, result.castling_spelling = _spoken(engine)
                result.fresh_agrees = _fresh_agrees(engine, task, total_only)
            except EngineError as err:
                result.engine_error = str(err)
                yield result
                raise
            except KeyboardInterrupt as stop:  # the count stands: a report of the run made so far holds it
                stop.unfinished_result = result
                raise
            except InputError as err:  # chesskit's walk refuses it (a clock past MAX_CLOCK): no descent
                why = f"{mismatch_text(result)} from the engine, and chesskit cannot walk this position: {err}"
                result = SuiteResult(task, nodes, result.seconds, error=printable(why))
        yield result


def _fresh_agrees(engine, task: Task, total_only: bool) -> bool | None:
    """Whether ``engine``, started afresh and asked ``task`` first, gives the suite's count:
    then its wrong one depended on the positions asked before it (state kept between
    positions: a hash table not cleared, or keyed without castling rights or the en-passant
    square), which a descent from the position alone reads as an unmake that does not
    restore the state. None where it could not be asked (it failed, or cannot be restarted)."""
    from chesskit.suites.guard import restart

    if not callable(getattr(engine, "close", None)):
        return None
    restart(engine)
    try:
        return _engine_count(engine, task, total_only)[1] == task.expected
    except EngineError:
        restart(engine)
        return None


def _engine_count(engine, task: Task, total_only: bool) -> tuple[dict[str, int], int]:
    """The engine's divide of ``task`` and its count: the total alone where it answers
    with totals (no divide to show: the descent asks below each move)."""
    record = task.record
    if total_only:
        return {}, engine.perft(record.fen, task.depth, [], record.chess960)
    divide = engine.divide(record.fen, task.depth, [], record.chess960) if task.depth else {"": 1}
    return divide, sum(divide.values())


def mismatch_text(result: SuiteResult) -> str:
    """``D2: expected 401, got 400``."""
    return f"D{result.task.depth}: expected {result.task.expected}, got {result.nodes}"


def _spoken(engine) -> tuple[dict | None, str | None]:
    """The engine's dialect now (compare's ``"dialect_answered"``, None for a script or an
    adapter) and its castling spelling: what compare's object adds after a descent."""
    backend = _unwrapped(engine)
    info = engine.dialect_info()
    answered = None if info is None else info.spoken(getattr(backend, "detected", True), about=False)
    return answered, getattr(backend, "castling_spelling", None)


def _unwrapped(engine):
    """The engine behind a ``guard.Clocked`` (what ``state_checker`` recognises)."""
    from chesskit.suites.guard import Clocked

    return engine.engine if isinstance(engine, Clocked) else engine
