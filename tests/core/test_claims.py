"""``core.claims``: of the first run's two compiling processes, the first to claim a helper
compiles it and the other waits for it (only while the claimer runs, never past a bound)
and then loads it; nothing is compiled twice, and a process never waits for a helper the
other has not claimed."""

from __future__ import annotations

import os
import threading
import time

import pytest
from numba import types

from chesskit.core import claims

SIG = (types.int64,)
OTHER = (types.uint64,)


def helper(x):
    return x


def other_helper(x):
    return x


class Dispatcher:
    """numba's dispatcher of one function, as ``claims`` sees it: its overloads and compile."""

    def __init__(self, function=helper, seconds=0.0):
        self.py_func, self.overloads, self.compiled, self.seconds = function, {}, [], seconds

    def compile(self, sig):
        time.sleep(self.seconds)
        self.compiled.append(tuple(sig))
        return "entry"


def running():
    return True


def test_the_first_to_claim_gets_it(tmp_path):
    name = claims.key(Dispatcher(), SIG)
    assert claims.take(str(tmp_path), name)
    assert not claims.take(str(tmp_path), name)
    assert claims.take(str(tmp_path), claims.key(Dispatcher(), OTHER))  # another signature
    assert claims.take(str(tmp_path), claims.key(Dispatcher(other_helper), SIG))  # another helper


def test_a_folder_that_cannot_be_written_leaves_each_process_to_compile(tmp_path):
    gone = str(tmp_path / "not-there")
    assert claims.take(gone, "x") and claims.take(gone, "x")
    claims.mark_done(gone, "x")  # nothing to mark: no error


def test_the_claimer_compiles_and_marks_it_done(tmp_path):
    d = Dispatcher()
    undo = claims.share(d, str(tmp_path), running)
    assert d.compile(SIG) == "entry"
    assert d.compiled == [SIG]
    name = claims.key(d, SIG)
    assert (tmp_path / name).exists() and (tmp_path / (name + ".done")).exists()
    undo()
    assert "compile" not in d.__dict__  # the class's method again


def test_a_claimed_helper_is_awaited_then_loaded(tmp_path):
    d = Dispatcher()
    name = claims.key(d, SIG)
    assert claims.take(str(tmp_path), name)  # the other process has it
    claims.share(d, str(tmp_path), running)
    threading.Timer(0.3, claims.mark_done, (str(tmp_path), name)).start()
    began = time.monotonic()
    d.compile(SIG)
    assert time.monotonic() - began >= 0.25  # waited for the mark, then numba's compile (a cache hit)
    assert d.compiled == [SIG]


def test_no_wait_for_a_claimer_that_has_ended(tmp_path):
    d = Dispatcher()
    claims.take(str(tmp_path), claims.key(d, SIG))
    claims.share(d, str(tmp_path), lambda: False, wait_s=30)
    began = time.monotonic()
    d.compile(SIG)
    assert time.monotonic() - began < 1 and d.compiled == [SIG]


def test_the_wait_is_bounded(tmp_path):
    d = Dispatcher()
    claims.take(str(tmp_path), claims.key(d, SIG))  # claimed, never marked done
    claims.share(d, str(tmp_path), running, wait_s=0.2)
    began = time.monotonic()
    d.compile(SIG)
    assert 0.2 <= time.monotonic() - began < 2 and d.compiled == [SIG]


def test_compiled_already_claims_nothing(tmp_path):
    d = Dispatcher()
    d.overloads[SIG] = object()
    claims.share(d, str(tmp_path), running)
    d.compile(SIG)
    assert os.listdir(tmp_path) == []


def test_compile_claimed_skips_what_the_other_has(tmp_path):
    d = Dispatcher()
    assert claims.compile_claimed(d.compile, d, SIG, str(tmp_path))
    assert not claims.compile_claimed(d.compile, d, SIG, str(tmp_path))
    assert d.compiled == [SIG]


def test_a_failed_compile_is_marked_done_so_the_other_compiles_it(tmp_path):
    class Failing(Dispatcher):
        def compile(self, sig):
            raise RuntimeError("numba could not compile it")

    d = Failing()
    with pytest.raises(RuntimeError):
        claims.compile_claimed(d.compile, d, SIG, str(tmp_path))
    assert (tmp_path / (claims.key(d, SIG) + ".done")).exists()


def test_two_workers_from_opposite_ends_compile_each_helper_once(tmp_path):
    """The walk's process from the first helper on, the child from the last back: every
    helper compiled by exactly one of them, and each waits only for what the other has."""
    functions = [(lambda x: x) for _ in range(12)]
    for i, f in enumerate(functions):
        f.__qualname__ = f"helper_{i}"
    shared = [Dispatcher(f, seconds=0.05) for f in functions]
    compiled: list = []

    def walk():  # the walk's typing: each helper through its claim
        for d in shared:
            d.compile(SIG)

    def child():
        for d in reversed(shared):
            if claims.compile_claimed(lambda sig, d=d: type(d).compile(d, sig), d, SIG, str(tmp_path)):
                compiled.append(d)

    for d in shared:
        claims.share(d, str(tmp_path), running, wait_s=30)
    workers = [threading.Thread(target=walk), threading.Thread(target=child)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)
    # the walk's own compiles and its loads of the child's both append; each was compiled once
    assert all(d.compiled == [SIG] or d.compiled == [SIG, SIG] for d in shared)
    by_child = {id(d) for d in compiled}
    for d in shared:
        assert len(d.compiled) == (2 if id(d) in by_child else 1)
    assert 0 < len(by_child) < len(shared)  # both did some
