"""The dialect line names how an engine writes its moves: Sjaak II prints long algebraic
(`Ng1-f3`, `e2-e4`), and its line said "divide with SAN moves". It says "long algebraic
moves (Ng1-f3)" now, and the JSON ``dialect`` adds ``notation`` (``moves`` keeps "san", its
value for any moves with piece letters)."""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

from chesskit.compare.engines import open_engine
from helpers import ENGINES, missing

FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'}"
XB = f"{sys.executable} {ENGINES / 'fake_xboard.py'}"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


@pytest.mark.parametrize(
    "engine, notation, said",
    [
        (f"{XB} --format sjaak", "long-algebraic", "divide with long algebraic moves (Ng1-f3)"),
        (f"{FAKE} --san", "san", "divide with SAN moves"),
        (f"{FAKE}", "uci", "divide with UCI moves"),
    ],
    ids=["long", "san", "uci"],
)
def test_the_dialect_names_the_notation(engine, notation, said):
    with open_engine(engine=engine, timeout=20) as eng:
        dialect = eng.dialect_info()
        assert dialect.notation == notation and dialect.describe().endswith(said)
        assert dialect.to_json()["notation"] == notation
        assert dialect.to_json()["moves"] == ("uci" if notation == "uci" else "san")


def test_sjaak_ii_is_named_long_algebraic(cli):
    path = shutil.which("sjaakii") or ("/usr/games/sjaakii" if os.access("/usr/games/sjaakii", os.X_OK) else None)
    if path is None:
        missing("sjaakii on PATH or in /usr/games", "Debian: apt-get install sjaakii")
    text = cli("compare", "startpos", "2", "--engine", path)
    assert text.exit_code == 0, text.stderr
    line = next(line for line in text.stderr.splitlines() if "engine dialect" in line)
    assert line.endswith("divide with long algebraic moves (Ng1-f3)") and "SAN" not in line
    data = json.loads(cli("compare", "startpos", "2", "--engine", path, "--json").stdout)
    assert data["dialect"]["notation"] == "long-algebraic" and data["dialect"]["moves"] == "san"
