"""Loading EPD suites, planning within limits, running, and the errors naming file:line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ENGINES

from chesskit.errors import InputError
from chesskit.suites import runner
from chesskit.suites.positions import positions_dir
from chesskit.suites.runner import (
    DEFAULT_MAX_NODES,
    load_entries,
    load_file,
    load_suites,
    plan,
    run,
    suite_paths,
)

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"

SMALL_SUITE = f"""\
# a small suite: counts from the Perft Results page
{START} id "start"; D1 20; D2 400; D3 8902; D4 197281;

{KIWIPETE} id "kiwi"; D1 48; D2 2039; D3 97862; S1 "captures=8 checks=0";
{POS3} id "pos3"; D1 14; D2 191; D3 2812; hmvc 0; fmvn 1;
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ loading


def test_load_records(tmp_path):
    path = write(tmp_path, "small.epd", SMALL_SUITE)
    records = load_file(path)
    assert [r.id for r in records] == ["start", "kiwi", "pos3"]
    start, kiwi, pos3 = records
    assert start.fen == START + " 0 1"
    assert start.depths == {1: 20, 2: 400, 3: 8902, 4: 197281}
    assert start.lineno == 2 and start.path == path
    assert kiwi.lineno == 4
    assert kiwi.stats == {1: "captures=8 checks=0"}
    assert pos3.fen == POS3 + " 0 1"
    assert not any(r.chess960 for r in records)


def test_record_without_id_is_named_after_file_and_line(tmp_path):
    path = write(tmp_path, "anon.epd", f"{START} D1 20;\n")
    (record,) = load_file(path)
    assert record.id == "anon:1"


def test_six_field_perftsuite_style(tmp_path):
    path = write(tmp_path, "six.epd", f"{START} 0 1 ;D1 20 ;D2 400\n")
    (record,) = load_file(path)
    assert record.depths == {1: 20, 2: 400}


def test_folder_loads_every_epd_file_sorted(tmp_path):
    write(tmp_path, "b.epd", f'{START} id "b"; D1 20;\n')
    write(tmp_path, "a.epd", f'{KIWIPETE} id "a"; D1 48;\n')
    write(tmp_path, "notes.txt", "not a suite\n")
    assert [r.id for r in load_suites([tmp_path])] == ["a", "b"]


def test_same_file_twice_loads_once(tmp_path):
    path = write(tmp_path, "a.epd", f'{START} id "a"; D1 20;\n')
    assert len(load_suites([path, tmp_path, str(path)])) == 1


@pytest.mark.parametrize(
    "line, why",
    [
        (f'{START} id "x"; D1 twenty;', "D1"),
        (f'{START} id "x"; D1 -20;', "D1"),
        (f'{START} id "x";', "no D<n>"),
        ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - id "x"; D1 20;', "invalid FEN"),
        ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - id "x"; D1 20;', "invalid FEN"),
        (f'{START} id "x; D1 20;', "unterminated"),
        ("just some words", "invalid FEN"),
    ],
)
def test_unreadable_line_names_file_and_line(tmp_path, monkeypatch, line, why):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "bad.epd", f"# header\n{START} id \"fine\"; D1 20;\n{line}\n")
    with pytest.raises(InputError) as info:
        load_suites(["bad.epd"])
    message = str(info.value)
    assert message.startswith("bad.epd:3: ")
    assert why in message
    assert "\n" not in message


def test_ids_repeated_across_files_are_told_apart_by_the_file_name(tmp_path, monkeypatch):
    from chesskit.suites.runner import load_entries

    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.epd", f'{START} id "same"; D1 20;\n{POS3} id "only-a"; D1 14;\n')
    write(tmp_path, "b.epd", f'\n{KIWIPETE} id "same"; D1 48;\n')
    loaded = load_entries(["a.epd", "b.epd"])
    assert loaded.errors == []
    assert [(r.id, r.label) for r in loaded.records] == [
        ("same", "a.epd:same"), ("only-a", "only-a"), ("same", "b.epd:same"),
    ]


def test_ids_repeated_across_files_of_the_same_name_show_their_path(tmp_path, monkeypatch):
    from chesskit.suites.runner import load_entries

    monkeypatch.chdir(tmp_path)
    for folder, fen in (("one", START), ("two", KIWIPETE)):
        (tmp_path / folder).mkdir()
        write(tmp_path / folder, "set.epd", f'{fen} id "same"; D1 20;\n')
    loaded = load_entries(["one/set.epd", "two/set.epd"])
    assert [r.label for r in loaded.records] == ["one/set.epd:same", "two/set.epd:same"]


def test_duplicate_id_within_a_file_is_an_error_for_that_line(tmp_path, monkeypatch):
    from chesskit.suites.runner import load_entries

    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.epd", f'{START} id "same"; D1 20;\n{POS3} id "x"; D1 14;\n{KIWIPETE} id "same"; D1 48;\n')
    loaded = load_entries(["a.epd"])
    assert [r.id for r in loaded.records] == ["same", "x"]
    assert [str(e) for e in loaded.errors] == ["a.epd:3: duplicate id 'same' (first at line 1)"]
    with pytest.raises(InputError, match=r"^a\.epd:3: duplicate id 'same'"):
        load_suites(["a.epd"])


def test_missing_path(tmp_path):
    with pytest.raises(InputError, match="no such suite file or folder"):
        load_suites([tmp_path / "nope.epd"])


@pytest.mark.parametrize("name, file", [
    ("impossible.epd", "impossible.epd"), ("impossible", "impossible.epd"),
    ("atomic", "variants/atomic.epd"), ("variants/atomic.epd", "variants/atomic.epd"),
])
def test_a_bundled_suite_is_found_by_its_name(tmp_path, monkeypatch, name, file):
    # an installed chesskit has no positions/ folder to name: ci.md's "name positions/impossible.epd"
    # and the skip line's "name the file" led to "no such suite file or folder"
    monkeypatch.chdir(tmp_path)
    loaded = load_entries([name])
    assert loaded.files == [positions_dir() / file]
    assert len(loaded.records) == len(load_entries([positions_dir() / file]).records) > 10


def test_a_file_here_comes_before_a_bundled_one_and_an_unknown_name_is_missing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "impossible.epd").write_text("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n")
    assert [r.fen for r in load_entries(["impossible.epd"]).records] == ["8/8/8/8/8/8/8/K6k w - - 0 1"]
    with pytest.raises(InputError, match="no such suite file or folder: nothere.epd"):
        load_suites(["nothere.epd"])


def test_empty_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n")  # not a suite file's name
    with pytest.raises(InputError, match=r"^no suite files \(\*\.epd or \*\.perft\) in "):
        load_suites([tmp_path])


def test_suite_file_without_positions(tmp_path):
    (tmp_path / "a.epd").write_text("# a comment only\n\n")
    with pytest.raises(InputError, match=r"^no suite positions found in .*a\.epd: no line is a position$"):
        load_suites([tmp_path / "a.epd"])
    with pytest.raises(InputError, match=r"^no suite positions found in "):
        load_suites([tmp_path])  # the folder has a suite file: it is read, and holds nothing


def test_undecodable_file(tmp_path):
    path = tmp_path / "binary.epd"
    path.write_bytes(b"\xff garbage")  # (a UTF-16 byte-order mark is refused for the whole file)
    with pytest.raises(InputError, match=r"binary\.epd:1: not UTF-8 text \(byte 0xff at column 1\)"):
        load_suites([path])


def test_default_is_the_positions_folder():
    files = suite_paths()
    assert files, "positions/ should hold the bundled suites"
    assert all(f.parent == positions_dir() and f.suffix == ".epd" for f in files)


def test_bundled_suites_load():
    records = load_suites()
    assert len(records) >= 6
    ids = {r.id for r in records}
    assert "kiwipete" in ids
    assert all(r.depths for r in records)


# ------------------------------------------------------------------ planning


def test_plan_limits(tmp_path):
    records = load_file(write(tmp_path, "s.epd", SMALL_SUITE))
    everything = plan(records, max_depth=None, max_nodes=None)
    assert len(everything) == 10
    by_depth = plan(records, max_depth=2, max_nodes=None)
    assert [(t.record.id, t.depth) for t in by_depth] == [
        ("start", 1), ("start", 2), ("kiwi", 1), ("kiwi", 2), ("pos3", 1), ("pos3", 2),
    ]
    by_nodes = plan(records, max_depth=None, max_nodes=3000)
    assert [(t.record.id, t.depth) for t in by_nodes] == [
        ("start", 1), ("start", 2), ("kiwi", 1), ("kiwi", 2), ("pos3", 1), ("pos3", 2), ("pos3", 3),
    ]
    assert all(t.expected == t.record.depths[t.depth] for t in by_nodes)
    assert plan(records, max_depth=0) == []


def test_default_node_limit_keeps_the_default_run_short():
    tasks = plan(load_suites())
    assert tasks
    assert all(t.expected <= DEFAULT_MAX_NODES for t in tasks)


# ------------------------------------------------------------------ running


def test_run_matches(tmp_path):
    records = load_file(write(tmp_path, "s.epd", SMALL_SUITE))
    results = list(run(plan(records, max_nodes=10_000)))
    assert len(results) == 8
    assert all(r.ok and r.divide is None for r in results), [r.to_json() for r in results]
    assert results[0].to_json() == {
        "id": "start", "fen": START + " 0 1", "depth": 1, "expected": 20, "nodes": 20, "ok": True, "notes": [],
        "file": str(records[0].path), "line": 2,
    }
    assert all(r.seconds >= 0 for r in results)


def test_run_mismatch_carries_the_divide_once(tmp_path):
    wrong = f'{KIWIPETE} id "kiwi"; D1 48; D2 2040; D3 97863;\n'
    records = load_file(write(tmp_path, "w.epd", wrong))
    results = list(run(plan(records, max_nodes=None)))
    assert [r.ok for r in results] == [True, False, False]
    first, deeper = results[1], results[2]
    assert first.nodes == 2039 and first.task.expected == 2040
    assert first.divide is not None and len(first.divide) == 48
    assert sum(first.divide.values()) == 2039
    assert list(first.divide) == sorted(first.divide)
    assert deeper.divide is None  # only the shallowest mismatch of a position


# ------------------------------------------------------------------ resolving POSITION


def test_resolve_startpos_and_fen():
    from chesskit.suites.positions import STARTING_FEN, resolve_position

    assert resolve_position("startpos") == (STARTING_FEN, "startpos")
    assert resolve_position(f"  {KIWIPETE} 0 1 ") == (f"{KIWIPETE} 0 1", None)
    # anything with a '/' is a FEN, validated later by Board, not here
    assert resolve_position("not/a fen") == ("not/a fen", None)


def test_resolve_suite_id(tmp_path):
    from chesskit.suites.positions import resolve_position

    write(tmp_path, "s.epd", SMALL_SUITE)
    assert resolve_position("kiwi", folder=tmp_path) == (KIWIPETE + " 0 1", "kiwi")
    assert resolve_position("pos3", folder=tmp_path) == (POS3 + " 0 1", "pos3")


def test_resolve_bundled_kiwipete():
    from chesskit.suites.positions import resolve_position

    fen, ident = resolve_position("kiwipete")
    assert ident == "kiwipete"
    assert fen.split()[:4] == KIWIPETE.split()


def test_a_chess960_id_resolves_to_its_shredder_fen_and_compare_reports_it(cli):
    # QA 40 #2: compare showed c960-0 in X-FEN (KQkq, which reads as standard chess) as the
    # FEN the engine was given, where the engine got HFhf and every other command shows it
    from chesskit.suites.positions import resolve_position

    fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    assert resolve_position("c960-0") == (fen, "c960-0")
    result = cli("compare", "c960-0", "2", "--script", str(ENGINES / "eng_correct.py"), "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["fen"] == shown["engine_fen"] == shown["chesskit_fen"] == fen


def test_resolve_unknown_id(tmp_path):
    from chesskit.suites.positions import resolve_position

    write(tmp_path, "s.epd", SMALL_SUITE)
    with pytest.raises(InputError) as info:
        resolve_position("nonesuch", folder=tmp_path)
    assert str(info.value) == (
        "unknown position 'nonesuch': not a FEN, 'startpos', or a suite id "
        "(try: startpos, start, kiwi, pos3)"
    )
    with pytest.raises(InputError, match=r"did you mean 'kiwi'\?"):
        resolve_position("kiwj", folder=tmp_path)


def test_bundled_variant_ids_are_suggested_and_named_under_another_variant():
    from chesskit.suites.positions import resolve_position

    # "did you mean" looked at the standard ids only (the list of startpos, kiwipete, ...)
    with pytest.raises(InputError, match=r"did you mean 'atomic-start'"):
        resolve_position("atomic-strt", variant="atomic")
    with pytest.raises(InputError, match=r"did you mean 'racingkings-last-chance'"):
        resolve_position("racingkings-last-chanse", variant="racingkings")
    with pytest.raises(InputError, match=r"\(try: startpos, atomic-start, "):
        resolve_position("nonesuch", variant="atomic")
    # an atomic id under crazyhouse: "EPD operation variant 'atomic' contradicts ..." was said
    with pytest.raises(InputError, match=r"^'atomic-start' is an atomic position \(.*\): count it with --variant atomic"):
        resolve_position("atomic-start", variant="crazyhouse")


def test_resolving_an_id_ignores_bad_lines_elsewhere_but_not_its_own(tmp_path, monkeypatch):
    from chesskit.suites.positions import resolve_position

    monkeypatch.chdir(tmp_path)
    write(tmp_path, "s.epd", SMALL_SUITE + '8/8/8/8/8/8/8/8 w - - id "empty"; D1 0;\n')
    assert resolve_position("kiwi", folder=tmp_path)[1] == "kiwi"
    with pytest.raises(InputError, match=r"^s\.epd:6: invalid FEN"):
        resolve_position("empty", folder=tmp_path)


def test_the_table_serves_only_counts_of_depth_5_and_more(tmp_path, monkeypatch):
    """No count to depth 4 or less can find an entry in the table (runner.TABLE_FROM_DEPTH):
    a suite of such counts makes no table and walks without one; a depth-5 count gets the
    shared table, made once. The counts are the Perft Results page's either way."""
    from chesskit.board.board import Board
    from chesskit.core import hashtable

    made, given = [], []
    allocate, perft = hashtable.allocate, Board.perft
    monkeypatch.setattr(hashtable, "allocate", lambda mb: (mb and made.append(mb)) or allocate(mb))  # 0: no table

    def spied(self, depth, *args, table=None, **kwargs):
        if table is not None:  # None: run's warm-up, Board().perft(1)
            given.append((depth, table.shape[0]))
        return perft(self, depth, *args, table=table, **kwargs)

    monkeypatch.setattr(Board, "perft", spied)
    shallow = load_file(write(tmp_path, "s.epd", SMALL_SUITE))
    for threads, processes in ((1, True), (2, False), (2, True)):
        monkeypatch.setattr(runner, "PROCESSES", processes)  # a worker process's counts are not seen here
        made.clear(), given.clear()
        assert all(r.ok for r in run(plan(shallow, max_nodes=None), threads=threads, hash_mb=1))
        assert made == [] and {size for _, size in given} == ({0} if threads == 1 or not processes else set())
    deep = load_file(write(tmp_path, "d.epd", f'{POS3} id "pos3"; D4 43238; D5 674624;\n{START} id "s"; D5 4865609;\n'))
    made.clear(), given.clear()
    assert all(r.ok for r in run(plan(deep, max_nodes=None), hash_mb=1))
    assert made == [1] and given[0] == (4, 0) and given[1][0] == 5 and given[1][1] > 0 and given[2] == given[1]
