"""The walk's C signature has one owner (``chesskit.core.walkargs``): the numba signature,
the ctypes argument types, the walk's own parameters and the caller's arguments all follow
its table, and a caller's array of the wrong type is an error instead of a segfault. Also
the one place that reaches into numba's private ``_library`` (``native.object_code``)."""

from __future__ import annotations

import ast
import ctypes
import inspect

import numpy as np
import pytest

from chesskit.core import native, perft, walkargs


def _walk_parameters() -> tuple[str, ...]:
    """The parameter names of the function ``perft.c_entry`` compiles, read from its source."""
    tree = ast.parse(inspect.getsource(perft))
    entry = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "c_entry")
    walk = next(node for node in ast.walk(entry) if isinstance(node, ast.FunctionDef) and node.name == "walk")
    return tuple(arg.arg for arg in walk.args.args)


def test_the_walk_takes_the_table_s_arguments_in_its_order():
    assert _walk_parameters() == walkargs.parameters()


def test_numba_and_ctypes_get_the_same_signature():
    from numba import types

    signature = walkargs.numba_signature(types)
    assert signature.return_type == types.int64
    assert len(signature.args) == len(walkargs.ARGTYPES) == len(walkargs.ARGS)
    for numba_type, c_type in zip(signature.args, walkargs.ARGTYPES):
        assert (c_type is ctypes.c_void_p) == isinstance(numba_type, types.CPointer)
        assert c_type in (ctypes.c_void_p, ctypes.c_int64)
    assert native._PROTOTYPE._argtypes_ == walkargs.ARGTYPES


def _values(**changes):
    values = {}
    for name, kind in walkargs.ARGS:
        values[name] = {"u64*": np.zeros(4, np.uint64), "i64*": np.zeros(4, np.int64)}.get(kind, 4)
    values.update(changes)
    return values


def test_pack_gives_addresses_and_numbers_in_order():
    values = _values()
    packed = walkargs.pack(**values)
    for (name, kind), arg in zip(walkargs.ARGS, packed):
        assert arg == (values[name].ctypes.data if kind.endswith("*") else 4)


@pytest.mark.parametrize(
    "changes",
    [{"T": np.zeros(4, np.int32)}, {"hkeys": np.zeros(4, np.int64)}, {"board": np.zeros((4, 4), np.int64)[:, 0]},
     {"depth": None, "extra": 1}],
    ids=["int32 table", "int64 keys", "a strided view", "a name missing, another unknown"],
)
def test_pack_refuses_what_the_walk_would_misread(changes):
    values = {k: v for k, v in _values(**changes).items() if v is not None}
    with pytest.raises(TypeError):
        walkargs.pack(**values)


def test_object_code_hands_over_an_elf_object():
    import numba

    entry = numba.cfunc("int64(int64)")(lambda x: x + 1)
    code = native.object_code(entry)
    assert code[:4] == b"\x7fELF"
    assert isinstance(native.undefined_symbols(code), list)


def test_object_code_refuses_anything_but_an_object():
    class Library:
        def serialize_using_object_code(self):
            return ("name", "bitcode", (b"",))

    class Entry:
        _library = Library()

    with pytest.raises(ValueError):
        native.object_code(Entry())


def test_a_remembered_address_is_the_arrays_and_checked_first():
    import numpy as np
    import pytest

    arrays = [np.zeros(4, dtype=np.uint64) for _ in range(walkargs._ADDRESSES_KEPT + 10)]
    for a in arrays:
        assert walkargs.address("tt", "u64*", a) == a.ctypes.data
        assert walkargs.address("tt", "u64*", a) == a.ctypes.data  # remembered
    assert len(walkargs._ADDRESSES) <= walkargs._ADDRESSES_KEPT  # bounded: it holds the arrays
    with pytest.raises(TypeError, match="walk argument bb"):
        walkargs.address("bb", "u64*", np.zeros(4, dtype=np.int64))
    with pytest.raises(TypeError, match="C-contiguous"):
        walkargs.address("bb", "u64*", np.zeros(8, dtype=np.uint64)[::2])


def test_a_remembered_array_is_freed_when_its_owner_lets_go():
    """The address cache must not keep a table alive: a perft's table of gigabytes would
    otherwise stay in memory after the count, in a long-lived process (the API, pytest)."""
    import gc
    import weakref

    import numpy as np

    table = np.zeros(1 << 16, dtype=np.uint64)
    where = walkargs.address("tt", "u64*", table)
    assert where == table.ctypes.data
    alive = weakref.ref(table)
    del table
    gc.collect()
    assert alive() is None
    other = np.ones(1 << 16, dtype=np.uint64)  # may take the freed id: its own address is returned
    assert walkargs.address("tt", "u64*", other) == other.ctypes.data
