"""Arrays without reference counting, for the hot loops.

numba counts references to every array it passes around, with atomic increments and
decrements (``NRT_incref``/``NRT_decref``). Where a function is inlined into a loop,
its array arguments get an increment and a decrement on every pass, and with branchy
bodies like move generation numba's pruning does not remove them. A locked instruction
waits for the store buffer to drain, and with several threads the counter's cache line
bounces between cores: in perft's bulk-counting loop they cost about a third of the
time. ``borrow(a)`` is the same array (same data, shape and strides) with no reference
count to touch, so numba skips the counting for it.

A borrowed array does not keep its memory alive: borrow only arrays that something else
holds for as long as the borrowed one is used, such as the arguments of the function
doing the borrowing (its caller holds them until it returns).

``address(a)`` is the address of an array's data as a typed pointer, for a call that takes
the array as a pointer and builds it again with ``carray`` (the walk's ``*_at`` helpers):
an array argument to a call that is not inlined costs seven words and a reference count
taken and given back, even when borrowed. The same warning holds.
"""

from numba import config
from numba.core import cgutils, types
from numba.extending import intrinsic

if config.DISABLE_JIT:

    def borrow(a):
        return a

    def address(a):
        import ctypes

        import numpy as np

        return a.ctypes.data_as(ctypes.POINTER(np.ctypeslib.as_ctypes_type(a.dtype)))

else:

    @intrinsic
    def borrow(typingctx, a):
        def codegen(context, builder, signature, args):
            src = context.make_array(signature.args[0])(context, builder, value=args[0])
            out = context.make_array(signature.return_type)(context, builder)
            for name in ("nitems", "itemsize", "data", "shape", "strides"):
                setattr(out, name, getattr(src, name))
            out.meminfo = cgutils.get_null_value(out.meminfo.type)
            out.parent = cgutils.get_null_value(out.parent.type)
            return out._getvalue()

        return a(a), codegen

    @intrinsic
    def address(typingctx, a):
        def codegen(context, builder, signature, args):
            return context.make_array(signature.args[0])(context, builder, value=args[0]).data

        return types.CPointer(a.dtype)(a), codegen
