"""chesskit bench at a tiny depth: its output parses and its counts are the published ones.
No test here asserts a time: speed is measured by the benchmark, never by a test."""

from __future__ import annotations

import json
import os

import pytest

from chesskit.suites.bench import WORKLOAD
from helpers import ENGINES, one_line

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
        assert row["stockfish"]["ratio"] > 0
        assert row["python-chess"]["nodes"] == PUBLISHED[row["id"]][max(1, row["depth"] - 3) - 1]
    assert set(data["total"]) >= {"nodes", "seconds", "mnps", "stockfish", "python-chess"}


def test_bench_plain_text_has_a_row_per_position(cli):
    result = cli("bench", "--depth-offset", "-5")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].split()[:3] == ["position", "depth", "nodes"]
    assert [line.split()[0] for line in lines[1:]] == [w[0] for w in WORKLOAD] + ["total"]


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
        assert row["ellxor"]["ratio"] > 0
    assert data["total"]["ellxor"]["nodes"] == data["total"]["nodes"]
    # one thread of ours: ellxor, which starts a thread per online core, is held to one core
    assert {line for line in cpus.read_text().splitlines()} == {str(min(os.sched_getaffinity(0)))}


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
        ({}, ["--vs", "ellxor"], 2, ["--vs ellxor needs the path"]),
        ({}, [FAKE_ELLXOR], 2, ["only taken with --vs ellxor"]),
    ],
)
def test_bench_ellxor_failures_are_one_line(cli, monkeypatch, env, args, code, words):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = cli("bench", "--depth-offset", "-5", *args)
    one_line(result, code, *words)
