"""chess.js and chessops, the move generators npm ships (none written here), through small
perftree wrappers in tests/js/ (issue 26 "How it is checked"): chesskit agrees with both,
with no false alarm, chessops writing castling as the king taking its rook (e1h1) in
standard chess and playing Chess960.

They need node and the packages: ``apt-get install nodejs npm`` and ``cd tests/js && npm ci``
(.ci/run does both)."""

from __future__ import annotations

import json
import shutil

import pytest

from helpers import EP_FEN, KIWIPETE, TESTS, missing

JS = TESTS / "js"
HOW = "apt-get install nodejs npm, then: cd tests/js && npm ci"
PROMO = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"
C960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


@pytest.fixture(scope="module", autouse=True)
def npm_packages():
    if shutil.which("node") is None:
        missing("node", HOW)
    for package in ("chess.js", "chessops"):
        if not (JS / "node_modules" / package / "package.json").is_file():
            missing(f"the npm package {package} in tests/js/node_modules", HOW)


def wrapper(name: str) -> str:
    return str(JS / f"{name}_perftree.mjs")


@pytest.mark.parametrize("name", ["chessjs", "chessops"])
@pytest.mark.parametrize(
    "position, depth, moves",
    [
        ("kiwipete", "2", []),
        (EP_FEN, "2", []),
        (PROMO, "2", []),
        ("startpos", "2", ["--moves", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"]),
    ],
    ids=["kiwipete", "en-passant", "promotions", "castling-later"],
)
def test_npm_move_generators_agree_with_chesskit(cli, name, position, depth, moves):
    result = cli("compare", position, depth, *moves, "--script", wrapper(name), "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    assert data["agree"] is True and data["kind"] is None
    step = data["steps"][0]
    assert step["ours"] == step["theirs"]


def test_chessops_writes_castling_as_king_takes_rook(cli):
    result = cli("compare", KIWIPETE, "2", "--script", wrapper("chessops"), "--json")
    data = json.loads(result.stdout)
    assert data["agree"] is True and data["castling_spelling"] == "king-takes-rook"
    assert {"e1g1", "e1c1"} <= data["steps"][0]["theirs"].keys()  # read as chesskit spells them
    chessjs = json.loads(cli("compare", KIWIPETE, "1", "--script", wrapper("chessjs"), "--json").stdout)
    assert chessjs["castling_spelling"] is None


def test_chessops_plays_chess960(cli):
    result = cli("compare", C960, "3", "--script", wrapper("chessops"), "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["agree"] is True
