"""``perft``, ``divide`` and ``stats``: chesskit's own counts of a position.

What ``chesskit perft``, ``divide`` and ``perft --stats`` count, from Python::

    >>> import chesskit
    >>> chesskit.perft("startpos", 3)
    8902
    >>> chesskit.divide("kiwipete", 1, moves=["e1g1"])["a8b8"]
    1
    >>> chesskit.stats("startpos", 3)["checks"]
    12

The defaults are the CLI's: every core, and a transposition table sized by depth and, from
depth 7 on, by the tree's estimated size (``chesskit.board.tablesize``).
"""

from __future__ import annotations

from chesskit.api.keywords import keyword_errors
from chesskit.api.position import Moves, check_depth, open_position
from chesskit.errors import InputError


# the transposition table of a suite run when hash_mb is not given (``chesskit suite``'s and
# ``run_suite``'s default): one table serves the run's many small counts
SUITE_HASH_MB = 64


def default_threads() -> int:
    """All the cores this process may run on: the default for ``threads``."""
    from chesskit.board.threads import usable_cores  # deferred: loads numpy

    return usable_cores()


def table_mb(hash_mb: float | None, depth: int, board=None) -> float:
    """``hash_mb`` as given (refused beyond the machine's memory), or the default table of a
    perft of ``depth`` (1 MiB at depth 4 and below, growing with depth; from depth 7 on
    with the tree's size estimated from ``board``'s shallow counts where it is given),
    shrunk to what can be allocated."""
    from chesskit.board import tablesize

    if hash_mb is not None:
        if isinstance(hash_mb, bool) or not isinstance(hash_mb, (int, float)) or not 0 <= hash_mb <= 1 << 20:
            raise InputError(f"hash_mb must be a number of MiB from 0 to {1 << 20}, got {hash_mb!r}")
        tablesize.check_request(hash_mb)
        return hash_mb
    if board is not None:
        return tablesize.board_default_mb(board, depth)
    return tablesize.fitting_mb(tablesize.default_table_mb(depth))


def keyword_table_mb(hash_mb: float | None, depth: int, board=None) -> float:
    """``table_mb`` for the API: a refusal names ``hash_mb``, not the commands' ``--hash``
    (``hash_mb=1000000 MiB is more than this machine's memory``)."""
    with keyword_errors():
        return table_mb(hash_mb, depth, board)


def perft(
    position: str,
    depth: int,
    *,
    moves: Moves = (),
    chess960: bool | None = None,
    threads: int | None = None,
    hash_mb: float | None = None,
    strict: bool = False,
    variant: str = "chess",
) -> int:
    """The number of leaf nodes of the legal move tree of ``position`` ``depth`` plies deep.

    ``position`` is ``"startpos"``, a FEN or a bundled suite id (``"kiwipete"``);
    ``moves`` (UCI) are played first. ``chess960=True`` plays Chess960 castling (None:
    detected from the FEN). ``threads`` (default: every core) and ``hash_mb`` (default: by
    depth; 0: no table) never change the count. ``strict=True`` refuses a position that
    cannot arise in a game. ``variant`` names the rules (``"atomic"``, ``"koth"``, ``"crazyhouse960"``,
    ...; ``startpos`` is the variant's start). Bad input raises ``chesskit.errors.InputError`` (exit code 2).

    >>> perft("startpos", 4)
    197281
    >>> perft("startpos", 2, moves="e2e4 e7e5")
    835
    >>> perft("startpos", 0)
    1
    """
    depth = check_depth(depth)
    board, _ = open_position(position, moves, chess960, strict, variant)
    threads = default_threads() if threads is None else threads
    return board.perft(depth, hash_mb=keyword_table_mb(hash_mb, depth, board), threads=threads)


def divide(
    position: str,
    depth: int,
    *,
    moves: Moves = (),
    chess960: bool | None = None,
    threads: int | None = None,
    hash_mb: float | None = None,
    strict: bool = False,
    variant: str = "chess",
) -> dict[str, int]:
    """perft(depth - 1) below each legal move of ``position``: ``{uci move: nodes}``,
    sorted by move as ``chesskit divide`` prints it (depth >= 1; arguments as ``perft``).

    >>> counts = divide("startpos", 2)
    >>> len(counts), counts["g1f3"], sum(counts.values())
    (20, 20, 400)
    """
    depth = check_depth(depth, 1)
    board, _ = open_position(position, moves, chess960, strict, variant)
    threads = default_threads() if threads is None else threads
    return dict(sorted(board.divide(depth, hash_mb=keyword_table_mb(hash_mb, depth, board), threads=threads).items()))


def stats(
    position: str,
    depth: int,
    *,
    moves: Moves = (),
    chess960: bool | None = None,
    strict: bool = False,
    variant: str = "chess",
) -> dict[str, int]:
    """perft with the leaf-move counters of ``chesskit perft --stats``: ``nodes``,
    ``captures``, ``en_passant``, ``castles``, ``promotions``, ``checks``,
    ``discovery_checks``, ``double_checks``, ``checkmates`` (arguments as ``perft``); with
    ``variant=`` the variant's counters (docs/variants.md, "Counters").

    >>> stats("kiwipete", 2)
    {'nodes': 2039, 'captures': 351, 'en_passant': 1, 'castles': 91, 'promotions': 0, 'checks': 3, 'discovery_checks': 0, 'double_checks': 0, 'checkmates': 0}
    """
    depth = check_depth(depth)
    board, _ = open_position(position, moves, chess960, strict, variant)
    return dict(board.stats(depth))
