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

from chesskit.api.compare import CompareResult, compare
from chesskit.api.counting import divide, perft, stats
from chesskit.api.engine import Engine

__all__ = [
    "CompareResult",
    "Engine",
    "compare",
    "divide",
    "perft",
    "stats",
]
