"""Finding out how an engine answers perft: probes at depth 1 on the start position (under
--variant racingkings the variant's own: ``probe_position``).

In a UCI loop (the engine said `uciok`) chesskit asks, in this order, `go perft 1`,
`perft 1` and `divide 1`, and takes the first that answers with a divide (20 moves of
count 1); failing that, the first that answers with a total of 20 (a total-only
engine, such as Ethereal's `perft`).  A `go perft` that starts a search instead is
stopped.  A console (no `uciok`) is asked `perft 1`, then `divide 1`, and must end
each answer with a total line.  An engine that never says `uciok` but answers
`xboard`/`protover 2` with `feature` lines (Sjeng) is asked in xboard force mode:
`perft 1`, `divide 1`, then `perft 1 1` (a perft split by root move: Sjaak II).  A UCI
engine with no divide in its UCI loop is offered the xboard handshake too (Sjaak II
speaks both), and a divide found there is preferred to a UCI total.  Moves may come in
UCI, SAN or long algebraic.  In every dialect, detected or named with --dialect (`go perft`
too), a second probe (Kiwipete, 48 moves) checks that the engine follows `position fen`
(`setboard` in xboard; under --variant, a position of the variant where Kiwipete is
none), once the engine has answered on the start position: a named dialect is first
asked there.  A failure after that answer is an `EngineCheckFailed`: the
engine did start (``--bisect`` judges the commit rather than skipping it).
"""

from __future__ import annotations

from chesskit.compare.engines.base import NULL_MOVE, TWICE, one_line
from chesskit.compare.engines.dialects import Answer, Dialect, parse_divide_entry, read_total
from chesskit.errors import EngineCheckFailed, EngineError
from chesskit.geometry import START_FEN as START  # noqa: F401 (read as detect.START)
from chesskit.words import plural

START_MOVES = 20
CHECK = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHECK_MOVES = 48
# Under --variant, where Kiwipete is no position of the variant: (the check position, its
# moves, the variant's start position's moves), counted by Fairy-Stockfish and python-chess.
VARIANT_CHECKS = {
    "horde": ("rnbqkbnr/pppppppp/8/1PPP1PP1/PPP1PPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP b kq - 0 1", 15, 8),
    "racingkings": ("8/8/8/8/8/1k5K/1rbnNBR1/qrbnNBRQ w - - 2 2", 24, 21),
}


def probe_position(variant: str) -> tuple[str, int]:
    """The position the probes ask, and its moves: the standard start position (20 moves in
    every variant chesskit knows but one), and in racing kings the variant's own (21): there
    black's king on the eighth rank has ended the game (0 moves, as pyffish and python-chess
    count it: a correct engine was refused)."""
    if variant == "racingkings":
        from chesskit.variants import get

        return get(variant).start_fen, VARIANT_CHECKS[variant][2]
    return START, START_MOVES


def choose(engine) -> tuple[Dialect, bool]:
    """The dialect a started `PerftEngine` speaks, and whether it prints totals, from its
    answers to the probes (``engine.probe``); an EngineError when none fits."""
    loop = engine.loop
    heard: list[str] = []
    found, totals = _probe_loop(engine, loop, heard)
    if found is not None:
        return found
    if loop == "uci" and engine.variant != "chess" and not totals:
        # its xboard loop (Sjaak II's) would count standard chess: no variant is set there
        raise engine.error(
            f"answers no perft in its UCI loop, and an xboard or console dialect cannot be told to play "
            f"{engine.variant} (chesskit sets a variant with UCI_Variant only)"
        )
    if loop == "uci" and engine.variant == "chess" and engine.switch_to_xboard():
        found, xtotals = _probe_loop(engine, "xboard", heard)
        if found is not None:
            if totals and engine.offers_chess960():  # Sjaak II: its UCI loop counts Chess960
                engine.chess960_dialect = Dialect(loop, totals[0], True)
            return found
        if xtotals or not totals:
            loop, totals = "xboard", xtotals
        else:  # a UCI total, and the engine now in xboard mode: start it again in its UCI loop
            engine.restart(Dialect(loop, totals[0], True))
    if totals:
        return Dialect(loop, totals[0], True), True
    if loop == "console" and engine.late_uci:
        # a UCI engine slow to start: its 'uciok' came after the wait, and its handshake
        # lines were read as answers to the console's probes
        wait, capped = engine.uciok_wait()
        advice = "its dialect with --dialect (such as uci-go-perft)" if capped else "a longer --timeout"
        raise engine.error(
            f"did not say 'uciok' within {wait:g} s of 'uci', and printed UCI's handshake after that: "
            f"a UCI engine slower to start; give {advice}"
        )
    if loop == "console" and not engine.printed_anything():
        raise engine.error(
            f"printed nothing at all, to 'uci', 'xboard' or a perft question ({'; '.join(heard)}): it hangs, "
            "or waits for other input (one slow to start: a longer --timeout)"
        )
    where = {
        "uci": "in its UCI loop",
        "console": "as a console (it never said 'uciok')",
        "xboard": "in xboard force mode",
    }[loop]
    raise engine.error(
        f"answered no perft question chesskit knows {where}: {'; '.join(heard)}{_on_stderr(engine)}; "
        "name its dialect with --dialect or give a one-shot --engine-cmd"
    )


def _on_stderr(engine) -> str:
    """Where an engine printed its perft answer on stderr, which chesskit does not read for
    answers: the last line the answers' own readers take for a total ("Nodes searched: 20")
    or a move's count ("e2e4: 1"), named (else "")."""
    lines = [line for line in engine.stderr_lines() if read_total(line) is not None or parse_divide_entry(line) is not None]
    if not lines:
        return ""
    return f" (it printed {one_line(lines[-1])!r} on stderr: chesskit reads answers on stdout)"


_PROBES = {"uci": ("go-perft", "perft", "divide"), "console": ("perft", "divide"), "xboard": ("perft", "divide", "perft-split")}


def _probe_loop(engine, loop: str, heard: list[str]) -> tuple[tuple[Dialect, bool] | None, list[str]]:
    """(the divide dialect and whether it prints totals, or None; the commands that gave a total)."""
    totals: list[str] = []
    _, moves = probe_position(engine.variant)
    for command in _PROBES[loop]:
        verb = Dialect(loop, command).verb(1)
        answer, search = engine.probe(verb)
        heard.append(_heard(verb, answer, search))
        if search:
            continue
        if _is_start_divide(answer, moves) and (loop != "console" or answer.total is not None):
            return (Dialect(loop, command, False, "san" if answer.san else "uci", answer.notation), answer.total is not None), totals
        if answer.total == moves and not answer.moves:
            totals.append(command)
    return None, totals


def _is_start_divide(answer: Answer, moves: int) -> bool:
    """The probed position's ``moves`` moves (``probe_position``), 1 each; a move listed with
    0 is no move (Sjaak II), and a null move or a move listed twice is a bug of its move
    generation that compare reports (``base.add_divide_entry``), not another way of answering."""
    counted = [n for m, n in answer.moves.items() if n and m != NULL_MOVE and not m.endswith(TWICE)]
    return len(counted) == moves and set(counted) == {1}


def _heard(verb: str, answer: Answer, search: bool) -> str:
    if search:
        return f"{verb!r} started a search"
    if answer.moves:
        total = "" if answer.total is None else f" and a total of {answer.total}"
        return f"{verb!r} gave {plural(len(answer.moves), 'divide line')}{total}"
    if answer.total is not None:
        return f"{verb!r} gave a total of {answer.total}"
    if answer.unread():
        return f"{verb!r} gave {one_line(answer.unread(), 60)!r}"
    return f"{verb!r} gave nothing"


def check_position(engine, dialect: Dialect, answered: bool) -> None:
    """The engine must follow `position fen`: Kiwipete has 48 moves, the start position 20
    (under --variant, see VARIANT_CHECKS). Unless it has ``answered`` on the start position
    (detection's probes), it is asked there first (an EngineError: it could not be started).
    Failing on the check position, or counting a start position's moves there (the
    standard one's, or the variant's), is an EngineCheckFailed."""
    from chesskit.variants import get

    variant = engine.variant
    check, _, start_moves = VARIANT_CHECKS.get(variant, (CHECK, CHECK_MOVES, START_MOVES))
    if not answered:
        engine.query(get(variant).start_fen, 1, [], False)
    try:
        answer = engine.query(check, 1, [], False)
    except EngineError as err:
        # the position named: a crash there is the engine's on it, not on the position the
        # run was about to ask (a suite filed it under its first position, whatever that was)
        raise EngineCheckFailed(f"{err} (checking that it follows 'position fen' on {check})") from None
    count = answer.total if answer.total is not None else len(answer.moves)
    if count in (START_MOVES, start_moves):
        sets = "setboard" if dialect.loop == "xboard" else "position fen"
        raise EngineCheckFailed(
            f"engine {engine.name!r} ignores '{sets}' (its {dialect.verb(1)!r} after '{sets} {check}' "
            f"counted the start position's {count} moves); give a one-shot --engine-cmd instead"
        )
