"""Issue 22's speed targets for the variants, measured back to back, and printed as Markdown.

    taskset -c 1 python tools/variant_speed.py [--repeat 3] [--variant atomic ...] [--max-nodes 5e7] [--cpu]

For each variant: its start position and the two middlegame positions of its bundled suite
(``positions/variants/NAME.epd``, ids ``NAME-rand-1`` and ``NAME-rand-2``: seeded random
play), at the deepest depth whose count stays within ``--max-nodes`` (estimated from the
depth before it, so Fairy-Stockfish's few million nodes a second keep a row to seconds). chesskit
counts single-threaded with no table (``Board.perft(depth)``, the compiled walk warm), then
Fairy-Stockfish's own ``go perft`` (``/usr/games/fairy-stockfish``, ``UCI_Variant``, one
thread; a current build with every variant, /tmp/vperf/fsf-allvars, where it is there, else
Debian's 11.1; ``--fairy-for atomic=PATH``: another build for one variant) counts the same position to the
same depth: the counts must agree. chesskit's time is the best of ``--repeat`` runs,
Fairy-Stockfish's of ``--fairy-repeat``. ``--cpu``: CPU seconds instead of wall seconds
(chesskit's thread time, the engine process's user + system time from /proc), for a machine
shared with other work. The reference is chesskit's own standard chess, the start position at
depth 6 under the same settings, measured before the variants and again after them (the ratios use the faster of the two).

Pin it to one core (``taskset -c N``: Fairy-Stockfish inherits it). Columns: nodes/second
in millions, chesskit's over Fairy-Stockfish's (target: 20 or more), chesskit's over its
own standard chess (target: 0.5 or more) and the one-minute load average when the row began.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

from chesskit.board.board import Board
from chesskit.board.fen import format_fen
from chesskit.variants import get

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("atomic", "crazyhouse", "kingofthehill", "3check", "antichess", "horde", "racingkings")
STANDARD_DEPTH = 6
_NODES = re.compile(r"^Nodes searched:\s*(\d+)", re.M)


def positions(name: str) -> list[tuple[str, str]]:
    """(id, FEN) of the variant's start position and its suite's two first random-play ones."""
    found = [("start", get(name).start_fen)]
    epd = (ROOT / "positions" / "variants" / f"{name}.epd").read_text().splitlines()
    for wanted in (f"{name}-rand-1", f"{name}-rand-2"):
        line = next(x for x in epd if f'id "{wanted}"' in x)
        head = line.split(" id ")[0]
        found.append((wanted.removeprefix(f"{name}-"), head))
    return found


CLOCK = time.perf_counter  # time.thread_time with --cpu
ALLVARS = "/tmp/vperf/fsf-allvars"  # a Fairy-Stockfish built with every variant (docs/benchmarks.md)


def ours(board: Board, depth: int, repeat: int) -> tuple[int, float]:
    best = float("inf")
    nodes = 0
    for _ in range(repeat):
        start = CLOCK()
        nodes = board.perft(depth)
        best = min(best, CLOCK() - start)
    return nodes, best


class Fairy:
    """Fairy-Stockfish over UCI, one variant."""

    def __init__(self, binary: str, variant: str):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.fd = self.proc.stdout.fileno()
        self.pending = b""
        self.send("uci")
        offered = re.search(r"option name UCI_Variant type combo .*", self.wait_for("uciok"))
        if offered is None or f" var {variant} " not in offered.group(0) + " ":
            raise SystemExit(f"{binary} does not offer the variant {variant} (its UCI_Variant option)")
        self.send("setoption name Threads value 1")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, token: str, timeout: float = 600) -> str:
        end = time.monotonic() + timeout
        while True:
            lines = self.pending.split(b"\n")
            for at, line in enumerate(lines[:-1]):
                if line.startswith(token.encode()):
                    self.pending = b"\n".join(lines[at + 1 :])
                    return b"\n".join(lines[: at + 1]).decode()
            if not select.select([self.fd], [], [], max(0.0, end - time.monotonic()))[0]:
                raise SystemExit(f"fairy-stockfish: no {token!r} in {timeout} s")
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise SystemExit("fairy-stockfish exited")
            self.pending += chunk

    def cpu(self) -> float:
        """The engine process's CPU seconds so far (user + system, from /proc)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def perft(self, fen: str, depth: int, repeat: int) -> tuple[int, float]:
        clock = self.cpu if CLOCK is not time.perf_counter else time.perf_counter
        best = float("inf")
        nodes = 0
        for _ in range(repeat):
            self.send(f"position fen {fen}")
            self.send("isready")
            self.wait_for("readyok")
            start = clock()
            self.send(f"go perft {depth}")
            text = self.wait_for("Nodes searched")
            best = min(best, clock() - start)
            nodes = int(_NODES.search(text).group(1))
        return nodes, best

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def standard(repeat: int) -> float:
    board = Board()
    board.perft(3)
    nodes, seconds = ours(board, STANDARD_DEPTH, repeat)
    return nodes / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument("--max-nodes", type=float, default=5e7, help="the largest count to run (default 5e7)")
    parser.add_argument("--max-depth", type=int, default=8)
    parser.add_argument("--fairy-repeat", type=int, default=1)
    parser.add_argument("--cpu", action="store_true", help="CPU seconds, not wall seconds")
    parser.add_argument("--fairy", default=ALLVARS if os.access(ALLVARS, os.X_OK) else
                        shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    parser.add_argument("--fairy-for", action="append", default=[], metavar="VARIANT=PATH",
                        help="another Fairy-Stockfish binary for one variant (Debian's has no atomic)")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.thread_time
    affinity = sorted(os.sched_getaffinity(0))
    print(f"cores {affinity}, load {os.getloadavg()[0]:.2f}, repeat {args.repeat}, "
          f"{'CPU' if args.cpu else 'wall'} seconds", file=sys.stderr)
    std_before = standard(args.repeat)
    binaries = dict(item.split("=", 1) for item in args.fairy_for)
    rows = []
    for name in args.variant or VARIANTS:
        fairy = Fairy(binaries.get(name, args.fairy), get(name).fairy)
        for pid, fen in positions(name):
            board = Board(fen, variant=name)
            board.perft(2)  # warm: the walk compiled or loaded
            load = os.getloadavg()[0]
            depth, before = 1, 1
            while depth < args.max_depth:
                nodes = board.perft(depth)
                if nodes * nodes / max(before, 1) > args.max_nodes:
                    break
                before = nodes
                depth += 1
            nodes, seconds = ours(board, depth, args.repeat)
            fnodes, fseconds = fairy.perft(format_fen(board.setup(), dialect="fairy"), depth, args.fairy_repeat)
            if fnodes != nodes:
                raise SystemExit(f"{name} {pid} depth {depth}: chesskit {nodes}, fairy-stockfish {fnodes}")
            rows.append((name, pid, depth, nodes, nodes / seconds, fnodes / fseconds, load))
            print(rows[-1], file=sys.stderr)
        fairy.close()
    std_after = standard(args.repeat)
    std = max(std_before, std_after)
    print(f"standard chess, startpos {STANDARD_DEPTH}: {std_before / 1e6:.0f} Mn/s before the variants, "
          f"{std_after / 1e6:.0f} after (the ratios use the faster, {std / 1e6:.0f})\n")
    print("| variant | position | depth | nodes | chesskit Mn/s | Fairy-SF Mn/s | x Fairy-SF | x standard | load |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, pid, depth, nodes, nps, fnps, load in rows:
        print(f"| {name} | {pid} | {depth} | {nodes} | {nps / 1e6:.1f} | {fnps / 1e6:.2f} | {nps / fnps:.0f} | "
              f"{nps / std:.2f} | {load:.1f} |")


if __name__ == "__main__":
    main()
