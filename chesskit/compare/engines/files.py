"""The files an engine is made of, so that no output of a run can overwrite them.

``input_files(engine=..., script=..., python=..., engine_cmd=...)`` lists, without
starting or importing anything, every existing file the engine flags name: the engine
command's program resolved as it will be run (PATH, then Debian's /usr/games) and every
other word of the command that names a file (``python3 ./myeng.py``), the ``--script``
file, and the ``--python`` adapter's module file (``path/to/file.py:ATTR`` or a module
found on the path the adapter will be imported with). ``chesskit.outpath.check_output``
refuses an output path that is one of them.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from importlib.machinery import PathFinder

from chesskit.compare.engines.proc import GAMES_DIR


def input_files(
    engine: str | None = None, script: str | None = None, python: str | None = None, engine_cmd: str | None = None
) -> list[str]:
    """Every existing file the engine flags name (the order is not significant)."""
    found: list[str] = []
    for command in (engine, engine_cmd):
        if command:
            found += _command_files(command)
    if script:
        found.append(script)
    if python:
        found += _adapter_files(python)
    return [path for path in dict.fromkeys(found) if os.path.isfile(path)]


def _command_files(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: the engine will refuse it; check the plain words
        words = command.split()
    if not words:
        return []
    program, rest = words[0], words[1:]
    files = [program, *rest]
    if os.sep not in program:
        files += [p for p in (shutil.which(program), shutil.which(program, path=GAMES_DIR)) if p]
    return files


def _adapter_files(spec: str) -> list[str]:
    where = spec.rpartition(":")[0]
    if not where:
        return []
    if where.endswith(".py") or os.sep in where or os.path.isfile(where):
        return [where]
    try:  # find the module's file as the adapter's host will, importing nothing
        locations = [*sys.path, os.getcwd()]
        spec_found = None
        parts = where.split(".")
        for depth in range(1, len(parts) + 1):
            spec_found = PathFinder.find_spec(".".join(parts[:depth]), locations)
            if spec_found is None:
                return []
            locations = list(spec_found.submodule_search_locations or [])
        return [spec_found.origin] if spec_found and spec_found.origin else []
    except (ImportError, ValueError, OSError):
        return []
