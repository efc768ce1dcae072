"""How engines answer perft: the dialect names, and reading their answers line by line.

A dialect says where the engine is asked (a UCI loop after `uci`/`uciok`, a console
that never says `uciok`, or a fresh process per question), which command asks
(`go perft N`, `perft N`, `divide N`) and whether the answer is a divide (one line
per root move) or a total only.  Names:

    uci-go-perft          Stockfish: `go perft N` in the UCI loop, a divide
    uci-perft             bare `perft N` in the UCI loop, a divide
    uci-divide            bare `divide N` in the UCI loop, a divide
    uci-perft-total       bare `perft N` in the UCI loop, a total only (Ethereal)
    console-perft         `perft N` typed into a console (no `uciok`), a divide
    console-divide        `divide N` in a console, a divide
    console-perft-total   `perft N` in a console, a total only
    xboard-perft          `perft N` to an xboard (CECP) engine, a divide
    xboard-perft-split    `perft N 1` to an xboard engine: a perft that splits by root
                          move (Sjaak II's print depth), a divide
    xboard-divide         `divide N` to an xboard engine, a divide
    xboard-perft-total    `perft N` to an xboard engine, a total only (Sjeng)
    (and uci-go-perft-total, uci-divide-total, console-divide-total, xboard-divide-total)

An xboard engine is driven in force mode (`xboard`, `protover 2`, `new`, `force`), given
its position with `setboard FEN` (or `edit` when it lacks the setboard feature) and the
moves (`usermove M` when it asks for that), and synchronised with `ping N`/`pong N`
(see `xboard`).

One-shot command lines (`--engine-cmd`) are answered the same way, per process.

Answers are read by the same lenient parser in every dialect:

    divide lines   e2e4: 20 | e2e4 20 | e2e4 - 20 | e2e4 = 20 | move 1 : e2e4 : 20 | 1. Nf3 20 |
                   Ng1-f3  20  40 (a count, then the running total: Sjaak II)
                   moves in UCI (e2e4, e7e8q, e1h1), SAN (Nf3, exd6, O-O, e8=Q+) or
                   long algebraic (Ng1-f3, e2-e4); SAN is turned into UCI with the legal
                   moves of chesskit's own Board
    totals         Nodes searched: N | Nodes: N | Total: N | Total nodes: N | Perft(5) = N |
                   Perft 5: N (...) | Test Complete : N nodes visited | total moves=N time=T |
                   Leaves: N | Total leafs: N |
                   Raw nodes for depth 5: N | 5  N  T  Xnps (a depth nodes time nps row) | a bare N;
                   a total that names another depth (Rustic prints one per depth) is skipped
    anything else  banners, `info` lines, timings, `Unknown command` replies: skipped
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from chesskit.compare.engines.base import NULL_MOVE, UCI_MOVE, add_divide_entry, normalise_move
from chesskit.geometry import between, direction, distance, file_of, rank_of
from chesskit.vocab import BISHOP, KING, KNIGHT, PAWN, PIECE_LETTERS, ROOK, WHITE, parse_square, square_name

LOOPS = ("uci", "console", "xboard")
COMMANDS = ("go-perft", "perft", "divide")
# the commands a dialect of each loop may name; "perft-split" is `perft N 1` (Sjaak II's print depth)
LOOP_COMMANDS = {"uci": COMMANDS, "console": COMMANDS, "xboard": ("perft", "divide", "perft-split")}


@dataclass(frozen=True)
class Dialect:
    loop: str  # "uci", "console" or "oneshot"
    command: str  # "go-perft", "perft", "divide" (oneshot: "template")
    total_only: bool = False
    moves: str | None = None  # "uci" or "san" as seen when detected; None: total only or not known
    # how its moves are written, more closely: "uci", "san" (Nf3) or "long-algebraic"
    # (Ng1-f3, Sjaak II), which ``moves`` calls "san" too (its JSON value, kept); None as ``moves``
    notation: str | None = None

    @property
    def name(self) -> str:
        if self.loop == "oneshot":
            return "oneshot-total" if self.total_only else "oneshot"
        return f"{self.loop}-{self.command}" + ("-total" if self.total_only else "")

    @property
    def total_name(self) -> str:
        """The name of this dialect's total-only form (``perft N 1`` has none: ``perft N``'s)."""
        command = "perft" if self.command == "perft-split" else self.command
        return Dialect(self.loop, command, True).name

    def verb(self, depth: int) -> str:
        """The command that asks for perft `depth`: `go perft 3`, `perft 3`, `divide 3`, `perft 3 1`."""
        if self.command == "perft-split":
            return f"perft {depth} 1"
        return f"{self.command.replace('-', ' ')} {depth}"

    def describe(self) -> str:
        """`bare 'perft N' in the UCI loop, total only` and the like."""
        if self.loop == "oneshot":
            where = "a one-shot command line per question"
        else:
            bare = "" if self.command == "go-perft" else "bare "
            place = {"uci": "the UCI loop", "console": "a console", "xboard": "xboard (CECP) force mode"}[self.loop]
            asked = "perft N 1" if self.command == "perft-split" else f"{self.verb(0)[:-2]} N"
            where = f"{bare}'{asked}' in {place}"
        if self.total_only:
            return f"{where}, total only"
        written = NOTATIONS.get(self.notation or "", f"{self.moves.upper()} moves" if self.moves else None)
        return f"{where}, divide" + (f" with {written}" if written else "")

    def to_json(self) -> dict:
        return {"name": self.name, "moves": self.moves, "total_only": self.total_only, "notation": self.notation}

    def spoken(self, detected: bool, about: bool = True) -> dict:
        """The JSON ``"dialect"`` (and ``"dialect_answered"``) value of an engine speaking
        this dialect: ``to_json`` and whether it was ``detected`` (not named), with its
        description as ``"about"`` unless ``about`` is False (the JSON leaves it out)."""
        found = {**self.to_json(), "detected": bool(detected)}
        return {**found, "about": self.describe()} if about else found


def without_about(spoken: dict | None) -> dict | None:
    """A ``Dialect.spoken`` value as the JSON gives it: without its ``"about"`` description
    (None stays None)."""
    return None if spoken is None else {k: v for k, v in spoken.items() if k != "about"}


# how ``Dialect.describe`` names each notation
NOTATIONS = {"uci": "UCI moves", "san": "SAN moves", "long-algebraic": "long algebraic moves (Ng1-f3)"}


def dialect_names() -> list[str]:
    names = []
    for loop in LOOPS:
        for command in LOOP_COMMANDS[loop]:
            names += [f"{loop}-{command}"] + ([] if command == "perft-split" else [f"{loop}-{command}-total"])
    return names


def parse_dialect(name: str) -> Dialect | None:
    """The dialect called `name`, or None when there is no such name."""
    text = name.strip().lower()
    total = text.endswith("-total")
    if total:
        text = text[: -len("-total")]
    loop, _, command = text.partition("-")
    if loop not in LOOPS or command not in LOOP_COMMANDS[loop]:
        return None
    if total and command == "perft-split":
        return None
    return Dialect(loop, command, total)


# -- reading answers -------------------------------------------------------------

# at most 19 digits (a 64-bit count): a number of thousands of digits is no count; totals
# and divide lines alike may group the digits in thousands (`Nodes searched: 97,862`, `a2a3: 2,186`)
_DIGITS = r"\d{1,3}(?:,\d{3}){1,6}|\d{1,19}"
_NUMBER = rf"({_DIGITS})"
_TOTALS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"nodes\s+searched\s*[:=]?\s*{_NUMBER}",
        rf"(?:total\s+|leaf\s+)?nodes(?:\s+visited|\s+count)?\s*[:=]?\s*{_NUMBER}",
        rf"total(?:\s+number\s+of\s+nodes|\s+nodes|\s+leaf\s+nodes|\s+leaves|\s+leafs)?\s*[:=]?\s*{_NUMBER}",
        rf"leaves\s*[:=]\s*{_NUMBER}",  # Weiss: `Leaves: 8902` under `Perft complete:`
        rf"perft\s*\(?\s*(?P<depth>\d{{1,3}})\s*\)?\s*[:=]\s*{_NUMBER}(?:\s+.*)?",
        rf"(?:test|perft)\s+complete\s*:\s*{_NUMBER}\s+(?:leaf\s+)?nodes(?:\s+.*)?",
        # Crafty: `total moves=8902  time=0.01`
        rf"total\s+moves\s*=\s*{_NUMBER}(?:\s+time\s*=\s*\S+)?",
        # Sjeng: `Raw nodes for depth 3: 8902`
        rf"raw\s+nodes\s+for\s+depth\s+(?P<depth>\d{{1,3}})\s*:\s*{_NUMBER}",
        # Sjaak II: a `depth nodes time nps` row, `3       8902  0.00   1780400.00nps`
        rf"(?P<depth>\d{{1,3}})\s+{_NUMBER}\s+\d+(?:\.\d+)?\s+\d+(?:\.\d+)?\s*nps",
        rf"{_NUMBER}(?:\s+(?:leaf\s+)?nodes)?",
    )
]
# `[move N :] MOVE [:|-|=] COUNT [nodes] [RUNNING]`; the move token is checked separately;
# RUNNING is a running total (Sjaak II: `Ra8-a2   17   38`), checked by the reader
_DIVIDE = re.compile(
    r"(?:move\s*:?\s*\d+\s*[:.]?\s*|\d+[.)]\s*)?(?P<move>[A-Za-z0-9=+#\-.@]+?(?:\s*e\.p\.)?)\s*(?:[:=\-]|\s)\s*"
    rf"(?P<count>{_DIGITS})(?:\s+(?:leaf\s+)?(?:nodes?|leaves))?(?:\s+(?P<running>{_DIGITS}))?",
    re.IGNORECASE,
)
_SAN = re.compile(
    r"(?P<piece>[NBRQK])?(?P<file>[a-h])?(?P<rank>[1-8])?[-x:]?(?P<to>[a-h][1-8])"
    r"(?:=?(?P<promo>[NBRQnbrq]))?"
)
_CASTLE = re.compile(r"([O0])-\1(-\1)?")
# long algebraic: the from square written whole, then `-` or `x` (`Ng1-f3`, `e7xd8=Q`)
_LONG = re.compile(r"[NBRQK]?[a-h][1-8][-x:][a-h][1-8]")
_SUFFIX = re.compile(r"(?:[+#!?]+|\s*e\.?p\.?)+$")
_PIECE_TYPES = {letter.upper(): ptype for ptype, letter in enumerate(PIECE_LETTERS) if ptype}


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def parse_total(line: str, depth: int | None = None) -> int | None:
    """The node count of a total line (None when the line is none, or names another depth)."""
    found = read_total(line)
    if found is None or (found[1] is not None and depth is not None and found[1] != depth):
        return None
    return found[0]


def read_total(line: str) -> tuple[int, int | None] | None:
    """(count, the depth the line names or None) for a total line; None for any other line."""
    text = line.strip()
    for pattern in _TOTALS:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        said = m.groupdict().get("depth")
        return _number(m.groups()[-1]), None if said is None else int(said)
    return None


# a minus sign before a number (`-1104895168`), and a run of more digits than a count may hold
_MINUS = re.compile(r"(?<![\w-])-(?=\d)")
_LONG_NUMBER = re.compile(r"\d{20,}")


# the labels only a perft answer uses, with a value that holds no digit (`Nodes searched: nan`)
_NO_NUMBER = re.compile(r"(?:nodes\s+searched|perft\s*\(\s*\d{1,3}\s*\))\s*[:=]\s*(?P<value>[^\d\s][^\d]*)", re.IGNORECASE)
# a divide line but for its count, one word without a digit after the colon (`e2e4: nan`,
# `Nf3: ?`): ``bad_count`` checks that the line is one with a count in its place. Without a
# colon (`e4 is`, `Nf3 ?`) two words are no claim to be a divide line: skipped, as any chatter
_NO_NUMBER_ROW = re.compile(r"(?P<row>\S+?:\s*)(?P<value>[^\d\s]+)")


def bad_count(line: str) -> str | None:
    """What is wrong with the count of a line that would be a total or a divide line but for
    it: ``'a negative count'`` (``Nodes searched: -1104895168``, a 32-bit counter that
    wrapped), ``'a count of 23 digits'``, ``"a count that is no number ('nan')"``
    (``Nodes searched: nan``, ``Perft(3) = ?``, a divide line's ``e2e4: nan``); None for
    any other line. Such a line is
    the engine's answer, so it fails at once instead of being skipped until --timeout
    (three of them while its dialect is detected)."""
    text = line.strip()
    garbled = _NO_NUMBER.fullmatch(text)
    if garbled is None and (row := _NO_NUMBER_ROW.fullmatch(text)) is not None:
        garbled = row if parse_divide_row(row.group("row") + "1") is not None else None
    if garbled is not None:
        return f"a count that is no number ({garbled.group('value').strip()!r})"
    fixed = _MINUS.sub("", text)
    if fixed != text:
        why = "a negative count (a signed counter that wrapped?)"
    else:
        long = _LONG_NUMBER.search(text)
        if long is None:
            return None
        why = f"a count of {len(long.group())} digits (at most 19 are read)"
        fixed = _LONG_NUMBER.sub("1", text)
    if read_total(fixed) is None and parse_divide_row(fixed) is None:
        return None
    return why


def move_token(text: str) -> str | None:
    """`text` without check marks when it is shaped like a move (UCI, SAN or long algebraic)."""
    token = _SUFFIX.sub("", text.strip())
    if token == NULL_MOVE or UCI_MOVE.fullmatch(token) or _CASTLE.fullmatch(token) or _SAN.fullmatch(token):
        return token
    return None


def parse_divide_entry(line: str) -> tuple[str, int] | None:
    """``('Nf3', 20)`` for ``Nf3: 20``, ``move 3 : Nf3 : 20`` ...; None when the line is not one."""
    row = parse_divide_row(line)
    return None if row is None else row[:2]


def parse_divide_row(line: str) -> tuple[str, int, int | None] | None:
    """(move token, count, running total or None) of a divide line; None when the line is not one."""
    m = _DIVIDE.fullmatch(line.strip())
    if m is None:
        return None
    token = move_token(m.group("move"))
    if token is None:
        return None
    running = m.group("running")
    return token, _number(m.group("count")), None if running is None else _number(running)


class MoveNames:
    """Turns the engine's move tokens into chesskit's UCI, using the node's legal moves."""

    def __init__(self, board_factory):
        self._factory = board_factory  # () -> Board of the node; built only when SAN shows up
        self._table: list[tuple] | None = None
        self._board = None
        self.san_seen = False
        self.long_seen = False  # a move in long algebraic (``Ng1-f3``)

    def to_uci(self, token: str) -> str:
        """UCI for `token`.  An illegal move (a buggy engine's) is matched by geometry
        alone when exactly one piece could make it; failing that it is kept as written."""
        if UCI_MOVE.fullmatch(token) or token == NULL_MOVE:
            return normalise_move(token)
        self.san_seen = True
        if _LONG.match(token):
            self.long_seen = True
        found = self._match(token)
        if found is None:
            found = self._pseudo(token)
        return found if found is not None else token

    def _pseudo(self, token: str) -> str | None:
        """The UCI of an illegal SAN move: the one piece of the side to move that could
        reach the square if pins, checks and blocked castling were ignored; failing that,
        the one slider on a line to it through the pieces in between (a slider that moves
        through a blocker, ``Qh5`` at the start: it stayed in SAN, unclassified, QA 40b #3)."""
        board = self._factory() if self._board is None else self._board
        self._board = board
        us = board.turn
        m = _CASTLE.fullmatch(token)
        if m is not None:
            king = board.king_square(us)
            if board.chess960 or king & 7 != 4:
                return None
            to = king + (-2 if m.group(2) else 2)
            return square_name(king) + square_name(to)
        m = _SAN.fullmatch(token)
        if m is None:
            return None
        ptype = _PIECE_TYPES[m.group("piece") or "P"]
        to = parse_square(m.group("to"))
        for through in (False, True):
            found = []
            for frm in range(64):
                piece = board.piece_at(frm)
                if not piece or piece & 7 != ptype or piece >> 3 != us:
                    continue
                if m.group("file") and square_name(frm)[0] != m.group("file"):
                    continue
                if m.group("rank") and square_name(frm)[1] != m.group("rank"):
                    continue
                if _reaches(board, frm, to, ptype, us, through):
                    found.append(square_name(frm) + square_name(to) + (m.group("promo") or "").lower())
            if found:
                return found[0] if len(found) == 1 else None
        return None

    def _moves(self) -> list[tuple]:
        """(uci, piece type, from, to, promo, castle side) for every legal move of the node."""
        if self._table is None:
            board = self._board = self._factory() if self._board is None else self._board
            table = []
            for uci in board.legal_moves():
                if "@" in uci:  # a drop (crazyhouse) is written the same in SAN: never matched here
                    continue
                frm, to = parse_square(uci[0:2]), parse_square(uci[2:4])
                ptype = board.piece_at(frm) & 7
                target = board.piece_at(to)
                castle = None
                if ptype == KING and (abs((to & 7) - (frm & 7)) == 2 or (target and target >> 3 == board.turn)):
                    castle = "K" if (to & 7) > (frm & 7) else "Q"
                table.append((uci, ptype, frm, to, uci[4:].upper(), castle))
            self._table = table
        return self._table

    def _match(self, token: str) -> str | None:
        m = _CASTLE.fullmatch(token)
        if m is not None:
            side = "Q" if m.group(2) else "K"
            found = [row[0] for row in self._moves() if row[5] == side]
            return found[0] if len(found) == 1 else None
        m = _SAN.fullmatch(token)
        if m is None:
            return None
        ptype = _PIECE_TYPES[m.group("piece") or "P"]
        to = parse_square(m.group("to"))
        promo = (m.group("promo") or "").upper()
        found = [
            row[0]
            for row in self._moves()
            if row[1] == ptype
            and row[3] == to
            and row[5] is None
            and row[4] == promo
            and (m.group("file") is None or square_name(row[2])[0] == m.group("file"))
            and (m.group("rank") is None or square_name(row[2])[1] == m.group("rank"))
        ]
        return found[0] if len(found) == 1 else None


def _reaches(board, frm: int, to: int, ptype: int, us: int, through: bool = False) -> bool:
    """Whether a piece of type `ptype` on `frm` moves to `to` by its geometry (path clear;
    with ``through`` a slider's line alone, whatever stands in between)."""
    df, dr = file_of(to) - file_of(frm), rank_of(to) - rank_of(frm)
    if ptype == PAWN:  # pushes and captures (any capture: en passant included)
        ahead = 1 if us == WHITE else -1
        if df == 0:
            start = 1 if us == WHITE else 6
            return dr == ahead or (dr == 2 * ahead and rank_of(frm) == start)
        return abs(df) == 1 and dr == ahead
    if ptype == KNIGHT:
        return {abs(df), abs(dr)} == {1, 2}
    if ptype == KING:
        return distance(frm, to) == 1
    line = direction(frm, to)  # None off a line, and for frm == to
    if line is None or (ptype == BISHOP and 0 in line) or (ptype == ROOK and 0 not in line):
        return False
    return through or not any(board.piece_at(sq) for sq in between(frm, to))


@dataclass
class Answer:
    """What an engine printed for one perft question."""

    moves: dict[str, int] = field(default_factory=dict)
    total: int | None = None
    san: bool = False
    long: bool = False  # of those moves, one was written in long algebraic (``Ng1-f3``)
    skipped: list[str] = field(default_factory=list)  # lines that were neither (for messages)
    bare: int | None = None  # a bare number not (yet) taken as the total (see AnswerReader)
    bestmove: str | None = None  # the `bestmove` line of an engine that searched instead of counting
    late: bool = False  # divide lines came after `readyok`: the engine prints from a thread
    last: str | None = None  # the last line that was neither
    countish: str | None = None  # the last such line that looks as if it held the count
    # lines shaped like a divide line whose move chesskit cannot read (`0000: 1`, a null
    # move), with their counts: what a total may count beyond the divide lines
    unread_rows: list[tuple[str, int]] = field(default_factory=list)

    def unread(self) -> str | None:
        """The line to quote for an answer chesskit could not read: the one that should
        have held the count (a number near `nodes`, `perft`, `total`...), else the last line."""
        return self.countish or self.last

    @property
    def notation(self) -> str | None:
        """How its divide lines wrote the moves: "uci", "san", "long-algebraic"; None without any."""
        if not self.moves:
            return None
        return "long-algebraic" if self.long else "san" if self.san else "uci"

    def note_skipped(self, text: str) -> None:
        row = _ROW_SHAPED.fullmatch(text)
        if row is not None and len(self.unread_rows) < 20:
            self.unread_rows.append((text, _number(row.group(1))))
        if len(self.skipped) < 5:
            self.skipped.append(text)
        self.last = text
        if _COUNTISH.search(text) and re.search(r"\d", text):
            self.countish = text

    @property
    def empty(self) -> bool:
        return not self.moves and self.total is None

    @property
    def consistent(self) -> bool:
        """A total, and divide lines that sum to it (none at all for a total-only answer)."""
        return self.total is not None and (not self.moves or sum(self.moves.values()) == self.total)


# a token and a count, as a divide line is (`0000: 1`), whatever the token
_ROW_SHAPED = re.compile(rf"\S+\s*[:=\-]?\s*({_DIGITS})")
# a line that may hold a count chesskit cannot read: `Raw nodes for depth 2: 400` behind a prompt
_COUNTISH = re.compile(r"nodes|perft|total|count|leaf|leaves|moves\s*=", re.IGNORECASE)
# a bare count ("8902"): the total of some engines, the depth or a timing in others
_BARE = re.compile(r"\d[\d,]*")
# a console's prompt printed without a line end, in front of the answer's first line:
# `> `, `perft> `, `engine $ ` (one or more)
_PROMPT = re.compile(r"(?:[\w.()-]*\s*[>$#%]\s*)+")


class AnswerReader:
    """Feed it the lines of one answer; it keeps the divide lines and the total.

    A total may come before the divide lines (they are still read). A bare number is
    the total only when nothing else can be: after divide lines that sum to it, or in a
    total-only dialect; one that comes before any divide line is kept aside
    (``answer.bare``) and taken by ``finish`` when no divide line and no total followed.
    A prompt in front of a line (a console's ``> `` without a line end) is dropped."""

    def __init__(self, depth: int, board_factory=None, total_only: bool = False):
        self.depth = depth
        self.names = MoveNames(board_factory) if board_factory is not None else None
        self.answer = Answer()
        self.total_only = total_only
        self._total_first = False  # the total came before any divide line

    def feed(self, line: str) -> str:
        """'total', 'divide', 'bare' or 'skip' for `line`."""
        text = line.strip()
        before = len(self.answer.skipped)
        kind = self._feed(text)
        m = _PROMPT.match(text) if kind == "skip" else None
        if m is not None and m.end() < len(text):
            del self.answer.skipped[before:]
            kind = self._feed(text[m.end() :])
            if kind == "skip":  # not an answer line either way: keep it as printed
                del self.answer.skipped[before:]
                self.answer.note_skipped(text)
        return kind

    def finish(self) -> Answer:
        """The answer once nothing more comes: a bare number alone is its total."""
        answer = self.answer
        if answer.total is None and not answer.moves and answer.bare is not None:
            answer.total = answer.bare
        return answer

    def _feed(self, text: str) -> str:
        if not text:
            return "skip"
        answer = self.answer
        if answer.total is None:
            found = read_total(text)
            if found is not None and found[1] is not None and found[1] != self.depth:
                # the total of another depth (Rustic and Sjaak II count every depth up to
                # the one asked): the divide lines before it were that depth's
                answer.moves.clear()
                return "skip"
            total = None if found is None else found[0]
            if total is not None:
                if _BARE.fullmatch(text) and not self.total_only:
                    if not answer.moves or sum(answer.moves.values()) != total:
                        answer.bare = total
                        return "bare"
                answer.total = total
                self._total_first = not answer.moves
                return "total"
        entry = parse_divide_row(text) if answer.total is None or self._total_first else None
        if entry is not None and entry[2] is not None and entry[2] != sum(answer.moves.values()) + entry[1]:
            entry = None  # a third number that is no running total: not a divide line
        if entry is None:
            answer.note_skipped(text)
            return "skip"
        token, count, _ = entry
        move = self.names.to_uci(token) if self.names is not None else token.lower()
        if self.names is not None and self.names.san_seen:
            answer.san = True
            answer.long = answer.long or self.names.long_seen
        add_divide_entry(answer.moves, move, count)
        return "divide"
