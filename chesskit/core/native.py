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
name and a hash of its features and llvmlite's version, and it lives in the cache folder
of this build (``cachedir.py``). Its manifest (``cachefs.seal``: every field typed,
sealed with the build's key) records the object's SHA-256 and the attack table's digest,
so the object runs only with the table, the source, the slider lookup and the machine it
was built for. When it is missing, damaged, of another build, not a private file
(``cachefs.read``) or names a symbol this process lacks, numba compiles the C function
again (its helpers come from numba's cache) and it is saved anew, best effort (a full
disk or a read-only folder only costs the next run a compile).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import struct
import sys
import threading
from pathlib import Path

from . import CACHE, KEY, cachedir, cachefs, tables, walkargs
from .cpu import machine_key

_VOIDP = ctypes.c_void_p
_PROTOTYPE = ctypes.CFUNCTYPE(walkargs.RESTYPE, *walkargs.ARGTYPES)  # the walk's C signature
# a variant's walk (``vwalk.c_entry``, one per rule set): its own signature and file names
_VPROTOTYPE = ctypes.CFUNCTYPE(walkargs.RESTYPE, *walkargs.argtypes(walkargs.VARGS))

_engines = []  # the LLVM execution engines holding the loaded code: kept for the process
# the object is an ELF64 little-endian file: saved and loaded on Linux only; elsewhere numba
# caches the C function itself (its cache load costs what a warm run saves here)
SAVES = sys.platform.startswith("linux") and sys.byteorder == "little" and struct.calcsize("P") == 8
_unloadable = set()  # the walks (variant ids) whose intact saved object this process could not load


# the manifest's fields and their types (``cachefs.unseal``)
# (``object``: the file it describes, so that another walk's intact pair copied over this
# one's, a variant's walk as standard chess's, is refused: it counted other rules, or crashed)
MANIFEST = {"symbol": str, "undefined": list, "sha256": str, "table": str, "object": str}
OBJECT_CAP = 64 << 20  # bytes: the walk's object is about 100 KB
MANIFEST_CAP = 1 << 16


def _prototype(variant: int):
    return _PROTOTYPE if variant == 0 else _VPROTOTYPE


def _paths(variant: int = 0) -> tuple[Path, Path]:
    name = "walk" if variant == 0 else f"vwalk{variant}"
    stem = Path(CACHE or ".") / f"{name}-{machine_key()}"
    return stem.with_suffix(".o"), stem.with_suffix(".json")


def is_saved(variant: int = 0) -> bool:
    obj, manifest = _paths(variant)
    return CACHE is not None and obj.is_file() and manifest.is_file()


def _saved(variant: int = 0) -> tuple[bytes, dict] | None:
    """The saved object and its manifest when they are this build's and intact, else None."""
    obj, manifest = _paths(variant)
    meta = cachefs.unseal(cachefs.read(CACHE, manifest.name, MANIFEST_CAP), KEY, MANIFEST)
    if meta is None or meta["table"] != tables.digest() or meta["object"] != obj.name:
        return None
    code = cachefs.read(CACHE, obj.name, OBJECT_CAP)
    if code is None or hashlib.sha256(code).hexdigest() != meta["sha256"]:
        return None
    return code, meta


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


def load(variant: int = 0):
    """The saved walk (of variant rule set ``variant``; 0: standard chess) as a ctypes
    function, or None when there is none or it cannot be loaded here (the caller then
    builds it with numba)."""
    if not SAVES or CACHE is None:
        return None
    saved = _saved(variant)
    if saved is None:
        return None
    code, meta = saved
    try:
        _unloadable.add(variant)  # until it has loaded
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
    except (OSError, ValueError, TypeError, RuntimeError):
        return None
    _engines.append(engine)
    _unloadable.discard(variant)
    return _prototype(variant)(address)


def build(variant: int = 0):
    """Compile the walk's C function with numba, save its machine code for the next runs
    (unless the folder is read-only) and return it. Where the object cannot be saved or an
    intact one would not load, numba caches the function instead, so that later runs do
    not compile it again."""
    from . import fastcompile, prewarm

    cache = not SAVES or variant in _unloadable or CACHE is None
    # the child first, before this process imports numba (``install`` does), so that it
    # imports its own meanwhile: the two share the helpers' compiles (``sharing``)
    # (an unloadable object: helpers cached; a variant's walk: no helpers compiled ahead)
    from . import NUMBA_CACHE

    child = None if variant in _unloadable or variant else prewarm.start(NUMBA_CACHE)
    undo = lambda: None  # noqa: E731
    try:
        fastcompile.install()  # numba's own passes, faster (the same code)
        undo = prewarm.sharing(child)
        if variant:
            from . import vwalk

            entry = vwalk.c_entry(variant, cache=cache)
        else:
            from . import perft

            entry = perft.c_entry(cache=cache)
    finally:
        undo()
        prewarm.stop(child)
    if cache:
        return _prototype(variant)(entry.address)
    try:
        _save(entry, variant)
    except (OSError, ValueError, RuntimeError):
        pass  # code numba would not hand over: this run goes on, the next builds it again
    return _prototype(variant)(entry.address)


def object_code(entry) -> bytes:
    """The machine code of a compiled ``cfunc``, an ELF object (numba's private API:
    the one place that reaches into it; ``tests/core/test_native.py`` checks it)."""
    kind, payload = entry._library.serialize_using_object_code()[1:3]
    if kind != "object":
        raise ValueError(f"numba handed over {kind!r}, not an object")
    return payload[0]


def _save(entry, variant: int = 0) -> None:
    """Save the object, then its manifest (a reader checks one against the other), best effort."""
    code = object_code(entry)
    obj, manifest = _paths(variant)
    meta = {
        "symbol": entry.native_name,
        "undefined": undefined_symbols(code),
        "sha256": hashlib.sha256(code).hexdigest(),
        "table": tables.digest(),
        "object": obj.name,
    }
    if cachefs.write(CACHE, obj.name, code):
        cachefs.write(CACHE, manifest.name, cachefs.seal(KEY, meta))


_walks: dict = {}
_lock = threading.Lock()


def walk(variant: int = 0, name: str | None = None):
    """The walk's C function (of variant rule set ``variant``; 0: standard chess): loaded
    from the saved object, else built with numba. ``name``: the variant's, as its notices
    say it (``generator_name``; default the rule set's)."""
    found = _walks.get(variant)
    if found is not None:
        return found
    with _lock:  # threads that start at once load or build it once
        if variant not in _walks:
            found = load(variant)
            if found is None:
                _say_why(variant, name)
                found = build(variant)
            _walks[variant] = found
    return _walks[variant]


def _say_why(variant: int, name: str | None = None) -> None:
    """Say on stderr that a walk compiles now: its first compile (a variant's as the
    standard walk's, whichever command first needs it), and why a walk whose files are in
    the cache compiles again, naming the variant in both as ``generator_name`` does."""
    if variant and name is None:
        from .vstate import NAMES

        name = NAMES[variant]
    what = generator_name(name if variant else None)
    if not is_saved(variant) and not _numba_holds_it():
        cachedir.compiling(what, CACHE)
        return
    if not is_saved(variant) or variant in _unloadable:
        return  # intact but not loadable here: numba's cache keeps it after this compile
    cachedir.compiling_again(what, CACHE, cachedir.REFUSED if cachefs.warned() else cachedir.FAILED_CHECK)


def _numba_holds_it() -> bool:
    """Where the walk's object is not saved (not Linux), whether numba's cache holds anything:
    numba caches the walk there, and a warm run loads it. Where it is saved, False: an index
    of numba's alone is what a first run stopped half way leaves (or one that compiled only
    the leaf counters), and the walk compiled in silence."""
    from . import NUMBA_CACHE

    if SAVES and CACHE is not None:
        return False
    return NUMBA_CACHE is not None and NUMBA_CACHE.is_dir() and any(NUMBA_CACHE.rglob("*.nbi"))


def generator_name(variant: str | None = None) -> str:
    """How the compile notices name a walk: "move generator" (standard chess), "the atomic
    move generator": one wording for its first compile and its compiling again."""
    return "move generator" if variant is None else f"the {variant} move generator"
