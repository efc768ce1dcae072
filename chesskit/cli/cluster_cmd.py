"""The glue for ``chesskit perft --scheduler / --workers / --checkpoint / --split-depth``.

``cluster_options`` adds the four options to a click command and hands the command one
``cluster`` argument: None when none of them was given, else a ``ClusterOptions`` whose
``run`` does the whole distributed perft, drawing a progress bar on a terminal. Neither
this module nor the options import Dask: only ``run`` does.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import click

from chesskit.cli import output, perft_view
from chesskit.cluster.errors import BOTH_WAYS
from chesskit.errors import InputError
from chesskit.typed import plain_int

_NAMES = ("scheduler", "workers", "checkpoint", "split_depth")


@dataclass
class ClusterOptions:
    scheduler: str | None = None
    workers: int | None = None
    checkpoint: str | None = None
    split_depth: int | None = None

    def run(self, board, depth: int, show_progress: bool = True, hash_mb: float | None = None):
        """perft(``depth``) on the cluster; returns a ``chesskit.cluster.ClusterResult``.
        ``hash_mb`` sizes each worker's hash table (None: the default)."""
        from chesskit.cluster.driver import DEFAULT_HASH_MB, require_dask, run_perft

        require_dask()
        with _progress_bar(depth, self, show_progress) as progress:
            return run_perft(
                board,
                depth,
                scheduler=self.scheduler,
                workers=self.workers,
                checkpoint=self.checkpoint,
                split_depth=self.split_depth,
                hash_mb=DEFAULT_HASH_MB if hash_mb is None else hash_mb,
                progress=progress,
                warn=_warn,
            )

    def perft_command(self, board, ident, depth: int, hash_mb: float, as_json: bool, stats: bool = False):
        """``chesskit perft`` with these options: run, then print like perft does (one
        JSON object with "tasks" and "resumed" added; rich on a terminal; the three
        Stockfish-style lines on a pipe)."""
        if stats:
            raise InputError(
                "--stats and --all-depths do not run on a cluster; drop them or the cluster options"
            )
        result = self.run(board, depth, show_progress=not as_json, hash_mb=hash_mb)
        nps = nodes_per_second(result)
        if as_json:
            output.emit_json(
                {
                    "fen": board.shown_fen(),
                    "variant": board.variant,
                    "depth": depth,
                    "nodes": result.nodes,
                    "seconds": round(result.seconds, 6),
                    "nps": nps,
                    **json_fields(result),
                    "notes": board.notes,
                }
            )
        elif output.stdout_is_terminal():
            resumed = f" ({result.resumed:,} resumed)" if result.resumed else ""
            extra = [
                ("split", f"{result.positions:,} positions at depth {result.split_depth}"),
                ("tasks", f"{result.tasks:,}{resumed}"),
            ]
            perft_view.perft_table(board.shown_fen(), ident, depth, result.nodes, result.seconds, nps, extra)
        else:
            click.echo(perft_view.pipe_lines(result.nodes, result.seconds, nps))


def _warn(line: str) -> None:
    click.echo(f"{output.PROG}: warning: {line}", err=True)


def json_fields(result) -> dict:
    """What ``--json`` adds for a cluster run."""
    return {
        "tasks": result.tasks,
        "resumed": result.resumed,
        "split_depth": result.split_depth,
        "positions": result.positions,
    }


def nodes_per_second(result) -> int:
    """This run's pace: nodes it computed (not those taken from the checkpoint) per second."""
    return int(result.computed_nodes / result.seconds) if result.seconds > 0 else 0


def _positive(name: str, minimum: int):
    def convert(ctx, param, value):
        if value is None:
            return None
        number = plain_int(value)
        if number is None or number < minimum:
            raise InputError(f"bad {name} {value!r}: must be an integer >= {minimum}")
        return number

    return convert


def cluster_options(command):
    """Add the cluster options to a click command; it receives them as ``cluster``."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        values = {name: kwargs.pop(name) for name in _NAMES}
        if values["scheduler"] is not None and values["workers"] is not None:
            raise InputError(BOTH_WAYS)
        given = any(value is not None for value in values.values())
        return command(*args, cluster=ClusterOptions(**values) if given else None, **kwargs)

    options = [
        click.option(
            "--scheduler",
            metavar="tcp://HOST:PORT",
            help='Run on the Dask cluster of this scheduler (pip install "chesskit-perft[cluster]").',
        ),
        click.option(
            "--workers",
            metavar="N",
            callback=_positive("worker count", 1),
            help="Run on a local Dask cluster of N processes.",
        ),
        click.option(
            "--checkpoint",
            metavar="FILE",
            help="Record finished tasks in FILE; the same command resumes from it.",
        ),
        click.option(
            "--split-depth",
            metavar="D",
            callback=_positive("split depth", 0),
            help="Cluster runs: split the tree D plies down (default: automatic).",
        ),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


class _progress_bar:
    """A transient rich bar on stderr (terminal only): tasks, nodes, rate and ETA.

    Yields the ``progress(status)`` callback for ``run_perft``, or None when there is
    nothing to draw on."""

    def __init__(self, depth: int, options: ClusterOptions, enabled: bool):
        self._enabled = enabled and output.stderr_is_terminal()
        self._depth = depth
        if options.scheduler:
            self._waiting = f"connecting to {options.scheduler}"
        else:
            self._waiting = f"starting {options.workers or 'the'} local workers"
        self._bar = None

    def __enter__(self):
        if not self._enabled:
            return None
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[tasks]}"),
            TextColumn("{task.fields[nodes]}"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("{task.fields[eta]}"),
            console=output.console(stderr=True),
            transient=True,
        )
        self._bar.__enter__()
        self._task = self._bar.add_task(
            f"perft {self._depth}: {self._waiting}",
            total=None,
            tasks="",
            nodes="",
            rate="",
            eta="",
        )
        return self._update

    def _update(self, status) -> None:
        if status.waiting:
            self._bar.update(self._task, description=f"perft {self._depth}: waiting for workers to join")
            return
        eta = status.eta
        self._bar.update(
            self._task,
            description=f"perft {self._depth}",
            completed=status.estimate_done,
            total=max(status.estimate_total, 1),
            tasks=f"{status.done}/{status.total} tasks",
            nodes=f"{status.nodes:,} nodes",
            rate=f"{status.rate / 1e6:,.1f} Mnps" if status.rate else "",
            eta=f"ETA {_duration(eta)}" if eta is not None else "ETA -:--:--",
        )

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
