"""``compare``: descend to the node where an engine's perft first goes wrong.

What ``chesskit compare`` does, from Python; ``CompareResult`` carries exactly what its
``--json`` prints::

    >>> from chesskit import Engine, compare
    >>> with Engine(script="tests/engines/bug_no_ep.py") as engine:
    ...     result = compare(engine, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 2)
    >>> result.agree, result.kind, result.path, result.missing
    (False, 'moves', [], ['e5f6'])
    >>> result.notes[0]["kinds"]
    ['capture', 'en passant']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from chesskit.api.engine import Engine, dialect_of, opened
from chesskit.api.keywords import keyword_errors
from chesskit.api.position import Moves, check_depth, engine_fens, open_position
from chesskit.errors import InputError

# the pushes the full-state sweep of a Python adapter with fen() may make (compare --state-pushes)
STATE_PUSHES = 2000


def check_pushes(state_pushes, python: bool = True) -> int:
    """``state_pushes`` as an int >= 0 (None: ``STATE_PUSHES``); InputError (exit 2)
    otherwise (a negative one was accepted), and for a value given where the engine is no
    Python adapter (``python`` False): it sets that adapter's full-state sweep, and a UCI,
    xboard or perft-printing engine has no state to compare, so it was silently ignored
    (``compare --state-pushes`` and ``chesskit.compare(..., state_pushes=)`` alike)."""
    if state_pushes is None:
        return STATE_PUSHES
    if isinstance(state_pushes, bool) or not hasattr(state_pushes, "__index__") or state_pushes < 0:
        raise InputError(f"state_pushes must be an integer >= 0 (0: only along the descent), got {state_pushes!r}")
    if not python:
        raise InputError(
            "--state-pushes sets the full-state sweep of a --python adapter with fen(); without one "
            "it would change nothing (an engine program answers perft only)"
        )
    return int(state_pushes.__index__())


@dataclass(frozen=True)
class CompareResult:
    """What ``compare`` found: the fields of ``chesskit compare --json``.

    ``agree`` is True when the engine and chesskit give the same divide all the way.
    Otherwise ``kind`` is ``"moves"`` (the move lists differ at ``path``: ``missing`` moves
    the engine does not generate, ``extra`` illegal moves it does; ``notes`` classifies
    each, ``{"move", "side", "kinds", "hint"}``) or ``"state"`` (a Python adapter's
    ``field`` differs after ``op`` of ``move``, ``ours`` vs ``theirs``; or ``field`` is
    ``"walk"``: the engine counts ``path`` differently when it reaches it by make/unmake).
    ``path`` holds UCI moves from the position (the ``moves`` given first), ``fen`` is the
    node there, ``steps`` both divides at each node of the descent.
    """

    agree: bool
    kind: str | None
    path: list[str]
    fen: str
    missing: list[str]
    extra: list[str]
    field: str | None
    ours: Any
    theirs: Any
    steps: list[dict] = field(repr=False)
    op: str | None
    move: str | None
    hint: str | None
    notes: list[dict]
    engine: str
    depth: int
    dialect: dict | None = None
    # "king-takes-rook" when the engine wrote a standard castle as e1h1 (read as e1g1),
    # "king-to-square" when it wrote a Chess960 castle as g1c1 (read as g1b1)
    castling_spelling: str | None = None
    position_notes: list[str] = field(default_factory=list)
    dialect_about: str | None = field(default=None, repr=False)  # the dialect in words
    # the suite line and pytest test that keep the bug fixed (chesskit.compare.regression;
    # JSON "regression"), None when the engine agrees
    regression: Any = field(default=None, repr=False, compare=False)
    report: Any = field(default=None, repr=False, compare=False)  # the chesskit.compare Report
    # the dialect that answered the descent's questions (JSON "dialect_answered"): ``dialect``
    # is the one found at start-up, and an engine whose xboard dialect has no Chess960
    # (Sjaak II) answers a Chess960 position in its UCI loop's total-only one instead
    dialect_answered: dict | None = None
    # where the engine failed deeper than the difference found (JSON "engine_failure"):
    # ``depth`` is then the shallower depth asked, ``failed_depth`` the depth it failed at
    engine_failure: str | None = None
    failed_depth: int | None = None

    @classmethod
    def from_report(
        cls, report, dialect: dict | None = None, position_notes=(), regression=None, castling_spelling=None,
        answered: dict | None = None,
    ) -> "CompareResult":
        from chesskit.compare.engines.dialects import without_about

        data = report.to_json()
        names = ("agree", "kind", "path", "fen", "missing", "extra", "field", "ours", "theirs", "steps")
        names += ("op", "move", "hint", "notes")
        return cls(
            **{name: data[name] for name in names},
            engine=report.engine,
            depth=report.depth,
            dialect=without_about(dialect),
            castling_spelling=castling_spelling,
            position_notes=list(position_notes),
            dialect_about=None if dialect is None else dialect.get("about"),
            regression=regression,
            report=report,
            dialect_answered=without_about(dialect if answered is None else answered),
            engine_failure=report.engine_failure,
            failed_depth=report.failed_depth,
        )

    def summary(self) -> str:
        """One line: what was found where."""
        return self.report.summary()

    def to_json(self) -> dict:
        """The object ``chesskit compare --json`` prints."""
        data = self.report.to_json()
        if self.dialect is not None:
            data["dialect"] = dict(self.dialect)
        if self.dialect_answered is not None:
            data["dialect_answered"] = dict(self.dialect_answered)
        data["castling_spelling"] = self.castling_spelling
        # "notes" already holds the missing and extra moves' classification
        data["position_notes"] = list(self.position_notes)
        data["regression"] = None if self.regression is None else self.regression.to_json()
        return data


def compare(
    engine: Engine | str,
    position: str,
    depth: int,
    *,
    moves: Moves = (),
    chess960: bool | None = None,
    strict: bool = False,
    state_pushes: int | None = None,
    engine_fen: str = "typed",
    on_step: Callable[[Any], None] | None = None,
    variant: str | None = None,
) -> CompareResult:
    """Compare ``engine``'s perft of ``position`` (after ``moves``) at ``depth`` with chesskit's,
    descending to the first node where they differ (depth >= 1).

    ``engine`` is an ``Engine`` (left open) or an engine command (``Engine(command)``,
    closed after). A Python adapter with ``fen()`` also has its full state compared after
    up to ``state_pushes`` pushes and pops (None: ``STATE_PUSHES``; given for another kind of
    engine, an InputError: it would change nothing). A position that cannot arise in a game goes to
    the engine as typed, or with ``engine_fen="chesskit"`` as chesskit reads it. ``on_step(step)`` sees each node's divides as
    the descent reaches it. An engine failure raises ``chesskit.errors.EngineError``
    (exit code 3); a disagreement is the result, not an exception. ``variant`` names the
    rules: an engine command is opened in them (default standard chess); an ``Engine``'s
    own are the default, and another is refused (InputError: it was opened in its own).
    """
    depth = check_depth(depth, 1)
    check_pushes(state_pushes)  # its type, before any engine is opened
    if on_step is not None and not callable(on_step):
        raise InputError(f"on_step must be a function of one argument (each step), or None, got {on_step!r}")
    engine, mine = opened(engine, variant)
    try:
        with keyword_errors():  # the rule's message names the CLI's flags: say the keywords
            state_pushes = check_pushes(state_pushes, _is_adapter(engine))
        board, ident = open_position(position, moves, engine._chess960 if chess960 is None else chess960, strict, engine.variant)
        fen, ours = engine_fens(position, board, engine_fen)
        with engine.lock, keyword_errors():  # the descent's errors name the CLI's flags: say the keywords
            return compare_board(engine, board, fen, depth, state_pushes, on_step, ident, engine.call, ours)
    finally:
        if mine:
            engine.close()


def _is_adapter(engine: Engine) -> bool:
    """Whether ``engine`` is a Python adapter (``python=``): the one kind with a state to compare."""
    from chesskit.compare.engines.pyadapter import PythonEngine

    return isinstance(engine.backend, PythonEngine)


def compare_board(
    engine: Engine,
    board,
    position_fen: str,
    depth: int,
    state_pushes: int = STATE_PUSHES,
    on_step: Callable[[Any], None] | None = None,
    ident: str | None = None,
    engine_call: str | None = None,
    chesskit_fen: str = "",
) -> CompareResult:
    """``compare`` of a Board already set up (its moves played from ``position_fen``, the
    FEN the engine is given): what the CLI runs after reading its arguments. ``ident`` (the
    position's suite id) and ``engine_call`` (the ``chesskit.Engine(...)`` that opens the
    engine) name the regression test written for a mismatch; ``chesskit_fen`` is the FEN
    chesskit counts when it is not the one the engine is given."""
    from chesskit.compare.descent import descend
    from chesskit.compare.regression import from_report
    from chesskit.compare.statecmp import state_checker

    backend = engine.backend
    dialect = dialect_of(backend)
    prefix = board.move_stack
    checker = state_checker(backend, position_fen, prefix, board.chess960, state_pushes)
    report = descend(
        board, backend, depth, position_fen, prefix, checker=checker, engine_name=backend.name, on_step=on_step
    )
    report.chesskit_fen = chesskit_fen
    regression = from_report(report, ident or "compare", engine_call or engine.call)
    spelling = getattr(backend, "castling_spelling", None)
    # asked again now: the descent may have switched the engine to another dialect
    answered = dialect_of(backend) if dialect is not None else None
    return CompareResult.from_report(report, dialect, board.notes, regression, spelling, answered)
