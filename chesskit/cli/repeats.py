"""An option given twice with different values: click keeps the last one and drops the
other without a word (``fuzz --chess960 --no-chess960`` ran both kinds; ``show startpos
--moves e2e4 --moves d2d4`` played d2d4 alone). This finds it in a command's arguments
before click parses them, so the command can refuse it as bad input."""

from __future__ import annotations

import click


def conflict(command: click.Command, args: list[str], help_names: list[str]) -> str | None:
    """Why ``args`` give one of ``command``'s single-valued options twice with different
    values (or both spellings of an on/off flag), else None. Options that may repeat
    (``--engine-option``), a repeat with the same value and anything after ``--`` pass."""
    options = {}
    for param in command.params:
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts):
                options[name] = param
    if any(name in args for name in help_names):
        return None  # --help answers whatever else was given
    seen: dict[str, tuple[str, str]] = {}  # param name -> (as typed, value)
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            break
        name, has_value, inline = token.partition("=")
        param = options.get(name)
        if param is None:
            continue
        if param.is_flag or param.count:
            value = "off" if name in param.secondary_opts else "on"
        elif has_value:
            value = inline
        else:
            value = next(tokens, None)
            if value is None:
                return None  # click says the value is missing
        if param.multiple or param.count:
            continue
        typed = (name, value)
        before = seen.setdefault(param.name, typed)
        if before[1] != value:
            return _why(param, before, typed)
    return None


def _why(param: click.Option, first: tuple[str, str], second: tuple[str, str]) -> str:
    if param.is_flag:
        return f"{first[0]} and {second[0]} contradict each other: give one of them"
    return f"{second[0]} is given twice, as {first[1]!r} and {second[1]!r}: give it once"
