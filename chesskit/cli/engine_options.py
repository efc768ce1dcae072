"""The options that name an external engine, shared by ``compare`` and ``suite``:
--engine / --dialect / --engine-cmd / --script / --python / --engine-option / --timeout,
opening the engine, and stating the dialect it spoke.

``engine_options`` adds the seven options to a click command and hands the command one
``engine_opts`` argument, an ``EngineOptions`` (as ``cluster_options`` does for the
cluster's four)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import click

from chesskit.errors import InputError
from chesskit.typed import plain_float


_NAMES = ("engine", "dialect", "engine_cmd", "script", "python_spec", "engine_options", "timeout")


@dataclass(frozen=True)
class EngineOptions:
    """The seven engine options of one command, as given (None: not given)."""

    engine: str | None = None
    dialect: str | None = None
    engine_cmd: str | None = None
    script: str | None = None
    python_spec: str | None = None
    engine_options: tuple[str, ...] = ()
    timeout: str = "30"

    @property
    def given(self) -> bool:
        """Whether any option that asks for an engine was given (--timeout alone is not)."""
        flags = (self.engine, self.script, self.python_spec, self.engine_cmd, self.dialect)
        return any(flag is not None for flag in flags) or bool(self.engine_options)

    def input_files(self) -> list:
        """The engine's own files (its binary, script, adapter): never an output."""
        from chesskit.compare.engines.files import input_files

        return input_files(self.engine, self.script, self.python_spec, self.engine_cmd)

    def api_engine(self, variant: str = "chess"):
        """The ``chesskit.api.Engine`` (InputError for a bad --timeout, or unless exactly one
        engine is given), set to ``variant``'s rules (--variant)."""
        from chesskit.api.engine import Engine

        return Engine.with_flags(
            self.engine,
            dialect=self.dialect,
            options=self.engine_options,
            timeout=parse_timeout(self.timeout),
            engine_cmd=self.engine_cmd,
            script=self.script,
            python=self.python_spec,
            variant=variant,
        )

    def open(self, variant: str = "chess"):
        """The engine's back end (``chesskit.compare.engines``), as ``api_engine()`` makes it."""
        return self.api_engine(variant).backend


def engine_options(command):
    """Add --engine / --dialect / --engine-cmd / --script / --python / --engine-option / --timeout
    to a click command (compare, suite, fuzz); it receives them as ``engine_opts``."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        values = {name: kwargs.pop(name) for name in _NAMES}
        values["engine_options"] = tuple(values["engine_options"] or ())
        if values["timeout"] != EngineOptions.timeout:  # the default loads no engine code
            parse_timeout(values["timeout"])  # a bad value is bad input, an engine or not
        return command(*args, engine_opts=EngineOptions(**values), **kwargs)

    fn = wrapper
    for decorator in reversed(
        [
            click.option(
                "--engine",
                metavar="CMD",
                help="An engine command (e.g. stockfish): how it answers perft is detected and stated "
                "('go perft', a bare 'perft'/'divide' in its UCI loop, a console or xboard, a divide or a total only).",
            ),
            click.option(
                "--dialect",
                metavar="NAME",
                help="How --engine answers perft, when detection cannot tell: uci-go-perft, uci-perft, "
                "uci-divide, console-perft, console-divide, xboard-perft, xboard-divide, each also with -total "
                "(a total only), and xboard-perft-split ('perft N 1'), e.g. uci-perft-total for Ethereal, "
                "xboard-perft-total for Sjeng.",
            ),
            click.option(
                "--engine-cmd",
                metavar="TEMPLATE",
                help='A one-shot command line per question, with {fen}, {depth} and optionally {moves}, '
                'e.g. \'./engine "{fen}" {depth}\'; it prints a divide or a total. The template is split into '
                'words like a shell line (quotes group words) and run as they are: no shell runs. In each word '
                '{fen}, {depth}, {moves} and {variant} are replaced; other text, {} included, is passed as written.',
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
                default=EngineOptions.timeout,
                show_default=True,
                help="Give up on an engine that takes longer than this for one answer.",
            ),
        ]
    ):
        fn = decorator(fn)
    return fn


def check_engine_choice(engine, script, python, engine_cmd, options=(), dialect=None) -> None:
    """What ``open_engine`` refuses in the engine flags (two engines, --engine-option or
    --dialect without --engine), starting nothing: the pytest plugin asks before any test."""
    from chesskit.compare.engines import check_choice

    check_choice(engine, script, python, engine_cmd, options, dialect)


def check_engine_values(options=(), dialect: str | None = None) -> None:
    """An --engine-option that is not NAME=VALUE and a --dialect chesskit does not know are
    bad input whatever the engine (the pytest plugin checks them even when none is named)."""
    from chesskit.compare.engines import dialect_names, parse_dialect, parse_options

    parse_options(options)
    if dialect is not None and parse_dialect(dialect) is None:
        raise InputError(f"unknown --dialect {dialect!r}: one of {', '.join(dialect_names())}")


def prefixed_flags(message: str, prefix: str) -> str:
    """``message`` with each engine flag it names under ``prefix``: the pytest plugin's
    ``--chesskit-engine`` for ``--engine``."""
    from chesskit.compare.engines import respell_flags

    return respell_flags(message, lambda flag: f"--{prefix}{flag}")


def check_python_spec(spec: str, option: str = "--python") -> None:
    """A ``--python`` value that names no callable is bad input (``pyadapter.check_spec``);
    the pytest plugin checks ``--chesskit-python`` with it before any test."""
    from chesskit.compare.engines.pyadapter import check_spec

    check_spec(spec, option)


def parse_timeout(text: str, option: str = "--timeout") -> float:
    """``--timeout SECONDS`` (``option``: how the caller spells it, --chesskit-timeout)."""
    from chesskit.compare.engines.base import MAX_TIMEOUT

    value = plain_float(text)
    if value is None or not 0 < value <= MAX_TIMEOUT:  # also refuses nan and inf
        raise InputError(f"bad {option} {text!r}: must be a positive number of seconds up to {MAX_TIMEOUT:.0f}")
    return value


def engine_dialect(eng):
    """Start the engine and find its dialect: the JSON value for the ``"dialect"`` key plus
    its description under ``"about"`` (None for a --script or --python engine)."""
    from chesskit.api.engine import dialect_of

    return dialect_of(eng)


# from this long, the dialect note says how long detection took and how to skip it (an engine
# slow to answer its probes; not Ethereal's 1-1.5 s, the grace after two probes)
SLOW_DETECTION_S = 2.0


def note_dialect(spoken, as_json: bool, eng=None) -> None:
    """In text mode, once the run is over, say on stderr which dialect the engine spoke,
    how long detecting it took where that was long (``eng.detect_seconds``), and how it
    spells castling where that is not chesskit's spelling (``eng``).

    Not for `go perft` (what chesskit always spoke: that output stays as it was), and not
    when the engine failed (the one error line stays the only one).
    """
    if as_json:
        return
    if spoken is not None and spoken["name"] != "uci-go-perft":
        how = "detected" if spoken["detected"] else "as named"
        click.echo(f"chesskit: engine dialect {spoken['name']} ({how}): {spoken['about']}", err=True)
    took = getattr(eng, "detect_seconds", 0.0)
    if spoken is not None and spoken["detected"] and took >= SLOW_DETECTION_S:
        # not in the run's times (they count from the first question)
        click.echo(f"chesskit: finding the engine's dialect took {took:.1f} s; --dialect {spoken['name']} skips that", err=True)
    switched = getattr(eng, "switched_for_960", None)
    if switched is not None:  # xboard has no Chess960 chesskit sets: its UCI loop counted those
        click.echo(
            f"chesskit: from the first Chess960 position on, engine dialect {switched.name}: {switched.describe()}",
            err=True,
        )
    spelling = castling_spelling(eng)
    if spelling is not None:
        from chesskit.compare.engines.castling import SAID

        click.echo(f"chesskit: {SAID[spelling]}", err=True)


def castling_spelling(eng) -> str | None:
    """"king-takes-rook" when the engine wrote a standard castle as `e1h1`, "king-to-square"
    when it wrote a Chess960 castle as `g1c1`, else None."""
    return getattr(eng, "castling_spelling", None)


def parse_state_pushes(engine_opts: EngineOptions, text: str) -> int:
    """compare's and explore's --state-pushes as a count. Given with no --python adapter it
    is bad input (exit 2): it sets that adapter's full-state sweep, and a UCI, xboard or
    perft-printing engine has no state to compare, so it was silently ignored."""
    from click.core import ParameterSource

    from chesskit.api.comparison import check_pushes
    from chesskit.cli.options import parse_count

    pushes = parse_count(text, "--state-pushes")
    source = click.get_current_context().get_parameter_source("state_pushes")
    if source not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
        check_pushes(pushes, engine_opts.python_spec is not None)  # the API's rule, as the API says it
    return pushes
