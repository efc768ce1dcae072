"""Measure what docs/benchmarks.md records, back to back on this machine, and print Markdown.

    python tools/measure.py [--repeat 3]

1. `chesskit bench --vs stockfish --vs python-chess` (single thread, no hash: the
   conditions of Stockfish's own `go perft`);
2. `chesskit perft startpos 7` with its defaults (hash table, all cores) as a whole process
   against `stockfish` running `go perft 7` as a whole process, alternating;
3. a warm `chesskit perft startpos 1` as a whole process;
4. the first run in a fresh compile cache (the one-time compile);
5. peak memory (max RSS) of a default `chesskit perft startpos 7`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

from chesskit.compare.engines import find_stockfish

CHESSKIT = [sys.executable, "-m", "chesskit"]


def timed(cmd, env=None, stdin=None):
    """Wall seconds and max RSS (KiB) of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    if stdin:
        proc.stdin.write(stdin)
    proc.stdin.close()
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{cmd} exited with {proc.returncode}")
    return wall, usage.ru_maxrss, out


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0]
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load average {load:.2f} at start"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    stockfish = find_stockfish()
    if stockfish is None:
        sys.exit("stockfish not found")
    sf_version = subprocess.run([stockfish], input="uci\nquit\n", capture_output=True, text=True).stdout.splitlines()[0]
    print(f"Machine: {machine()}; {sf_version}.\n")

    out = subprocess.run(
        CHESSKIT + ["bench", "--vs", "stockfish", "--vs", "python-chess", "--repeat", str(args.repeat), "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    bench = json.loads(out)
    print(f"### Single thread, no hash table (`chesskit bench --vs stockfish --vs python-chess --repeat {args.repeat}`)\n")
    print("| position | depth | nodes | chesskit s | chesskit Mnps | Stockfish Mnps | x Stockfish | x python-chess |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in bench["positions"]:
        sf, pc = row["stockfish"], row["python-chess"]
        print(f"| {row['id']} | {row['depth']} | {row['nodes']:,} | {row['seconds']:.3f} | {row['mnps']:.0f} | "
              f"{sf['mnps']:.0f} | **{sf['ratio']:.2f}** | {pc['ratio']:.0f} |")
    total = bench["total"]
    print(f"| total | | {total['nodes']:,} | {total['seconds']:.3f} | {total['mnps']:.0f} | | "
          f"**{total['stockfish']['ratio']:.2f}** | {total['python-chess']['ratio']:.0f} |\n")

    print("### `chesskit perft startpos 7` with its defaults, whole process, against `go perft 7`\n")
    print("| run | chesskit wall s | Stockfish wall s | ratio |")
    print("|---:|---:|---:|---:|")
    sf_input = "position startpos\ngo perft 7\nquit\n"
    peak = 0
    ratios = []
    for i in range(args.repeat):
        ours, rss, _ = timed(CHESSKIT + ["perft", "startpos", "7"])
        peak = max(peak, rss)
        theirs, _, _ = timed([stockfish], stdin=sf_input)
        ratios.append(ours / theirs)
        print(f"| {i + 1} | {ours:.2f} | {theirs:.2f} | {ours / theirs:.3f} |")
    print(f"\nBest ratio {min(ratios):.3f}, worst {max(ratios):.3f} (target: at most 0.2).\n")

    warm = [timed(CHESSKIT + ["perft", "startpos", "1"])[0] for _ in range(5)]
    print(f"### Start-up\n\nWarm `chesskit perft startpos 1`, whole process, 5 runs: "
          f"best {min(warm):.2f} s, median {sorted(warm)[2]:.2f} s.\n")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CHESSKIT_CACHE_DIR=cache)
        env.pop("NUMBA_CACHE_DIR", None)
        cold, _, _ = timed(CHESSKIT + ["perft", "startpos", "6"], env=env)
    print(f"First run in an empty compile cache (`chesskit perft startpos 6`, compile included): {cold:.1f} s.\n")
    print(f"Peak memory of a default `chesskit perft startpos 7` (64 MiB hash table): {peak / 1024:.0f} MiB.")


if __name__ == "__main__":
    main()
