"""Exceptions that carry an exit code and one human sentence.

The CLI turns any ChesskitError into one line on stderr and ``exit(err.exit_code)``:
0 success, 1 mismatch or inconsistency, 2 bad input, 3 an external engine failed.
"""


class ChesskitError(Exception):
    """Base class: ``str(err)`` is the one line shown to the user."""

    exit_code = 1


class InputError(ChesskitError):
    """Bad input from the user: a FEN, a move, a depth, a suite line."""

    exit_code = 2


class FenError(InputError):
    """An invalid FEN/EPD; ``field`` names the offending field (``"fen"``: the whole
    text, its number of fields; the line then does not name it twice)."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.reason = message
        super().__init__(f"invalid FEN: {message}" if field == "fen" else f"invalid FEN: {field}: {message}")


class IllegalMoveError(InputError):
    """A move that is not legal in the position; lists the legal ones."""

    def __init__(
        self, move: str, fen: str, legal: list[str], uci: bool = True, ended: str | None = None, why: str = ""
    ):
        """``uci=False``: ``move`` is not written as a UCI move at all (``Nf3``, ``O-O``),
        which the message says, with the form moves take. ``ended``: why there is no legal
        move (checkmate, a variant's own end of the game). ``why``: the caller's reason,
        said after the FEN."""
        self.move = move
        self.fen = fen
        self.legal = legal
        self.uci_shaped = uci  # written as a UCI move (legal or not)
        shown = " ".join(sorted(legal)) if legal else f"(none: {ended})" if ended else "(none)"
        drops = "@" in move or any("@" in m for m in legal)  # crazyhouse: the drop's form too
        form = "; a drop is its piece, '@' and a square: N@e4" if drops else ""
        why = f": {why}" if why else "" if uci else f": not a UCI move (from square and to square, such as g1f3; a promotion adds its piece: e7e8q{form})"
        promotions = [m for m in sorted(legal) if len(m) == 5 and m[:4] == move.lower()]
        if uci and promotions:  # a7a8 where a7a8q ... are legal
            why = f": a promotion names its piece ({', '.join(promotions)})"
        if move != move.lower() and move.lower() in legal:  # a7a8Q where a7a8q is legal
            why = f": UCI writes moves in lower case ({move.lower()})"
        super().__init__(f"illegal move {move!r} in {fen}{why}; legal moves: {shown}")


class EngineError(ChesskitError):
    """An external engine could not be run, crashed, hung, or talked nonsense.

    Raised out of compare's descent it also says where: ``path`` (the UCI moves from the
    position to the node the engine was asked about), ``depth`` and that node's ``fen``;
    None elsewhere."""

    exit_code = 3
    path: list[str] | None = None
    depth: int | None = None
    fen: str | None = None


class EngineOptionError(EngineError):
    """An ``--engine-option`` the engine does not offer, or a value it refuses: the user's
    input is wrong, not the engine (exit 2, bad input)."""

    exit_code = 2


class TotalOnlyDivideError(EngineError):
    """A divide at depth 1 asked of an engine that prints only totals (Ethereal, Sjeng): it
    lists no moves, and its divide is its total below each of chesskit's moves, which needs
    depth 2 or more. The question is at fault, not the engine (exit 2, bad input)."""

    exit_code = 2


class EngineNotStarted(EngineError):
    """The engine could not be started at all (missing, not executable): a fault of its
    command, not of any position it was asked about."""


class EngineCheckFailed(EngineError):
    """The engine answered on the start position, then failed the check made as it starts
    (that it follows `position fen`: it ignored it, crashed, hung): it did start, so
    ``--bisect`` judges the commit (exit 3) rather than skipping it."""


class MismatchError(ChesskitError):
    """A count or state mismatch was found."""

    exit_code = 1
