"""The compile cache's files: private, verified, best effort.

chesskit links and runs the machine code it finds in its cache folder, and numba unpickles
the files it keeps there, so a digest beside a file proves nothing against someone who can
write the folder. A file is used only when nobody but this user (or root) could have
written it:

- folders are created 0700 and files 0600, whatever the umask;
- a cache folder is trusted when it is a directory owned by this user and writable by no
  one else, in a folder owned by this user or root that others cannot rename it out of
  (writable by others only with the sticky bit, as ``/tmp``): ``distrust`` says why not;
- a file is opened without following a link (``O_NOFOLLOW``) or waiting on a FIFO
  (``O_NONBLOCK``), each folder on its way likewise, and read only when ``fstat`` shows a
  regular file owned by this user, writable by no one else and no larger than the
  reader's cap: anything else is a miss, and a foreign or odd file a warning, printed
  once per process (``warn``);
- writes replace a file atomically (``outpath.write_atomic``) and are best effort: a full
  disk or a read-only folder makes them return False, never raise; the next run builds
  again.

``seal`` and ``unseal`` write and check the small JSON manifests: the build's key and a
digest of every field, so a manifest of another build, a damaged one or a field of the
wrong type is a miss.

Plain Python (no numba): a warm run reads the saved walk through it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import sys
from pathlib import Path

from chesskit.outpath import write_atomic

_warned: set[str] = set()  # the topics warned about in this process


def warn(message: str, topic: str = "cache") -> None:
    """One warning line on stderr, the first time only for its ``topic``: the run goes on
    (the compile cache's: without that file)."""
    if topic in _warned:
        return
    _warned.add(topic)
    try:
        print(f"chesskit: warning: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass  # stderr is gone: the run goes on


def warned(topic: str = "cache") -> bool:
    """Whether this process has warned about ``topic`` (a cache file refused: not yours)."""
    return topic in _warned


def _why_foreign(st: os.stat_result) -> str | None:
    """Why a file or folder with this status could hold someone else's code, or None."""
    if st.st_uid != os.geteuid():
        return f"it is owned by uid {st.st_uid}, not by you (uid {os.geteuid()})"
    if st.st_mode & 0o022:
        return f"others can write it (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def distrust(folder: str | os.PathLike) -> str | None:
    """Why the existing cache folder ``folder`` cannot be trusted, or None when it can
    (links followed: a link to someone else's folder is someone else's folder)."""
    link = _foreign_link(folder)
    if link:
        return link
    real = os.path.realpath(folder)
    try:
        st = os.stat(real)
        outer = os.stat(os.path.dirname(real))
    except OSError as err:
        return f"cannot read it ({err.strerror or err})"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    why = _why_foreign(st)
    if why:
        return why
    if outer.st_uid not in (0, os.geteuid()):
        return f"the folder holding it is owned by uid {outer.st_uid}, who could replace it"
    if outer.st_mode & 0o022 and not outer.st_mode & stat.S_ISVTX:
        return f"others can write the folder holding it (mode {stat.S_IMODE(outer.st_mode):o}) and replace it"
    return None


def _foreign_link(folder: str | os.PathLike) -> str | None:
    """Why ``folder`` cannot be trusted when it, or a folder above it, is a symbolic link
    someone else owns (who could point it elsewhere: in a shared sticky folder, a link
    planted under the cache's name led the files into another folder of the user's), else
    None."""
    path = Path(os.path.abspath(folder))
    for step in (path, *path.parents):
        try:
            st = os.lstat(step)
        except OSError:
            continue
        if stat.S_ISLNK(st.st_mode) and st.st_uid not in (0, os.geteuid()):
            return f"{step} is a link owned by uid {st.st_uid}, who could point it elsewhere"
    return None


def make_folder(folder: str | os.PathLike) -> None:
    """Create ``folder`` and any missing folder above it, each 0700 whatever the umask
    (OSError when it cannot be created)."""
    path = Path(folder)
    missing = []
    while not path.exists():
        if path.is_symlink():  # a dangling link, or a loop of links: nothing to create through it
            try:
                os.stat(path)
            except OSError as err:
                if err.errno == errno.ELOOP:
                    raise OSError(errno.ELOOP, "a loop of links", str(path)) from None
            raise FileNotFoundError(errno.ENOENT, "a link to nowhere", str(path))
        missing.append(path)
        path = path.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            continue  # another process made it meanwhile: it is checked like any other
        os.chmod(path, 0o700)


def _open_private(folder: str, parts: list[str], cap: int) -> int:
    """A descriptor of ``folder/parts...`` opened as described above (OSError otherwise)."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        why = _why_foreign(os.fstat(fd))
        if why:
            raise PermissionError(errno.EPERM, why)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | (0 if last else os.O_DIRECTORY)
            inner = os.open(part, flags, dir_fd=fd)
            os.close(fd)
            fd = inner
            st = os.fstat(fd)
            if last and not stat.S_ISREG(st.st_mode):
                raise PermissionError(errno.EPERM, "it is not a regular file")
            why = _why_foreign(st)
            if why:
                raise PermissionError(errno.EPERM, why)
            if last and st.st_size > cap:
                raise ValueError(f"larger than {cap} bytes")
        return fd
    except BaseException:
        os.close(fd)
        raise


def read(folder: str | os.PathLike, name: str, cap: int) -> bytes | None:
    """The bytes of the file ``name`` (a path relative to ``folder``), or None: missing,
    larger than ``cap``, or not a private regular file (a warning then)."""
    parts = Path(name).parts
    try:
        fd = _open_private(os.fspath(folder), list(parts), cap)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        if isinstance(err, PermissionError) or getattr(err, "errno", None) in (errno.ELOOP, errno.ENOTDIR):
            why = "it is a link" if getattr(err, "errno", None) == errno.ELOOP else (err.strerror or str(err))
            warn(f"ignoring the cache file {Path(folder, name)}: {why}; compiling without it")
        return None
    try:
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        return None  # it grew past the cap while read
    except OSError:
        return None
    finally:
        os.close(fd)


def write(folder: str | os.PathLike, name: str, data: bytes) -> bool:
    """Replace ``folder/name`` by ``data`` (mode 0600, its folders 0700); False when it
    could not be written (a full disk, a read-only folder): the cache is best effort."""
    path = Path(folder, name)
    try:
        make_folder(path.parent)
        inner = Path(folder)
        for part in Path(name).parts[:-1]:  # a folder numba made (0777 less the umask): ours only
            inner = inner / part
            st = os.lstat(inner)
            if stat.S_ISLNK(st.st_mode):
                raise OSError(errno.ELOOP, f"{inner} is a link (not followed)")
            if stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) != 0o700:
                os.chmod(inner, 0o700)
        _clear_folder_at(path)
        # the link itself is replaced: written through, it put the walk's machine code
        # over the file it pointed to (outside the cache too), on every run
        write_atomic(path, data, mode=0o600, follow_links=False)
    except OSError as error:
        # said once: a full disk made every run compile again (about 30 s here) in silence;
        # a topic of its own, or a read's warning of the same file silenced it
        why = error.strerror or type(error).__name__
        warn(f"cannot save to the compile cache {folder}: {why}; the next run compiles it "
             f"again (seconds): {_remedy(error)}", topic="save")
        return False
    return True


def _clear_folder_at(path: Path) -> None:
    """Remove an empty folder standing where the cache file ``path`` belongs (a rename cannot
    replace it: every run compiled again); a folder that is not empty is left, and said."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        return
    try:
        os.rmdir(path)
    except OSError:
        raise OSError(errno.EISDIR, f"{path} is a folder that is not empty; remove it") from None


_READ_ONLY = (errno.EROFS, errno.EACCES)
_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


def _remedy(error: OSError) -> str:
    """What to do about a save that failed with ``error``: free space on a full disk (or
    quota); for a read-only file system or folder, another folder (it said "free some
    space" there too, where no space would help)."""
    elsewhere = "set CHESSKIT_CACHE_DIR to a folder you can write"
    if error.errno in _FULL:
        return f"free some space, or {elsewhere}"
    if error.errno in _READ_ONLY:
        return f"the folder is read-only here; {elsewhere}"
    return elsewhere


def digest(data: bytes | memoryview) -> str:
    return hashlib.sha256(data).hexdigest()


def _seal_of(key: str, fields: dict) -> str:
    return digest(json.dumps([key, fields], sort_keys=True).encode())


def seal(key: str, fields: dict) -> bytes:
    """A manifest of ``fields`` for the build ``key``: JSON with the key and a digest of both."""
    return json.dumps({**fields, "key": key, "seal": _seal_of(key, fields)}, sort_keys=True).encode()


def unseal(data: bytes | None, key: str, schema: dict[str, type]) -> dict | None:
    """The fields of a manifest written by ``seal`` for ``key``, or None: not JSON, another
    build's, damaged, or a field missing, extra or not of its type in ``schema``
    (``list`` means a list of strings)."""
    if data is None:
        return None
    try:
        meta = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(meta, dict) or set(meta) != {*schema, "key", "seal"} or meta["key"] != key:
        return None
    fields = {name: meta[name] for name in schema}
    for name, kind in schema.items():
        value = fields[name]
        if type(value) is not kind or (kind is list and not all(type(item) is str for item in value)):
            return None
    if meta["seal"] != _seal_of(key, fields):
        return None
    return fields
