"""The first run's compile on a second core: the walk's helpers, compiled by a child process.

numba compiles the walk (``perft.c_entry``) in one process, one function after another:
its own untyped passes and inlining first, then its type inference, which compiles each
helper it calls (``attacked_by``, ``probe``, ...) as a function of its own, then its
lowering. A child process started with the compile (``native.build``) compiles those
helpers meanwhile, with the argument types the walk calls them with, into numba's on-disk
cache, from the last the walk's typing meets back to the first, while the walk's process
compiles them from the first on. Each helper is claimed before it is compiled
(``claims``): the first process to claim it compiles it, the other finds it in the cache,
so the two meet where the work divides and none is compiled twice. A list that no longer
matches the code costs time, never a result.

``python -m chesskit.core.prewarm`` is the child; it prints nothing and stops when told.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time

from . import claims

# The folder holding this chesskit package, and the child's program: it compiles this
# chesskit's sources, whatever the working directory holds.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_CHILD = (
    "import sys; sys.path.insert(0, sys.argv[1]); from chesskit.core.prewarm import main; "
    "main(int(sys.argv[2]), sys.argv[3])"
)


def start(shared):
    """Start the child when a second core is free to run it and ``shared`` (numba's cache
    folder) is one it can write, else None: the child hands its helpers over through that
    folder, and where it cannot save them (a read-only cache) the walk's process would wait
    for each it claimed and compile it all the same. ``CHESSKIT_PREWARM=0`` turns it off, to
    measure what it saves. The child's ``claims`` attribute is the folder of the two
    processes' claims."""
    if os.environ.get("CHESSKIT_PREWARM", "").strip() == "0":
        return None
    if shared is None or not os.access(shared, os.W_OK | os.X_OK):
        return None
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    if cores < 2:
        return None
    try:
        folder = tempfile.mkdtemp(prefix="chesskit-claims-")
    except OSError:
        return None
    try:
        child = subprocess.Popen(
            # this process's chesskit, first on the path; -P: not the working directory,
            # where `-m` would import a chesskit (or a numba) of whatever folder it is run in
            [sys.executable, "-P", "-c", _CHILD, _ROOT, str(os.getpid()), folder],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)
        return None
    child.claims = folder
    return child


def sharing(child, wait_s: float = claims.WAIT_S):
    """Make the walk's process compile each helper only where the child has not claimed it,
    and otherwise wait for the child's (while it runs, at most ``wait_s`` seconds) and load
    it from numba's cache. Returns the function that undoes this."""
    if child is None:
        return lambda: None
    running = lambda: child.poll() is None  # noqa: E731
    undos = [claims.share(d, child.claims, running, wait_s) for d in _dispatchers()]

    def undo():
        for each in undos:
            each()

    return undo


def _dispatchers() -> list:
    """Each helper's dispatcher once (a helper listed with two argument types is one)."""
    seen: dict = {}
    for function, _ in helpers():
        seen.setdefault(id(function), function)
    return list(seen.values())


def stop(child) -> None:
    """End the child (its finished helpers are in the cache already), reap it and remove
    the claims' folder."""
    if child is None:
        return
    if child.poll() is None:
        child.terminate()
    try:
        child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    folder = getattr(child, "claims", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def helpers():
    """(function, argument types) of the walk's helpers, in the order the walk's typing
    finishes them (a helper's callees before it): the walk's process compiles them from the
    first on, the child from the last back (``main``), each claiming its own."""
    from numba import types

    from . import attacks, makemove, movegen, position, replies, tt
    from .move import castle_squares, encode, from_sq, promotion, to_sq

    u64, i64, boolean = types.uint64, types.int64, types.boolean
    u64s, i64s = types.Array(u64, 1, "C"), types.Array(i64, 1, "C")
    u64p, i64p = types.CPointer(u64), types.CPointer(i64)  # the walk's arrays, as it holds them
    return [  # (tests/core/test_prewarm.py checks the order)
        (position.compute_key2, (u64s, i64s, i64s)),
        (tt._deep_words, (i64,)),  # _small_bucket calls it
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
        (movegen.generate_at, (u64p, i64, u64p, i64p, i64p, i64p, i64, u64p, i64)),
        (tt.fetch_at, (u64p, i64, u64, i64)),
        (makemove.remove_piece, (u64s, i64s, i64, i64)),
        (makemove.put_piece, (u64s, i64s, i64, i64)),
        (position.z_castle, (u64,)),
        (tt.store_at, (u64p, i64, u64, u64, i64, i64)),
    ]


def main(parent: int | None = None, folder: str | None = None) -> None:
    """Compile the helpers into numba's cache, the last the walk meets first, each one the
    walk's process has not claimed (``folder``: the claims; None: every helper); end at
    once when ``parent`` (the process that started this one) is gone (killed with
    SIGKILL, it left this child compiling for 15 s)."""
    if parent is not None:
        _end_with(parent, folder)
    import chesskit.core  # noqa: F401 (names numba's cache folder before numba loads)

    from . import fastcompile

    fastcompile.install()
    if folder is not None:  # a helper's callees, compiled with it, are claimed too
        running = lambda: parent is None or os.getppid() == parent  # noqa: E731
        for dispatcher in _dispatchers():
            claims.share(dispatcher, folder, running)
    for function, argtypes in reversed(helpers()):
        compile = lambda sig, f=function: type(f).compile(f, sig)  # noqa: E731 (not the claiming one)
        try:
            if folder is None:
                compile(argtypes)
            else:
                claims.compile_claimed(compile, function, argtypes, folder)
        except Exception:  # noqa: BLE001 - a helper that changed: the walk compiles it itself
            continue


def _end_with(parent: int, folder: str | None = None) -> None:
    """A daemon thread that ends this process once its parent is gone (it is reparented),
    removing the claims' ``folder``, which a parent killed with SIGKILL left behind."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
        os._exit(0)

    threading.Thread(target=watch, name="chesskit-parent-watch", daemon=True).start()


if __name__ == "__main__":
    main()
