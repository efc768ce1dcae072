"""Finding out how an engine answers perft: probes at depth 1 on the start position.

In a UCI loop (the engine said `uciok`) chesskit asks, in this order, `go perft 1`,
`perft 1` and `divide 1`, and takes the first that answers with a divide (20 moves of
count 1); failing that, the first that answers with a total of 20 (a total-only
engine, such as Ethereal's `perft`).  A `go perft` that starts a search instead is
stopped.  A console (no `uciok`) is asked `perft 1`, then `divide 1`, and must end
each answer with a total line.  Moves may come in UCI or SAN.  For the bare
commands, detected or named with --dialect, a second probe (Kiwipete, 48 moves)
checks that the engine follows `position fen` (`go perft` is UCI's own, set up by
UCI's `position`).
"""

from __future__ import annotations

from chesskit.compare.engines.base import one_line
from chesskit.compare.engines.dialects import Answer, Dialect
from chesskit.geometry import START_FEN as START
START_MOVES = 20
CHECK = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHECK_MOVES = 48


def choose(engine) -> tuple[Dialect, bool]:
    """The dialect a started `PerftEngine` speaks, and whether it prints totals, from its
    answers to the probes (``engine.probe``); an EngineError when none fits."""
    loop = "console" if engine.is_console else "uci"
    commands = ("go-perft", "perft", "divide") if loop == "uci" else ("perft", "divide")
    heard: list[str] = []
    totals: list[str] = []
    for command in commands:
        verb = Dialect(loop, command).verb(1)
        answer, search = engine.probe(verb)
        heard.append(_heard(verb, answer, search))
        if search:
            continue
        if _is_start_divide(answer) and (loop == "uci" or answer.total is not None):
            return Dialect(loop, command, False, "san" if answer.san else "uci"), answer.total is not None
        if answer.total == START_MOVES and not answer.moves:
            totals.append(command)
    if totals:
        return Dialect(loop, totals[0], True), True
    where = "in its UCI loop" if loop == "uci" else "as a console (it never said 'uciok')"
    raise engine.error(
        f"answered no perft question chesskit knows {where}: {'; '.join(heard)}; "
        "name its dialect with --dialect or give a one-shot --engine-cmd"
    )


def _is_start_divide(answer: Answer) -> bool:
    return len(answer.moves) == START_MOVES and set(answer.moves.values()) == {1}


def _heard(verb: str, answer: Answer, search: bool) -> str:
    if search:
        return f"{verb!r} started a search"
    if answer.moves:
        total = "" if answer.total is None else f" and a total of {answer.total}"
        return f"{verb!r} gave {len(answer.moves)} divide lines{total}"
    if answer.total is not None:
        return f"{verb!r} gave a total of {answer.total}"
    if answer.skipped:
        return f"{verb!r} gave {one_line(answer.skipped[-1], 60)!r}"
    return f"{verb!r} gave nothing"


def check_position(engine, dialect: Dialect) -> None:
    """A bare perft must follow `position fen`: Kiwipete has 48 moves, the start position 20
    (an EngineError when the engine counted the start position)."""
    answer = engine.query(CHECK, 1, [], False)
    count = answer.total if answer.total is not None else len(answer.moves)
    if count == START_MOVES:
        raise engine.error(
            f"ignores 'position fen' (its {dialect.verb(1)!r} after 'position fen {CHECK}' counted the start "
            "position's 20 moves); give a one-shot --engine-cmd instead"
        )
