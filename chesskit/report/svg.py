"""A chess board as SVG: chesskit's own drawing (python-chess, GPL, stays test-only).

``board_svg(fen, arrows, last_move)`` returns one ``<svg>`` element, well-formed XML, that
stands alone as a ``.svg`` file (``chesskit show --svg``) and sits inline in an HTML
report. White is at the bottom. It has:

- 64 ``<rect class="square light|dark" data-square="e4">``, a1 dark;
- a ``<text class="piece" data-square="e1" data-piece="K">`` per piece: the solid Unicode
  figurine for both colours, white ones filled white with a black outline (readable on
  either square colour and in print, in any font that has the chess symbols);
- a crazyhouse piece marked promoted (``Q~`` in the FEN) with ``data-promoted="true"``
  on its piece and a ``~`` in its square's top right corner (``<text class="promoted">``);
- the last move's two squares tinted (``class="last"``);
- an arrow per move, ``<g class="arrow missing|extra|path" data-move="e5f6">``: a line
  and a triangle drawn as polygons, so the element needs no ``<marker>`` and no ``id``
  (a page with many boards has no duplicate ids); a move that is not UCI (an engine's
  unreadable SAN) gets no arrow;
- a drop (crazyhouse, ``N@f3``) as a ring on its square, ``<g class="drop missing|extra|path"
  data-move="N@f3">`` with the piece letter, and the pockets (``<text class="pockets">``)
  in a line below the board;
- the file letters and rank digits in ``currentColor`` (they follow the page's text
  colour in dark mode).

Colours are presentation attributes, so a page's CSS may restyle them. Squares and moves
are ``chesskit.vocab``'s; the FEN is read by ``chesskit.board.fen``, its one reader.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from chesskit.board.fen import parse_fen
from chesskit.vocab import FILE_NAMES, PIECE_LETTERS, RANK_NAMES, WHITE, piece_code

SQUARE = 45  # a square's side in SVG units
MARGIN = 18  # room for the coordinates on the left and below
LIGHT, DARK = "#f0d9b5", "#b58863"
LAST_MOVE = "#cdd26a"
# arrow kind -> colour: missing (legal, the engine lacks it) green, extra (illegal, the
# engine generates it) red, path (the move the descent followed) blue
ARROW_COLOURS = {"missing": "#15803d", "extra": "#dc2626", "path": "#2563eb"}
# the solid figurines (U+265A..U+265F), each followed by U+FE0E: text, never emoji
GLYPHS = {"k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f"}
FONT = "'DejaVu Sans', 'Noto Sans Symbols2', 'Segoe UI Symbol', 'Apple Symbols', sans-serif"
UCI = re.compile(r"([a-h][1-8])([a-h][1-8])[qrbnk]?")
DROP = re.compile(r"([PNBRQK])@([a-h][1-8])")
POCKET_ROW = 20  # the height of the pockets' line, on a board that has pockets


@dataclass(frozen=True)
class Arrow:
    move: str  # a UCI move (others are not drawn)
    kind: str  # "missing", "extra" or "path"


def placement(fen: str, chess960: bool | None = None, variant: str = "chess") -> list[str]:
    """The 8 ranks of ``fen``, rank 8 first, 8 FEN letters each ('.' empty), as
    ``chesskit.board.fen`` reads the position (FenError on a FEN it refuses)."""
    codes = parse_fen(fen, chess960, variant=variant).board
    letter = {
        piece_code(colour, ptype): PIECE_LETTERS[ptype].upper() if colour == WHITE else PIECE_LETTERS[ptype]
        for colour in (0, 1)
        for ptype in range(1, 7)
    }
    return ["".join(letter.get(codes[rank * 8 + file], ".") for file in range(8)) for rank in range(7, -1, -1)]


def _corner(square: str) -> tuple[float, float]:
    """The top-left corner of ``square`` (``"e4"``), white at the bottom."""
    file, rank = FILE_NAMES.index(square[0]), RANK_NAMES.index(square[1])
    return MARGIN + file * SQUARE, (7 - rank) * SQUARE


def _centre(square: str) -> tuple[float, float]:
    x, y = _corner(square)
    return x + SQUARE / 2, y + SQUARE / 2


def board_svg(
    fen: str,
    arrows: list[Arrow] = (),
    last_move: str | None = None,
    size: int | None = None,
    chess960: bool | None = None,
    variant: str = "chess",
) -> str:
    """The board of ``fen`` (a FEN of ``variant``) with ``arrows`` and the ``last_move``'s
    squares tinted; ``size``: the width in pixels (default: the natural size)."""
    setup = parse_fen(fen, chess960, variant=variant)
    rows = placement(fen, chess960, variant)
    below = _below(setup)
    width, height = MARGIN + 8 * SQUARE, 8 * SQUARE + MARGIN + POCKET_ROW * len(below)
    shown = size or width
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chessboard" viewBox="0 0 {width} {height}" '
        f'width="{shown}" height="{round(shown * height / width)}" role="img" '
        f"aria-label={quoteattr('chess board: ' + fen)}>",
        f"<title>{escape(fen)}</title>",
    ]
    tinted = set()
    if last_move and UCI.fullmatch(last_move):
        tinted = {last_move[0:2], last_move[2:4]}
    elif last_move and DROP.fullmatch(last_move):
        tinted = {last_move[2:4]}
    parts += _squares(tinted)
    parts += _coordinates()
    parts += _pieces(rows, {FILE_NAMES[sq % 8] + RANK_NAMES[sq // 8] for sq in setup.promoted})
    parts += _arrows(arrows)
    parts += _drops(arrows)
    for row, (name, text) in enumerate(below, start=1):
        y = 8 * SQUARE + MARGIN + POCKET_ROW * row - 6
        parts.append(
            f'<text class="{name}" x="{MARGIN}" y="{y}" fill="currentColor" font-size="12" font-family="sans-serif">'
            f"{escape(text)}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _squares(tinted: set[str]) -> list[str]:
    out = []
    for rank in range(8):
        for file in range(8):
            name = FILE_NAMES[file] + RANK_NAMES[rank]
            light = (file + rank) % 2 == 1  # a1 is dark
            x, y = _corner(name)
            colour = LAST_MOVE if name in tinted else (LIGHT if light else DARK)
            css = f"square {'light' if light else 'dark'}" + (" last" if name in tinted else "")
            out.append(
                f'<rect class="{css}" data-square="{name}" x="{x}" y="{y}" '
                f'width="{SQUARE}" height="{SQUARE}" fill="{colour}"/>'
            )
    return out


def _coordinates() -> list[str]:
    out = ['<g class="coords" fill="currentColor" font-size="11" font-family="sans-serif" text-anchor="middle">']
    for i, letter in enumerate(FILE_NAMES):
        out.append(f'<text x="{MARGIN + i * SQUARE + SQUARE / 2}" y="{8 * SQUARE + 13}">{letter}</text>')
    for i, digit in enumerate(RANK_NAMES):
        out.append(f'<text x="{MARGIN / 2}" y="{(7 - i) * SQUARE + SQUARE / 2 + 4}">{digit}</text>')
    out.append("</g>")
    return out


def _pieces(rows: list[str], promoted: set[str] = frozenset()) -> list[str]:
    """The pieces; those on ``promoted`` squares (crazyhouse ``~``) marked and flagged."""
    out = [f'<g class="pieces" font-family="{FONT}" font-size="{SQUARE * 0.8:g}" text-anchor="middle">']
    for r, row in enumerate(rows):
        for f, piece in enumerate(row):
            if piece == ".":
                continue
            square = FILE_NAMES[f] + RANK_NAMES[7 - r]
            x, y = _centre(square)
            white = piece.isupper()
            paint = 'fill="#ffffff" stroke="#000000" stroke-width="1.4"' if white else 'fill="#000000"'
            flag = ' data-promoted="true"' if square in promoted else ""
            out.append(
                f'<text class="piece {"white" if white else "black"}" data-square="{square}" '
                f'data-piece="{piece}"{flag} x="{x}" y="{y + SQUARE * 0.29:g}" {paint} paint-order="stroke">'
                f"{GLYPHS[piece.lower()]}\ufe0e</text>"
            )
            if flag:
                out.append(
                    f'<text class="promoted" data-square="{square}" x="{x + SQUARE * 0.36:g}" y="{y - SQUARE * 0.2:g}" '
                    f'fill="#000000" font-size="{SQUARE * 0.36:g}" font-family="sans-serif" font-weight="bold">'
                    f"<title>promoted: a pawn again when captured</title>~</text>"
                )
    out.append("</g>")
    return out


def _arrows(arrows: list[Arrow]) -> list[str]:
    """One arrow per (from, to, kind): a promotion's four moves share theirs, all named."""
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for arrow in arrows:
        match = UCI.fullmatch(arrow.move)
        if match and match.group(1) != match.group(2):
            grouped.setdefault((match.group(1), match.group(2), arrow.kind), []).append(arrow.move)
    out = []
    for (frm, to, kind), moves in grouped.items():
        colour = ARROW_COLOURS.get(kind, ARROW_COLOURS["path"])
        out.append(
            f'<g class="arrow {kind}" data-move="{" ".join(moves)}" fill="{colour}" opacity="0.8">'
            f"<title>{kind}: {' '.join(moves)}</title>{_arrow_shape(frm, to)}</g>"
        )
    return out


def _drops(arrows: list[Arrow]) -> list[str]:
    """A ring on the square of each drop, the dropped piece's letter beside it."""
    out = []
    for arrow in arrows:
        match = DROP.fullmatch(arrow.move)
        if not match:
            continue
        colour = ARROW_COLOURS.get(arrow.kind, ARROW_COLOURS["path"])
        x, y = _centre(match.group(2))
        out.append(
            f'<g class="drop {arrow.kind}" data-move="{arrow.move}" opacity="0.85"><title>{arrow.kind}: {arrow.move}</title>'
            f'<circle cx="{x}" cy="{y}" r="{SQUARE * 0.4:g}" fill="none" stroke="{colour}" stroke-width="4"/>'
            f'<text x="{x + SQUARE * 0.3:g}" y="{y - SQUARE * 0.22:g}" fill="{colour}" font-size="12" '
            f'font-family="sans-serif" font-weight="bold" text-anchor="middle">{match.group(1)}</text></g>'
        )
    return out


def _below(setup) -> list[tuple[str, str]]:
    """The lines under the board, (class, text): the pockets (crazyhouse), the checks
    given (three-check): what the FEN holds beside the placement that decides the game."""
    lines = []
    if setup.pockets is not None:
        lines.append(("pockets", f"pockets: white {_held(setup.pockets, WHITE)}, black {_held(setup.pockets, 1 - WHITE)}"))
    if setup.checks is not None:
        white, black = setup.checks
        lines.append(("checks", f"checks given: white {white}, black {black} (the third wins)"))
    return lines


def _held(pockets, colour: int) -> str:
    counts = pockets[colour]  # queen first, pawns last, as python-chess writes a pocket
    letters = "".join(PIECE_LETTERS[p] * counts[p] for p in range(len(counts) - 1, 0, -1))
    return (letters.upper() if colour == WHITE else letters) or "-"


def _arrow_shape(frm: str, to: str) -> str:
    """A shaft and a head, from ``frm``'s centre to the edge of ``to``'s, as one polygon."""
    (x1, y1), (x2, y2) = _centre(frm), _centre(to)
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length  # along the arrow
    nx, ny = -uy, ux  # across it
    shaft, head, head_len = SQUARE * 0.09, SQUARE * 0.24, SQUARE * 0.38
    tip = length - SQUARE * 0.15
    neck = tip - head_len

    def at(along: float, across: float) -> str:
        return f"{x1 + ux * along + nx * across:.1f},{y1 + uy * along + ny * across:.1f}"

    points = [at(0, shaft), at(neck, shaft), at(neck, head), at(tip, 0), at(neck, -head), at(neck, -shaft), at(0, -shaft)]
    return f'<polygon points="{" ".join(points)}"/>'
