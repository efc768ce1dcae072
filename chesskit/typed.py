"""Numbers as a user types them (a command's options, the explorer's commands): ASCII
digits only. And whether text read as bytes is UTF-8 (``not_utf8``).

Python's ``int`` and ``float`` also read other scripts' digits (``'٣'``, the full-width
``'２'``) and underscores anywhere between digits (``'1_0'``): a depth typed ``1_0`` ran
a depth-10 perft, whose default table takes half the memory. Suite files refuse them
too (``docs/suite-formats.md``)."""

from __future__ import annotations

import re

_INT = re.compile(r"[+-]?[0-9]+")
# 1_000_000: a count may group its digits, Python's way (one underscore between two digits)
_GROUPED = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")


def plain_int(text: str, grouped: bool = False) -> int | None:
    """``text`` (surrounding blanks ignored) as an int when it is written in ASCII digits
    with an optional sign (``grouped``: with ``_`` between groups of digits), else None."""
    text = text.strip()
    return int(text) if (_GROUPED if grouped else _INT).fullmatch(text) else None


def plain_float(text: str) -> float | None:
    """``text`` as a float when it is ASCII without underscores (``0.5``, ``1e6``, ``inf``:
    the caller judges the range), else None."""
    text = text.strip()
    if not text.isascii() or "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def not_utf8(raw: bytes | str) -> str | None:
    """Why ``raw`` is not UTF-8 text, naming the first bad byte and its column, or None.
    A ``str`` is a command-line argument as Python decodes it: a byte that is not UTF-8
    became a lone surrogate (``os.fsdecode``), and is found again here."""
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError as err:  # a surrogate no byte decodes to
            return f"not UTF-8 text (a lone surrogate at column {err.start + 1})"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return f"not UTF-8 text (byte 0x{raw[err.start]:02x} at column {err.start + 1})"
    return None
