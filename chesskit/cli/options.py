"""Arguments and options shared by the commands, and turning them into a Board."""

from __future__ import annotations

import click

from chesskit.cli import output
from chesskit.api.counting import SUITE_HASH_MB, default_threads, table_mb  # noqa: F401 (the commands' defaults)
from chesskit.api.position import move_list, open_position
from chesskit.errors import InputError
from chesskit.typed import plain_float, plain_int
from chesskit.variants import NAMES, find
from chesskit.vocab import MAX_DEPTH

position_argument = click.argument("position", metavar="POSITION")
depth_argument = click.argument("depth", metavar="DEPTH")
moves_option = click.option(
    "--moves",
    metavar='"UCI ..."',
    default="",
    help='UCI moves to play first, separated by spaces or commas: --moves "e2e4 e7e5" or "e2e4,e7e5".',
)
chess960_option = click.option(
    "--chess960",
    is_flag=True,
    help="Chess960 castling (king takes rook, e1h1); automatic for Shredder/X-FEN 960 setups.",
)


def _check_variant(ctx, param, value: str) -> str:
    find(value)  # an unknown name: InputError (exit 2) listing the known ones
    return value


variant_option = click.option(
    "--variant",
    metavar="NAME",
    default="chess",
    callback=_check_variant,
    help=f"The variant's rules: {', '.join(NAMES)} (or an alias: koth, threecheck, zh, ...); a 960 "
    "form (atomic960) adds Chess960 castling. 'startpos' is the variant's start position.  [default: chess]",
)


def variant_rules(variant: str) -> dict[str, str]:
    """``{"variant": NAME}`` to hand --variant on to a function, ``{}`` for standard chess
    (which then runs exactly as before variants existed)."""
    return {} if find(variant)[0].name == "chess" and not find(variant)[1] else {"variant": variant}


def standard_only(variant: str, **uses: bool) -> None:
    """Refuse (exit 2) --variant with the options that count standard chess only
    (``gpu=True``: --device gpu; ``cluster=True``: the cluster options)."""
    if find(variant)[0].name == "chess":
        return
    names = {"gpu": "--device gpu, which counts", "cluster": "the cluster options (--scheduler, --workers, ...), which count"}
    for use, given in uses.items():
        if given:
            raise InputError(f"--variant {variant}: not with {names[use]} standard chess only")


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
strict_option = click.option(
    "--strict",
    is_flag=True,
    help="Refuse (exit 2) a position that cannot arise in a game; by default it is counted "
    "like Stockfish and python-chess count it, with a note saying why.",
)


def depth_rule(minimum: int, why: str):
    """Put a command's rule for DEPTH (``parse_depth``'s ``minimum`` and ``why``) on the
    click command, for the boundary: click takes a negative DEPTH for an option
    (``divide startpos -1``) before the command can say its rule."""

    def mark(command: click.Command) -> click.Command:
        command.depth_rule = {"minimum": minimum, "why": why}  # type: ignore[attr-defined]
        return command

    return mark


def parse_depth(text: str, minimum: int = 0, why: str = "", name: str = "DEPTH") -> int:
    """A depth as an int >= ``minimum`` (and, for the DEPTH argument, <= MAX_DEPTH);
    InputError (exit 2) otherwise. Options such as --max-depth are limits, not unbounded."""
    depth = plain_int(text)
    label, subject = ("depth", "DEPTH ") if name == "DEPTH" else (name, "")  # an option is named once
    if depth is None or depth < minimum:
        raise InputError(f"bad {label} {text!r}: {subject}must be an integer >= {minimum}{why}")
    if name == "DEPTH" and depth > MAX_DEPTH:
        raise InputError(
            f"bad {label} {text!r}: DEPTH must be at most {MAX_DEPTH} (no deeper tree could ever be counted)"
        )
    return depth


def parse_count(text: str, name: str, least: int = 0) -> int:
    """A count of at least ``least`` that may be written 1000000, 1_000_000 or 1e6."""
    value = plain_int(text, grouped=True)
    if value is None:
        number = plain_float(text)
        if number is not None and number == float("inf"):  # 1e400: no integer, though it names one
            raise InputError(f"bad {name} {text!r}: more than a float holds; give a count such as 1e15")
        value = int(number) if number is not None and number.is_integer() else -1
    if value < least:
        wanted = "a non-negative integer" if least == 0 else f"an integer of at least {least}"
        raise InputError(f"bad {name} {text!r}: must be {wanted}, such as 1000000 or 1e6")
    return value


def load_board(position: str, moves: str = "", chess960: bool = False, strict: bool = False, variant: str = "chess"):
    """Resolve POSITION, build the Board and play ``--moves``; returns ``(board, id)``
    (``chesskit.api.position.open_position``, which the Python API runs too).

    Raises FenError for a bad FEN (with ``strict``, also for a position that cannot
    arise in a game), InputError for an unknown id and IllegalMoveError for an illegal
    move (all exit 2). Otherwise each reason the position cannot arise is one note line
    on stderr, and stays in ``board.notes`` for the JSON output. ``variant``: --variant.
    """
    board, ident = open_position(position, "", chess960, strict, variant)
    output.notes(board.notes)
    for move in move_list(moves):
        board.push(move)
    return board, ident


hash_option = click.option(
    "--hash",
    "hash_mb",
    default=None,
    type=click.IntRange(0, 1 << 20),
    metavar="MB",
    help="Transposition table size in MiB (0: none) [default: by depth, 1 MiB at depth 4 "
    "and below, x4 per ply to 64 MiB at depth 7; from depth 7 on 1 MiB per 2^29 leaves of the "
    "tree as a few shallow counts estimate it (startpos 8: 64 MiB, startpos 9: 2 GiB, Kiwipete 7: "
    "512 MiB), at least 64 MiB; at most a quarter of the "
    f"memory available (half from depth 10) and half of what ulimit -v leaves; suites: {SUITE_HASH_MB}]. More than the memory "
    "available now is refused. Entries check the full key and depth.",
)


device_option = click.option(
    "--device",
    type=click.Choice(["cpu", "gpu"]),
    default="cpu",
    show_default=True,
    help="Count on the CPU, or on an NVIDIA GPU with numba-cuda (pip install 'chesskit-perft[gpu]'; "
    "nodes only: not with --stats, --hash or --threads, nor perft's cluster options).",
)
threads_option = click.option(
    "--threads",
    default=None,
    type=click.IntRange(1, 1024),
    metavar="N",
    help="Threads for the tree walk [default: all cores]. Counts are identical for any N.",
)
