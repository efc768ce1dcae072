"""Counted nouns in messages: ``plural(1, "position")`` is ``1 position``, ``plural(3,
"position")`` ``3 positions``. One owner for the suites' summaries, fuzz's lines and the
HTML report (each had its own, or wrote ``1 candidates``)."""

from __future__ import annotations


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
