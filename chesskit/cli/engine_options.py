"""The options that name an external engine, shared by ``compare`` and ``suite``:
--engine / --script / --python / --engine-option / --timeout, and opening the engine."""

from __future__ import annotations

import click

from chesskit.errors import InputError


def engine_options(fn):
    """--engine / --script / --python / --engine-option / --timeout (shared with ``suite``)."""
    for decorator in reversed(
        [
            click.option(
                "--engine",
                metavar="CMD",
                help="A UCI engine command that supports 'go perft' (e.g. stockfish).",
            ),
            click.option(
                "--script",
                metavar="PATH",
                help='A perftree script: PATH "$depth" "$fen" "$moves" prints "move count" lines, a blank line, the total.',
            ),
            click.option(
                "--python",
                "python_spec",
                metavar="MODULE:ATTR",
                help="A Python adapter factory (module or path/to/file.py) with set_fen, legal_moves, push, pop [, fen].",
            ),
            click.option(
                "--engine-option",
                "engine_options",
                metavar="NAME=VALUE",
                multiple=True,
                help="setoption for the UCI engine (repeatable), e.g. --engine-option Threads=2.",
            ),
            click.option(
                "--timeout",
                metavar="SECONDS",
                default="30",
                show_default=True,
                help="Give up on an engine that takes longer than this for one answer.",
            ),
        ]
    ):
        fn = decorator(fn)
    return fn


def parse_timeout(text: str) -> float:
    from chesskit.compare.engines.base import MAX_TIMEOUT

    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= MAX_TIMEOUT:  # also refuses nan and inf
        raise InputError(f"bad --timeout {text!r}: must be a positive number of seconds up to {MAX_TIMEOUT:g}")
    return value


def open_user_engine(engine, script, python_spec, engine_options, timeout):
    """The engine back end for the flags (InputError unless exactly one is given)."""
    from chesskit.compare.engines import open_engine

    return open_engine(
        engine=engine, script=script, python=python_spec, options=engine_options, timeout=timeout
    )
