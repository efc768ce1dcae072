"""Reading suite files: EPD variants, .perft files, and every bad line reported on its own.

Counts in the small suites here are the Perft Results page's (start position, Kiwipete,
position 3) and python-chess's tricky.perft (the rook endgame); none comes from chesskit.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chesskit.suites.formats import (
    MAX_LINE_BYTES,
    LineError,
    SuiteRecord,
    is_perft_format,
    printable,
    read_lines,
    read_suite,
)
from chesskit.vocab import MAX_DEPTH

START4 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
KIWI4 = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
POS3_4 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"
REPO = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def records(entries) -> list[SuiteRecord]:
    return [e for e in entries if isinstance(e, SuiteRecord)]


def errors(entries) -> list[tuple[int, str]]:
    return [(e.lineno, e.message) for e in entries if isinstance(e, LineError)]


# ------------------------------------------------------------------ EPD variants


def test_epd_variants_seen_in_the_wild(tmp_path):
    text = (
        f"{START4} 0 1 ;D1 20 ;D2 400 ;D3 8902\n"  # the classic perftsuite / Ethereal
        f"{KIWI4} id \"kiwi\"; D1 48; D2 2039;\n"  # chesskit's own, no clocks
        f"{POS3_4} perft 1 14; perft 2 191; id pos3;\n"  # perft N COUNT operations
        f"{POS3_4} 0 1; D1 14; D2 191\n"  # a ';' right after the clocks, no final ';'
        f"{KIWI4} hmvc 3; fmvn 9; D1 48; bm Qxa6; c0 \"a comment; with a semicolon\";\n"
    )
    entries = read_suite(write(tmp_path, "wild.epd", text))
    assert errors(entries) == []
    got = records(entries)
    assert [r.id for r in got] == ["wild:1", "kiwi", "pos3", "wild:4", "wild:5"]
    assert [r.depths for r in got] == [
        {1: 20, 2: 400, 3: 8902}, {1: 48, 2: 2039}, {1: 14, 2: 191}, {1: 14, 2: 191}, {1: 48},
    ]
    assert got[0].fen == START4 + " 0 1"
    assert got[4].fen == KIWI4 + " 3 9"
    assert [r.lineno for r in got] == [1, 2, 3, 4, 5]


def test_crlf_tabs_and_bom(tmp_path):
    data = b"\xef\xbb\xbf# a suite saved by an editor that writes a BOM\r\n" + (
        f"{START4}\t0\t1\t;D1 20\t;D2 400\r\n".encode()
    )
    entries = read_suite(write(tmp_path, "bom.epd", data))
    assert errors(entries) == []
    (record,) = records(entries)
    assert record.depths == {1: 20, 2: 400} and record.lineno == 2


def test_bom_before_a_position_on_line_one(tmp_path):
    entries = read_suite(write(tmp_path, "bom.epd", "\ufeff" + f'{START4} id "s"; D1 20;\n'))
    assert [r.id for r in records(entries)] == ["s"] and errors(entries) == []


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\x1c", "\x85", "\r"])
def test_a_comment_is_one_line_whatever_it_holds(tmp_path, separator):
    # str.splitlines() would split here and run the rest of the comment as a position
    text = f"# see {separator}{START4} id \"ghost\"; D1 999;\n{START4} id \"real\"; D1 20;\n"
    entries = read_suite(write(tmp_path, "c.epd", text))
    assert [r.id for r in records(entries)] == ["real"]
    assert errors(entries) == []


def test_percent_comments_and_blank_lines(tmp_path):
    text = f"% old-style comment\n\n   \n# another\n{START4} ;D1 20\n"
    assert [r.depths for r in records(read_suite(write(tmp_path, "p.epd", text)))] == [{1: 20}]


# ------------------------------------------------------------------ .perft


PERFT = f"""\
#
# Source: the Perft Results page
#

# Kiwipete
id kiwi
epd {KIWI4}
perft 1 48
perft 2 2039

id pos3
epd {POS3_4}
perft 1 14
perft 2 191
perft 3 2812

% an old-style comment
id rook
epd 4k3/8/8/8/8/8/8/4K2R w K -
perft 1 15
perft 2 66
"""


def test_perft_file(tmp_path):
    path = write(tmp_path, "small.perft", PERFT)
    assert is_perft_format(path)
    entries = read_suite(path)
    assert errors(entries) == []
    got = records(entries)
    assert [(r.id, r.lineno, r.depths) for r in got] == [
        ("kiwi", 7, {1: 48, 2: 2039}),
        ("pos3", 12, {1: 14, 2: 191, 3: 2812}),
        ("rook", 19, {1: 15, 2: 66}),
    ]
    assert got[0].fen == KIWI4 + " 0 1"


def test_perft_format_is_recognised_by_content(tmp_path):
    path = write(tmp_path, "suite.txt", PERFT)
    assert is_perft_format(path)
    assert len(records(read_suite(path))) == 3
    assert not is_perft_format(write(tmp_path, "other.txt", f"# x\n{START4} ;D1 20\n"))


def test_perft_file_bad_lines_are_reported_and_the_rest_runs(tmp_path):
    text = (
        "perft 1 20\n"  # 1: before any epd
        "id good\n"  # 2
        f"epd {START4}\n"  # 3
        "perft 1 20\n"
        "perft 2 four-hundred\n"  # 5: bad count; depth 1 still runs
        "perft 3 8902\n"
        "id broken\n"  # 7
        "epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq -\n"  # 8: bad FEN
        "perft 1 20\n"
        "frobnicate 3\n"  # 10: unknown line
        "id good\n"  # 11: duplicate id
        f"epd {KIWI4}\n"  # 12
        "perft 1 48\n"
        "id lonely\n"  # 14: no epd
        "id last\n"
        f"epd {POS3_4}\n"  # 16
        "perft 101 1\n"  # 17: depth past the cap
        "perft 1 14\n"
    )
    entries = read_suite(write(tmp_path, "bad.perft", text))
    assert [(r.id, r.lineno, r.depths) for r in records(entries)] == [
        ("good", 3, {1: 20, 3: 8902}),
        ("last", 16, {1: 14}),
    ]
    found = errors(entries)
    assert [line for line, _ in found] == [1, 5, 8, 10, 12, 14, 17]
    messages = dict(found)
    assert "before any 'epd'" in messages[1]
    assert "perft 2: expected count 'four-hundred'" in messages[5]
    assert messages[8].startswith("invalid FEN")
    assert "unknown line 'frobnicate 3'" in messages[10]
    assert messages[12] == "duplicate id 'good' (first at line 3)"
    assert "without an 'epd' line" in messages[14]
    assert "depth '101' is not an integer from 0 to 100" in messages[17]


def test_a_quote_cut_short_says_so_and_a_perft_line_before_its_blocks_epd_is_named(tmp_path):
    """A bad line is quoted up to 40 characters: where it was longer the quote ends with
    '...' (it read as if the line ended there, mid-word); a ``perft`` line between a block's
    ``id`` and its ``epd`` was said to come "before any 'epd' line" when one came earlier."""
    long = '4k3/8/8/8/8/8/8/4K2R w K - id "fuzz-7"; hmvc 1; D1 15;'
    text = (
        f"id a\nepd {START4}\nperft 1 20\n"
        f"{long}\n"  # 4: an EPD line in a .perft file
        f"perft 2 {'4' * 30}x{'0' * 30}\n"  # 5: a long bad count
        "id b\nperft 1 20\n"  # 7: before b's epd
        f"epd {START4}\nperft 1 20\n"
    )
    messages = dict(errors(read_suite(write(tmp_path, "cut.perft", text))))
    assert messages[4] == f"unknown line {long[:40]!r}...: expected 'id', 'epd', 'perft' or 'variant'"
    assert messages[5] == f"perft 2: expected count {('4' * 30 + 'x' + '0' * 9)!r}... is not a non-negative integer"
    assert messages[7] == "a 'perft' line before the 'epd' line of block 'b'"
    short = dict(errors(read_suite(write(tmp_path, "short.perft", f"id a\nepd {START4}\nfrobnicate 3\n"))))
    assert short[3] == "unknown line 'frobnicate 3': expected 'id', 'epd', 'perft' or 'variant'"


def test_a_perft_block_without_counts_is_told_in_the_files_words(tmp_path):
    """A block with no ``perft`` line was told "no D<n> opcodes", an EPD line's words; an
    ``epd`` line after it started an anonymous position with nothing said of the first."""
    text = (
        f"id none\nepd {START4}\n"  # 2: no perft line before the next id
        f"id twoepd\nepd {START4}\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n"  # 4: a second epd at 5
    )
    entries = read_suite(write(tmp_path, "none.perft", text))
    assert dict(errors(entries)) == {
        2: "no 'perft DEPTH COUNT' line after the 'epd' line of block 'none'",
        4: "no 'perft DEPTH COUNT' line after the 'epd' line of block 'twoepd': the 'epd' line 5 after it starts another position",
    }
    assert [(r.lineno, r.depths) for r in records(entries)] == [(5, {1: 5})]


def test_python_chess_style_960_file(tmp_path):
    text = "id 0\nepd bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -\nperft 1 21\nperft 2 528\n"
    (record,) = records(read_suite(write(tmp_path, "chess960.perft", text)))
    assert record.chess960 and record.id == "0" and record.depths == {1: 21, 2: 528}


# ------------------------------------------------------------------ errors for one line


@pytest.mark.parametrize(
    "ops, why",
    [
        ("D100000 1;", "depth '100000' is not an integer from 0 to 100"),
        ("D101 1;", "depth '101' is not an integer from 0 to 100"),
        (" ".join(f"D{n} {n};" for n in range(1, 1001)), "depth '101' is not an integer"),
        ("D1 20; D1 20;", "EPD operation 'D1' appears twice"),
        ("D1 20; perft 1 20;", "depth 1 is given twice"),
        ("D1 " + "9" * 5000 + ";", "expected count has 5000 digits (at most 20)"),
        ("D1 ²;", "expected count '²' is not a non-negative integer"),
        ("D1 ２０;", "expected count '２０' is not a non-negative integer"),  # fullwidth digits
        ("D1 -20;", "is not a non-negative integer"),
        # a signed depth is a bad depth, not an opcode of another meaning (it was ignored)
        ("D1 20; D-1 3;", "D-1: depth '-1' is not an integer from 0 to 100"),
        ("D1 20; D+2 400;", "D+2: depth '+2' is not an integer from 0 to 100"),
        ("D1 20; S-1 \"checks=0\";", "S-1: depth '-1' is not an integer from 0 to 100"),
        ("perft 1;", "expected 'perft DEPTH COUNT'"),
        ("id \"a\"; id \"b\"; D1 20;", "EPD operation 'id' appears twice"),
        ("D1 20; bm e4; bm d4;", "EPD operation 'bm' appears twice"),  # kept before: issue 25 item 3
        ("D1 20; S1 \"checks=0\"; S1 \"checks=1\";", "EPD operation 'S1' appears twice"),
        ("id \"x; D1 20;", "unterminated quoted string"),
        ("bm e4;", "no D<n> opcodes"),
        # QA 40: ';d1 20' was told only that there is no D<n> opcode
        ("d1 20; d2 400;", "no D<n> opcodes (expected counts), e.g. 'D1 20;' (or 'perft 1 20;'); opcodes are case-sensitive: 'd1' is not 'D1'"),
        # QA 41a: beside D counts a lower-case one was passed over as another opcode, unchecked
        ("D1 20; D2 400; d3 8902;", "opcodes are case-sensitive: 'd3' is not 'D3', and its count would go unchecked"),
        ("D1 20; dm 3;", None),  # an opcode of another meaning (direct mate) is no count
        # --stats checked nothing for S2 and said ok
        ("D1 20; S2 \"captures=0\";", "S2 without D2: leaf counters are checked with the count of their depth"),
        # an S<n> operand is read with or without --stats: a misspelt counter was passed over
        ("D1 20; S1 \"captures=0 chekcs=0\";", "bad statistics item 'chekcs=0': expected name=count"),
        ("D1 20; S1 \"checks=two\";", "'two' is not a non-negative integer"),
        ("D1 20; S1 \"\";", "empty statistics opcode"),
        # the line's variant's counters: standard chess has no drops
        ("D1 20; S1 \"drops=0\";", "bad statistics item 'drops=0'"),
    ],
)
def test_epd_line_errors(tmp_path, ops, why):
    text = f"{START4} ;D1 20\n{START4} {ops}\n{KIWI4} ;D1 48\n"
    entries = read_suite(write(tmp_path, "e.epd", text))
    if why is None:  # read as it is
        assert [r.lineno for r in records(entries)] == [1, 2, 3] and not errors(entries)
        return
    assert [r.lineno for r in records(entries)] == [1, 3]
    ((line, message),) = errors(entries)
    assert line == 2 and why in message
    assert len(message) < 300 and "\n" not in message


@pytest.mark.parametrize(
    "clocks, why",
    [
        ("0 " + "1" * 5000, "is too large (at most 4611686018427387904)"),  # MAX_CLOCK, 2**62
        ("0 ¹", "found a halfmove clock but no fullmove number"),
        ("7", "found a halfmove clock but no fullmove number"),
        # counts written after the FEN with commas (a CSV line): it said the fullmove number was missing
        ("0 1,3,8902", "fullmove number '1,3,8902' is not a number (an EPD line's counts are operations"),
    ],
)
def test_clock_errors(tmp_path, clocks, why):
    entries = read_suite(write(tmp_path, "c.epd", f"{START4} {clocks} ;D1 20\n"))
    ((line, message),) = errors(entries)
    assert line == 1 and why in message, message


def test_control_characters_in_an_id_are_escaped(tmp_path):
    text = f'{START4} id "red\x1b[31m\x07bell"; D1 20;\n{KIWI4} id "bad\x00"; D1 x;\n'
    entries = read_suite(write(tmp_path, "ctl.epd", text))
    (record,) = records(entries)
    assert record.id == "red\\x1b[31m\\x07bell"
    (error,) = [e for e in entries if isinstance(e, LineError)]
    assert error.id == "bad\\x00"
    assert error.message.startswith("a NUL byte (\\x00) at column ")  # named as such, the id kept


def test_a_control_character_in_a_bad_operand_is_escaped_once(tmp_path):
    # a bad expected count holding a bell read "expected count '2\\\\x070'": escaped, then
    # quoted with repr, which doubled the escape's backslash (so did a depth, a tag, a .perft line)
    epd = (f"{START4} ;D1 2\x070\n{START4} ;D1 20; tags \"a\x07b\"\n{START4} ;perft 1\x07 20\n")
    assert errors(read_suite(write(tmp_path, "bell.epd", epd))) == [
        (1, "D1: expected count '2\\x070' is not a non-negative integer"),
        (2, "tags: 'a\\x07b' is not a tag (letters, digits and '-_.+', at most 64 characters)"),
        (3, f"perft 1\\x07: depth '1\\x07' is not an integer from 0 to {MAX_DEPTH}"),
    ]
    perft = read_suite(write(tmp_path, "bell.perft", f"id a\nepd {START4}\nperft 1 2\x070\nbad\x07 line\n"))
    assert errors(perft) == [
        (3, "perft 1: expected count '2\\x070' is not a non-negative integer"),
        (4, "unknown line 'bad\\x07 line': expected 'id', 'epd', 'perft' or 'variant'"),
    ]


def test_a_nul_byte_in_a_line_is_named(tmp_path):
    # it said "an EPD line starts with 4 FEN fields, found 1", or "expected count '2\\\\x000'"
    text = f"{START4} ;D1 20\n{START4} ;D1 2\x000\n\x00\x00\x00\n# a comment may hold \x00\n{START4} ;D1 20\n"
    entries = read_suite(write(tmp_path, "nul.epd", text))
    assert len(records(entries)) == 2
    assert errors(entries) == [
        (2, f"a NUL byte (\\x00) at column {len(START4) + 7}: a suite line is text (is the file damaged?)"),
        (3, "a NUL byte (\\x00) at column 1: a suite line is text (is the file damaged?)"),
    ]
    perft = read_suite(write(tmp_path, "nul.perft", f"id a\nepd {START4}\nperft 1 20\x00\n"))
    assert errors(perft)[-1] == (3, "a NUL byte (\\x00) at column 11: a suite line is text (is the file damaged?)")
    assert printable("plain id") == "plain id"
    assert printable("a\u2028b") == "a\\u2028b"


def test_undecodable_line_is_an_error_for_that_line_only(tmp_path):
    data = f"{START4} ;D1 20\n".encode() + b"\xff\xfe junk\n" + f"{KIWI4} ;D1 48\n".encode()
    entries = read_suite(write(tmp_path, "u.epd", data))
    assert [r.lineno for r in records(entries)] == [1, 3]
    assert errors(entries) == [(2, "not UTF-8 text (byte 0xff at column 1)")]


@pytest.mark.parametrize("comment", [b"# caf\xe9 comment", b"% caf\xe9", b"  #\xff\xfe", b"\xef\xbb\xbf# caf\xe9"])
@pytest.mark.parametrize(
    "name,lines",
    [
        ("c.epd", [f"{START4} ;D1 20".encode(), f'{KIWI4} ;D1 48; id "caf\xe9";'.encode("latin-1")]),
        ("c.perft", [b"id s", f"epd {START4}".encode(), b"perft 1 20", b"id caf\xe9"]),
    ],
)
def test_a_comment_that_is_not_utf8_is_still_a_comment(tmp_path, comment, name, lines):
    """A Latin-1 byte in a '#' or '%' line made that line an error ("not UTF-8 text"); a
    comment is passed over whatever its bytes, a position's line must still be UTF-8."""
    entries = read_suite(write(tmp_path, name, b"\n".join([comment, *lines]) + b"\n"))
    assert [r.depths for r in records(entries)] == [{1: 20}]
    ((line, why),) = errors(entries)
    assert line == len(lines) + 1 and why.startswith("not UTF-8 text (byte 0xe9 at column ")


def test_too_long_line_is_an_error_and_the_next_line_still_reads(tmp_path):
    long_line = START4 + " ;D1 20 ;" + " c0 x;" * (MAX_LINE_BYTES // 5)
    text = f"{long_line}\n{KIWI4} ;D1 48\n"
    entries = read_suite(write(tmp_path, "long.epd", text))
    assert [r.lineno for r in records(entries)] == [2]
    ((line, message),) = errors(entries)
    assert line == 1 and f"at most {MAX_LINE_BYTES:,}" in message


def test_a_line_of_exactly_the_cap_is_read(tmp_path):
    line = f"{START4} ;D1 20 ;c0 \"" + "x" * MAX_LINE_BYTES
    line = line[: MAX_LINE_BYTES - 1] + '"'
    assert len(line.encode()) == MAX_LINE_BYTES
    entries = read_suite(write(tmp_path, "cap.epd", line + "\r\n"))
    assert errors(entries) == [] and len(records(entries)) == 1


def test_read_lines_splits_on_newline_only(tmp_path):
    path = write(tmp_path, "l.txt", "a\x0cb\u2028c\rd\r\ne\n\nlast")
    assert [(n, t) for n, t, _ in read_lines(path)] == [(1, "a\x0cb\u2028c\rd"), (2, "e"), (3, ""), (4, "last")]


def _lines_of(data: bytes) -> list[tuple[int, str | None, str | None]]:
    """What read_lines should give for ``data``, read whole (the test's own reading)."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    found = []
    for lineno, raw in enumerate(lines, 1):
        # a '\r' before the '\n' is dropped; past the cap the length is told with it
        raw = raw[:-1] if raw.endswith(b"\r") and len(raw) <= MAX_LINE_BYTES + 1 else raw
        if len(raw) > MAX_LINE_BYTES:
            found.append((lineno, None, f"line too long ({len(raw):,} bytes; a suite line holds at most {MAX_LINE_BYTES:,})"))
            continue
        text = raw.decode()
        found.append((lineno, text[1:] if lineno == 1 and text.startswith("\ufeff") else text, None))
    return found


@pytest.mark.parametrize("seed", range(3))
def test_read_lines_across_chunk_boundaries(tmp_path, seed):
    """Lines of every length around the 64 KiB chunk (read_lines reads a line inside one
    chunk at once, one across chunks piece by piece): the same lines as reading the file whole."""
    import random

    rng = random.Random(seed)
    parts = [b"\xef\xbb\xbfid x"]
    while sum(len(p) + 1 for p in parts) < 5 * MAX_LINE_BYTES:
        size = rng.choice([0, 1, 2, 30, 70, 4000, MAX_LINE_BYTES - 1, MAX_LINE_BYTES, MAX_LINE_BYTES + 1, MAX_LINE_BYTES + 2])
        line = bytes(rng.choice(b"abc;\r") for _ in range(min(size, 50))) + b"x" * max(0, size - 50)
        parts.append(line + (b"\r" if rng.random() < 0.3 else b""))
    data = b"\n".join(parts) + (b"\n" if seed else b"")
    path = write(tmp_path, "chunks.epd", data)
    assert list(read_lines(path)) == _lines_of(data)


def test_a_50_mb_line_is_read_in_bounded_memory(tmp_path):
    """Under an address-space limit of what the interpreter already uses plus 40 MiB, a
    file with a 50 MB line is read (the line reported, the next one counted); reading the
    line whole would need more than the limit."""
    path = tmp_path / "huge.epd"
    with open(path, "wb") as handle:
        handle.write(f"{START4} ;D1 20\n".encode())
        handle.write(b"x" * (50 * 1024 * 1024))
        handle.write(f"\n{KIWI4} ;D1 48\n".encode())
    program = f"""
import resource, sys
sys.path.insert(0, {str(REPO)!r})
from pathlib import Path
from chesskit.suites.formats import read_suite, SuiteRecord
import chesskit.board.fen  # everything parsing needs, loaded before the limit
with open("/proc/self/statm") as f:
    used = int(f.read().split()[0]) * resource.getpagesize()
limit = used + 40 * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
try:
    Path({str(path)!r}).read_bytes()
    print("whole read fit")  # the limit would prove nothing
except MemoryError:
    pass
entries = read_suite(Path({str(path)!r}))
print([(e.lineno, isinstance(e, SuiteRecord)) for e in entries])
"""
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[(1, True), (2, False), (3, True)]"


# ------------------------------------------------------------------ one EPD reader (issue 25 item 3)


@pytest.mark.parametrize(
    "line",
    [
        f'{START4} id "a"; D1 20; bm e4; bm d4;',  # a repeated opcode: the suite kept it
        f'{START4} id "a"; D1 20; c0 "x"; c0 "y";',
        f'{START4} 0 4611686018427387904 id "a"; D1 20;',  # a clock of 19 digits: the suite refused it
        f'{START4} hmvc 0; fmvn 4611686018427387905; id "a"; D1 20;',  # past MAX_CLOCK
        f'{START4} 0 1 hmvc 3; id "a"; D1 20;',
        f'{START4} id "a"; D1 20; perft 2 400; perft 3 8902;',  # perft DEPTH COUNT may repeat
        f'{START4} id "a"; D1 20; 1x 5;',
    ],
)
def test_perft_and_suite_read_a_line_the_same_way(tmp_path, line):
    from chesskit.board.fen import parse_epd
    from chesskit.errors import InputError

    try:
        parse_epd(line)
        accepted = True
    except InputError:
        accepted = False
    entries = read_suite(write(tmp_path, "one.epd", line + "\n"))
    assert len(records(entries)) == int(accepted), entries


def test_an_id_found_by_perft_is_the_suites():
    from chesskit.suites.positions import scan_id as positions_scan_id
    from chesskit.suites.formats import scan_id

    assert positions_scan_id is scan_id


def test_a_record_keeps_its_position_and_counts_without_reading_its_fen_again(monkeypatch):
    # every standard and Chess960 position bundled: the board a record makes from what it
    # kept of its line is the board its FEN gives, and making it reads no FEN (a suite of
    # small positions spent a fifth of its time reading each FEN twice)
    import numpy as np

    from chesskit.board import board as board_module
    from chesskit.board.board import Board
    from chesskit.suites.runner import load_entries

    records = [r for r in load_entries().records if r.variant == "chess"]
    assert len(records) > 100 and any(r.chess960 for r in records)
    made = [(r, r.board()) for r in records]
    for record, board in made:
        given = Board(record.fen, chess960=record.chess960 or None)
        assert all(np.array_equal(a, b) for a, b in zip(board._state(), given._state())), record.label
        assert (board.chess960, board.fen(), board.notes) == (given.chess960, given.fen(), list(record.notes))

    def no_parsing(*args, **kwargs):
        raise AssertionError("the FEN was read again")

    monkeypatch.setattr(board_module, "parse_fen", no_parsing)
    counted = [r for r in records if 2 in r.depths][:20]
    assert counted and all(r.board().perft(2) == r.depths[2] for r in counted)  # the published counts


@pytest.mark.parametrize(
    "name, data",
    [
        ("mac.epd", f"{START4} ;D1 20\r{KIWI4} ;D1 48\r"),
        ("mac.perft", "id s\repd " + START4 + "\rperft 1 20\r"),
    ],
)
def test_a_file_whose_lines_end_in_a_bare_carriage_return_says_so(tmp_path, name, data):
    # read as one line, it said "EPD operation 'D1' appears twice"
    entries = read_suite(write(tmp_path, name, data))
    assert records(entries) == []
    assert errors(entries) == [(1, "a carriage return inside the line: lines end in '\\n' or '\\r\\n', not a bare '\\r' (old Mac line ends)")]


def test_a_perft_block_whose_only_count_is_bad_is_one_error(tmp_path):
    # the bad 'perft' line was reported, then its block again ("no D<n> opcodes", an EPD
    # word in a .perft file): two errors, a doubled JUnit case and pytest id, for one mistake
    text = f"id bigdepth\nepd {START4}\nperft 101 15\nid fine\nepd {START4}\nperft 1 20\n"
    entries = read_suite(write(tmp_path, "one.perft", text))
    assert [line for line, _ in errors(entries)] == [3]
    assert [r.id for r in records(entries)] == ["fine"]


def test_a_comment_of_another_language_is_an_error_that_says_what_a_comment_is(tmp_path):
    text = f"// a C comment\n; a Lisp one\n# ours\n{START4} ;D1 20\n"
    entries = read_suite(write(tmp_path, "notes.epd", text))
    found = dict(errors(entries))
    assert list(found) == [1, 2]
    assert all(why.endswith("(a comment line starts with '#' or '%')") for why in found.values())
    assert [r.depths for r in records(entries)] == [{1: 20}]
