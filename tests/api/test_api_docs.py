"""The API's examples run: the docstrings of chesskit and chesskit.api, docs/api.md and
the README's Python example, as doctests (from the root of the checkout, where the test
engines they name are). Stockfish's examples need it installed (skipped otherwise,
failed in CI)."""

from __future__ import annotations

import doctest
import importlib
import os
import re
from pathlib import Path

import pytest

from helpers import REPO, find_stockfish, missing

MODULES = [
    "chesskit",
    "chesskit.api.counting",
    "chesskit.api.engine",
    "chesskit.api.comparison",
    "chesskit.api.suite",
]
FILES = [REPO / "docs" / "api.md", REPO / "README.md"]
# a ```pycon block of a Markdown file: (its fence line, its text)
PYCON = re.compile(r"^(```pycon\n)(.*?)^```$", re.M | re.S)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture
def at_the_root(monkeypatch):
    monkeypatch.chdir(REPO)


def _run(test: doctest.DocTest) -> None:
    if "stockfish" in test.docstring if test.docstring else False:
        _need_stockfish()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    runner.run(test, out=report.append, clear_globs=False)
    assert runner.failures == 0, "".join(report)


def _need_stockfish() -> None:
    found = find_stockfish()
    if found is None:
        missing("stockfish on PATH or in /usr/games", "Debian: apt-get install stockfish")
    os.environ["PATH"] = os.pathsep.join([os.path.dirname(found), os.environ["PATH"]])


def _module_tests(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    return [t for t in doctest.DocTestFinder().find(module, name) if t.examples]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, at_the_root, monkeypatch):
    monkeypatch.setenv("PATH", os.environ["PATH"])  # restored after _need_stockfish
    tests = _module_tests(name)
    assert tests, f"{name} has no examples"
    for test in tests:
        _run(test)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_docs_examples(path: Path, at_the_root, monkeypatch):
    monkeypatch.setenv("PATH", os.environ["PATH"])
    text = path.read_text(encoding="utf-8")
    blocks = PYCON.findall(text)
    page: dict = {}  # the names one example defines, for those after it
    assert blocks, f"{path.name} has no Python example"
    for start, block in blocks:
        line = text[: text.index(start + block)].count("\n") + 1
        test = doctest.DocTestParser().get_doctest(block, page, f"{path.name}:{line}", str(path), line)
        test.docstring = block
        _run(test)
        page.update(test.globs)


def _section(title: str) -> str:
    """The text of docs/api.md's ``## title`` section, without its signature (the first
    code span, where every keyword is named but none explained)."""
    text = (REPO / "docs" / "api.md").read_text().split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    return re.sub(r"`chesskit\.\w+\([^`]*`", "", text, count=1)


def test_api_md_names_every_error_and_says_what_every_keyword_does():
    # EngineOptionError (exit 2, a kind of EngineError) was named only in architecture.md,
    # and compare's on_step and strict, run_suite's on_position, fail_fast and stats only
    # in the signatures
    import inspect

    import chesskit
    import chesskit.errors

    errors = _section("Errors")
    kinds = [name for name, value in vars(chesskit.errors).items()
             if inspect.isclass(value) and issubclass(value, chesskit.errors.ChesskitError)]
    assert [name for name in kinds if f"`{name}`" not in errors and name != "ChesskitError"] == []
    for function, title in ((chesskit.compare, "compare"), (chesskit.run_suite, "run_suite")):
        text = _section(title)
        keywords = [p.name for p in inspect.signature(function).parameters.values() if p.kind is p.KEYWORD_ONLY]
        assert [k for k in keywords if not re.search(rf"`{k}[`=(]", text)] == [], title
