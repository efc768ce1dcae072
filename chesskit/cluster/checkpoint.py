"""The checkpoint: an append-only JSON-lines file of finished tasks.

    {"checkpoint": "chesskit-perft", "format": 1, "fen": ..., "chess960": false, "depth": 8,
     "split_depth": 2, "version": "0.1.0", "tasks": 371, "task_hash": "3f0c..."}
    {"task": 17, "nodes": 123456789}
    {"task": 4, "nodes": 98765432}

The first line describes the run; a file whose header differs in any field is refused
rather than mixed into another run's total. Every task line is written whole, flushed and
fsync'ed before the driver moves on, so a crash can lose at most the line being written:
a last line without its newline is a torn write, ignored and cut off on resume. An
exclusive lock (``flock``) keeps two runs from appending to the same file.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from chesskit import __version__
from chesskit.cluster.errors import CheckpointError
from chesskit.outpath import fsync_folder

FORMAT = 1
MAGIC = "chesskit-perft"
_PREFIX = b'{"checkpoint":"%s"' % MAGIC.encode()  # how every header line starts
# The fields that must agree for a checkpoint to be resumed, in the order they are reported.
RUN_FIELDS = ("fen", "chess960", "depth", "split_depth", "version", "tasks", "task_hash")


def header_for(plan) -> dict:
    return {
        "checkpoint": MAGIC,
        "format": FORMAT,
        "fen": plan.fen,
        "chess960": plan.chess960,
        "depth": plan.depth,
        "split_depth": plan.split_depth,
        "version": __version__,
        "tasks": len(plan.tasks),
        "task_hash": plan.task_hash,
    }


def _complete_lines(data: bytes) -> tuple[list[bytes], int]:
    """The lines that end with a newline, and the length of the file they fill."""
    end = data.rfind(b"\n") + 1
    return data[:end].splitlines(), end


def read_header(path: str | os.PathLike) -> dict | None:
    """The header of an existing checkpoint, or None (no file, empty, or a torn header)."""
    try:
        with open(path, "rb") as f:
            first = f.readline()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise CheckpointError(f"cannot read checkpoint {path}: {err.strerror}") from None
    if not first.endswith(b"\n"):
        return None
    return _parse_header(path, first)


def _parse_header(path, line: bytes) -> dict:
    try:
        header = _loads(line)
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("checkpoint") != MAGIC:
        raise CheckpointError(f"{path} is not a chesskit perft checkpoint; refusing to overwrite it")
    if header.get("format") != FORMAT:
        found = header.get("format")
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


def _parse_task(path, number: int, line: bytes, ntasks: int) -> tuple[int, int]:
    """``(task, nodes)`` of task line ``number``, or CheckpointError naming the line."""
    where = f"checkpoint {path} line {number}"
    try:
        entry = _loads(line)
    except ValueError:
        raise CheckpointError(f"{where} is corrupt: {line[:60]!r}") from None
    if not isinstance(entry, dict) or set(entry) != {"task", "nodes"}:
        raise CheckpointError(f"{where} is corrupt (expected {{\"task\": N, \"nodes\": N}}): {line[:60]!r}")
    task, nodes = entry["task"], entry["nodes"]
    for name, value in (("task", task), ("nodes", nodes)):
        if type(value) is not int:
            raise CheckpointError(f"{where} is corrupt: {name} {json.dumps(value)[:30]} is not an integer")
    if not 0 <= task < ntasks:
        raise CheckpointError(f"{where} names task {task}, but the run has tasks 0 to {ntasks - 1}")
    if not 0 <= nodes <= MAX_NODES:
        raise CheckpointError(f"{where} is corrupt: task {task} has {nodes} nodes")
    return task, nodes


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
    """An open checkpoint: ``finished`` maps task index -> nodes; ``record`` appends one.

    Use as a context manager; it holds the file's lock until closed.
    """

    def __init__(self, path: str | os.PathLike, plan):
        self.path = Path(path)
        self.header = header_for(plan)
        self.finished: dict[int, int] = {}
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
            self.close()
            raise

    def _load(self, ntasks: int) -> None:
        data = self._file.read()
        lines, end = _complete_lines(data)
        if not lines:  # a new file, or one holding only a torn header: start afresh
            if data[: len(_PREFIX)] != _PREFIX[: len(data)]:
                raise CheckpointError(
                    f"{self.path} is not a chesskit perft checkpoint; refusing to overwrite it"
                )
            self._file.seek(0)
            self._file.truncate()
            self._append(self.header)
            fsync_folder(self.path.parent)
            return
        self._check_header(_parse_header(self.path, lines[0]))
        for number, line in enumerate(lines[1:], start=2):
            task, nodes = _parse_task(self.path, number, line, ntasks)
            known = self.finished.get(task)
            if known is not None and known != nodes:
                raise CheckpointError(
                    f"checkpoint {self.path} line {number} gives task {task} {nodes} nodes, "
                    f"an earlier line {known}: the file was edited or corrupted; delete it to start afresh"
                )
            self.finished[task] = nodes
        if end < len(data):  # a torn last line: drop it so the next line starts clean
            self._file.truncate(end)
            os.fsync(self._file.fileno())
        self._file.seek(end)

    def _check_header(self, found: dict) -> None:
        wanted = self.header
        differing = [name for name in RUN_FIELDS if not _same(found.get(name), wanted[name])]
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
            self._file.write(_line(obj))
            os.fsync(self._file.fileno())
        except OSError as err:  # a full disk, say: the lines already written stay valid
            raise CheckpointError(f"cannot write checkpoint {self.path}: {err.strerror or err}") from None

    def record(self, task: int, nodes: int) -> None:
        """Append a finished task: one whole line, on disk before this returns."""
        if task not in self.finished:
            self.finished[task] = nodes
            self._append({"task": task, "nodes": nodes})

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()  # closing the descriptor releases the lock

    def __enter__(self) -> "Checkpoint":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _line(obj: dict) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode() + b"\n"
