"""The checkpoint: an append-only JSON-lines file of finished tasks.

    {"checkpoint": "chesskit-perft", "format": 2, "fen": ..., "chess960": false, "depth": 8,
     "split_depth": 2, "version": "0.1.0", "tasks": 371, "task_hash": "3f0c..."}
    {"task": 17, "nodes": 123456789, "sha256": "9c1e..."}
    {"task": 4, "nodes": 98765432, "sha256": "e0a7..."}

The first line describes the run; a file whose header differs in any field is refused
rather than mixed into another run's total. Every task line is written whole, flushed and
fsync'ed before the driver moves on, so a crash can lose at most the line being written:
a last line without its newline is a torn write, ignored and cut off on resume. An
exclusive lock (``flock``) keeps two runs from appending to the same file.

Each task line carries a checksum (``line_sum``: SHA-256 of the run's task hash, the task
and its count, no secret): a count edited by hand or damaged on disk no longer matches it.
Such a line is not summed: it is reported (a warning naming the line) and its task is
computed again, which costs one task and gives the right total, where refusing the whole
file would throw away every other finished task. A format 1 file (before the checksums)
is still resumed, with a warning that its counts cannot be verified; lines appended to it
keep its format.

The file is read line by line, each line capped at ``MAX_LINE`` bytes, and a first line
that is not a checkpoint header is refused before anything else is read: a large file
that is no checkpoint costs no memory. A write that fails (a full disk) is undone: the
file is cut back to its last whole line, and a file this run created is removed, so no
empty or torn checkpoint stays behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import json
import os
from pathlib import Path
from typing import Iterator

from chesskit import __version__
from chesskit.board.fen import shown_fen
from chesskit.cluster.errors import CheckpointError
from chesskit.outpath import fsync_folder

FORMAT = 2
READABLE = (1, 2)  # format 1: the same lines without checksums
MAGIC = "chesskit-perft"
_PREFIX = b'{"checkpoint":"%s"' % MAGIC.encode()  # how every header line starts
# The fields that must agree for a checkpoint to be resumed, in the order they are reported.
RUN_FIELDS = ("fen", "chess960", "depth", "split_depth", "version", "tasks", "task_hash")
# The longest line a checkpoint holds (a header with a long FEN is a few hundred bytes).
MAX_LINE = 4096


def header_for(plan) -> dict:
    return {
        "checkpoint": MAGIC,
        "format": FORMAT,
        "fen": shown_fen(plan.fen, plan.chess960),  # Chess960's castling in Shredder-FEN (see same_fen)
        "chess960": plan.chess960,
        "depth": plan.depth,
        "split_depth": plan.split_depth,
        "version": __version__,
        "tasks": len(plan.tasks),
        "task_hash": plan.task_hash,
    }


def same_fen(found, fen: str, chess960: bool) -> bool:
    """Whether a header's ``fen`` names the position ``fen``: as ``header_for`` writes it
    (``shown_fen``: a Chess960 position's castling in Shredder-FEN, ``HFhf``, as every FEN
    chesskit writes for one), or as a checkpoint written before it did (X-FEN's ``KQkq``)."""
    return found == shown_fen(fen, chess960) or found == fen


def line_sum(task_hash: str, task: int, nodes: int) -> str:
    """The checksum of one task line: what an edited count no longer matches."""
    return hashlib.sha256(f"{task_hash} {task} {nodes}".encode()).hexdigest()[:16]


def _lines(handle) -> Iterator[tuple[bytes, int]]:
    """``(line, end offset)`` of each line of ``handle`` that ends with a newline, each read
    with at most ``MAX_LINE`` bytes held; a longer line is yielded cut (it parses as corrupt)."""
    offset = handle.tell()
    while True:
        line = handle.readline(MAX_LINE)
        if not line.endswith(b"\n"):
            if len(line) < MAX_LINE:
                return  # the end, or a torn last line
            rest = line
            while rest and not rest.endswith(b"\n"):  # skip the rest of an overlong line
                rest = handle.readline(MAX_LINE)
                offset += len(rest)
            if not rest:
                return
        offset += len(line)
        yield line, offset


def read_header(path: str | os.PathLike) -> dict | None:
    """The header of an existing checkpoint, or None (no file, empty, or a torn header)."""
    try:
        with open(path, "rb") as f:
            first = f.readline(MAX_LINE)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise CheckpointError(f"cannot read checkpoint {path}: {err.strerror}") from None
    if not first.endswith(b"\n"):
        if len(first) >= MAX_LINE:
            raise CheckpointError(f"{path} is not a chesskit perft checkpoint; refusing to overwrite it")
        return None
    return _parse_header(path, first)


def _parse_header(path, line: bytes) -> dict:
    try:
        header = _loads(line)
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("checkpoint") != MAGIC:
        raise CheckpointError(f"{path} is not a chesskit perft checkpoint; refusing to overwrite it")
    found = header.get("format")
    if type(found) is not int or found not in READABLE:
        raise CheckpointError(f"checkpoint {path} has format {found!r}; this chesskit writes {FORMAT}")
    return header


def _same(found, wanted) -> bool:
    """Equal and of the same JSON type (``true`` is not 1, ``8.0`` is not 8)."""
    return type(found) is type(wanted) and found == wanted


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number chesskit writes")


def _loads(line: bytes):
    """JSON without the NaN/Infinity extensions Python's json otherwise accepts."""
    return json.loads(line, parse_constant=_no_constant)


# A task's node count: the perft of a subtree, never more than a signed 64-bit counter holds.
MAX_NODES = 2**63 - 1


def _parse_task(path, number: int, line: bytes, ntasks: int) -> tuple[int, int, str | None]:
    """``(task, nodes, checksum or None)`` of task line ``number``, or CheckpointError naming the line."""
    where = f"checkpoint {path} line {number}"
    try:
        entry = _loads(line)
    except ValueError:
        raise CheckpointError(f"{where} is corrupt: {line[:60]!r}") from None
    if not isinstance(entry, dict) or not {"task", "nodes"} <= set(entry) <= {"task", "nodes", "sha256"}:
        raise CheckpointError(
            f"{where} is corrupt (expected {{\"task\": N, \"nodes\": N, \"sha256\": ...}}): {line[:60]!r}"
        )
    task, nodes = entry["task"], entry["nodes"]
    for name, value in (("task", task), ("nodes", nodes)):
        if type(value) is not int:
            raise CheckpointError(f"{where} is corrupt: {name} {json.dumps(value)[:30]} is not an integer")
    if not 0 <= task < ntasks:
        raise CheckpointError(f"{where} names task {task}, but the run has tasks 0 to {ntasks - 1}")
    if not 0 <= nodes <= MAX_NODES:
        raise CheckpointError(f"{where} is corrupt: task {task} has {nodes} nodes")
    checksum = entry.get("sha256")
    return task, nodes, checksum if isinstance(checksum, str) else None


def split_depth_of(path, header: dict, depth: int) -> int:
    """The split depth a checkpoint's header records, checked against the run's ``depth``."""
    value = header.get("split_depth")
    if type(value) is not int or not 0 <= value <= depth:
        raise CheckpointError(
            f"checkpoint {path} line 1 is corrupt: split_depth {json.dumps(value)[:30]} "
            f"must be an integer from 0 to the depth ({depth})"
        )
    return value


def _show(value) -> str:
    """A header value as it appears in the file: strings quoted, booleans in lower case."""
    return json.dumps(value) if isinstance(value, (str, bool)) else str(value)


class Checkpoint:
    """An open checkpoint: ``finished`` maps task index -> nodes; ``record`` appends one;
    ``warnings`` says what could not be verified (lines that will be computed again, a
    format 1 file).

    Use as a context manager; it holds the file's lock until closed.
    """

    def __init__(self, path: str | os.PathLike, plan):
        self.path = Path(path)
        self.header = header_for(plan)
        self._plan_fen = (plan.fen, plan.chess960)  # for same_fen: the header's FEN in either form
        self.format = FORMAT
        self.finished: dict[int, int] = {}
        self.warnings: list[str] = []
        created = not os.path.lexists(self.path)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise CheckpointError(f"cannot open checkpoint {path}: {err.strerror}") from None
        self._file = os.fdopen(fd, "r+b", buffering=0)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._file.close()
            raise CheckpointError(f"checkpoint {path} is in use by another chesskit run") from None
        try:
            self._load(len(plan.tasks))
        except BaseException:
            empty = created and os.fstat(fd).st_size == 0
            self.close()
            if empty:  # this run made it and could not even write the header (a full disk)
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
            raise

    def _load(self, ntasks: int) -> None:
        reader = io.BufferedReader(self._file)  # the file itself is unbuffered: one read per byte
        try:
            self._read(reader, ntasks)
        finally:
            reader.detach()
        self._file.seek(self._end)

    def _read(self, handle, ntasks: int) -> None:
        first = handle.readline(MAX_LINE)
        if not first.endswith(b"\n"):  # a new file, or one holding only a torn header: start afresh
            more = handle.read(1)
            if more or len(first) >= MAX_LINE or first[: len(_PREFIX)] != _PREFIX[: len(first)]:
                raise CheckpointError(
                    f"{self.path} is not a chesskit perft checkpoint; refusing to overwrite it"
                )
            self._file.seek(0)
            self._file.truncate()
            self._end = 0
            self._append(self.header)
            fsync_folder(self.path.parent)
            return
        found = _parse_header(self.path, first)
        self._check_header(found)
        self.format = found["format"]
        task_hash = self.header["task_hash"]
        end = len(first)
        unverified: dict[int, int] = {}  # task -> the first line whose checksum failed
        for number, (line, end) in enumerate(_lines(handle), start=2):
            task, nodes, checksum = _parse_task(self.path, number, line, ntasks)
            if self.format >= 2 and checksum != line_sum(task_hash, task, nodes):
                unverified.setdefault(task, number)
                continue
            known = self.finished.get(task)
            if known is not None and known != nodes:
                raise CheckpointError(
                    f"checkpoint {self.path} line {number} gives task {task} {nodes} nodes, "
                    f"an earlier line {known}: the file was edited or corrupted; delete it to start afresh"
                )
            self.finished[task] = nodes
        for task, number in unverified.items():
            if task not in self.finished:  # once computed again (a line further on), said no more
                self.warnings.append(
                    f"checkpoint {self.path} line {number}: the count of task {task} does not match "
                    "its checksum (edited or damaged); that task is computed again"
                )
        if self.format < FORMAT:
            self.warnings.append(
                f"checkpoint {self.path} has format {self.format}, written before checkpoints had checksums: "
                f"its {len(self.finished)} counts cannot be verified (delete it to compute them again)"
            )
        if end < os.fstat(self._file.fileno()).st_size:  # a torn last line: drop it so the next starts clean
            self._file.truncate(end)
            os.fsync(self._file.fileno())
        self._end = end

    def _check_header(self, found: dict) -> None:
        wanted = self.header
        differing = [
            name for name in RUN_FIELDS
            if not (same_fen(found.get(name), *self._plan_fen) if name == "fen" else _same(found.get(name), wanted[name]))
        ]
        if differing:
            details = ", ".join(
                f"{name} {_show(found.get(name))} not {_show(wanted[name])}" for name in differing[:3]
            )
            raise CheckpointError(
                f"checkpoint {self.path} belongs to another run ({details}); "
                "refusing to mix them: use another file or delete it"
            )

    def _append(self, obj: dict) -> None:
        try:
            _write_all(self._file, _line(obj))
            os.fsync(self._file.fileno())
        except OSError as err:  # a full disk, say: cut back to the lines already written
            with contextlib.suppress(OSError):
                self._file.truncate(self._end)
                self._file.seek(self._end)
            raise CheckpointError(f"cannot write checkpoint {self.path}: {err.strerror or err}") from None
        self._end = self._file.tell()

    def record(self, task: int, nodes: int) -> None:
        """Append a finished task: one whole line, on disk before this returns."""
        if task not in self.finished:
            line = {"task": task, "nodes": nodes}
            if self.format >= 2:
                line["sha256"] = line_sum(self.header["task_hash"], task, nodes)
            self._append(line)
            self.finished[task] = nodes

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()  # closing the descriptor releases the lock

    def __enter__(self) -> "Checkpoint":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _write_all(handle, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[handle.write(view):]


def _line(obj: dict) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode() + b"\n"
