"""numba's live-variable analysis on bit sets (``chesskit.core.livemap``): it fits the numba
installed, gives numba's own answer on real functions' IR, and leaves the compiled code as
it was."""

from __future__ import annotations

import pytest
from numba.core import analysis, compiler, ir_utils

from chesskit.core import livemap
from helpers import compiled_ir

FUNCTIONS = """
def nested(a, n):  # loops in loops, a break, a variable live around the back edges
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


def branches(a, n):  # a variable defined on one path only, used after the join
    if n > 2:
        t = a[0] * 2
    else:
        t = 0
    u = t
    for k in range(n):
        u = u ^ a[k]
    return u, t


def caller(a, n):
    return nested(a, n) + branches(a, n)[0]
"""
_space: dict = {}
exec(FUNCTIONS, _space)


def test_it_fits_the_numba_installed():
    assert livemap.install()
    assert analysis.compute_live_map is livemap.live_map
    assert ir_utils.compute_live_map is livemap.live_map
    assert livemap._original is not None and livemap._original is not livemap.live_map
    assert livemap.install()  # once per process: a second call changes nothing


@pytest.mark.parametrize("name", ["nested", "branches"])
def test_numbas_answer_on_real_ir(name):
    livemap.install()
    func_ir = compiler.run_frontend(_space[name])
    blocks = func_ir.blocks
    cfg = analysis.compute_cfg_from_blocks(blocks)
    usedefs = analysis.compute_use_defs(blocks)
    ours = livemap.live_map(cfg, blocks, usedefs.usemap, usedefs.defmap)
    theirs = livemap._original(cfg, blocks, usedefs.usemap, usedefs.defmap)
    assert list(ours) == list(theirs)
    assert ours == theirs
    # not a trivial answer: some block has a variable live at its entry that it does not use
    assert any(ours[label] - usedefs.usemap[label] for label in ours)


def test_a_changed_rule_would_show():
    # the test above can fail: dropping the backward pass's "unless defined" rule changes the answer
    livemap.install()
    func_ir = compiler.run_frontend(_space["nested"])
    blocks = func_ir.blocks
    cfg = analysis.compute_cfg_from_blocks(blocks)
    usedefs = analysis.compute_use_defs(blocks)
    theirs = livemap._original(cfg, blocks, usedefs.usemap, usedefs.defmap)
    no_defs = {label: set() for label in usedefs.defmap}
    wrong = livemap.live_map(cfg, blocks, usedefs.usemap, no_defs)
    assert wrong != theirs


@pytest.mark.slow  # two processes that import numba
def test_the_compiled_code_is_the_same():
    source = FUNCTIONS.replace("def nested", "@njit\ndef nested").replace("def branches", "@njit\ndef branches")
    source = "from numba import njit\n" + source
    without = compiled_ir(source, "caller")
    assert "define" in without
    assert compiled_ir(source, "caller", "chesskit.core.livemap") == without
