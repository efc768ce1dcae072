"""Variant FENs (chesskit/board/fen.py + fen_variants.py) against python-chess and
Fairy-Stockfish (pyffish): every dialect they write reads back to the same text, start
positions by name, and each variant's validity rules with one clear error per field."""

from __future__ import annotations

import random

import chess
import chess.variant
import pytest

from chesskit import variants
from chesskit.board.fen import format_fen, parse_epd, parse_fen
from chesskit.errors import FenError, InputError

import pyffish

START = chess.STARTING_BOARD_FEN


def python_chess_fens(variant, games, plies, seed):
    """FENs python-chess writes along seeded random games of ``variant``."""
    rng = random.Random(seed)
    for _ in range(games):
        board = chess.variant.find_variant(variant.pychess)()
        for _ in range(plies):
            legal = [] if board.is_variant_end() else list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
            yield board.fen(en_passant="fen")


def fairy_fens(variant, games, plies, seed):
    """FENs Fairy-Stockfish (pyffish) writes along seeded random games of ``variant``."""
    rng = random.Random(seed)
    for _ in range(games):
        start, moves = pyffish.start_fen(variant.fairy), []
        for _ in range(plies):
            legal = pyffish.legal_moves(variant.fairy, start, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
            yield pyffish.get_fen(variant.fairy, start, moves)


def round_trips(variant, fens):
    for fen in fens:
        setup = parse_fen(fen, variant=variant.name)
        assert format_fen(setup) == fen
        assert format_fen(setup, dialect="fairy") == fen
        assert setup.notes == [], fen  # a position of a game can arise


@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.name)
def test_round_trip_python_chess_and_fairy_stockfish(variant):
    round_trips(variant, python_chess_fens(variant, 1, 40, variant.id))
    round_trips(variant, fairy_fens(variant, 1, 30, variant.id))


@pytest.mark.slow
@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.name)
def test_round_trip_sweep(variant):
    round_trips(variant, python_chess_fens(variant, 8, 100, 100 + variant.id))
    round_trips(variant, fairy_fens(variant, 4, 100, 100 + variant.id))


@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.name)
def test_startpos_is_the_variants(variant):
    setup = parse_fen("startpos", variant=variant.name)
    assert format_fen(setup) == pyffish.start_fen(variant.fairy) == chess.variant.find_variant(variant.pychess)().fen()
    assert setup.variant == variant.name


def test_pockets_in_both_dialects():
    bracket = parse_fen(f"{START}[QRPn] w KQkq - 0 1", variant="crazyhouse")
    ninth = parse_fen(f"{START}/QRPn w KQkq - 0 1", variant="zh")
    assert bracket == ninth
    assert bracket.pockets == ((0, 1, 0, 0, 1, 1, 0), (0, 0, 1, 0, 0, 0, 0))
    assert format_fen(ninth) == f"{START}[QRPn] w KQkq - 0 1"
    # python-chess reads the pockets back the same
    board = chess.variant.CrazyhouseBoard(format_fen(ninth))
    assert str(board.pockets[chess.WHITE]) == "qrp" and str(board.pockets[chess.BLACK]) == "n"


def test_promoted_marks():
    fen = "Q~1bqkbnr/p2ppppp/8/8/8/8/PPPP1PPP/RNBQKBNR[RPn] b KQk - 0 1"
    setup = parse_fen(fen, variant="crazyhouse")
    assert setup.promoted == [56]
    assert format_fen(setup) == fen == chess.variant.CrazyhouseBoard(fen).fen()


def test_three_check_counters_in_both_dialects():
    remaining = parse_fen(f"{START} w KQkq - 2+1 0 1", variant="3check")
    given = parse_fen(f"{START} w KQkq - 0 1 +1+2", variant="threecheck")
    four = parse_fen(f"{START} w KQkq - 2+1", variant="3check")
    assert remaining.checks == given.checks == four.checks == (1, 2)
    assert format_fen(given) == f"{START} w KQkq - 2+1 0 1"
    # both oracles read the checks-given form the same way
    assert chess.variant.ThreeCheckBoard(f"{START} w KQkq - 0 1 +1+2").remaining_checks == [1, 2]
    assert pyffish.get_fen("3check", f"{START} w KQkq - 0 1 +1+2", []) == f"{START} w KQkq - 2+1 0 1"
    assert parse_fen(f"{START} w KQkq - 0 1", variant="3check").checks == (0, 0)


@pytest.mark.parametrize(
    "fen, variant, field, words",
    [
        (f"{START}[Qk] w KQkq - 0 1", "crazyhouse", "pockets", "king cannot be in a pocket"),
        (f"{START}[Q w KQkq - 0 1", "crazyhouse", "pockets", "malformed pockets"),
        (f"{START}[Q] w KQkq - 0 1", "atomic", "pockets", "only crazyhouse has pockets"),
        (f"{START}[Q] w KQkq - 0 1", "chess", "pockets", "only crazyhouse has pockets"),
        # a ninth-rank pocket or a '~' mark outside crazyhouse: "found 9 ranks" and "unknown
        # piece letter '~'" said nothing of the variant to give
        ("4k3/8/8/8/8/8/8/4K3/Qn w - - 0 1", "kingofthehill", "pockets", "only crazyhouse has pockets (give --variant crazyhouse)"),
        ("4k3/8/8/8/8/8/8/4K3/Qn w - - 0 1", "chess", "pockets", "only crazyhouse has pockets (give --variant crazyhouse)"),
        ("4k3/8/8/8/8/8/8/4K1Q~1 w - - 0 1", "atomic", "piece placement", "only crazyhouse has promoted marks (give --variant crazyhouse)"),
        ("4k3/8/8/8/8/8/8/4K1Q~1 w - - 0 1", "chess", "piece placement", "only crazyhouse has promoted marks (give --variant crazyhouse)"),
        ("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", "atomic", "piece placement", "expected 8 ranks separated by '/', found 9"),
        ("rnbqkbnr/pppppppp/8/8/8/8/P~PPPPPPP/RNBQKBNR[] w KQkq - 0 1", "crazyhouse", "piece placement", "pawn on a2 is marked promoted"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/3~QKBNR[] w Kkq - 0 1", "crazyhouse", "piece placement", "follows no piece"),
        (f"{START} w KQkq - 4+3 0 1", "3check", "checks", "white 4 checks remaining"),
        (f"{START} w KQkq - 0 1 +0+5", "3check", "checks", "black 5 checks given"),
        (f"{START} w KQkq - 3-3 0 1", "3check", "fen", "expected 6"),
        # both dialects at once said "expected 6 fields, found 7", the usual 3check length
        (f"{START} w KQkq - 3+3 0 1 +1+1", "3check", "checks", "check counters given twice ('3+3' and '+1+1')"),
        (f"{START} w KQkq - 3+3 +1+1", "3check", "checks", "check counters given twice ('3+3' and '+1+1')"),
        (f"{START} w KQkq - 3+3 0 1", "chess", "checks", "only 3check counts checks (give --variant 3check)"),
        # the remaining checks after the clocks, a pocket after a space: "found 7" said no more
        (f"{START} w KQkq - 0 1 3+3", "3check", "fen", "found 7: '3+3' after the clocks; three-check's counters go after"),
        ("4k3/8/8/8/8/8/8/4K3 [N] w - - 0 1", "crazyhouse", "fen", "the pocket '[N]' belongs to the placement, written without a space (4k3/8/8/8/8/8/8/4K3[N])"),
        # python-chess's atomic.perft under another name, read as standard chess: two of its
        # lines were refused with no word of the variant that allows them
        ("8/8/8/3k4/4K3/8/8/8 w - - 0 1", "chess", "position",
         "next to each other on e4 and d5 (atomic and antichess allow that: give --variant atomic or --variant antichess)"),
        (f"{START} w KQkq - 0 1 +1+0", "atomic", "checks", "only 3check counts checks (give --variant 3check)"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kq - 0 1", "horde", "piece placement", "the horde has no king"),
        ("8/8/8/8/8/8/krbnNBRP/qrbnNBRK w - - 0 1", "racingkings", "piece placement", "racing kings has no pawns"),
        ("7r/8/8/8/8/8/k1bnNBRK/qrbnNBRQ w - - 0 1", "racingkings", "position", "no move gives check"),
        ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "atomic", "piece placement", "only the side to move"),
        ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", "antichess", "piece placement", "first or last rank"),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "atomic", "position", "not to move) is in check"),
    ],
)
def test_bad_variant_fens_name_the_field(fen, variant, field, words):
    with pytest.raises(FenError) as err:
        parse_fen(fen, variant=variant)
    assert err.value.field == field
    assert words in str(err.value)


@pytest.mark.parametrize(
    "fen, variant",
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kq - 0 1", "horde"),
        ("7r/8/8/8/8/8/k1bnNBRK/qrbnNBRQ w - - 0 1", "racingkings"),
        ("8/8/8/8/8/8/krbnNBRP/qrbnNBRK w - - 0 1", "racingkings"),
        ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "atomic"),
    ],
)
def test_refused_positions_python_chess_calls_invalid(fen, variant):
    # the oracle agrees these are not positions of the variant
    assert not chess.variant.find_variant(variant)(fen).is_valid()


def test_variant_specific_positions_accepted():
    # atomic: touching kings, and a side to move whose king exploded
    assert parse_fen("8/8/8/3kK3/8/8/8/8 w - - 0 1", variant="atomic").notes == []
    assert parse_fen("8/8/8/3k4/8/8/8/8 w - - 0 1", variant="atomic").notes == []
    # antichess: no kings, several kings, a king "in check" on either side
    # and the side to move without pieces (the other captured its last one: the mover has won)
    for fen in (
        "8/8/8/3p4/8/8/4P3/8 w - - 0 1", "k7/8/8/3K4/8/8/K7/7k b - - 0 1", "4k3/8/8/8/8/8/8/4R2K w - - 0 1",
        "8/8/8/8/8/8/8/k7 w - - 0 1",
    ):
        assert parse_fen(fen, variant="antichess").notes == []
    # horde: white pawns on the first rank
    assert parse_fen("startpos", variant="horde").notes == []
    # three-check: the third check leaves the side to move in check (the game over, no note)
    assert parse_fen("4k3/8/8/8/8/8/8/4R1K1 b - - 0+3 0 1", variant="3check").notes == []


def test_cannot_arise_notes_and_strict():
    cases = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "antichess", "castling", "has no castling"),
        ("8/8/8/8/3K4/8/8/k7 w - - 0 1", "kingofthehill", "position", "the game ended when it arrived"),
        ("k6K/8/8/8/8/8/8/8 b - - 0 1", "racingkings", "position", "the game ended when it arrived"),
        (f"{START} w KQkq - 0+3 0 1", "3check", "checks", "has given 3 checks"),
        ("4k3/8/8/8/8/8/8/4R1K1 b - - 3+3 0 1", "3check", "checks", "has given no checks"),
        ("4k3/8/8/8/8/8/8/R3K2R b KQ - 0+3 0 1", "3check", "checks", "(to move) is not in check: the third ended the game"),
        ("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1", "crazyhouse", "piece placement", "1 piece is a promoted pawn but only 0 pawns are missing"),
        ("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[Pp] w - - 0 1", "crazyhouse", "piece placement", "pawns, at most 16"),
        ("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w Kkq - 0 1", "horde", "castling", "white has no king"),
        # the side that made the last move kept the piece it moved (it was counted 0, no note)
        ("8/8/8/8/8/8/8/K7 w - - 0 1", "antichess", "piece placement", "black has no pieces with white to move"),
        ("8/8/8/8/8/8/8/8 b - - 0 1", "antichess", "piece placement", "(the board is empty)"),
        # QA 41b: horde's white loses with its last piece, so black to move without any cannot arise
        ("4k3/8/8/8/8/8/8/8 b - - 0 1", "horde", "piece placement", "white has no pieces with black to move"),
    ]
    for fen, variant, field, words in cases:
        setup = parse_fen(fen, variant=variant)
        assert any(note.startswith(f"{field}: ") and words in note for note in setup.notes), (fen, setup.notes)
        with pytest.raises(FenError) as err:
            parse_fen(fen, variant=variant, strict=True)
        assert err.value.field == field and words in str(err.value)


@pytest.mark.parametrize(
    "fen, variant",
    [
        ("8/P7/8/8/8/8/8/k7 w ] - 0 1", "antichess"),
        ("KKKK4/8/8/8/8/8/8/kkkk4 w 6 - 0 1", "antichess"),
        ("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w +- - 0 1", "racingkings"),
        ("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w K- - 0 1", "racingkings"),
    ],
)
def test_a_malformed_castling_field_is_bad_input_in_a_variant_without_castling(fen, variant):
    # well-formed rights there are dropped with a note (the position cannot arise); a field
    # naming no rights was counted with that note as well, where python-chess refuses it
    with pytest.raises(FenError) as err:
        parse_fen(fen, variant=variant)
    assert err.value.field == "castling" and "unknown castling character" in str(err.value)
    board_class = chess.variant.find_variant(variant)
    with pytest.raises(ValueError):
        board_class(fen)


def test_960_names_and_giveaway_castling():
    setup = parse_fen("startpos", variant="atomic960")
    assert setup.chess960 and setup.variant == "atomic"
    assert parse_fen("startpos", variant="giveaway").castling == [0, 7, 56, 63]
    with pytest.raises(InputError, match="known variants"):
        parse_fen("startpos", variant="suicide")


def test_epd_lines_with_variant_fields():
    record = parse_epd(f"{START} w KQkq - 2+3 ;D1 20 ;variant 3check")
    assert record.setup.checks == (1, 0) and record.setup.variant == "3check"
    assert record.fen == f"{START} w KQkq - 2+3 0 1"
    record = parse_epd(f"{START} w KQkq - 0 1 +1+0 ;D1 20", variant="3check")
    assert record.setup.checks == (1, 0)
    record = parse_epd(f"{START}[Qn] w KQkq - ;D1 20", variant="crazyhouse")
    assert record.setup.pockets[0][5] == 1
    with pytest.raises(InputError, match="contradicts"):
        parse_epd(f"{START} w KQkq - ;variant atomic", variant="horde")


def test_touching_kings_in_a_variant_that_refuses_them_name_no_other_variant():
    """The way out of touching kings is given in standard chess, where a variant's file read
    without --variant meets it; a rule set the user chose refuses them plainly."""
    with pytest.raises(FenError) as err:
        parse_fen("8/8/8/3k4/4K3/8/8/8 w - - 0 1", variant="kingofthehill")
    assert err.value.reason == "the kings stand next to each other on e4 and d5"
