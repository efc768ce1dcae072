"""Which of a first run's two compiling processes compiles a helper: the first to claim it.

The walk's process (``native.build``) and the prewarm child (``prewarm``) compile the walk's
helpers side by side, into numba's on-disk cache. Before either compiles a listed helper
it claims it: a file made with ``O_EXCL`` in a folder the two share, named by the helper
and its argument types. The one that gets the claim compiles it and then marks it done;
the other waits for that mark (only while the claimer runs, and at most a bound) and then
finds it in numba's cache. So no helper is compiled twice, and neither process waits for
one the other has not begun: the child works from the end of the walk's order, the walk's
process from its start, and they meet where the work divides evenly.

A claim that cannot be made or a mark that never comes costs time, never a result: numba's
own compile follows every wait, a cache hit where the other process finished.
"""

from __future__ import annotations

import hashlib
import os
import time

# how long a process waits, at most, for a helper the other one claimed (the longest, the
# move list, compiles in about 3 s on a quiet 2-core guest, 6 s on a busy one; a bound that
# runs out only costs a second compile, and a stuck child at most a bound for each of the
# few helpers it holds at once: one and the callers it was compiling it for)
WAIT_S = 10.0
POLL_S = 0.01


def key(dispatcher, args) -> str:
    """The claim's file name: the helper's module, name and argument types."""
    func = dispatcher.py_func
    text = f"{func.__module__}.{func.__qualname__}{tuple(args)}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def take(folder: str, name: str) -> bool:
    """Claim ``name``: True for the first process to ask (and where the folder cannot be
    written: that process compiles it, as it would without the other)."""
    try:
        os.close(os.open(os.path.join(folder, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return False
    except OSError:
        return True
    return True


def mark_done(folder: str, name: str) -> None:
    """Say that the claimed ``name`` is compiled (or failed: the waiter then compiles it)."""
    try:
        os.close(os.open(os.path.join(folder, name + ".done"), os.O_CREAT | os.O_WRONLY, 0o600))
    except OSError:
        pass


def await_done(folder: str, name: str, running, wait_s: float = WAIT_S) -> None:
    """Wait until the claimed ``name`` is marked done, while ``running()`` (the claimer
    still runs) and at most ``wait_s`` seconds."""
    path = os.path.join(folder, name + ".done")
    deadline = time.monotonic() + wait_s
    while not os.path.exists(path) and running() and time.monotonic() < deadline:
        time.sleep(POLL_S)


def compile_claimed(compile, dispatcher, sig, folder: str) -> bool:
    """``compile(sig)`` where this process gets the claim; False (nothing compiled) where
    the other process has it."""
    from numba.core import sigutils

    name = key(dispatcher, sigutils.normalize_signature(sig)[0])
    if not take(folder, name):
        return False
    _as_claimer(compile, sig, folder, name)
    return True


def _as_claimer(compile, sig, folder: str, name: str):
    """``compile(sig)`` by the process holding the claim ``name``, marked done however it ends."""
    try:
        return compile(sig)
    finally:
        mark_done(folder, name)


def share(dispatcher, folder: str, running, wait_s: float = WAIT_S):
    """Make every compile of ``dispatcher`` in this process go through its claim: compile
    it where this process gets the claim, else wait for the other's and load it from
    numba's cache. Returns the function that undoes this."""
    from numba.core import sigutils

    original = dispatcher.compile  # the bound method; the class's comes back on undo

    def compile(sig):
        args = tuple(sigutils.normalize_signature(sig)[0])
        if args in dispatcher.overloads:
            return original(sig)
        name = key(dispatcher, args)
        if take(folder, name):
            return _as_claimer(original, sig, folder, name)
        await_done(folder, name, running, wait_s)
        return original(sig)

    dispatcher.compile = compile

    def undo():
        dispatcher.__dict__.pop("compile", None)

    return undo
