"""A prefetch hint for the compiled core: start loading a cache line now, use it later.

A deep perft's table is far larger than the processor's caches, so a probe usually waits
for memory (and on a virtual machine for a nested page walk too): measured at 130-300 ns
per probe of a 1 GiB table on the 2-core VM of docs/benchmarks.md. The walk knows the
keys of a node's children before it makes any of their moves (``makemove.child_key``),
so it asks for their buckets a few children ahead of their probes, and the loads overlap
each other and the work in between. ``prefetch(a, i)`` is LLVM's ``llvm.prefetch`` of
``a[i]``'s address: a hint only, it never faults and changes no value.

With ``NUMBA_DISABLE_JIT=1`` it is a plain function that does nothing.
"""

from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

if config.DISABLE_JIT:

    def prefetch(a, i):
        return None

else:

    @intrinsic
    def prefetch(typingctx, a, i):
        if not isinstance(a, types.Array) or not isinstance(i, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            array = context.make_array(signature.args[0])(context, builder, value=args[0])
            index = context.cast(builder, args[1], signature.args[1], types.intp)
            address = builder.gep(array.data, [index])
            i8p = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            hint = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            function = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0")
            # read (0), high temporal locality (3), data cache (1)
            builder.call(function, [builder.bitcast(address, i8p), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.none(a, i), codegen
