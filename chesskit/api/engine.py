"""``Engine``: an external engine, connected in any of the ways the CLI connects one.

    >>> from chesskit import Engine
    >>> with Engine(python="tests/engines/eng_correct.py:Adapter") as engine:
    ...     engine.perft("startpos", 2)
    400

One constructor for ``--engine`` (a command: the perft dialect is detected, or named by
``dialect``), ``--engine-cmd`` (a one-shot template with ``{fen}``, ``{depth}``,
``{moves}``), ``--script`` (a perftree script) and ``--python`` (an adapter
``module:factory`` or ``path/to/file.py:factory``). Nothing starts until the first
question. Every failure of the engine is a ``chesskit.errors.EngineError`` (exit code 3);
bad arguments are ``InputError`` (exit code 2).
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Mapping, Sequence
from typing import Union

from chesskit.api.keywords import keyword_errors
from chesskit.api.position import Moves, check_depth, engine_fen, open_position
from chesskit.errors import InputError

Options = Union[Sequence[str], Mapping[str, object]]
DEFAULT_TIMEOUT = 30.0  # seconds per answer, as --timeout's default


class Engine:
    """An external engine that answers perft questions; use it as a context manager
    (or call ``close``) so that its process is stopped."""

    # its errors name the keywords (``timeout``), not the commands' flags (``--timeout``):
    # True when made by ``Engine(...)``, False by ``with_flags`` and ``wrap``
    _keywords = False

    def __init__(
        self,
        command: str | Sequence[str] | os.PathLike | None = None,
        *,
        dialect: str | None = None,
        options: Options = (),
        timeout: float = DEFAULT_TIMEOUT,
        engine_cmd: str | None = None,
        script: str | None = None,
        python: str | None = None,
        variant: str = "chess",
    ):
        """Exactly one of ``command`` (``--engine``: a command line or its argv list; a
        ``pathlib.Path`` is one program, whatever spaces its path holds),
        ``engine_cmd`` (``--engine-cmd``), ``script`` (``--script``) or ``python``
        (``--python``). ``dialect`` (``--dialect``, e.g. ``"uci-perft-total"``) names how
        ``command`` answers perft when detection cannot tell; ``options`` (``--engine-option``:
        ``["Threads=2"]`` or ``{"Threads": 2}``) are sent to a UCI engine with setoption;
        ``timeout`` (``--timeout``) bounds each answer, in seconds. ``variant`` names the
        rules of every question (a UCI engine is set to it with ``UCI_Variant``). A bad
        argument's InputError, and a question's error, names these keywords (``engine_cmd``,
        ``give a longer timeout``), not the flags."""
        self._keywords = True
        with keyword_errors():  # the messages name the commands' flags: say the keywords
            self._start(command, dialect, options, timeout, engine_cmd, script, python, variant)

    @classmethod
    def with_flags(cls, command: str | Sequence[str] | None = None, **keywords) -> "Engine":
        """``Engine(command, **keywords)`` for the commands and the pytest plugin: a bad
        argument's InputError names the commands' flags (``--engine-cmd``), which they
        respell as their users typed them."""
        engine = cls.__new__(cls)
        engine._start(command, **keywords)
        return engine

    def _start(
        self,
        command: str | Sequence[str] | None,
        dialect: str | None = None,
        options: Options = (),
        timeout: float = DEFAULT_TIMEOUT,
        engine_cmd: str | None = None,
        script: str | None = None,
        python: str | None = None,
        variant: str = "chess",
    ) -> None:
        from chesskit.api.position import variant_rules
        from chesskit.compare.engines import open_engine

        if isinstance(options, str):  # one option, not its letters one by one
            options = [options]
        elif not isinstance(options, (Mapping, Sequence, set, frozenset)):
            raise InputError(f"options must be NAME=VALUE strings or a mapping of names to values, got {options!r}")
        if isinstance(command, os.PathLike):  # one program, spaces and all: not a command line to split
            command = [os.fspath(command)]
        if command is not None and not isinstance(command, str):
            if not isinstance(command, Sequence) or isinstance(command, (bytes, bytearray)):
                raise InputError(f"command must be a command line or a list of its words, got {command!r}")
            command = [str(part) for part in command]
        self.lock = threading.RLock()  # one question at a time (``lock``)
        self.closed = False  # ``close()`` ends it for good: a question after it is refused
        self.call = engine_call(command, dialect, options, timeout, engine_cmd, script, python)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or math.isnan(timeout):
            raise InputError(f"timeout must be a number of seconds, got {timeout!r}")
        if isinstance(options, Mapping):
            options = {str(name): str(value) for name, value in options.items()}
        name, named960 = variant_rules(variant, None)
        self.variant = name  # the rules every question is asked in (canonical name)
        self._chess960 = named960  # True for a 960 name (atomic960), else None: from the FEN
        # standard chess opens the engine exactly as before variants existed
        rules = {} if name == "chess" else {"variant": name}
        self._backend = open_engine(
            engine=command,
            script=script,
            python=python,
            options=options,
            timeout=float(timeout),
            dialect=dialect,
            engine_cmd=engine_cmd,
            **rules,
        )

    @classmethod
    def wrap(cls, backend) -> "Engine":
        """An ``Engine`` over a ``chesskit.compare.engines`` back end already made."""
        engine = cls.__new__(cls)
        engine._backend = backend
        engine.lock = threading.RLock()
        engine.closed = False
        engine.call = engine_call(backend.name, None, (), DEFAULT_TIMEOUT, None, None, None)
        engine.variant = getattr(backend, "variant", "chess") or "chess"
        engine._chess960 = None
        return engine

    # ``lock``: held for each question, so that threads sharing one Engine take turns (its
    # process answers one question at a time); ``compare`` and the suites hold it for a
    # whole descent or run

    @property
    def backend(self):
        """The ``chesskit.compare.engines.Engine`` doing the work (what the lower layers take)."""
        return self._backend

    @property
    def name(self) -> str:
        """The engine's name in messages: its command, script or adapter spec."""
        return self._backend.name

    @property
    def dialect(self) -> dict | None:
        """How the engine answers perft (starting it to detect that), as ``compare --json``'s
        ``"dialect"`` object; None for a script, a template or a Python adapter."""
        from chesskit.compare.engines.dialects import without_about

        with self._said():
            return without_about(dialect_of(self._asked()))

    def divide(
        self, position: str, depth: int, *, moves: Moves = (), chess960: bool | None = None
    ) -> dict[str, int]:
        """The engine's divide of ``position`` (a FEN, ``"startpos"`` or a suite id) after
        ``moves``, as ``{uci move: nodes}`` sorted by move (depth >= 1). The moves are checked
        by chesskit first: an illegal one is an IllegalMoveError, never sent."""
        depth = check_depth(depth, 1)
        board, _ = self._open(position, moves, chess960)
        with self.lock, self._said():
            answer = self._asked().divide(engine_fen(position, board), depth, board.move_stack, bool(board.chess960))
        return dict(sorted(answer.items()))

    def perft(self, position: str, depth: int, *, moves: Moves = (), chess960: bool | None = None) -> int:
        """The engine's perft of ``position`` after ``moves`` (arguments as ``divide``)."""
        depth = check_depth(depth)
        board, _ = self._open(position, moves, chess960)
        if depth == 0:
            return 1
        with self.lock, self._said():
            return self._asked().perft(engine_fen(position, board), depth, board.move_stack, bool(board.chess960))

    def _open(self, position: str, moves: Moves, chess960: bool | None):
        """The position read in this engine's variant (``startpos`` is its start position)."""
        return open_position(position, moves, self._chess960 if chess960 is None else chess960, variant=self.variant)

    def _said(self):
        """Where a question's error is raised: its flags said as keywords for an ``Engine(...)``."""
        return keyword_errors(respelled=self._keywords)

    def _asked(self):
        """The back end, to ask a question of: an InputError once the Engine is closed (it
        started its process again before, which nothing then stopped)."""
        if self.closed:
            raise InputError(f"the Engine {self.name!r} is closed: open a new one to ask it again")
        return self._backend

    def close(self) -> None:
        """Stop the engine's process (and its process group) for good: a question asked
        after it is an InputError. Safe to call twice."""
        self._backend.close()
        self.closed = True

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Engine({self.name!r})"


def opened(engine, variant: str | None) -> tuple["Engine", bool]:
    """``engine`` as an ``Engine`` in ``variant`` (None: the Engine's own, standard chess for a
    command), and whether it was opened here (then the caller closes it). ``engine`` is an
    ``Engine`` (its variant must be ``variant``'s: it was opened in its rules) or a command,
    a string or an argv list. InputError otherwise."""
    from chesskit.api.position import variant_rules

    if isinstance(engine, Engine):
        engine._asked()  # a closed Engine is refused here too
        asked = None if variant is None else variant_rules(variant, None)[0]
        if asked is not None and asked != engine.variant:
            raise InputError(
                f"the Engine counts {engine.variant} and variant={variant!r} was asked: "
                f"open it with Engine(..., variant={asked!r})"
            )
        return engine, False
    command = isinstance(engine, str) or (
        isinstance(engine, Sequence) and not isinstance(engine, (bytes, bytearray)) and all(isinstance(p, str) for p in engine)
    )
    if not command or not engine:
        raise InputError(f"an engine is a chesskit.Engine or a command (a string or an argv list), got {engine!r}")
    return Engine(engine, variant="chess" if variant is None else variant), True


def dialect_of(backend) -> dict | None:
    """Start ``backend`` and find its dialect: the JSON ``"dialect"`` value plus ``"about"``,
    its description (None for a script, a template or a Python adapter)."""
    info = backend.dialect_info()
    return None if info is None else info.spoken(getattr(backend, "detected", True))


def engine_call(command, dialect, options, timeout, engine_cmd, script, python) -> str:
    """The Python that opens this engine, ``chesskit.Engine("stockfish", options=[...])``: what
    a regression test written for a mismatch calls (``Engine.call``, and the CLI's for the
    engine its options name)."""
    import json

    args = [] if command is None else [json.dumps(command if isinstance(command, str) else list(command))]
    for keyword, value in (("engine_cmd", engine_cmd), ("script", script), ("python", python), ("dialect", dialect)):
        if value is not None:
            args.append(f"{keyword}={json.dumps(value)}")
    if options:
        shown = dict(options) if isinstance(options, Mapping) else list(options)
        args.append(f"options={json.dumps(shown, default=str)}")
    if timeout != DEFAULT_TIMEOUT:
        args.append(f"timeout={timeout!r}")
    return f"chesskit.Engine({', '.join(args)})"
