"""Dialect detection drives an engine through its public methods only (issue 25 item 7):
``probe``, ``query``, ``is_console`` and ``error``; the engine keeps what was found."""

from __future__ import annotations

import sys

import pytest

from chesskit.compare.engines import PerftEngine, detect
from chesskit.compare.engines.dialects import Answer
from chesskit.errors import EngineError
from helpers import ENGINES


class Scripted:
    """Only the public surface detection may use; answers scripted per probe verb."""

    def __init__(self, answers, console=False, late_uci=False):
        self.answers = answers
        self.is_console = console
        self.late_uci = late_uci  # taken for a console, it printed UCI's handshake later
        self.asked: list[str] = []
        self.variant = "chess"  # the rules it was started in (the probed position's)

    def uciok_wait(self):
        return 0.5, False

    @property
    def loop(self):
        return "console" if self.is_console else "uci"

    def switch_to_xboard(self):
        self.asked.append("(xboard handshake)")
        return False

    def probe(self, verb):
        self.asked.append(verb)
        return self.answers.get(verb, (Answer(), False))

    def printed_anything(self):
        return bool(self.answers)  # a scripted answer is something printed

    def error(self, message):
        return EngineError(message)


def start_divide(total=None):
    moves = ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3", "a2a4", "b2b4", "c2c4", "d2d4",
             "e2e4", "f2f4", "g2g4", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3"]
    return Answer(moves={m: 1 for m in moves}, total=total)


def test_choose_takes_the_first_probe_that_answers_with_a_divide():
    engine = Scripted({"go perft 1": (Answer(), True), "perft 1": (start_divide(20), False)})
    dialect, totals = detect.choose(engine)
    assert (dialect.name, totals) == ("uci-perft", True)
    assert engine.asked == ["go perft 1", "perft 1"]


def test_choose_falls_back_to_a_total_only_answer_and_names_what_it_heard():
    engine = Scripted({"perft 1": (Answer(total=20), False)}, console=True)
    dialect, _ = detect.choose(engine)
    assert dialect.name == "console-perft-total"
    with pytest.raises(EngineError, match="'divide 1' gave nothing"):
        detect.choose(Scripted({}, console=True))


def test_the_engine_detects_and_keeps_its_own_dialect():
    eng = PerftEngine(f"{sys.executable} {ENGINES / 'fake_perft.py'} --command divide --total none")
    try:
        assert eng.dialect_info().name == "uci-divide"
        assert eng.detected and not eng.expect_total
    finally:
        eng.close()


def test_a_console_that_printed_uci_s_handshake_late_is_named_a_slow_uci_engine():
    engine = Scripted({}, console=True, late_uci=True)
    with pytest.raises(EngineError, match=r"^did not say 'uciok' within 0.5 s of 'uci', .*give a longer --timeout$"):
        detect.choose(engine)
