"""numba's inliner, made to copy a callee's blocks as one: a first run's compile, faster.

numba inlines an ``inline="always"`` function by running its untyped passes and copying
the blocks it gets into the caller (``InlineWorker.inline_ir``, two copies per call site).
It deep-copies each block on its own, and every variable of a block refers to the
function's one ``Scope``, which holds all of the function's variables: so each block's
copy copies the whole scope again (a copy of n blocks costs n scopes), and the copies are
then told apart from each other by comparing scopes field by field. The walk inlines the
move generator, with everything inlined into it, at two call sites: about a third of the
Python calls of its compile went to these copies (docs/benchmarks.md, 2026-11-27).

``install()`` makes the blocks copied during one inlining share one copy memo per scope,
as a single ``copy.deepcopy`` of all of them would: the scope is copied once, and the
blocks keep sharing what they shared before. The IR is the same: the walk's LLVM IR and
machine code come out byte for byte as without it (``tests/core/test_inlinecopy.py``
checks a smaller function's).

numba's private API, touched only here: ``install`` wraps ``InlineWorker.inline_ir`` and
gives ``ir.Block`` a ``__deepcopy__`` only while that runs. Where the numba installed no
longer fits (no ``inline_ir``, or a ``Block`` that copies itself), it changes nothing: a
compile is then slower, never different. Importing this module does not import numba.
"""

from __future__ import annotations

import copy
import functools

_original = None  # numba's own ``InlineWorker.inline_ir`` once installed


def install() -> bool:
    """Wrap numba's inliner (once per process); True when it is wrapped."""
    global _original
    if _original is not None:
        return True
    from numba.core import inline_closurecall, ir

    worker = getattr(inline_closurecall, "InlineWorker", None)
    inline_ir = getattr(worker, "inline_ir", None)
    if inline_ir is None or "__deepcopy__" in vars(ir.Block):
        return False

    @functools.wraps(inline_ir)
    def inline_ir_sharing_scopes(self, *args, **kwargs):
        if "__deepcopy__" in vars(ir.Block):  # inside another inlining: its copy rule stands
            return inline_ir(self, *args, **kwargs)
        memos = {}  # id(scope) -> (scope, the memo its blocks' copies share)

        def copy_block(block, memo):
            scope = block.scope
            shared = memos.setdefault(id(scope), (scope, {}))[1]
            copied = ir.Block.__new__(ir.Block)
            shared[id(block)] = copied
            copied.__dict__.update(copy.deepcopy(block.__dict__, shared))
            return copied

        ir.Block.__deepcopy__ = copy_block
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            del ir.Block.__deepcopy__

    worker.inline_ir = inline_ir_sharing_scopes
    _original = inline_ir
    return True
