"""Leaf-move counters: the published tables, python-chess on random positions, divide and depths."""

from __future__ import annotations

import json
import random

import chess
import pytest

from chesskit.board.board import Board
from chesskit.errors import InputError
from chesskit.board.counters import COUNTERS, STAT_NAMES, compare, parse_stat_opcode, stats_by_depth, total
from helpers import KIWIPETE, TESTS

# the published counters of the six standard positions (its "source" and "about" say where
# from and how each row was checked), in the repository so that these tests always run
REFERENCE = TESTS / "data" / "cpw-stats.json"


def _reference() -> dict:
    return json.loads(REFERENCE.read_text())["positions"]


def _cases():
    return [pytest.param(name, max(map(int, p["depths"])), id=name) for name, p in _reference().items()]


# ------------------------------------------------------------------ the published counters


@pytest.mark.parametrize("name, depth", _cases())
def test_counters_equal_the_reference_at_every_depth(name, depth):
    position = _reference()[name]
    rows = stats_by_depth(Board(position["fen"]), depth)
    assert len(rows) == depth
    for d, row in enumerate(rows, start=1):
        assert row == position["depths"][str(d)], f"{name} depth {d}"


def test_board_stats_is_the_deepest_row():
    ref = _reference()["pos4"]
    assert Board(ref["fen"]).stats(3) == ref["depths"]["3"]


def test_depth_zero_is_one_node_and_no_moves():
    stats = Board().stats(0)
    assert stats == {name: (1 if name == "nodes" else 0) for name in COUNTERS}


def test_bad_depth():
    with pytest.raises(InputError):
        Board().stats(-1)
    with pytest.raises(InputError):
        Board().divide_stats(0)


def test_stats_leave_the_board_unchanged():
    board = Board(KIWIPETE)
    before = (board.fen(), board.key, board._st.copy())
    board.stats(3)
    board.divide_stats(2)
    assert (board.fen(), board.key) == before[:2]
    assert (board._st == before[2]).all()


# ------------------------------------------------------------------ divide


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_divide_rows_sum_to_the_perft_row(depth):
    board = Board(KIWIPETE)
    rows = board.divide_stats(depth)
    assert list(rows) == list(board.divide(depth))  # same moves, same order
    assert {move: row["nodes"] for move, row in rows.items()} == board.divide(depth)
    assert total(rows) == board.stats(depth)


def test_divide_depth_one_classifies_each_root_move():
    # white: O-O, O-O-O, a promotion with check, an en-passant capture
    board = Board("r3k3/1P6/8/3pP3/8/8/8/R3K2R w KQq d6 0 1")
    rows = board.divide_stats(1)
    assert rows["e1g1"]["castles"] == 1 and rows["e1g1"]["checks"] == 0
    assert rows["e5d6"]["en_passant"] == 1 and rows["e5d6"]["captures"] == 1
    promo = rows["b7a8q"]
    assert (promo["captures"], promo["promotions"], promo["checks"], promo["discovery_checks"]) == (1, 1, 1, 0)
    assert rows["b7b8q"]["checks"] == 1 and rows["b7b8q"]["discovery_checks"] == 0
    assert all(row["nodes"] == 1 for row in rows.values())


def test_castling_rook_gives_check_is_not_discovered():
    # O-O-O puts the rook on d1, checking the king on d8: the rook is the moved piece
    board = Board("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1")
    row = board.divide_stats(1)["e1c1"]
    assert (row["castles"], row["checks"], row["discovery_checks"]) == (1, 1, 0)


def test_discovered_and_double_checks():
    # the knight on e4 blocks the rook on e1: a knight move that checks is a double check
    board = Board("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1")
    rows = board.divide_stats(1)
    assert rows["e4d6"]["double_checks"] == 1 and rows["e4d6"]["discovery_checks"] == 0
    assert rows["e4c3"]["discovery_checks"] == 1 and rows["e4c3"]["double_checks"] == 0
    assert rows["f1f2"]["checks"] == 0


# ------------------------------------------------------------------ python-chess on random positions


def chess_stats(board: chess.Board, depth: int) -> dict[str, int]:
    """The counters computed with python-chess, full make at every leaf."""
    counts = dict.fromkeys(COUNTERS, 0)

    def leaf(move: chess.Move) -> None:
        counts["nodes"] += 1
        counts["captures"] += board.is_capture(move)
        counts["en_passant"] += board.is_en_passant(move)
        counts["castles"] += board.is_castling(move)
        counts["promotions"] += move.promotion is not None
        moved_to = move.to_square
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            moved_to = chess.square(5 if board.is_kingside_castling(move) else 3, rank)
        board.push(move)
        checkers = list(board.checkers())
        if checkers:
            counts["checks"] += 1
            if len(checkers) == 2:
                counts["double_checks"] += 1
            elif checkers[0] != moved_to:
                counts["discovery_checks"] += 1
            if not any(board.generate_legal_moves()):
                counts["checkmates"] += 1
        board.pop()

    def walk(d: int) -> None:
        for move in list(board.legal_moves):
            if d == 1:
                leaf(move)
            else:
                board.push(move)
                walk(d - 1)
                board.pop()

    if depth == 0:
        counts["nodes"] = 1
    else:
        walk(depth)
    return counts


def random_position(seed: int) -> chess.Board:
    """A position reached by seeded random play from the start, a Chess960 start, or a
    busy middlegame; never one where the game is over."""
    rng = random.Random(seed)
    kind = seed % 4
    if kind == 0:
        board = chess.Board()
    elif kind == 1:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    elif kind == 2:
        board = chess.Board(KIWIPETE)
    else:
        board = chess.Board("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1")
    for _ in range(rng.randrange(4, 50)):
        moves = list(board.legal_moves)
        if not moves:
            break
        # prefer captures, checks and promotions now and then, so the counters move
        sharp = [m for m in moves if board.is_capture(m) or m.promotion or board.gives_check(m)]
        board.push(rng.choice(sharp if sharp and rng.random() < 0.3 else moves))
    if board.is_game_over():
        board.pop()
    return board


@pytest.mark.parametrize("seed", range(20))
def test_counters_equal_python_chess_on_random_positions(seed):
    reference = random_position(seed)
    board = Board(reference.fen(), chess960=reference.chess960 or None)
    depth = 3 if seed < 10 else 2
    assert board.stats(depth) == chess_stats(reference, depth), reference.fen()


def test_python_chess_counter_agrees_with_the_reference():
    """Guard the guard: the python-chess counter above reproduces cpw-stats.json."""
    ref = _reference()["pos3"]
    assert chess_stats(chess.Board(ref["fen"]), 3) == ref["depths"]["3"]


# ------------------------------------------------------------------ suite opcodes


def test_parse_stat_opcode():
    assert parse_stat_opcode("captures=34 checks=12") == {"captures": 34, "checks": 12}
    assert parse_stat_opcode(" nodes=8902, checkmates=0 ") == {"nodes": 8902, "checkmates": 0}
    for bad in ["", "captures", "captures=x", "kills=3", "captures=-1"]:
        with pytest.raises(InputError):
            parse_stat_opcode(bad)


def test_compare_names_only_the_differing_counters():
    actual = dict.fromkeys(COUNTERS, 0) | {"captures": 34}
    assert compare({"captures": 34, "checks": 12}, actual) == {"checks": (12, 0)}
    assert compare({"captures": 34}, actual) == {}


def test_stat_names_are_the_json_keys():
    assert STAT_NAMES == (
        "captures",
        "en_passant",
        "castles",
        "promotions",
        "checks",
        "discovery_checks",
        "double_checks",
        "checkmates",
    )


# ------------------------------------------------------------------ the CLI


def test_cli_perft_stats_json(cli):
    result = cli("perft", "kiwipete", "3", "--stats", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["nodes"] == 97862
    assert data["stats"] == {k: v for k, v in _reference()["kiwipete"]["depths"]["3"].items() if k != "nodes"}
    assert "depths" not in data


def test_cli_perft_all_depths_json(cli):
    data = json.loads(cli("perft", "pos3", "4", "--all-depths", "--json").stdout)
    ref = _reference()["pos3"]["depths"]
    assert [row["depth"] for row in data["depths"]] == [1, 2, 3, 4]
    for row in data["depths"]:
        assert {"nodes": row["nodes"], **row["stats"]} == ref[str(row["depth"])]
    assert data["nodes"] == 43238


def test_cli_perft_all_depths_at_depth_0_is_its_one_row_and_says_so(cli):
    # 'one row per depth 1..DEPTH' (the help) printed a depth-0 row at DEPTH 0: that row
    # stays, perft(0) = 1 (every counter 0: there is no leaf move), and the help names it
    data = json.loads(cli("perft", "startpos", "0", "--all-depths", "--json").stdout)
    assert data["depths"] == [{"depth": 0, "nodes": 1, "stats": dict.fromkeys(COUNTERS[1:], 0)}]
    assert (data["depth"], data["nodes"]) == (0, 1)
    lines = cli("perft", "startpos", "0", "--all-depths").stdout.splitlines()
    assert lines[1].split() == ["0", "1", *["0"] * (len(COUNTERS) - 1)]
    assert lines[2:4] == ["", "Nodes searched: 1"]
    help_text = " ".join(cli("perft", "--help").stdout.split())
    assert "one row per depth 1..DEPTH, at DEPTH 0 its one row (perft 0 is 1)" in help_text


def test_cli_perft_stats_plain_columns(cli):
    lines = cli("perft", "kiwipete", "2", "--all-depths").stdout.splitlines()
    assert lines[0].split() == ["depth", *COUNTERS]
    assert lines[1].split() == ["1", "48", "8", "0", "2", "0", "0", "0", "0", "0"]
    assert lines[2].split()[:2] == ["2", "2039"]
    assert "Nodes searched: 2039" in lines


def test_cli_divide_stats(cli):
    data = json.loads(cli("divide", "kiwipete", "2", "--stats", "--json").stdout)
    assert data["nodes"] == 2039 and len(data["moves"]) == 48
    assert set(data["move_stats"]) == set(data["moves"])
    assert data["move_stats"]["a2a4"]["en_passant"] == 1
    assert data["stats"]["castles"] == 91
    plain = cli("divide", "kiwipete", "2", "--stats").stdout.splitlines()
    assert plain[0].split() == ["move", *COUNTERS]
    assert "Nodes searched: 2039" in plain
    assert any(line.split()[:2] == ["total", "2039"] for line in plain)


def test_cli_without_stats_is_unchanged(cli):
    data = json.loads(cli("perft", "startpos", "2", "--json").stdout)
    assert "stats" not in data


# ------------------------------------------------------------------ suite --stats

BAD_COUNTERS = (
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - id \"kiwi\"; "
    'D1 48; D2 2039; D3 97862; S2 "captures=351 checks=4"; S3 "checks=993";\n'
)


def test_cli_suite_stats_passes_on_the_standard_positions(cli):
    from chesskit.suites.positions import positions_dir

    result = cli("suite", "--stats", str(positions_dir() / "standard.epd"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    checked = [r for r in data["results"] if "stats_ok" in r]
    assert len(checked) >= 20 and all(r["stats_ok"] for r in checked)


def test_cli_suite_stats_names_the_wrong_counter(cli, tmp_path):
    path = tmp_path / "bad.epd"
    path.write_text(BAD_COUNTERS)
    result = cli("suite", "--stats", str(path))
    assert result.exit_code == 1
    assert "FAIL  kiwi  S2: checks expected 4, got 3" in result.stdout
    assert "(2 with leaf counters)" in result.stdout
    data = json.loads(cli("suite", "--stats", str(path), "--json").stdout)
    bad = [r for r in data["results"] if not r["ok"]]
    assert [(r["depth"], r["stats_mismatch"]) for r in bad] == [(2, {"checks": {"expected": 4, "actual": 3}})]
    # without --stats only the node counts are checked
    assert cli("suite", str(path)).exit_code == 0


def test_cli_suite_stats_bad_opcode(cli, tmp_path):
    """A misspelt counter is its line's error (exit 2), with or without --stats (without,
    it was passed over); the other lines still run."""
    path = tmp_path / "bad.epd"
    path.write_text(BAD_COUNTERS.replace("checks=993", "chex=993").replace("checks=4", "checks=3") + "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - D1 20;\n")
    for extra in (["--stats"], []):
        result = cli("suite", *extra, str(path))
        assert result.exit_code == 2, result.output  # the bad opcode: an error for that line, the rest counted
        assert "bad.epd:1: S3: bad statistics item 'chex=993'" in result.stderr and "ERROR " in result.stdout
        assert "1 passed" in result.stdout


@pytest.mark.parametrize("value", ["²", "１２", "1" * 21])
def test_a_stat_opcode_count_with_a_non_ascii_digit_or_too_many_digits_is_bad_input(value):
    """'²'.isdigit() is True, yet int('²') raises: such a count was exit 70 (a bug)."""
    with pytest.raises(InputError, match="not a non-negative integer"):
        parse_stat_opcode(f"captures={value}")
