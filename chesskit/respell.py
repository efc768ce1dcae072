"""Command-line flags named in a message, written as another entry point spells them.

chesskit's errors name the command line's flags (``--max-depth``, ``--engine-cmd``); the
pytest plugin has them as ``--chesskit-max-depth``, the Python API as the keyword
``max_depth``. ``respell`` is the one place that finds a flag in a message."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable


def respell(message: str, flags: Iterable[str], spell: Callable[[str, str | None], str], value: bool = False) -> str:
    """``message`` with each ``--flag`` of ``flags`` (names without the dashes) it names
    replaced by ``spell(name, given)``: ``given`` is the number written after it
    (``--max-nodes 1e9``: ``"1e9"``, or None) when ``value``, else always None and the
    number stays where it is. A flag inside a longer word (``--max-depths``, ``x--tags``)
    is not one."""
    names = "|".join(re.escape(name) for name in sorted(flags, key=len, reverse=True))  # --engine-cmd before --engine
    after = r"(?: ([0-9][^\s,;:)]*))?" if value else ""
    found = re.compile(rf"(?<![\w-])--({names})(?![\w-]){after}")
    return found.sub(lambda hit: spell(hit.group(1), hit.group(2) if value else None), message)
