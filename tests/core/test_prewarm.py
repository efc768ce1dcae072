"""The first run's second core (``chesskit.core.prewarm``): the helpers its child compiles
are exactly the ones the walk compiles, with the walk's argument types, listed in the order
the walk meets them (the child works from the last back), so none of its work is wasted
and none is missed. Checked by compiling the walk in a fresh cache without the child."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers import subprocess_env

SCRIPT = """
import gc, json
from numba.core import event
from chesskit.core import native, prewarm
met = []
class Met(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):  # a helper's callees end before it: the order to compile them in
        d = ev.data.get("dispatcher") if ev.data else None
        if d is not None and d.py_func.__module__.startswith("chesskit"):
            met.append(f"{d.py_func.__module__}.{d.py_func.__name__}")
event.register("numba:compile", Met())
native.build()
from numba.core.registry import CPUDispatcher
used = set()
for o in list(gc.get_objects()):
    try:
        if isinstance(o, CPUDispatcher) and o.py_func.__module__.startswith("chesskit"):
            used.update(f"{o.py_func.__module__}.{o.py_func.__name__}{tuple(s)}" for s in o.signatures)
    except ReferenceError:
        pass
listed = [f"{f.py_func.__module__}.{f.py_func.__name__}{tuple(t)}" for f, t in prewarm.helpers()]
print(json.dumps({"used": sorted(used), "listed": listed, "met": met}))
"""


@pytest.mark.slow  # compiles the walk from a cold cache
def test_the_child_compiles_what_the_walk_calls(tmp_path):
    env = subprocess_env()
    env["CHESSKIT_CACHE_DIR"] = str(tmp_path)
    env.pop("NUMBA_CACHE_DIR", None)
    env["CHESSKIT_PREWARM"] = "0"  # the walk's process compiles every helper itself
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert len(out["listed"]) == len(set(out["listed"]))
    assert set(out["listed"]) == set(out["used"])
    # listed in the order the walk's typing finishes them (a helper's callees before it):
    # the walk's process compiles from the first on, the child from the last back, each
    # claiming its own (core/claims.py), so the two meet where the work divides
    listed = [name.split("(")[0] for name in out["listed"]]
    assert listed == out["met"]


KILLED_PARENT = """
import os, signal
from chesskit.core import NUMBA_CACHE, prewarm
child = prewarm.start(NUMBA_CACHE)
print(child.pid if child is not None else "", child.claims if child is not None else "", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.slow  # a child that starts compiling in a cold cache
def test_the_child_ends_with_its_parent(tmp_path):
    # a parent killed with SIGKILL (no cleanup runs) left its child compiling for 15 s
    import os
    import time

    from helpers import gone

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("the child runs only with a second core free")
    env = {**subprocess_env(), "CHESSKIT_CACHE_DIR": str(tmp_path / "cold")}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", KILLED_PARENT], env=env, capture_output=True, text=True, timeout=120)
    pid, folder = done.stdout.split()
    pid = int(pid)
    deadline = time.monotonic() + 5  # a cold compile of the helpers takes longer than this
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(pid)
    assert not os.path.exists(folder)  # the claims' folder, which the killed parent could not remove
