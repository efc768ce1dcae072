"""--script counts with their digits grouped (`1,234,567`, `1_234_567`, `1 234 567`): read as
the number they group; a grouping that could mean something else is refused, the line quoted."""

from __future__ import annotations

import json
import sys

import pytest
from helpers import ENGINES, STARTPOS

from chesskit.compare.engines import ScriptEngine
from chesskit.errors import EngineError


def _script(tmp_path, *lines: str) -> str:
    script = tmp_path / "perft.sh"
    script.write_text("#!/bin/sh\n" + "".join(f"echo '{line}'\n" for line in lines))
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("sep", [",", "_", " "])
def test_grouped_counts_are_read(tmp_path, sep):
    script = _script(tmp_path, f"e2e4: 1{sep}234{sep}567", f"d2d4 12{sep}345", "g1f3 999", "", f"1{sep}247{sep}911")
    assert ScriptEngine(script).divide(STARTPOS, 2, []) == {"e2e4": 1_234_567, "d2d4": 12_345, "g1f3": 999}


@pytest.mark.parametrize(
    "line",
    ["e2e4 1,23,456", "e2e4 1,234 567", "e2e4 1_234,567", "e2e4 1,5", "e2e4 1234,567", "e2e4 1,2345"],
)
def test_a_grouping_that_could_mean_something_else_is_refused(tmp_path, line):
    script = _script(tmp_path, line, "", "1")
    with pytest.raises(EngineError) as caught:
        ScriptEngine(script).divide(STARTPOS, 2, [])
    message = str(caught.value)
    assert f"printed a count chesskit cannot read for depth 2 on {STARTPOS!r}: {line!r}" in message
    assert "grouped in threes by one of ',', '_' or a space" in message


def test_a_grouped_total_that_is_no_grouping_is_refused(tmp_path):
    with pytest.raises(EngineError, match=r"cannot read .*: '20,0' \(a count is"):
        ScriptEngine(_script(tmp_path, "e2e4 20", "", "20,0")).divide(STARTPOS, 2, [])


def test_compare_agrees_with_a_script_that_groups_its_counts(cli, tmp_path):
    script = tmp_path / "grouped.py"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(ENGINES)!r})\nimport pchelper\n"
        "depth, fen = int(sys.argv[1]), sys.argv[2]\n"
        "a = pchelper.Adapter()\na.set_fen(fen)\n"
        "for m in (sys.argv[3].split() if len(sys.argv) > 3 else []):\n    a.push(m)\n"
        "rows = pchelper.divide(a, depth)\n"
        "print(''.join(f'{m}: {n:,}\\n' for m, n in rows.items()))\nprint(f'{sum(rows.values()):_}'.replace('_', ' '))\n"
    )
    script.chmod(0o755)
    result = cli("compare", "kiwipete", "3", "--script", str(script), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["agree"] is True
