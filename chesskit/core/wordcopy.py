"""Copying the first words of one array into another, as one block.

perft's last-ply copy-make (``makemove.make_for_count``) copies 16 bitboards for every
move it counts the replies of. Written as a loop, LLVM must assume the two arrays may
overlap (they are pointers to it) and copies word by word: 16 loads and 16 stores, about
5% of Kiwipete's samples on an Intel Xeon (Rocket Lake), and the loads of the next count
wait behind them. ``copy_words(dst, src, n)`` is
LLVM's ``memcpy``, which promises no overlap, so with ``n`` known when compiled it
becomes a few vector loads and stores. The arrays must not overlap.

With ``NUMBA_DISABLE_JIT=1`` it is a plain slice assignment.
"""

from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

if config.DISABLE_JIT:

    def copy_words(dst, src, n):
        dst[:n] = src[:n]

else:

    @intrinsic
    def copy_words(typingctx, dst, src, n):
        if not (isinstance(dst, types.Array) and isinstance(src, types.Array) and dst.dtype == src.dtype):
            return None
        if not isinstance(n, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            target = context.make_array(signature.args[0])(context, builder, value=args[0])
            source = context.make_array(signature.args[1])(context, builder, value=args[1])
            count = context.cast(builder, args[2], signature.args[2], types.intp)
            itemsize = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
            cgutils.raw_memcpy(builder, target.data, source.data, count, itemsize, align=8)
            return context.get_dummy_value()

        return types.none(dst, src, n), codegen
