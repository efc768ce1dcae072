"""Showing a mismatch's ``chesskit.compare.regression.Regression`` (the suite line and the
pytest test that keep the bug fixed) in ``compare``, ``suite`` and ``fuzz``, and writing the
``chesskit.Engine(...)`` call that opens the engine as the command line named it."""

from __future__ import annotations

import click

from chesskit.cli import output
from chesskit.cli.engine_options import EngineOptions, parse_timeout


def engine_call(opts: EngineOptions) -> str:
    """``chesskit.Engine("stockfish", options=["Threads=2"])``: the engine of ``opts``."""
    from chesskit.api.engine import engine_call as call

    return call(
        opts.engine, opts.dialect, opts.engine_options, parse_timeout(opts.timeout), opts.engine_cmd, opts.script,
        opts.python_spec,
    )


def echo(regression, terminal: bool = False, perft: bool = False) -> None:
    """The regression's lines after a mismatch's report (nothing when it has none);
    ``perft``: the mismatch is in a ``.perft`` file, whose block format it is pasted in."""
    if regression is None:
        return
    lines = regression.text_lines(perft)
    if not terminal:
        click.echo("\n".join(lines))
        return
    from rich.text import Text

    con = output.console()
    for line in lines:
        # never wrapped: a suite line or a string literal cut in two no longer pastes
        con.print(Text(line, style="bold" if line and not line.startswith(" ") else ""), soft_wrap=True)


def to_json(regression, perft: bool = False) -> dict | None:
    """The regression's JSON object; ``perft`` (as ``echo``'s): with ``"block"``, the
    ``.perft`` block that pastes into the file the mismatch is in (what ``--html`` shows)."""
    if regression is None:
        return None
    return {**regression.to_json(), "block": regression.perft_block} if perft else regression.to_json()
