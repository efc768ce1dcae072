"""The FEN reader's shortcuts (board/fen.py): ranks read once and remembered (``_RANKS``),
ranks written once and remembered (``_RANK_TEXT``), the material counted in one pass.
Each must give what reading every rank afresh gives, and refuse what it refuses with the
same message; python-chess is the oracle of the boards and FENs."""

from pathlib import Path

import chess
import pytest

from chesskit.board import fen, fen_variants
from chesskit.board.fen import format_fen, parse_epd, parse_fen
from chesskit.errors import FenError

POSITIONS = Path(__file__).resolve().parents[2] / "positions"


def _cold(text: str, **kwargs):
    """parse_fen and format_fen with every remembered rank forgotten first."""
    fen._RANKS.clear()
    fen._RANK_TEXT.clear()
    setup = parse_fen(text, **kwargs)
    fen._RANK_TEXT.clear()
    return setup, format_fen(setup)


def _standard_fens(paths) -> list[tuple[str, bool]]:
    """(the FEN fields, Chess960) of every standard line of the given suite files."""
    found = []
    for path in paths:
        for line in path.read_text().splitlines():
            text = line[4:] if line.startswith("epd ") else line
            if not text.strip() or text[0] in "#%" or line.startswith(("id ", "perft ")):
                continue
            found.append((" ".join(text.split()[:4]), "960" in path.stem))
    return found


def _agree(fens) -> int:
    checked = 0
    for text, c960 in fens:
        try:
            cold = _cold(text, chess960=c960 or None)
        except FenError as err:
            with pytest.raises(FenError) as warm:
                parse_fen(text, chess960=c960 or None)
            assert str(warm.value) == str(err)
            continue
        warm = parse_fen(text, chess960=c960 or None)  # its ranks remembered now
        assert (warm, format_fen(warm)) == cold, text
        oracle = chess.Board(text, chess960=c960)
        assert {sq: p.piece_type | (not p.color) << 3 for sq, p in oracle.piece_map().items()} == {
            sq: code for sq, code in enumerate(warm.board) if code
        }, text
        assert format_fen(warm).split()[0] == oracle.board_fen(), text
        for color in (fen.WHITE, fen.BLACK):
            count = [warm.board.count(kind | color << 3) for kind in range(7)]
            assert fen_variants.promotions_needed(warm.board, color, count=count) == fen_variants.promotions_needed(
                warm.board, color
            )
        checked += 1
    return checked


def test_bundled_positions_read_alike_cold_and_warm():
    assert _agree(_standard_fens(sorted(POSITIONS.glob("*.epd")))) > 100


@pytest.mark.slow
def test_python_chess_sets_read_alike_cold_and_warm(perft_sets):
    files = [perft_sets / name for name in ("random.perft", "chess960.perft", "tricky.perft")]
    assert _agree(_standard_fens(files)) > 7_000


def test_a_remembered_rank_serves_any_rank():
    parse_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "R3K2R" in fen._RANKS and "4k3" in fen._RANKS
    setup = parse_fen("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1")  # "4K3" new, "8" remembered
    assert setup.board[56] == fen.ROOK | 8 and setup.board[4] == fen.KING
    moved = parse_fen("8/8/8/R3K2R/8/8/8/4k3 w - - 0 1")  # the white rank read on rank 5
    assert [moved.board[sq] for sq in (32, 36, 39)] == [fen.ROOK, fen.KING, fen.ROOK]
    assert format_fen(moved).startswith("8/8/8/R3K2R/8/8/8/4k3 ")


def test_a_board_is_not_the_remembered_rank():
    first = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    first.board[0] = fen.QUEEN  # the caller owns its board
    again = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert again.board[0] == 0 and fen._RANKS["4K3"] == [0, 0, 0, 0, fen.KING, 0, 0, 0]


@pytest.mark.parametrize(
    "bad, message",
    [
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "rank 1 has 7 squares, expected 8"),
        ("4k3/8/8/8/8/8/8/4K22 w - - 0 1", "two digits in a row ('22') on rank 1"),
        ("4k3/8/8/4K2/8/8/8/8 w - - 0 1", "rank 5 has 7 squares, expected 8"),
        ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "unknown piece letter 'X' on rank 1"),
        ("4k3/8/8/8/8/8/8/0K7 w - - 0 1", "empty-square count '0' on rank 1"),
    ],
)
def test_a_bad_rank_is_refused_every_time_with_its_rank(bad, message):
    parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")  # good ranks remembered first
    for _ in range(2):  # a refused rank is never remembered
        with pytest.raises(FenError, match=fr"piece placement: {message.replace('(', '[(]').replace(')', '[)]')}"):
            parse_fen(bad)
    assert "4K2" not in fen._RANKS and "4X3" not in fen._RANKS


def test_promoted_marks_are_never_remembered():
    house = parse_fen("4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1", variant="crazyhouse")
    assert house.promoted == [0] and "Q~3K3" not in fen._RANKS
    assert format_fen(house).startswith("4k3/8/8/8/8/8/8/Q~3K3[] ")
    plain = parse_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")  # the same rank, no mark
    assert plain.board[0] == fen.QUEEN and format_fen(plain).startswith("4k3/8/8/8/8/8/8/Q3K3 ")
    again = parse_fen("4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1", variant="crazyhouse")
    assert format_fen(again) == format_fen(house)


def test_many_distinct_ranks_keep_the_memory_bounded(monkeypatch):
    monkeypatch.setattr(fen, "_RANKS_KEPT", 4)
    # empty caches: ranks that earlier tests in this process left there would be hits that add
    # nothing (and the caches over 4 then stay so until the next miss)
    monkeypatch.setattr(fen, "_RANKS", {})
    monkeypatch.setattr(fen, "_RANK_TEXT", {})
    for letters in ("R3K3", "N3K3", "B3K3", "Q3K3", "P3K3"):
        text = f"4k3/8/8/8/8/8/8/{letters} w - - 0 1" if letters[0] != "P" else "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"
        setup = parse_fen(text)
        assert format_fen(setup).split()[0] == text.split()[0]
        assert len(fen._RANKS) <= 4 and len(fen._RANK_TEXT) <= 4


def test_material_refusals_and_notes_unchanged():
    with pytest.raises(FenError, match="white pawn on rank 8 [(]a8[)]: pawns never stand"):
        parse_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(FenError, match="black pawn on rank 1 [(]h1[)]"):
        parse_fen("4k3/8/8/8/8/8/8/4K2p w - - 0 1")
    with pytest.raises(FenError, match="black has 2 kings"):
        parse_fen("3kk3/8/8/8/8/8/8/4K3 w - - 0 1")
    bishops = parse_fen("4k3/8/8/8/8/8/8/BB1BKB2 w - - 0 1")  # two light, two dark: 2 promoted, 8 pawns missing
    assert bishops.notes == []
    many = parse_fen("4k3/8/8/8/8/8/PPPPPPP1/BBBBKB2 w - - 0 1")  # 3 dark + 2 light bishops, 7 pawns
    assert many.notes == ["piece placement: white has at least 3 promoted pieces but only 1 missing pawns that could have promoted"]
    assert parse_epd("4k3/8/8/8/8/8/PPPPPPP1/BBBBKB2 w - - id x;").setup.notes == many.notes
