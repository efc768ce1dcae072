"""chesskit: a perft and move-generator debugging toolkit for chess programmers.

The Python API (``chesskit.api``, docs/api.md)::

    >>> import chesskit
    >>> chesskit.perft("startpos", 3)
    8902

``perft``, ``divide``, ``stats``, ``compare``, ``run_suite``, ``Engine`` and ``Board`` are
loaded on first use, so that importing chesskit (and starting the CLI) stays cheap; the
exceptions are in ``chesskit.errors``.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# the public names and the module each comes from (imported on first use)
_LAZY = {
    "Board": "chesskit.board.board",
    "CompareResult": "chesskit.api",
    "Engine": "chesskit.api",
    "PositionResult": "chesskit.api",
    "SuiteResult": "chesskit.api",
    "compare": "chesskit.api",
    "divide": "chesskit.api",
    "perft": "chesskit.api",
    "run_suite": "chesskit.api",
    "stats": "chesskit.api",
}

__all__ = ["__version__", "errors", *_LAZY]

if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from chesskit import errors
    from chesskit.api import CompareResult, Engine, PositionResult, SuiteResult, compare, divide, perft, run_suite, stats
    from chesskit.board.board import Board


class _Package(types.ModuleType):
    """The chesskit package: its ``compare`` is the API's function, not the subpackage.

    Importing ``chesskit.compare`` (the descent, the engines) would set the subpackage as
    the package's attribute ``compare``, hiding ``chesskit.compare(...)``; that one
    assignment is left out. The subpackage is imported as always (``from chesskit.compare
    import descent``): Python finds it in ``sys.modules``, not through this attribute."""

    def __setattr__(self, name: str, value) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    import importlib

    if name == "errors":
        return importlib.import_module("chesskit.errors")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'chesskit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    """The public names, the module's own dunders and the subpackages imported so far; not
    the helpers this module uses (``sys``, ``types``, ``TYPE_CHECKING``)."""
    own = {
        name
        for name, value in globals().items()
        if name.startswith("__") or (isinstance(value, types.ModuleType) and value.__name__.startswith(__name__ + "."))
    }
    return sorted(own | set(__all__))
