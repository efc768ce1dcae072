"""The docs cannot lie: every console transcript in README.md and docs/*.md (a ```console
block: `$ chesskit ...` lines, each followed by the output it prints) is replayed and its
output compared, and docs/commands.md is what tools/commands_doc.py writes from the click
commands. A block of commands without their output is written ```sh and not replayed; a
block taking seconds has the line `<!-- transcript: slow -->` before it (marked slow).

Matching: stdout and stderr are read together (unbuffered, in the order written). A line
`...` stands for any number of lines (none included), `...` inside a line for any text;
times (`00:00:00.41`, `in 1.9 s`, `"seconds": 0.08`) and rates (`Nodes/second: N`,
`"nps": N`) match any value, since they are never the same twice. Every count is compared."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import REPO, subprocess_env

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
SLOW = "<!-- transcript: slow -->"


@dataclass
class Transcript:
    path: Path
    line: int  # 1-based line of the `$ ` command
    command: str
    expected: list[str]
    slow: bool = False

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def transcripts(path: Path) -> list[Transcript]:
    """The `$ ` commands of the file's ```console blocks, each with the lines after it."""
    found: list[Transcript] = []
    block: str | None = None
    slow = previous = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(line)
        if fence:
            block = None if block is not None else fence.group(1)
            slow = block is not None and previous
            continue
        previous = line.strip() == SLOW
        if block != "console":
            continue
        if line.startswith("$ "):
            found.append(Transcript(path, number, line[2:], [], slow))
        elif found and found[-1].path == path:
            found[-1].expected.append(line)
        else:
            raise AssertionError(f"{path}:{number}: a console block must start with a `$ ` command")
    return found


ALL = [t for path in DOCS for t in transcripts(path)]

VOLATILE = [
    (re.compile(r"\b\d\d:\d\d:\d\d\.\d\d\b"), "HH:MM:SS.ss"),
    (re.compile(r"(Nodes/second: )\d+"), r"\1N"),
    (re.compile(r'("seconds": )[0-9.e+-]+'), r"\1S"),
    (re.compile(r'("nps": )\d+'), r"\1N"),
    (re.compile(r'("threads": )\d+'), r"\1N"),  # all cores by default: the machine's
    (re.compile(r"\bin \d+(\.\d+)? s\b"), "in S s"),
]


def normalise(line: str) -> str:
    for pattern, replacement in VOLATILE:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def _line_pattern(expected: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in normalise(expected).split("...")) + r"\Z")


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with its `...` lines and in-line `...` filled in."""
    patterns = [None if line.strip() == "..." else _line_pattern(line) for line in expected]
    actual = [normalise(line) for line in actual]
    while actual and not actual[-1]:
        actual.pop()

    def match(i: int, j: int) -> bool:
        if i == len(patterns):
            return j == len(actual)
        if patterns[i] is None:
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and bool(patterns[i].match(actual[j])) and match(i + 1, j + 1)

    return match(0, 0)


def replay(command: str) -> list[str]:
    """Run a transcript's command line in bash from the repository root, `chesskit` being
    this Python's ``-m chesskit``; stdout and stderr together."""
    env = subprocess_env()
    env["PYTHONUNBUFFERED"] = "1"
    env["COLUMNS"] = "100"
    script = f'chesskit() {{ "{sys.executable}" -m chesskit "$@"; }}\n{{ {command}\n}} 2>&1'
    done = subprocess.run(
        ["bash", "-c", script], cwd=REPO, env=env, stdout=subprocess.PIPE, text=True, timeout=300
    )
    return done.stdout.splitlines()


def test_the_docs_hold_transcripts():
    """The README shows what its commands print (a parser that found nothing would pass)."""
    assert len([t for t in ALL if t.path.name == "README.md"]) >= 3
    assert len(ALL) >= 15


@pytest.mark.parametrize(
    "transcript", [pytest.param(t, marks=([pytest.mark.slow] if t.slow else []) + ([pytest.mark.variant_walk] if "--variant" in t.command else [])) for t in ALL], ids=lambda t: t.name
)
def test_transcript_replays(transcript):
    actual = replay(transcript.command)
    assert matches(transcript.expected, actual), (
        f"{transcript.name}: `{transcript.command}` printed\n"
        + "\n".join(actual)
        + "\n\nwhere the docs say\n"
        + "\n".join(transcript.expected)
    )


def test_matcher_catches_a_stale_count():
    """The matcher forgives times and rates, never a count: the README's old suite line
    (1154 counts of 314 positions) fails against today's output."""
    today = ["1277 counts of 341 positions checked in 00:00:01.20: 1277 passed, all match"]
    assert matches(["1277 counts of 341 positions checked in 00:00:00.86: 1277 passed, all match"], today)
    assert not matches(["1154 counts of 314 positions checked in 00:00:00.86: 1154 passed, all match"], today)
    assert not matches(["Nodes searched: 4085603", "..."], ["Nodes searched: 4085604", "Time: 00:00:00.01"])
    assert matches(["Nodes searched: 4085603", "..."], ["Nodes searched: 4085603", "Time: 00:00:00.01"])
    assert not matches(["a", "b"], ["a"]) and not matches(["a"], ["a", "b"])
    assert matches(["x", "...", "z"], ["x", "z"]) and matches(["x", "...", "z"], ["x", "1", "2", "z"])


def test_commands_doc_is_current():
    """docs/commands.md is what tools/commands_doc.py writes from today's click commands.
    Rendered in a fresh process: click caches a command's help option on the command, so
    a test that invoked a command without the group's ``-h`` would change the help text
    rendered in this one (seen under pytest-xdist with click 8.5)."""
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "commands_doc.py"), "--check"],
        cwd=REPO, env=subprocess_env(), capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, (
        f"docs/commands.md is stale: run python tools/commands_doc.py\n{done.stdout}{done.stderr}"
    )


def _orphan_table_rows(text: str) -> list[int]:
    """Lines that read as a table row (``| a | b |``) but follow a paragraph line: Markdown
    renders them as that paragraph's text, not as a row of the table above."""
    found, fenced, before = [], False, ""
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("|") and before.strip() and not before.startswith("|"):
            found.append(number)
        before = line
    return found


def test_no_table_row_is_left_after_a_paragraph():
    assert _orphan_table_rows("text\n| a | b |\n") == [2]
    assert _orphan_table_rows("| h |\n|---|\n| a |\n\n| b |\n") == []
    pages = [*DOCS, *sorted(REPO.glob("tests/**/README.md"))]
    orphans = {str(p.relative_to(REPO)): rows for p in pages if (rows := _orphan_table_rows(p.read_text()))}
    assert not orphans, f"table rows after a paragraph (not in its table): {orphans}"
