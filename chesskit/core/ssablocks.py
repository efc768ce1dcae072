"""numba's SSA reconstruction, made to rewrite only the blocks that name the variable it fixes.

After inlining, numba puts a function back into SSA form (``ssa._run_ssa``) one variable at
a time: for each variable assigned more than once it rewrites the whole function twice
(``_run_block_rewrite``: once to give each assignment a fresh name, once to point each use
at the assignment that reaches it), visiting every statement of every block. Only the
statements that name that variable change, so for a block that never names it both passes
only copy the block. The walk has about a hundred such variables in about three hundred
blocks: its reconstruction took 0.4-0.6 s of a first run's compile (docs/benchmarks.md,
2026-11-27).

``install()`` notes, at a reconstruction's first rewrite (none when no variable needs
fixing), the names each block mentions (every variable of every statement), and hands numba's rewrite only the blocks that mention the
variable being fixed; the others are copied as numba would (a new block, the same
statements). A fix renames and adds only names of its own variable, so what the other
blocks mention stays true for the variables after it. The IR is the same: the walk's LLVM
IR comes out byte for byte as without it (``tests/core/test_ssablocks.py`` checks smaller
functions' IR and compiled code).

numba's private API, touched only here: ``install`` wraps ``ssa._run_ssa`` and
``ssa._run_block_rewrite`` where they still take the arguments this was written for;
elsewhere it changes nothing (a compile is then slower, never different). Importing this
module does not import numba.
"""

from __future__ import annotations

import functools
import inspect

_original = None  # numba's own (``_run_ssa``, ``_run_block_rewrite``) once wrapped
_mentions: list[dict | None] = []  # per reconstruction under way: block label -> the names it mentions (None until its first rewrite)


def install() -> bool:
    """Wrap numba's SSA reconstruction (once per process); True when it is wrapped."""
    global _original
    if _original is not None:
        return True
    from numba.core import ir, ssa

    run_ssa = getattr(ssa, "_run_ssa", None)
    rewrite = getattr(ssa, "_run_block_rewrite", None)
    if run_ssa is None or rewrite is None:
        return False
    if list(inspect.signature(run_ssa).parameters) != ["blocks"]:
        return False
    if list(inspect.signature(rewrite).parameters) != ["blocks", "states", "handler"]:
        return False

    @functools.wraps(run_ssa)
    def run_ssa_noting_names(blocks):
        _mentions.append(None)
        try:
            return run_ssa(blocks)
        finally:
            _mentions.pop()

    @functools.wraps(rewrite)
    def rewrite_naming_blocks(blocks, states, handler):
        varname = states.get("varname")
        if varname is None or not _mentions:
            return rewrite(blocks, states, handler)
        if _mentions[-1] is None:  # the first rewrite: the function's blocks as the reconstruction was given them
            _mentions[-1] = {label: {var.name for stmt in block.body for var in stmt.list_vars()} for label, block in blocks.items()}
        mentions = _mentions[-1]
        if mentions.keys() != blocks.keys():
            return rewrite(blocks, states, handler)
        rewritten = rewrite({label: block for label, block in blocks.items() if varname in mentions[label]}, states, handler)
        out = {}
        for label, block in blocks.items():
            if label in rewritten:
                out[label] = rewritten[label]
            else:
                same = ir.Block(scope=block.scope, loc=block.loc)
                same.body = list(block.body)
                out[label] = same
        return out

    ssa._run_ssa = run_ssa_noting_names
    ssa._run_block_rewrite = rewrite_naming_blocks
    _original = (run_ssa, rewrite)
    return True
