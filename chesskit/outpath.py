"""Files chesskit writes: checked before any work, replaced atomically.

``check_output(path, option, inputs)`` refuses, with exit 2 and before a long run starts,
an output path that is a directory, a FIFO (opening it would block until a reader comes),
a device or socket, a file in a missing folder or one that cannot be written, and a path
that names one of the run's input files (the same file by device and inode, whatever the
spelling or link), which writing would destroy. This is the one owner of the rule "an
output may not be an input": every option that writes a file calls it with every file
the run reads — the suite files, and the engine's own files (its program, script or
adapter: ``chesskit.compare.engines.files.input_files``).

``write_atomic(path, text)`` writes to a temporary file in the same folder, fsyncs it,
and renames it over ``path``: a crash or a full disk leaves the old file whole, never a
truncated one. (The checkpoint is the exception: it is appended to and fsync'ed line by
line, see ``chesskit.cluster.checkpoint``.)

A base utility: imports nothing of chesskit but ``errors``.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable

from chesskit.errors import InputError


def _refuse(option: str, path: str, why: str) -> InputError:
    return InputError(f"cannot write {option} {path}: {why}")


def check_output(path: str | os.PathLike, option: str, inputs: Iterable[str | os.PathLike] = ()) -> None:
    """Raise InputError (exit 2) unless ``path`` can be written as a regular file that is
    none of ``inputs``. Nothing is created or opened."""
    text = os.fspath(path)
    if not str(text).strip():
        raise InputError(f"{option} needs a file name")
    try:
        st = os.stat(text)
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise _refuse(option, text, (err.strerror or str(err)).lower()) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise _refuse(option, text, "it is a directory")
        if stat.S_ISFIFO(st.st_mode):
            raise _refuse(option, text, "it is a FIFO (named pipe), not a regular file")
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(option, text, "it is a device or socket, not a regular file")
        for other in inputs:
            try:
                ist = os.stat(other)
            except OSError:
                continue
            if (ist.st_dev, ist.st_ino) == (st.st_dev, st.st_ino):
                raise _refuse(option, text, f"it is the input file {os.fspath(other)}; give another file")
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise _refuse(option, text, f"no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (st is not None and not os.access(text, os.W_OK)):
        raise _refuse(option, text, "permission denied")


def write_atomic(path: str | os.PathLike, data: str | bytes, encoding: str = "utf-8", mode: int | None = None) -> None:
    """Replace ``path`` by ``data`` all at once: temporary file, fsync, rename, fsync the folder.
    The file keeps the mode of the one it replaces (a new one: 0666 less the umask), or
    gets ``mode`` when given, whatever the umask. OSError propagates (the caller names the
    option); the temporary file never stays behind."""
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    payload = data.encode(encoding) if isinstance(data, str) else data
    fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)
    try:
        if mode is None:
            try:
                mode = stat.S_IMODE(os.stat(target).st_mode)
            except OSError:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        view = memoryview(payload)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(temp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    fsync_folder(folder)


def fsync_folder(folder: str | os.PathLike) -> None:
    """Make a rename or a new file in ``folder`` durable (best effort)."""
    try:
        fd = os.open(os.fspath(folder) or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
