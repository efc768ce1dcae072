"""compare: the descent against the real Stockfish and against each buggy engine of tests/engines.

Every buggy engine is driven in each of its forms - perftree script, fake UCI engine
(``fake_uci.py --bug``), Python adapter with fen() (full-state comparison on) and the
same adapter with fen() hidden (counts only) - and the test pins the exact failing
node, the exact missing/extra moves with their classification and hint, or the
exact state field.  Each trigger position sits a move or two before the bug bites,
so the descent really has to walk down to it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import chess
import pytest

from chesskit.compare.engines import PythonEngine
from helpers import ENGINES, EP_FEN, KIWIPETE, STARTPOS, pc_perft

PY = sys.executable

C960_CPW = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"


pytestmark = pytest.mark.usefixtures("no_leftover_children")


def engine_args(kind: str, bug: str) -> list[str]:
    """The compare flags that run ``bug`` (``correct`` for eng_correct.py) in form ``kind``."""
    name = "eng_correct.py" if bug == "correct" else f"bug_{bug}.py"
    if kind == "script":
        return ["--script", str(ENGINES / name)]
    if kind == "uci":
        extra = "" if bug == "correct" else f" --bug {bug}"
        return ["--engine", f"{PY} {ENGINES / 'fake_uci.py'}{extra}"]
    return ["--python", f"{ENGINES / name}:Adapter"]  # "python" and "python-nofen"


def run_compare(cli, monkeypatch, kind: str, bug: str, fen: str, depth: int, *more: str):
    if kind == "python-nofen":
        monkeypatch.setattr(PythonEngine, "has_fen", lambda self: False)
    result = cli("compare", fen, str(depth), *engine_args(kind, bug), "--json", *more)
    assert result.exit_code in (0, 1), result.stderr
    return result, json.loads(result.stdout)


# ------------------------------------------------------------------ the real Stockfish


@pytest.mark.stockfish
@pytest.mark.parametrize(
    "position, depth, moves",
    [
        ("startpos", 3, ""),
        ("kiwipete", 3, ""),
        (KIWIPETE, 2, "e1c1 h3g2"),
        (C960_CPW, 3, ""),
        ("c960-959", 2, ""),
    ],
)
def test_stockfish_agrees(cli, stockfish_path, position, depth, moves):
    result = cli("compare", position, str(depth), "--engine", stockfish_path, "--moves", moves, "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is True and report["kind"] is None
    assert report["missing"] == [] and report["extra"] == []
    [step] = report["steps"]
    assert step["depth"] == depth and step["path"] == moves.split()
    assert step["ours"] == step["theirs"]


@pytest.mark.stockfish
def test_stockfish_agrees_plain(cli, stockfish_path):
    result = cli("compare", C960_CPW, "2", "--engine", stockfish_path, "--engine-option", "Hash=16")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"agree: {stockfish_path} and chesskit give the same divide at depth 2\n")
    assert result.stderr == ""


@pytest.mark.parametrize("kind", ["python", "script", "uci"])
@pytest.mark.parametrize("fen", [KIWIPETE, C960_CPW])
def test_correct_engine_agrees(cli, monkeypatch, kind, fen):
    result, report = run_compare(cli, monkeypatch, kind, "correct", fen, 2)
    assert result.exit_code == 0
    assert report["agree"] is True
    assert sum(report["steps"][0]["ours"].values()) == (2039 if fen == KIWIPETE else 528)


# ------------------------------------------------------------------ move-generation bugs

# bug -> (position, depth, failing path, failing FEN, missing, extra, {move: (kinds, hint)})
MOVE_BUGS = {
    "no_ep": (
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        3,
        ["f7f5"],
        EP_FEN,
        ["e5f6"],
        [],
        {
            "e5f6": (
                ["capture", "en passant"],
                "en-passant capture not generated: the double push did not set the en-passant square, or it is ignored",
            )
        },
    ),
    "ep_rank_pin": (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        3,
        ["d6d5", "e2e4"],
        "8/2p5/8/KP1p3r/1R2Pp1k/8/6P1/8 b - e3 0 2",
        [],
        ["f4e3"],
        {
            "f4e3": (
                ["capture", "en passant"],
                "en-passant capture that exposes the king along the rank (both pawns leave it)",
            )
        },
    ),
    "castle_through_check": (
        "2b1k3/8/8/8/8/8/8/4K2R b K - 0 1",
        2,
        ["c8h3"],
        "4k3/8/8/8/8/7b/8/4K2R w K - 1 2",
        [],
        ["e1g1"],
        {"e1g1": (["castle"], "castling through an attacked square (f1)")},
    ),
    "castle_rights_kept": (
        "4k3/8/8/8/8/8/6b1/4K2R b K - 0 1",
        3,
        ["g2h1"],
        "4k3/8/8/8/8/8/8/4K2b w - - 0 2",
        [],
        ["e1g1"],
        {
            "e1g1": (
                ["castle"],
                "castling after the rook was captured on h1: rights not cleared when a rook is captured on its home square",
            )
        },
    ),
    "queen_promo_only": (
        "8/8/P7/8/8/8/8/k6K w - - 0 1",
        3,
        ["a6a7", "a1b1"],
        "8/P7/8/8/8/8/8/1k5K w - - 1 2",
        ["a7a8r", "a7a8b", "a7a8n"],
        [],
        {
            "a7a8r": (["promotion to rook"], "underpromotions missing: only the promotion to a queen is generated"),
            "a7a8b": (["promotion to bishop"], "underpromotions missing: only the promotion to a queen is generated"),
            "a7a8n": (["promotion to knight"], "underpromotions missing: only the promotion to a queen is generated"),
        },
    ),
}


@pytest.mark.parametrize(
    "bug, kind",
    [
        (bug, kind)
        for bug in sorted(MOVE_BUGS)
        for kind in ("script", "uci", "python", "python-nofen")
        # with fen() the state comparison finds this one first: test_castle_rights_kept_state
        if (bug, kind) != ("castle_rights_kept", "python")
    ],
)
def test_move_bug_found(cli, monkeypatch, kind, bug):
    fen, depth, path, failing_fen, missing, extra, notes = MOVE_BUGS[bug]
    result, report = run_compare(cli, monkeypatch, kind, bug, fen, depth)
    assert result.exit_code == 1
    assert report["agree"] is False and report["kind"] == "moves"
    assert report["path"] == path
    assert report["fen"] == failing_fen
    assert report["missing"] == missing
    assert report["extra"] == extra
    assert {n["move"]: (n["kinds"], n["hint"]) for n in report["notes"]} == notes
    assert [n["side"] for n in report["notes"]] == ["missing"] * len(missing) + ["extra"] * len(extra)
    # one step per node from the start down to the failing one; the last one holds the differing lists
    assert [s["depth"] for s in report["steps"]] == list(range(depth, depth - len(path) - 1, -1))
    assert [s["path"] for s in report["steps"]] == [path[:i] for i in range(len(path) + 1)]
    last = report["steps"][-1]
    assert set(last["ours"]) - set(last["theirs"]) == set(missing)
    assert set(last["theirs"]) - set(last["ours"]) == set(extra)
    assert report["field"] is None and report["ours"] is None and report["theirs"] is None
    summary = result.stderr.strip().splitlines()
    assert len(summary) == 1 and summary[0].startswith("chesskit: ")


# ------------------------------------------------------------------ state bugs


def test_castle_rights_kept_state(cli, monkeypatch):
    """With fen(), the right kept after g2xh1 shows right after the push, before any count differs."""
    fen = MOVE_BUGS["castle_rights_kept"][0]
    result, report = run_compare(cli, monkeypatch, "python", "castle_rights_kept", fen, 3)
    assert result.exit_code == 1
    assert report["kind"] == "state"
    assert report["path"] == ["g2h1"]
    assert report["fen"] == "4k3/8/8/8/8/8/8/4K2b w - - 0 2"
    assert (report["op"], report["move"], report["field"], report["ours"], report["theirs"]) == (
        "push",
        "g2h1",
        "castling",
        "-",
        "K",
    )
    assert report["hint"] == (
        "castling right kept after g2h1 captured the rook on h1: rights not cleared when a rook is captured on its home square"
    )
    assert report["missing"] == [] and report["extra"] == [] and report["steps"] == []


# bug -> (position, failing path, failing FEN, op, move, field, ours, theirs, hint)
STATE_BUGS = {
    "halfmove_not_restored": (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20",
        [],
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20",
        "pop",
        "h1h8",
        "halfmove",
        5,
        0,
        "unmake (pop h1h8) does not restore the halfmove clock",
    ),
    "fullmove_not_restored": (
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 20",
        [],
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 20",
        "pop",
        "h8g8",
        "fullmove",
        20,
        21,
        "unmake (pop h8g8) does not restore the fullmove number",
    ),
    "ep_not_restored": (
        EP_FEN,
        [],
        EP_FEN,
        "pop",
        "g1h3",
        "ep",
        "f6",
        None,
        "unmake (pop g1h3) does not restore the en-passant square",
    ),
}


@pytest.mark.parametrize("bug", sorted(STATE_BUGS))
def test_state_bug_found(cli, monkeypatch, bug):
    fen, path, failing_fen, op, move, field, ours, theirs, hint = STATE_BUGS[bug]
    result, report = run_compare(cli, monkeypatch, "python", bug, fen, 2)
    assert result.exit_code == 1
    assert report["agree"] is False and report["kind"] == "state"
    assert report["path"] == path and report["fen"] == failing_fen
    assert (report["op"], report["move"]) == (op, move)
    assert (report["field"], report["ours"], report["theirs"]) == (field, ours, theirs)
    assert report["hint"] == hint


@pytest.mark.parametrize("kind", ["script", "uci", "python-nofen"])
@pytest.mark.parametrize("bug", ["halfmove_not_restored", "fullmove_not_restored"])
def test_clock_bugs_invisible_to_counts(cli, monkeypatch, kind, bug):
    """Without fen() the clocks cannot be seen: the counts agree."""
    fen = STATE_BUGS[bug][0]
    result, report = run_compare(cli, monkeypatch, kind, bug, fen, 2)
    assert result.exit_code == 0 and report["agree"] is True


@pytest.mark.parametrize("kind", ["script", "uci", "python-nofen"])
def test_unmake_bug_without_fen_is_a_walk_mismatch(cli, monkeypatch, kind):
    """ep_not_restored counts e5f6 wrongly only when reached from the root by make/unmake."""
    result, report = run_compare(cli, monkeypatch, kind, "ep_not_restored", EP_FEN, 3)
    assert result.exit_code == 1
    assert report["kind"] == "state" and report["field"] == "walk"
    assert report["path"] == ["e5f6"]
    assert report["fen"] == "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    assert (report["ours"], report["theirs"]) == (908, 847)
    assert report["steps"][0]["theirs"]["e5f6"] == 847
    assert sum(report["steps"][1]["theirs"].values()) == 908
    assert "unmake that does not restore the state" in report["hint"]


def test_state_checked_along_the_descent_when_the_sweep_is_off(cli, monkeypatch):
    """--state-pushes 0: only the nodes the descent visits are compared, and that still finds g2h1."""
    fen = MOVE_BUGS["castle_rights_kept"][0]
    result, report = run_compare(
        cli, monkeypatch, "python", "castle_rights_kept", fen, 3, "--state-pushes", "0"
    )
    assert report["kind"] == "state" and report["field"] == "castling"
    assert report["path"] == ["g2h1"] and report["op"] == "push"
    # the descent had divided the start node before it went down g2h1
    assert [s["path"] for s in report["steps"]] == [[]]


# ------------------------------------------------------------------ the descent as a library


class _Fixed:
    """Answers with chesskit's own divide, plus ``delta`` on the way to ``at`` (but not at ``at``)."""

    def __init__(self, at: list[str], delta: int, root: str = KIWIPETE):
        self.at, self.delta, self.root = at, delta, root  # a node asked as a FEN of its own is counted right

    def divide(self, fen, depth, moves, chess960=False):
        from chesskit.board.board import Board

        board = Board(fen)
        for m in moves:
            board.push(m)
        result = board.divide(depth)
        moves = list(moves)
        if len(moves) < len(self.at) and moves == self.at[: len(moves)] and fen == self.root:
            result[self.at[len(moves)]] += self.delta
        return result


class _Twos:
    """The right moves, but one of them counted twice at depth 1."""

    def divide(self, fen, depth, moves, chess960=False):
        from chesskit.board.board import Board

        result = Board(fen).divide(depth)
        result["e1g1"] = 2
        return result


def test_descend_follows_the_counts_and_leaves_the_board_alone():
    from chesskit.board.board import Board
    from chesskit.compare.descent import descend

    board = Board(KIWIPETE)
    steps = []
    report = descend(board, _Fixed(["e1g1", "h3g2"], 0), 3, KIWIPETE, on_step=steps.append)
    assert board.fen() == KIWIPETE and board.move_stack == []
    assert report.agree  # no change: the same numbers everywhere
    assert len(steps) == 1 and steps[0].depth == 3


def test_descend_reports_an_inconsistent_engine_as_a_walk_mismatch():
    from chesskit.board.board import Board
    from chesskit.compare.descent import descend

    report = descend(Board(KIWIPETE), _Fixed(["e1g1", "h3g2"], 5), 3, KIWIPETE, engine_name="fixed")
    assert report.kind == "state" and report.state.field == "walk"
    assert report.path == ["e1g1", "h3g2"]
    assert [s.path for s in report.steps] == [[], ["e1g1"], ["e1g1", "h3g2"]]
    assert report.state.theirs == report.state.ours + 5


class _Interrupted(_Fixed):
    """``_Fixed``, and Ctrl-C (a CI job's SIGTERM) during its answer at ``stop``."""

    def __init__(self, at, delta, stop):
        super().__init__(at, delta)
        self.stop = stop

    def divide(self, fen, depth, moves, chess960=False):
        if list(moves) == self.stop:
            raise KeyboardInterrupt
        return super().divide(fen, depth, moves, chess960)


@pytest.mark.parametrize(
    "stop, said",
    [
        ([], r"compare stopped at the start position's depth 3, while the engine counted \(\d+\.\d s\)"),
        (
            ["e1g1", "h3g2"],
            r"compare's descent stopped at depth 1 after e1g1 h3g2 \(fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPpP/"
            r"R4RK1 w kq - 0 2\), where the counts differ, while the engine counted \(\d+\.\d s\)",
        ),
    ],
)
def test_an_interrupted_descent_says_where_it_stopped(stop, said):
    # QA 41d: a CI job's time limit ended a long descent, and its line said "interrupted" alone
    import re

    from chesskit.board.board import Board
    from chesskit.compare.descent import descend

    with pytest.raises(KeyboardInterrupt) as caught:
        descend(Board(KIWIPETE), _Interrupted(["e1g1", "h3g2"], 5, stop), 3, KIWIPETE)
    (note,) = caught.value.__notes__
    assert re.fullmatch(said, note), note


def _below_each_move(fen, moves, count) -> dict[str, int]:
    """python-chess's divide of ``fen`` after ``moves``, ``count(board)`` below each move."""
    board = chess.Board(fen)
    for m in moves:
        board.push_uci(m)
    result = {}
    for move in list(board.legal_moves):
        board.push(move)
        result[move.uci()] = count(board)
        board.pop()
    return result


class _BulkPseudo:
    """A python-chess engine whose last ply counts pseudo-legal moves (a bulk count that
    tests no legality), while its divide of a node lists the legal moves only."""

    def divide(self, fen, depth, moves, chess960=False):
        return _below_each_move(fen, moves, lambda board: self._perft(board, depth - 1))

    def _perft(self, board, depth):
        if depth == 0:
            return 1
        if depth == 1:
            return sum(1 for _ in board.generate_pseudo_legal_moves())
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += self._perft(board, depth - 1)
            board.pop()
        return total


def test_a_pseudo_legal_bulk_count_is_named_as_such():
    from chesskit.board.board import Board
    from chesskit.compare.descent import descend

    fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"  # pos3: b4f4 checks, two legal replies
    report = descend(Board(fen), _BulkPseudo(), 2, fen, engine_name="bulk")
    assert report.kind == "state" and report.state.field == "walk" and report.path == ["b4f4"]
    assert report.state.hint == (
        "16 is the number of pseudo-legal moves here (2 legal and 14 that leave the king in check): "
        "the engine's count at the last ply (a bulk count of the moves below a move) does not test that "
        "its king is safe, while its divide of this node does"
    )
    # a count off by anything else keeps the unmake hint
    report = descend(Board(KIWIPETE), _Fixed(["e1g1", "h3g2"], 5), 3, KIWIPETE, engine_name="fixed")
    assert report.to_json()["hint"].endswith("an unmake that does not restore the state, or state kept between questions (a hash table keyed without castling rights or the en-passant square)")


def test_depth_one_counts_other_than_one_are_an_engine_error():
    from chesskit.board.board import Board
    from chesskit.compare.descent import descend
    from chesskit.errors import EngineError

    board = Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    with pytest.raises(
        EngineError, match=r"^engine 'fixed' answered a depth-1 divide with counts other than 1"
    ):
        descend(board, _Twos(), 1, board.fen(), engine_name="fixed")


class _Shallower:
    """A python-chess engine that counts ``fewer`` plies less than it is asked (``go perft
    N`` read off by one, or N ignored): its divide of a node at depth D is the true one at
    D - fewer (every row 1 at depth 1 and below)."""

    def __init__(self, fewer):
        self.fewer = fewer

    def divide(self, fen, depth, moves, chess960=False):
        return _below_each_move(fen, moves, lambda board: pc_perft(board, max(0, depth - 1 - self.fewer)))


@pytest.mark.parametrize("fewer", [1, 2])
def test_an_engine_counting_fewer_plies_than_asked_is_named_as_such(fewer):
    from chesskit.board.board import Board
    from chesskit.compare.descent import descend

    board = Board(KIWIPETE)
    report = descend(board, _Shallower(fewer), 3, KIWIPETE, engine_name="short")
    assert board.move_stack == []
    # its divides agree at depth 1 below a node it counted wrong from the parent: once read
    # as an unmake that does not restore the state
    assert report.kind == "state" and report.state.field == "walk"
    plies = "1 ply" if fewer == 1 else "2 plies"
    assert report.state.hint == (
        f"the engine's divide at depth 3 is chesskit's at depth {3 - fewer}, move by move: it counts {plies} "
        "fewer than asked (the depth parsed or applied off by one, or ignored), not a make/unmake fault"
    )
    assert report.summary() == f"short counts fewer plies than asked: its divide at depth 3 is chesskit's at depth {3 - fewer}"
    from chesskit.cli.compare_render import headline

    assert headline(report) == "DISAGREE: the engine counts another depth than it is asked (3)"
    # an engine whose unmake is wrong keeps the unmake hint
    plain = descend(Board(KIWIPETE), _Fixed(["e1g1", "h3g2"], 5), 3, KIWIPETE)
    assert "unmake" in plain.state.hint and "fewer than asked" not in plain.state.hint


def test_a_deep_descent_counts_its_side_as_divide_does(stockfish_path, monkeypatch):
    # from depth 5 on chesskit's side counts on every core with its default table (it ran on
    # one thread without one: compare's startpos 8 took 76 s against divide's 9.7 s); its
    # counts, and their order, are the divide's
    from chesskit.board.board import Board
    from chesskit.board import tablesize
    from chesskit.compare import rows
    from helpers import sf_divide

    pos3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    asked = []
    monkeypatch.setattr(tablesize, "board_default_mb", lambda board, depth: asked.append(depth) or 1)
    fast = rows.our_divide(Board(pos3), 6)
    assert asked == [6] and fast == sf_divide(stockfish_path, pos3, 6)
    assert list(fast) == list(Board(pos3).divide(6))  # generation order, as the plain divide gives it
    assert rows.our_divide(Board(pos3), 4) == Board(pos3).divide(4) and asked == [6]  # shallow: no table asked


# ------------------------------------------------------------------ an engine that fails deeper than its bug

KINGS_TOUCH = "8/2b5/8/1pP5/K7/1r6/k7/8 w - - 0 1"  # a4b3 steps beside the black king


@pytest.mark.parametrize("how", ["--python", "--script"])
def test_a_bug_that_crashes_the_engine_deeper_is_found_at_a_shallower_depth(cli, how):
    # QA 42b D1: the engine crashed at the depth asked (its king taken after an illegal king
    # step), and compare reported only the crash, exit 3, where depth 1 shows the illegal move
    spec = str(ENGINES / "bug_kings_touch.py") + (":Adapter" if how == "--python" else "")
    result = cli("compare", KINGS_TOUCH, "3", how, spec, "--json")
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["path"] == [] and report["extra"] == ["a4b3"] and report["missing"] == []
    assert report["notes"][0]["hint"] == "king moves next to the enemy king"
    assert [step["depth"] for step in report["steps"]] == [1]
    assert "it failed at depth 3 of compare's descent, at the start position" in report["engine_failure"]
    assert result.stderr.strip().endswith("(found at depth 1: at depth 3 the engine failed)")
    plain = cli("compare", KINGS_TOUCH, "3", how, spec)
    assert plain.exit_code == 1
    lines = plain.stdout.splitlines()
    assert lines[3].startswith("engine failed: engine ") and "it failed at depth 3" in lines[3]
    assert lines[4] == "asked again at shallower depths there, started afresh: at depth 1 it differs (below)"


def test_an_engine_that_fails_where_it_agrees_at_shallower_depths_is_an_engine_failure(cli):
    placement = STARTPOS.split()[0]
    engine = f"{ENGINES / 'fail_on.py'} --fault segv --on {placement} --depth 3"
    result = cli("compare", "startpos", "3", "--engine", engine)
    assert result.exit_code == 3
    assert result.stderr.strip().endswith("it agrees with chesskit at depths 1-2 there")
    assert "killed by signal SIGSEGV after 'go perft 3'" in result.stderr


def test_a_failing_node_below_a_proven_difference_says_what_differed_above(cli):
    # QA 42c D1: the node after a2a3 crashed at depth 2 and agreed at depth 1, and the line
    # ended "it agrees with chesskit at depth 1 there": the root's divide had already
    # counted a2a3 one too many (castling rights kept after the rook is taken)
    placement = "4k3/8/8/8/8/8/P5b1/4K2R"
    engine = f"{ENGINES / 'fail_on.py'} --fault segv --on {placement} --moves a2a3 --depth 2 --bug castle_rights_kept"
    result = cli("compare", f"{placement} w K - 0 1", "3", "--engine", engine)
    assert result.exit_code == 3
    assert result.stderr.strip().endswith(
        "it agrees with chesskit at depth 1 there, but its divide at depth 3 at the start position had counted "
        "a2a3 194 where chesskit counts 193"
    )


def test_the_api_and_the_html_report_carry_the_failure_a_difference_was_found_after(cli, tmp_path):
    # QA 42c: CompareResult had no engine_failure (its depth the shallower one), and the
    # HTML page left the failure out
    import chesskit

    spec = f"{ENGINES / 'bug_kings_touch.py'}:Adapter"
    with chesskit.Engine(python=spec) as engine:
        result = chesskit.compare(engine, KINGS_TOUCH, 3)
    assert (result.agree, result.depth, result.failed_depth, result.extra) == (False, 1, 3, ["a4b3"])
    assert "it failed at depth 3 of compare's descent" in result.engine_failure
    assert result.to_json()["engine_failure"] == result.engine_failure
    page = tmp_path / "report.html"
    assert cli("compare", KINGS_TOUCH, "3", "--python", spec, "--html", str(page)).exit_code == 1
    html = page.read_text()
    assert "compare at depth 1, asked after the engine failed deeper" in html
    # below the root: the steps that led to the failing node come first (QA 42c)
    placement = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR"
    engine = f"{ENGINES / 'fail_on.py'} --fault segv --on {placement} --moves f7f5 --depth 2 --bug no_ep"
    below = cli("compare", f"{placement} b KQkq - 0 2", "3", "--engine", engine, "--json")
    assert below.exit_code == 1
    data = json.loads(below.stdout)
    assert [(step["path"], step["depth"]) for step in data["steps"]] == [([], 3), (["f7f5"], 1)]
    assert data["missing"] == ["e5f6"] and "failed at depth 2 of compare's descent, after f7f5" in data["engine_failure"]
    assert "<dt>engine failed</dt><dd>engine " in html and "king square lookup failed" in html


def test_an_interrupt_while_asking_shallower_depths_names_the_failure():
    import re

    from chesskit.board.board import Board
    from chesskit.errors import EngineError

    class FailsThenInterrupted(_Fixed):
        def divide(self, fen, depth, moves, chess960=False):
            if depth == 3:
                raise EngineError("engine 'x' crashed (the test's)")
            if depth == 2:
                raise KeyboardInterrupt
            return super().divide(fen, depth, moves, chess960)

        def close(self):
            pass

    from chesskit.compare.descent import descend

    with pytest.raises(KeyboardInterrupt) as caught:
        descend(Board(KIWIPETE), FailsThenInterrupted([], 0), 3, KIWIPETE)
    (note,) = caught.value.__notes__
    assert re.fullmatch(
        r"compare stopped at the start position's depth 2, asked there after the engine failed at depth 3 "
        r"\(engine 'x' crashed \(the test's\)\), while the engine counted \(\d+\.\d s\)",
        note,
    ), note


def test_compare_json_stopped_in_its_descent_prints_the_steps_so_far(capsys):
    # QA 42c: compare --json stopped by a CI job's SIGTERM printed nothing
    from chesskit.board.board import Board
    from chesskit.cli.compare_cmd import _json_if_interrupted
    from chesskit.compare.descent import descend

    with pytest.raises(KeyboardInterrupt):
        with _json_if_interrupted(True):
            descend(Board(KIWIPETE), _Interrupted(["e1g1", "h3g2"], 5, ["e1g1", "h3g2"]), 3, KIWIPETE)
    data = json.loads(capsys.readouterr().out)
    assert data["interrupted"] == "interrupted" and data["agree"] is False
    assert [(step["path"], step["depth"]) for step in data["steps"]] == [([], 3), (["e1g1"], 2)]
    with pytest.raises(KeyboardInterrupt):  # stopped at its first question: nothing is known
        with _json_if_interrupted(True):
            descend(Board(KIWIPETE), _Interrupted([], 0, []), 3, KIWIPETE)
    data = json.loads(capsys.readouterr().out)
    assert data["agree"] is None and data["steps"] == []
