"""What perft and divide say before a count that runs for hours, and the options a
``--stats`` count cannot use.

A count's size is guessed before it starts (``tablesize.estimated_leaves``: shallow counts,
a few milliseconds; it can be several times low). Where even the fastest rate measured
would take over an hour, one line on stderr says how long at least: a new author who types
``perft startpos 12`` to see the big number learns it is weeks before waiting for it.
"""

from __future__ import annotations

import click

from chesskit.errors import InputError

# a deep perft's rate with the table, per thread, on the fastest CPU measured: startpos 10
# (6.9e13 leaves) in 400 s on two Intel Xeon cores (docs/benchmarks.md, 2026-12-01). A count
# takes at least about its leaves over this; the slower CPUs seen take twice as long
FAST_LEAVES_PER_THREAD_S = 8e10
# from this long (at that rate) the count is announced
LONG_RUN_S = 3600


def note_long_run(board, depth: int, threads: int) -> None:
    """One stderr line before a count of ``depth`` plies that takes over ``LONG_RUN_S``
    seconds on ``threads`` threads even at ``FAST_LEAVES_PER_THREAD_S``."""
    from chesskit.board import tablesize
    from chesskit.board.threads import threads_for

    if depth < tablesize.ESTIMATE_FROM:
        return
    leaves = tablesize.estimated_leaves(lambda k: board.perft(k), depth)
    used = threads_for(depth, threads)
    seconds = leaves / (FAST_LEAVES_PER_THREAD_S * used)
    if seconds <= LONG_RUN_S or leaves > tablesize.LARGEST_TREE:  # the largest are refused
        return
    click.echo(
        f"chesskit: note: perft {depth} of this position has about {leaves:.1e} leaves (guessed from shallow "
        f"counts): at least {duration(seconds)} on {used} thread{'s' if used > 1 else ''} at the fastest rate "
        f"measured ({FAST_LEAVES_PER_THREAD_S:.0e} leaves a second a thread, with the table); Ctrl-C stops it",
        err=True,
    )


def duration(seconds: float) -> str:
    """``3 hours``, ``9 days``, ``2 years``: a long run's length, roughly."""
    for unit, size in (("year", 365 * 86400), ("day", 86400), ("hour", 3600)):
        if seconds >= 2 * size or unit == "hour":
            amount = round(seconds / size)
            return f"{amount} {unit}{'s' if amount != 1 else ''}"
    raise AssertionError("unreachable")


def refuse_with_stats(flag: str, hash_mb: int | None, threads: int | None) -> None:
    """An InputError (exit 2) for --hash or --threads given with ``flag`` (--stats,
    --all-depths): the counters are counted on one thread without the table, and the
    options were dropped without a word (--device gpu refuses them as well). ``--hash 0``
    and ``--threads 1`` ask for what they get."""
    given = [name for name, value, same in (("--hash", hash_mb, 0), ("--threads", threads, 1)) if value not in (None, same)]
    if given:
        raise InputError(f"{flag} counts on one thread without the table: drop {' and '.join(given)}")
