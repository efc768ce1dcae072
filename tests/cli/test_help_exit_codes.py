"""Every help text that lists the exit codes lists 4 (out of memory), which any run can end
with (``cli/boundary.py``), as the README's table does."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("command", [[], ["compare"], ["fuzz"]], ids=["chesskit", "compare", "fuzz"])
def test_help_lists_exit_code_4(cli, command):
    result = cli(*command, "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())  # click wraps the lines
    assert "Exit codes:" in text
    assert "4 out of memory" in text


def test_the_top_help_names_the_exit_codes_of_a_stop(cli):
    # it listed 0-4: Ctrl-C's 130, used by every command, was only in docs/exit-codes.md
    text = " ".join(cli("--help").stdout.split())
    for words in ("70 a bug in chesskit", "130 interrupted (Ctrl-C; 143 SIGTERM, 129 SIGHUP)", "141 stdout closed early", "--bisect 125"):
        assert words in text
