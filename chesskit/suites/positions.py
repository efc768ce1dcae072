"""Resolving a POSITION argument: ``startpos``, a FEN, or an id from the suite files; and
the moves played from it (``move_words``: ``--moves`` and explore's ``moves``).

The suite files are the ``*.epd`` files of the positions folder: ``positions/`` in a
source checkout, ``chesskit/_positions`` inside an installed wheel (pyproject
force-includes it there). Ids are found with a light scan of each line (no FEN
validation), so one bad line elsewhere never stops ``chesskit perft kiwipete 3``;
only the line that is asked for gets parsed.
"""

from __future__ import annotations

import difflib
import functools
from pathlib import Path
from typing import NamedTuple

from chesskit.board.fen import format_fen, parse_epd
from chesskit.errors import InputError
from chesskit.geometry import START_FEN
from chesskit.suites.formats import display_path, read_lines, scan_id  # noqa: F401  (display_path, scan_id: re-exported)
from chesskit.typed import not_utf8
from chesskit.variants import a_position

STARTING_FEN = START_FEN


def move_words(text: str) -> list[str]:
    """The moves of a ``--moves`` string (and of explore's ``moves`` command), separated by
    spaces or commas: ``"e2e4 e7e5"``, ``"e2e4,e7e5"`` and ``"e2e4, e7e5"`` are the same
    two moves (a move never holds a comma, so the comma cannot be misread)."""
    return text.replace(",", " ").split()


class SuiteLine(NamedTuple):
    """Where a suite id was found."""

    path: Path
    lineno: int
    text: str


def variant_suites(variant: str) -> list[Path]:
    """The bundled suites of a variant (``suite --variant NAME`` without PATH):
    ``variants/NAME.epd`` and its Chess960 file; ``atomic960`` only the latter."""
    from chesskit.variants import find

    found, chess960 = find(variant)
    if found.name == "chess":
        return [positions_dir() / "chess960.epd"] if chess960 else [positions_dir()]
    folder = positions_dir() / "variants"
    names = [f"{found.name}960"] if chess960 else [found.name, f"{found.name}960"]
    files = [folder / f"{name}.epd" for name in names if (folder / f"{name}.epd").is_file()]
    if not files:
        raise InputError(f"no bundled suite for the variant {variant!r}: give the suite files as PATH")
    return files


def positions_dir() -> Path:
    """The folder holding the bundled ``*.epd`` suites."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "_positions"
    if installed.is_dir():
        return installed
    return package.parent / "positions"


def suite_files(folder: Path | None = None) -> list[Path]:
    """The ``*.epd`` files of ``folder`` (default: the positions folder), sorted by name."""
    folder = positions_dir() if folder is None else folder
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.epd") if p.is_file())


@functools.lru_cache(maxsize=None)
def id_index(folder: Path | None = None) -> dict[str, SuiteLine]:
    """Map every suite id to the first line that defines it (cached per folder)."""
    index: dict[str, SuiteLine] = {}
    for path in suite_files(folder):
        for lineno, raw, _ in read_lines(path):
            text = (raw or "").strip()
            if not text or text.startswith("#"):
                continue
            ident = scan_id(text)
            if ident is not None and ident not in index:
                index[ident] = SuiteLine(path, lineno, text)
    return index


def _find(arg: str, folder: Path | None) -> SuiteLine | None:
    """The line of suite id ``arg``: in the suite files, then (the bundled folder only)
    in the variants' (``positions/variants/``)."""
    found = id_index(folder).get(arg)
    if found is None and folder is None:
        found = id_index(positions_dir() / "variants").get(arg)
    return found


def resolve_position(arg: str, folder: Path | None = None, variant: str = "chess") -> tuple[str, str | None]:
    """Turn a POSITION argument into ``(fen, id)``.

    ``startpos`` gives the start FEN and id ``"startpos"``; anything containing a
    ``/`` is taken as a FEN (validated later, by ``Board``) with id None, and so is
    anything of four words or more that is no id; anything else must be an id of the suite files (the bundled variants' too). Raises
    InputError for an unknown id and, naming ``file:line``, for an id whose suite line
    does not parse or whose ``variant`` operation is not ``variant`` (the rules the
    position is counted with: canonical name).
    """
    if not arg.strip():  # "unknown position ''" said nothing of what was wrong with '   '
        what = "empty" if not arg else "blank (only white space)"
        raise InputError(f"the position is {what}: give a FEN, 'startpos' or a suite id")
    arg = arg.strip()
    if why := not_utf8(arg):  # bytes the shell passed as they were (``$'\xff'``)
        raise InputError(f"the position is {why}")
    if arg == "startpos":
        return STARTING_FEN, "startpos"
    uci_command(arg)
    if "/" in arg:
        return arg, None
    found = _find(arg, folder)
    if found is None:
        if len(arg.split()) >= 4:  # the fields of a FEN whose placement lost its '/' (told by Board)
            return arg, None
        variant_ids = id_index(positions_dir() / "variants") if folder is None else {}
        raise InputError(_unknown_message(arg, {**id_index(folder), **variant_ids}, variant))
    try:
        record = parse_epd(found.text, variant=variant)
    except InputError as err:
        record = _own_rules(found.text, variant)  # a line of another variant: told below
        if record is None:
            raise InputError(f"{display_path(found.path)}:{found.lineno}: {err}") from err
    if record.setup.variant != variant:
        rules = record.setup.variant
        how = "out --variant" if rules == "chess" else f" --variant {rules}"
        raise InputError(
            f"{arg!r} is {a_position(rules)} ({display_path(found.path)}:{found.lineno}): "
            f"count it with{how} (variant={rules!r} in Python)"
        )
    # a position that cannot arise keeps its fields as written, so that reading it
    # again repeats the notes (the formatted FEN has lost a dropped castling right); a
    # Chess960 one is given in Shredder-FEN, as every command shows it (X-FEN's KQkq reads
    # as standard chess: compare reported it as the FEN the engine was given, QA 40 #2)
    if record.setup.notes:
        return record.given, arg
    return (format_fen(record.setup, shredder=True) if record.setup.chess960 else record.fen), arg


def uci_command(arg: str) -> None:
    """Refuse a POSITION written as UCI's ``position`` command (``startpos moves e2e4 e7e5``,
    ``position fen FEN moves ...``: as pasted from an engine's log), saying how to give
    it: the position, and its moves with --moves. A FEN's fields never include the word
    ``moves``, nor does it start with ``position`` or ``fen``."""
    words = arg.split()
    if "moves" not in words and words[:1] not in (["position"], ["fen"]):
        return
    while words[:1] in (["position"], ["fen"]):
        words = words[1:]
    cut = words.index("moves") if "moves" in words else len(words)
    base, moves = " ".join(words[:cut]) or "startpos", " ".join(words[cut + 1:])
    how = f"{base!r} --moves {moves!r} (moves={moves!r} in Python)" if moves else f"{base!r}"
    raise InputError(f"{arg!r} is UCI's position command: give the position alone, its moves with --moves: {how}")


def is_chess960_id(arg: str, folder: Path | None = None) -> bool:
    """True when POSITION is the id of a line in a Chess960 suite file (a name with
    ``960`` in it, the rule the suite loader follows), so it is played as Chess960 even
    when its castling field looks standard (the 518th start array is the usual one)."""
    found = _find(arg.strip(), folder) if "/" not in arg and arg.strip() != "startpos" else None
    return found is not None and "960" in found.path.stem


def _own_rules(text: str, variant: str):
    """The suite line ``text`` read in the rules its own ``variant`` operation names, when
    they are not ``variant`` (so that the caller says which ``--variant`` counts it); None
    when it names none or does not read in them either."""
    if variant == "chess":
        return None
    try:
        record = parse_epd(text)
    except InputError:
        return None
    return record if record.setup.variant != variant else None


def _unknown_message(arg: str, index: dict[str, SuiteLine], variant: str = "chess") -> str:
    # the standard positions first: they are the ones a newcomer knows by name; under a
    # variant, that variant's bundled ones (positions/variants/NAME.epd, NAME960.epd)
    first = "standard" if variant == "chess" else variant
    standard = [i for i, line in index.items() if line.path.stem in (first, f"{first}960")]
    known = list(dict.fromkeys(["startpos", *standard, *index]))
    close = difflib.get_close_matches(arg, known, n=3, cutoff=0.6)
    if not close:  # 'Kiwipete', 'STARTPOS'
        close = [k for k in known if k.lower() == arg.lower()]
    if close:
        hint = "did you mean " + " or ".join(repr(c) for c in close) + "?"
    else:
        shown = known[:6]
        hint = "try: " + ", ".join(shown) + (", ..." if len(known) > len(shown) else "")
    return f"unknown position {arg!r}: not a FEN, 'startpos', or a suite id ({hint})"


