"""perft --stats for the variants: every counter of every variant against python-chess's
variant boards (tests/variant_counters_oracle.py applies docs/variants.md's definitions
move by move), perft and divide, and the CLI's outputs.

The counters' walk is compiled per variant on first use (10-30 CPU s on a cold cache), so every
test that counts is marked ``variant_walk`` (slow, grouped per variant); the names and the
docs' table are checked in the default run."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from chesskit.board import counternames, vcounters
from chesskit.board.board import Board
from chesskit.board.counters import COUNTERS, counter_names, only_stats, parse_stat_opcode, total
from chesskit.errors import InputError
from helpers import subprocess_env
from variant_counters_oracle import python_chess_counters, python_chess_divide_counters

ROOT = Path(__file__).resolve().parents[2]

# (variant, FEN, depth): start positions and positions where each variant's own counters fire
CASES = [
    ("kingofthehill", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
    ("kingofthehill", "4k3/8/8/8/8/3K4/8/3r4 w - - 0 1", 3),
    ("kingofthehill", "r3k2r/8/8/3Pp3/8/2K5/1p6/R3B2R w kq e6 0 1", 3),
    ("3check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1", 3),
    ("3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 1+2 0 1", 3),
    ("3check", "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 2+2 0 1", 2),
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", 3),
    ("racingkings", "8/1k3K2/8/8/8/8/8/8 w - - 0 1", 3),
    ("horde", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1", 2),
    ("horde", "4k3/8/8/8/8/8/3p4/P3P2P w - - 0 1", 3),
    ("horde", "4k3/3P4/8/8/8/8/8/8 b - - 0 1", 3),  # Kxd7 takes White's last piece
    ("antichess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 3),
    ("antichess", "8/8/8/8/8/8/p7/1R6 b - - 0 1", 3),
    ("antichess", "8/1P6/8/8/3pP3/8/8/8 b - e3 0 1", 3),
    ("giveaway", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2),
    ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
    ("atomic", "4k3/8/8/8/8/2nb4/8/3RK3 w - - 0 1", 3),
    ("atomic", "rnb1kbnr/pppp1ppp/8/4p3/3qP3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", 2),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", 3),
    ("crazyhouse", "3rk3/8/8/8/8/8/8/3Q~K3[] b - - 0 1", 3),
    ("crazyhouse", "4k3/8/8/8/8/8/r7/4K3[NPq] w - - 0 1", 2),
]


def _case_id(case) -> str:
    return f"{case[0]}-{CASES.index(case)}"


def _names(variant: str) -> tuple[str, ...]:
    return vcounters.names(Board(variant=variant).variant)


# ------------------------------------------------------------------ the default run: names


def test_every_variant_has_its_counters_and_standard_chess_keeps_its_eight():
    from chesskit.variants import VARIANTS

    for variant in VARIANTS:
        if variant.name == "chess":
            continue
        names = vcounters.names(variant.name)
        assert names[0] == "nodes" and len(set(names)) == len(names)
        assert set(names) <= set(vcounters.ROW)
    assert "checks" not in vcounters.names("antichess") and "checks" not in vcounters.names("racingkings")
    row = dict.fromkeys(COUNTERS, 1)
    assert list(only_stats(row)) == list(COUNTERS[1:])
    assert total([row, row]) == dict.fromkeys(COUNTERS, 2)


def test_the_names_follow_the_compiled_rows():
    from chesskit.core import stats, vstats

    assert vcounters.ROW[: len(COUNTERS)] == COUNTERS and len(COUNTERS) == stats.N_COUNTERS
    assert len(vcounters.ROW) == vstats.N_VCOUNTERS
    for name, index in [("checkmates", stats.MATES), ("discovery_checks", stats.DISCOVERY), ("en_passant", stats.EN_PASSANTS)]:
        assert COUNTERS.index(name) == index
    for name, index in [("drops", vstats.DROPS), ("exploded_pieces", vstats.EXPLODED), ("no_moves", vstats.NO_MOVES)]:
        assert vcounters.ROW.index(name) == index


def test_the_docs_table_lists_each_variants_counters():
    text = (ROOT / "docs" / "variants.md").read_text()
    table = dict(re.findall(r"^\| ([a-z0-9, ]+) \| ([a-z_, ]+) \|$", text, re.M))
    table.pop("variant")  # the heading
    for names, counters in table.items():
        for name in names.split(", "):
            assert counternames.VARIANT_COUNTERS[name] == tuple(counters.split(", ")), name
    assert {n for names in table for n in names.split(", ")} == set(counternames.VARIANT_COUNTERS)
    for name in vcounters.ROW[1:]:
        assert f"`{name}`" in text, name


# ------------------------------------------------------------------ against python-chess


@pytest.mark.variant_walk
@pytest.mark.parametrize("variant,fen,depth", CASES, ids=[_case_id(c) for c in CASES])
def test_counters_match_python_chess(variant, fen, depth):
    board = Board(fen, variant=variant)
    names = _names(variant)
    ours = [board.stats(d) for d in range(1, depth + 1)]
    assert ours == python_chess_counters(board.variant, fen, depth, names)
    from chesskit.board.counters import stats_by_depth

    assert stats_by_depth(board, depth) == ours
    assert board.divide_stats(depth) == python_chess_divide_counters(board.variant, fen, depth, names)


@pytest.mark.variant_walk
@pytest.mark.parametrize("variant", ["kingofthehill"])
def test_cli_stats_json_and_pipe(cli, variant):
    fen = "4k3/8/8/8/8/3K4/8/3r4 w - - 0 1"
    want = python_chess_counters(variant, fen, 2, vcounters.names(variant))
    result = cli("perft", fen, "2", "--variant", variant, "--stats", "--all-depths", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["nodes"] == want[1]["nodes"]
    assert data["stats"] == {k: v for k, v in want[1].items() if k != "nodes"}
    assert [d["stats"]["goal_reached"] for d in data["depths"]] == [row["goal_reached"] for row in want]
    piped = cli("divide", fen, "2", "--variant", variant, "--stats")
    assert piped.exit_code == 0, piped.output
    head, *rows = piped.stdout.splitlines()
    assert head.split() == ["move", *vcounters.names(variant)]
    summed = next(line for line in rows if line.startswith("total")).split()[1:]
    assert [int(x) for x in summed] == [want[1][n] for n in vcounters.names(variant)]


@pytest.mark.variant_walk
@pytest.mark.parametrize("variant", ["kingofthehill"])
def test_plain_perft_does_not_load_the_counters_walk(variant):
    code = (
        "import sys\nfrom chesskit.board.board import Board\n"
        f"assert Board(variant={variant!r}).perft(2) == 400\n"
        "print('chesskit.core.vstats' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=subprocess_env(), timeout=900)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[-1] == "False"


# ------------------------------------------------------------------ suite S<n> opcodes


def test_a_stat_opcode_reads_the_counters_of_its_variant():
    house = counter_names(Board(variant="crazyhouse"))
    assert parse_stat_opcode("drops=3 drop_checks=1 nodes=9", house) == {"drops": 3, "drop_checks": 1, "nodes": 9}
    assert parse_stat_opcode("exploded_pieces=2", counter_names(Board(variant="atomic"))) == {"exploded_pieces": 2}
    for names, bad in [(COUNTERS, "drops=3"), (counter_names(Board(variant="atomic")), "drops=3"), (house, "checks")]:
        with pytest.raises(InputError, match="bad statistics item") as err:
            parse_stat_opcode(bad, names)
        assert ", ".join(names) in str(err.value)
    with pytest.raises(InputError, match="exploded_pieces"):  # another variant's counter
        parse_stat_opcode("exploded_pieces=0", house)


HOUSE = "4k3/8/8/8/8/8/r7/4K3[NPq] w - -"


@pytest.mark.variant_walk
@pytest.mark.parametrize("variant", ["crazyhouse"])
def test_suite_checks_a_variants_own_counters(cli, tmp_path, monkeypatch, variant):
    """``suite --stats`` reads and checks S<n> opcodes with the variant's counters (drops,
    drop checks): python-chess's counts pass, one drop too many is a mismatch (exit 1),
    and another variant's counter on a line is that line's error (exit 2)."""
    monkeypatch.chdir(tmp_path)
    want = python_chess_counters(variant, HOUSE + " 0 1", 2, vcounters.names(variant))
    assert want[0]["drops"] and want[1]["drop_checks"]  # the case exercises them

    d = f'D1 {want[0]["nodes"]}; D2 {want[1]["nodes"]};'
    (tmp_path / "zh.epd").write_text(
        f'{HOUSE} id "right"; variant {variant}; {d} S1 "drops={want[0]["drops"]}"; '
        f'S2 "drops={want[1]["drops"]} drop_checks={want[1]["drop_checks"]} promoted_captures=0";\n'
        f'{HOUSE} id "wrong"; variant {variant}; {d} S2 "drops={want[1]["drops"] + 1}";\n'
    )
    result = cli("suite", "zh.epd", "--stats", "--json")
    assert result.exit_code == 1, result.output
    rows = {(r["id"], r["depth"]): r for r in json.loads(result.stdout)["results"]}
    assert rows["right", 1]["stats_ok"] and rows["right", 2]["stats_ok"]
    assert rows["wrong", 2]["stats_mismatch"] == {"drops": {"expected": want[1]["drops"] + 1, "actual": want[1]["drops"]}}
    (tmp_path / "mixed.epd").write_text(
        f'{HOUSE} id "right"; variant {variant}; {d} S1 "drops={want[0]["drops"]}";\n'
        f'4k3/8/8/8/8/8/r7/4K3 w - - id "atomic"; variant atomic; D1 1; S1 "drops=0";\n'
    )
    result = cli("suite", "mixed.epd", "--stats", "--json")
    assert result.exit_code == 2, result.output
    data = json.loads(result.stdout)
    assert [(r["id"], r["ok"]) for r in data["results"]] == [("right", True), ("right", True)]
    ((error),) = data["error_lines"]
    assert error["id"] == "atomic" and error["error"].startswith("S1: ") and "drops" in error["error"]
