"""``chesskit/typed.py``: numbers as typed (ASCII digits only) and whether bytes are UTF-8."""

from __future__ import annotations

import os

import pytest

from chesskit.typed import not_utf8, plain_float, plain_int


@pytest.mark.parametrize("text, grouped, value", [
    ("10", False, 10), (" -3 ", False, -3), ("+7", False, 7),
    ("1_0", False, None), ("1_000_000", True, 1_000_000), ("1__0", True, None), ("_1", True, None),
    ("٣", False, None), ("２", False, None), ("", False, None), ("1.0", False, None),
])
def test_plain_int_reads_ascii_digits_only(text, grouped, value):
    assert plain_int(text, grouped) == value


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("1e6", 1e6), ("1_0.5", None), ("٣.5", None)])
def test_plain_float_reads_ascii_without_underscores(text, value):
    assert plain_float(text) == value


def test_not_utf8_names_the_first_bad_byte_of_bytes_or_of_an_argument():
    assert not_utf8(b"ok \xc3\xa9") is None and not_utf8("ok é") is None
    assert not_utf8(b"ab\xffc") == "not UTF-8 text (byte 0xff at column 3)"
    assert not_utf8(os.fsdecode(b"ab\xe9")) == "not UTF-8 text (byte 0xe9 at column 3)"  # argv's surrogate escape
    assert not_utf8("a\ud800") == "not UTF-8 text (a lone surrogate at column 2)"  # no byte decodes to it
