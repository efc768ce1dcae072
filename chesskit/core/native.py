"""The compiled walk as a plain C function: built once with numba, then loaded without it.

Importing numba and loading its cache costs about half a second, more than a whole small
perft. So the first run compiles the walk as a C function of pointers and sizes
(numba's ``cfunc``, see ``perft.c_entry``) and saves its machine code, an ELF object, in
the cache folder with a manifest: the C symbol and the outside symbols the code refers to
(the C API and numba's runtime, reached only on error paths that the walk never takes:
it raises nothing and frees nothing). Later runs hand that object to LLVM's loader
through llvmlite, which numba itself uses for its cache, bind the C API from this
process and numba's runtime symbols, which only numba's import would provide, to a
function that reports an internal error and exits 70 (where numba is loaded already, its
own bindings stand and are used), and call the walk through ctypes,
which lets go of the GIL for the call, so threads run the walk in parallel.

The object is specific to this processor and this LLVM: its file name carries the CPU
name, a hash of its features and llvmlite's version. When it is missing, damaged (its
manifest records a SHA-256) or names a symbol this process lacks, numba compiles the C
function again (its helpers come from numba's cache) and it is saved anew with
``outpath.write_atomic`` (a temporary file renamed into place: a reader never sees half
of one).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import json
import os
import struct
import sys
import threading
from pathlib import Path

from chesskit.outpath import write_atomic

_VOIDP = ctypes.c_void_p
_I64 = ctypes.c_int64
# the C signature of ``perft.c_entry``'s function (one line per array: pointer, sizes)
ARGTYPES = (
    _VOIDP, _I64,  # T, its length
    _VOIDP, _VOIDP, _VOIDP,  # bb, board, st
    _VOIDP, _VOIDP, _I64,  # hist, hkeys, their rows
    _VOIDP, _I64,  # prefix, its length
    _I64,  # depth
    _VOIDP, _I64,  # tt, its length
    _VOIDP, _I64,  # moves, its rows
    _VOIDP,  # keys (the children's keys: rows like moves)
    _VOIDP, _VOIDP, _VOIDP,  # nmoves, index, acc
    _VOIDP, _VOIDP, _VOIDP,  # scratch, leaf_bb, leaf_st
)
_PROTOTYPE = ctypes.CFUNCTYPE(_I64, *ARGTYPES)

_engine = None  # the LLVM execution engine holding the loaded code: kept for the process
# the object is an ELF64 little-endian file: saved and loaded on Linux only; elsewhere numba
# caches the C function itself (its cache load costs what a warm run saves here)
SAVES = sys.platform.startswith("linux") and sys.byteorder == "little" and struct.calcsize("P") == 8
_unloadable = False  # an intact saved object that this process could not load


@functools.cache
def _machine_key() -> str:
    from llvmlite import binding, __version__ as llvmlite_version

    features = binding.get_host_cpu_features().flatten()
    digest = hashlib.sha256(f"{features}|{llvmlite_version}".encode()).hexdigest()[:12]
    return f"{binding.get_host_cpu_name()}-{digest}"


def _paths() -> tuple[Path, Path]:
    folder = Path(os.environ["NUMBA_CACHE_DIR"])  # set by chesskit.core on import
    stem = folder / f"walk-{_machine_key()}"
    return stem.with_suffix(".o"), stem.with_suffix(".json")


def is_saved() -> bool:
    obj, manifest = _paths()
    return obj.is_file() and manifest.is_file()


def undefined_symbols(elf: bytes) -> list[str]:
    """The names an ELF64 little-endian relocatable object uses but does not define."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF object")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    names = []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strtab = sections[link]
        for at in range(offset + entsize, offset + size, entsize):  # entry 0 is the null symbol
            name_at, _info, _other, shndx = struct.unpack_from("<IBBH", elf, at)
            if shndx == 0 and name_at:  # SHN_UNDEF
                start = strtab[4] + name_at
                names.append(elf[start : elf.index(b"\0", start)].decode())
    return sorted(set(names))


def _address(name: str, process: ctypes.CDLL) -> int | None:
    try:
        return ctypes.cast(getattr(process, name), _VOIDP).value
    except AttributeError:
        return None


@ctypes.CFUNCTYPE(None)
def _internal_error() -> None:
    """Where numba's runtime would be called: only an error inside the walk gets here."""
    print("chesskit: internal error in the compiled walk (numba runtime called); please report it", file=sys.stderr)
    sys.stderr.flush()
    os._exit(70)


def load():
    """The saved walk as a ctypes function, or None when there is none or it cannot be
    loaded here (the caller then builds it with numba)."""
    global _engine, _unloadable
    if not SAVES:
        return None
    obj, manifest = _paths()
    try:
        meta = json.loads(manifest.read_text())
        code = obj.read_bytes()
        if hashlib.sha256(code).hexdigest() != meta["sha256"]:
            return None
        _unloadable = True  # until it has loaded
        from llvmlite import binding as llvm

        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        process = ctypes.CDLL(None)
        for name in meta["undefined"]:
            if llvm.address_of_symbol(name):
                continue  # bound already: numba, loaded in this process, bound its own
            address = _address(name, process)
            if address is None:
                if not name.startswith(("numba_", "NRT_")):
                    return None
                address = ctypes.cast(_internal_error, _VOIDP).value
            llvm.add_symbol(name, address)
        target = llvm.Target.from_default_triple()
        machine = target.create_target_machine(
            cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), codemodel="jitdefault"
        )
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
        engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        engine.finalize_object()
        address = engine.get_function_address(meta["symbol"])
        if not address:
            return None
    except (OSError, ValueError, KeyError, TypeError, RuntimeError):
        return None
    _engine = engine
    _unloadable = False
    return _PROTOTYPE(address)


def build():
    """Compile the walk's C function with numba, save its machine code for the next runs
    (unless the folder is read-only) and return it. Where the object cannot be saved or an
    intact one would not load, numba caches the function instead, so that later runs do
    not compile it again."""
    from . import prewarm

    cache = not SAVES or _unloadable
    child = None if _unloadable else prewarm.start()  # (an unloadable object: helpers cached)
    try:
        from . import perft

        entry = perft.c_entry(cache=cache)
    finally:
        prewarm.stop(child)
    if cache:
        return _PROTOTYPE(entry.address)
    try:
        _save(entry)
    except (OSError, ValueError, RuntimeError):
        pass  # a read-only cache folder, say: this run goes on, the next builds it again
    return _PROTOTYPE(entry.address)


def _save(entry) -> None:
    kind, payload = entry._library.serialize_using_object_code()[1:3]
    if kind != "object":
        raise ValueError(kind)
    code = payload[0]
    obj, manifest = _paths()
    meta = {"symbol": entry.native_name, "undefined": undefined_symbols(code), "sha256": hashlib.sha256(code).hexdigest()}
    obj.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(obj, code)
    write_atomic(manifest, json.dumps(meta))


_walk = None
_lock = threading.Lock()


def walk():
    """The walk's C function: loaded from the saved object, else built with numba."""
    global _walk
    with _lock:  # threads that start at once load or build it once
        if _walk is None:
            _walk = load() or build()
    return _walk
