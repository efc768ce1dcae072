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


def _inlined_blocks_and_made_blocks(monkeypatch):
    """Compile ``caller``; the blocks each inlining put into it and those of the callee IRs
    that ``run_untyped_passes`` made for the inlinings (by id)."""
    worker = inline_closurecall.InlineWorker
    made, inserted = [], []  # the blocks themselves, kept alive: their ids stay theirs
    run_untyped, inline_ir = worker.run_untyped_passes, worker.inline_ir

    def spy_run_untyped(self, *args, **kwargs):
        ir = run_untyped(self, *args, **kwargs)
        made.extend(ir.blocks.values())
        return ir

    def spy_inline_ir(self, *args, **kwargs):
        out = inline_ir(self, *args, **kwargs)
        inserted.extend(block for _, block in out[3][1:])  # [0]: the caller's own block after the call
        return out

    monkeypatch.setattr(worker, "run_untyped_passes", spy_run_untyped)
    monkeypatch.setattr(worker, "inline_ir", spy_inline_ir)
    caller = njit(_space["caller"])
    a = np.array([3, 1, 0, 5, 1], dtype=np.int64)
    assert caller(a, 5) == _space["callee"](a, 5) + _space["callee"](a, 4)
    return {id(block) for block in inserted}, {id(block) for block in made}


def test_the_ir_made_for_an_inlining_is_inlined_itself_not_a_copy(monkeypatch):
    inlinecopy.install()
    inserted, made = _inlined_blocks_and_made_blocks(monkeypatch)
    assert len(inserted) > 6  # the callee's blocks, at two call sites
    assert inserted <= made  # numba's own: two deep copies of them, the second inlined
    assert inlinecopy._made == []


def test_where_numba_no_longer_fits_every_copy_is_made(monkeypatch):
    import inspect

    worker = inline_closurecall.InlineWorker
    numbas = {name: inspect.unwrap(getattr(worker, name)) for name in ("inline_ir", "inline_function")}
    for name, function in numbas.items():
        monkeypatch.setattr(worker, name, function)
    run_untyped = inspect.unwrap(worker.run_untyped_passes)

    def run_untyped_passes(self, func, enable_ssa=False, extra=None):  # a later numba's form
        return run_untyped(self, func, enable_ssa)

    monkeypatch.setattr(worker, "run_untyped_passes", run_untyped_passes)
    monkeypatch.setattr(inlinecopy, "_original", None)
    assert inlinecopy.install()
    assert worker.inline_function is numbas["inline_function"]  # not wrapped
    assert worker.run_untyped_passes is run_untyped_passes
    inserted, made = _inlined_blocks_and_made_blocks(monkeypatch)
    assert inserted and not inserted & made  # copies, as numba makes them
