"""``--moves``: UCI moves separated by spaces or commas, the same in every command that takes
it, in explore's ``moves`` and in the API, and said so in each command's help."""

from __future__ import annotations

import json

import click
import pytest
from helpers import ENGINES

import chesskit
from chesskit.cli.main import main

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
