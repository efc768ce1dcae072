"""The move rules the GPU runs: the core's own functions, compiled for CUDA.

There is one move generator. numba-cuda compiles a CPU ``@njit`` function that a kernel
calls as a CUDA device function from the same Python source (its ``py_func``), so the
kernels call ``core/movegen`` and ``core/makemove`` as they are. One thing cannot be the
CPU's: the slider lookup, where the processor has PEXT (an x86 instruction, no GPU has
it). So ``movegen``'s functions are compiled for the GPU from their own code objects
with the slider lookups bound to the magic ones (``attacks.rook_attacks_magic``: the
lookups the CPU itself compiles on a processor without fast PEXT) and the table laid out
for them (``tables.magic_table``). Everything they call outside ``movegen`` (bit scans,
move encoding, make/unmake) numba-cuda compiles from the CPU functions' source.

Under numba-cuda's simulator (``NUMBA_ENABLE_CUDASIM=1``) the kernels run as Python on
the CPU and call the CPU's compiled functions and table instead, so the tests check the
kernels' and the host's logic there; the CUDA compile itself needs a GPU.
"""

from __future__ import annotations

import types as pytypes
from dataclasses import dataclass

import numpy as np

# numba-cuda 0.30 registers an overload of ``np.row_stack`` when it first compiles, which
# numpy 2.5 removed (an AttributeError at the first kernel: seen on the H200 image, numpy
# 2.5.2). It is ``np.vstack``'s old name; giving it back changes nothing else.
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack

from numba import config, cuda  # noqa: E402

from chesskit.core import attacks, makemove, movegen
from chesskit.core.tables import magic_table, tables

SIMULATOR = bool(config.ENABLE_CUDASIM)


@dataclass(frozen=True)
class Rules:
    generate: object  # movegen._generate(T, bb, board, st, out, count_only) -> int
    make: object  # makemove.make(T, bb, board, st, hist, hkeys, move)
    make_for_count: object  # makemove.make_for_count(T, bb, board, st, move, nb, nst)
    child_key: object  # makemove.child_key(T, bb, board, st, move): the key after move, unmade


def rebind(module, overrides: dict) -> dict:
    """Device functions compiled from the code objects of ``module``'s jitted functions,
    with ``overrides`` in place of the globals they name (and each other for themselves)."""
    space = dict(vars(module))
    space.update(overrides)
    for name, obj in vars(module).items():
        func = getattr(obj, "py_func", None)
        if func is not None and func.__module__ == module.__name__:
            code = pytypes.FunctionType(func.__code__, space, func.__name__, func.__defaults__, func.__closure__)
            space[name] = cuda.jit(device=True)(code)
    return space


def _unwrapped(dispatcher):
    """A CPU function callable from a simulated kernel (its arrays are wrappers there)."""

    def call(*args):
        return dispatcher(*(getattr(a, "_ary", a) for a in args))

    return call


def gpu_rules() -> Rules:
    if SIMULATOR:
        functions = (movegen._generate, makemove.make, makemove.make_for_count, makemove.child_key)
        return Rules(*(_unwrapped(f) for f in functions))
    sliders = {
        "rook_attacks": cuda.jit(device=True)(attacks.rook_attacks_magic),
        "bishop_attacks": cuda.jit(device=True)(attacks.bishop_attacks_magic),
    }
    space = rebind(movegen, sliders)
    return Rules(space["_generate"], makemove.make, makemove.make_for_count, makemove.child_key)


def gpu_table() -> np.ndarray:
    """The attack table the GPU's rules read (``gpu_rules``)."""
    return tables() if SIMULATOR else magic_table()
