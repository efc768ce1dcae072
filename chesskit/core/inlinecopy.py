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
blocks keep sharing what they shared before. And where the callee's IR is the one
``InlineWorker.inline_function`` has just made for this call site (``run_untyped_passes``:
an ``inline="always"`` function, the walk's every inlining), nothing else holds it, so
neither copy is made: ``inline_ir`` copies it once to mutate the copy (the fresh IR is
mutated instead) and once more for its first return value, the IR "before" (which
``InlineInlinables``, ``inline_function``'s one caller in numba, discards; here it shares
the mutated blocks). The IR is the same: the walk's LLVM IR and machine code come out byte
for byte as without it (``tests/core/test_inlinecopy.py`` checks a smaller function's).

numba's private API, touched only here: ``install`` wraps ``InlineWorker.inline_ir``,
``inline_function`` and ``run_untyped_passes`` and gives ``ir.Block`` a ``__deepcopy__``
only while ``inline_ir`` runs. Where the numba installed no longer fits (no
``inline_ir``, or a ``Block`` that copies itself), it changes nothing; where
``inline_function`` or ``run_untyped_passes`` no longer take the arguments this was written
for, every copy is made as above: a compile is then slower, never different. Importing
this module does not import numba.
"""

from __future__ import annotations

import copy
import functools
import inspect

_original = None  # numba's own ``InlineWorker.inline_ir`` once installed
# per ``inline_function`` under way (innermost last): the callee IR its
# ``run_untyped_passes`` made, None until then
_made: list = []
_INLINE_IR = ["self", "caller_ir", "block", "i", "callee_ir", "callee_freevars", "arg_typs"]
_INLINE_FUNCTION = ["self", "caller_ir", "block", "i", "function", "arg_typs"]
_RUN_UNTYPED = ["self", "func", "enable_ssa"]


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
    inline_function = getattr(worker, "inline_function", None)
    run_untyped_passes = getattr(worker, "run_untyped_passes", None)
    owning = (
        inline_function is not None
        and run_untyped_passes is not None
        and _parameters(inline_ir) == _INLINE_IR
        and _parameters(inline_function) == _INLINE_FUNCTION
        and _parameters(run_untyped_passes) == _RUN_UNTYPED
    )

    @functools.wraps(inline_ir)
    def inline_ir_sharing_scopes(self, *args, **kwargs):
        if "__deepcopy__" in vars(ir.Block):  # inside another inlining: its copy rule stands
            return inline_ir(self, *args, **kwargs)
        # the IR inline_function made for this call (nothing else holds it): not copied
        owned = owning and bool(_made) and len(args) > 3 and _made[-1] is args[3]
        memos = {}  # id(scope) -> (scope, the memo its blocks' copies share)

        def copy_block(block, memo):
            if owned:
                return block
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

    @functools.wraps(inline_function)
    def inline_function_noting(self, *args, **kwargs):
        _made.append(None)
        try:
            return inline_function(self, *args, **kwargs)
        finally:
            _made.pop()

    @functools.wraps(run_untyped_passes)
    def run_untyped_passes_noting(self, *args, **kwargs):
        made = run_untyped_passes(self, *args, **kwargs)
        if _made and _made[-1] is None:  # the first IR made for the innermost inline_function
            _made[-1] = made
        return made

    worker.inline_ir = inline_ir_sharing_scopes
    if owning:
        worker.inline_function = inline_function_noting
        worker.run_untyped_passes = run_untyped_passes_noting
    _original = inline_ir
    return True


def _parameters(function) -> list[str]:
    try:
        return list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return []
