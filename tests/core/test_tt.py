"""The transposition table: hits only on the full key and depth; tiny tables stay exact."""

from __future__ import annotations

import numpy as np
import pytest

from chesskit.board.board import Board
from chesskit.board.tablesize import default_table_mb, memory_available_mb
from chesskit.core import position as P
from chesskit.core.tt import (
    _MIX,
    DEEP_PART,
    SMALL_WAYS,
    SPLIT_FROM,
    WAYS,
    _deep_words,
    _small_bucket,
    allocate,
    probe,
    store,
)
from chesskit.suites.runner import load_suites
from helpers import sf_divide


def test_allocate_rounds_small_tables_to_power_of_two_entries_and_large_ones_to_huge_pages():
    tt = allocate(1)  # 1 MiB: 65536 entries of 16 bytes
    assert tt.dtype == np.uint64 and tt.shape == (2 * 65536,)
    assert allocate(0).shape == (0,)
    assert allocate(0.0001).shape == (2 * 4,)  # 6 entries' worth rounds down to 4
    assert allocate(7.9).shape == (4 << 20 >> 3,)  # under 8 MiB: a power of two, 4 MiB
    assert allocate(10).shape == (10 << 20 >> 3,)  # from 8 MiB: whole 2 MiB pages, 10 MiB
    assert allocate(13.5).shape == (12 << 20 >> 3,)


@pytest.mark.parametrize("words", [SPLIT_FROM, 4 * SPLIT_FROM, 5 * SPLIT_FROM, 7 * SPLIT_FROM + 8, 10 << 17])
def test_a_table_of_any_number_of_lines_is_split_into_a_power_of_two_and_the_rest(words):
    """The deep section is the largest power of two within a quarter of the table (its
    buckets are picked by a mask), the depth-2 section every line after it, the first
    and the last line reached, no word outside the table."""
    deep = _deep_words(words)
    assert deep & (deep - 1) == 0 and deep <= words // DEEP_PART < 2 * deep
    lines = (words - deep) // 8
    firsts = {_small_bucket(words, np.uint64(k)) for k in (0, 1 << 32, (1 << 64) - 1, 0x8000_0000_0000_0000)}
    assert min(firsts) == deep and max(firsts) == deep + 8 * (lines - 1)
    tt = np.zeros(words, dtype=np.uint64)
    for i in range(200):  # keys spread over the whole range, upper bits too
        key = np.uint64((i * 0x9E37_79B9_7F4A_7C15 + 12345) % (1 << 64))
        store(tt, key, key, 2, i)
        store(tt, key, key, 3, i + 1000)
        assert probe(tt, key, key, 2) == i and probe(tt, key, key, 3) == i + 1000


@pytest.mark.parametrize("hash_mb", [10, 14])
def test_a_table_not_a_power_of_two_gives_the_published_counts(hash_mb):
    table = allocate(hash_mb)
    assert len(table) & (len(table) - 1) != 0  # 10 and 14 MiB are not powers of two
    assert Board(FENS[0]).perft(6, table=table) == 119_060_324  # chessprogramming.org, Perft Results
    assert Board(FENS[1]).perft(5, table=table) == 193_690_690
    assert _small_entries(table) > 0 and table[: _deep_words(len(table))].any()


def test_tables_are_aligned_to_cache_lines_and_zeroed():
    for megabytes in (0.001, 1, 16):  # the last one is mapped (huge pages where offered)
        tt = allocate(megabytes)
        assert tt.ctypes.data % 64 == 0
        assert tt.flags.writeable and tt.flags.c_contiguous
        assert not tt.any()
    assert allocate(16).shape == (2 * (16 << 20) // 16,)


def test_probe_needs_the_full_key_and_the_depth():
    tt = np.zeros(2, dtype=np.uint64)  # one entry: every key lands in the same slot
    key_a = np.uint64(0x1234_5678_9ABC_DEF0)
    key_b = np.uint64(0x1234_5678_9ABC_DEF1)  # differs in one low bit only
    store(tt, key_a, key_a, 3, 100)
    assert probe(tt, key_a, key_a, 3) == 100
    assert probe(tt, key_b, key_b, 3) == -1  # same slot, other position: a miss, not a hit
    assert probe(tt, key_a, key_a, 4) == -1  # same position, other depth
    store(tt, key_b, key_b, 5, 7)  # always replace
    assert probe(tt, key_b, key_b, 5) == 7
    assert probe(tt, key_a, key_a, 3) == -1


def test_a_position_sharing_the_bucket_key_is_told_apart_by_the_check_key():
    """Two positions with the same key 1 (the bucket's: here all of its 64 bits) and
    different keys 2 are two entries; with key 1 as the check too (the variant walk's
    one key), they would be one."""
    tt = _one_bucket()
    key, check_a, check_b = np.uint64(0x0123_4567_89AB_CDEF), np.uint64(0x1111), np.uint64(0x2222)
    store(tt, key, check_a, 3, 100)
    assert probe(tt, key, check_a, 3) == 100
    assert probe(tt, key, check_b, 3) == -1  # the other position: a miss
    store(tt, key, check_b, 3, 7)
    assert (probe(tt, key, check_a, 3), probe(tt, key, check_b, 3)) == (100, 7)


def _small_lines(table):
    """The depth-2 section's lines (8 words: six checks, then six 16-bit fields, count + 1)."""
    return table[_deep_words(len(table)) :].reshape(-1, 8)


def _small_fields(lines):
    """Each line's six fields."""
    return np.stack([(lines[:, SMALL_WAYS + w // 4] >> np.uint64(16 * (w % 4))) & np.uint64(0xFFFF) for w in range(SMALL_WAYS)], axis=1)


def _small_rewrite(table, change_count, change_check):
    """``table``'s depth-2 entries (in place) with each count and check changed: a word is
    check ^ field * MIX."""
    lines = _small_lines(table)
    fields = _small_fields(lines)
    for w in range(SMALL_WAYS):
        held = fields[:, w] != 0
        checks = lines[held, w] ^ (fields[held, w] * _MIX)
        new = fields[held, w] + np.uint64(change_count)
        lines[held, w] = (checks ^ np.uint64(change_check)) ^ (new * _MIX)
        word, shift = SMALL_WAYS + w // 4, np.uint64(16 * (w % 4))
        lines[held, word] = (lines[held, word] & ~(np.uint64(0xFFFF) << shift)) | (new << shift)


def _small_entries(table) -> int:
    return int(np.count_nonzero(_small_fields(_small_lines(table)))) if len(table) >= SPLIT_FROM else 0


def _rewrite(table, change_count, change_check):
    """A copy of ``table`` whose every stored count and check (key 2 for the walk) are
    changed (a deep entry is check ^ data, data = count << 6 | depth)."""
    marked = table.copy()
    deep = marked[: _deep_words(len(marked))]
    words, data = deep[0::2], deep[1::2]
    stored = data != 0
    checks = words[stored] ^ data[stored]
    data[stored] += np.uint64(change_count << 6)
    words[stored] = (checks ^ np.uint64(change_check)) ^ data[stored]
    if len(marked) >= SPLIT_FROM:
        _small_rewrite(marked, change_count, change_check)
    return marked


@pytest.mark.parametrize("threads", [1, 2])
def test_the_walk_takes_no_count_stored_for_another_key_2(threads):
    """A table filled by a walk, then every entry made another position's: the same key 1
    (the entry stays in its bucket) but another key 2, and a wrong count. The walk takes
    none of them; given back their own key 2 with the wrong count, it takes them (so it
    does read the table, and checks key 2)."""
    table = allocate(1)
    board = Board(FENS[1])
    assert board.perft(4, table=table, threads=threads) == DEPTH_4[1]
    assert board.perft(4, table=_rewrite(table, 1, 0), threads=threads) > DEPTH_4[1]
    for flip in (1, 1 << 63, 0xFFFF_FFFF_FFFF_FFFF):
        assert board.perft(4, table=_rewrite(table, 1, flip), threads=threads) == DEPTH_4[1]


def _split_table():
    return np.zeros(SPLIT_FROM, dtype=np.uint64)  # the smallest split table: 64 deep entries, 96 depth-2 ones


def test_the_depth_2_section_holds_depth_2_only_and_no_other_depth_reads_it():
    tt = _split_table()
    key, check = np.uint64(0x0123_4567_89AB_CDEF), np.uint64(0x0FED_CBA9_8765_4321)
    store(tt, key, check, 2, 700)
    assert probe(tt, key, check, 2) == 700
    assert not tt[: SPLIT_FROM // DEEP_PART].any() and _small_entries(tt) == 1  # nothing in the deep section
    for depth in (1, 3, 4, 5, 63):  # the same position at another depth: a miss
        assert probe(tt, key, check, depth) == -1
    store(tt, key, check, 3, 9000)  # and depth 3 goes to the deep section, beside it
    assert probe(tt, key, check, 3) == 9000 and probe(tt, key, check, 2) == 700
    assert int(np.count_nonzero(tt[: SPLIT_FROM // DEEP_PART])) == 2 and _small_entries(tt) == 1


def test_a_depth_2_count_too_large_for_its_field_is_not_stored():
    """A count of 16 bits: the largest a legal position has (218 * 218 = 47,524) and up to
    65,534 are held exactly; a larger one is left out, never read back wrapped."""
    tt = _split_table()
    for i, count in enumerate((0, 1, 47_524, 65_534)):
        key = np.uint64(0x1000 + i)
        store(tt, key, key, 2, count)
        assert probe(tt, key, key, 2) == count
    for i, count in enumerate((65_535, 65_536, 1 << 20, 1 << 40)):
        key = np.uint64(0x2000 + i)
        store(tt, key, key, 2, count)
        assert probe(tt, key, key, 2) == -1
    assert _small_entries(tt) == 4
    assert [probe(tt, np.uint64(0x1000 + i), np.uint64(0x1000 + i), 2) for i in range(4)] == [0, 1, 47_524, 65_534]


def test_a_depth_2_entry_needs_all_of_key_2_and_a_torn_one_is_a_miss():
    """A depth-2 entry is its check word (key 2 ^ field * MIX) and its 16-bit field in
    another word of the line: another key 2 (any bit) is a miss, and so is a check word
    or a field that another writer left (a line written by two threads at once)."""
    tt = _split_table()
    key, check = np.uint64(0xAAAA_0000_0000_0001), np.uint64(0x5555_1234_5678_9ABC)
    store(tt, key, check, 2, 321)
    for bit in (0, 17, 47, 48, 63):
        assert probe(tt, key, check ^ np.uint64(1 << bit), 2) == -1
    lines = _small_lines(tt)
    line = int(np.flatnonzero(lines[:, SMALL_WAYS])[0])
    torn = tt.copy()
    _small_lines(torn)[line, SMALL_WAYS] += np.uint64(1)  # the field of another count
    assert probe(torn, key, check, 2) == -1
    torn = tt.copy()
    _small_lines(torn)[line, 0] = check ^ np.uint64((999 + 1) * int(_MIX) % (1 << 64))  # the check word of another count
    assert probe(torn, key, check, 2) == -1
    assert probe(_split_table(), key, np.uint64(0), 2) == -1  # an empty line holds nothing, not even key 2 = 0


def test_the_depth_2_section_keeps_the_newest_entries_of_a_line():
    """Keys with the same upper 32 bits share a line: a new one pushes out the oldest,
    whatever the counts; storing one again neither moves nor doubles it."""
    tt = _split_table()
    keys = [np.uint64(0x7777_0000_0000_0000 | (i + 1)) for i in range(SMALL_WAYS + 2)]
    counts = [5000, 40, 30_000, 7000, 300, 2, 9, 12_000][: SMALL_WAYS + 2]
    for key, count in zip(keys[:SMALL_WAYS], counts[:SMALL_WAYS]):
        store(tt, key, key, 2, count)
    assert [probe(tt, k, k, 2) for k in keys[:SMALL_WAYS]] == counts[:SMALL_WAYS]
    store(tt, keys[0], keys[0], 2, counts[0])  # again: still one entry
    assert _small_entries(tt) == SMALL_WAYS
    store(tt, keys[SMALL_WAYS], keys[SMALL_WAYS], 2, counts[SMALL_WAYS])
    assert probe(tt, keys[0], keys[0], 2) == -1  # the oldest went
    assert [probe(tt, k, k, 2) for k in keys[1 : SMALL_WAYS + 1]] == counts[1 : SMALL_WAYS + 1]
    store(tt, keys[SMALL_WAYS + 1], keys[SMALL_WAYS + 1], 2, counts[SMALL_WAYS + 1])
    assert probe(tt, keys[1], keys[1], 2) == -1 and _small_entries(tt) == SMALL_WAYS
    assert [probe(tt, k, k, 2) for k in keys[2:]] == counts[2:]


def test_the_walk_reads_the_depth_2_section():
    """A table filled by a walk, then only its depth-2 entries' counts made one too high:
    the walk counts more (it reads them); with their checks changed too, exactly."""
    table = allocate(1)
    board = Board(FENS[1])
    assert board.perft(4, table=table) == DEPTH_4[1]
    assert _small_entries(table) > 0
    marked = table.copy()
    marked[: _deep_words(len(table))] = 0
    _small_rewrite(marked, 1, 0)
    assert board.perft(4, table=marked.copy()) > DEPTH_4[1]
    _small_rewrite(marked, 0, 1 << 40)
    assert board.perft(4, table=marked) == DEPTH_4[1]


def _keys(board: Board) -> tuple[int, int]:
    return board.key, int(P.compute_key2(board._bb, board._board, board._st))


def _positions(board: Board, plies: int) -> list[tuple[int, int]]:
    """Both keys of each position ``plies`` moves after ``board``'s (one per line)."""
    if plies == 0:
        return [_keys(board)]
    found = []
    for move in board._legal_packed():
        board.push(board.uci(int(move)))
        found += _positions(board, plies - 1)
        board.pop()
    return found


@pytest.mark.parametrize("threads", [1, 2])
def test_an_entry_with_the_same_key_1_and_another_key_2_is_not_taken(threads):
    """Hand-made entries for kiwipete, its children and grandchildren: key 1 the
    position's own, but the check another position's key 2 (or key 1 itself, as the table
    held it when it checked key 1: then any position with this key 1 would read it), and a
    wrong count. The walk counts exactly; with the position's own key 2 it reads them."""
    board = Board(FENS[1])
    lines = {plies: _positions(board, plies) for plies in (0, 1, 2)}
    for check in ("key 1", "other", "own"):
        table = allocate(4)
        for plies, found in lines.items():
            for key1, key2 in found:
                chosen = {"key 1": key1, "other": key2 ^ 0x5A5A, "own": key2}[check]
                store(table, np.uint64(key1), np.uint64(chosen), 4 - plies, 1)  # a count of 1: wrong
        counted = board.perft(4, table=table, threads=threads)
        if check == "own":  # the root's entry (one thread), or each task's: at depth 4 a child's
            assert counted == (1 if threads == 1 else len(lines[1]))
        else:
            assert counted == DEPTH_4[1], check


def _one_bucket():
    return np.zeros(2 * WAYS, dtype=np.uint64)  # every key lands in the one bucket


def test_a_bucket_holds_several_keys_and_replaces_the_smallest_count():
    tt = _one_bucket()
    keys = [np.uint64(0x1111_0000_0000_0000 * (i + 1) + 8 * i) for i in range(WAYS + 1)]
    counts = [5000, 40, 900_000, 7000, 300]
    for key, count in zip(keys[:WAYS], counts[:WAYS]):
        store(tt, key, key, 3, count)
    assert [probe(tt, k, k, 3) for k in keys[:WAYS]] == counts[:WAYS]  # all four kept
    store(tt, keys[WAYS], keys[WAYS], 2, counts[WAYS])  # a fifth: it goes in over the smallest (40)
    assert probe(tt, keys[WAYS], keys[WAYS], 2) == 300
    assert probe(tt, keys[1], keys[1], 3) == -1
    assert [probe(tt, keys[i], keys[i], 3) for i in (0, 2, 3)] == [5000, 900_000, 7000]
    store(tt, keys[1], keys[1], 3, 40)  # and a new entry is never refused: now over the 300
    assert probe(tt, keys[1], keys[1], 3) == 40 and probe(tt, keys[WAYS], keys[WAYS], 2) == -1
    assert probe(tt, keys[2], keys[2], 3) == 900_000  # the biggest stays throughout


def test_storing_a_key_again_updates_its_entry_in_place():
    tt = _one_bucket()
    key = np.uint64(0xABCD_0123_4567_89EF)
    store(tt, key, key, 4, 123)
    store(tt, np.uint64(77), np.uint64(77), 4, 1)
    store(tt, key, key, 4, 123)  # another thread stored the same result
    store(tt, key, key, 5, 999)  # the same position at another depth is another entry
    assert probe(tt, key, key, 4) == 123 and probe(tt, key, key, 5) == 999 and probe(tt, np.uint64(77), np.uint64(77), 4) == 1
    assert int(np.count_nonzero(tt[1::2])) == 3  # one entry per (key, depth)


def test_default_table_grows_with_depth_within_a_quarter_of_memory_and_half_from_depth_10():
    plenty = 1 << 20  # 1 TiB available
    assert [default_table_mb(d, plenty) for d in range(1, 11)] == [1, 1, 1, 1, 4, 16, 64, 256, 2048, 16384]
    assert default_table_mb(9, 2000) == 256  # a quarter of 2000 MiB is 500: 256 (a power of two)
    assert default_table_mb(8, 24 * 1024) == 256
    assert default_table_mb(9, 6 * 1024) == 1024  # a quarter of 6 GiB: 1.5 GiB, 1 GiB
    assert default_table_mb(10, 22 * 1024) == 8192  # half of 22 GiB: 11 GiB, 8 GiB (a quarter: 4 GiB)
    assert default_table_mb(12, 24 * 1024) == 8192  # 12 GiB is half: 8 GiB
    assert default_table_mb(6, 1) == 1  # never below 1 MiB
    available = memory_available_mb()
    assert available is None or available > 0
    assert default_table_mb(20) <= max(1, (available or 2048) // 2)


def test_a_full_table_still_counts_exactly():
    # one bucket for a whole depth-5 count (published: chessprogramming.org Perft Results)
    for fen, nodes in [(FENS[0], 4865609), (FENS[1], 193690690), (FENS[2], 674624)]:
        tt = _one_bucket()
        assert Board(fen).perft(5, table=tt) == nodes
        assert int(np.count_nonzero(tt[1::2])) == WAYS  # it was full throughout


def test_disabled_table_never_hits():
    tt = allocate(0)
    store(tt, np.uint64(1), np.uint64(1), 2, 3)
    assert probe(tt, np.uint64(1), np.uint64(1), 2) == -1


def test_torn_entry_is_a_miss():
    # a write interrupted between its two words must not read back as a hit
    tt = np.zeros(2, dtype=np.uint64)
    key = np.uint64(0xDEAD_BEEF_0000_0001)
    store(tt, key, key, 4, 1000)
    tt[1] = (np.uint64(999) << np.uint64(6)) | np.uint64(4)  # data from another writer
    assert probe(tt, key, key, 4) == -1


FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


# published depth-4 counts of FENS (chessprogramming.org, Perft Results)
DEPTH_4 = [197281, 4085603, 43238]


@pytest.fixture(scope="module")
def stockfish_divides(stockfish_path) -> list[dict[str, int]]:
    return [sf_divide(stockfish_path, fen, 4) for fen in FENS]


@pytest.mark.parametrize("which", range(len(FENS)), ids=["startpos", "kiwipete", "pos3"])
@pytest.mark.parametrize("hash_mb", [0.00002, 0.0001, 0.01, 4])  # 1, 4, 512 and 262144 entries
def test_any_table_size_gives_the_published_count(which, hash_mb, stockfish_divides):
    board = Board(FENS[which])
    assert board.perft(4, hash_mb=hash_mb) == DEPTH_4[which]
    assert board.divide(4, hash_mb=hash_mb) == stockfish_divides[which]


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("hash_mb", [0, 0.0001, 8])
def test_threads_and_hash_equal_plain_on_suite_sample(threads, hash_mb):
    # every 12th position of the suites, at its deepest depth of at most 300,000 nodes
    records = load_suites()[::12]
    assert len(records) >= 20
    for record in records:
        board = Board(record.fen, chess960=record.chess960 or None)
        depth, expected = max((d, n) for d, n in record.depths.items() if n <= 300_000)
        assert board.perft(depth, hash_mb=hash_mb, threads=threads) == expected, record.id
        assert sum(board.divide(depth, hash_mb=hash_mb, threads=threads).values()) == expected, record.id


def test_progress_reports_every_part_and_the_total():
    board = Board()
    seen = []
    total = board.perft(5, hash_mb=1, threads=2, progress=lambda done, of, nodes: seen.append((done, of, nodes)))
    assert total == 4865609
    assert seen[-1] == (20, 20, 4865609)  # depth 5: the tasks are the root's moves (board/threads.py)
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)


def test_a_table_reused_across_depths_stays_exact():
    board = Board(FENS[1])
    assert [board.perft(d, hash_mb=1) for d in range(1, 5)] == [48, 2039, 97862, 4085603]


def test_a_table_passed_in_serves_later_calls_and_other_positions():
    from chesskit.core.tt import allocate

    table = allocate(2)
    start, kiwi = Board(), Board(FENS[1])
    assert start.perft(5, table=table) == 4865609
    assert int(np.count_nonzero(table)) > 0  # the first call filled it
    # a second call reads what the first stored: in a copy whose every stored count is one
    # too high, it counts more than 4865609 (an entry is key ^ data, data = count << 6 | depth)
    marked = table.copy()
    keys, data = marked[0::2], marked[1::2]
    stored = data != 0
    keys[stored] ^= data[stored]
    data[stored] += np.uint64(1 << 6)
    keys[stored] ^= data[stored]
    assert start.perft(5, table=marked) > 4865609
    assert start.perft(5, table=table) == 4865609  # and from the table as it was, exactly
    assert kiwi.divide(3, table=table) == kiwi.divide(3)
    assert kiwi.perft(4, threads=2, table=table) == 4085603
