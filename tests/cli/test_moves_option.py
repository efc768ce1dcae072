"""``--moves``: UCI moves separated by spaces or commas, the same in every command that takes
it, in explore's ``moves`` and in the API, and said so in each command's help."""

from __future__ import annotations

import json

import click
import pytest
from helpers import ENGINES

import chesskit
from chesskit.cli.main import main
from chesskit.errors import IllegalMoveError

AFTER = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
SPELLINGS = ["e2e4 e7e5", "e2e4,e7e5", "e2e4, e7e5", " e2e4 ,e7e5, "]


def _commands_with_moves() -> list[str]:
    ctx = click.Context(main)
    commands = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}
    return sorted(
        name
        for name, command in commands.items()
        if any(isinstance(p, click.Option) and "--moves" in p.opts for p in command.params)
    )


def test_every_command_with_moves_says_commas_work(cli):
    names = _commands_with_moves()
    assert {"perft", "divide", "show", "compare", "debug", "explore"} <= set(names)
    for name in names:
        text = " ".join(cli(name, "--help").stdout.split())
        assert "separated by spaces or commas" in text, (name, text)


@pytest.mark.parametrize("moves", SPELLINGS)
def test_commas_and_spaces_play_the_same_moves_in_every_command(cli, moves):
    shown = json.loads(cli("show", "startpos", "--moves", moves, "--json").stdout)
    assert shown["fen"] == AFTER
    assert json.loads(cli("perft", "startpos", "1", "--moves", moves, "--json").stdout)["fen"] == AFTER
    assert json.loads(cli("divide", "startpos", "1", "--moves", moves, "--json").stdout)["fen"] == AFTER
    assert cli("debug", "startpos", "1", "--moves", moves).exit_code == 0
    compared = cli("compare", "startpos", "1", "--moves", moves, "--script", str(ENGINES / "eng_correct.py"), "--json")
    assert json.loads(compared.stdout)["fen"] == AFTER
    explored = cli("explore", "startpos", "1", "--moves", moves, "--json")
    assert json.loads(explored.stdout)["fen"] == AFTER
    assert chesskit.divide("startpos", 1, moves=moves) == chesskit.divide(AFTER, 1)


def test_explores_moves_command_reads_commas_too(cli):
    result = cli("explore", "startpos", "1", input="moves e2e4,e7e5\nfen\n")
    assert result.exit_code == 0, result.stderr
    assert "e2e4 e7e5" in result.stdout and AFTER in result.stdout


# white to move, both sides holding a knight: a drop's letter decides whose
ZH_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1"


def _crazyhouse_after(moves: list[str]) -> str:
    import chess.variant

    board = chess.variant.CrazyhouseBoard(ZH_FEN)
    for move in moves:
        board.push_uci(move)
    return board.fen()


def _shown(cli, moves: str):
    return cli("show", ZH_FEN, "--variant", "crazyhouse", "--moves", moves, "--json")


@pytest.mark.variant_walk  # compiles crazyhouse's walk on a cold cache
def test_a_lowercase_drop_of_the_other_sides_piece_is_refused(cli):
    # 'n@e4' with white to move dropped a white knight: the letter names a black one
    refused = _shown(cli, "n@e4")
    assert refused.exit_code == 2 and refused.stdout == ""
    line = refused.stderr.splitlines()[-1]  # after the notes on the position
    assert line.startswith(f"chesskit: illegal move 'n@e4' in {ZH_FEN}: 'n' is a black knight and white is to move")
    assert "a drop is written with an upper-case letter (N@e4)" in line and "Traceback" not in refused.output
    later = _shown(cli, "e2e4 e7e5 n@d4")  # the position after the moves before it is named
    assert "illegal move 'n@d4' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[Nn] w KQkq - 0 2" in later.stderr
    with pytest.raises(IllegalMoveError, match="'n' is a black knight"):
        chesskit.Board(ZH_FEN, variant="crazyhouse").push("n@e4")


@pytest.mark.variant_walk  # compiles crazyhouse's walk on a cold cache
@pytest.mark.parametrize("moves", ["N@e4", "e2e3 N@e5", "e2e3 n@e5"])
def test_an_uppercase_drop_or_a_lowercase_one_of_the_side_to_move_is_played(cli, moves):
    # upper case is UCI's spelling for either side; a lower-case letter naming the side to
    # move's own piece (black's knight, black to move) is what it says
    shown = _shown(cli, moves)
    assert shown.exit_code == 0, shown.stderr
    played = [m[0].upper() + m[1:] if "@" in m else m for m in moves.split()]
    # the clocks aside: a drop resets the halfmove clock here, as Fairy-Stockfish's (variants.md)
    assert json.loads(shown.stdout)["fen"].split()[:4] == _crazyhouse_after(played).split()[:4]


@pytest.mark.variant_walk  # compiles crazyhouse's and antichess's walks on a cold cache
def test_a_move_a_variants_own_rule_forbids_is_told_why():
    """An illegal move in a variant says the variant's reason where its rules give one: a
    drop of a piece the side to move has none of in hand, a quiet move in antichess when
    a capture is possible (captures are compulsory); the legal moves are listed as ever."""
    board = chesskit.Board(ZH_FEN, variant="crazyhouse")
    with pytest.raises(IllegalMoveError, match=r": white has no pawn in hand \(white's pocket: N\); legal moves: N@a3 "):
        board.push("P@e4")
    board.push("e2e4")
    with pytest.raises(IllegalMoveError, match=r": black has no queen in hand \(black's pocket: n\)"):
        board.push("Q@e5")
    empty = chesskit.Board(variant="crazyhouse")
    with pytest.raises(IllegalMoveError, match=r"white has no knight in hand \(white's pocket: empty\)"):
        empty.push("N@e4")
    anti = chesskit.Board(variant="antichess")
    anti.push_moves("e2e4 d7d5")
    with pytest.raises(IllegalMoveError, match="captures are compulsory in antichess: a capture is possible, so only captures are legal; legal moves: e4d5$"):
        anti.push("e1e2")
    with pytest.raises(IllegalMoveError) as quiet:  # no capture possible: no such reason
        chesskit.Board(variant="antichess").push("e2e5")
    assert "compulsory" not in str(quiet.value)


@pytest.mark.variant_walk
@pytest.mark.parametrize("move, why", [
    ("P@e8", "a pawn cannot be dropped on the first or eighth rank"),
    ("P@a1", "a pawn cannot be dropped on the first or eighth rank"),
    ("K@e4", "a king is never in hand: it cannot be dropped"),
    ("N@e1", "e1 is not empty: a piece is dropped on an empty square"),
    ("B@e4", r"white has no bishop in hand \(white's pocket: PN\)"),
])
def test_a_drop_crazyhouse_forbids_is_told_why(move, why):
    # QA 41b: P@e8 and K@e4 got only "illegal move ...; legal moves: ..."
    board = chesskit.Board("4k3/8/8/8/8/8/8/4K3[PNn] w - - 0 1", variant="crazyhouse")
    with pytest.raises(IllegalMoveError, match=f": {why}; legal moves: N@a1 "):
        board.push(move)
