"""``chesskit bench``: the fixed perft workload, raced against Stockfish and python-chess."""

from __future__ import annotations

import click

from chesskit.cli import output
from chesskit.cli.engine_options import parse_timeout
from chesskit.cli.options import json_option, variant_option, variant_rules
from chesskit.errors import InputError
from chesskit.variants import find


@click.command()
@click.option(
    "--vs",
    "vs",
    multiple=True,
    type=click.Choice(["stockfish", "python-chess", "ellxor"]),
    help="Also run this program on the same work, back to back, and print the ratio (repeatable). "
    "ellxor takes the path of its binary as the argument PATH.",
)
@click.option("--repeat", default=1, show_default=True, type=click.IntRange(1, 20), help="Best of N runs each.")
@click.option(
    "--depth-offset",
    default=0,
    show_default=True,
    type=click.IntRange(-6, 2),
    help="Add this to every depth of the workload (negative for a quick run; a depth it takes "
    "below 1 runs at 1, and a note on stderr names those positions).",
)
@click.option("--hash", "hash_mb", default=None, show_default="0", type=click.IntRange(0, 65536), help="Hash table MiB.")
@click.option("--threads", default=None, show_default="1", type=click.IntRange(1, 1024), help="Threads.")
@click.option(
    "--timeout",
    metavar="SECONDS",
    help="Give up on ellxor when one run takes longer than this "
    "  [default: 30, or 30 times chesskit's own time on that position when longer]",
)
@click.option(
    "--device",
    type=click.Choice(["cpu", "gpu"]),
    default="cpu",
    show_default=True,
    help="Count on the CPU, or on an NVIDIA GPU with numba-cuda (--hash and --threads are the CPU's).",
)
@variant_option
@click.argument("path", required=False)
@json_option
def bench(vs, repeat, depth_offset, hash_mb, threads, timeout, device, variant, as_json, path) -> None:
    """Perft of the six standard positions: nodes, seconds and Mnps per position
    (--variant NAME: of that variant's start position).

    By default single-threaded with no hash table, the conditions of Stockfish's own
    `go perft`. With --vs the other program runs the same positions back to back, and
    the ratio is chesskit's nodes/second over theirs.

    `--vs ellxor PATH` races ellxor/perft, the fast C++ perft without a table, built from
    its source (its README says how). Pin the run to one core for a fair single-core
    ratio: `taskset -c 0 chesskit bench --vs ellxor PATH --repeat 3`.
    """
    from chesskit.suites.bench import WORKLOAD, raised_to_1, run_bench, totals, variant_workload

    from chesskit.board.tablesize import check_request

    limit = None if timeout is None else parse_timeout(timeout)
    shown, hash_mb, threads = _walk_settings(device, hash_mb, threads)
    check_request(hash_mb)  # more than the memory available is refused (exit 2)
    rules = variant_rules(variant)
    named, chess960 = find(variant)
    if chess960:  # the shared --variant help offers 960 forms, and bench has no --chess960 flag
        give = "no --variant" if named.name == "chess" else f"--variant {named.name}"
        raise InputError(f"bench --variant {variant}: bench counts the variant's start position, "
                         f"which has no Chess960 form; give {give}")
    workload = variant_workload(variant) if rules else WORKLOAD
    with output.progress(len(workload), "bench") as advance:
        rows = run_bench(
            vs=tuple(dict.fromkeys(vs)),
            depth_offset=depth_offset,
            repeat=repeat,
            hash_mb=hash_mb,
            threads=threads,
            on_row=lambda row: advance(1),
            ellxor=path,
            timeout=limit,
            device=device,
            **rules,
        )
    _note_raised(raised_to_1(workload, depth_offset), depth_offset)
    _note_timeless(rows)
    summary = totals(rows)
    if as_json:
        output.emit_json(
            {**shown, "repeat": repeat,
             "positions": [r.as_dict() for r in rows], "total": summary,
             **({"variant": named.name} if rules else {})}  # as perft's: a variant only
        )
        return
    # a variant's rows say it in a last column (the rich table in its title)
    played = [named.name] if rules else []
    names = [n for n in ("stockfish", "python-chess", "ellxor") if rows and n in rows[0].theirs]
    if output.stdout_is_terminal():
        from rich.table import Table

        walk = "on the GPU" if device == "gpu" else f"threads {threads}, hash {hash_mb} MiB"
        table = Table(title=f"chesskit bench{''.join(f' {v}' for v in played)} ({walk}, best of {repeat})")
        for col in ["position", "depth", "nodes", "seconds", "Mnps"] + [f"x {n}" for n in names]:
            table.add_column(col, justify="left" if col == "position" else "right")
        for r in rows:
            table.add_row(r.id, str(r.depth), f"{r.ours.nodes:,}", f"{r.ours.seconds:.3f}",
                          f"{r.ours.nps / 1e6:.1f}", *[_ratio(r.ratio(n)) for n in names])
        table.add_row("total", "", f"{summary['nodes']:,}", f"{summary['seconds']:.3f}", f"{summary['mnps']:.1f}",
                      *[_ratio(summary[n]['ratio']) for n in names], style="bold")
        output.console().print(table)
    else:
        header = ["position", "depth", "nodes", "seconds", "mnps"] + [f"x_{n}" for n in names] + ["variant"] * bool(played)
        click.echo(" ".join(header))
        for r in rows:
            click.echo(" ".join([r.id, str(r.depth), str(r.ours.nodes), f"{r.ours.seconds:.3f}",
                                 f"{r.ours.nps / 1e6:.1f}", *[_ratio(r.ratio(n)) for n in names], *played]))
        click.echo(" ".join(["total", "-", str(summary["nodes"]), f"{summary['seconds']:.3f}",
                             f"{summary['mnps']:.1f}", *[_ratio(summary[n]['ratio']) for n in names], *played]))


def _walk_settings(device: str, hash_mb: int | None, threads: int | None) -> tuple[dict, int, int]:
    """(the JSON's ``hash_mb`` and ``threads``, the table's MiB, the threads): on the GPU
    (its own table and threads) null, and ``--hash`` or ``--threads`` refused as perft's are
    (exit 2: QA 42a found them taken and reported as if used)."""
    if device == "gpu":
        from chesskit.cli import gpu_run

        gpu_run.refuse(hash=hash_mb is not None, threads=threads is not None)
        return {"hash_mb": None, "threads": None}, 0, 1
    return {"hash_mb": hash_mb or 0, "threads": threads or 1}, hash_mb or 0, threads or 1


def _ratio(value: float | None) -> str:
    """A ratio as the table shows it; "-" where a time of 0 gives none."""
    return "-" if value is None else f"{value:.2f}"


def _note_timeless(rows) -> None:
    """One stderr line where a program's time was 0 (no rate, no ratio: "-")."""
    found = [(r.id, name) for r in rows for name in r.timeless()]
    if found:
        where = ", ".join(f"{name} on {ident}" for ident, name in found[:4]) + (" ..." if len(found) > 4 else "")
        click.echo(f"chesskit: note: a time of 0 s (below its timer's resolution: ellxor's counts milliseconds) for "
                   f"{where}: no ratio there; a larger --depth-offset gives one", err=True)


def _note_raised(raised: list[str], depth_offset: int) -> None:
    """One stderr line naming the positions ``--depth-offset`` took below depth 1 (run at 1)."""
    if raised:
        names = ", ".join(raised[:-1]) + " and " + raised[-1] if len(raised) > 1 else raised[0]
        click.echo(f"{output.PROG}: note: --depth-offset {depth_offset} takes {names} below depth 1: "
                   f"{'they run' if len(raised) > 1 else 'it runs'} at depth 1", err=True)
