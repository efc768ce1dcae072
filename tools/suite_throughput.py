"""Measure suite throughput for docs/benchmarks.md: one thread and no hash table against
``chesskit suite``'s defaults (all cores, the 64 MiB table), and print a Markdown table:
each setting's best wall time and that run's CPU time (user + system of the process,
all its threads), so that what two threads spend over one on the same work shows.

    python tools/suite_throughput.py SUITE [--max-depth 4] [--repeat 3]

SUITE is the 6,838-position random.perft of python-chess's sdist (examples/perft; .ci/run
unpacks it into ~/.cache/chesskit-ci/python-chess-perft) or any suite file. Each run is a
whole ``python -m chesskit suite SUITE --json --max-depth D --max-nodes 1e15`` process, the
two settings alternating; both must pass with the same counts. Run it on an idle machine:
the figures are wall times.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time

CHESSKIT = [sys.executable, "-m", "chesskit"]
SETTINGS = {
    "1 thread, no hash": ["--threads", "1", "--hash", "0"],
    "defaults": [],
}


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(suite: str, depth: int, extra: list[str]) -> tuple[float, float, dict]:
    """The wall and CPU seconds of one whole run, and its JSON."""
    cmd = [*CHESSKIT, "suite", suite, "--json", "--max-depth", str(depth), "--max-nodes", "1e15", *extra]
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    # exit 2: some lines could not be run (reported, not timed); anything else is a failure
    if proc.returncode not in (0, 2) or not proc.stdout:
        raise SystemExit(f"{' '.join(cmd)} exited with {proc.returncode}: {proc.stderr.strip()}")
    return wall, cpu, json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite")
    parser.add_argument("--max-depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    run(args.suite, 1, [])  # fill the compile cache first
    load = os.getloadavg()[0]
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in SETTINGS}  # (wall, cpu) of each run
    counts = None
    for _ in range(args.repeat):
        for name, extra in SETTINGS.items():
            wall, cpu, data = run(args.suite, args.max_depth, extra)
            got = [(r["id"], r["depth"], r["nodes"]) for r in data["results"]]
            if counts is not None and got != counts:
                raise SystemExit(f"{name}: the counts differ from the other setting's")
            counts = got
            times[name].append((wall, cpu))
    positions = len({c[0] for c in counts})
    nodes = sum(c[2] for c in counts)
    print(f"{platform.python_version()}, {os.cpu_count()} cores, load average {load:.2f} at start\n")
    print("| workload | positions | counts | nodes | setting | best wall s | its CPU s | Mnps | speed-up |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|")
    base = min(times["1 thread, no hash"])[0]
    for name, runs in times.items():
        best, cpu = min(runs)
        print(
            f"| `{os.path.basename(args.suite)}` D1-D{args.max_depth} | {positions:,} | {len(counts):,} | "
            f"{nodes:,} | {name} | {best:.2f} | {cpu:.2f} | {nodes / best / 1e6:,.0f} | {base / best:.2f}x |"
        )


if __name__ == "__main__":
    main()
