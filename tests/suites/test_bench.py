"""chesskit bench at a tiny depth: its output parses and its counts are the published ones.
No test here asserts a time: speed is measured by the benchmark, never by a test."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from chesskit.suites.bench import WORKLOAD
from helpers import ENGINES, gone, one_line, subprocess_env

# perft of the six standard positions at depth 1..3 (chessprogramming wiki, Perft Results)
PUBLISHED = {
    "startpos": [20, 400, 8902],
    "kiwipete": [48, 2039, 97862],
    "pos3": [14, 191, 2812],
    "pos4": [6, 264, 9467],
    "pos5": [44, 1486, 62379],
    "pos6": [46, 2079, 89890],
}


def test_bench_json_at_tiny_depth(cli):
    result = cli("bench", "--depth-offset", "-4", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [p["id"] for p in data["positions"]] == [w[0] for w in WORKLOAD]
    for row, (_, fen, depth) in zip(data["positions"], WORKLOAD):
        assert row["fen"] == fen and row["depth"] == max(1, depth - 4)
        assert row["nodes"] == PUBLISHED[row["id"]][row["depth"] - 1]
        assert row["seconds"] >= 0 and row["mnps"] >= 0
    assert data["total"]["nodes"] == sum(r["nodes"] for r in data["positions"])


def test_bench_against_stockfish_and_python_chess(cli, stockfish_path, monkeypatch):
    monkeypatch.setenv("PATH", stockfish_path.rsplit("/", 1)[0] + ":" + __import__("os").environ["PATH"])
    result = cli("bench", "--depth-offset", "-4", "--vs", "stockfish", "--vs", "python-chess", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    for row in data["positions"]:
        assert row["stockfish"]["nodes"] == row["nodes"]  # same work, both counted it right
        assert row["stockfish"]["depth"] == row["depth"]
        assert row["stockfish"]["ratio"] > 0
        assert row["python-chess"]["nodes"] == PUBLISHED[row["id"]][max(1, row["depth"] - 3) - 1]
    assert set(data["total"]) >= {"nodes", "seconds", "mnps", "stockfish", "python-chess"}


def test_bench_json_gives_the_depth_each_competitor_ran(cli):
    # python-chess runs 3 plies shallower (at least 1), and its object did not say at which
    # depth (stockfish's and ellxor's, the row's, are checked with them below)
    result = cli("bench", "--depth-offset", "-3", "--vs", "python-chess", "--json")
    assert result.exit_code == 0, result.stderr
    for row, (ident, _, depth) in zip(json.loads(result.stdout)["positions"], WORKLOAD):
        theirs = row["python-chess"]
        assert theirs["depth"] == max(1, depth - 3 - 3)
        assert theirs["nodes"] == PUBLISHED[ident][theirs["depth"] - 1]


def test_bench_plain_text_has_a_row_per_position(cli):
    result = cli("bench", "--depth-offset", "-5")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].split()[:3] == ["position", "depth", "nodes"]
    assert [line.split()[0] for line in lines[1:]] == [w[0] for w in WORKLOAD] + ["total"]


def test_bench_says_which_positions_an_offset_takes_below_depth_1(cli):
    # --depth-offset -5 ran kiwipete, pos4, pos5 and pos6 (depth 5) at depth 1 without a word
    result = cli("bench", "--depth-offset", "-5", "--json")
    assert result.exit_code == 0, result.stderr
    depths = {row["id"]: row["depth"] for row in json.loads(result.stdout)["positions"]}
    assert depths == {"startpos": 1, "kiwipete": 1, "pos3": 2, "pos4": 1, "pos5": 1, "pos6": 1}
    assert result.stderr == (
        "chesskit: note: --depth-offset -5 takes kiwipete, pos4, pos5 and pos6 below depth 1: "
        "they run at depth 1\n"
    )
    quiet = cli("bench", "--depth-offset", "-4", "--json")  # every depth still 1 or more
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_bench_rejects_bad_options(cli):
    result = cli("bench", "--vs", "crafty")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_stockfish_is_started_before_its_first_timing(stockfish_path, monkeypatch):
    """The UCI engine starts on its first divide: that used to be inside the first timed
    run, counting Stockfish's start-up (~0.1 s) against it on the startpos row."""
    from chesskit.suites import bench

    monkeypatch.setenv("PATH", stockfish_path.rsplit("/", 1)[0] + ":" + __import__("os").environ["PATH"])
    running = []
    timed = bench._stockfish

    def check(engine, fen, depth):
        running.append(engine._proc is not None)
        return timed(engine, fen, depth)

    monkeypatch.setattr(bench, "_stockfish", check)
    bench.run_bench(vs=("stockfish",), depth_offset=-5)
    assert running == [True] * len(WORKLOAD)


FAKE_ELLXOR = str(ENGINES / "fake_ellxor.py")


def test_bench_against_ellxor_checks_its_counts_and_gives_ratios(cli, tmp_path, monkeypatch):
    cpus = tmp_path / "cpus"
    monkeypatch.setenv("FAKE_ELLXOR_CPUS", str(cpus))
    result = cli("bench", "--depth-offset", "-4", "--vs", "ellxor", FAKE_ELLXOR, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    for row in data["positions"]:
        assert row["ellxor"]["nodes"] == row["nodes"] == PUBLISHED[row["id"]][row["depth"] - 1]
        assert row["ellxor"]["depth"] == row["depth"]
        assert row["ellxor"]["ratio"] > 0
    assert data["total"]["ellxor"]["nodes"] == data["total"]["nodes"]
    # one thread of ours: ellxor, which starts a thread per online core, is held to one core
    assert {line for line in cpus.read_text().splitlines()} == {str(min(os.sched_getaffinity(0)))}


def test_a_time_of_zero_gives_no_ratio(cli, monkeypatch):
    # ellxor's timer counts milliseconds: a tiny count read 0.000 s, shown as 0 Mnps and a
    # ratio of 0.00 (the total's too, from the other positions' times)
    monkeypatch.setenv("FAKE_ELLXOR_ZERO_TIME", "1")
    result = cli("bench", "--depth-offset", "-4", "--vs", "ellxor", FAKE_ELLXOR, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert all(row["ellxor"]["ratio"] is None and row["ellxor"]["mnps"] is None for row in data["positions"])
    assert data["total"]["ellxor"]["ratio"] is None
    assert "chesskit: note: a time of 0 s (below its timer's resolution" in result.stderr
    plain = cli("bench", "--depth-offset", "-4", "--vs", "ellxor", FAKE_ELLXOR)
    assert all(line.split()[5] == "-" for line in plain.stdout.splitlines()[1:])


def test_bench_ellxor_with_threads_keeps_its_affinity(cli, tmp_path, monkeypatch):
    cpus = tmp_path / "cpus"
    monkeypatch.setenv("FAKE_ELLXOR_CPUS", str(cpus))
    result = cli("bench", "--depth-offset", "-5", "--threads", "2", "--vs", "ellxor", FAKE_ELLXOR)
    assert result.exit_code == 0, result.stderr
    ours = " ".join(map(str, sorted(os.sched_getaffinity(0))))
    assert set(cpus.read_text().splitlines()) == {ours}
    assert result.stdout.splitlines()[0].split()[-1] == "x_ellxor"


@pytest.mark.parametrize(
    "env,args,code,words",
    [
        ({"FAKE_ELLXOR_OFF_BY_ONE": "1"}, ["--vs", "ellxor", FAKE_ELLXOR], 3, ["ellxor counted", "startpos"]),
        ({"FAKE_ELLXOR_CRASH": "1"}, ["--vs", "ellxor", FAKE_ELLXOR], 3, ["exited with 134", "Assertion"]),
        ({}, ["--vs", "ellxor", "/nonexistent/ellxor-perft"], 3, ["cannot run", "/nonexistent/ellxor-perft"]),
        # a folder: exec said only "Permission denied"
        ({}, ["--vs", "ellxor", "/tmp"], 3, ["ellxor: cannot run /tmp: Permission denied: it is a directory"]),
        ({}, ["--vs", "ellxor"], 2, ["--vs ellxor needs the path"]),
        ({}, [FAKE_ELLXOR], 2, ["only taken with --vs ellxor"]),
    ],
)
def test_bench_ellxor_failures_are_one_line(cli, monkeypatch, env, args, code, words):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = cli("bench", "--depth-offset", "-5", *args)
    one_line(result, code, *words)


# ------------------------------------------------------------------ ellxor misbehaving
# Stand-ins for the ellxor binary (a program the user names): one that hangs with a helper
# in its process group, one that floods, one whose time line is garbage. Each is one
# exit-3 line, and nothing it started outlives bench.


def _stand_in(tmp_path, body: str) -> str:
    path = tmp_path / "ellxor-stand-in"
    path.write_text(f"#!{sys.executable}\nimport os, subprocess, sys, time\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return str(path)


# starts a helper in its own process group, records both pids, then never answers
HANGS = """
    helper = subprocess.Popen(["sleep", "1000"])
    with open(sys.argv[0] + ".pids", "w") as pids:
        pids.write(f"{os.getpid()} {helper.pid}\\n")
    time.sleep(1000)
"""


def _pids(program: str, proc: subprocess.Popen) -> list[int]:
    """The stand-in's pids once it has written them (None if chesskit ended first)."""
    deadline = time.monotonic() + 120
    path = Path(program + ".pids")
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_text().endswith("\n"):
            return [int(pid) for pid in path.read_text().split()]
        time.sleep(0.05)
    pytest.fail("the stand-in never started")


def _end(proc: subprocess.Popen, seconds: float, what: str) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(what)


def _reap(pids) -> bool:
    """True when every pid has gone within a few seconds (killing those left, for the next test)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not all(gone(pid) for pid in pids):
        time.sleep(0.05)
    left = [pid for pid in pids if not gone(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return not left


def _bench(entry_point, *args) -> subprocess.Popen:
    return subprocess.Popen(
        [entry_point, "bench", "--depth-offset", "-5", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=subprocess_env(),
    )


def test_a_hanging_ellxor_is_given_up_after_timeout_with_its_group(entry_point, tmp_path):
    program = _stand_in(tmp_path, HANGS)
    proc = _bench(entry_point, "--vs", "ellxor", program, "--timeout", "1")
    pids = _pids(program, proc)
    out, err = _end(proc, 120, "bench waited on a hanging ellxor past its --timeout 1")
    one_line(subprocess.CompletedProcess(proc.args, proc.returncode, out, err), 3, "did not finish", "within 1 s")
    assert _reap(pids), "the stand-in or its helper outlived bench"


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_during_ellxor_kills_its_group(entry_point, tmp_path, sig, code):
    program = _stand_in(tmp_path, HANGS)
    proc = _bench(entry_point, "--vs", "ellxor", program)
    pids = _pids(program, proc)
    proc.send_signal(sig)
    _, err = _end(proc, 30, f"bench did not end on {sig.name}")
    assert proc.returncode == code, err
    assert _reap(pids), "the stand-in or its helper outlived bench"


def test_the_default_ellxor_limit_grows_with_chesskits_own_time():
    from chesskit.suites.bench import ELLXOR_SLOWER, ELLXOR_TIMEOUT_S, Run, ellxor_limit

    assert ellxor_limit(None, Run(20, 0.001)) == ELLXOR_TIMEOUT_S
    assert ellxor_limit(None, Run(10**9, 100.0)) == 100.0 * ELLXOR_SLOWER
    assert ellxor_limit(2.5, Run(10**9, 100.0)) == 2.5


@pytest.mark.parametrize(
    "body, words",
    [
        # 128 MiB of short lines and no answer: read no further than 64 MiB
        ("chunk = 'Nodes per second:  1 million.\\n' * 4096\nfor _ in range(1100): sys.stdout.write(chunk)",
         ["more than 64 MiB"]),
        # one line of 1 MiB
        ("sys.stdout.write('x' * (1 << 20))", ["line longer than 64 KiB"]),
        ("print('Result:            20')\nprint('Time taken:        1.2.3 seconds.')", ["time", "1.2.3"]),
        ("print('Result:            20')\nprint('Time taken:        . seconds.')", ["time", "'Time taken:"]),
        ("print('Time taken:        0.001 seconds.')", ["no 'Result:' line"]),
    ],
    ids=["flood", "long-line", "two-points", "no-digits", "no-result"],
)
def test_ellxor_output_it_cannot_use_is_one_line(cli, tmp_path, body, words):
    result = cli("bench", "--depth-offset", "-5", "--vs", "ellxor", _stand_in(tmp_path, body))
    one_line(result, 3, "ellxor:", *words)


def test_timeout_is_checked_and_only_taken_with_ellxor(cli):
    one_line(cli("bench", "--depth-offset", "-5", "--timeout", "5"), 2, "--timeout is only taken with --vs ellxor")
    one_line(cli("bench", "--vs", "ellxor", FAKE_ELLXOR, "--timeout", "0"), 2, "bad --timeout '0'")
