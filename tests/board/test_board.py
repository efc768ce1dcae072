"""Board, the Python API over the core, against python-chess and published counts: FEN round
trip, perft and divide, move notation, bad input, the history stack, copies. The legal move
sets are tested in tests/core/test_movegen.py, push and pop in tests/core/test_makemove.py."""

from __future__ import annotations

import chess
import pytest

from chesskit.board.board import Board
from chesskit.errors import FenError, IllegalMoveError, InputError
from helpers import KIWIPETE, pc_perft, random_boards, without

STANDARD = random_boards(seed=1, count=150)
CHESS960 = random_boards(seed=2, count=100, chess960=True)


def _ours(pc_board: chess.Board) -> Board:
    return Board(pc_board.fen(en_passant="fen"), chess960=pc_board.chess960)


@pytest.mark.parametrize("pc_board", STANDARD + CHESS960, ids=lambda b: b.fen())
def test_fen_round_trip(pc_board):
    # our en-passant square is kept when a pawn attacks it: python-chess's "xfen" convention
    assert _ours(pc_board).fen() == pc_board.fen(en_passant="xfen")


@pytest.mark.parametrize("pc_board", STANDARD[:25] + CHESS960[:25], ids=lambda b: b.fen())
def test_perft_matches_python_chess(pc_board):
    ours = _ours(pc_board)
    assert ours.perft(3) == pc_perft(pc_board, 3)


@pytest.mark.parametrize("pc_board", STANDARD[:10] + CHESS960[:10], ids=lambda b: b.fen())
def test_divide_matches_python_chess(pc_board):
    expected = {}
    for move in pc_board.legal_moves:
        pc_board.push(move)
        expected[move.uci()] = pc_perft(pc_board, 1)
        pc_board.pop()
    assert _ours(pc_board).divide(2) == expected


# The six positions of the chessprogramming wiki's Perft Results page (published counts).
PUBLISHED = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [1, 20, 400, 8902, 197281, 4865609]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [1, 48, 2039, 97862, 4085603]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [1, 14, 191, 2812, 43238, 674624]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [1, 6, 264, 9467, 422333]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [1, 44, 1486, 62379, 2103487]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", [1, 46, 2079, 89890, 3894594]),
]


@pytest.mark.parametrize("fen,counts", PUBLISHED)
def test_published_perft_counts(fen, counts):
    board = Board(fen)
    assert [board.perft(d) for d in range(len(counts))] == counts
    assert board.fen() == fen  # perft leaves the board as it found it


def test_divide_sums_to_perft_and_uses_uci():
    board = Board(KIWIPETE)
    div = board.divide(3)
    assert sum(div.values()) == 97862
    assert "e1g1" in div and "e1c1" in div


def test_push_rejects_illegal_move_and_lists_legal_ones():
    board = Board()
    with pytest.raises(IllegalMoveError) as err:
        board.push("e2e5")
    assert "e2e5" in str(err.value) and "e2e4" in str(err.value)
    assert err.value.exit_code == 2


def test_standard_castling_accepts_both_notations():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    a, b = Board(fen), Board(fen)
    a.push("e1g1")
    b.push("e1h1")
    assert a.fen() == b.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"


def test_bad_inputs():
    with pytest.raises(FenError):
        Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
    with pytest.raises(InputError):
        Board().perft(-1)
    with pytest.raises(InputError):
        Board().divide(0)
    with pytest.raises(InputError):
        Board().pop()


@pytest.mark.parametrize("call", [
    lambda b: b.push(None), lambda b: b.push(12), lambda b: b.piece_at(64), lambda b: b.piece_at(-1),
    lambda b: b.piece_at("e4"), lambda b: b.king_square(2), lambda b: b.king_square(-1),
])
def test_bad_squares_colours_and_moves_are_input_errors(call):
    """Not numpy's IndexError, an AttributeError, or -1 wrapped around to h8 (12, a king)."""
    with pytest.raises(InputError):
        call(Board())


def test_squares_and_colours_read_as_they_are():
    """Every square of Kiwipete as python-chess reads it (its piece types are chesskit's
    1-6), and each king's square."""
    from chesskit.vocab import BLACK, WHITE, piece_code

    board, pc = Board(KIWIPETE), chess.Board(KIWIPETE)
    for sq in range(64):
        piece = pc.piece_at(sq)
        assert board.piece_at(sq) == (0 if piece is None else piece_code(WHITE if piece.color else BLACK, piece.piece_type))
    assert (board.king_square(WHITE), board.king_square(BLACK)) == (pc.king(chess.WHITE), pc.king(chess.BLACK))


def test_long_games_grow_the_history_stack():
    board = Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    for i in range(700):  # more plies than the preallocated stack
        board.push("a1a2" if i % 4 == 0 else "e5e6" if i % 4 == 1 else "a2a1" if i % 4 == 2 else "e6e5")
    assert board.perft(2) > 0
    for _ in range(700):
        board.pop()
    assert board.fen() == "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"


def test_copy_is_independent():
    board = Board()
    clone = board.copy()
    clone.push("e2e4")
    assert board.fen() != clone.fen()
    assert clone.move_stack == ["e2e4"] and board.move_stack == []


def test_a_walk_in_parts_counts_like_the_plain_walk():
    # a walk with a progress report or threads is cut into parts two plies down: at depth 1
    # the parts were walked to depth -1 and the process died ("double free or corruption"),
    # and a root move that mates had no part, so divide lost it (`chesskit divide FEN 4`
    # ended in "internal error: KeyError"); run in a child, so a crash fails only this test
    import subprocess
    import sys

    from helpers import subprocess_env

    code = (
        "from chesskit.board.board import Board\n"
        f"b = Board({KIWIPETE!r}); mate_in_one = Board('6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1')\n"
        "for board in (b, mate_in_one):\n"
        "    for depth in (1, 2):\n"
        "        seen = []\n"
        "        shown = board.divide(depth, progress=lambda *a: seen.append(a))\n"
        "        assert shown == board.divide(depth), (depth, shown)\n"
        "        assert seen[-1][0] == seen[-1][1] and seen[-1][2] == sum(shown.values()), seen[-1]\n"
        "        assert board.perft(depth, progress=lambda *a: None) == board.perft(depth)\n"
        "assert mate_in_one.divide(4, threads=2) == mate_in_one.divide(4)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=subprocess_env(), timeout=120)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr[-2000:]


_CHECKS = [
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # a queen on a diagonal
    "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",  # a pawn
    "4k3/8/8/8/8/3n4/8/4K3 w - - 0 1",  # a knight
    "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",  # a double check
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  # the pawn that just moved gives it, with an ep square
    "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1",  # black in check along a file
    "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",  # a queen touching the king
    "4k3/4r3/8/8/4B3/8/8/4K3 w - - 0 1",  # a blocked rook: no check
]


@pytest.mark.parametrize("pc_board", STANDARD + CHESS960 + [chess.Board(f) for f in _CHECKS], ids=lambda b: b.fen())
def test_is_check_matches_python_chess(pc_board):
    assert _ours(pc_board).is_check() == pc_board.is_check()


def test_is_check_loads_no_numba():
    # `chesskit show` asks whether the side to move is in check: that took a compiled
    # function loaded through numba's dispatcher (~1.5-2.5 s of a 3 s command), where the
    # legal moves come from the walk's machine code with no numba loaded at all
    import subprocess
    import sys

    from helpers import subprocess_env

    code = (
        "import sys\n"
        "from chesskit.board.board import Board\n"
        f"board = Board({_CHECKS[0]!r})\n"
        "assert board.legal_moves() == [] and board.is_check()\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('numba.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=subprocess_env(), timeout=120)
    assert done.returncode == 0 and done.stdout == "[]\n", (done.stdout[-500:], done.stderr[-2000:])


def test_warm_up_loads_a_variants_walk_and_says_when_it_compiles(monkeypatch, capsys):
    # `chesskit perft startpos 3 --variant horde` on a fresh cache compiled horde's walk
    # inside the timed run ("Time: 00:00:09.48", "Nodes/second: 134") and said nothing of it;
    # the variant's walk is stubbed here (compiling it takes seconds: the variant tests do)
    from chesskit.core import native
    from chesskit.core.vstate import RULES

    board = Board(variant="kingofthehill")
    Board().perft(1)  # the standard walk, loaded
    built = []
    monkeypatch.setattr(native, "_walks", without(native._walks, RULES[board._vid]))  # the stub's walk is not left behind
    monkeypatch.setattr(native, "load", lambda variant=0: None)  # not in the cache
    monkeypatch.setattr(native, "build", lambda variant=0: built.append(variant) or "built")
    monkeypatch.setattr(native, "is_saved", lambda variant=0: variant == 0)
    monkeypatch.setattr(native, "_numba_holds_it", lambda: False)
    board.warm_up()
    assert built == [RULES[board._vid]]
    err = capsys.readouterr().err
    assert err.startswith("chesskit: compiling the kingofthehill move generator, ") and err.count("\n") == 1


def test_each_child_makes_every_legal_move_in_turn_and_takes_it_back():
    board = Board(KIWIPETE)
    before = board.fen()
    seen = []
    for uci in board.each_child():
        after = Board(KIWIPETE)
        after.push(uci)
        assert board.fen() == after.fen() and board.move_stack == [uci]
        seen.append(uci)
    assert seen == board.legal_moves() and board.fen() == before and board.move_stack == []
    for _ in board.each_child():
        break  # stopped early: the move is taken back all the same
    assert board.fen() == before and board.move_stack == []
