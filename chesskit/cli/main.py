"""The ``chesskit`` click group and its error boundary.

Every command runs inside ``ChesskitGroup.main``: a ChesskitError, a click usage error
or Ctrl-C ends the process with one ``chesskit: <message>`` line on stderr and the
error's exit code (1 mismatch, 2 bad input, 3 engine failure, 130 interrupted). When
the reader of stdout goes away (``chesskit suite | head -1``) it stops quietly with 141.
"""

from __future__ import annotations

import sys

import click

from chesskit import __version__
from chesskit.cli import output
from chesskit.cli.bench_cmd import bench
from chesskit.cli.compare_cmd import compare
from chesskit.cli.debug_cmd import debug
from chesskit.cli.fuzz_cmd import fuzz
from chesskit.cli.perft_cmd import divide, perft
from chesskit.cli.show_cmd import show
from chesskit.cli.suite_cmd import suite


class ChesskitGroup(click.Group):
    """A click Group whose standalone ``main`` reports errors as one line, never a traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # caught here, before click turns it into Abort and prints a blank line
            raise output.Interrupted() from None
        except BrokenPipeError:
            # caught here, before click's own handler exits 1 (our "mismatch" code)
            raise output.OutputClosed() from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            with output.interrupt_guard():
                code = super().main(
                    args, prog_name or output.PROG, complete_var, standalone_mode=False, **extra
                )
                sys.stdout.flush()  # a closed pipe shows here, inside the boundary
        except SystemExit:
            raise
        except click.UsageError as err:
            if type(err).__name__ != "NoArgsIsHelpError" or err.ctx is None:
                output.fail(err)
            # `chesskit` alone asks what there is: the help, as for --help
            click.echo(err.ctx.get_help())
            code = 0
        except BaseException as err:  # noqa: BLE001 - this is the boundary
            output.fail(err)
        # with standalone_mode=False click returns the command's value, or the code of
        # ctx.exit() (--help, --version); commands return None
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=ChesskitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="chesskit")
def main() -> None:
    """Perft and move-generator debugging toolkit for chess programmers.

    POSITION arguments take a quoted FEN, 'startpos', or a suite id such as 'kiwipete'.
    Exit codes: 0 ok, 1 count mismatch, 2 bad input, 3 engine failure.
    """


main.add_command(perft)
main.add_command(divide)
main.add_command(suite)
main.add_command(show)
main.add_command(bench)
main.add_command(compare)
main.add_command(debug)
main.add_command(fuzz)
