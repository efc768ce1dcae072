"""The consistency checker: it passes on correct code, and every invariant can fail."""

from __future__ import annotations

import dataclasses
import json

import chess
import pytest

from chesskit.board import debug
from chesskit.board.board import Board
from chesskit.core import position as P
from chesskit.board.debug import FAULTS, INVARIANT_NAMES, InvariantError, run_checks
from chesskit.suites.runner import load_suites
from helpers import EP_FEN as EP_NOW, KIWIPETE

# white to move may take en passant on f6 at once
CHESS960 = "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1"

# the six positions of chessprogramming.org's "Perft Results" page and their published
# depth-3 counts
STANDARD = {
    "startpos": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 8902),
    "kiwipete": (KIWIPETE, 97862),
    "pos3": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 2812),
    "pos4": ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 9467),
    "pos5": ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 62379),
    "pos6": ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 89890),
}


# ------------------------------------------------------------------ it passes


@pytest.mark.parametrize("name", STANDARD)
def test_standard_positions_pass(name):
    fen, published = STANDARD[name]
    result = Board(fen).debug(3)
    assert result.ok, result.violation and result.violation.describe()
    assert result.nodes == published
    assert result.checks > result.nodes


def test_chess960_position_passes():
    board = Board(CHESS960, chess960=True)
    result = board.debug(3)
    assert result.ok, result.violation and result.violation.describe()
    assert result.nodes == 13518  # python-chess's count of this Chess960 position at depth 3


def test_en_passant_position_passes():
    result = Board(EP_NOW).debug(3)
    assert result.ok, result.violation and result.violation.describe()


@pytest.mark.slow  # every bundled position, 5 s of CPU (issue 25); test_standard_positions_pass runs the checker in the default run
def test_every_suite_position_passes_at_depth_2():
    for record in load_suites():
        board = Board(record.fen, chess960=record.chess960 or None)
        result = run_checks(board, 2, fen_depth=1)
        assert result.ok, f"{record.id}: {result.violation.describe()}"
        assert result.nodes == record.depths[2]


@pytest.mark.slow
def test_every_suite_position_passes_at_depth_3():
    for record in load_suites():
        board = Board(record.fen, chess960=record.chess960 or None)
        result = run_checks(board, 3, fen_depth=1)
        assert result.ok, f"{record.id}: {result.violation.describe()}"
        assert result.nodes == record.depths[3]


def test_depth_zero_checks_the_root_only():
    result = Board().debug(0)
    assert result.ok and result.nodes == 1 and result.checks > 0


def test_board_is_unchanged_after_a_violation():
    board = Board(KIWIPETE)
    board.push("a2a4")
    before = (board.fen(), board._bb.copy(), board._board.copy(), board._st.copy())
    assert not run_checks(board, 2, inject="corrupt-key").ok
    assert board.fen() == before[0]
    assert (board._bb == before[1]).all() and (board._board == before[2]).all()
    assert (board._st == before[3]).all()
    assert board.move_stack == ["a2a4"]


# ------------------------------------------------------------------ every invariant can fail

EXPECTED = {
    "drop-square": "bitboards-match-squares",
    "colour-overlap": "colours-disjoint",
    "occupancy-extra": "occupancy-union",
    "extra-king": "one-king-each",
    "corrupt-key": "zobrist-key",
    "keep-castling": "castling-rights-placement",
    "lose-castling": "castling-rights-update",
    "keep-ep": "ep-square",
    "halfmove-not-reset": "halfmove-clock",
    "fullmove-not-advanced": "fullmove-number",
    "side-not-flipped": "side-to-move",
    "illegal-move": "mover-not-in-check",
    "drop-move": "movegen-matches-oracle",
    "bulk-count-off": "bulk-count",
    "ply-not-popped": "history-depth",
    "unmake-forgets-clock": "unmake-restores-state",
    "ep-pawn-stays": "move-applied",
}


def test_every_fault_and_every_invariant_is_covered():
    assert set(EXPECTED) == set(FAULTS)
    assert set(EXPECTED.values()) | {"fen-round-trip"} == set(INVARIANT_NAMES)


@pytest.mark.parametrize("fault", list(EXPECTED))
def test_injected_fault_is_named(fault):
    board = Board(EP_NOW if fault == "ep-pawn-stays" else KIWIPETE)
    result = run_checks(board, 3, inject=fault)
    assert not result.ok
    assert result.violation.check == EXPECTED[fault]


def test_forgotten_castling_right_is_reported_with_its_values():
    result = run_checks(Board(KIWIPETE), 2, inject="keep-castling")
    v = result.violation
    assert (v.check, v.path, v.move) == ("castling-rights-placement", [], "e1d1")
    assert v.fen == KIWIPETE
    assert v.expected == "castling rights: a8 h8"
    assert v.actual == "castling rights: a1 h1 a8 h8"


def test_a_lost_square_names_the_structure_each_side_comes_from_and_the_difference():
    # QA 41c: "expected: white kings: (none), actual: white kings: d1" read as if the bitboard
    # had gained the king, where the square array lost it
    v = run_checks(Board(KIWIPETE), 3, inject="drop-square").violation
    assert (v.check, v.move) == ("bitboards-match-squares", "e1d1")
    assert v.expected == "white kings: (none) (from the square array)"
    assert v.actual == "white kings: d1 (the bitboard); only in the bitboard: d1"
    union = run_checks(Board(KIWIPETE), 3, inject="occupancy-extra").violation
    assert union.expected.endswith("(the union of both colours' bitboards)")
    assert "(the occupancy bitboard); only in the occupancy bitboard: " in union.actual


def test_unmake_forgetting_the_clock_is_reported_with_its_values():
    v = run_checks(Board(KIWIPETE), 3, inject="unmake-forgets-clock").violation
    assert v.check == "unmake-restores-state"
    assert (v.expected, v.actual) == ("halfmove clock 2", "halfmove clock 3")
    # the FEN is the one before the move, reached by the path
    board = Board(KIWIPETE)
    board.push_moves(v.path)
    assert v.fen == board.fen()
    assert v.move in board.legal_moves()


def test_an_illegal_king_move_is_reported_on_the_square_it_is_attacked_on():
    # before: "king on e8 not attacked after the move", the square the king left
    v = run_checks(Board(KIWIPETE), 2, inject="illegal-move").violation
    assert v.check == "mover-not-in-check"
    node = chess.Board(v.fen)  # python-chess, the oracle: where the mover's king stands after it
    move = chess.Move.from_uci(v.move)
    assert node.piece_at(move.from_square).piece_type == chess.KING and not node.is_legal(move)
    node.push(move)
    king = node.king(not node.turn)
    assert node.is_attacked_by(node.turn, king)
    assert (v.expected, v.actual) == (f"king on {chess.square_name(king)} not attacked after the move", "attacked")


def test_fault_at_the_root_has_an_empty_path():
    board = Board(KIWIPETE)
    board._bb[P.KEY] ^= 1  # a corrupted field, before any move
    v = board.debug(2).violation
    assert (v.check, v.path, v.move) == ("zobrist-key", [], None)


def test_corrupted_square_array_at_the_root():
    board = Board(KIWIPETE)
    board._board[4] = 0  # the white king vanishes from the squares, not the bitboards
    v = board.debug(1).violation
    assert v.check == "bitboards-match-squares"
    assert (v.expected, v.actual) == ("white kings: (none) (from the square array)", "white kings: e1 (the bitboard); only in the bitboard: e1")


def test_fen_round_trip_can_fail(monkeypatch):
    # a FEN writer that forgets the en-passant square: found at the first node that has one
    real = debug.format_fen
    monkeypatch.setattr(debug, "format_fen", lambda setup: real(dataclasses.replace(setup, ep=None)))
    v = Board(KIWIPETE).debug(3).violation
    assert v.check == "fen-round-trip"
    assert v.path == ["e1d1", "c7c5"]  # d5 may take on c6
    assert v.move is None
    assert (v.expected, v.actual) == ("en-passant square c6", "en-passant square -")


def test_fen_round_trip_depth():
    # at fen_depth 0 only the root's FEN is read back
    real = debug.format_fen
    result = run_checks(Board(KIWIPETE), 2, fen_depth=0)
    assert result.ok
    assert run_checks(Board(KIWIPETE), 2).checks > result.checks
    assert real is debug.format_fen


def test_json_schema():
    ok = Board().debug(1).to_json()
    assert set(ok) == {"ok", "nodes", "checks"} and ok["ok"] is True and ok["nodes"] == 20
    bad = run_checks(Board(KIWIPETE), 2, inject="corrupt-key").to_json()
    assert set(bad) == {"ok", "path", "fen", "move", "check", "expected", "actual"}
    assert bad["ok"] is False and bad["check"] == "zobrist-key"
    json.dumps(bad)


def test_raise_for_violation():
    result = run_checks(Board(KIWIPETE), 2, inject="fullmove-not-advanced")
    with pytest.raises(InvariantError) as err:
        result.raise_for_violation()
    assert err.value.exit_code == 1
    assert "fullmove-number" in str(err.value)
    assert Board().debug(1).raise_for_violation().ok


# ------------------------------------------------------------------ the CLI


def test_cli_debug_ok(cli):
    result = cli("debug", "kiwipete", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ok"] is True and data["nodes"] == 2039 and data["checks"] > 2039
    plain = cli("debug", "startpos", "2")
    assert plain.exit_code == 0
    assert "Nodes: 400" in plain.stdout


def test_cli_debug_violation_exits_1(cli):
    result = cli("debug", "kiwipete", "3", "--moves", "a2a3", "--inject", "unmake-forgets-clock")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "violation: unmake-restores-state"
    assert lines[1].startswith("path: a2a3 ")  # from POSITION, --moves included
    assert any(line.startswith("fen: ") for line in lines)
    assert "expected: halfmove clock" in result.stdout and "actual: halfmove clock" in result.stdout
    assert "unmake-restores-state" in result.stderr


def test_cli_debug_violation_json(cli):
    result = cli("debug", "kiwipete", "2", "--inject", "keep-castling", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data == {
        "ok": False,
        "path": [],
        "fen": KIWIPETE,
        "move": "e1d1",
        "check": "castling-rights-placement",
        "expected": "castling rights: a8 h8",
        "actual": "castling rights: a1 h1 a8 h8",
        "variant": "chess",
        "notes": [],
    }


def test_cli_debug_bad_depth(cli):
    assert cli("debug", "startpos", "-x").exit_code == 2
    assert cli("debug", "startpos", "2", "--fen-depth", "no").exit_code == 2


def test_cli_debug_fen_depth_deeper_than_the_tree(cli):
    # the tree's nodes lie at plies 0..DEPTH: a --fen-depth past DEPTH names a ply that is
    # not there, so it is bad input (one line naming both numbers), not silently cut back
    for args in (("--fen-depth", "3"), ("--fen-depth", "3", "--json"), ("--fen-depth", "9", "--variant", "atomic")):
        result = cli("debug", "startpos", "2", *args)
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert "--fen-depth" in lines[0] and args[1] in lines[0] and "DEPTH 2" in lines[0]
    # the last ply itself is in the tree: the leaves' FENs are read back too
    at_leaves = cli("debug", "startpos", "2", "--fen-depth", "2", "--json")
    assert at_leaves.exit_code == 0, at_leaves.output
    default = json.loads(cli("debug", "startpos", "2", "--json").stdout)
    assert json.loads(at_leaves.stdout)["checks"] == default["checks"] + 400


def test_checker_switched_on_inside_perft():
    board = Board(KIWIPETE)
    assert board.perft(3, check=True) == board.perft(3) == 97862
    board._st[P.HALF] = -5  # a corrupted clock, found at the root
    with pytest.raises(InvariantError, match="halfmove-clock"):
        board.perft(2, check=True)
    v = board.debug(2).violation
    assert (v.path, v.move, v.expected, v.actual) == ([], None, "halfmove clock >= 0", "halfmove clock -5")
