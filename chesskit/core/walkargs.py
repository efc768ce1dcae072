"""The walk's C signature, written once (``perft.c_entry``'s function).

The walk takes its arrays as pointers with their sizes, so that it can be saved as
machine code and called through ctypes without numba (``native.py``). A mismatch between
what numba compiles, what ctypes passes and what the caller hands over would be a
segfault, not an error, so all three come from ``ARGS``:

- ``numba_signature(types)``: the signature numba compiles (``perft.c_entry``);
- ``ARGTYPES``: the ctypes argument types (``native.py``);
- ``pack(**values)``: the caller's arguments in order (``entry.py``), each array checked
  for its element type and C layout, every name given once.

An argument is ``(name, kind)``: ``"u64*"`` or ``"i64*"`` a pointer to the first of an
array's uint64 or int64 elements (the walk's parameter is ``name`` followed by ``_``),
``"i64"`` a number. Plain Python: a warm run never imports numba.
"""

from __future__ import annotations

import ctypes
import weakref

import numpy as np

ARGS = (
    ("T", "u64*"), ("nT", "i64"),  # the attack table, its length
    ("bb", "u64*"), ("board", "i64*"), ("st", "i64*"),  # the position's state arrays
    ("hist", "i64*"), ("hkeys", "u64*"), ("nhist", "i64"),  # the history stack, its rows
    ("prefix", "i64*"), ("nprefix", "i64"),  # the moves made first, their number
    ("depth", "i64"),
    ("tt", "u64*"), ("ntt", "i64"),  # the transposition table, its length (0: none)
    ("moves", "i64*"), ("nrows", "i64"),  # the move rows, their number
    ("keys", "u64*"),  # the children's keys: rows like moves
    ("nmoves", "i64*"), ("index", "i64*"), ("acc", "i64*"),  # per level: count, next, subtotal
    ("scratch", "i64*"), ("leaf_bb", "u64*"), ("leaf_st", "i64*"),  # the last ply's copy-make
)
# a variant's walk (``vwalk.c_entry``): copy-make, one row of the state arrays per ply
VARGS = (
    ("T", "u64*"), ("nT", "i64"),  # the attack table, its length
    ("bb", "u64*"), ("board", "i64*"), ("st", "i64*"),  # the state rows (vstate.py's sizes), row 0 the position
    ("prefix", "i64*"), ("nprefix", "i64"),  # the moves made first, their number
    ("depth", "i64"),
    ("tt", "u64*"), ("ntt", "i64"),  # the transposition table, its length (0: none)
    ("moves", "i64*"), ("nrows", "i64"),  # the move rows (and state rows), their number
    ("nmoves", "i64*"), ("index", "i64*"), ("acc", "i64*"),  # per level: count, next, subtotal
    ("scratch", "i64*"), ("leaf_bb", "u64*"), ("leaf_st", "i64*"),  # the last ply's copy-make
)
NAMES = tuple(name for name, _ in ARGS)
_DTYPES = {"u64*": np.dtype(np.uint64), "i64*": np.dtype(np.int64)}


def as_count(result: int) -> int:
    """The walk's int64 result as the count it is: a count is never negative, and the
    walk's 64-bit sums hold one up to 2^64 - 1 read as unsigned (``Board._check_size``
    refuses a tree that may be larger)."""
    return result % (1 << 64)


def argtypes(args=ARGS) -> tuple:
    """The ctypes argument types of a walk's signature."""
    return tuple(ctypes.c_void_p if kind in _DTYPES else ctypes.c_int64 for _, kind in args)


ARGTYPES = argtypes(ARGS)
RESTYPE = ctypes.c_int64


def numba_signature(types, args=ARGS):
    """The walk's signature for numba's ``cfunc``, from ``numba.types`` (passed in: this
    module does not import numba)."""
    kinds = {"u64*": types.CPointer(types.uint64), "i64*": types.CPointer(types.int64), "i64": types.int64}
    return types.int64(*(kinds[kind] for _, kind in args))


def parameters(args=ARGS) -> tuple[str, ...]:
    """The names of the walk's Python parameters (pointers end in ``_``)."""
    return tuple(name + "_" if kind in _DTYPES else name for name, kind in args)


def check(name: str, kind: str, value) -> None:
    """Raise TypeError unless ``value`` is an array of ``kind``'s element type in C layout."""
    if value.dtype != _DTYPES[kind] or not value.flags.c_contiguous:
        raise TypeError(f"walk argument {name}: {value.dtype} array, C-contiguous {value.flags.c_contiguous}; needs {_DTYPES[kind]}, C-contiguous")


# array -> its address, for arrays passed again and again (a board's state, the attack
# table, the table): numpy makes a ctypes object on each ``.ctypes.data`` (a few
# microseconds, as much as a small count). An entry holds only a weak reference, so a
# table of gigabytes is freed when its owner lets go of it; a dead reference (whose id a
# new array may have taken) is never taken for its array. Cleared when full.
_ADDRESSES: dict[int, tuple[weakref.ref, int]] = {}
_ADDRESSES_KEPT = 256  # a few boards (five arrays each) per thread: a board is counted several times in a row


def address(name: str, kind: str, value: np.ndarray) -> int:
    """``value``'s address after ``check``; remembered for the next call with the same array."""
    found = _ADDRESSES.get(id(value))
    if found is not None and found[0]() is value:
        return found[1]
    check(name, kind, value)
    if len(_ADDRESSES) >= _ADDRESSES_KEPT:
        _ADDRESSES.clear()
    where = value.ctypes.data
    _ADDRESSES[id(value)] = (weakref.ref(value), where)
    return where


def pack(args=ARGS, **values) -> list[int]:
    """The walk's arguments in order: an array's address (after checking its element
    type and layout, which the walk reads as flat memory), a number as an int."""
    names = {name for name, _ in args}
    if set(values) != names:
        missing, extra = names - set(values), set(values) - names
        raise TypeError(f"walk arguments: missing {sorted(missing)}, unknown {sorted(extra)}")
    packed = []
    for name, kind in args:
        value = values[name]
        if kind in _DTYPES:
            check(name, kind, value)
            packed.append(value.ctypes.data)
        else:
            packed.append(int(value))
    return packed
