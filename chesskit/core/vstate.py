"""The state of a variant position (plain numpy, like ``state.py``, which it extends).

A variant position is the standard arrays made longer, so that every standard rule
(``movegen``, ``makemove``'s small rules) runs on it unchanged:

  bb    uint64[VBB_SIZE]  bb[0..17] as in ``state.py`` (pieces, occupancies, castling
                          rooks, the key), bb[PROMOTED] the crazyhouse pieces marked '~'.
  board int64[64]         as in ``state.py``.
  st    int64[VST_SIZE]   st[0..7] as in ``state.py``, st[CHECKS + colour] the checks that
                          colour has GIVEN so far (3check), st[POCKET + colour * 8 + ptype]
                          the pieces in that colour's pocket (crazyhouse).

The variant walk is copy-make: one row of each array per ply (``vwalk.py``), so no
history is kept and nothing is unmade. ``Board`` keeps copies for ``pop``.

The key (bb[KEY]) of a variant position is the standard key xor the terms of its extras:
``Z_CHECKS[colour * 4 + n]`` for a side that has given n > 0 checks,
``Z_POCKET[(colour * 8 + ptype) * POCKET_MAX + n]`` for a pocket count n > 0,
``Z_PROMOTED[sq]`` for a promoted piece on ``sq``: the walk's table needs them; and
``Z_VARIANT[id]``, so that no variant position shares a key with a standard one.

Variant ids are the core's (they equal ``chesskit/variants.py``'s): the core compiles one
walk per rule set, ``RULES[id]`` (giveaway is antichess's rules with castling rights).
"""

import numpy as np

from chesskit.vocab import MAX_MOVES

from .state import BB_SIZE, ST_SIZE, random_words

CHESS, ATOMIC, CRAZYHOUSE, KINGOFTHEHILL, THREECHECK, ANTICHESS, GIVEAWAY, HORDE, RACINGKINGS = range(9)
NAMES = ("chess", "atomic", "crazyhouse", "kingofthehill", "3check", "antichess", "giveaway", "horde", "racingkings")
IDS = {name: vid for vid, name in enumerate(NAMES)}
RULES = tuple(ANTICHESS if vid == GIVEAWAY else vid for vid in range(len(NAMES)))
# The rule sets whose moves the variant walk generates; any other would be counted with
# standard chess's moves, so ``Board`` refuses it (``vgen.GENERATE`` has no other).
COUNTED = frozenset({ATOMIC, CRAZYHOUSE, KINGOFTHEHILL, THREECHECK, ANTICHESS, HORDE, RACINGKINGS})

PROMOTED = BB_SIZE  # 18
VBB_SIZE = BB_SIZE + 2

CHECKS = ST_SIZE  # 8: st[CHECKS + colour]
POCKET = ST_SIZE + 8  # 16: st[POCKET + colour * 8 + ptype]
VST_SIZE = POCKET + 16  # 32
POCKET_MAX = 33  # a pocket count is 0..32
# A move row of the variant walk: the standard bound (vocab.MAX_MOVES) and a drop of each of
# five piece types on each square (crazyhouse).
VMAX_MOVES = MAX_MOVES + 5 * 64


def _keys():
    keys = random_words(0x7A71A47, 8 + 16 * POCKET_MAX + 64 + 16)
    pocket_end = 8 + 16 * POCKET_MAX
    return keys[:8].copy(), keys[8:pocket_end].copy(), keys[pocket_end : pocket_end + 64].copy(), keys[-16:].copy()


Z_CHECKS, Z_POCKET, Z_PROMOTED, Z_VARIANT = _keys()


def new_vstate():
    """Fresh, empty variant state arrays: (bb, board, st)."""
    return np.zeros(VBB_SIZE, dtype=np.uint64), np.zeros(64, dtype=np.int64), np.zeros(VST_SIZE, dtype=np.int64)


def extras_key(st, promoted: int) -> np.uint64:
    """The key terms of a variant position's extras (the checks, pockets and promoted
    pieces in ``st`` and the bitboard ``promoted``); plain Python for ``Board``."""
    key = np.uint64(0)
    for colour in (0, 1):
        n = int(st[CHECKS + colour])
        if n:
            key ^= Z_CHECKS[colour * 4 + min(n, 3)]
        for ptype in range(1, 8):
            n = int(st[POCKET + colour * 8 + ptype])
            if n:
                key ^= Z_POCKET[(colour * 8 + ptype) * POCKET_MAX + min(n, POCKET_MAX - 1)]
    for sq in range(64):
        if promoted >> sq & 1:
            key ^= Z_PROMOTED[sq]
    return key
