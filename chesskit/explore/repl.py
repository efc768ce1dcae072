"""The line-mode explorer (``chesskit explore --repl``, and whenever stdin or stdout is not
a terminal): perftree's commands over the shared ``Explorer`` state, one per line.

    fen [POSITION]    the FEN here; with a FEN or suite id, start again from it
    moves [MOVES]     the moves from the root; with moves (UCI or SAN), stand after them
    depth [N]         the depth here; with N, set it
    go                divide here: chesskit's counts, the engine's beside them, differences marked
    diff              only the rows that differ (and the totals)
    child MOVE        play MOVE (UCI or SAN) and stand below it, one ply shallower
    parent            take the last move back
    root              back to the root
    auto              compare's automatic descent from here; stand at the node it ends on
                      and show its differing rows
    counters [MOVE]   chesskit's CPW counters below MOVE, or below every move
    board             the board and its state
    help              this list
    quit, exit, q     end the session (so does the end of the input, Ctrl-D)

Ctrl-C while go, diff, auto or counters counts stops that count (an engine's process too)
and the prompt comes back; Ctrl-C at the prompt ends the session (exit 130).

Output goes to ``out``; a command that fails prints one ``chesskit: ...`` line to ``err``
and the next command runs. ``run`` returns 0, or the exit code of the last command that
failed (2 bad input, 3 the engine failed). A count runs on a daemon thread while the
prompt waits; ``interruptible(event)`` (a context manager) makes Ctrl-C set ``event``
while it waits, which cancels the count (without it, a KeyboardInterrupt does).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Callable, TextIO

from chesskit.errors import ChesskitError, InputError
from chesskit.explore.state import Cancelled, Explorer
from chesskit.explore.text import breadcrumb, divide_lines, finding_lines
from chesskit.suites.positions import move_words
from chesskit.typed import plain_int

PROMPT = "explore> "
QUIT = ("quit", "exit", "q")


class Repl:
    """Reads commands and runs them on ``explorer``.

    ``load_position(text)`` gives ``(board, position_fen)`` for ``fen POSITION``;
    ``describe(board)`` the lines of the ``board`` command."""

    def __init__(
        self,
        explorer: Explorer,
        load_position: Callable[[str], tuple],
        describe: Callable[[object], list[str]],
        out: TextIO,
        err: TextIO,
        prompt: bool = False,
        interruptible: Callable[[threading.Event], contextlib.AbstractContextManager] | None = None,
    ):
        self.ex = explorer
        self.interruptible = interruptible
        self.load_position = load_position
        self.describe = describe
        self.out, self.err = out, err
        self.prompt = prompt
        self.commands = {
            "fen": self.fen,
            "moves": self.moves,
            "depth": self.depth,
            "go": self.go,
            "diff": self.diff,
            "child": self.child,
            "parent": self.parent,
            "root": self.root,
            "auto": self.auto,
            "counters": self.counters,
            "board": self.board,
            "help": self.help,
        }

    def run(self, lines) -> int:
        code = 0
        self._prompt()
        for line in lines:
            words = line.split()
            if words and words[0].lower() in QUIT:
                break
            if words:
                try:
                    self.execute(words[0], line.strip()[len(words[0]):].strip())
                except ChesskitError as err:
                    self.err.write(f"chesskit: {err}\n")
                    self.err.flush()
                    code = err.exit_code
                except Cancelled:
                    self.out.flush()
                    self.err.write(f"chesskit: {words[0]} cancelled (Ctrl-C)\n")
                    self.err.flush()
            self._prompt()
        return code

    def _prompt(self) -> None:
        if self.prompt:
            self.out.write(PROMPT)
        self.out.flush()

    def execute(self, command: str, rest: str) -> None:
        action = self.commands.get(command.lower())
        if action is None:
            raise InputError(f"unknown command {command!r}: one of {', '.join(self.commands)}, quit")
        action(rest)

    def _count(self, work: Callable[[threading.Event], object]):
        """``work(cancel)`` (a count on the Explorer) on a daemon thread, the prompt waiting
        for it; Ctrl-C cancels it (Cancelled): its thread stops at its next report, an
        engine's process at once, and a compiled walk still running never holds up the exit."""
        cancel = threading.Event()
        done: dict = {}

        def thread() -> None:
            try:
                done["result"] = work(cancel)
            except BaseException as err:  # noqa: BLE001 - raised again on the prompt's thread
                done["error"] = err

        counting = threading.Thread(target=thread, name="chesskit-explore", daemon=True)
        with self.interruptible(cancel) if self.interruptible else contextlib.nullcontext():
            counting.start()
            try:
                while counting.is_alive() and not cancel.is_set():
                    counting.join(0.05)
            except KeyboardInterrupt:
                cancel.set()
        if not done:  # cancelled before it ended
            cancel.set()
            self.ex.abort_engine()
            raise Cancelled()
        if "error" in done:
            raise done["error"]
        return done["result"]

    def say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")

    # ------------------------------------------------------------ perftree's commands

    def fen(self, rest: str) -> None:
        if rest:
            board, position_fen = self.load_position(rest)
            self.ex.set_root(board, position_fen)
        self.say(self.ex.fen())

    def moves(self, rest: str) -> None:
        if rest:
            self.ex.set_path(move_words(rest))
        self.say(" ".join(self.ex.path))

    def depth(self, rest: str) -> None:
        if rest:
            value = plain_int(rest)  # not an integer: the explorer's own message (set_depth's)
            self.ex.set_depth(rest if value is None else value)
        self.say(str(self.ex.depth))

    def go(self, rest: str = "", only_marked: bool = False) -> None:
        node = self.ex.node
        divide = self._count(lambda cancel: self.ex.divide(node, cancel=cancel))
        self.say(f"depth {self.ex.depth}  {divide.fen}")
        if only_marked and divide.agree:
            self.say("no differences")
        else:
            self.say(*divide_lines(divide, self.ex.engine_name if self.ex.has_engine else None, only_marked))
        self.out.flush()
        if divide.engine_error:
            from chesskit.errors import EngineError

            raise EngineError(divide.engine_error)

    def diff(self, rest: str) -> None:
        if not self.ex.has_engine:
            raise InputError("no engine to compare with: start explore with --engine, --script, --python or --engine-cmd")
        self.go(only_marked=True)

    def child(self, rest: str) -> None:
        if not rest:
            raise InputError("child needs a move, e.g. child e2e4")
        self.ex.child(rest)
        self._where()

    def parent(self, rest: str) -> None:
        if self.ex.parent() is None:
            raise InputError("already at the root")
        self._where()

    def root(self, rest: str) -> None:
        while self.ex.parent() is not None:
            pass
        self._where()

    def _where(self) -> None:
        self.say(f"{breadcrumb(self.ex.breadcrumb())}  depth {self.ex.depth}")

    # ------------------------------------------------------------ beyond perftree

    def auto(self, rest: str) -> None:
        node = self.ex.node
        report = self._count(lambda cancel: self.ex.descend(node, cancel=cancel))
        self.say(*finding_lines(report))
        if not report.agree:
            self.ex.land(report)
            self._where()
            self.go(only_marked=True)  # where it differs; `go` shows the whole divide

    def counters(self, rest: str) -> None:
        from chesskit.board.counters import counter_names

        node = self.ex.node
        rows = self._count(lambda cancel: self.ex.counters(node, cancel))
        if rest:
            move = self.ex.resolve(rest)
            rows = {move: rows[move]}
        names = list(next(iter(rows.values()))) if rows else counter_names(self.ex.board())  # a variant's own counters
        self.say("move   " + " ".join(names))
        for move, row in sorted(rows.items()):
            self.say(f"{move:6} " + " ".join(str(row[name]) for name in names))

    def board(self, rest: str) -> None:
        self.say(*self.describe(self.ex.board()))

    def help(self, rest: str) -> None:
        commands, keys = __doc__.split("\n\n")[1:3]
        self.say(*[line[4:] for line in commands.splitlines()], "", *keys.splitlines())
