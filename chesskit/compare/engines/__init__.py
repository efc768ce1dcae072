"""External engines for `compare`: any engine's perft (UCI `go perft`, bare `perft`/`divide`
in a UCI loop or a console, one-shot command lines), perftree scripts, Python adapters.

    with open_engine(engine="stockfish", options=["Threads=2"]) as eng:
        eng.divide(fen, 3, ["e2e4"], chess960=False)   # {'e7e5': 600, ...}

Every back end raises `chesskit.errors.EngineError` (exit code 3) with one line
that names the engine and what went wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping

from chesskit.compare.engines.base import MAX_TIMEOUT, Engine
from chesskit.compare.engines.console import PerftEngine
from chesskit.compare.engines.dialects import Dialect, dialect_names, parse_dialect
from chesskit.compare.engines.oneshot import OneShotEngine, template_words
from chesskit.compare.engines.proc import find_stockfish
from chesskit.compare.engines.pyadapter import PythonEngine
from chesskit.compare.engines.script import ScriptEngine
from chesskit.compare.engines.uci import UciEngine
from chesskit.errors import InputError
from chesskit.respell import respell

__all__ = [
    "Dialect",
    "Engine",
    "OneShotEngine",
    "PerftEngine",
    "PythonEngine",
    "ScriptEngine",
    "UciEngine",
    "check_choice",
    "find_stockfish",
    "open_engine",
    "parse_options",
    "respell_flags",
]


def open_engine(
    engine: str | list[str] | None = None,
    script: str | None = None,
    python: str | None = None,
    options: Iterable[str] | Mapping[str, str] = (),
    timeout: float | None = 30.0,
    dialect: str | None = None,
    engine_cmd: str | None = None,
    variant: str = "chess",
) -> Engine:
    """The back end for exactly one of `engine` (a command that reads perft questions on
    stdin), `script` (path), `python` (spec) or `engine_cmd` (a one-shot template).

    `options` are `NAME=VALUE` strings (or a mapping) sent to a UCI engine with
    `setoption`.  `dialect` names how `engine` answers perft (see `dialects`);
    without it the dialect is detected when the engine starts.  Nothing is started
    until the first question (`divide`, `perft`, `dialect_info`), except that a
    Python adapter is imported at once.

    `variant` (a canonical name of chesskit.variants) is the rules every question is
    in: a UCI engine is sent ``setoption name UCI_Variant value NAME`` when it starts, a
    script and a one-shot command get it as ``$CHESSKIT_VARIANT`` (a template as
    ``{variant}``), a Python adapter as ``set_fen(fen, variant=NAME)``.
    """
    check_one(engine, script, python, engine_cmd)
    if timeout is not None and not (0 < timeout <= MAX_TIMEOUT and math.isfinite(timeout)):
        raise InputError(f"timeout must be a positive number of seconds up to {MAX_TIMEOUT:.0f}, got {timeout:g}")
    parsed, named = _for_engine(engine, options, dialect)
    if engine:
        found: Engine = PerftEngine(engine, parsed, timeout, named)
    elif engine_cmd:
        found = OneShotEngine(engine_cmd, timeout)
    elif script:
        found = ScriptEngine(script, timeout)
    else:
        return PythonEngine(python, timeout, variant)
    found.variant = variant
    return found


# the engine flags in a message of this package, as the commands spell them (--engine-cmd)
_ENGINE_FLAGS = ("engine-cmd", "engine-option", "engine", "script", "python", "dialect", "variant", "timeout")


def respell_flags(message: str, spell: Callable[[str], str]) -> str:
    """``message`` with each engine flag it names written as ``spell`` writes that flag's
    name (``"engine-cmd"``): the pytest plugin's ``--chesskit-engine-cmd``, the keyword
    ``engine_cmd`` of ``chesskit.Engine``."""
    return respell(message, _ENGINE_FLAGS, lambda name, _: spell(name))


def check_choice(
    engine: str | list[str] | None,
    script: str | None,
    python: str | None,
    engine_cmd: str | None,
    options: Iterable[str] | Mapping[str, str] = (),
    dialect: str | None = None,
) -> None:
    """InputError unless exactly one engine is given, not empty, with --engine-option and
    --dialect only for `engine`, and an --engine-cmd template that can run: what
    `open_engine` refuses, starting nothing (the pytest plugin asks it before any test)."""
    check_one(engine, script, python, engine_cmd)
    _for_engine(engine, options, dialect)
    if engine_cmd is not None:
        template_words(engine_cmd)  # a template that could never run


def check_one(engine, script, python, engine_cmd) -> None:
    """InputError unless exactly one of the four is given, and not empty."""
    flags = (("--engine", engine), ("--script", script), ("--python", python), ("--engine-cmd", engine_cmd))
    chosen = [flag for flag, value in flags if value is not None]
    if len(chosen) != 1:
        given = " and ".join(chosen) if chosen else "none"
        raise InputError(f"give exactly one of --engine, --script, --python, --engine-cmd (got {given})")
    for flag, value in flags:
        if value is not None and not (value if isinstance(value, list) else str(value).strip()):
            raise InputError(f"{flag} is empty: give the engine's {'command' if flag.startswith('--engine') else flag[2:]}")


def _for_engine(engine, options, dialect):
    """``(options parsed, the dialect named or None)``; InputError for either one given
    without `engine`, a malformed option or an unknown dialect."""
    parsed = parse_options(options)
    if parsed and engine is None:
        raise InputError("--engine-option only applies to --engine (a UCI engine)")
    named = None
    if dialect is not None:
        if engine is None:
            raise InputError("--dialect only applies to --engine")
        named = parse_dialect(dialect)
        if named is None:
            raise InputError(f"unknown --dialect {dialect!r}: one of {', '.join(dialect_names())}")
    return parsed, named


def parse_options(options: Iterable[str] | Mapping[str, str]) -> dict[str, str]:
    """`["Hash=64", "Skill Level=3"]` -> `{"Hash": "64", "Skill Level": "3"}`."""
    parsed: dict[str, str] = {}
    if isinstance(options, Mapping):
        parsed = {str(name): str(value) for name, value in options.items()}
    else:
        for item in options:
            name, sep, value = str(item).partition("=")
            if not sep or not name.strip():
                raise InputError(f"--engine-option must be NAME=VALUE, got {item!r}")
            name, value = name.strip(), value.strip()
            earlier = next((key for key in parsed if key.lower() == name.lower()), None)  # UCI: any case
            if earlier is not None and parsed[earlier] != value:
                raise InputError(
                    f"--engine-option {name} is given twice, as {parsed[earlier]!r} and {value!r}: give one value"
                )
            parsed[earlier or name] = value
    for name, value in parsed.items():
        reserved = _SET_BY_CHESSKIT.get(name.lower())
        if reserved is not None:
            raise InputError(f"--engine-option {name}: chesskit sets {reserved}; leave it out")
        if _CONTROL.search(name + value):  # a line break would end 'setoption': the rest a command of its own
            raise InputError(
                f"--engine-option {name + '=' + value!r} has a line break or control character: "
                "a name and a value must be one line"
            )
    return parsed


# The options chesskit sets itself, and how (one given too was overridden without a word).
_SET_BY_CHESSKIT = {
    "uci_chess960": "UCI_Chess960 itself for each position (true for a Chess960 one: --chess960, "
    "a Chess960 FEN or suite)",
    "uci_variant": "UCI_Variant itself from --variant",
}

_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")
