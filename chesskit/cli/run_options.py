"""Options of the runs over many positions (``suite``, ``fuzz``) and ``--bisect``:
``--position-timeout`` bounds an engine's whole work on one position, ``--fail-fast``
stops at the first mismatch or engine error, and ``--bisect`` makes an engine that
cannot be started exit 125, ``git bisect run``'s "skip this commit", instead of 3."""

from __future__ import annotations

import click

from chesskit.errors import ChesskitError, EngineCheckFailed, EngineError

BISECT_SKIP = 125  # git bisect run: this commit cannot be tested

position_timeout_option = click.option(
    "--position-timeout",
    metavar="SECONDS",
    help="Give up on a position when the engine's answers to it (compare's descent included) take "
    "longer than this in all; the position is an engine error and the run goes on.",
)
fail_fast_option = click.option(
    "--fail-fast", is_flag=True, help="Stop at the first position that mismatches or makes the engine fail."
)
bisect_option = click.option(
    "--bisect",
    is_flag=True,
    help="For git bisect run: exit 125 (skip this commit) instead of 3 when the engine cannot be "
    "started (not found, not built, fails before its first answer; one that answers its UCI or xboard "
    "handshake and then crashes started); in a suite, a Chess960 position "
    "the engine cannot be given (no UCI_Chess960) and a position that cannot arise in a game are "
    "skipped, not failed.",
)


class CannotStart(ChesskitError):
    """--bisect: the engine could not be started; git bisect run skips the commit."""

    exit_code = BISECT_SKIP


def start_failed(err: EngineError, bisect: bool) -> ChesskitError:
    """What an engine that could not be started exits with: 125 under --bisect, else 3
    (3 too when it answered on the start position, then failed the check of its start)."""
    if not bisect or isinstance(err, EngineCheckFailed):
        return err
    return CannotStart(f"{err} (exit {BISECT_SKIP} for git bisect: the engine could not be started)")


def starting(bisect: bool, start):
    """``start(engine)`` (the dialect detection), and under --bisect also one depth-1 perft of
    the start position, so an engine that answers no question at all counts as not started."""
    if not bisect:
        return start

    def start_and_ask(engine):
        from chesskit.geometry import START_FEN

        try:
            spoken = start(engine)
            engine.perft(START_FEN, 1, [], False)
        except EngineError as err:
            # one that answered its handshake and then died on a perft question started: a
            # commit whose engine crashes on every position is bad (3), never skipped
            if getattr(err, "crashed_after_handshake", False):
                raise EngineCheckFailed(f"{err} (it had answered {engine.protocol()}'s handshake: it started)") from None
            raise
        return spoken

    return start_and_ask
