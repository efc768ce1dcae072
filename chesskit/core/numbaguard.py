"""numba's own on-disk cache, held to the rules of ``cachefs``.

numba caches each function in an index (``.nbi``) and data files (``.nbc``), both
pickles, and trusts what it finds: a truncated file is an exception at the next compile
(exit 70 from ``perft --stats``), a flipped bit is machine code run as found, a full disk
an error, and a file someone else wrote is unpickled. ``install(folder)`` changes that
for the files in chesskit's numba folder (those of other folders are numba's business):

- a file is read through ``cachefs.read`` (a private regular file, never a link, FIFO
  or device) and must start with ``MAGIC`` and the SHA-256 of its own name in the folder
  and the pickle that follows (another function's intact file copied over it is no match);
  any doubt is an empty index or a missing entry, which numba compiles again and saves
  over it;
- files are written through ``cachefs.write`` (0600, atomic, best effort: a save that
  fails is skipped);
- numba takes a cache folder only when it can write a file there; in chesskit's folder
  an existing folder is enough, so that a read-only cache (a CI image, a cache restored
  read-only) is read, and what cannot be saved is skipped as above;
- chesskit's own functions are cached in that folder only (where numba cannot use it,
  it would fall back to a ``__pycache__`` folder that no build key names): elsewhere, or
  with no folder, they are compiled and not cached; an error while loading one of them
  is a miss.

It replaces four file methods of numba's ``IndexDataCacheFile``, the load and save
of its ``Cache`` and the folder check of its ``_CacheLocator`` (numba's private API, from ``numba.core.caching``: ``_patch`` is the
only code that touches it, and ``tests/core/test_numbaguard.py`` checks it against the
numba installed). ``chesskit.core`` installs it before numba loads, through an import
hook that patches ``numba.core.caching`` as it is imported, or at once where numba is
loaded already. Importing this module does not import numba.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sys

from . import cachefs

MAGIC = b"chesskit numba cache 2\n"
CAP = 256 << 20  # bytes: no cache file of the core comes near
_FILE_METHODS = ("_load_index", "_save_index", "_load_data", "_save_data")

_folder: str | None = None  # chesskit's numba folder (absolute), None: cache nothing of chesskit


def install(folder) -> None:
    """Guard numba's cache in ``folder`` from now on, whether numba is loaded yet or not."""
    global _folder
    _folder = None if folder is None else os.path.abspath(folder)
    caching = sys.modules.get("numba.core.caching")
    if caching is not None:
        _patch(caching)
    elif not any(isinstance(finder, _Hook) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Hook())


class _Hook:
    """An import hook: finds ``numba.core.caching`` with the other finders and patches it
    once its code has run, before anything can use it."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "numba.core.caching":
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            _patch(module)

        spec.loader.exec_module = exec_module
        return spec


def _inside(path: str) -> str | None:
    """``path`` relative to chesskit's numba folder, or None when it is elsewhere."""
    if _folder is None:
        return None
    relative = os.path.relpath(os.path.abspath(path), _folder)
    return None if relative == os.curdir or relative.startswith(os.pardir) else relative


def _sealed(name: str, payload: bytes) -> bytes:
    """The checksum of ``payload`` saved as the file ``name`` (relative to the folder): an
    intact file of another function, copied over this one, does not match it."""
    return hashlib.sha256(name.encode("utf-8", "surrogateescape") + b"\0" + payload).digest()


def _read(path: str):
    """The pickled object saved at ``path`` by ``_write`` (None: missing or in doubt)."""
    name = _inside(path)
    data = cachefs.read(_folder, name, CAP)
    if data is None or not data.startswith(MAGIC):
        return None
    start = len(MAGIC) + 32
    if _sealed(name, data[start:]) != data[len(MAGIC) : start]:
        return None
    try:
        return pickle.loads(data[start:])
    except Exception:  # noqa: BLE001 - a verified file numba cannot read: a miss
        return None


def _write(path: str, payload: bytes) -> None:
    name = _inside(path)
    cachefs.write(_folder, name, MAGIC + _sealed(name, payload) + payload)


# what numba's IndexDataCacheFile does for a file in chesskit's folder


def _load_index(self):
    saved = _read(self._index_path)
    if not (isinstance(saved, tuple) and len(saved) == 3):
        return {}
    version, stamp, overloads = saved
    if version != self._version or stamp != self._source_stamp or not isinstance(overloads, dict):
        return {}
    return overloads


def _save_index(self, overloads):
    _write(self._index_path, self._dump((self._version, self._source_stamp, overloads)))


def _load_data(self, name):
    return _read(self._data_path(name))  # None: numba's ``load`` returns it, a miss


def _save_data(self, name, data):
    _write(self._data_path(name), self._dump(data))


def _for_our_files(numba_way, our_way):
    @functools.wraps(numba_way)
    def method(self, *args):
        if _inside(self._cache_path) is None:
            return numba_way(self, *args)
        return our_way(self, *args)

    return method


def _is_chesskit(cache) -> bool:
    return getattr(getattr(cache, "_py_func", None), "__module__", "").startswith("chesskit.")


def _guard_load(load):
    @functools.wraps(load)
    def load_overload(self, sig, target_context):
        if not (_is_chesskit(self) or _inside(self._cache_path)):
            return load(self, sig, target_context)
        if _inside(self._cache_path) is None:
            return None  # chesskit's code is cached in chesskit's folder or nowhere
        try:
            return load(self, sig, target_context)
        except Exception:  # noqa: BLE001 - any doubt about a cached entry: compile it again
            return None

    return load_overload


def _guard_save(save):
    @functools.wraps(save)
    def save_overload(self, sig, data):
        if _is_chesskit(self) and _inside(self._cache_path) is None:
            return None
        return save(self, sig, data)

    return save_overload


def _guard_folder(ensure):
    @functools.wraps(ensure)
    def ensure_cache_path(self):
        path = self.get_cache_path()
        if _inside(path) is None:
            return ensure(self)  # numba's: it must be able to write there
        if not os.path.isdir(path):
            cachefs.make_folder(path)  # OSError where it cannot: numba caches nothing
        # no probe of a write: a read-only folder is read, and a save fails quietly

    return ensure_cache_path


def _patch(caching) -> None:
    """The one place that reaches into numba's private caching classes."""
    files, cache = caching.IndexDataCacheFile, caching.Cache
    if getattr(files, "_chesskit_guarded", False):
        return
    for name in _FILE_METHODS:
        setattr(files, name, _for_our_files(getattr(files, name), globals()[name]))
    cache.load_overload = _guard_load(cache.load_overload)
    cache.save_overload = _guard_save(cache.save_overload)
    caching._CacheLocator.ensure_cache_path = _guard_folder(caching._CacheLocator.ensure_cache_path)
    files._chesskit_guarded = True
