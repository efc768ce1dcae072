"""chesskit's Python API: what the command line does, callable from a program or a notebook.

    perft(position, depth, *, moves=(), chess960=None, threads=None, hash_mb=None) -> int
    divide(position, depth, ...) -> dict[str, int]
    stats(position, depth, ...) -> dict[str, int]              the leaf-move counters
    Engine(command | engine_cmd= | script= | python=, ...)     an external engine
    compare(engine, position, depth, ...) -> CompareResult     compare --json's fields
    run_suite(paths, engine=None, ...) -> SuiteResult           per-position results

Every name is also an attribute of ``chesskit`` itself (loaded on first use). Errors are
the ``chesskit.errors`` exceptions, each with its ``exit_code``. The CLI is a layer over
these functions (``chesskit.cli``); docs/api.md has the examples, run as doctests.
Importing this package does not load the compiled core.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# each public name and its module, imported on first use: the CLI imports the modules it
# needs (``chesskit.api.counting`` for ``perft``), never the whole API. No module may be
# named as a public name: importing it would set the package's attribute to the module.
_NAMES = {
    "CompareResult": "chesskit.api.comparison",
    "Engine": "chesskit.api.engine",
    "PositionResult": "chesskit.api.suite",
    "SuiteResult": "chesskit.api.suite",
    "compare": "chesskit.api.comparison",
    "divide": "chesskit.api.counting",
    "perft": "chesskit.api.counting",
    "run_suite": "chesskit.api.suite",
    "stats": "chesskit.api.counting",
}
__all__ = sorted(_NAMES)

if TYPE_CHECKING:
    from chesskit.api.comparison import CompareResult, compare
    from chesskit.api.counting import divide, perft, stats
    from chesskit.api.engine import Engine
    from chesskit.api.suite import PositionResult, SuiteResult, run_suite


def __getattr__(name: str):
    module = _NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'chesskit.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
