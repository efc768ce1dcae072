"""``prewarm.sharing``: the walk's process shares every listed helper's compile with the
child through the claims (``tests/core/test_claims.py`` tests those), and undoes it after;
``native.build`` starts the child first and stops it whatever happens."""

from __future__ import annotations

import pytest

from chesskit.core import prewarm


class Child:
    claims = "/nonexistent"

    def poll(self):
        return None


def test_every_helper_is_shared_and_undone():
    dispatchers = prewarm._dispatchers()
    assert len(dispatchers) == len({id(f) for f, _ in prewarm.helpers()})
    undo = prewarm.sharing(Child())
    try:
        assert all("compile" in d.__dict__ for d in dispatchers)
    finally:
        undo()
    assert not any("compile" in d.__dict__ for d in dispatchers)


def test_no_child_changes_nothing():
    prewarm.sharing(None)()
    assert not any("compile" in d.__dict__ for d in prewarm._dispatchers())


def test_no_child_where_it_could_not_hand_its_helpers_over(tmp_path, monkeypatch):
    # a read-only numba cache: the child's helpers could not be saved, and the walk's
    # process would wait for each one it claimed, then compile it all the same
    monkeypatch.delenv("CHESSKIT_PREWARM", raising=False)
    monkeypatch.setattr(prewarm.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    started = []
    monkeypatch.setattr(prewarm.subprocess, "Popen", lambda *a, **k: started.append(a) or Child())
    monkeypatch.setattr(prewarm.os, "access", lambda path, mode: False)
    assert prewarm.start(str(tmp_path)) is None
    assert prewarm.start(None) is None
    assert started == []
    monkeypatch.setattr(prewarm.os, "access", lambda path, mode: True)
    child = prewarm.start(str(tmp_path))
    assert len(started) == 1 and child.claims
    prewarm.shutil.rmtree(child.claims)


def test_stop_removes_the_claims(tmp_path):
    folder = tmp_path / "claims"
    folder.mkdir()
    (folder / "x").write_text("")

    class Ended(Child):
        claims = str(folder)

        def poll(self):
            return 0

        def wait(self, timeout=None):
            return 0

    prewarm.stop(Ended())
    assert not folder.exists()


def test_build_starts_the_child_before_this_process_sets_numba_up(monkeypatch):
    """The child imports numba while this process does (a first run's child is at work
    that much sooner), and is stopped whatever the build does."""
    from chesskit.core import fastcompile, native

    events = []
    monkeypatch.setattr(prewarm, "start", lambda shared: events.append("start") or "child")
    monkeypatch.setattr(prewarm, "sharing", lambda child: lambda: events.append("undo"))
    monkeypatch.setattr(prewarm, "stop", lambda child: events.append(("stop", child)))

    def install():
        events.append("install")
        raise RuntimeError("numba's passes could not be set up")

    monkeypatch.setattr(fastcompile, "install", install)
    with pytest.raises(RuntimeError):
        native.build(0)
    assert events == ["start", "install", ("stop", "child")]
