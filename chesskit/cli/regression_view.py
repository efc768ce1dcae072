"""Showing a mismatch's ``chesskit.compare.regression.Regression`` (the suite line and the
pytest test that keep the bug fixed) in ``compare``, ``suite`` and ``fuzz``, and writing the
``chesskit.Engine(...)`` call that opens the engine as the command line named it."""

from __future__ import annotations

import json

import click

from chesskit.cli import output
from chesskit.cli.engine_options import EngineOptions, parse_timeout

DEFAULT_TIMEOUT = 30.0  # chesskit.Engine's, as --timeout's

_KEYWORDS = (("engine_cmd", "engine_cmd"), ("script", "script"), ("python_spec", "python"), ("dialect", "dialect"))


def engine_call(opts: EngineOptions) -> str:
    """``chesskit.Engine("stockfish", options=["Threads=2"])``: the engine of ``opts``."""
    args = [] if opts.engine is None else [json.dumps(opts.engine)]
    for attribute, keyword in _KEYWORDS:
        value = getattr(opts, attribute)
        if value is not None:
            args.append(f"{keyword}={json.dumps(value)}")
    if opts.engine_options:
        args.append(f"options={json.dumps(list(opts.engine_options))}")
    timeout = parse_timeout(opts.timeout)
    if timeout != DEFAULT_TIMEOUT:
        args.append(f"timeout={timeout!r}")
    return f"chesskit.Engine({', '.join(args)})"


def echo(regression, terminal: bool = False) -> None:
    """The regression's lines after a mismatch's report (nothing when it has none)."""
    if regression is None:
        return
    lines = regression.text_lines()
    if not terminal:
        click.echo("\n".join(lines))
        return
    from rich.text import Text

    con = output.console()
    for line in lines:
        con.print(Text(line, style="bold" if line and not line.startswith(" ") else ""))


def to_json(regression) -> dict | None:
    return None if regression is None else regression.to_json()
