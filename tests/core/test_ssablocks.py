"""numba's SSA reconstruction over only the blocks that name the variable it fixes
(``chesskit.core.ssablocks``): it fits the numba installed, gives the IR numba gives, and
leaves the compiled code as it was."""

from __future__ import annotations

import copy
import pytest
from numba.core import compiler, ssa

from chesskit.core import ssablocks
from helpers import compiled_ir

FUNCTIONS = """
def nested(a, n):  # variables assigned on several paths, loops in loops, a break
    s = 0
    last = -1
    for i in range(n):
        j = 0
        while j < i:
            if a[j] > 3:
                last = j
                break
            s += a[j]
            j += 1
        else:
            s -= 1
        if s > 100:
            return last
    return s + last


def branches(a, n):  # one variable assigned in both arms, used after the join and in a loop
    if n > 2:
        t = a[0] * 2
    else:
        t = 0
    u = t
    for k in range(n):
        u = u ^ a[k]
        t += 1
    return u, t
"""
_space: dict = {}
exec(FUNCTIONS, _space)


def _dump(blocks) -> list:
    return [(label, [str(stmt) for stmt in block.body]) for label, block in blocks.items()]


def _both(name):
    """numba's reconstruction and the wrapped one, each on its own copy of the same IR."""
    ssablocks.install()
    func_ir = compiler.run_frontend(_space[name])
    theirs = ssablocks._original[0](copy.deepcopy(func_ir).blocks)
    ours = ssa._run_ssa(copy.deepcopy(func_ir).blocks)
    return _dump(theirs), _dump(ours)


def test_it_fits_the_numba_installed():
    assert ssablocks.install()
    assert ssa._run_ssa is not ssablocks._original[0]
    assert ssa._run_block_rewrite is not ssablocks._original[1]
    assert ssablocks.install()  # once per process: a second call changes nothing


@pytest.mark.parametrize("name", ["nested", "branches"])
def test_the_same_ir_as_numba(name):
    theirs, ours = _both(name)
    assert ours == theirs
    assert any("phi" in stmt for _, body in ours for stmt in body)  # a real reconstruction


def test_skipping_a_block_that_uses_the_variable_would_show():
    # the comparison above can fail: a block left out because it only reads the variable
    ssablocks.install()
    func_ir = compiler.run_frontend(_space["nested"])
    theirs = _dump(ssablocks._original[0](copy.deepcopy(func_ir).blocks))

    def targets_only(blocks):
        ssablocks._mentions.append({label: {s.target.name for s in b.body if hasattr(s, "target") and hasattr(s.target, "name")} for label, b in blocks.items()})
        try:
            return ssablocks._original[0](blocks)
        finally:
            ssablocks._mentions.pop()

    assert _dump(targets_only(copy.deepcopy(func_ir).blocks)) != theirs


@pytest.mark.slow  # two processes that import numba
def test_the_compiled_code_is_the_same():
    without = compiled_ir(FUNCTIONS, "nested")
    assert "define" in without
    assert compiled_ir(FUNCTIONS, "nested", "chesskit.core.ssablocks") == without
