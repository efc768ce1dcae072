"""Reading perft suite files: EPD and ``.perft``, one entry per position or bad line.

Two formats, chosen by the file name (``.epd``, ``.perft``) and otherwise by content (a
first non-comment line starting with ``id``, ``epd`` or ``perft`` is a ``.perft`` file):

EPD, one position per line, four FEN fields, the clocks optionally, then operations::

    r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - id "kiwipete"; D1 48; D2 2039;
    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902
    4k3/8/8/8/8/8/8/4K2R w K - perft 1 15; perft 2 66; id "rook";

``D<n> count`` and ``perft n count`` give the expected count at depth n, ``id`` names the
position, ``tags "ep ep-pin"`` tags it (``suite --tags``), ``S<n> "..."`` carries leaf
counters, ``hmvc``/``fmvn`` the clocks, ``variant atomic`` names the rules (any name
``chesskit.variants.find`` reads; ``atomic960`` adds Chess960 castling); anything else
(``bm``, ``c0``, ...) is ignored.

``.perft`` (python-chess's and shakmaty's sets), a block per position::

    id pos-2
    epd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -
    perft 1 48
    perft 2 2039

A ``variant NAME`` line in a ``.perft`` file names the rules of the blocks after it. A
file without one is read in the rules its name gives when the name is a variant's
(python-chess's ``atomic.perft``, ``crazyhouse.perft``, ``3check.perft``,
``giveaway.perft``, ``horde.perft``, ``racingkings.perft``; ``atomic960.epd``), else in
standard chess; an EPD line's ``variant`` operation overrides it.

In both, blank lines and lines starting with ``#`` or ``%`` are comments, whatever their
bytes (only the other lines must be UTF-8 text). Lines end at
``\\n`` only (a form feed or U+2028 inside a comment stays in the comment), a ``\\r``
before it and a UTF-8 byte-order mark at the start of the file are dropped.

Nothing here stops at a bad line: each line that cannot be read (too long, not UTF-8, a
bad FEN, a count that is not a number, a depth past the cap, an id used twice in the
file) becomes a ``LineError`` naming the line and why, and the rest of the file is read.

Limits, so that no input can exhaust memory or run forever: at most ``MAX_ERRORS_KEPT``
errors of a file are kept in detail, the others are counted in one last entry; a line holds at most
``MAX_LINE_BYTES`` bytes (read in bounded chunks: a 50 MB line costs 64 KiB), depths are
at most ``MAX_DEPTH`` (``chesskit.vocab``, as on the command line), counts have at most
``MAX_COUNT_DIGITS`` digits and clocks are at most ``chesskit.board.fen.MAX_CLOCK`` (2**62).

The FEN fields and the operations of an EPD line are read by
``chesskit.board.fen.parse_epd``, the one EPD reader: an opcode given twice is an error
for the line (but ``perft DEPTH COUNT``, which names its depth).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator

from chesskit.board.counternames import names_of, parse_stat_opcode
from chesskit.board.fen import Setup, parse_epd, shown_fen
from chesskit.errors import InputError
from chesskit.suites.stdin import SHOWN, is_stdin, open_stdin
from chesskit.typed import not_utf8
from chesskit.vocab import MAX_DEPTH

MAX_LINE_BYTES = 64 * 1024
MAX_COUNT_DIGITS = 20  # 2**64 has 20 digits; no count in any suite comes close
# the errors of a file (and of a run) kept in detail; the rest are counted in one entry
MAX_ERRORS_KEPT = 1000

_CHUNK = 64 * 1024
_BOM = "\ufeff"
_ASCII_NUMBER = re.compile(r"[0-9]+")
_DEPTH_OP = re.compile(r"D([-+]?[0-9]+)")  # a sign read too: D-1 is a bad depth, not some other opcode
_STAT_OP = re.compile(r"S([-+]?[0-9]+)")
# a tag: letters, digits and ``-_.+``, not starting with a punctuation mark (``960-castling``)
TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
MAX_TAG_CHARS = 64
_PERFT_KEYWORDS = ("id", "epd", "perft", "variant")
_VARIANT_OP = re.compile(r'(?:^|[;\s])variant\s+(?:"([^"]*)"|([^\s;"]+))')


@dataclass(frozen=True, slots=True)
class SuiteRecord:
    """One position of a suite with its expected counts."""

    id: str
    fen: str
    depths: dict[int, int]  # depth -> expected perft count
    stats: dict[int, str]  # depth -> the raw S<n> opcode text
    path: Path
    lineno: int
    chess960: bool = False
    # the id shown and reported: ``id``, or ``file:id`` when another file of the run uses it
    name: str = ""
    # why the position cannot arise in a game (it is counted anyway; see board/fen.py)
    notes: tuple[str, ...] = ()
    # the ``tags "ep ep-pin"`` operation's words, in the order written (``suite --tags``)
    tags: tuple[str, ...] = ()
    # the rules it is counted in: a canonical name of chesskit.variants ("chess": standard)
    variant: str = "chess"
    # standard chess: the position as read (``pack_setup``), so that counting it does not
    # read and check its FEN a second time; empty: ``board`` reads ``fen``
    setup: tuple = field(default=(), compare=False, repr=False)
    # read from a ``.perft`` file's block (``read_perft``): a regression for it is written as
    # a block, not as an EPD line; told when the file was read, never by reading it again
    in_perft_file: bool = False

    @property
    def label(self) -> str:
        return self.name or self.id

    @property
    def shown_fen(self) -> str:
        """The FEN shown in the text and JSON: a Chess960 position's in Shredder-FEN, as an
        engine asked in Chess960 is sent it (``fen`` is X-FEN)."""
        return shown_fen(self.fen, self.chess960, self.variant)

    def board(self):
        """chesskit's Board of the position, in its variant (raises InputError)."""
        from chesskit.board.board import Board

        if self.setup:
            return Board.from_setup(unpack_setup(self.setup, self.chess960, self.notes))
        if self.variant == "chess":
            return Board(self.fen, chess960=self.chess960 or None)
        return Board(self.fen, chess960=self.chess960 or None, variant=self.variant)

    @property
    def location(self) -> str:
        return f"{display_path(self.path)}:{self.lineno}"


@dataclass(frozen=True, slots=True)
class LineError:
    """A line of a suite file that was not run, and why (one line, safe to print); line 0
    for a whole file that cannot be read."""

    path: Path
    lineno: int
    message: str
    id: str | None = None
    # how many lines it stands for: more than 1 for the lines past MAX_ERRORS_KEPT
    count: int = 1

    @property
    def location(self) -> str:
        """``FILE:LINE``, or ``FILE`` for an error about the whole file (line 0)."""
        return f"{display_path(self.path)}:{self.lineno}" if self.lineno else display_path(self.path)

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"

    def to_json(self) -> dict:
        return {"file": str(self.path), "line": self.lineno or None, "id": self.id, "error": self.message}


Entry = SuiteRecord | LineError


# --------------------------------------------------------------------------- text


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it is below it, else as is
    (``<stdin>`` for standard input's suite, ``chesskit suite -``)."""
    return SHOWN if is_stdin(path) else _display_path(Path(path), os.getcwd())


@functools.lru_cache(maxsize=256)  # a million lines of one file are shown with one lookup
def _display_path(path: Path, cwd: str) -> str:
    # a broken link is shown by its own name, not by where it leads
    absolute = path.parent.resolve() / path.name if path.is_symlink() and not path.exists() else path.resolve()
    try:
        return str(absolute.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped (``\\x07``, ``\\u2028``), so an
    id or a quoted line can go to a terminal, a log or XML as it is."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted as ``repr`` does, cut to ``limit`` characters and then marked ``...``
    (a quote cut mid-word read as if the line ended there)."""
    return f"{text[:limit]!r}..." if len(text) > limit else repr(text)


def read_lines(path: Path) -> Iterator[tuple[int, str | None, str | None]]:
    """``(lineno, text, error)`` for each line of ``path``: the text without its line end
    (and, on line 1, without a UTF-8 byte-order mark), or None and why it cannot be read
    (a comment line, ``#`` or ``%``, is read whatever its bytes: those that are not UTF-8
    become U+FFFD).

    Lines end at ``\\n`` only; the file is read in chunks and at most ``MAX_LINE_BYTES`` of
    a line are kept, so memory stays bounded whatever the file holds. Raises OSError.
    """
    with _open(path) as handle:
        lineno = 0
        kept = bytearray()  # the start of a line that runs on past its chunk
        length = 0  # its length so far (what is kept stops one byte past MAX_LINE_BYTES)
        while True:
            chunk = handle.read(_CHUNK)
            if not chunk:
                break
            pieces = chunk.split(b"\n")
            for piece in pieces[:-1]:
                lineno += 1
                if not length:  # the whole line is in this chunk
                    yield _decoded(lineno, piece, len(piece))
                    continue
                length += len(piece)
                if length <= MAX_LINE_BYTES + 1:  # one byte over, for a '\r' before the '\n'
                    kept += piece
                yield _decoded(lineno, kept, length)
                kept, length = bytearray(), 0
            piece = pieces[-1]
            length += len(piece)
            if length <= MAX_LINE_BYTES + 1:
                kept += piece
        if length:
            yield _decoded(lineno + 1, kept, length)


def _open(path: Path):
    """``path`` opened to read bytes: standard input's copy for ``stdin.STDIN``."""
    return open_stdin() if is_stdin(path) else open(path, "rb")


def _decoded(lineno: int, raw: bytes | bytearray, length: int) -> tuple[int, str | None, str | None]:
    if raw.endswith(b"\r"):
        raw, length = raw[:-1], length - 1
    if length > MAX_LINE_BYTES:
        return lineno, None, f"line too long ({length:,} bytes; a suite line holds at most {MAX_LINE_BYTES:,})"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        # a comment is passed over whatever its bytes (a Latin-1 "café" in a header); its
        # text here has U+FFFD for them. A line to read must be UTF-8 text
        text = raw.decode("utf-8", "replace")
        if not _is_comment(text.removeprefix(_BOM).strip() if lineno == 1 else text.strip()):
            return lineno, None, not_utf8(bytes(raw))
    if lineno == 1 and text.startswith(_BOM):
        text = text[1:]
    return lineno, text, None


_WIDE_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)
_SNIFF = 4096


def check_text_file(path: Path) -> None:
    """Raise InputError, one line for the whole file, when ``path`` cannot be read as
    UTF-8 text lines: a broken symbolic link, not a regular file (a FIFO would block), a
    UTF-16 or UTF-32 file (by its byte-order mark, or NUL bytes at every other place), or
    one whose first 4 KiB are an eighth or more NUL bytes (not a text file). Raises OSError when it cannot be read."""
    shown = display_path(path)
    if is_stdin(path):
        pass  # read once into a file of its own (``chesskit.suites.stdin``)
    elif path.is_symlink() and not path.exists():
        raise InputError(f"{shown}: a broken symbolic link (to {printable(str(path.readlink()))})")
    elif not path.is_file():
        raise InputError(f"{shown}: not a regular file")
    with _open(path) as handle:
        head = handle.read(_SNIFF)
    for bom, name in _WIDE_BOMS:
        if head.startswith(bom):
            raise InputError(f"{shown}: this file is {name} (save it as UTF-8)")
    even, odd = head[0::2].count(0), head[1::2].count(0)
    if (even + odd) * 8 >= len(head) > 0:  # a stray NUL in a line is that line's error
        if min(even, odd) * 8 < max(even, odd):
            raise InputError(f"{shown}: this file is UTF-16 (save it as UTF-8)")
        raise InputError(f"{shown}: not a text file (it holds NUL bytes)")


# a position's line that holds a carriage return: a file whose lines end in a bare '\r' is
# read as one line (it said "EPD operation 'D1' appears twice"); a comment may hold one
BARE_CR = "a carriage return inside the line: lines end in '\\n' or '\\r\\n', not a bare '\\r' (old Mac line ends)"


def _nul_byte(text: str) -> str:
    """The error of a line holding a NUL byte (it said "an EPD line starts with 4 FEN fields,
    found 1", or named the escaped byte inside a count)."""
    return f"a NUL byte (\\x00) at column {text.index(chr(0)) + 1}: a suite line is text (is the file damaged?)"


def _content_lines(path: Path) -> Iterator[tuple[int, str, str | None]]:
    """``read_lines`` without comments and blank lines, each stripped; a line that holds a
    carriage return (``BARE_CR``) or a NUL byte (``_nul_byte``) is an error (the text "",
    but for a NUL byte)."""
    for lineno, text, error in read_lines(path):
        if error is not None:
            yield lineno, "", error
            continue
        if _is_comment(text.strip()):
            continue
        if "\x00" in text:  # the text comes with its error: its id names the line
            yield lineno, text.strip(), _nul_byte(text)
            continue
        text = text.strip()
        yield (lineno, "", BARE_CR) if "\r" in text else (lineno, text, None)


def _is_comment(text: str) -> bool:
    return not text or text[0] in "#%"


# --------------------------------------------------------------------------- choosing


def is_perft_format(path: Path) -> bool:
    """True for a ``.perft`` file: by its name, else by its first non-comment line."""
    suffix = path.suffix.lower()
    if suffix in (".perft", ".epd"):
        return suffix == ".perft"
    for _, text, _ in read_lines(path):
        text = (text or "").strip()
        if not _is_comment(text):
            return text.split(None, 1)[0] in _PERFT_KEYWORDS
    return False


def read_suite(path: Path, strict: bool = False, variant: str | None = None, seen=None) -> list[Entry]:
    """Every position and every bad line of one suite file, in file order.

    Ids are unique within the file: a second use is an error for that line. A file named
    like ``chess960.epd`` is read in Chess960 mode; elsewhere each FEN decides. A position
    that cannot arise in a game is counted with ``notes`` saying why, or with ``strict`` is
    an error for its line. Raises InputError when the file cannot be opened at all.
    ``variant`` (``suite --variant``): the rules where neither the file's name nor the
    line names any. ``seen(record)`` is called for each position as soon as it is read
    (a record whose id turns out to repeat one is seen too, and then returned as an error).
    """
    try:
        check_text_file(path)
        reader = read_perft if is_perft_format(path) else read_epd
        entries = reader(path, strict, variant, seen)
    except OSError as err:
        raise InputError(f"{display_path(path)}: cannot read: {err.strerror or err}") from None
    first: dict[str, int] = {}
    checked: list[Entry] = []
    for entry in entries:
        if isinstance(entry, SuiteRecord):
            if entry.id in first:
                entry = LineError(
                    path, entry.lineno, f"duplicate id {entry.id!r} (first at line {first[entry.id]})", entry.id
                )
            else:
                first[entry.id] = entry.lineno
        checked.append(entry)
    return checked


def _chess960_mode(path: Path) -> bool | None:
    return True if "960" in path.stem else None


def file_variant(path: Path) -> str | None:
    """The variant a suite file's name gives (``atomic.perft``, ``3check.perft``,
    ``crazyhouse960.epd``: the canonical name without the 960), or None: standard chess,
    and ``chess960.epd`` too."""
    stem = path.stem.lower()
    base = stem[:-3] if stem.endswith("960") else stem
    if base in ("", "chess") or not base.replace("-", "").isalnum():
        return None
    from chesskit.variants import BY_NAME

    return base if base in BY_NAME else None


def scan_variant(text: str) -> str | None:
    """The operand of an EPD line's ``variant`` operation, found without parsing the line
    (the FEN is read in that variant's dialect), or None."""
    match = _VARIANT_OP.search(text)
    if match is None:
        return None
    return match.group(1) if match.group(1) is not None else match.group(2)


def _rules(name: str | None, chess960: bool | None) -> tuple[str, bool | None]:
    """``(canonical variant, chess960 mode)`` for a variant name (None: standard chess);
    a 960 form turns Chess960 on. Raises InputError for an unknown name."""
    if name is None:
        return "chess", chess960
    from chesskit.variants import find

    variant, c960 = find(name)
    return variant.name, True if c960 else chess960


class Entries:
    """The entries of a file in order, with at most ``MAX_ERRORS_KEPT`` LineErrors kept in
    detail: the others are counted, and ``done()`` adds one entry for all of them."""

    def __init__(self, path: Path, room: int = MAX_ERRORS_KEPT, seen: Callable[[SuiteRecord], None] | None = None):
        self.path, self.room, self.seen = path, room, seen
        self.items: list[Entry] = []
        self.dropped, self.first_dropped = 0, 0

    def append(self, entry: Entry) -> None:
        if self.seen is not None and isinstance(entry, SuiteRecord):
            self.seen(entry)  # a record as soon as it is read (``runner.Ahead``)
        if isinstance(entry, LineError):
            if self.room <= 0:
                self.dropped += entry.count
                self.first_dropped = self.first_dropped or entry.lineno
                return
            self.room -= 1
        self.items.append(entry)

    def done(self) -> list[Entry]:
        if self.dropped:
            self.items.append(folded(self.path, self.first_dropped, self.dropped))
        return self.items


def folded(path: Path, lineno: int, count: int) -> LineError:
    """One entry for ``count`` lines not run that are not listed one by one."""
    return LineError(
        path, lineno, f"{count:,} more lines not run from here on (only the first {MAX_ERRORS_KEPT:,} "
        "errors are listed)", count=count,
    )


# --------------------------------------------------------------------------- EPD


def read_epd(path: Path, strict: bool = False, default: str | None = None, seen=None) -> list[Entry]:
    """An EPD suite: one position per line (``seen``: see ``read_suite``)."""
    entries = Entries(path, seen=seen)
    mode = _chess960_mode(path)
    variant = file_variant(path) or default
    for lineno, text, error in _content_lines(path):
        if error is not None:
            entries.append(LineError(path, lineno, error, _scan_id(text) if text else None))
            continue
        try:
            entries.append(parse_epd_line(text, path, lineno, mode, strict=strict, variant=variant))
        except InputError as err:
            # "// a note" read as a FEN said "expected 8 ranks ..., found 3": say what a comment is
            why = f"{err} (a comment line starts with '#' or '%')" if text.startswith(_OTHER_COMMENTS) else str(err)
            entries.append(LineError(path, lineno, printable(why), _scan_id(text)))
    return entries.done()


# how other languages start a comment: a line that begins so and is no position gets a hint
_OTHER_COMMENTS = ("//", ";", "--", "/*")


def parse_epd_line(
    text: str,
    path: Path,
    lineno: int,
    chess960: bool | None = None,
    depths: dict[int, int] | None = None,
    strict: bool = False,
    variant: str | None = None,
) -> SuiteRecord:
    """One EPD line into a SuiteRecord; raises InputError (without the location).

    The line is read by ``chesskit.board.fen.parse_epd``, the one EPD reader (so
    ``perft ID`` reads a suite line the same way); this adds what a suite means by its
    operations. ``depths`` adds expected counts given elsewhere (a ``.perft`` block's
    ``perft`` lines); ``variant`` names the rules when the line has no ``variant``
    operation (the file's name, a ``.perft`` file's ``variant`` line).
    """
    if variant is None or scan_variant(text) is not None:  # the line's own operation, read by parse_epd
        epd = parse_epd(text, chess960, strict)
    else:
        name, chess960 = _rules(variant, chess960)
        epd = parse_epd(text, chess960, strict, variant=name)
    found: dict[int, int] = {}
    stats: dict[int, str] = {}
    ident = None
    tags: tuple[str, ...] = ()
    for opcode, operand in epd.operations:
        if opcode == "id":
            ident = printable(operand)
            if not ident:
                raise InputError("empty id")
        elif match := _DEPTH_OP.fullmatch(opcode):
            _add_depth(found, match.group(1), operand, "D")
        elif opcode == "perft":
            parts = operand.split()
            if len(parts) != 2:
                raise InputError(f"'perft {printable(operand)}': expected 'perft DEPTH COUNT'")
            _add_depth(found, parts[0], parts[1], "perft ")
        elif match := _STAT_OP.fullmatch(opcode):
            try:  # read now, with or without --stats: a malformed operand is its line's error
                parse_stat_opcode(operand, names_of(epd.setup.variant))
            except InputError as err:
                raise InputError(f"{opcode}: {err}") from None
            stats[_depth(match.group(1), opcode)] = operand
        elif opcode == "tags":
            tags = parse_tags(operand, "tags")
    for depth, count in (depths or {}).items():
        if depth in found:
            raise InputError(f"depth {depth} is given twice")
        found[depth] = count
    lower = next((op for op, _ in epd.operations if op != op.upper() and _DEPTH_OP.fullmatch(op.upper())), None)
    if not found:
        case = f"; opcodes are case-sensitive: {lower!r} is not {lower.upper()!r}" if lower else ""
        raise InputError(f"no D<n> opcodes (expected counts), e.g. 'D1 20;' (or 'perft 1 20;'){case}")
    if lower is not None:  # beside D counts it was read as another opcode, its count never checked
        raise InputError(f"opcodes are case-sensitive: {lower!r} is not {lower.upper()!r}, and its count would go unchecked")
    for depth in stats:
        if depth not in found:  # --stats checked nothing for it and said ok
            raise InputError(f"S{depth} without D{depth}: leaf counters are checked with the count of their depth; give D{depth} too")
    setup = epd.setup
    return SuiteRecord(
        id=ident or f"{path.stem}:{lineno}",
        fen=epd.fen,
        depths=dict(sorted(found.items())),
        stats=dict(sorted(stats.items())),
        path=path,
        lineno=lineno,
        chess960=bool(setup.chess960),
        notes=tuple(setup.notes),
        tags=tags,
        variant=setup.variant,
        setup=pack_setup(setup),
    )


def pack_setup(setup) -> tuple:
    """A standard chess ``Setup`` in about 200 bytes (a million lines must fit: the
    ``Setup`` itself takes about 1 KB), or ``()`` for a variant's."""
    if setup.variant != "chess":
        return ()
    return bytes(setup.board), setup.turn, tuple(setup.castling), setup.ep, setup.halfmove, setup.fullmove


def unpack_setup(packed: tuple, chess960: bool, notes: tuple[str, ...]):
    """The ``Setup`` that ``pack_setup`` packed."""
    board, turn, castling, ep, halfmove, fullmove = packed
    return Setup(list(board), turn, list(castling), ep, halfmove, fullmove, chess960, list(notes))


def parse_tags(text: str, what: str) -> tuple[str, ...]:
    """The tags of a ``tags`` operand or of ``suite --tags`` (``what`` names it in the
    error): words separated by spaces or commas, each once, in the order given. Raises
    InputError for a word that is not a tag (``TAG``, at most ``MAX_TAG_CHARS``)."""
    words = text.replace(",", " ").split()
    for word in words:
        if not TAG.fullmatch(word) or len(word) > MAX_TAG_CHARS:
            raise InputError(
                f"{what}: {quoted(word)} is not a tag (letters, digits and '-_.+', "
                f"at most {MAX_TAG_CHARS} characters)"
            )
    return tuple(dict.fromkeys(words))


def _depth(text: str, what: str) -> int:
    if not _ASCII_NUMBER.fullmatch(text) or len(text) > 3 or int(text) > MAX_DEPTH:
        raise InputError(
            f"{printable(what[:20])}: depth {text[:20]!r} is not an integer from 0 to {MAX_DEPTH}"
        )
    return int(text)


def _add_depth(found: dict[int, int], depth_text: str, count_text: str, op: str) -> None:
    """Record ``count`` at ``depth`` from ``D<depth> <count>`` (op "D") or ``perft <depth> <count>``."""
    depth = _depth(depth_text, f"{op}{depth_text}")
    if not _ASCII_NUMBER.fullmatch(count_text):
        raise InputError(f"{op}{depth}: expected count {quoted(count_text)} is not a non-negative integer")
    if len(count_text) > MAX_COUNT_DIGITS:
        raise InputError(f"{op}{depth}: expected count has {len(count_text)} digits (at most {MAX_COUNT_DIGITS})")
    if depth in found:
        raise InputError(f"depth {depth} is given twice")
    found[depth] = int(count_text)


_ID_OP = re.compile(r'(?:^|[;\s])id\s+(?:"([^"]*)"|([^\s;"]+))')


def scan_id(text: str) -> str | None:
    """The value of the ``id`` operation of an EPD line, found without parsing the line
    (so a line that does not parse still names its id, and ``perft ID`` can find a line
    without parsing the whole suite), or None.

    >>> scan_id('4k3/8/8/8/8/8/8/4K3 w - - id "bare kings"; D1 5;')
    'bare kings'
    >>> scan_id('4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;id kings')
    'kings'
    """
    match = _ID_OP.search(text)
    if match is None:
        return None
    return match.group(1) if match.group(1) is not None else match.group(2)


def _scan_id(text: str) -> str | None:
    """The id of a line that did not parse, safe to print (for the report)."""
    found = scan_id(text)
    return None if found is None else printable(found)


# --------------------------------------------------------------------------- .perft


@dataclass
class _Block:
    id: str | None
    id_line: int
    epd: str | None = None
    epd_line: int = 0
    depths: dict[int, int] | None = None
    lost_to: int = 0  # the line of the bad ``variant`` line above it (0: none): not run
    rejected: bool = False  # one of its perft lines was an error (reported for that line)
    variant: str | None = None  # the rules of the ``variant`` line above it (or the file's name)


def read_perft(path: Path, strict: bool = False, default: str | None = None, seen=None) -> list[Entry]:
    """A ``.perft`` suite: ``id``, ``epd``, ``perft DEPTH COUNT`` and ``variant NAME`` lines.

    A block starts at ``id`` (or at an ``epd`` after a finished block); its position is
    reported at the ``epd`` line. A bad ``perft`` line is an error for that line and the
    block's other depths still run; a bad ``epd`` line drops its block. A ``variant`` line
    holds for the blocks that start after it; a bad one is an error for its line, and the
    blocks after it, until the next ``variant`` line, are not run (their counts are
    another variant's): each is an error of its own, naming it.
    """
    mode = _chess960_mode(path)
    entries = Entries(path, seen=seen)
    block: _Block | None = None
    variant: str | None = file_variant(path) or default
    variant_bad = 0  # the line of a bad ``variant`` line in force (0: none)

    def finish(next_epd: int = 0) -> None:
        """``next_epd``: the line of the ``epd`` line that ends this block (0: another line)."""
        if block is None or _reported_lost(entries, block):
            return
        if block.epd is None:
            entries.append(LineError(path, block.id_line, "an id without an 'epd' line", block.id))
            return
        if block.rejected and not block.depths:
            return  # its only counts were bad lines, each reported: no second error for the block
        if not block.depths:  # in the file's own words, not an EPD line's (``D<n>`` opcodes)
            named = f" of block {printable(block.id)!r}" if block.id else ""
            then = f": the 'epd' line {next_epd} after it starts another position" if next_epd else ""
            why = f"no 'perft DEPTH COUNT' line after the 'epd' line{named}{then}"
            entries.append(LineError(path, block.epd_line, why, block.id))
            return
        try:
            record = parse_epd_line(block.epd, path, block.epd_line, mode, block.depths or {}, strict, block.variant)
        except InputError as err:
            entries.append(LineError(path, block.epd_line, printable(str(err)), block.id))
            return
        entries.append(_in_block(record, block.id))

    for lineno, text, error in _content_lines(path):
        if error is not None:
            entries.append(LineError(path, lineno, error, block.id if block else None))
            continue
        keyword, value = _keyword(text)
        if keyword == "id":
            finish()
            block = _Block(printable(value) or None, lineno, variant=variant, lost_to=variant_bad)
            if not value:
                entries.append(LineError(path, lineno, "empty id"))
        elif keyword == "variant":
            finish()
            block = None
            variant, variant_bad = _variant_line(value, variant, entries, lineno)
        elif keyword == "epd":
            if block is None or block.epd is not None:
                finish(lineno)
                block = _Block(None, lineno, variant=variant, lost_to=variant_bad)
            block.epd, block.epd_line, block.depths = value, lineno, {}
        elif keyword == "perft":
            if block is not None and block.lost_to:
                continue
            if block is None or block.epd is None:
                where = "any 'epd' line" if block is None else f"the 'epd' line of block {printable(block.id)!r}"
                entries.append(LineError(path, lineno, f"a 'perft' line before {where}"))
                continue
            try:
                parts = value.split()
                if len(parts) != 2:
                    raise InputError(f"expected 'perft DEPTH COUNT', found 'perft {printable(value[:40])}'")
                _add_depth(block.depths, parts[0], parts[1], "perft ")
            except InputError as err:
                block.rejected = True
                entries.append(LineError(path, lineno, str(err), block.id))
        else:
            entries.append(
                LineError(
                    path, lineno, f"unknown line {quoted(text)}: expected 'id', 'epd', 'perft' or 'variant'"
                )
            )
    finish()
    return sorted(entries.done(), key=lambda entry: entry.lineno)


def _keyword(text: str) -> tuple[str, str]:
    """A ``.perft`` line's keyword (``id``, ``epd``, ``perft``, ``variant``) and its value,
    stripped: the keyword ends at the first space or tab."""
    keyword, _, value = text.partition(" ")
    if "\t" in keyword:
        keyword, _, rest = keyword.partition("\t")
        value = rest + " " + value
    return keyword, value.strip()


def perft_variant_at_end(path: Path) -> str:
    """The rules a block appended to the ``.perft`` file ``path`` is read in when its
    ``epd`` line names none: those of the file's last good ``variant`` line, else of its
    name (``atomic.perft``), else standard chess ("chess"), as ``read_perft`` reads them."""
    variant = file_variant(path)
    for _, text, error in _content_lines(path):
        keyword, value = _keyword(text)
        if error is None and keyword == "variant":
            try:
                _rules(value, None)
            except InputError:
                continue  # a bad name leaves the rules before it in force (its blocks are not run)
            variant = value
    return variant or "chess"


def _reported_lost(entries: Entries, block: _Block) -> bool:
    """Whether a bad ``variant`` line above ``block`` leaves it unrun; if so, an error for
    it at its ``epd`` line (or ``id``), naming it, so that no position is lost silently."""
    if not block.lost_to:
        return False
    what = f"block {block.id!r}" if block.id else "this block"
    why = f"{what} is not run: the 'variant' line {block.lost_to} above it names no variant (its counts are another variant's)"
    entries.append(LineError(entries.path, block.epd_line or block.id_line, why, block.id))
    return True


def _variant_line(value: str, variant: str | None, entries: Entries, lineno: int) -> tuple[str | None, int]:
    """A ``.perft`` file's ``variant NAME`` line: ``(the variant from here on, lineno if
    it is bad else 0)``; a name that is no variant is an error for its line."""
    try:
        _rules(value, None)
        return value, 0
    except InputError as err:
        entries.append(LineError(entries.path, lineno, f"{printable(str(err))} (the blocks below it are not run)"))
        return variant, lineno


def _in_block(record: SuiteRecord, ident: str | None) -> SuiteRecord:
    """A ``.perft`` block's record: marked as such, with the block's ``id`` line (if any)."""
    return replace(record, in_perft_file=True, **({} if ident is None else {"id": ident}))
