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
