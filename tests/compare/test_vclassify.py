"""The variant bug classes of compare's classification: at the node where each buggy
variant adapter of tests/engines/ (vbug_*.py) goes wrong, its missing and extra moves
(against Fairy-Stockfish) get the hint of its bug class. The node's position is read by
chesskit's FEN reader in the variant; no compiled move generator is involved."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import chess
import chess.variant
import pytest

import pyffish

from chesskit.board.fen import parse_fen  # noqa: E402
from chesskit.compare.classify import classify_moves  # noqa: E402
from chesskit.compare.vclassify import game_over  # noqa: E402

ENGINES = Path(__file__).resolve().parents[1] / "engines"
sys.path.insert(0, str(ENGINES))

# adapter, variant, FEN, moves to the node, a word of the hint every differing move gets
CASES = [
    ("vbug_atomic_radius", "atomic", "8/8/8/2k5/1b6/8/8/1R2K3 w - - 0 1", ["b1b4"], "exploded"),
    ("vbug_atomic_pawns", "atomic", "4k3/8/8/8/3ppp2/4n3/4P3/4K2Q w - - 0 1", ["h1e4"], "pawn immunity"),
    ("vbug_atomic_kings_touch", "atomic", "8/8/8/3k4/8/4K3/8/8 w - - 0 1", [], "king adjacency"),
    ("vbug_drop_last_rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", [], "first or last rank"),
    ("vbug_promoted_returns", "crazyhouse", "3rk3/8/8/8/8/8/8/3Q~K3[] b - - 0 1", ["d8d1", "e1e2"], "promoted piece"),
    ("vbug_drop_into_check", "crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", [], "does not block the check"),
    ("vbug_third_check", "3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 1+3 0 1", ["a1a8"], "three checks"),
    ("vbug_koth_goal", "kingofthehill", "8/8/8/8/2K5/8/8/k7 w - - 0 1", ["c4d5"], "centre square"),
    ("vbug_forced_capture_ep", "antichess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", [], "forced capture"),
    ("vbug_horde_first_rank", "horde", "4k3/8/8/8/8/8/8/P3P2P w - - 0 1", [], "first rank"),
    ("vbug_racing_last_chance", "racingkings", "8/1k3K2/8/8/8/8/8/8 w - - 0 1", ["f7f8"], "last chance"),
    ("vbug_racing_plays_on", "racingkings", "8/5K2/1k6/8/8/8/8/8 w - - 0 1", ["f7e8"], "the black king cannot follow"),
]


class _Node:
    """What classify_moves asks of a board: its setup, and its legal moves (Fairy-Stockfish's)."""

    def __init__(self, fen: str, variant: str):
        self._setup = parse_fen(fen, variant=variant)
        self._fen, self._variant = fen, variant

    def setup(self):
        return self._setup

    def legal_moves(self):
        return pyffish.legal_moves(self._variant, self._fen, [])


def _node(module: str, variant: str, fen: str, path: list[str]):
    adapter = __import__(module).Adapter()
    adapter.set_fen(fen, variant=variant)
    for move in path:
        adapter.push(move)
    theirs = set(adapter.legal_moves())
    right = set(pyffish.legal_moves(variant, fen, path))
    node_fen = pyffish.get_fen(variant, fen, path)
    return node_fen, sorted(right - theirs), sorted(theirs - right)


@pytest.mark.parametrize("module,variant,fen,path,word", CASES, ids=[c[0] for c in CASES])
def test_each_variant_bug_gets_its_classs_hint(module, variant, fen, path, word):
    node_fen, missing, extra = _node(module, variant, fen, path)
    assert missing or extra
    notes = classify_moves(_Node(node_fen, variant), missing, extra)
    assert notes and all(word in note.hint for note in notes), [n.hint for n in notes]


def test_game_over_names_each_variants_end():
    assert "centre" in game_over(parse_fen("8/8/8/3K4/8/8/8/k7 b - - 0 1", variant="kingofthehill"))
    assert game_over(parse_fen("8/8/8/8/8/3K4/8/k7 b - - 0 1", variant="kingofthehill")) is None
    assert "exploded" in game_over(parse_fen("8/8/8/8/8/3K4/8/8 b - - 0 1", variant="atomic"))
    assert "eighth rank" in game_over(parse_fen("5K2/1k6/8/8/8/8/8/8 w - - 0 1", variant="racingkings"))
    assert game_over(parse_fen("5K2/1k6/8/8/8/8/8/8 b - - 0 1", variant="racingkings")) is None
    assert "cannot follow" in game_over(parse_fen("4K3/8/1k6/8/8/8/8/8 b - - 1 1", variant="racingkings"))
    # a8, b8 and c8 each attacked; without the knight on c6 b8 is free
    assert "cannot follow" in game_over(parse_fen("4K3/1k2N3/2N5/8/8/8/8/R7 b - - 1 1", variant="racingkings"))
    assert game_over(parse_fen("4K3/1k2N3/8/8/8/8/8/R7 b - - 1 1", variant="racingkings")) is None


def test_a_racing_king_that_cannot_follow_ends_the_game_as_python_chess_says():
    # random racing kings positions with the white king home and black to move: the game is
    # over exactly where python-chess (the oracle) says it is
    rng = random.Random(36)
    seen = {True: 0, False: 0}
    while min(seen.values()) < 40:
        board = chess.variant.RacingKingsBoard(None)
        squares = rng.sample(range(64), 6)
        board.set_piece_at(chess.square(rng.randrange(8), 7), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(chess.square(rng.randrange(8), rng.choice((5, 6))), chess.Piece(chess.KING, chess.BLACK))
        for sq, kind in zip(squares, (chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.QUEEN)):
            if board.piece_at(sq) is None:
                board.set_piece_at(sq, chess.Piece(kind, rng.choice((chess.WHITE, chess.BLACK))))
        board.turn = chess.BLACK
        if not board.is_valid():
            continue
        over = board.is_variant_end()
        seen[over] += 1
        assert (game_over(parse_fen(board.fen(), variant="racingkings")) is not None) is over, board.fen()


def test_a_standard_position_is_classified_as_before():
    notes = classify_moves(_Node("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "chess"), ["e1g1"], [])
    assert notes[0].kinds == ["castle"]


def test_a_missing_atomic_en_passant_capture_is_en_passant_not_pawn_immunity():
    # fuzz --variant atomic against an engine without en passant: c5d6 is missing
    notes = classify_moves(_Node("2b1kbnr/2p2pp1/7p/2Ppp1q1/8/4P3/1P1PKPPP/1NBQ1BNR w k d6 0 7", "atomic"), ["c5d6"], [])
    assert notes[0].kinds == ["capture", "en passant"], notes[0]
    assert "en-passant" in notes[0].hint and "immunity" not in notes[0].hint
    # a pawn's quiet move beside it still gets the atomic class
    notes = classify_moves(_Node("2b1kbnr/2p2pp1/7p/2Ppp1q1/8/4P3/1P1PKPPP/1NBQ1BNR w k d6 0 7", "atomic"), ["c5c6"], [])
    assert "pawn immunity" in notes[0].hint


def test_a_missing_drop_of_a_piece_the_engine_drops_elsewhere_is_about_the_square():
    fen = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"
    node = _Node(fen, "crazyhouse")
    rank7 = sorted(m for m in node.legal_moves() if m.startswith("P@") and m.endswith("7"))
    notes = classify_moves(node, rank7, [])
    assert {n.hint for n in notes} == {
        "a pawn drop on rank 7 missing (the engine drops the pawn elsewhere): only ranks 1 and 8 are closed to a dropped pawn"
    }
    # every pawn drop missing: the pawn is not in the engine's pocket
    drops = sorted(m for m in node.legal_moves() if m.startswith("P@"))
    assert all("pocket" in n.hint for n in classify_moves(node, drops, []))


@pytest.mark.parametrize("piece", ["N", "P"])
def test_an_extra_drop_the_pocket_lacks_names_the_pocket_not_only_promotions(piece):
    # every such drop was blamed on "a captured promoted piece goes to the pocket as a pawn",
    # a pawn's too, in a game without a promoted piece (vbug_drop_keeps_piece: the drop
    # leaves its piece in the pocket)
    node_fen, missing, extra = _node("vbug_drop_keeps_piece", "crazyhouse", f"4k3/8/8/8/8/8/8/4K3[{piece}] w - - 0 1", [f"{piece}@c4", "e8d8"])
    assert extra and not missing
    hints = {n.hint for n in classify_moves(_Node(node_fen, "crazyhouse"), missing, extra)}
    assert len(hints) == 1
    hint = hints.pop()
    name = {"N": "knight", "P": "pawn"}[piece]
    assert hint.startswith(f"drops a {name} the pocket does not hold: the engine's pocket has one the position's lacks"), hint
    assert ("promoted" in hint) == (piece == "N"), hint


def test_an_antichess_promotion_to_king_is_classed_as_one():
    # a missing a7a8k was "-": "legal pawn move not generated" (a7a8r in chess is "underpromotion to rook missing")
    notes = classify_moves(_Node("1n6/P7/8/8/8/8/8/1k6 w - - 0 1", "antichess"), ["a7b8k"], ["a7a8k"])
    assert notes[0].kinds == ["capture", "promotion to king"]
    assert notes[0].hint == "promotion to king missing: in antichess a pawn may promote to a king too"
    assert notes[1].kinds == ["quiet move", "promotion to king"] and "forced capture" in notes[1].hint
    notes = classify_moves(_Node("8/P7/8/8/8/8/8/1k6 w - - 0 1", "antichess"), ["a7a8k"], [])
    assert notes[0].kinds == ["promotion to king"]


def test_the_game_end_hint_names_only_the_variants_own_end():
    notes = classify_moves(_Node("k7/8/8/8/8/8/8/7K w - - 0 1", "racingkings"), [], ["h1g2"])
    assert notes[0].hint == "the game is over here (a king has reached the eighth rank): the engine plays on"
