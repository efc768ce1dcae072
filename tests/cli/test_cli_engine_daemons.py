"""An engine that leaves a daemon holding its output open (issue 27 item 7).

Before the fix chesskit hung for ever closing the pipe (UCI engine, Python adapter), and a
one-shot script cost a whole --timeout. Each run here is bounded by a subprocess timeout of
60 s under a --timeout of 100 s, against a daemon that sleeps 600 s: a hang never passes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from helpers import ENGINES, missing, subprocess_env

DAEMON = ENGINES / "fail_daemon.py"
STOCKFISH = "/usr/games/stockfish"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _stockfish_total(fen: str, depth: int) -> int:
    """The oracle: Stockfish's own 'go perft' total."""
    out = subprocess.run(
        [STOCKFISH], input=f"position fen {fen}\ngo perft {depth}\nquit\n",
        capture_output=True, text=True, timeout=60,
    ).stdout
    return int(next(line for line in out.splitlines() if line.startswith("Nodes searched")).split(":")[1])


ENGINE_FLAGS = {
    "uci": ["--engine", f"{sys.executable} {DAEMON} exec {STOCKFISH}"],
    "python": ["--python", f"{DAEMON}:Adapter"],
    "script": ["--script", str(DAEMON)],
}


@pytest.mark.parametrize("kind", sorted(ENGINE_FLAGS))
def test_a_daemon_holding_the_engines_output_does_not_hang_chesskit(tmp_path, kind):
    if kind == "uci" and not os.path.exists(STOCKFISH):
        missing(STOCKFISH, "Debian: apt-get install stockfish")
    pidfile = tmp_path / "pids"
    env = {**subprocess_env(), "CHESSKIT_HANG_PIDFILE": str(pidfile)}
    try:
        result = subprocess.run(
            [sys.executable, "-m", "chesskit", "compare", KIWIPETE, "2", *ENGINE_FLAGS[kind], "--timeout", "100", "--json"],
            capture_output=True, text=True, env=env, timeout=60,
        )
        daemons = [int(word) for word in pidfile.read_text().split()]
    finally:
        for word in (pidfile.read_text().split() if pidfile.exists() else []):
            try:
                os.kill(int(word), signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["agree"]
    step = data["steps"][-1]
    assert sum(step["theirs"].values()) == _stockfish_total(KIWIPETE, 2) == 2039
    # what survived is reported, one line per engine process left behind, naming its daemon
    warnings = result.stderr.splitlines()
    assert daemons and len(warnings) == len(daemons), result.stderr
    for pid, line in zip(daemons, warnings):
        assert line.startswith("chesskit: warning: ") and f"process {pid} " in line, line
