"""``chesskit suite`` over files with bad lines, repeated ids, .perft files, threads.

Counts are the Perft Results page's (start position, Kiwipete, position 3).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from chesskit.cli import output

START4 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
KIWI4 = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
POS3_4 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"

# a bad line in the middle of good ones: line 3 cannot be read, line 4's depth is past the cap
MIDDLE = (
    f'{START4} id "start"; D1 20; D2 400; D3 8902;\n'
    f'{KIWI4} id "kiwi"; D1 48; D2 2039;\n'
    "this line is not a position\n"
    f'{POS3_4} id "deep"; D1 14; D100000 1;\n'
    f'{POS3_4} id "pos3"; D1 14; D2 191; D3 2812; D4 43238;\n'
)


@pytest.fixture
def middle(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # paths are shown relative to the working directory
    (tmp_path / "middle.epd").write_text(MIDDLE)
    return "middle.epd"


def test_bad_lines_in_the_middle_are_named_and_the_rest_is_counted(cli, middle):
    result = cli("suite", middle, "--threads", "1")
    assert result.exit_code == 2, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[:2] for line in lines[:5]] == [
        ["ok", "start"], ["ok", "kiwi"], ["ERROR", "middle.epd:3:"], ["ERROR", "middle.epd:4:"], ["ok", "pos3"],
    ]
    assert "invalid FEN: piece placement: expected 8 ranks separated by '/', found 1" in lines[2]
    assert "D100000: depth '100000' is not an integer from 0 to 100" in lines[3]
    assert lines[-1].endswith("9 passed, all match, 2 lines not run (errors)")
    assert result.stderr.startswith("chesskit: 2 lines could not be run (first: middle.epd:3: ")
    assert result.stderr.count("\n") == 1


def test_mismatch_comes_before_bad_lines_in_the_exit_code(cli, middle):
    wrong = MIDDLE.replace("D2 2039", "D2 2040")
    with open(middle, "w") as handle:
        handle.write(wrong)
    result = cli("suite", middle, "--threads", "1")
    assert result.exit_code == 1
    assert result.stderr == (
        "chesskit: 1 of 9 counts did not match; 2 lines could not be run "
        "(first: middle.epd:3: invalid FEN: piece placement: expected 8 ranks separated by '/', found 1)\n"
    )


def test_only_bad_lines_exit_2(cli, tmp_path):
    path = tmp_path / "all-bad.epd"
    path.write_text("nothing here\nor here\n")
    result = cli("suite", str(path))
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0].startswith("ERROR ")
    assert "2 lines could not be run" in result.stderr


def test_json_lists_the_lines_not_run(cli, middle):
    result = cli("suite", middle, "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert (data["passed"], data["failed"], data["errors"]) == (9, 0, 2)
    assert data["error_lines"] == [
        {
            "file": "middle.epd", "line": 3, "id": None,
            "error": "invalid FEN: piece placement: expected 8 ranks separated by '/', found 1",
        },
        {
            "file": "middle.epd", "line": 4, "id": "deep",
            "error": "D100000: depth '100000' is not an integer from 0 to 100",
        },
    ]
    assert {r["id"] for r in data["results"]} == {"start", "kiwi", "pos3"}
    assert all(r["file"] == "middle.epd" for r in data["results"])
    assert [r["line"] for r in data["results"] if r["id"] == "pos3"] == [5, 5, 5, 5]


def test_junit_has_an_error_per_bad_line_and_stays_well_formed(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = MIDDLE + f'{KIWI4} id "ctl\x1b[2J\x07"; D1 48; D2 x;\n{START4} id "bell\x07"; D1 20;\n'
    (tmp_path / "ctl.epd").write_text(text)
    result = cli("suite", "ctl.epd", "--junit", "report.xml")
    assert result.exit_code == 2
    root = ET.parse(tmp_path / "report.xml").getroot()  # raises on ill-formed XML
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("13", "0", "3")
    errors = {case.get("name"): case.find("error") for case in root.iter("testcase") if case.find("error") is not None}
    assert set(errors) == {"line 3", "deep", "ctl\\x1b[2J\\x07"}
    assert all(e.get("type") == "input" for e in errors.values())
    assert errors["deep"].get("message") == "ctl.epd:4: D100000: depth '100000' is not an integer from 0 to 100"
    names = [case.get("name") for case in root.iter("testcase")]
    assert "bell\\x07 D1" in names
    # and the terminal never gets the raw escape sequence
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "\x07" not in result.stderr


def test_terminal_shows_the_lines_not_run(cli, middle, monkeypatch):
    monkeypatch.setattr(output, "stdout_is_terminal", lambda: True)
    result = cli("suite", middle)
    assert result.exit_code == 2
    assert "lines not run" in result.stdout
    assert "middle.epd:4" in result.stdout and "deep" in result.stdout
    assert "2 lines not" in result.stdout


def test_two_files_with_the_same_ids_run_together(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.perft").write_text(f"id pos\nepd {START4}\nperft 1 20\nperft 2 400\n")
    (tmp_path / "two.perft").write_text(f"id pos\nepd {KIWI4}\nperft 1 48\nid other\nepd {POS3_4}\nperft 1 14\n")
    result = cli("suite", "one.perft", "two.perft", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [(r["id"], r["depth"], r["nodes"]) for r in data["results"]] == [
        ("one.perft:pos", 1, 20), ("one.perft:pos", 2, 400), ("two.perft:pos", 1, 48), ("other", 1, 14),
    ]
    plain = cli("suite", "one.perft", "two.perft").stdout.splitlines()
    assert [line.split()[:2] for line in plain[:3]] == [
        ["ok", "one.perft:pos"], ["ok", "two.perft:pos"], ["ok", "other"],
    ]


def test_bundled_ids_still_work_as_positions(cli):
    result = cli("perft", "kiwipete", "2")
    assert result.exit_code == 0 and "Nodes searched: 2039" in result.stdout


def test_a_folder_runs_its_perft_files_too(cli, tmp_path):
    (tmp_path / "a.epd").write_text(f'{START4} id "a"; D1 20;\n')
    (tmp_path / "b.perft").write_text(f"id b\nepd {KIWI4}\nperft 1 48\n")
    data = json.loads(cli("suite", str(tmp_path), "--json").stdout)
    assert [r["id"] for r in data["results"]] == ["a", "b"]


def test_position_that_cannot_be_counted_is_an_error_for_its_line(cli, tmp_path, monkeypatch):
    # --stats reads the S<n> opcode only when it counts: a bad one is found while running
    monkeypatch.chdir(tmp_path)
    text = f'{START4} id "s"; D1 20; S1 "captures=lots";\n{KIWI4} id "kiwi"; D1 48;\n'
    (tmp_path / "s.epd").write_text(text)
    result = cli("suite", "s.epd", "--stats", "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert [(r["id"], r["ok"]) for r in data["results"]] == [("kiwi", True)]
    ((error),) = data["error_lines"]
    assert (error["line"], error["id"]) == (1, "s") and error["error"].startswith("S1: ")


# a clock at MAX_CLOCK (2**62) reads, but no move of the tree may take it past: the walk refuses it
AT_MAX = 4611686018427387904
CLOCK_PAST = "the moves of this tree would take the {} (now 4611686018427387904) past 4611686018427387904"


@pytest.mark.parametrize(
    "fields,ops,clock",
    [(f"{AT_MAX} 1", "D1 20;", "halfmove clock"), (f"0 {AT_MAX}", "D1 20; D2 400;", "fullmove number")],
)
@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_clock_the_walk_refuses_is_its_lines_error_and_the_rest_runs(cli, tmp_path, monkeypatch, fields, ops, clock, threads):
    """The walk's InputError while counting (not while reading) was the run's: one line, no
    FILE:LINE, the next line never run and no JSON at all."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "clock.epd").write_text(f'{START4} {fields} id "max"; {ops}\n{KIWI4} id "kiwi"; D1 48;\n')
    result = cli("suite", "clock.epd", "--threads", threads)
    assert result.exit_code == 2, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"ERROR clock.epd:1: {CLOCK_PAST.format(clock)}, the largest a FEN may give")
    assert lines[1].split()[:2] == ["ok", "kiwi"]
    assert result.stderr.startswith("chesskit: 1 line could not be run (first: clock.epd:1: ")
    data = json.loads(cli("suite", "clock.epd", "--threads", threads, "--json").stdout)
    assert [(e["line"], e["id"]) for e in data["error_lines"]] == [(1, "max")]
    assert CLOCK_PAST.format(clock) in data["error_lines"][0]["error"]
    assert [(r["id"], r["ok"]) for r in data["results"] if r["id"] == "kiwi"] == [("kiwi", True)]


def test_an_engine_mismatch_chesskit_cannot_descend_is_its_lines_error(cli, tmp_path, monkeypatch):
    """With an engine the counts are its own, but compare's descent of a mismatch walks
    chesskit's board: at a clock it refuses, that was the run's error too."""
    from helpers import FAKE_UCI

    monkeypatch.chdir(tmp_path)
    (tmp_path / "clock.epd").write_text(f'{START4} {AT_MAX} 1 id "max"; D1 21;\n{KIWI4} id "kiwi"; D1 48;\n')
    result = cli("suite", "clock.epd", "--engine", FAKE_UCI, "--json")
    assert result.exit_code == 2, result.output
    data = json.loads(result.stdout)
    ((error,),) = [data["error_lines"]]
    assert (error["line"], error["id"]) == (1, "max")
    assert error["error"].startswith("D1: expected 21, got 20 from the engine, and chesskit cannot walk this position: ")
    assert [(r["id"], r["ok"]) for r in data["results"]] == [("kiwi", True)]


# ------------------------------------------------------------------ threads


THREADED = "".join(
    f'{fen} id "{name}"; {ops}\n'
    for name, fen, ops in [
        ("start", START4, "D1 20; D2 400; D3 8902; D4 197281;"),
        ("kiwi", KIWI4, "D1 48; D2 2039; D3 97862;"),
        ("pos3", POS3_4, "D1 14; D2 191; D3 2812; D4 43238; D5 674624;"),
        ("kiwi-wrong", KIWI4, "D1 48; D2 2040; D3 97863;"),
        ("pos3-wrong", POS3_4, "D1 14; D2 191; D3 2812; D4 43239; D5 674624;"),
        ("bad", POS3_4, "D1 x;"),
    ]
    + [(f"start-{i}", START4, "D1 20; D2 400;") for i in range(12)]
)


@pytest.mark.parametrize("split_nodes", [20_000_000, 10_000])
def test_threads_give_the_same_results_as_one(cli, tmp_path, monkeypatch, split_nodes):
    """Many small positions over a pool, and (with a low split threshold) the bigger
    counts split over the threads: the same counts, divides and errors as one thread."""
    from chesskit.suites import runner

    monkeypatch.setattr(runner, "SPLIT_NODES", split_nodes)
    path = tmp_path / "t.epd"
    path.write_text(THREADED)

    def outcome(*args):
        result = cli("suite", str(path), "--json", "--max-nodes", "1e6", *args)
        assert result.exit_code == 1, result.output
        data = json.loads(result.stdout)
        return data["error_lines"], [{k: v for k, v in r.items()} for r in data["results"]]

    one = outcome("--threads", "1", "--hash", "0")
    assert outcome("--threads", "2") == one
    assert outcome("--threads", "3", "--hash", "1") == one
    errors, results = one
    assert [e["line"] for e in errors] == [6]
    bad = [(r["id"], r["depth"], r["nodes"]) for r in results if not r["ok"]]
    assert bad == [("kiwi-wrong", 2, 2039), ("kiwi-wrong", 3, 97862), ("pos3-wrong", 4, 43238)]
    divides = {r["id"]: sum(r["divide"].values()) for r in results if "divide" in r}
    assert divides == {"kiwi-wrong": 2039, "pos3-wrong": 43238}


# ------------------------------------------------------------------ hostile lines (issue 14)


@pytest.mark.parametrize(
    "line",
    [
        f"{START4} ;D1 20 ;D100000 1",  # a depth past the cap: never runs
        f"{START4} " + " ".join(f"D{n} 1;" for n in range(1, 1001)),  # a thousand depths
        f"{START4} ;D1 " + "2" * 5000,  # a count with thousands of digits (int() would raise)
        f"{START4} ;D1 2²",  # a superscript digit ('²'.isdigit() is True, int('²') raises)
        f"{START4} 0 " + "1" * 5000 + " ;D1 20",  # a clock with thousands of digits
    ],
)
def test_hostile_count_lines_are_errors_for_that_line_never_a_long_run_or_exit_70(run_module, tmp_path, line):
    path = tmp_path / "hostile.epd"
    path.write_text(f'{line}\n{KIWI4} id "kiwi"; D1 48;\n')
    proc = run_module("suite", str(path), "--threads", "1")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("chesskit: 1 line could not be run (first: ")
    assert proc.stderr.count("\n") == 1 and len(proc.stderr) < 400
    assert proc.stdout.splitlines()[0].startswith("ERROR ")
    assert proc.stdout.splitlines()[1].split()[:2] == ["ok", "kiwi"]


def test_bom_and_separators_inside_comments(cli, tmp_path):
    path = tmp_path / "bom.epd"
    path.write_bytes(
        "\ufeff# header\n# form feed \x0c and line separator \u2028 8/8/8/8/8/8/8/8 w - - D1 1;\n".encode()
        + f'{START4} id "start"; D1 20;\r\n'.encode()
    )
    result = cli("suite", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [(r["id"], r["line"]) for r in data["results"]] == [("start", 3)] and data["errors"] == 0


def test_a_latin1_comment_is_passed_over_and_a_latin1_position_is_not(cli, tmp_path):
    path = tmp_path / "l1.epd"
    path.write_bytes(b"# caf\xe9 comment\n% na\xefve\n" + f"{START4} ;D1 20\n".encode())
    result = cli("suite", str(path), "--threads", "1")
    assert result.exit_code == 0, result.output  # was: ERROR l1.epd:1: not UTF-8 text (byte 0xe9 at column 6)
    assert result.stdout.splitlines()[0].split()[:2] == ["ok", "l1:3"]
    path.write_bytes(b"# caf\xe9 comment\n" + f'{START4} ;D1 20; id "caf\xe9";\n'.encode("latin-1"))
    bad = cli("suite", str(path), "--threads", "1")
    assert bad.exit_code == 2 and bad.stdout.startswith("ERROR ") and ":2: not UTF-8 text (byte 0xe9 at column " in bad.stdout


def test_progress_over_split_counts_on_a_terminal(cli, tmp_path, monkeypatch):
    """The bar advances inside a split count too (Board.perft's progress), and what it is
    credited never makes the run's total wrong: the same results as on a pipe."""
    from chesskit.suites import runner

    seen: list[float] = []
    real_progress = output.progress

    def recording(total, description, counted=True):
        context = real_progress(total, description, counted)

        class Recorder:
            def __enter__(self):
                advance = context.__enter__()

                def record(amount=1):
                    seen.append(amount)
                    advance(amount)

                return record

            def __exit__(self, *exc):
                return context.__exit__(*exc)

        return Recorder()

    monkeypatch.setattr(runner, "SPLIT_NODES", 10_000)
    monkeypatch.setattr(output, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(output, "progress", recording)
    path = tmp_path / "t.epd"
    path.write_text(f'{POS3_4} id "pos3"; D1 14; D2 191; D3 2812; D4 43238; D5 674624;\n')
    result = cli("suite", str(path), "--threads", "2", "--json")
    assert result.exit_code == 0, result.output
    assert all(r["ok"] for r in json.loads(result.stdout)["results"])
    assert len(seen) > 5 + 2  # five counts, and parts of D4 and D5 as they finish
    assert sum(seen) == pytest.approx(14 + 191 + 2812 + 43238 + 674624 + 5)


def test_a_counter_mismatch_prints_its_block_and_the_command_that_splits_it(cli, tmp_path):
    # Kiwipete has 3 checks at depth 2 (the Perft Results page): 4 is wrong
    suite = tmp_path / "g.epd"
    suite.write_text(f'{KIWI4} id "kiwi"; D2 2039; S2 "checks=4";\n')
    result = cli("suite", str(suite), "--stats")
    assert result.exit_code == 1
    block = result.stdout.split("\n\n")[1].splitlines()
    assert block == [
        f"mismatch: kiwi ({suite}:1)",
        f"fen: {KIWI4} 0 1",
        "S2: checks expected 4, got 3",
        f"the counters by move: chesskit divide '{KIWI4} 0 1' 2 --stats",
        "positions: 0 passed, 1 mismatched, 0 engine errors, 0 skipped",
        "1 count (1 with leaf counters) of 1 position checked in " + block[-1].split(" in ")[1],
    ]


@pytest.mark.variant_walk  # compiles crazyhouse's walk on a cold cache
def test_a_variant_mismatch_regression_names_the_variant(cli, tmp_path):
    # 67 moves (Fairy-Stockfish: 5 king moves and 62 queen drops); 65 is wrong on purpose
    suite = tmp_path / "zh.epd"
    suite.write_text('4k3/8/8/8/8/8/8/4K3[Q] w - - id "zh"; variant crazyhouse; D1 65;\n')
    result = cli("suite", str(suite))
    assert result.exit_code == 1
    line = '4k3/8/8/8/8/8/8/4K3[Q] w - - id "zh"; variant crazyhouse; D1 65;'
    assert f"  {line}\n" in result.stdout
    assert 'chesskit.perft("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", 1, variant="crazyhouse") == 65' in result.stdout
    # pasted back, the line reads as the same position (it failed as a chess position: exit 2)
    pasted = tmp_path / "pasted.epd"
    pasted.write_text(line + "\n")
    assert cli("suite", str(pasted)).exit_code == 1


def test_a_skipped_position_keeps_its_expected_counts_in_json(cli, tmp_path):
    suite = tmp_path / "sk.epd"
    suite.write_text(f'{START4} id "deep"; D6 119060324;\n{START4} id "shallow"; D1 20;\n')
    data = json.loads(cli("suite", str(suite), "--json").stdout)
    (skipped,) = data["skipped"]
    assert skipped["id"] == "deep" and skipped["expected"] == {"6": 119060324}  # it was {}
