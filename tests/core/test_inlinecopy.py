"""numba's inliner with one copy of a callee's scope (``chesskit.core.inlinecopy``): it fits
the numba installed, copies the scope once instead of once per block, and leaves the
compiled code as it was."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall

from chesskit.core import inlinecopy
from helpers import compiled_ir


FUNCTIONS = """
from numba import njit


def callee(a, n):  # several blocks: a loop and branches
    s = 0
    for i in range(n):
        if a[i] > 2:
            s += a[i] * 3
        elif a[i] == 1:
            s -= 1
        else:
            s ^= i
    return s


inlined = njit(inline="always")(callee)


def caller(a, n):
    return inlined(a, n) + inlined(a, n - 1)
"""
_space: dict = {}
exec(FUNCTIONS, _space)


def test_it_fits_the_numba_installed():
    assert inlinecopy.install()
    assert inline_closurecall.InlineWorker.inline_ir is not inlinecopy._original
    assert inlinecopy.install()  # once per process: a second call changes nothing


def test_the_blocks_of_an_inlined_callee_share_one_copy_of_its_scope(monkeypatch):
    inlinecopy.install()
    seen = []
    scopes = inline_closurecall._get_all_scopes

    def counting(blocks):
        seen.append((len(blocks), len({id(block.scope) for block in blocks.values()})))
        return scopes(blocks)

    monkeypatch.setattr(inline_closurecall, "_get_all_scopes", counting)
    caller = njit(_space["caller"])
    a = np.array([3, 1, 0, 5, 1], dtype=np.int64)
    assert caller(a, 5) == _space["callee"](a, 5) + _space["callee"](a, 4)
    assert len(seen) == 2  # the two call sites
    for blocks, distinct in seen:
        assert blocks > 3
        assert distinct == 1  # numba's own copy: one scope per block


@pytest.mark.slow  # two processes that import numba
def test_the_compiled_code_is_the_same():
    without = compiled_ir(FUNCTIONS, "caller")
    assert "define" in without
    assert compiled_ir(FUNCTIONS, "caller", "chesskit.core.inlinecopy") == without
