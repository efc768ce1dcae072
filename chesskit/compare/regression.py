"""What a mismatch leaves behind: a suite line and a pytest test that keep the bug fixed.

Every mismatch that ``suite``, ``compare`` and ``fuzz`` report carries a ``Regression``:
the failing node, its depth there and the right count at that depth, written as

* a line of the suite format (``docs/suite-formats.md``), ready to paste into the engine's
  own suite file::

      8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 id "pos3-after-e2e4"; D1 16;

* and a pytest test that asks the engine for that count (``chesskit.Engine``)::

      import chesskit


      def test_perft_pos3_after_e2e4():
          with chesskit.Engine(script="tests/engines/bug_ep_rank_pin.py") as engine:
              assert engine.perft("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1", 1) == 16

The failing node of a descent (``from_report``) is the deepest node whose counts differ,
chesskit's against the engine's: the node where the move lists differ when its totals
differ too, else its parent (an engine that counts a node right when asked about it but
wrong when it reaches it by make/unmake fails at the parent); and of those, the deepest
whose FEN alone still makes the engine count wrong (``descent.reproducing_step``: a bug
that needs the moves played to reach it is kept by a shallower node's line), at depth 1
where that node's move lists differ and the engine's move count there is wrong when asked
alone (``descent.reproducing_depth``). The count is chesskit's,
the sum of chesskit's divide there (chesskit is checked against independent oracles; an
engine run where chesskit agrees with the engine has no line: the suite's count is the one
in doubt). A state mismatch whose counts all agree has no line either: no count catches it.
``for_count`` is the line of a suite count that chesskit itself gets wrong: the suite's
expected count, from an independent source, at that depth.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from chesskit.board.fen import shown_fen, shredder_fen

DEFAULT_ENGINE = 'chesskit.Engine("./myengine")'


@dataclass(frozen=True)
class Regression:
    """A failing node and the right count there, as a suite line and a pytest test."""

    fen: str  # the node, all six FEN fields
    chess960: bool
    depth: int
    nodes: int  # the right count at ``depth``
    id: str
    # what the test opens the engine with (``chesskit.Engine(...)``); None: chesskit's own count
    engine_call: str | None = DEFAULT_ENGINE
    variant: str = "chess"  # the rules (a canonical name of chesskit.variants)

    @property
    def line(self) -> str:
        return suite_line(self.fen, self.chess960, self.id, {self.depth: self.nodes}, self.variant)

    @property
    def pytest(self) -> str:
        name = "test_perft_" + re.sub(r"\W+", "_", self.id).strip("_").lower()
        # Chess960 only where it can change a count: with a castling right
        flag = ", chess960=True" if self.chess960 and self.fen.split()[2] != "-" else ""
        rules = "" if self.variant == "chess" else f", variant={json.dumps(self.variant)}"
        fen = json.dumps(shown_fen(self.fen, self.chess960, self.variant))  # Chess960: Shredder-FEN
        if self.engine_call is None:
            body = [f"    assert chesskit.perft({fen}, {self.depth}{flag}{rules}) == {self.nodes}"]
        else:
            call = self.engine_call
            if rules and "variant=" not in call and call.endswith(")"):
                call = call[:-1] + rules + ")"
            body = [
                f"    with {call} as engine:",
                f"        assert engine.perft({fen}, {self.depth}{flag}) == {self.nodes}",
            ]
        return "\n".join(["import chesskit", "", "", f"def {name}():", *body]) + "\n"

    def to_json(self) -> dict:
        return {
            "line": self.line,
            "pytest": self.pytest,
            "id": self.id,
            "fen": shown_fen(self.fen, self.chess960, self.variant),
            "depth": self.depth,
            "nodes": self.nodes,
        }

    @property
    def perft_block(self) -> str:
        """The same count as a block of a ``.perft`` file (python-chess's format), where an
        EPD line is no line: ``id``, ``epd`` (the position and any variant or clocks) and
        ``perft DEPTH COUNT``."""
        return "".join(f"{line}\n" for line in perft_block(self.fen, self.chess960, self.id, {self.depth: self.nodes}, self.variant))

    def text_lines(self, perft: bool = False) -> list[str]:
        """The plain text: the suite line (``perft``: the ``.perft`` block, for a mismatch in
        such a file) and the test, indented under their headings."""
        if perft:
            pasted = ["regression block (paste into your .perft suite):", *(f"  {x}" for x in self.perft_block.splitlines())]
        else:
            pasted = ["regression line (paste into your suite):", f"  {self.line}"]
        return [
            *pasted,
            "pytest:",
            *(f"  {line}" if line else "" for line in self.pytest.splitlines()),
        ]


def suite_line(
    fen: str, chess960: bool, ident: str | None, counts: dict[int, int], variant: str = "chess", named: bool = False
) -> str:
    """``fen`` as a line of the bundled EPD format: the four FEN fields, ``id``, the clocks
    when they are not 0 and 1, a ``D<n>`` per count. A Chess960 position's castling field is
    written in Shredder-FEN, so that any suite file reads it as Chess960. A variant's line
    names it (``variant atomic``), standard chess's only with ``named`` (``variant chess``:
    a line for a file whose name or ``variant`` line gives other rules); three-check's
    counters follow the four fields."""
    fields = (shredder_fen(fen, variant) if chess960 else fen).split()
    checks = [f for f in fields[4:] if "+" in f]
    fields = [f for f in fields if "+" not in f or f in fields[:4]]
    ops = ([] if ident is None else [f'id "{ident}"']) + ([] if variant == "chess" and not named else [f"variant {variant}"])
    halfmove, fullmove = (fields[4], fields[5]) if len(fields) == 6 else ("0", "1")
    if (halfmove, fullmove) != ("0", "1"):
        ops += [f"hmvc {halfmove}", f"fmvn {fullmove}"]
    ops += [f"D{depth} {count}" for depth, count in sorted(counts.items())]
    position = " ".join(fields[:4] + checks)
    return f"{position} {'; '.join(ops)};" if ops else position


def perft_block(
    fen: str, chess960: bool, ident: str, counts: dict[int, int], variant: str = "chess", named: bool = False
) -> list[str]:
    """``suite_line``'s position and counts as the lines of a ``.perft`` block (python-chess's
    format): ``id``, ``epd`` (the position, and any variant or clocks as ``suite_line``
    writes them) and a ``perft DEPTH COUNT`` line per depth."""
    epd = suite_line(fen, chess960, None, {}, variant, named)
    return [f"id {ident}", f"epd {epd}", *(f"perft {depth} {count}" for depth, count in sorted(counts.items()))]


def node_id(base: str, path: list[str]) -> str:
    """An id for the node ``path`` below ``base``: ``pos3-after-e2e4``, made of
    ``[a-z0-9-]`` as the bundled ids are."""
    text = base if not path else f"{base}-after-{'-'.join(path)}"
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "regression"


def from_report(report, base_id: str, engine_call: str | None = DEFAULT_ENGINE) -> Regression | None:
    """The regression of a descent's ``Report`` (see the module's docstring), or None when
    the engine agrees or no node's counts differ. ``base_id`` names the report's position."""
    if report.agree:
        return None
    chosen = getattr(report, "regression_step", None)
    steps = report.steps if chosen is None else report.steps[: chosen + 1]
    for step in reversed(steps):
        ours = sum(step.ours.values())
        if ours != step.engine_total():
            variant = getattr(report, "variant", "chess")
            fen = _node_fen(report.position_fen, report.chess960, step.path, variant)
            ident = node_id(base_id, step.path)
            if chosen is not None and step is report.steps[chosen] and getattr(report, "regression_depth", None) == 1:
                return Regression(fen, report.chess960, 1, len(step.ours), ident, engine_call, variant)
            return Regression(fen, report.chess960, step.depth, ours, ident, engine_call, variant)
    return None


def for_count(fen: str, chess960: bool, depth: int, expected: int, ident: str, variant: str = "chess") -> Regression:
    """The regression of a suite count chesskit itself gets wrong: the suite's count."""
    return Regression(fen, chess960, depth, expected, node_id(ident, []), None, variant)


def _node_fen(position_fen: str, chess960: bool, path: list[str], variant: str = "chess") -> str:
    from chesskit.compare.engines.base import node_board

    return node_board(position_fen, path, chess960, variant).fen()
