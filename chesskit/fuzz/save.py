"""``--save FILE``: append a finding to the user's suite, as a line of the bundled EPD format
(in a ``.perft`` file, a block of that format: ``id``, ``epd``, ``perft DEPTH COUNT``).

    # chesskit fuzz --seed 7: engine misses a8b6 after (start) (...); D1-D3 counted by chesskit 0.x
    N3k3/8/8/8/8/8/8/4K3 w - - id "fuzz-7"; D1 6; D2 ...; D3 ...;

The counts are chesskit's (D1..D3, deeper when the difference needs a deeper tree).  A
Chess960 position writes its castling field in Shredder-FEN, so the suite loader reads it
as Chess960 whatever the file is called.  The line is appended in one write and flushed
to disk (fsync); a directory, a FIFO or a device is refused before the run starts.
A write that fails (a full disk) is undone: the file is cut back to its old length, or
removed if this write created it, so no empty or half-written file stays behind.  The
file is read line by line, at most ``MAX_LINE_BYTES`` of each kept (a huge line without
a newline costs no memory).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from chesskit.board.board import Board
from chesskit.compare.regression import perft_block, suite_line
from chesskit.errors import InputError
from chesskit.outpath import check_output, fsync_folder
from chesskit.suites.formats import file_variant, is_perft_format, perft_variant_at_end, read_lines
from chesskit.suites.positions import scan_id

SAVE_DEPTH = 3


def check_save_path(path: str, inputs=()) -> None:
    """Fail at once (exit 2), not after the run, when ``--save FILE`` cannot be appended to
    or is one of ``inputs`` (the engine's own files; the shared check of every file chesskit
    writes: ``chesskit.outpath``)."""
    check_output(path, "--save", inputs, append=True)


def _counts(fen: str, chess960: bool, depth: int, variant: str) -> dict[int, int]:
    """chesskit's perft of ``fen`` at depths 1..``depth``."""
    if variant == "chess":
        board = Board(fen, chess960=chess960)
    else:
        board = Board(fen, chess960=chess960 or None, variant=variant)
    return {d: board.perft(d) for d in range(1, depth + 1)}


def suite_lines(fen: str, chess960: bool, ident: str, depth: int, variant: str, perft: bool, named: bool = False) -> list[str]:
    """The lines to append: the position as a suite line of the bundled EPD format with
    chesskit's counts at depths 1..``depth`` (``chesskit.compare.regression.suite_line``, as
    a mismatch's regression line is written), or in a ``.perft`` file (``perft``) a block of
    its format (``perft_block``: an EPD line there is no line the file can read).
    ``named``: a standard chess position says so (``variant chess``; ``rules_at_end``)."""
    counts = _counts(fen, chess960, depth, variant)
    if perft:
        return perft_block(fen, chess960, ident, counts, variant, named)
    return [suite_line(fen, chess960, ident, counts, variant, named)]


def rules_at_end(path: str, perft: bool) -> str:
    """The rules a line appended to ``path`` is read in when it names none: a ``.perft``
    file's last ``variant NAME`` line (``formats.perft_variant_at_end``), else the variant
    the file's name gives (``atomic.epd``), else standard chess ("chess")."""
    if not perft:
        return file_variant(Path(path)) or "chess"
    try:
        return perft_variant_at_end(Path(path))
    except FileNotFoundError:
        return file_variant(Path(path)) or "chess"
    except OSError as err:
        raise _unreadable(path, err) from None


def is_perft_suite(path: str) -> bool:
    """Whether ``--save FILE`` is a ``.perft`` file: read as the suite loader reads it (its
    name, else its first line), a file not yet there by its name."""
    try:
        return is_perft_format(Path(path))
    except FileNotFoundError:
        return Path(path).suffix.lower() == ".perft"
    except OSError as err:
        raise _unreadable(path, err) from None


def _unreadable(path: str, err: OSError) -> InputError:
    """``--save FILE``'s refusal of a file it cannot read (its ids, its format, its rules)."""
    return InputError(f"cannot write --save {path}: {(err.strerror or str(err)).lower()}")


def unused_id(path: str, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``, ... whichever no line of ``path`` uses yet."""
    taken = set()
    try:
        for _, text, _ in read_lines(path):
            if text is not None:
                taken.add(scan_id(text.strip()))
    except FileNotFoundError:
        pass
    except OSError as err:
        raise _unreadable(path, err) from None
    ident, n = base, 1
    while ident in taken:
        n += 1
        ident = f"{base}-{n}"
    return ident


def _position_of(text: str) -> str | None:
    """The position a suite line (EPD) or a ``.perft`` block's ``epd`` line names: its first
    four FEN fields; None for another line."""
    words = text.split()
    if words[:1] == ["epd"]:
        words = words[1:]
    return " ".join(words[:4]) if len(words) >= 4 and "/" in words[0] else None


def saved_as(path: str, lines: list[str]) -> str | None:
    """The id under which ``path`` already holds the position of ``lines`` (what a save
    would append), or None: the same finding saved again (the same seed run twice) is
    not appended a second time as ``fuzz-N-2``."""
    wanted = next((found for line in lines if (found := _position_of(line)) is not None), None)
    ident = None  # a .perft block's id, before its epd line
    try:
        for _, text, _ in read_lines(path):
            if text is None:
                continue
            text = text.strip()
            if text.startswith("id "):
                ident = text[3:].strip()
            elif wanted is not None and _position_of(text) == wanted:
                # a .perft block's epd line has its id above it; an EPD line carries its own
                return ident if text.startswith("epd ") else scan_id(text) or ident
    except FileNotFoundError:
        return None
    except OSError as err:
        raise _unreadable(path, err) from None
    return None


def append_lines(path: str, lines: list[str]) -> None:
    """Append ``lines`` in one write, after a newline if the file does not end with one; fsync.
    On failure the file is left as it was (or not created)."""
    check_save_path(path)
    existed = os.path.lexists(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as err:
        raise InputError(f"cannot write --save {path}: {err.strerror or err}") from None
    size = 0
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"cannot write --save {path}: it is not a regular file")
        text = "\n".join(lines) + "\n"
        size = os.fstat(fd).st_size
        if size:
            with open(path, "rb") as handle:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    text = "\n" + text
        _write_all(fd, text.encode("utf-8"))
        os.fsync(fd)
    except OSError as err:
        _undo(fd, path, size, existed)
        raise InputError(f"cannot write --save {path}: {err.strerror or err}") from None
    except BaseException:
        _undo(fd, path, size, existed)
        raise
    finally:
        os.close(fd)
    if not existed:
        fsync_folder(os.path.dirname(os.path.abspath(path)))


def _write_all(fd: int, data: bytes) -> None:
    written = 0
    while written < len(data):
        written += os.write(fd, data[written:])


def _undo(fd: int, path: str, size: int, existed: bool) -> None:
    """Put a failed append back: the old length, or no file at all (best effort)."""
    try:
        if existed:
            os.ftruncate(fd, size)
        else:
            os.unlink(path)
    except OSError:
        pass
