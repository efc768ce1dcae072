"""Files chesskit writes: checked before any work, replaced atomically.

``check_output(path, option, inputs, append=False)`` refuses, with exit 2 and before a long
run starts, an output path that is a directory, a FIFO (opening it would block until a
reader comes), a device or socket, a file in a missing folder or one that cannot be
written, and a path that names one of the run's input files (the same file by device and inode, whatever the
spelling or link), which writing would destroy. This is the one owner of the rule "an
output may not be an input": every option that writes a file calls it with every file
the run reads — the suite files, and the engine's own files (its program, script or
adapter: ``chesskit.compare.engines.files.input_files``).  "Cannot be written" is found out
for real, the way the write will do it, not asked of ``os.access`` (which says yes to root
for ``/proc`` and to anyone for a read-only mount it does not look at): a file replaced
atomically needs a new file in its folder, so one is created there under the temporary
name ``write_atomic`` uses and removed; a file appended to (``append=True``: ``fuzz --save``,
``--checkpoint``) is opened for writing when it exists (nothing written), else created and
removed.

A path that is a symbolic link is written through: the file it names is replaced, beside
it, and the link stays a link (renaming over the link itself replaced the link with a file,
and ``/dev/stdout`` run as root with it). A path that is the command's own standard output
or error (``/dev/stdout`` redirected to a file, ``/proc/self/fd/1``) is refused as ``-`` is:
that stream carries the command's own text.

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


def check_output(
    path: str | os.PathLike, option: str, inputs: Iterable[str | os.PathLike] = (), append: bool = False
) -> None:
    """Raise InputError (exit 2) unless ``path`` can be written as a regular file that is
    none of ``inputs`` (replaced by ``write_atomic``, or appended to with ``append``). What
    the check creates it removes; an existing file is opened, never changed."""
    text = os.fspath(path)
    if not str(text).strip():
        raise InputError(f"{option} needs a file name")
    if text == "-":  # by convention stdout, which carries the command's own output: it wrote a file named '-'
        raise _refuse(option, text, "'-' is not stdout here (stdout carries the command's own output); give a file name, ./- for a file named '-'")
    try:
        st = os.stat(text)
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise _refuse(option, text, _why(err)) from None
    if st is not None:
        for fd, name in ((1, "stdout"), (2, "stderr")):
            try:
                own = os.fstat(fd)
            except OSError:
                continue
            if os.path.samestat(own, st):
                raise _refuse(option, text, f"it is this command's {name}, which carries its own text; give a file name")
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
            if os.path.samestat(ist, st):
                raise _refuse(option, text, f"it is the input file {os.fspath(other)}; give another file")
    folder = os.path.dirname(_through_links(text))
    if not os.path.isdir(folder):
        raise _refuse(option, text, f"no such folder {folder}")
    _try_writing(text, option, folder, exists=st is not None, append=append)


def _through_links(path: str) -> str:
    """The absolute path of the file ``path`` names: a symbolic link's target (which may
    not exist yet), else ``path`` itself."""
    return os.path.realpath(path) if os.path.islink(path) else os.path.abspath(path)


def _why(err: OSError) -> str:
    return (err.strerror or str(err)).lower()


def _try_writing(text: str, option: str, folder: str, exists: bool, append: bool) -> None:
    """Open ``text`` for writing if it exists (nothing written, its times unchanged), and
    create and remove the file the write will create: ``write_atomic``'s temporary file in
    ``folder``, or ``text`` itself for an append to a missing file."""
    if exists:
        try:
            os.close(os.open(text, os.O_WRONLY | os.O_APPEND | os.O_NOCTTY | os.O_NONBLOCK))
        except OSError as err:
            raise _refuse(option, text, _why(err)) from None
        if append:
            return
    try:
        if append:
            os.close(os.open(text, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.unlink(text)
        else:
            fd, temp = _temporary(folder, text)
            os.close(fd)
            os.unlink(temp)
    except FileExistsError:  # made by someone else meanwhile: the write will meet it, not this check
        return
    except OSError as err:
        raise _refuse(option, text, f"cannot create a file in {folder}: {_why(err)}") from None


def _temporary(folder: str, target: str) -> tuple[int, str]:
    """A new temporary file beside ``target`` (the name ``write_atomic`` writes before its rename)."""
    return tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)


def write_atomic(path: str | os.PathLike, data: str | bytes, encoding: str = "utf-8", mode: int | None = None,
                 follow_links: bool = True) -> None:
    """Replace ``path`` by ``data`` all at once: temporary file, fsync, rename, fsync the folder.
    The file keeps the mode of the one it replaces (a new one: 0666 less the umask), or
    gets ``mode`` when given, whatever the umask. A symbolic link at ``path`` stays a link
    and its file is replaced (a report written where the user's link points); with
    ``follow_links=False`` the link itself is replaced and its target left alone (the
    compile cache: a link there must not lead chesskit's code over another file). OSError
    propagates (the caller names the option); the temporary file never stays behind."""
    text = os.fspath(path)
    target = _through_links(text) if follow_links else text
    folder = os.path.dirname(target)
    payload = data.encode(encoding) if isinstance(data, str) else data
    fd, temp = _temporary(folder, target)
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
