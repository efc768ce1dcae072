"""What compare, fuzz and suite report about a crazyhouse finding: the JSON names the
variant, and what reads the position back (the failing node's notes, a Chess960 FEN in
Shredder form for a script) reads it as crazyhouse, not standard chess (where its pockets
made each of these exit 2, "pockets in a chess position")."""

from __future__ import annotations

import json

import chess.variant
import pytest

from helpers import ENGINES

pytestmark = pytest.mark.variant_walk

SCRIPT = str(ENGINES / "vbug_drop_last_rank.py")  # pawns dropped on the first and last ranks
HOUSE960 = "bqnb1rkr/pp3pp1/3ppn2/2p5/5P2/P2P4/NPP1P1P1/BQ1BNRKR[Pp] w HFhf - 2 9"


def test_crazyhouse_fuzz_json_names_the_variant_and_reads_the_finding(cli):
    result = cli("fuzz", "--variant", "crazyhouse", "--script", SCRIPT, "--positions", "20", "--seed", "3", "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["variant"] == "crazyhouse" and data["position_notes"] == []
    board = chess.variant.CrazyhouseBoard(data["fen"])
    assert data["extra"] and all(m[0] == "P" and m[3] in "18" for m in data["extra"])
    assert not any(board.is_legal(chess.Move.from_uci(m)) for m in data["extra"])


def test_a_variant_fuzz_that_finds_nothing_names_the_variant_too(cli):
    # "variant" was in fuzz's object only with a finding (docs/json.md: in every variant object)
    result = cli("fuzz", "--variant", "crazyhouse", "--python", f"{ENGINES / 'vpchelper.py'}:Adapter",
                 "--positions", "5", "--seed", "3", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["agree"] and data["variant"] == "crazyhouse"


def test_crazyhouse960_compare_gives_a_script_its_fen_in_shredder_form(cli):
    result = cli("compare", HOUSE960, "1", "--variant", "crazyhouse960", "--script", SCRIPT, "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["variant"] == "crazyhouse" and sorted(data["extra"]) == ["P@c1", "P@e8"]


def test_a_crazyhouse_suite_result_names_its_variant(cli, tmp_path):
    suite = tmp_path / "house.epd"
    suite.write_text('4k3/8/8/8/8/8/8/4K3[P] w - - id "drop"; variant crazyhouse; D1 53;\n')
    result = cli("suite", str(suite), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0, result.stderr
    assert [(r["id"], r["variant"], r["nodes"]) for r in data["results"]] == [("drop", "crazyhouse", 53)]
