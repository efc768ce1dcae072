"""Where the compile cache lives, and the key of the build whose files it holds.

What a run saves there (the walk's machine code and manifest, the attack table, numba's
own cache of the walk's helpers) depends on the core's source, the slider lookup, the
processor and the versions of chesskit, numba, llvmlite, numpy and Python. ``build_key``
hashes all of them; the folder is named by it and every manifest records it whole, so a
file of another build is never used, wherever the folder is: ``~/.cache/chesskit``
(``XDG_CACHE_HOME``), ``CHESSKIT_CACHE_DIR``, or a ``NUMBA_CACHE_DIR`` the user set (it
then holds chesskit's keyed folder). The source counted is every file of the core and
the pure-Python modules it compiles or reads constants from (``vocab.py``,
``invariants.py``): numba's own cache checks only the file of the function it caches, so
an edit to a callee elsewhere would otherwise leave a caller's stale code in place.

``choose`` picks the run's folders before numba loads: the keyed folder when it can be
trusted (``cachefs.distrust``), for everything, whether it can be written or not: a
read-only one (a CI image, a cache restored read-only) is read like any other, and what
the run compiles anew is not saved (``cachefs.write``: best effort); when it cannot be
trusted, or when it would be in a home folder that does not exist (``missing_home``: a
run does not make one), a private temporary folder for everything, with one warning: the
run compiles without the cache and counts right. A temporary folder is removed when the
process that made it exits; the prewarm child inherits it through ``NUMBA_CACHE_DIR``.
A run that can write its keyed folder dates it as used, once a day, and removes the
keyed folders of other builds beside it unused for 30 days (``prune``).
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from pathlib import Path

from . import cachefs
from .cpu import machine_key

_HERE = Path(__file__).parent
# outside the core's folder, read by its compiled code
SHARED_SOURCES = (_HERE.parent / "vocab.py", _HERE.parent / "invariants.py")
VERSION_SOURCE = _HERE.parent / "__init__.py"  # chesskit's __version__ (the core may not import it)
# a folder that ``folder_name`` named (a chesskit parent's choice, passed to its children)
_KEYED = re.compile(r"numba-[0-9a-f]{16}-[a-z]+")


def core_hash() -> str:
    digest = hashlib.sha256()
    for path in [*sorted(_HERE.glob("*.py")), *SHARED_SOURCES]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _package_stamp(name: str) -> str:
    """A package's version file, hashed, found without importing the package (numba's
    import costs half a second, which a warm run never pays)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin:
        return "absent"
    folder = Path(spec.origin).parent
    for candidate in ("_version.py", "version.py"):
        try:
            return hashlib.sha256((folder / candidate).read_bytes()).hexdigest()
        except OSError:
            continue
    return spec.origin


def build_key(sliders: str) -> str:
    """The hex SHA-256 of everything the saved code and table depend on."""
    parts = [
        f"core {core_hash()}",
        f"sliders {sliders}",
        f"machine {machine_key()}",
        f"chesskit {hashlib.sha256(VERSION_SOURCE.read_bytes()).hexdigest()}",
        *(f"{name} {_package_stamp(name)}" for name in ("numba", "llvmlite", "numpy")),
        f"python {sys.version} {sys.implementation.cache_tag}",
        f"numba settings {numba_settings()}",
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


# numba's settings that do not change the code it makes (where it caches, how many threads
# run it, what it prints): every other NUMBA_* variable is part of the key
_NOT_IN_CODE = {
    "NUMBA_CACHE_DIR", "NUMBA_NUM_THREADS", "NUMBA_THREADING_LAYER", "NUMBA_THREADING_LAYER_PRIORITY",
    "NUMBA_DEBUG_CACHE", "NUMBA_WARNINGS", "NUMBA_DISABLE_PERFORMANCE_WARNINGS", "NUMBA_COLOR_SCHEME",
    "NUMBA_HIGHLIGHT_DUMPS", "NUMBA_FULL_TRACEBACKS", "NUMBA_SHOW_HELP", "NUMBA_CAPTURED_ERRORS",
    "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING",
}  # fmt: skip


# numba-cuda's (the simulator's too): no CPU code changes, and the GPU's is not saved here
_GPU = ("NUMBA_CUDA", "NUMBA_ENABLE_CUDASIM")


def numba_settings() -> str:
    """The NUMBA_* variables that change the code numba makes, as set: ``NUMBA_OPT=0`` saved
    code 35 times slower that every later run used, and on a warm cache ``NUMBA_BOUNDSCHECK=1``
    was silently not applied."""
    found = sorted(
        f"{name}={value}"
        for name, value in os.environ.items()
        if name.startswith("NUMBA_") and name not in _NOT_IN_CODE and not name.startswith(_GPU)
    )
    return " ".join(found)


def folder_name(key: str, sliders: str) -> str:
    return f"numba-{key[:16]}-{sliders}"


def base() -> Path:
    """The folder that holds the keyed cache folders."""
    chosen = os.environ.get("CHESSKIT_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if chosen and not os.environ.get("CHESSKIT_CACHE_DIR") and _KEYED.fullmatch(Path(chosen).name):
        chosen = str(Path(chosen).parent)  # a chesskit parent's keyed folder: its siblings
    if not chosen:
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        # a relative XDG_CACHE_HOME is invalid (the XDG spec: ignore it), not one per folder run in
        home = xdg if os.path.isabs(xdg) else os.path.expanduser("~/.cache")
        chosen = os.path.join(home, "chesskit")
    return Path(os.path.abspath(chosen))


def missing_home() -> str | None:
    """The home folder when ``base`` is under it (no CHESSKIT_CACHE_DIR, NUMBA_CACHE_DIR or
    absolute XDG_CACHE_HOME set) and it does not exist (a service's ``HOME=/nonexistent``),
    else None: a run made the whole missing home, root's as root, to hold its cache."""
    if os.environ.get("CHESSKIT_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR"):
        return None
    if os.path.isabs(os.environ.get("XDG_CACHE_HOME", "")):
        return None
    home = os.path.expanduser("~")
    return None if os.path.isdir(home) else home


_PRIVATE: set[Path] = set()  # the folders ``_private`` made: gone when the process exits


def _private(name: str) -> Path | None:
    """A fresh folder of this process's own, removed when it exits (None: no temporary
    folder can be made; the run then saves nothing)."""
    try:
        top = tempfile.mkdtemp(prefix="chesskit-cache-")
        atexit.register(shutil.rmtree, top, True)
        folder = Path(top, name)
        cachefs.make_folder(folder)
    except OSError:
        return None
    _PRIVATE.add(folder)
    return folder


ROOM = 2 << 20  # bytes free that the walk, its table and numba's files need (about 1.9 MB)


def why_not_kept(folder: Path | None) -> str | None:
    """Why what this run compiles is not there for the next run (None: it is saved in
    ``folder``, one that ``choose`` returned)."""
    if folder is None or folder in _PRIVATE:
        return "no compile cache is kept"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the compile cache {folder} is read-only"
    try:
        disk = os.statvfs(folder)
    except OSError:
        return None
    free = (disk.f_bfree if os.geteuid() == 0 else disk.f_bavail) * disk.f_frsize
    if free < ROOM:  # a full disk: every run said "first run only", then that it could not save
        return f"the disk of the compile cache {folder} is full"
    return None


def _owner_of_nearest(folder: Path) -> int | None:
    """The owner of ``folder``, or of the nearest folder above it that exists (None: none
    can be read)."""
    for step in (folder, *folder.parents):
        try:
            return os.lstat(step).st_uid
        except FileNotFoundError:
            continue
        except OSError:
            return None
    return None


def choose(name: str) -> tuple[Path | None, Path | None]:
    """(the folder of the saved walk and attack table, numba's cache folder) for this run."""
    inherited = os.environ.get("NUMBA_CACHE_DIR", "")
    if inherited and Path(inherited).name == name:
        keyed = Path(os.path.abspath(inherited))  # a chesskit parent chose it
    else:
        home = missing_home()
        if home is not None:  # not made: one line, and a private folder as for other unusable ones
            cachefs.warn(f"not using a compile cache: the home folder {home} does not exist; compiling "
                         "without it (slower): set CHESSKIT_CACHE_DIR to a folder you can write")
            private = _private(name)
            return private, private
        keyed = base() / name
    owner = None if os.path.lexists(keyed) else _owner_of_nearest(keyed.parent)  # one there: distrust's
    if owner not in (None, 0, os.geteuid()):
        # root with a user's HOME (sudo): a folder made in their tree would be root's, and
        # the user's every later run would refuse it and compile
        cachefs.warn(f"not using the compile cache {keyed}: the folder that would hold it is owned by uid {owner}; "
                     "compiling without it (slower)")
        private = _private(name)
        return private, private
    new = not os.path.lexists(keyed)
    try:
        cachefs.make_folder(keyed)
    except OSError as error:  # a read-only place, or a file in the way: nothing can be saved
        why = error.strerror or type(error).__name__
        cachefs.warn(f"cannot use the compile cache {keyed}: {why}; every run compiles the move "
                     "generator (seconds): set CHESSKIT_CACHE_DIR to a folder you can write")
        private = _private(name)
        return private, private
    why = cachefs.distrust(keyed)
    if why:
        cachefs.warn(f"not using the compile cache {keyed}: {why}; compiling without it (slower)")
        private = _private(name)
        return private, private
    if os.access(keyed, os.W_OK | os.X_OK):
        _mark_used(keyed, new)
    return keyed, keyed  # read-only or not: only saving needs a folder we can write


DAY = 24 * 3600
UNUSED = 30 * DAY  # another build's folder unused this long is removed


def _mark_used(keyed: Path, new: bool) -> None:
    """Date ``keyed`` (a trusted folder we can write, ``new``: made by this run) as used
    now, at most once a day (a warm run writes nothing there), and then remove the
    folders of other builds beside it that no run has used for ``UNUSED``: one folder of
    about 2 MB was left per version, source edit or ``NUMBA_*`` setting, never removed
    (79 folders, 563 MB). Best effort."""
    try:
        if not new and time.time() - os.stat(keyed).st_mtime < DAY:
            return
        os.utime(keyed)
        prune(keyed.parent, keep=keyed.name)
    except OSError:
        pass


def prune(folder: Path, keep: str, now: float | None = None) -> list[str]:
    """Remove from ``folder`` the build folders (named by ``folder_name``) other than
    ``keep`` that are this user's, private (as chesskit makes them: writable by no one
    else), real folders (not links) and unused (not dated by a run, ``_mark_used``) for
    ``UNUSED``; the names removed. A run of that build that starts meanwhile finds no
    files, or some, and compiles what it lacks: never a wrong count."""
    now = time.time() if now is None else now
    removed = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name == keep or not _KEYED.fullmatch(entry.name):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
                continue
            if now - st.st_mtime < UNUSED:
                continue
            shutil.rmtree(entry.path, ignore_errors=True)  # never follows a link (on Linux)
            removed.append(entry.name)
    return removed


def first_run_only(folder) -> str:
    """How often a compile is paid: once, when ``folder`` keeps the code for the next run."""
    why = why_not_kept(folder)
    return "first run only" if why is None else f"every run ({why})"


def compiling(what: str, folder) -> None:
    """Say on stderr that ``what`` compiles now, and how often that is paid (``folder``:
    where its code is kept, ``first_run_only``): the one wording of every compile notice."""
    print(f"chesskit: compiling {what}, {first_run_only(folder)}", file=sys.stderr, flush=True)


FAILED_CHECK = "failed its check (damaged, or another version's)"
# ``compiling_again``'s reason where a warning just said why the cached copy was refused
REFUSED = "was not used (the warning above says why)"


def compiling_again(what: str, folder, why: str) -> None:
    """Say on stderr that ``what``, whose files are in the cache, compiles again and
    ``why`` (its cached copy ...): a damaged or another build's file was rebuilt in a
    silent pause of seconds."""
    how = why_not_kept(folder)
    how = "" if how is None else f", every run ({how})"
    print(f"chesskit: compiling {what} again{how}: its cached copy {why}", file=sys.stderr, flush=True)
