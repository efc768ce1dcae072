"""The real xboard engines from Debian, driven with a bare `--engine NAME`: Sjeng 11.2
(`perft N` totals) and Sjaak II 1.4.1 (`perft N 1` divides with zero-count rows).

Skipped locally when the binary is missing; CI installs both (.ci/run).  Expected counts
are python-chess's.  These start real engines (Sjaak II's detection waits out the search
its UCI loop starts on `go perft`), so they are marked slow.
"""

from __future__ import annotations

import json
import os
import shutil

import chess
import pytest

from helpers import REPO, missing, one_line, pc_perft

CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
ROOK_CHECK = "4k3/8/8/8/8/8/8/3RK3 b - - 0 1"

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("no_leftover_children")]


def debian_engine(name: str) -> str:
    path = shutil.which(name) or (f"/usr/games/{name}" if os.access(f"/usr/games/{name}", os.X_OK) else None)
    if path is None:
        missing(f"{name} on PATH or in /usr/games", f"Debian: apt-get install {name}")
    return name  # the bare name: chesskit finds it in /usr/games as a user would


def test_sjeng_castling_position_agrees(cli):
    """The issue's "Sjeng black-castling bug" (perft 1 gave 3, not 26) was Sjeng playing
    Rxa1 itself: out of force mode it moves for the side to move after setboard. In force
    mode its counts are right, so compare agrees at every depth."""
    debian_engine("sjeng")
    result = cli("compare", CASTLES, "3", "--engine", "sjeng", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is True
    assert report["dialect"] == {"name": "xboard-perft-total", "moves": None, "total_only": True, "notation": None, "detected": True}
    assert report["steps"][0]["theirs_total"] == pc_perft(chess.Board(CASTLES), 3) == 13744


def test_sjeng_refusing_a_shredder_fen_names_it_as_given(cli):
    """Castling letters in Shredder-FEN (HBhb) make the position Chess960, which Sjeng cannot
    play: the failure named the position as KQkq, standard chess, the game Sjeng can play."""
    debian_engine("sjeng")
    fen = "1r4kr/8/8/8/8/8/8/1R4KR b HBhb - 0 1"
    expected = chess.Board(fen, chess960=True).shredder_fen()  # python-chess keeps HBhb
    result = cli("compare", fen, "2", "--engine", "sjeng", "--timeout", "20")
    one_line(result, 3, "'sjeng' cannot play Chess960", f"(fen {expected})")


def test_sjeng_plays_chess960_on_standard_squares(cli):
    """HAha, the kings on e1/e8 and the castling rooks in the corners, is Chess960 that is
    the standard game: Sjeng is asked it as standard chess (KQkq) and agrees, as it did
    not ("cannot play Chess960"), and so does c960-518, the standard start position."""
    debian_engine("sjeng")
    result = cli("compare", CASTLES.replace("KQkq", "HAha"), "3", "--engine", "sjeng", "--json", "--timeout", "20")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is True and report["steps"][0]["theirs_total"] == pc_perft(chess.Board(CASTLES), 3)
    result = cli("compare", "c960-518", "3", "--engine", "sjeng", "--json", "--timeout", "20")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["theirs_total"] == pc_perft(chess.Board(), 3) == 8902


def test_sjeng_en_passant_bug_is_found(cli):
    """A real Sjeng 11.2 bug, found by fuzz: d4xc3 e.p. removes the c4 pawn that shielded its
    king on a2 from the bishop on g8, yet Sjeng counts it (5 moves; python-chess: 4)."""
    debian_engine("sjeng")
    fen = "6B1/8/8/8/K1Pp4/8/k7/8 b - c3 0 1"
    assert chess.Board(fen).legal_moves.count() == 4
    result = cli("compare", fen, "2", "--engine", "sjeng", "--json")
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is False and report["kind"] == "moves" and report["path"] == []
    assert report["move_counts"] == {"chesskit": 4, "engine": 5} and report["unnamed_extra"] == 1
    assert report["steps"][0]["theirs_total"] == 45 and sum(report["steps"][0]["ours"].values()) == 36


def test_sjaak_zero_rows_agree(cli):
    """Sjaak II lists e8d7 and e8d8 (into the rook's file) with 0: no false alarm."""
    debian_engine("sjaakii")
    result = cli("compare", ROOK_CHECK, "3", "--engine", "sjaakii", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is True and report["dialect"]["name"] == "xboard-perft-split"
    assert sum(report["steps"][0]["ours"].values()) == pc_perft(chess.Board(ROOK_CHECK), 3)


@pytest.mark.parametrize("fen", ["6B1/8/8/8/K1Pp4/8/k7/8 b - c3 0 1", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"])
def test_sjaak_zero_rows_agree_in_explore(cli, fen):
    """explore sets Sjaak II's zero-count rows aside as compare does: they were shown as
    extra moves, "divide differs" with equal totals, exit 1."""
    debian_engine("sjaakii")
    result = cli("explore", fen, "2", "--engine", "sjaakii", "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert all(row["status"] == "same" for row in shown["moves"]), shown["moves"]
    assert sum(row["chesskit"] for row in shown["moves"]) == pc_perft(chess.Board(fen), 2)


def test_sjaak_suite_agrees(cli):
    debian_engine("sjaakii")
    result = cli("suite", "--engine", "sjaakii", "--max-nodes", "20000", "--skip-chess960", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failed"] == 0 and data["passed"] > 50


def test_sjaak_counts_chess960_in_its_uci_loop(cli):
    # its xboard dialect divides, but chesskit sets no Chess960 there: every Chess960
    # position was "cannot play Chess960" (exit 3), where its UCI loop counts them right
    debian_engine("sjaakii")
    result = cli("suite", str(REPO / "positions" / "chess960.epd"), "--engine", "sjaakii", "--max-nodes", "20000", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failed"] == 0 and data["positions"]["passed"] == 75 and data["positions"]["engine_errors"] == 0
    result = cli("compare", "c960-494", "3", "--engine", "sjaakii")
    assert result.exit_code == 0, result.stderr
    assert "from the first Chess960 position on, engine dialect uci-perft-total" in result.stderr


@pytest.mark.parametrize("name", ["sjaakii", "sjeng"])
def test_fuzz_agrees(cli, name):
    debian_engine(name)
    result = cli("fuzz", "--engine", name, "--positions", "25", "--depth", "3", "--seed", "7", "--no-chess960")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "25 positions" in result.stdout and "agreed" in result.stdout


def test_sjaak_under_a_variant_is_asked_in_its_uci_loop(cli):
    """Under --variant Sjaak II was asked in its xboard loop, which chesskit never tells the
    variant (it counted standard chess there, and compare blamed its variant rules): its UCI
    loop, where UCI_Variant is set, answers with totals."""
    debian_engine("sjaakii")
    fen = "8/8/8/2k5/8/8/3K4/8 w - - 0 1"
    result = cli("compare", fen, "2", "--variant", "kingofthehill", "--engine", "sjaakii", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] and report["dialect"]["name"] == "uci-perft-total"


def test_a_total_only_engine_playing_on_after_the_game_ended_is_told_so(cli):
    # Sjaak II (totals in its UCI loop under --variant) counts moves where the white king
    # already stands on the hill: a divide's extra moves got "the game is over here", its
    # totals only "illegal move(s); totals cannot name them"
    debian_engine("sjaakii")
    fen = "3k4/1p6/8/2n5/3Kp2P/8/4p3/8 b - - 1 39"
    result = cli("compare", fen, "1", "--variant", "kingofthehill", "--engine", "sjaakii")
    assert result.exit_code == 1, result.stderr
    assert "the game is over here (the white king stands on the centre square d4): the engine plays on" in result.stdout

