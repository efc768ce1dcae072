"""``compare`` and ``suite --engine`` with any engine's perft: the real Ethereal (total-only
`perft N` in its UCI loop) and Fairy-Stockfish (`go perft`), fake engines of every dialect,
one-shot command lines.  Expected counts come from python-chess."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import chess
import pytest

from helpers import BEFORE_EP, ENGINES, FAKE_UCI, KIWIPETE, missing, one_line, pc_perft

PY = sys.executable
FAKE = f"{PY} {ENGINES / 'fake_perft.py'}"
C960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
QUIET = "4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def debian_engine(name: str) -> str:
    """A Debian engine (installed in /usr/games); skipped locally, a failure in CI."""
    path = shutil.which(name) or (f"/usr/games/{name}" if os.access(f"/usr/games/{name}", os.X_OK) else None)
    if path is None:
        missing(f"{name} on PATH or in /usr/games", f"Debian: apt-get install {name}")
    return path


def epd(tmp_path: Path, rows: list[tuple[str, str, int]], wrong: dict[str, int] | None = None) -> Path:
    lines = []
    for ident, fen, depth in rows:
        counts = {d: pc_perft(chess.Board(fen), d) for d in range(1, depth + 1)}
        if wrong and ident in wrong:
            counts[depth] = wrong[ident]
        ops = " ".join(f"D{d} {n};" for d, n in counts.items())
        lines.append(f'{" ".join(fen.split()[:4])} id "{ident}"; {ops}')
    path = tmp_path / "mine.epd"
    path.write_text("\n".join(lines) + "\n")
    return path


ROWS = [("quiet", QUIET, 2), ("before-ep", BEFORE_EP, 3), ("kiwipete", KIWIPETE, 2)]


# ------------------------------------------------------------------ the real engines


@pytest.mark.parametrize(
    "name, dialect",
    [("ethereal-chess", "uci-perft-total"), ("fairy-stockfish", "uci-go-perft")],
)
def test_real_engine_compare_agrees(cli, name, dialect):
    engine = debian_engine(name)
    # --timeout 5: detection waits the whole --timeout on each probe Ethereal leaves
    # unanswered (`divide 1`), 30 s by default; its answers come in milliseconds
    result = cli("compare", "kiwipete", "3", "--engine", engine, "--json", "--timeout", "5")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is True
    assert report["dialect"]["name"] == dialect and report["dialect"]["detected"] is True
    # the engine's count is python-chess's
    step = report["steps"][0]
    theirs = step["theirs_total"] if dialect.endswith("total") else sum(step["theirs"].values())
    assert theirs == sum(step["ours"].values()) == pc_perft(chess.Board(KIWIPETE), 3) == 97862

    result = cli("compare", C960, "2", "--engine", engine, "--moves", "a3a4", "--timeout", "5")
    assert result.exit_code == 0, result.stderr
    if dialect == "uci-go-perft":  # what chesskit always spoke: the output stays as it was
        assert result.stderr == ""
    else:
        said = [line for line in result.stderr.splitlines() if "finding the engine's dialect took" not in line]  # a slow host's
        assert said == [f"chesskit: engine dialect {dialect} (detected): bare 'perft N' in the UCI loop, total only"], result.stderr
    assert result.stdout.startswith("agree: ")


@pytest.mark.parametrize("name", ["ethereal-chess", "fairy-stockfish"])
def test_real_engine_suite_agrees(cli, tmp_path, name):
    engine = debian_engine(name)
    # --timeout 5: the probes Ethereal leaves unanswered wait the whole of it (30 s by default)
    result = cli("suite", str(epd(tmp_path, ROWS)), "--engine", engine, "--json", "--timeout", "5")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failed"] == 0 and data["passed"] == 7
    assert data["dialect"]["name"] in ("uci-perft-total", "uci-go-perft")


def test_ethereal_named_dialect(cli):
    engine = debian_engine("ethereal-chess")
    result = cli("compare", "startpos", "3", "--engine", engine, "--dialect", "uci-perft-total", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["dialect"] == {
        "name": "uci-perft-total",
        "moves": None,
        "total_only": True,
        "notation": None,
        "detected": False,
    }


def test_ethereal_given_a_divide_dialect_fails_at_once_naming_its_own(cli):
    """Ethereal answers `perft N` with a bare total: named uci-perft, the run waited out the
    whole --timeout and said it "did not answer"; it fails at once now, naming the dialect."""
    import time

    engine = debian_engine("ethereal-chess")
    start = time.monotonic()
    result = cli("compare", "startpos", "3", "--engine", engine, "--dialect", "uci-perft", "--timeout", "60")
    assert time.monotonic() - start < 30
    moves = len(list(chess.Board().legal_moves))
    one_line(result, 3, "ethereal-chess", f"a total of {moves} and no divide lines", "uci-perft-total")


# ------------------------------------------------------------------ fake engines through the CLI


def test_total_only_bug_through_compare(cli):
    engine = f"{FAKE} --total-only --total bare --bug no_ep"
    result = cli("compare", BEFORE_EP, "3", "--engine", engine, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert (report["kind"], report["path"], report["missing"], report["extra"]) == ("moves", ["f7f5"], ["e5f6"], [])
    assert report["total_only"] is True and report["inferred"] is True
    assert report["move_counts"] == {"chesskit": 31, "engine": 30}
    assert [n["kinds"] for n in report["notes"]] == [["capture", "en passant"]]
    assert report["dialect"]["name"] == "uci-perft-total"

    result = cli("compare", BEFORE_EP, "3", "--engine", engine)
    assert result.exit_code == 1
    assert "move count here: chesskit 31, engine 30 (it answers with totals only)" in result.stdout
    assert "the missing moves are inferred" in result.stdout
    lines = result.stderr.splitlines()
    assert lines[0].startswith("chesskit: engine dialect uci-perft-total (detected): bare 'perft N' in the UCI loop")
    assert "misses e5f6 (inferred from its totals) after f7f5" in lines[1]


def test_compare_json_names_the_dialect_that_answered(cli):
    """Sjaak II (the fake, its c960_adjacent bug) is found dividing in xboard, which has no
    Chess960: a Chess960 position is answered in its UCI loop's totals. ``dialect`` stays
    the start-up one; ``dialect_answered`` names the one that answered (none did before)."""
    sjaak = f"{sys.executable} {ENGINES / 'fake_xboard.py'} --format sjaak --uci --uci960 --bug c960_adjacent"
    result = cli("compare", "4k3/8/8/8/8/8/8/5KRn w G - 0 1", "2", "--chess960", "--engine", sjaak, "--json")
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["dialect"]["name"] == "xboard-perft-split"
    assert report["dialect_answered"] == {
        "name": "uci-perft-total", "moves": None, "total_only": True, "notation": None, "detected": True,
    }
    # a standard position stays in the start-up dialect: both keys say it
    report = json.loads(cli("compare", "startpos", "2", "--engine", sjaak, "--json").stdout)
    assert report["dialect_answered"] == report["dialect"] and report["dialect"]["name"] == "xboard-perft-split"


def test_suite_json_names_the_dialect_that_answered(cli, tmp_path):
    """``suite --json`` has compare's ``dialect_answered`` beside ``dialect``: Sjaak II (the
    fake) found dividing in xboard answers a Chess960 position in its UCI loop's totals, and
    keeps to them for the rest of the run; a run of standard positions stays in xboard."""
    sjaak = f"{sys.executable} {ENGINES / 'fake_xboard.py'} --format sjaak --uci --uci960"
    (tmp_path / "std").mkdir()
    suite = tmp_path / "mine.epd"  # the Chess960 counts: python-chess, chess960=True
    suite.write_text('4k3/8/8/8/8/8/8/5KRn w G - id "adj"; D1 12; D2 73;\n')
    result = cli("suite", str(epd(tmp_path / "std", [("std", chess.STARTING_FEN, 2)])), str(suite), "--engine", sjaak, "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["dialect"]["name"] == "xboard-perft-split"
    assert report["dialect_answered"] == {
        "name": "uci-perft-total", "moves": None, "total_only": True, "notation": None, "detected": True,
    }
    result = cli("suite", str(tmp_path / "std" / "mine.epd"), "--engine", sjaak, "--json")
    report = json.loads(result.stdout)
    assert report["dialect_answered"] == report["dialect"] and report["dialect"]["name"] == "xboard-perft-split"


def test_suite_json_compare_is_compares_object(cli, tmp_path):
    """A failing position's ``"compare"`` in ``suite --json`` is compare's object: the keys
    ``compare --json`` prints for the same engine and position, with the same dialects
    (Sjaak II's fake answers the Chess960 position in its UCI loop's totals)."""
    sjaak = f"{sys.executable} {ENGINES / 'fake_xboard.py'} --format sjaak --uci --uci960 --bug c960_adjacent"
    fen = "4k3/8/8/8/8/8/8/5KRn w G - 0 1"
    suite = tmp_path / "mine.epd"  # the counts: python-chess, chess960=True
    suite.write_text(f'{fen} id "adj"; D1 12; D2 73;\n')
    result = cli("suite", str(suite), "--engine", sjaak, "--json")
    assert result.exit_code == 1, result.stderr
    inside = next(r["compare"] for r in json.loads(result.stdout)["results"] if "compare" in r)
    alone = json.loads(cli("compare", fen, "1", "--chess960", "--engine", sjaak, "--json").stdout)
    assert set(alone) <= set(inside), set(alone) - set(inside)
    for key in ("dialect", "dialect_answered", "castling_spelling", "position_notes"):
        assert inside[key] == alone[key], key
    assert inside["dialect_answered"]["name"] == "uci-perft-total"
    assert inside["regression"]["id"] == "adj" and inside["regression"]["depth"] == 1


def test_total_only_unnamed_moves_through_compare(cli):
    result = cli("compare", "8/8/P7/8/8/8/8/k6K w - - 0 1", "3", "--engine", f"{FAKE} --loop console --total-only --bug queen_promo_only")
    assert result.exit_code == 1
    assert "the engine misses 3 move(s); its totals cannot tell which" in result.stdout
    assert "misses 3 moves its totals cannot name after a6a7 a1b1" in result.stderr


def test_san_console_bug_through_suite(cli, tmp_path):
    engine = f"{FAKE} --loop console --san --line dash --total perft --bug no_ep"
    result = cli("suite", str(epd(tmp_path, ROWS)), "--engine", engine, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["dialect"]["name"] == "console-perft" and data["dialect"]["moves"] == "san"
    failing = {(r["id"], r["depth"]) for r in data["results"] if not r["ok"]}
    assert failing == {("before-ep", 2), ("before-ep", 3), ("kiwipete", 2)}
    first = next(r for r in data["results"] if not r["ok"])
    assert first["compare"]["path"] == ["f7f5"] and first["compare"]["missing"] == ["e5f6"]


def test_total_only_bug_through_suite(cli, tmp_path):
    result = cli("suite", str(epd(tmp_path, ROWS)), "--engine", f"{FAKE} --total-only --bug no_ep")
    assert result.exit_code == 1
    assert "FAIL  before-ep  D2:" in result.stdout
    assert "chesskit 31, engine 30" in result.stdout  # the descent below before-ep's D2 count


@pytest.mark.slow  # a descent of one-shot processes, 12 s of CPU (issue 25); compare/test_dialects.py's test_oneshot_agrees and test_oneshot_failures run the dialect in the default run
def test_oneshot_through_compare_and_suite(cli, tmp_path):
    template = f'{PY} {ENGINES / "fake_perft.py"} --oneshot "{{fen}}" {{depth}} "{{moves}}" --total-only --bug no_ep'
    result = cli("compare", BEFORE_EP, "3", "--engine-cmd", template, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert (report["path"], report["missing"], report["dialect"]["name"]) == (["f7f5"], ["e5f6"], "oneshot-total")
    good = template.replace(" --bug no_ep", "")
    result = cli("suite", str(epd(tmp_path, ROWS)), "--engine-cmd", good)
    assert result.exit_code == 0, result.stderr
    assert "7 counts of 3 positions checked" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--engine", "x", "--dialect", "xboard"], "unknown --dialect 'xboard': one of uci-go-perft"),
        (["--script", "x", "--dialect", "uci-perft"], "--dialect only applies to --engine"),
        (["--engine-cmd", "./engine {fen}"], "has no {depth} placeholder"),
        # a typo reached the engine as typed (exit 3: "printed no divide and no total")
        (["--engine-cmd", "echo {fen} {depth} {move}"],
         "has an unknown placeholder {move}: the placeholders are {fen}, {depth}, {moves}, {variant}"),
        (["--engine-cmd", "echo {FEN} {depth}"], "has an unknown placeholder {FEN}"),
        # str.format's forms: {depth:>5} was "has no {depth} placeholder", {fen!r} reached the engine as written
        (["--engine-cmd", "echo {fen} {depth:>5}"], "{depth:>5} is not a placeholder: they are replaced as written"),
        (["--engine-cmd", "echo {fen!r} {depth}"], "{fen!r} is not a placeholder"),
        (["--engine", "x", "--engine-cmd", "y {fen} {depth}"], "got --engine and --engine-cmd"),
    ],
)
def test_bad_dialect_options(cli, args, message):
    result = cli("compare", "startpos", "2", *args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_undetectable_engine_exit_3(cli):
    nonsense = "sh -c 'while read line; do echo nonsense; done'"
    result = cli("compare", "startpos", "2", "--engine", nonsense, "--timeout", "1")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"chesskit: engine {nonsense!r} answered no perft question chesskit knows")
    assert result.stderr.count("\n") == 1


def test_failure_in_a_named_dialect_is_one_line(cli):
    result = cli("compare", "startpos", "2", "--engine", str(ENGINES / "fail_exit.py"), "--dialect", "console-perft")
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1
    # whichever command it was sent when chesskit noticed the exit
    assert re.search(r"exited with code 1 after '(position fen .*|perft [12])'; last output: 'fail_exit: cannot open", result.stderr)


def test_a_dialect_the_engine_does_not_speak_is_its_failure_not_a_finding(cli):
    # a UCI 'go perft' engine named --dialect uci-perft answers "Unknown command: perft 2":
    # read as an empty divide, it was "DISAGREE: the engine misses" all 20 moves (exit 1)
    result = cli("compare", "startpos", "2", "--engine", FAKE_UCI, "--dialect", "uci-perft", "--timeout", "10")
    assert result.exit_code == 3, result.stdout
    assert result.stdout == ""
    assert "printed no divide for 'perft 1'" in result.stderr and "it printed 'Unknown command: perft 1'" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_total_only_step_without_counts_by_move_flags_no_row(cli):
    """At a step where a total-only engine gave its total alone, every row showed '-  <' as
    if each move differed, beside 'its totals cannot tell which'."""
    engine = f"{sys.executable} {ENGINES / 'fake_xboard.py'} --format sjeng --bug castle_through_check"
    result = cli("compare", "kiwipete", "3", "--engine", engine)
    assert result.exit_code == 1, result.stderr
    steps = result.stdout.split("counts at each step:\n")[1].split("regression line")[0].split("\ndepth ")
    last = steps[-1].splitlines()
    assert last[0].startswith("1 after ") and last[-1].split()[0] == "total"
    rows = last[2:-1]
    assert rows and all(row.split()[2] == "-" and not row.endswith("<") for row in rows)
    assert any(row.endswith("<") for row in steps[0].splitlines())  # where it gave counts by move


def test_fuzz_json_names_the_dialect_that_answered(cli):
    """``fuzz --json`` is compare's object for its finding, ``dialect_answered`` too (it had
    none): Sjaak II (the fake) found dividing in xboard answers the run's Chess960 positions
    in its UCI loop's totals; with --no-chess960 it stays in xboard."""
    sjaak = f"{sys.executable} {ENGINES / 'fake_xboard.py'} --format sjaak --uci --uci960"
    result = cli("fuzz", "--engine", sjaak, "--seed", "1", "--positions", "6", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["dialect"]["name"] == "xboard-perft-split"
    assert report["dialect_answered"] == {
        "name": "uci-perft-total", "moves": None, "total_only": True, "notation": None, "detected": True,
    }
    report = json.loads(cli("fuzz", "--engine", sjaak, "--seed", "1", "--positions", "6", "--no-chess960", "--json").stdout)
    assert report["dialect_answered"] == report["dialect"] and report["dialect"]["name"] == "xboard-perft-split"


def test_a_probe_search_that_ignores_stop_is_left_to_a_fresh_process(cli, tmp_path, monkeypatch):
    """A `go perft 1` that starts a search `stop` does not end (Sjaak II's searched on for
    2.6 s of its 3.6 s start; one that never ends waited out --timeout and failed the
    engine): the next probe asks a fresh process, and the dialect it counts in is found."""
    log = tmp_path / "commands.log"
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    result = cli("compare", "startpos", "2", "--engine", f"{FAKE_UCI} --search-forever", "--json", "--timeout", "20")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] and report["dialect"]["name"] == "uci-perft" and report["dialect"]["detected"]
    sent = log.read_text().splitlines()
    assert sent.count("uci") == 2 and sent.index("go perft 1") < sent.index("uci", 1) < sent.index("perft 1")


def test_a_slow_detection_is_said_with_the_dialect_that_skips_it(cli):
    """The run's times count from the first question: a detection of 2 s or more (here two
    probes of 1.1 s) is said in the dialect note, with the --dialect that skips it."""
    slow = f"{FAKE_UCI} --slow-go 1.1"
    detected = cli("compare", "startpos", "1", "--engine", slow)
    assert detected.exit_code == 0, detected.stderr
    took = [line for line in detected.stderr.splitlines() if "finding the engine's dialect took" in line]
    assert len(took) == 1 and took[0].endswith("s; --dialect uci-go-perft skips that"), detected.stderr
    assert float(took[0].split(" took ")[1].split(" s;")[0]) >= 2.0
    named = cli("compare", "startpos", "1", "--engine", slow, "--dialect", "uci-go-perft")
    assert named.exit_code == 0 and "dialect took" not in named.stderr, named.stderr
