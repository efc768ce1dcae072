"""The SVG board (``chesskit.report.svg``), read back with a real XML parser: 64 squares, the
pieces where python-chess puts them, arrows from and to the right squares, no ids and
nothing fetched from elsewhere."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import chess
import chess.variant
import pytest

from chesskit.report.svg import SQUARE, Arrow, board_svg
from helpers import EP_FEN, KIWIPETE

NS = {"svg": "http://www.w3.org/2000/svg"}
CHESS960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def squares(root: ET.Element) -> dict[str, ET.Element]:
    return {rect.get("data-square"): rect for rect in root.iterfind("svg:rect", NS) if "square" in rect.get("class")}


def pieces(root: ET.Element) -> dict[str, str]:
    return {t.get("data-square"): t.get("data-piece") for t in root.iterfind(".//svg:text", NS) if "piece" in t.get("class", "")}


def arrows(root: ET.Element) -> dict[str, str]:
    return {g.get("data-move"): g.get("class") for g in root.iterfind("svg:g", NS) if "arrow" in g.get("class", "")}


@pytest.mark.parametrize("fen", [KIWIPETE, EP_FEN, CHESS960, "8/8/8/8/8/8/8/k6K w - - 0 1"])
def test_64_squares_and_the_pieces_python_chess_sees(fen):
    root = parse(board_svg(fen, chess960=fen == CHESS960))
    found = squares(root)
    assert sorted(found) == sorted(chess.SQUARE_NAMES)
    # a1 dark, h1 light, and the colours alternate
    for name, rect in found.items():
        square = chess.parse_square(name)
        light = (chess.square_file(square) + chess.square_rank(square)) % 2 == 1
        assert ("light" if light else "dark") in rect.get("class").split()
    board = chess.Board(fen, chess960=fen == CHESS960)
    expected = {chess.square_name(sq): piece.symbol() for sq, piece in board.piece_map().items()}
    assert pieces(root) == expected


def _polygon(group: ET.Element) -> list[tuple[float, float]]:
    points = group.find("svg:polygon", NS).get("points").split()
    return [tuple(map(float, p.split(","))) for p in points]


def _square_of(x: float, y: float) -> str:
    file, rank = int((x - 18) // SQUARE), 7 - int(y // SQUARE)
    return chess.square_name(chess.square(file, rank))


def test_arrows_point_from_the_move_s_square_to_its_target():
    moves = [Arrow("e5f7", "missing"), Arrow("e1c1", "extra"), Arrow("a2a4", "path")]
    root = parse(board_svg(KIWIPETE, moves))
    assert arrows(root) == {"e5f7": "arrow missing", "e1c1": "arrow extra", "a2a4": "arrow path"}
    colours = {g.get("data-move"): g.get("fill") for g in root.iterfind("svg:g", NS) if g.get("data-move")}
    assert colours["e5f7"] == "#15803d" and colours["e1c1"] == "#dc2626"  # green missing, red extra
    for group in root.iterfind("svg:g", NS):
        move = group.get("data-move")
        if not move:
            continue
        outline = _polygon(group)
        tail = ((outline[0][0] + outline[-1][0]) / 2, (outline[0][1] + outline[-1][1]) / 2)
        assert _square_of(*tail) == move[:2]
        assert _square_of(*outline[3]) == move[2:4]  # the tip


def test_promotions_share_one_arrow_and_san_gets_none():
    root = parse(board_svg("8/P7/8/8/8/8/8/k6K w - - 0 1", [Arrow(m, "missing") for m in ("a7a8r", "a7a8b", "a7a8n")] + [Arrow("Kb2", "extra")]))
    assert arrows(root) == {"a7a8r a7a8b a7a8n": "arrow missing"}


def test_last_move_squares_are_tinted():
    root = parse(board_svg(EP_FEN, last_move="f7f5"))
    tinted = {name for name, rect in squares(root).items() if "last" in rect.get("class").split()}
    assert tinted == {"f7", "f5"}


def test_stands_alone_with_no_ids_and_nothing_fetched():
    svg = board_svg(KIWIPETE, [Arrow("e5f7", "missing")], "e2e4")
    root = parse(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert not [el for el in root.iter() if el.get("id")]  # many boards on one page: no duplicate ids
    assert not re.search(r"href|url\(|@import|<image", svg)
    assert KIWIPETE in root.find("svg:title", NS).text


HOUSE = "r3k2r/ppp2ppp/2n5/3q4/3P4/8/PPP2PPP/R3K2R[QNnp] w KQkq - 0 12"


def test_a_crazyhouse_board_shows_its_pockets_and_drops():
    svg = board_svg(HOUSE, [Arrow("N@e5", "missing"), Arrow("P@a8", "extra")], last_move="Q@d5", variant="crazyhouse")
    root = parse(svg)
    assert pieces(root) == {
        chess.square_name(sq): p.symbol() for sq, p in chess.variant.CrazyhouseBoard(HOUSE).piece_map().items()
    }
    drops = {g.get("data-move"): g.get("class") for g in root.iterfind("svg:g", NS) if "drop" in g.get("class", "")}
    assert drops == {"N@e5": "drop missing", "P@a8": "drop extra"}
    ring = root.find("svg:g[@data-move='N@e5']/svg:circle", NS)
    x, y = float(ring.get("cx")), float(ring.get("cy"))
    rect = squares(root)["e5"]
    assert float(rect.get("x")) < x < float(rect.get("x")) + SQUARE and float(rect.get("y")) < y < float(rect.get("y")) + SQUARE
    assert [s for s, r in squares(root).items() if "last" in r.get("class")] == ["d5"]
    (pocket,) = [t.text for t in root.iterfind("svg:text", NS) if t.get("class") == "pockets"]
    assert pocket == "pockets: white QN, black np"


def test_a_three_check_board_shows_the_checks_given():
    # the board showed nothing of them, and two checks given decide the game's next check
    svg = board_svg("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+1 0 1", variant="3check")
    root = parse(svg)
    (line,) = [t.text for t in root.iterfind("svg:text", NS) if t.get("class") == "checks"]
    assert line == "checks given: white 1, black 2 (the third wins)"  # 2+1 are the checks remaining
    assert float(root.get("viewBox").split()[3]) > float(root.get("viewBox").split()[2])  # room for the line
    plain = parse(board_svg(KIWIPETE))
    assert [t for t in plain.iterfind("svg:text", NS) if t.get("class") in ("checks", "pockets")] == []


@pytest.mark.parametrize(
    "variant, fen",
    [
        ("horde", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
        ("atomic", "8/8/8/8/8/8/3kK3/8 w - - 0 1"),  # kings side by side
    ],
)
def test_a_variant_board_the_standard_rules_refuse_is_drawn(variant, fen):
    root = parse(board_svg(fen, variant=variant))
    assert len(pieces(root)) == sum(c.isalpha() for c in fen.split()[0])
    assert not [t for t in root.iterfind("svg:text", NS) if t.get("class") == "pockets"]


@pytest.mark.variant_walk  # each case compiles its variant's walk on a cold cache
@pytest.mark.parametrize(
    "variant, fen, pocket",
    [
        ("crazyhouse", HOUSE, "pockets: white QN, black np"),
        ("horde", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1", None),
        ("3check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1", None),
    ],
)
def test_show_svg_draws_a_variant_position(cli, tmp_path, variant, fen, pocket):
    # show --svg read the FEN as standard chess: a crazyhouse or three-check FEN, or horde's
    # kingless white, was 'invalid FEN' and exit 2, although show itself drew the position
    out = tmp_path / "board.svg"
    result = cli("show", fen, "--variant", variant, "--svg", str(out))
    assert result.exit_code == 0, result.stderr
    root = parse(out.read_text())
    board = chess.variant.find_variant(variant)(fen)
    assert pieces(root) == {chess.square_name(sq): p.symbol() for sq, p in board.piece_map().items()}
    assert [t.text for t in root.iterfind("svg:text", NS) if t.get("class") == "pockets"] == ([pocket] if pocket else [])


def test_a_promoted_crazyhouse_piece_is_marked_and_a_plain_one_is_not():
    # the h1 queen's '~' (it goes back to the pocket as a pawn) was only in the title
    root = parse(board_svg("4k3/8/8/8/8/8/8/Q3K2Q~[QRppn] w - - 0 1", variant="crazyhouse"))
    flagged = {t.get("data-square") for t in root.iterfind(".//svg:text", NS) if t.get("data-promoted") == "true"}
    assert flagged == {"h1"}
    (mark,) = [t for t in root.iterfind(".//svg:text", NS) if t.get("class") == "promoted"]
    assert mark.get("data-square") == "h1" and "".join(mark.itertext()).endswith("~")
    rect = squares(root)["h1"]
    x, y = float(mark.get("x")), float(mark.get("y"))
    assert float(rect.get("x")) < x < float(rect.get("x")) + SQUARE and float(rect.get("y")) < y < float(rect.get("y")) + SQUARE
    plain = parse(board_svg(HOUSE, variant="crazyhouse"))
    assert [t for t in plain.iterfind(".//svg:text", NS) if t.get("class") == "promoted" or t.get("data-promoted")] == []
