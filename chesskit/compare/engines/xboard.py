"""Talking to an xboard (CECP) engine: the handshake, the position, synchronisation.

The engine is kept in force mode, so it never plays a move of its own (Sjeng and Sjaak
II play the side to move after `setboard` when not told `force`: a perft that then counts
the position after the engine's own reply looks like a move-generation bug):

    > xboard                 > protover 2          < feature setboard=1 ping=1 ... done=1
    > accepted setboard ...  (each feature chesskit uses; `rejected san`: moves are sent
                              in coordinates)
    > new                    > force
    > setboard FEN           (or, without the setboard feature, `edit` mode: see below)
    > e2e4 | usermove e2e4   (each move played from FEN; `usermove` when the engine asks)
    > ping N                 < pong N             (an `Illegal move` or `Error` before it fails)
    > perft D                > ping N+1           < the answer ... pong N+1

An engine without the ping feature is read like a console: its answer ends at its total.
The handshake waits for `done=1` (`done=0` asks for more time), else FEATURE_WAIT seconds
after the last line, as xboard does.  Only the perft commands belong to the dialect
(see `dialects`); this module is the protocol around them.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from chesskit.compare.engines.base import one_line
from chesskit.vocab import PAWN, parse_square

# How long the handshake waits for `feature` lines (xboard waits 2 s for an engine that
# does not say done=0); capped by --timeout.
FEATURE_WAIT = 2.0

_FEATURE = re.compile(r'(\w+)=("[^"]*"|\S+)')
# what an xboard engine prints for a move or command it refuses
_ERROR = re.compile(r"^(?:Illegal move|Error)\b", re.IGNORECASE)
_REFUSED = re.compile(r"unknown|invalid|unrecogni[sz]ed|illegal|not supported", re.IGNORECASE)


@dataclass
class Features:
    """The `feature` lines an engine sent after `protover 2` (only what chesskit uses)."""

    seen: dict[str, str] = field(default_factory=dict)  # name -> value as sent (options left out)
    done: bool = False

    def flag(self, name: str) -> bool:
        return self.seen.get(name) == "1"

    @property
    def setboard(self) -> bool:
        return self.flag("setboard")

    @property
    def usermove(self) -> bool:
        return self.flag("usermove")

    @property
    def ping(self) -> bool:
        return self.flag("ping")

    @property
    def variants(self) -> list[str]:
        return [v.strip() for v in self.seen.get("variants", "").strip('"').split(",") if v.strip()]

    def read(self, line: str) -> bool:
        """Take one line; whether it was a `feature` line."""
        text = line.strip()
        if not text.startswith("feature "):
            return False
        for name, value in _FEATURE.findall(text[len("feature ") :]):
            if name == "option":
                continue
            if name == "done":
                self.done = value == "1"
            else:
                self.seen[name] = value
        return True


def handshake(engine, wait: float, probing: bool) -> Features | None:
    """Send `xboard` and `protover 2` and read the features. None when no `feature` line
    came: the engine does not speak xboard (when `probing`, a UCI engine's `readyok` to an
    `isready` sent behind the handshake, or a refusal of `protover`, ends the wait at once)."""
    engine._send("xboard")
    engine._send("protover 2")
    if probing:
        engine._send("isready")
    features = Features()
    heard = False
    deadline = time.monotonic() + wait
    limit = None if engine.timeout is None else time.monotonic() + engine.timeout
    while True:
        until = deadline if limit is None else min(deadline, limit)
        line = engine._poll(until)
        if line is None:
            break
        text = line.strip()
        if features.read(text):
            heard = True
            if features.done:
                break
            if "done=0" in text.replace(" ", ""):  # more time asked for: up to --timeout
                deadline = float("inf") if limit is None else limit
            else:
                deadline = max(deadline, time.monotonic() + min(wait, 0.5))
            continue
        if not heard and (text == "readyok" or ("protover" in text and _REFUSED.search(text))):
            return None
    if not heard:
        return None
    for name in sorted(features.seen):
        if name in ("setboard", "usermove", "ping", "san", "sigint", "sigterm"):
            verdict = "rejected" if name == "san" and features.flag("san") else "accepted"
            engine._send(f"{verdict} {name}")
    engine._send("new")
    engine._send("force")
    return features


def heard_nothing(engine) -> str:
    """`; it printed '...'` with the engine's last line, for a handshake that got no feature."""
    last = [line for line in engine._stdout_tail if line.strip()]
    return f"; it printed {one_line(last[-1])!r}" if last else "; it printed nothing"


def position_commands(engine, features: Features, fen: str, moves: list[str], board_factory) -> list[str]:
    """The commands that set `fen` and play `moves` in force mode."""
    commands = [f"setboard {fen}"] if features.setboard else edit_commands(engine, fen, board_factory)
    prefix = "usermove " if features.usermove else ""
    return commands + [prefix + move for move in moves]


def edit_commands(engine, fen: str, board_factory) -> list[str]:
    """CECP's `edit` mode for an engine without setboard: `new`, `force` (and `a2a3` for
    black to move), `edit`, `#` (clear), white's pieces, `c`, black's, `.`. Edit mode
    cannot say which castling rights are left (the engine assumes them for a king and
    rook on their squares) nor an en-passant square: a FEN that needs either is refused."""
    fields = fen.split()
    placement, turn = fields[0], fields[1] if len(fields) > 1 else "w"
    castling = fields[2] if len(fields) > 2 else "-"
    ep = fields[3] if len(fields) > 3 else "-"
    pieces: dict[str, list[str]] = {"w": [], "b": []}
    squares: dict[str, str] = {}
    for rank, row in zip("87654321", placement.split("/")):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
                continue
            square = "abcdefgh"[file] + rank
            squares[square] = char
            pieces["w" if char.isupper() else "b"].append(char.upper() + square)
            file += 1
    assumed = "".join(
        right
        for right, king, rook in (("K", "Ke1", "Rh1"), ("Q", "Ke1", "Ra1"), ("k", "ke8", "rh8"), ("q", "ke8", "ra8"))
        if squares.get(king[1:]) == king[0] and squares.get(rook[1:]) == rook[0]
    ) or "-"
    if assumed != castling:
        raise engine.error(
            f"has no setboard feature, and its edit mode cannot set castling rights {castling!r} "
            f"(it assumes {assumed!r} from where the kings and rooks stand)"
        )
    if ep != "-":
        board = board_factory()
        if any(move[2:4] == ep and board.piece_at(parse_square(move[:2])) & 7 == PAWN for move in board.legal_moves()):
            raise engine.error("has no setboard feature, and its edit mode cannot set an en-passant square")
    commands = ["new", "force"] + (["a2a3"] if turn == "b" else [])
    return commands + ["edit", "#", *pieces["w"], "c", *pieces["b"], "."]


def is_error(line: str) -> bool:
    """An xboard engine's refusal: `Illegal move: e2e5`, `Error (unknown command): foo`."""
    return bool(_ERROR.match(line.strip()))
