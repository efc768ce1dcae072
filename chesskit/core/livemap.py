"""numba's live-variable analysis on bit sets: a first run's compile, faster.

numba finds the variables live at the entry of each block of a function
(``analysis.compute_live_map``) several times per compile: to insert the ``del`` of each
variable (``postproc``) and to remove dead code (``ir_utils.remove_dead``). It is two
fixed points over the control-flow graph: which variables are used or defined in a block
or any block before it, then which are used later on some path without being defined on
the way. numba keeps each block's variables as a set of names and merges whole sets at
every edge on every pass. The walk, with the move generator inlined twice, has hundreds of
blocks and thousands of variables, and the analysis took more than a second of its compile
(docs/benchmarks.md, 2026-11-27).

``install()`` gives numba the same analysis with each set a Python int, one bit per
variable: merging is an OR, the fixed points visit the blocks in the same order and stop
at the same sets, and the answer is the same dict of name sets. The compiled code is the
same: ``tests/core/test_livemap.py`` compares the answers on real functions' IR and the
LLVM IR of a function compiled with and without it.

numba's private API, touched only here: ``install`` replaces ``compute_live_map`` in the
numba modules that call it, where its signature is still the one this was written for;
elsewhere it changes nothing (a compile is then slower, never different). Importing this
module does not import numba.
"""

from __future__ import annotations

import inspect

_PARAMETERS = ["cfg", "blocks", "var_use_map", "var_def_map"]
_original = None  # numba's own ``compute_live_map`` once replaced


def live_map(cfg, blocks, var_use_map, var_def_map):
    """The variables live at the entry of each block of ``blocks``: a dict, label -> set
    of names, in the blocks' order (what ``compute_live_map`` answers)."""
    bit: dict[str, int] = {}

    def bits(names) -> int:
        word = 0
        for name in names:
            word |= 1 << bit.setdefault(name, len(bit))
        return word

    labels = list(blocks.keys())
    use = {label: bits(var_use_map[label]) for label in labels}
    define = {label: bits(var_def_map[label]) for label in labels}
    order = cfg.topo_order()
    successors = {label: [out for out, _ in cfg.successors(label)] for label in order}
    predecessors = {label: [inc for inc, _ in cfg.predecessors(label)] for label in order}

    # forward: what is used or defined in a block or in any block that can reach it
    reach: dict = {}
    changed = True
    while changed:
        changed = False
        for label in order:
            mine = reach.get(label, 0) | define.get(label, 0) | use.get(label, 0)
            if mine != reach.get(label, 0):
                reach[label] = mine
                changed = True
            for out in successors[label]:
                merged = reach.get(out, 0) | mine
                if merged != reach.get(out, 0):
                    reach[out] = merged
                    changed = True

    # backward: a predecessor keeps alive what its successor needs, unless it defines it
    live = dict(use)
    changed = True
    while changed:
        changed = False
        for label in reversed(order):
            needed = live.get(label, 0)
            for inc in predecessors[label]:
                merged = live.get(inc, 0) | (needed & reach.get(inc, 0) & ~define.get(inc, 0))
                if merged != live.get(inc, 0):
                    live[inc] = merged
                    changed = True

    names = list(bit)
    return {label: _names(live[label], names) for label in labels}


def _names(word: int, names: list[str]) -> set[str]:
    out = set()
    while word:
        low = word & -word
        out.add(names[low.bit_length() - 1])
        word ^= low
    return out


def install() -> bool:
    """Give numba this analysis (once per process); True when it is in place."""
    global _original
    if _original is not None:
        return True
    from numba.core import analysis, ir_utils

    original = getattr(analysis, "compute_live_map", None)
    if original is None or list(inspect.signature(original).parameters) != _PARAMETERS:
        return False
    analysis.compute_live_map = live_map  # postproc calls it through the module
    if getattr(ir_utils, "compute_live_map", None) is original:
        ir_utils.compute_live_map = live_map  # imported by name
    _original = original
    return True
