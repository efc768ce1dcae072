"""Measure what ``chesskit fuzz`` costs: positions per second, and how much of the time is the fuzzer's own.

    taskset -c 0 python tools/fuzz_bench.py [--positions 2000] [--script-positions 40] [--seed 1] [--repeat 3]

Runs the fuzz loop (``chesskit.fuzz.run.fuzz``, the code behind ``chesskit fuzz``, at
``--depth 2``) with the same seed against:

1. Stockfish (``go perft`` over UCI, one thread): the issue's target is at least 100
   positions per second on one core;
2. a python-chess based perftree script (``tests/engines/eng_correct.py``, one process
   per divide, as perftree runs scripts);
3. the same python-chess move generator as a Python adapter (`--python`).

The engine is wrapped so the seconds spent inside its ``divide`` are counted apart:
"own" is everything else (generating positions, chesskit's divides, comparing), per
position.  Stockfish and the correct engines agree with chesskit, so every run tries
exactly its number of positions.  The best of ``--repeat`` runs is kept.  Prints a
Markdown table (``--json`` for one JSON object).  Do not run it on a loaded machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # this checkout's chesskit, whatever is installed

from chesskit.compare.engines import find_stockfish, open_engine  # noqa: E402
from chesskit.fuzz.run import fuzz  # noqa: E402
CORRECT = REPO / "tests" / "engines" / "eng_correct.py"


class Timed:
    """An engine whose ``divide`` time is added up."""

    def __init__(self, engine):
        self.engine = engine
        self.name = engine.name
        self.seconds = 0.0
        self.calls = 0

    def divide(self, fen, depth, moves, chess960=False):
        start = time.perf_counter()
        try:
            return self.engine.divide(fen, depth, moves, chess960)
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1


def measure(label: str, make_engine, positions: int, seed: int, repeat: int) -> dict:
    best = None
    for _ in range(repeat):
        with make_engine() as engine:
            engine.divide("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 1, [])  # started before the timing
            timed = Timed(engine)
            start = time.perf_counter()
            run = fuzz(timed, seed, depth=2, max_positions=positions)
            wall = time.perf_counter() - start
        if run.finding is not None:
            raise SystemExit(f"{label}: unexpected finding {run.finding.report.summary()}")
        row = {
            "engine": label,
            "positions": run.positions,
            "nodes": run.nodes,
            "seconds": round(wall, 3),
            "positions_per_second": round(run.positions / wall, 1),
            "engine_seconds": round(timed.seconds, 3),
            "engine_calls": timed.calls,
            "own_ms_per_position": round(1000 * (wall - timed.seconds) / run.positions, 3),
            "own_share": round((wall - timed.seconds) / wall, 3),
        }
        if best is None or row["seconds"] < best["seconds"]:
            best = row
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000, help="positions per run against Stockfish and the adapter")
    parser.add_argument("--script-positions", type=int, default=40, help="positions per run against the perftree script")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stockfish", default=find_stockfish())
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from chesskit.board.board import Board

    Board().warm_up()  # the compiled core is loaded before any timing
    rows = []
    if args.stockfish:
        rows.append(measure("stockfish (UCI)", lambda: open_engine(engine=args.stockfish), args.positions, args.seed, args.repeat))
    rows.append(measure("python-chess script (perftree)", lambda: open_engine(script=str(CORRECT)), args.script_positions, args.seed, args.repeat))
    rows.append(measure("python-chess adapter (--python)", lambda: open_engine(python=f"{CORRECT}:Adapter"), args.positions, args.seed, args.repeat))
    if args.json:
        print(json.dumps({"machine": platform.processor() or platform.machine(), "python": platform.python_version(), "rows": rows}))
        return
    print(f"fuzz --depth 2, seed {args.seed}, best of {args.repeat}; Python {platform.python_version()}")
    print()
    print("| engine | positions | seconds | positions/s | engine s | own ms/position | own share |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['engine']} | {r['positions']} | {r['seconds']:.2f} | {r['positions_per_second']:.1f} | "
            f"{r['engine_seconds']:.2f} | {r['own_ms_per_position']:.2f} | {100 * r['own_share']:.0f}% |"
        )


if __name__ == "__main__":
    sys.exit(main())
