"""The benchmark: a fixed perft workload, optionally raced against Stockfish and python-chess.

Speed is only ever reported as measured here, back to back on the same machine: our
nodes/second over theirs on the same positions. Stockfish is timed from sending
``go perft`` to reading ``Nodes searched`` on an engine process that is already running,
so its start-up is not counted (nor is ours: the core is warmed first). python-chess is
about 300 times slower, so it runs the same positions three plies shallower and the
ratio compares rates. ellxor/perft (a fast C++ perft without a table, given by the path of
its binary) runs once per position and repeat, and its own ``Time taken`` is its time:
the process start and its table set-up are not counted. It starts one thread per online
core whatever its affinity, so when ours is single-threaded it is pinned to one core of
ours (one core each, as the comparison means). It is a program given by the user, run like
an engine: in its own process group, killed as a whole when it is done, past its time
limit or on Ctrl-C, and its output read with the engines' bounds.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field

from chesskit.compare.engines import UciEngine, find_stockfish
from chesskit.compare.engines.proc import OutputLimit, communicate_bounded, drain, kill_group, spawn, why_not_started
from chesskit.errors import EngineError, InputError
from chesskit.geometry import START_FEN
from chesskit.timer import Timer

# the six positions of the chessprogramming wiki's Perft Results page
WORKLOAD = [
    ("startpos", START_FEN, 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
    ("pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5),
]
# --variant NAME: the variant's start position, to about the work of the standard workload's
# start position (crazyhouse's drops make its tree wider)
VARIANT_DEPTHS = {"crazyhouse": 5}
VARIANT_DEPTH = 6
PYTHON_CHESS_SHALLOWER = 3
COMPETITORS = ("stockfish", "python-chess", "ellxor")


@dataclass
class Run:
    nodes: int
    seconds: float

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass
class Row:
    id: str
    fen: str
    depth: int
    ours: Run
    theirs: dict[str, Run] = field(default_factory=dict)

    def ratio(self, name: str) -> float | None:
        """Our nodes/second over theirs; None where a time is 0 (below the timer's
        resolution: ellxor's counts milliseconds): a ratio of 0.00 read as a result."""
        other = self.theirs[name].nps
        return self.ours.nps / other if other and self.ours.nps else None

    def timeless(self) -> list[str]:
        """The programs (``ours`` for chesskit) whose time here is 0: no rate."""
        runs = {"chesskit": self.ours, **self.theirs}
        return [name for name, run in runs.items() if run.seconds <= 0]

    def as_dict(self) -> dict:
        out = {
            "id": self.id,
            "fen": self.fen,
            "depth": self.depth,
            "nodes": self.ours.nodes,
            "seconds": round(self.ours.seconds, 6),
            "mnps": round(self.ours.nps / 1e6, 3),
        }
        for name, run in self.theirs.items():
            out[name] = {
                "depth": python_chess_depth(self.depth) if name == "python-chess" else self.depth,
                "nodes": run.nodes,
                "seconds": round(run.seconds, 6),
                "mnps": round(run.nps / 1e6, 3) if run.seconds > 0 else None,
                "ratio": None if self.ratio(name) is None else round(self.ratio(name), 3),
            }
        return out


def _best(runs: list[Run]) -> Run:
    return min(runs, key=lambda r: r.seconds)


def variant_workload(variant: str) -> list[tuple[str, str, int]]:
    """``--variant NAME``'s workload: the variant's start position."""
    from chesskit.variants import get

    found = get(variant)
    # the id is a word (pipe rows split on spaces): the variant is its own column and key
    return [("startpos", found.start_fen, VARIANT_DEPTHS.get(found.name, VARIANT_DEPTH))]


def run_depth(depth: int, depth_offset: int) -> int:
    """The depth a workload position of ``depth`` runs at under ``--depth-offset``: at least 1."""
    return max(1, depth + depth_offset)


def python_chess_depth(depth: int) -> int:
    """The depth python-chess runs a position of ``depth`` at: ``PYTHON_CHESS_SHALLOWER``
    plies shallower, at least 1 (the ratio compares rates)."""
    return max(1, depth - PYTHON_CHESS_SHALLOWER)


def raised_to_1(workload: list[tuple[str, str, int]], depth_offset: int) -> list[str]:
    """The ids of ``workload`` whose depth ``depth_offset`` takes below 1, which run at
    depth 1 (``run_depth``): ``chesskit bench`` names them."""
    return [ident for ident, _, depth in workload if run_depth(depth, depth_offset) != depth + depth_offset]


def _board(fen: str, variant: str):
    from chesskit.board.board import Board

    return Board(fen) if variant == "chess" else Board(fen, variant=variant)


def _ours(fen: str, depth: int, hash_mb: float, threads: int, gpu=None, variant: str = "chess") -> Run:
    """One timed perft by chesskit: the CPU walk, or ``gpu`` (a ``chesskit.gpu.walk.Walk``)."""
    board = _board(fen, variant)
    with Timer() as timer:
        nodes = board.perft(depth, hash_mb=hash_mb, threads=threads) if gpu is None else gpu.perft(board, depth)
    return Run(nodes, timer.elapsed_s)


def _stockfish(engine, fen: str, depth: int) -> Run:
    with Timer() as timer:
        nodes = sum(engine.divide(fen, depth, []).values())
    return Run(nodes, timer.elapsed_s)


_ELLXOR_RESULT = re.compile(r"^Result:\s+(\d+)\s*$", re.M)
_ELLXOR_TIME = re.compile(r"^Time taken:\s+(.*?)\s+seconds", re.M)
_SECONDS = re.compile(r"\d{1,12}(\.\d{1,12})?")
# the limit on one run of ellxor without --timeout: this many seconds, or this many times
# chesskit's own time on the same position when that is longer (a deeper --depth-offset,
# or ours with a table and threads, which ellxor lacks)
ELLXOR_TIMEOUT_S = 30.0
ELLXOR_SLOWER = 30


def ellxor_limit(timeout: float | None, ours: Run) -> float:
    """The seconds one ellxor run may take: ``timeout``, or the default scaled by ours."""
    return timeout if timeout is not None else max(ELLXOR_TIMEOUT_S, ELLXOR_SLOWER * ours.seconds)


def _ellxor(path: str, fen: str, depth: int, cpu: int | None, timeout: float) -> Run:
    """One run of ellxor/perft on ``fen`` to ``depth``, on core ``cpu`` (None: ours), in
    its own process group, given ``timeout`` seconds; an EngineError when it fails."""
    pin = (lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None
    where = f"on {fen!r} depth {depth}"
    try:
        child = spawn([path, fen, str(depth)], "ellxor", stdin=subprocess.DEVNULL, preexec_fn=pin)
    except EngineError as exc:
        cause = exc.__context__  # the OSError, which spawn's words leave out
        why = why_not_started(path, cause) if isinstance(cause, OSError) else str(exc)
        raise EngineError(f"ellxor: cannot run {path}: {why}") from None
    try:
        out, err = communicate_bounded(child, timeout, f"{fen!r} depth {depth}")
    except subprocess.TimeoutExpired:
        raise EngineError(
            f"ellxor: {path} did not finish {where} within {timeout:g} s (more time: --timeout SECONDS)"
        ) from None
    except OutputLimit as exc:
        raise EngineError(f"ellxor: {path} {exc}") from None  # its words name the position and depth
    finally:
        kill_group(child)  # whatever it left running in its group goes with it
        drain(child)
    stdout, stderr = out.decode(errors="replace"), err.decode(errors="replace")
    last = (stderr.strip() or stdout.strip() or "no output").splitlines()[-1][:200]
    if child.returncode != 0:
        raise EngineError(f"ellxor: {path} exited with {child.returncode} {where}: {last}")
    nodes, seconds = _ELLXOR_RESULT.search(stdout), _ELLXOR_TIME.search(stdout)
    if not nodes or not seconds:
        missing = "Result:" if not nodes else "Time taken:"
        raise EngineError(f"ellxor: {path} printed no {missing!r} line {where}: {last}")
    if not _SECONDS.fullmatch(seconds.group(1)):
        raise EngineError(f"ellxor: {path} printed a time chesskit cannot read {where}: {seconds.group(0)[:200]!r}")
    return Run(int(nodes.group(1)), float(seconds.group(1)))


def _one_core(threads: int) -> int | None:
    """The core ellxor is pinned to: one of ours when ours runs one thread, else none."""
    if threads != 1 or not hasattr(os, "sched_getaffinity"):
        return None
    return min(os.sched_getaffinity(0))


def _python_chess(fen: str, depth: int, variant: str = "chess") -> Run:
    import chess.variant

    from chesskit.variants import get

    board = chess.variant.find_variant(get(variant).pychess)(fen)

    def walk(d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += walk(d - 1)
            board.pop()
        return total

    with Timer() as timer:
        nodes = walk(depth) if depth > 0 else 1
    return Run(nodes, timer.elapsed_s)


def run_bench(
    vs=(), depth_offset=0, repeat=1, hash_mb=0, threads=1, on_row=None, ellxor=None, timeout=None, device="cpu",
    variant="chess",
) -> list[Row]:
    """Run the workload; ``vs`` names competitors from COMPETITORS (``ellxor`` needs the
    path of its binary, and each of its runs may take ``timeout`` seconds: see
    ``ellxor_limit``). Each measurement is the best of ``repeat`` runs, ours and theirs
    alternating. ``device="gpu"``: chesskit counts on the GPU (``chesskit.gpu``).
    ``variant``: that variant's workload (``variant_workload``; python-chess's variant
    board is the only competitor that plays it)."""
    from chesskit.board.board import Board

    workload = WORKLOAD if variant == "chess" else variant_workload(variant)
    others = [name for name in vs if name != "python-chess"]
    if variant != "chess" and (others or device == "gpu"):
        what = "--device gpu" if device == "gpu" else f"--vs {others[0]}"
        raise InputError(f"--variant {variant}: {what} counts standard chess only (--vs python-chess plays variants)")

    for name in vs:
        if name not in COMPETITORS:
            raise InputError(f"unknown competitor {name!r}: choose from {', '.join(COMPETITORS)}")
    if "ellxor" in vs and not ellxor:
        raise InputError("--vs ellxor needs the path of its binary: chesskit bench --vs ellxor PATH")
    if ellxor and "ellxor" not in vs:
        raise InputError(f"{ellxor!r}: a path is only taken with --vs ellxor")
    if timeout is not None and "ellxor" not in vs:
        raise InputError("--timeout is only taken with --vs ellxor")
    ellxor_cpu = _one_core(threads)
    engine = None
    if "stockfish" in vs:
        path = find_stockfish()
        if path is None:
            raise EngineError("stockfish not found on PATH or at /usr/games/stockfish (apt-get install stockfish)")
        engine = UciEngine(path, options={"Threads": "1"}, timeout=None)
        engine.divide(WORKLOAD[0][1], 1, [])  # start it now: its start-up is not part of any timing
    if "python-chess" in vs:
        try:
            import chess  # noqa: F401
        except ImportError:
            raise InputError("python-chess is not installed (pip install chess)") from None
    gpu = None
    if device == "gpu":
        from chesskit.gpu import open_walk

        gpu = open_walk()  # InputError (exit 2) where no GPU can be used
        gpu.warm_up(Board())  # compile (or load) the kernels before any timing
    else:
        _board(workload[0][1], variant).perft(3, hash_mb=hash_mb, threads=threads)  # warm the compiled core
    rows = []
    try:
        for ident, fen, depth in workload:
            depth = run_depth(depth, depth_offset)
            ours, sf, pc, ex = [], [], [], []
            pc_depth = python_chess_depth(depth)
            for _ in range(max(1, repeat)):
                ours.append(_ours(fen, depth, hash_mb, threads, gpu, variant))
                if engine is not None:
                    sf.append(_stockfish(engine, fen, depth))
                if "python-chess" in vs:
                    pc.append(_python_chess(fen, pc_depth, variant))
                if "ellxor" in vs:
                    ex.append(_ellxor(ellxor, fen, depth, ellxor_cpu, ellxor_limit(timeout, ours[-1])))
            row = Row(ident, fen, depth, _best(ours))
            for name, runs in (("stockfish", sf), ("python-chess", pc), ("ellxor", ex)):
                if runs:
                    row.theirs[name] = _best(runs)
            for name, run in row.theirs.items():
                if name != "python-chess" and run.nodes != row.ours.nodes:
                    raise EngineError(
                        f"{name} counted {run.nodes} nodes for {ident} at depth {depth}, chesskit {row.ours.nodes}"
                    )
            rows.append(row)
            if on_row:
                on_row(row)
    finally:
        if engine is not None:
            engine.close()
    return rows


def totals(rows: list[Row]) -> dict:
    """Aggregate rates over the whole workload (sum of nodes over sum of seconds)."""
    nodes = sum(r.ours.nodes for r in rows)
    seconds = sum(r.ours.seconds for r in rows)
    out = {"nodes": nodes, "seconds": round(seconds, 6), "mnps": round(nodes / seconds / 1e6, 3) if seconds else 0}
    for name in COMPETITORS:
        if rows and all(name in r.theirs for r in rows):
            their_nodes = sum(r.theirs[name].nodes for r in rows)
            their_seconds = sum(r.theirs[name].seconds for r in rows)
            their_nps = their_nodes / their_seconds if their_seconds else 0
            out[name] = {
                "nodes": their_nodes,
                "seconds": round(their_seconds, 6),
                # none where a position's time was 0: the sum of the others' is no rate of the whole
                "ratio": round((nodes / seconds) / their_nps, 3) if all(r.ratio(name) for r in rows) else None,
            }
    return out
