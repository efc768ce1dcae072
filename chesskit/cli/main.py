"""The ``chesskit`` click group, run inside the signal guard and the error boundary.

Every command runs inside ``ChesskitGroup.main``: a ChesskitError, a click usage error
or Ctrl-C ends the process with one ``chesskit: <message>`` line on stderr and the
error's exit code (1 mismatch, 2 bad input, 3 engine failure, 130 interrupted; see
``cli/boundary.py``, ``cli/signals.py``). When the reader of stdout goes away
(``chesskit suite | head -1``) it stops quietly with 141.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

# chesskit never calls BLAS: numpy's OpenBLAS need not start a thread per core when it
# loads. (Where a memory limit stops that thread, OpenBLAS raises SIGINT, which would end
# the run as "interrupted" instead of out of memory.) Set before numpy loads, which the
# commands do lazily; a process that loaded numpy already keeps its own setting.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from chesskit import __version__
from chesskit.cli import boundary, repeats, signals
from chesskit.cli.output import PROG
from chesskit.errors import InputError

# every command and the module that defines it (the help lists them sorted): a command's
# module (and what it imports) loads only when that command runs or the help lists them
COMMANDS = {
    "perft": "chesskit.cli.perft_cmd",
    "divide": "chesskit.cli.perft_cmd",
    "suite": "chesskit.cli.suite_cmd",
    "show": "chesskit.cli.show_cmd",
    "bench": "chesskit.cli.bench_cmd",
    "compare": "chesskit.cli.compare_cmd",
    "debug": "chesskit.cli.debug_cmd",
    "fuzz": "chesskit.cli.fuzz_cmd",
    "explore": "chesskit.cli.explore_cmd",
}


class ChesskitGroup(click.Group):
    """A click Group whose standalone ``main`` reports errors as one line, never a traceback,
    and that imports a command's module only when the command is wanted."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str):
        if name not in COMMANDS:
            return None
        return getattr(importlib.import_module(COMMANDS[name]), name)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta["chesskit.args"] = list(rest)  # for an unknown option's line (``boundary``)
        if command is not None:
            why = repeats.conflict(command, rest, ctx.help_option_names)
            if why:
                sub = click.Context(command, info_name=name, parent=ctx)
                raise click.UsageError(why, ctx=sub)
        return name, command, rest

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as err:
            # caught here, before click turns it into Abort and prints a blank line
            raise signals.Interrupted(signals.interrupted_signal(), signals.notes_of(err)) from None
        except BrokenPipeError:
            # caught here, before click's own handler exits 1 (our "mismatch" code)
            raise boundary.OutputClosed() from None
        except click.UsageError as err:
            # click's parser raises some (an option with no value) without the command's
            # context: give them one, so the line says which command's --help to read
            name = ctx.invoked_subcommand
            if err.ctx is None and name:
                err.ctx = click.Context(self.get_command(ctx, name), info_name=name, parent=ctx)
            raise

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        if sys.stdout is None:
            # started with descriptor 1 closed (`chesskit ... >&-`): a file or pipe opened
            # later could take its number and receive the output, so nothing runs (exit 2)
            boundary.fail(InputError("stdout is closed: run chesskit with an open stdout (> /dev/null to drop it)"))
        try:
            with signals.interrupt_guard():
                code = super().main(
                    args, prog_name or PROG, complete_var, standalone_mode=False, **extra
                )
                sys.stdout.flush()  # a closed pipe shows here, inside the boundary
        except SystemExit:
            raise
        except click.UsageError as err:
            if type(err).__name__ != "NoArgsIsHelpError" or err.ctx is None:
                boundary.fail(err)
            # `chesskit` alone asks what there is: the help, as for --help
            click.echo(err.ctx.get_help())
            code = 0
        except BaseException as err:  # noqa: BLE001 - this is the boundary
            boundary.fail(err)
        # with standalone_mode=False click returns the command's value, or the code of
        # ctx.exit() (--help, --version); commands return None
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=ChesskitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="chesskit")
def main() -> None:
    """Perft and move-generator debugging toolkit for chess programmers.

    POSITION arguments take a quoted FEN, 'startpos', or a suite id such as 'kiwipete'.
    Exit codes: 0 ok, 1 count mismatch, 2 bad input, 3 engine failure, 4 out of memory,
    70 a bug in chesskit, 130 interrupted (Ctrl-C; 143 SIGTERM, 129 SIGHUP), 141 stdout
    closed early; --bisect 125 (docs/exit-codes.md).
    """

