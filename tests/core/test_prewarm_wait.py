"""``prewarm.awaiting``: the walk's process waits for the child's compile of the move list
instead of compiling it too, but never longer than its bound, and never for a child that
has ended."""

from __future__ import annotations

import pytest
from numba import types

from chesskit.core import prewarm

SIG = (types.int64,)


class Child:
    """A prewarm child: running until ``ends`` polls have been made (None: never ends)."""

    def __init__(self, ends=None):
        self.ends, self.polls = ends, 0

    def poll(self):
        self.polls += 1
        return 0 if self.ends is not None and self.polls > self.ends else None


class Cache:
    """numba's cache of one function: holds it from the ``ready``-th look on (None: never)."""

    def __init__(self, ready=None):
        self.ready, self.looks = ready, 0

    def load_overload(self, sig, targetctx):
        self.looks += 1
        return object() if self.ready is not None and self.looks >= self.ready else None


class Dispatcher:
    targetctx = None

    def __init__(self, cache):
        self._cache, self.overloads, self.compiled = cache, {}, []

    def compile(self, sig):
        self.compiled.append(sig)
        return "entry"


def test_waits_until_the_child_has_put_it_in_the_cache():
    d = Dispatcher(Cache(ready=4))
    undo = prewarm.awaiting(Child(), d, wait_s=30)
    assert d.compile(SIG) == "entry"
    assert d._cache.looks == 4  # looked until it was there, then numba's compile (a cache hit)
    assert d.compiled == [SIG]
    undo()
    assert "compile" not in d.__dict__  # the class's method again
    d.compile(SIG)
    assert d._cache.looks == 4


def test_no_wait_for_a_child_that_has_ended():
    d = Dispatcher(Cache(ready=None))
    prewarm.awaiting(Child(ends=0), d, wait_s=30)
    d.compile(SIG)
    assert d._cache.looks == 0 and d.compiled == [SIG]


def test_stops_waiting_when_the_child_ends():
    d = Dispatcher(Cache(ready=None))
    child = Child(ends=3)
    prewarm.awaiting(child, d, wait_s=30)
    d.compile(SIG)
    assert d._cache.looks == 3 and d.compiled == [SIG]


def test_the_wait_is_bounded():
    d = Dispatcher(Cache(ready=None))
    prewarm.awaiting(Child(), d, wait_s=0.1)
    d.compile(SIG)  # the child never delivers: numba compiles it after the bound
    assert 1 <= d._cache.looks <= 0.1 / prewarm.POLL_S + 2
    assert d.compiled == [SIG]


def test_no_child_changes_nothing():
    d = Dispatcher(Cache(ready=1))
    prewarm.awaiting(None, d)()
    assert "compile" not in d.__dict__


def test_compiled_already_needs_no_look():
    d = Dispatcher(Cache(ready=None))
    d.overloads[SIG] = object()
    prewarm.awaiting(Child(), d, wait_s=30)
    d.compile(SIG)
    assert d._cache.looks == 0


def test_build_starts_the_child_before_this_process_sets_numba_up(monkeypatch):
    """The child imports numba while this process does (a first run's child is done with
    ``generate`` that much sooner), and is stopped whatever the build does."""
    from chesskit.core import fastcompile, native

    events = []
    monkeypatch.setattr(prewarm, "start", lambda: events.append("start") or "child")
    monkeypatch.setattr(prewarm, "awaiting", lambda child: lambda: events.append("undo"))
    monkeypatch.setattr(prewarm, "stop", lambda child: events.append(("stop", child)))

    def install():
        events.append("install")
        raise RuntimeError("numba's passes could not be set up")

    monkeypatch.setattr(fastcompile, "install", install)
    with pytest.raises(RuntimeError):
        native.build(0)
    assert events == ["start", "install", ("stop", "child")]
