"""The first run's compile on a second core: the walk's helpers, compiled by a child process.

numba compiles the walk (``perft.c_entry``) in one process, one function after another.
Its first seconds go to the walk's own untyped passes and inlining, before its type
inference reaches the first call to a helper (``attacked_by``, ``probe``, ...), each compiled then
as a function of its own. A child process started with the compile (``native.build``)
compiles those helpers meanwhile, with the argument types the walk calls them with, into
numba's on-disk cache; when the walk's typing reaches one, numba finds it there. A helper
the child has not finished is compiled by the walk's process as before, so a list that
no longer matches the code costs time, never a result.

``python -m chesskit.core.prewarm`` is the child; it prints nothing and stops when told.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

# how long the walk's process waits, at most, for the child's ``generate`` before it compiles
# it itself (it compiles in about 1 s on a quiet machine, and the child is usually done
# within a few tenths of a second of the walk's needing it)
WAIT_S = 1.5
POLL_S = 0.02


# The folder holding this chesskit package, and the child's program: it compiles this
# chesskit's sources, whatever the working directory holds.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_CHILD = "import sys; sys.path.insert(0, sys.argv[1]); from chesskit.core.prewarm import main; main(int(sys.argv[2]))"


def start():
    """Start the child when a second core is free to run it, else None
    (``CHESSKIT_PREWARM=0`` turns it off, to measure what it saves)."""
    if os.environ.get("CHESSKIT_PREWARM", "").strip() == "0":
        return None
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    if cores < 2:
        return None
    try:
        return subprocess.Popen(
            # this process's chesskit, first on the path; -P: not the working directory,
            # where `-m` would import a chesskit (or a numba) of whatever folder it is run in
            [sys.executable, "-P", "-c", _CHILD, _ROOT, str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None


def awaiting(child, dispatcher=None, wait_s: float = WAIT_S):
    """Make the walk's process wait for the child's compile of ``dispatcher`` (the first of
    ``helpers()``: ``movegen.generate_at``) instead of compiling it too: its first compile in
    this process first waits, at most ``wait_s`` seconds and only while the child runs, for
    numba's cache to hold it. Returns the function that undoes this. A child that is late,
    stuck or gone only costs the wait; the compile that follows is numba's own."""
    if child is None:
        return lambda: None
    if dispatcher is None:
        dispatcher = helpers()[0][0]
    original = dispatcher.compile  # the bound method; the class's comes back on undo

    def compile(sig):
        deadline = time.monotonic() + wait_s
        while child.poll() is None and time.monotonic() < deadline:
            if _cached(dispatcher, sig):
                break
            time.sleep(POLL_S)
        return original(sig)

    dispatcher.compile = compile

    def undo():
        dispatcher.__dict__.pop("compile", None)

    return undo


def _cached(dispatcher, sig) -> bool:
    """Whether ``dispatcher`` has ``sig`` compiled already, here or in numba's cache."""
    from numba.core import sigutils

    args, _ = sigutils.normalize_signature(sig)
    if tuple(args) in dispatcher.overloads:
        return True
    try:
        return dispatcher._cache.load_overload(sig, dispatcher.targetctx) is not None
    except Exception:  # noqa: BLE001 - an index being written: not there yet
        return False


def stop(child) -> None:
    """End the child (its finished helpers are in the cache already) and reap it."""
    if child is None:
        return
    if child.poll() is None:
        child.terminate()
    try:
        child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def helpers():
    """(function, argument types) of the walk's helpers: first ``generate`` (the move list,
    the longest to compile: its helpers with it, about 3 s, and the walk's typing meets it
    after its count and masks, so begun later the walk's process compiles it too; first, a first run took
    6.8-7.2 s, in the walk's order 7.3-7.6: docs/benchmarks.md); then those its typing meets
    after ``generate``, the last met first: the walk's process, done waiting for
    ``generate``, compiles the first of them while the child compiles the last, and finds
    in the cache those the child finished (listed in the walk's order, the two compiled
    the same ones side by side); then the others in the order its typing finishes them
    (the small ones the walk meets before ``generate`` it compiles itself while the child
    is on ``generate``)."""
    from numba import types

    from . import attacks, makemove, movegen, position, replies, tt
    from .move import castle_squares, encode, from_sq, promotion, to_sq

    u64, i64, boolean = types.uint64, types.int64, types.boolean
    u64s, i64s = types.Array(u64, 1, "C"), types.Array(i64, 1, "C")
    u64p, i64p = types.CPointer(u64), types.CPointer(i64)  # the walk's arrays, as it holds them
    return [  # (tests/core/test_prewarm.py checks the order)
        (movegen.generate_at, (u64p, i64, u64p, i64p, i64p, i64p, i64, u64p, i64)),
        # met after generate, the last first
        (tt.store_at, (u64p, i64, u64, u64, i64, i64)),
        (position.z_castle, (u64,)),
        (makemove.put_piece, (u64s, i64s, i64, i64)),
        (makemove.remove_piece, (u64s, i64s, i64, i64)),
        (tt.fetch_at, (u64p, i64, u64, i64)),
        # met before generate, in the walk's order
        (position.compute_key2, (u64s, i64s, i64s)),
        (tt._deep_words, (i64,)),  # _small_bucket calls it: met first
        (tt._small_bucket, (i64, u64)),
        (tt._bucket, (i64, u64)),
        (tt.probe_at, (u64p, i64, u64, u64, i64)),
        (from_sq, (i64,)),
        (to_sq, (i64,)),
        (castle_squares, (i64, i64)),
        (promotion, (i64,)),
        (makemove.child_keys_at, (u64p, i64, u64p, i64p, i64p, u64, i64)),
        (attacks.bishop_attacks, (u64s, i64, u64)),
        (attacks.rook_attacks, (u64s, i64, u64)),
        (movegen.attackers_to, (u64s, u64s, i64, u64, i64)),
        (position.occ_of, (i64,)),
        (replies._gained, (u64p, i64, u64p, u64, u64, i64, i64, i64, boolean)),
        (attacks.between, (u64s, i64, i64)),
        (movegen.king_lines, (u64s, u64s, i64, i64)),
        (movegen.attacked_by, (u64s, u64s, i64, u64)),
        (encode, (i64, i64, i64, i64)),
        (movegen._emit, (i64s, i64, i64, u64, i64)),
        (movegen._emit_split, (i64s, i64, i64, u64, u64, types.literal(True))),
        (attacks.line, (u64s, i64, i64)),
        (movegen._emit_pawns, (i64s, i64, u64, i64, i64, u64)),
        (movegen._pinned_pawn, (i64s, i64, i64, u64, u64, u64, u64, boolean)),
        (movegen._en_passant, (u64s, u64s, i64s, i64, i64, i64, i64, i64, u64, u64, boolean)),
        (replies.sensitive_squares_at, (u64p, i64, u64p, i64p, u64p, i64)),
        (movegen._emit_split, (i64s, i64, i64, u64, u64, types.literal(False))),
    ]


def main(parent: int | None = None) -> None:
    """Compile the helpers into numba's cache; end at once when ``parent`` (the process
    that started this one) is gone (killed with SIGKILL, it left this child compiling
    for 15 s)."""
    if parent is not None:
        _end_with(parent)
    import chesskit.core  # noqa: F401 (names numba's cache folder before numba loads)

    from . import fastcompile

    fastcompile.install()

    for function, argtypes in helpers():
        try:
            function.compile(argtypes)
        except Exception:  # noqa: BLE001 - a helper that changed: the walk compiles it itself
            continue


def _end_with(parent: int) -> None:
    """A daemon thread that ends this process once its parent is gone (it is reparented)."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch, name="chesskit-parent-watch", daemon=True).start()


if __name__ == "__main__":
    main()
