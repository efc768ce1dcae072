"""Paths and small helpers shared by the tests (importable as ``helpers``)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
ENGINES = TESTS / "engines"
REFERENCE = REPO.parent / "shared" / "reference"
