"""Packed moves for the compiled core: the encoders and decoders of ``chesskit/vocab.py``
(where the bit layout is drawn), compiled by numba. They are the same Python functions
the pure-Python layers call, so the layout is written once; LLVM inlines them into the
move generator and make/unmake like the hand-written bit arithmetic they replace."""

from numba import njit

from chesskit import vocab
from chesskit.vocab import CAPTURE, CASTLING, DOUBLE, DROP, EN_PASSANT, PROMO_SHIFT  # noqa: F401 (re-exported)

_jit = njit(cache=True)

encode = _jit(vocab.encode)
from_sq = _jit(vocab.from_sq)
to_sq = _jit(vocab.to_sq)
promotion = _jit(vocab.promotion)
castle_squares = _jit(vocab.castle_squares)
is_drop = _jit(vocab.is_drop)
drop_piece = _jit(vocab.drop_piece)
