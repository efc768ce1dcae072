"""uint64 bitboard helpers: constants, popcount and bit scans, square masks.

Squares run a1 = 0 ... h8 = 63. Every bitboard is a numpy uint64; never start one from a
bare ``0`` (numba would make it a signed int64 and ``x >> 63`` would be -1). popcount,
bit scans and PEXT compile to one instruction through llvmlite intrinsics; with
``NUMBA_DISABLE_JIT=1`` plain Python stand-ins run instead.
"""

import numpy as np
from numba import config, types
from numba.extending import intrinsic

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

FILE_A = np.uint64(0x0101010101010101)
FILE_H = np.uint64(0x8080808080808080)
RANK_1 = np.uint64(0xFF)
RANK_3 = np.uint64(0xFF0000)
RANK_6 = np.uint64(0xFF0000000000)
RANK_8 = np.uint64(0xFF00000000000000)
NOT_FILE_A = ~FILE_A
NOT_FILE_H = ~FILE_H

if config.DISABLE_JIT:

    def popcount(x):
        return bin(int(x)).count("1")

    def lsb(x):
        x = int(x)
        return (x & -x).bit_length() - 1

    def pext(x, mask):
        x, mask, out, k = int(x), int(mask), 0, 0
        while mask:
            low = mask & -mask
            if x & low:
                out |= 1 << k
            mask ^= low
            k += 1
        return np.uint64(out)

else:
    from llvmlite import ir

    @intrinsic
    def popcount(typingctx, x):
        """Number of set bits, as int64."""

        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return types.int64(types.uint64), codegen

    @intrinsic
    def lsb(typingctx, x):
        """Index of the lowest set bit (undefined for 0), as int64."""

        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return types.int64(types.uint64), codegen

    @intrinsic
    def pext(typingctx, x, mask):
        """The bits of ``x`` under ``mask``, packed to the bottom (BMI2's PEXT). Only for
        processors that have it: see ``chesskit/core/cpu.py``."""

        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            fn = builder.module.declare_intrinsic("llvm.x86.bmi.pext.64", fnty=fnty)
            return builder.call(fn, args)

        return types.uint64(types.uint64, types.uint64), codegen
