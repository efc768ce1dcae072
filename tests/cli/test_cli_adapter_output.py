"""A Python adapter's print() and stderr reach chesskit's stderr (issue 26 item 8), never
its stdout, and an adapter that fails still ends with chesskit's one error line last."""

from __future__ import annotations

import json

import pytest

from helpers import ENGINES, STARTPOS

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def adapter(name: str) -> str:
    return f"{ENGINES / 'talking_adapter.py'}:{name}"


def test_what_an_adapter_prints_reaches_stderr(cli):
    result = cli("compare", "startpos", "1", "--python", adapter("Talks"), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["agree"] is True  # stdout is the JSON object alone
    lines = result.stderr.splitlines()
    for said in (f"debug: print set_fen {STARTPOS}", "debug: stderr hello", "debug: raw fd 1"):
        assert said in lines, result.stderr


def test_a_failing_adapter_shows_its_prints_then_the_error(cli):
    result = cli("compare", "startpos", "1", "--python", adapter("TalksThenFails"))
    assert result.exit_code == 3 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert "debug: about to fail with 20 moves" in lines, result.stderr
    assert lines[-1].startswith("chesskit: ") and "raised RuntimeError in legal_moves(): broken generator" in lines[-1]
    assert sum(line.startswith("chesskit: ") for line in lines) == 1
