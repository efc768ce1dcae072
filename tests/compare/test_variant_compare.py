"""compare and fuzz under --variant: each deliberately buggy variant adapter of
tests/engines/ (vbug_*.py) is found by `compare` (the right node, the right move, its bug
class's hint) and by `fuzz --variant` (random play in the variant); Debian's
Fairy-Stockfish (11.1) driven through `compare --variant` agrees with chesskit.

Needs the variant core (Board(variant=...)); atomic and crazyhouse need its second part."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chesskit.compare.engines import open_engine
from chesskit.fuzz.run import fuzz

# compiles variant walks: slow, one xdist group per variant (tests/conftest.py)
pytestmark = pytest.mark.variant_walk

ENGINES = Path(__file__).resolve().parents[1] / "engines"

# adapter, variant, root FEN, depth, the failing node's path, a move that differs there, hint word
BUGS = [
    ("vbug_koth_goal", "kingofthehill", "8/8/8/8/2K5/8/8/k7 w - - 0 1", 2, ["c4d5"], "a1a2", "centre square"),
    ("vbug_horde_first_rank", "horde", "4k3/8/8/8/8/8/8/P3P2P w - - 0 1", 1, [], "a1a3", "first rank"),
    ("vbug_third_check", "3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 1+3 0 1", 2, ["a1a8"], "e8e7", "three checks"),
    ("vbug_forced_capture_ep", "antichess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 1, [], "e5e6", "forced capture"),
    ("vbug_racing_last_chance", "racingkings", "8/1k3K2/8/8/8/8/8/8 w - - 0 1", 2, ["f7f8"], "b7b8", "last chance"),
    ("vbug_racing_plays_on", "racingkings", "8/5K2/1k6/8/8/8/8/8 w - - 0 1", 2, ["f7e8"], "b6a5", "cannot follow"),
    ("vbug_atomic_radius", "atomic", "8/8/8/2k5/1b6/8/8/1R2K3 w - - 0 1", 2, ["b1b4"], None, "exploded"),
    # the state check (the adapter's fen()) sees the pawns gone right after h1e4
    ("vbug_atomic_pawns", "atomic", "4k3/8/8/8/3ppp2/4n3/4P3/4K2Q w - - 0 1", 2, ["h1e4"], None, "pawn immunity"),
    ("vbug_atomic_kings_touch", "atomic", "8/8/8/3k4/8/4K3/8/8 w - - 0 1", 1, [], "e3d4", "king adjacency"),
    ("vbug_drop_last_rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", 1, [], "P@a1", "first or last rank"),
    # the state check sees the queen in black's pocket right after d8d1
    ("vbug_promoted_returns", "crazyhouse", "3rk3/8/8/8/8/8/8/3Q~K3[] b - - 0 1", 3, ["d8d1"], None, "promoted piece"),
    ("vbug_drop_into_check", "crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", 1, [], "N@e2", "does not block"),
]
FAST = {"vbug_koth_goal", "vbug_horde_first_rank"}


def _params():
    for bug in BUGS:
        marks = () if bug[0] in FAST else (pytest.mark.slow,)
        yield pytest.param(*bug, id=bug[0], marks=marks)


@pytest.mark.parametrize("name,variant,fen,depth,path,move,hint", list(_params()))
def test_compare_finds_each_variant_bug(cli, name, variant, fen, depth, path, move, hint):
    spec = f"{ENGINES / name}.py:Adapter"
    result = cli("compare", fen, str(depth), "--variant", variant, "--python", spec, "--json")
    assert result.exit_code == 1, result.output
    import json

    report = json.loads(result.stdout)
    text = json.dumps(report)
    assert hint in text
    if move is not None:
        assert move in text
    for step in path:
        assert step in text


@pytest.mark.parametrize("name,variant,fen,depth,path,move,hint", list(_params()))
def test_fuzz_finds_each_variant_bug(name, variant, fen, depth, path, move, hint):
    # a captured promoted piece's pocket shows only in the capturer's drops, at ply 3
    deep = variant == "racingkings" or depth >= 3
    with open_engine(python=f"{ENGINES / name}.py:Adapter", variant=variant, timeout=60) as engine:
        run = fuzz(engine, seed=1, depth=3 if deep else 2, max_positions=400, variant=variant)
    assert run.finding is not None, f"{run.positions} positions agreed"
    report = run.finding.report
    assert not report.agree and report.variant == variant
    assert any(hint in note.hint for note in report.notes) or report.kind == "state"


@pytest.mark.parametrize("variant", ["horde", "crazyhouse"])
def test_fuzz_of_a_960_form_runs_against_a_correct_engine(variant):
    """horde960 stopped at its first position (a Chess960 array gave the horde a king)."""
    with open_engine(python=f"{ENGINES / 'vpchelper.py'}:Adapter", variant=variant, timeout=60) as engine:
        run = fuzz(engine, seed=2, depth=2, max_positions=25, variant=variant, chess960=True)
    assert run.positions == 25 and run.finding is None and not run.crashes


FAIRY = shutil.which("fairy-stockfish") or ("/usr/games/fairy-stockfish" if Path("/usr/games/fairy-stockfish").exists() else None)


@pytest.mark.skipif(FAIRY is None, reason="Debian's fairy-stockfish is not installed (apt-get install fairy-stockfish)")
@pytest.mark.parametrize(
    "variant,fen,depth",
    [
        ("kingofthehill", "8/8/8/8/8/3K4/8/k7 w - - 0 1", 3),
        ("3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 1+3 0 1", 3),
        ("horde", "4k3/8/8/8/8/1p6/8/P7 w - - 0 1", 4),
        ("antichess", "8/P7/8/8/8/8/8/k7 w - - 0 1", 3),
    ],
)
def test_debians_fairy_stockfish_agrees_through_compare(cli, variant, fen, depth):
    result = cli("compare", fen, str(depth), "--variant", variant, "--engine", FAIRY)
    assert result.exit_code == 0, result.output


@pytest.mark.skipif(FAIRY is None, reason="Debian's fairy-stockfish is not installed")
def test_debians_old_fairy_stockfish_plays_on_after_a_racing_king_is_home(cli):
    """Fairy-Stockfish 11.1 (Debian) counts moves after black's king reached the eighth
    rank; the current release (pyffish 0.0.90) and python-chess end the game there
    (docs/variants.md, "Where the oracles disagree")."""
    result = cli("compare", "8/k7/8/8/8/8/8/7K b - - 0 1", "2", "--variant", "racingkings", "--engine", FAIRY)
    assert result.exit_code == 1
    assert "a7a8" in result.output and "eighth rank" in result.output


def test_a_start_position_that_cannot_arise_is_named_not_the_engine_blamed(cli):
    # the oracles disagree here (docs/variants.md): the report blamed the engine alone
    # ("the engine plays on"), never saying the start position cannot arise
    import json

    fen = "8/8/7k/8/4K3/8/8/8 w - - 20 10"
    spec = f"{ENGINES / 'vkoth_plays_on.py'}:Adapter"
    result = cli("compare", fen, "1", "--variant", "kingofthehill", "--python", spec, "--json")
    assert result.exit_code == 1, result.output
    notes = json.loads(result.stdout)["notes"]
    assert notes and all("cannot arise" in note["kinds"] for note in notes)
    assert all("the game ended when it arrived" in note["hint"] for note in notes)
    assert all("Where the oracles disagree" in note["hint"] for note in notes)
    text = cli("compare", fen, "1", "--variant", "kingofthehill", "--python", spec)
    assert text.exit_code == 1
    assert "a start position that cannot arise" in text.stderr
    # where the game ends in play (c4d4) the engine agrees with chesskit
    below = cli("compare", "8/8/8/8/2K5/8/8/k7 w - - 0 1", "2", "--variant", "kingofthehill", "--python", spec, "--json")
    assert below.exit_code == 0, below.output


def test_the_board_legend_names_squares_of_both_missing_and_extra_moves(cli):
    # crazyhouse's usual case: a missing P@ drop and an extra Q@ drop on each square, drawn
    # {.}, which the legend did not explain
    fen = "3rk3/8/8/8/8/8/8/3Q~K3[] b - - 0 1"
    script = str(ENGINES / "vbug_promoted_returns.py")
    result = cli("compare", fen, "3", "--variant", "crazyhouse", "--script", script)
    assert result.exit_code == 1, result.output
    assert "{.}" in result.stdout
    assert "(x) squares of missing moves, [x] of extra moves, {x} of both" in result.stdout
    only_extra = cli("compare", "8/8/8/8/2K5/8/8/k7 w - - 0 1", "2", "--variant", "kingofthehill",
                     "--python", f"{ENGINES / 'vbug_koth_goal.py'}:Adapter")
    assert only_extra.exit_code == 1
    assert "[x] of extra moves\n" in only_extra.stdout  # no {x} drawn: none in the legend


def test_reports_and_engine_errors_name_the_variant(cli):
    # the text header and an engine's failure quoted the (standard-looking) FEN alone:
    # nothing said the engine was asked for atomic
    spec = f"{ENGINES / 'vbug_koth_goal.py'}:Adapter"
    found = cli("compare", "8/8/8/8/2K5/8/8/k7 w - - 0 1", "2", "--variant", "kingofthehill", "--python", spec)
    assert found.exit_code == 1
    assert found.stdout.splitlines()[1:3] == [f"engine: {spec}", "variant: kingofthehill"]
    failing = str(ENGINES / "fail_exit.py")
    failed = cli("compare", "startpos", "2", "--variant", "atomic", "--script", failing)
    assert failed.exit_code == 3
    assert f"engine '{failing}' (in atomic) exited with code 1" in failed.stderr
    fuzzed = cli("fuzz", "--variant", "atomic", "--script", failing, "--positions", "1", "--seed", "1")
    assert fuzzed.exit_code == 3
    assert fuzzed.stdout.startswith(f"fuzz: seed 1 against {failing} in atomic, depths 1-2")
    standard = cli("compare", "startpos", "2", "--script", failing)
    assert f"engine '{failing}' exited with code 1" in standard.stderr  # standard chess: as it was


@pytest.mark.parametrize("variant", ["racingkings", "horde", "atomic"])
def test_a_correct_uci_variant_engine_is_detected(cli, variant):
    # QA 41b: the dialect probes asked the standard start position, where racing kings' game
    # is over (black's king on the eighth rank: 0 moves, pyffish's and python-chess's count):
    # a correct engine was refused with "answers no perft in its UCI loop" (exit 3)
    import json
    import sys

    engine = f"{sys.executable} {ENGINES / 'fake_uci.py'} --variants"
    result = cli("compare", "startpos", "2", "--variant", variant, "--engine", engine, "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is True and report["dialect"] == {**report["dialect"], "name": "uci-go-perft", "detected": True}
