"""``copy_words`` (the last-ply copy-make's block copy) and ``prefetch`` (the table's hint),
compiled as the walk uses them."""

import numpy as np
from numba import njit

from chesskit.core.prefetch import prefetch
from chesskit.core.wordcopy import copy_words


@njit(cache=False)
def _copy(dst, src, n):
    copy_words(dst, src, n)


@njit(cache=False)
def _hint_all(a):
    for i in range(a.shape[0]):
        prefetch(a, i)
    return a.sum()


def test_copy_words_copies_exactly_the_first_n_words():
    src = np.arange(1, 19, dtype=np.uint64) * np.uint64(0x0101010101010101)
    for n in (0, 1, 7, 16, 18):
        dst = np.full(18, 0xFFFF_FFFF_FFFF_FFFF, dtype=np.uint64)
        _copy(dst, src, n)
        assert np.array_equal(dst[:n], src[:n])
        assert np.all(dst[n:] == np.uint64(0xFFFF_FFFF_FFFF_FFFF)), n


def test_copy_words_of_signed_words():
    src = np.array([-1, 5, -(2**62)], dtype=np.int64)
    dst = np.zeros(3, dtype=np.int64)
    _copy(dst, src, 3)
    assert dst.tolist() == [-1, 5, -(2**62)]


def test_prefetch_changes_no_value():
    a = np.arange(1000, dtype=np.uint64)
    before = a.copy()
    assert _hint_all(a) == before.sum()
    assert np.array_equal(a, before)
