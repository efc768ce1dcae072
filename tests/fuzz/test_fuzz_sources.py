"""The fuzzer's position sources: every position valid, the promised features present (counted).

python-chess is the independent oracle: it judges validity (``Board.is_valid``) and
each feature (checkers, pins, en passant, castling, promotions), never chesskit.
"""

from __future__ import annotations

import collections
import random

import chess
import pytest

from chesskit.board.fen import parse_fen
from chesskit.fuzz import placing, special
from chesskit.fuzz.position import Pos, attackers, reachable
from chesskit.board.board import Board
from chesskit.fuzz.sources import PositionStream, chess960_back_rank
from chesskit.fuzz.vplay import variant_start
from chesskit.variants import VARIANTS, get

N = 1500  # positions drawn from the mixed stream for the counts below


@pytest.fixture(scope="module")
def mixed() -> list:
    return _draw(PositionStream(20261123), N)


def _draw(stream: PositionStream, n: int) -> list:
    return [stream.next() for _ in range(n)]


def _board(generated) -> chess.Board:
    return chess.Board(generated.fen, chess960=generated.chess960)


def _by_source(positions, prefix: str) -> list:
    return [g for g in positions if g.source.startswith(prefix)]


# ------------------------------------------------------------------ every source


def test_every_position_is_valid_for_chesskit_and_python_chess(mixed):
    for generated in mixed:
        parse_fen(generated.fen, generated.chess960)  # raises on anything chesskit refuses
        board = _board(generated)
        assert board.is_valid(), (generated, board.status())
        # the side not to move is never in check, the kings never touch
        assert not board.was_into_check()
        assert chess.square_distance(board.king(chess.WHITE), board.king(chess.BLACK)) > 1


def test_every_source_contributes(mixed):
    counts = collections.Counter(g.source.split("/")[0] for g in mixed)
    for name in ("play", "play960", "placement", "special", "mutation"):
        assert counts[name] >= N // 40, counts
    # no position twice
    keys = [" ".join(g.fen.split()[:4]) + str(g.chess960) for g in mixed]
    assert len(set(keys)) == len(keys)


def test_same_seed_same_positions_other_seed_other_positions():
    first = _draw(PositionStream(7), 120)
    assert first == _draw(PositionStream(7), 120)
    assert first != _draw(PositionStream(8), 120)


@pytest.mark.parametrize("flag", [True, False])
def test_chess960_flag_narrows_the_mix(flag):
    positions = _draw(PositionStream(11, chess960=flag), 300)
    assert all(g.chess960 is flag for g in positions)
    if flag:  # Chess960 castling setups a standard position cannot have (king off e1/e8 with rights)
        odd = 0
        for g in positions:
            board = _board(g)
            for color in (chess.WHITE, chess.BLACK):
                king = board.king(color)
                if board.castling_rights & chess.BB_BACKRANKS and chess.square_file(king) != 4 and board.has_castling_rights(color):
                    odd += 1
        assert odd >= 40


def test_mixed_stream_has_both_variants(mixed):
    share = sum(g.chess960 for g in mixed) / len(mixed)
    assert 0.15 < share < 0.5


# ------------------------------------------------------------------ random play


def test_chess960_start_arrays_match_python_chess():
    for number in range(960):
        board = chess.Board.from_chess960_pos(number)
        expected = "".join(board.piece_at(sq).symbol().upper() for sq in range(8))
        assert chess960_back_rank(number) == expected, number


def test_random_play_reaches_varied_positions(mixed):
    play = _by_source(mixed, "play/") + [g for g in mixed if g.source == "play"]
    play960 = [g for g in mixed if g.source == "play960"]
    assert len(play) >= 50 and len(play960) >= 20
    boards = [_board(g) for g in play]
    # games go on: positions with fewer pieces than the start, and some castled or captured away rights
    assert sum(len(b.piece_map()) < 28 for b in boards) >= len(boards) // 4
    assert sum(b.castling_rights != chess.BB_CORNERS for b in boards) >= len(boards) // 4
    arrays = {_board(g).fen().split("/")[7].split()[0] for g in play960}
    assert len(arrays) >= 5  # several start arrays, not one


# ------------------------------------------------------------------ placement


def test_placement_profiles_have_the_promised_material(mixed):
    placed = _by_source(mixed, "placement/")
    profiles = collections.Counter(g.source for g in placed)
    assert len(profiles) == len(placing.PROFILES), profiles
    for g in placed:
        board = _board(g)
        pieces = board.piece_map().values()
        per_side = [collections.Counter(p.piece_type for p in pieces if p.color == c) for c in (chess.WHITE, chess.BLACK)]
        profile = g.source.split("/")[1]
        if profile == "queens":
            assert max(side[chess.QUEEN] for side in per_side) >= 3, g
        elif profile == "knights":
            assert max(side[chess.KNIGHT] for side in per_side) >= 3, g
        elif profile == "bishops":
            same = max(
                max(len(board.pieces(chess.BISHOP, c) & chess.BB_LIGHT_SQUARES), len(board.pieces(chess.BISHOP, c) & chess.BB_DARK_SQUARES))
                for c in (chess.WHITE, chess.BLACK)
            )
            assert same >= 2, g
        elif profile == "sparse":
            assert len(pieces) <= 8, g  # kings, up to 4 pieces, and the en-passant pair
        elif profile == "crowded":
            assert len(pieces) >= 18, g
    castling = [g for g in placed if g.source == "placement/castling"]
    assert sum(_board(g).castling_rights != 0 for g in castling) >= len(castling) // 2
    assert sum(_board(g).ep_square is not None for g in placed) >= len(placed) // 10


# ------------------------------------------------------------------ special cases


def _special(label: str, n: int, seed: int = 5, c960: bool = False) -> list[Pos]:
    """``n`` valid positions that ``special`` labelled ``label``."""
    rng = random.Random(seed)
    found = []
    for _ in range(200 * n):
        made = special.special(rng, c960)
        if made and made[0].valid() and made[1] == "special/" + label:
            found.append(made[0])
            if len(found) == n:
                break
    assert len(found) == n, f"only {len(found)} {label} positions"
    return found


def _pc(pos: Pos) -> chess.Board:
    return chess.Board(pos.fen(), chess960=pos.chess960)


def test_special_en_passant_available():
    boards = [_pc(p) for p in _special("ep-available", 25)]
    assert all(b.has_legal_en_passant() for b in boards)


@pytest.mark.parametrize("label", ["ep-rank-pin", "ep-diag-pin"])
def test_special_en_passant_illegal_by_a_pin(label):
    boards = [_pc(p) for p in _special(label, 15)]
    for b in boards:
        assert b.has_pseudo_legal_en_passant() and not b.has_legal_en_passant(), b.fen()


def test_special_en_passant_evades_check():
    boards = [_pc(p) for p in _special("ep-evasion", 25)]
    for b in boards:
        assert b.is_check() and b.has_legal_en_passant(), b.fen()
        # the en-passant capture takes the checking pawn
        assert b.checkers() == chess.SquareSet([b.ep_square + (-8 if b.turn == chess.WHITE else 8)])
    only = sum(all(b.is_en_passant(m) for m in b.legal_moves) for b in boards)
    assert only >= 2  # en passant as the only legal move comes up too


def test_special_double_check():
    boards = [_pc(p) for p in _special("double-check", 25)]
    assert all(len(b.checkers()) == 2 for b in boards)


@pytest.mark.parametrize("letter,ptype", [("p", chess.PAWN), ("n", chess.KNIGHT), ("b", chess.BISHOP), ("r", chess.ROOK), ("q", chess.QUEEN)])
def test_special_pins_of_every_kind(letter, ptype):
    boards = [_pc(p) for p in _special("pin-" + letter, 10)]
    for b in boards:
        pinned = [sq for sq in chess.SQUARES if b.color_at(sq) == b.turn and b.is_pinned(b.turn, sq)]
        assert pinned, b.fen()
    assert sum(any(b.piece_type_at(sq) == ptype and b.is_pinned(b.turn, sq) for sq in chess.SQUARES) for b in boards) >= 7
    # pins along ranks/files and along diagonals both occur
    lines = set()
    for b in boards:
        for sq in chess.SQUARES:
            if b.color_at(sq) == b.turn and b.is_pinned(b.turn, sq):
                lines.add("diag" if chess.square_file(sq) != chess.square_file(b.king(b.turn)) and chess.square_rank(sq) != chess.square_rank(b.king(b.turn)) else "line")
    assert lines == {"diag", "line"} or letter == "p"


def _promotion_capture_checks(b: chess.Board) -> int:
    return sum(1 for m in b.legal_moves if m.promotion and b.is_capture(m) and b.gives_check(m))


def _double_check_after(b: chess.Board, move: chess.Move) -> bool:
    b.push(move)
    double = len(b.checkers()) == 2
    b.pop()
    return double


def test_special_promotions_with_captures_and_checks():
    boards = [_pc(p) for p in _special("promo-capture-check", 25)]
    assert all(any(m.promotion for m in b.legal_moves) for b in boards)
    assert sum(_promotion_capture_checks(b) > 0 for b in boards) >= 8
    doubles = [_pc(p) for p in _special("promo-double-check", 15)]
    for b in doubles:
        assert any(_double_check_after(b, m) for m in b.legal_moves if m.promotion and b.is_capture(m)), b.fen()
    checks = [_pc(p) for p in _special("promo-check", 20)]
    assert sum(any(m.promotion and b.gives_check(m) for m in b.legal_moves) for b in checks) >= 8


def test_special_castling_attacked_blocked_and_in_check():
    for label, feature in [
        ("castle-attacked", lambda b: any(b.is_attacked_by(not b.turn, sq) for sq in _castle_path(b))),
        ("castle-blocked", lambda b: any(b.piece_at(sq) for sq in _castle_path(b))),
        ("castle-check", lambda b: b.is_check()),
    ]:
        boards = [_pc(p) for p in _special(label, 15)]
        assert all(b.castling_rights for b in boards)
        assert sum(feature(b) for b in boards) >= 10, label


def _castle_path(b: chess.Board) -> list[int]:
    """Squares between the side to move's king and its castling rooks (both ends excluded)."""
    king = b.king(b.turn)
    out = []
    for rook in chess.SquareSet(b.castling_rights & chess.BB_RANKS[chess.square_rank(king)]):
        lo, hi = sorted((king, rook))
        out += list(range(lo + 1, hi))
        out += [chess.square(2 if rook < king else 6, chess.square_rank(king))]
    return out


def test_special_chess960_castling_adjacent_and_home():
    adjacent = [_pc(p) for p in _special("c960-castle-adjacent-none", 10, c960=True)]
    for b in adjacent:
        king = b.king(b.turn)
        rooks = chess.SquareSet(b.castling_rights & chess.BB_RANKS[chess.square_rank(king)])
        assert any(abs(r - king) == 1 for r in rooks), b.fen()
    home = [_pc(p) for p in _special("c960-castle-king-home-none", 10, c960=True)]
    assert all(chess.square_file(b.king(b.turn)) in (2, 6) for b in home)
    castles = sum(any(b.is_castling(m) for m in b.legal_moves) for b in adjacent + home)
    assert castles >= 8  # the castle itself is often legal


# ------------------------------------------------------------------ mutations


def test_mutations_start_from_suite_positions_and_change_them(mixed):
    from chesskit.fuzz.sources import bundled_suite_fens

    suite = {" ".join(fen.split()[:4]) for fen, _ in bundled_suite_fens()}
    mutated = _by_source(mixed, "mutation/")
    assert len(mutated) >= 50
    assert sum(" ".join(g.fen.split()[:4]) not in suite for g in mutated) >= 0.8 * len(mutated)


# ------------------------------------------------------------------ the reachability test


def _setup(fen: str):
    """A chesskit Setup built through python-chess, whatever parse_fen thinks of the position."""
    from chesskit.board.fen import Setup

    board = chess.Board(fen)
    codes = [0] * 64
    for sq, p in board.piece_map().items():
        codes[sq] = p.piece_type | (0 if p.color == chess.WHITE else 8)
    return Setup(codes, 0 if board.turn == chess.WHITE else 1, [], board.ep_square, 0, 1, False)


@pytest.mark.parametrize(
    "fen,ok",
    [
        ("8/8/8/8/8/8/8/Kk6 w - - 0 1", False),  # kings touch
        ("k7/8/8/8/8/8/8/R3K3 w - - 0 1", False),  # the side not to move is in check
        ("4k3/8/8/8/1b6/5n2/8/4K2r w - - 0 1", False),  # three checkers
        ("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1", False),  # two knights: no single move gives that
        ("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", False),  # two rooks on opposite sides of the king
        ("4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1", True),  # three queens: two promoted, the pawns are gone
        ("4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1", False),  # ... but not with all eight pawns left
        ("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1", True),  # a discovered double check
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True),
    ],
)
def test_reachable(fen, ok):
    assert reachable(_setup(fen)) is ok
    board = chess.Board(fen)
    if board.status() & (chess.STATUS_OPPOSITE_CHECK | chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK):
        assert not ok  # python-chess agrees wherever it has a rule


def test_fast_attack_table_matches_python_chess(mixed):
    for generated in mixed[:200]:
        board = parse_fen(generated.fen, generated.chess960).board
        reference = _board(generated)
        for sq in range(64):
            for color in (0, 1):
                expected = sorted(reference.attackers(chess.WHITE if color == 0 else chess.BLACK, sq))
                assert attackers(board, sq, color) == expected, (generated.fen, sq, color)


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS if v.castles and v.name != "chess"])
def test_a_variants_960_start_shuffles_each_standard_back_rank_and_keeps_the_rest(variant):
    """horde960 shuffles black's back rank alone (white's side is its pawns; a shuffled white
    array gave the horde a king: fuzz --variant horde960 stopped at its first position)."""
    start = get(variant).start_fen
    for seed in range(20):
        fen = variant_start(variant, random.Random(seed), True)
        Board(fen, chess960=True, variant=variant)  # a position of the variant's rules (raises if not)
        ranks, old = (f.split()[0].partition("[")[0].split("/") for f in (fen, start))  # crazyhouse's pockets apart
        for at in range(8):
            if old[at].lower() == "rnbqkbnr" and at in (0, 7):
                assert sorted(ranks[at]) == sorted(old[at]), (fen, at)
            else:
                assert ranks[at] == old[at], (fen, at)
        castling = fen.split()[2]
        assert all(c.islower() for c in castling) if variant == "horde" else len(castling) == 4
        assert fen.split()[3:] == start.split()[3:]
