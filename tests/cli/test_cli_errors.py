"""Every bad input: one line on stderr, exit 2, nothing on stdout, never a traceback; the
exit code of each kind of error; an internal error without its traceback."""

from __future__ import annotations

import os
import re

import pytest

from chesskit.cli import boundary
from chesskit.errors import EngineError, MismatchError
from helpers import ENGINES, allocate_at_most, one_line

KIWI = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
GOOD_LINE = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "s"; D1 20;'

BAD_INPUTS = [
    # (arguments, words the one line must contain)
    (["perft", START.replace(" w ", " x "), "1"], ["invalid FEN", "side to move", "'x'"]),
    (["perft", START.replace("RNBQKBNR w", "RNBQKBNX w"), "1"], ["invalid FEN", "piece placement", "'X'"]),
    (["perft", "8/8/8/8/8/8/8/8 w - - 0 1", "1"], ["invalid FEN", "no king"]),
    (["perft", START.replace("KQkq", "KQkqX"), "1"], ["invalid FEN", "castling"]),
    (["perft", START.replace(" - ", " e9 "), "1"], ["invalid FEN", "en passant"]),
    (["perft", START.replace(" 0 1", " -3 1"), "1"], ["invalid FEN"]),
    (["show", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"], ["invalid FEN", "ranks"]),
    # the whole text's fields: the line said "invalid FEN: fen: expected 6 ..."
    (["perft", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "1"],
     ["invalid FEN: expected 6 space-separated fields (or 4 without the clocks), found 3"]),
    (["perft", "nonesuch", "1"], ["unknown position 'nonesuch'", "startpos"]),
    # it said "unknown position ''": nothing of what was wrong
    (["perft", "   ", "1"], ["the position is blank (only white space): give a FEN, 'startpos' or a suite id"]),
    (["divide", "", "1"], ["the position is empty: give a FEN, 'startpos' or a suite id"]),
    (["divide", "kiwipeet", "1"], ["unknown position 'kiwipeet'", "did you mean 'kiwipete'"]),
    (["perft", "startpos", "2", "--moves", "e2e4 e2e4"], ["illegal move 'e2e4'", "legal moves: a7a5"]),
    (["divide", "startpos", "1", "--moves", "e1g1"], ["illegal move 'e1g1'", "g1f3"]),
    (["show", "startpos", "--moves", "zz99"], ["illegal move 'zz99'", "not a UCI move"]),
    # SAN, a legal move all the same: the line said only "illegal move 'Nf3'"
    (["perft", "startpos", "1", "--moves", "Nf3"], ["illegal move 'Nf3'", ": not a UCI move (from square and to square, such as g1f3"]),
    (["divide", "kiwipete", "1", "--moves", "O-O"], ["illegal move 'O-O'", "not a UCI move"]),
    # a malformed drop was explained as a from-to move alone, with no word of the drop's form
    (["perft", "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1", "1", "--variant", "crazyhouse", "--moves", "N@z9"],
     ["illegal move 'N@z9'", "not a UCI move", "a drop is its piece, '@' and a square: N@e4"]),
    (["perft", "startpos", "1", "--moves", "g1f3x"], ["illegal move 'g1f3x'", "not a UCI move"]),
    # a promotion without its piece: the line said only "illegal move 'a7a8'"
    (["perft", "8/P7/8/8/8/8/8/k6K w - - 0 1", "1", "--moves", "a7a8"],
     ["illegal move 'a7a8'", ": a promotion names its piece (a7a8b, a7a8n, a7a8q, a7a8r)"]),
    # a drop is matched with its piece letter in either case, and the line quotes it as
    # typed (it quoted 'P@e4': Black's pocket is empty, White holds the pawn)
    (["perft", "startpos", "2", "--variant", "crazyhouse", "--moves", "e2e4 d7d5 e4d5 p@e4"], ["illegal move 'p@e4'"]),
    # a promotion's piece in upper case: the line said "not a UCI move" beside a7a8q in the list
    (["perft", "8/P7/8/8/8/8/8/k6K w - - 0 1", "1", "--moves", "a7a8Q"],
     ["illegal move 'a7a8Q'", ": UCI writes moves in lower case (a7a8q)"]),
    (["perft", "startpos", "x"], ["bad depth 'x'", ">= 0"]),
    (["perft", "startpos", "-1"], ["bad depth '-1'", ">= 0"]),
    (["perft", "startpos", "2.5"], ["bad depth '2.5'"]),
    # Python's int() reads these as 10, 3 and 2: a typo '1_0' ran a depth-10 perft
    (["perft", "startpos", "1_0"], ["bad depth '1_0'"]),
    (["perft", "startpos", "\u0663"], ["bad depth '\u0663'"]),
    (["divide", "startpos", "\uff12"], ["bad depth '\uff12'"]),
    (["suite", "--max-depth", "\uff12"], ["bad --max-depth"]),
    (["suite", "--max-nodes", "\uff11e3"], ["bad --max-nodes"]),
    (["compare", "startpos", "1", "--engine", "stockfish", "--timeout", "\u0663"], ["bad --timeout"]),
    (["fuzz", "--engine", "stockfish", "--seed", "1_0"], ["bad --seed"]),
    (["fuzz", "--engine", "stockfish", "--time", "\u0663"], ["bad --time"]),
    (["divide", "startpos", "0"], ["bad depth '0'", ">= 1"]),
    (["perft", "startpos"], ["Missing argument 'DEPTH'", "chesskit perft --help"]),
    (["perft", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "KQkq", "-", "0", "1", "3"],
     ["unexpected extra argument", "quote it"]),
    (["perft", "startpos", "1", "--jsn"], ["No such option", "--json"]),
    # click raises this one with no context: the line said nothing of --help
    (["perft", "startpos", "3", "--hash"], ["Option '--hash' requires an argument", "(see 'chesskit perft --help')"]),
    (["frobnicate"], ["No such command 'frobnicate'"]),
    (["suite", "--max-nodes", "lots"], ["bad --max-nodes 'lots'"]),
    # "must be a non-negative integer", which 1e400 is
    (["suite", "--max-nodes", "1e400"], ["bad --max-nodes '1e400': more than a float holds"]),
    (["suite", "--max-depth", "-2"], ["bad --max-depth"]),
    (["suite", "no/such/file.epd"], ["no such suite file or folder", "no/such/file.epd"]),
    # it ran every suite file in the current folder
    (["suite", ""], ["an empty suite path"]),
]


# a --variant case compiles that variant's walk on a cold cache (variant_walk: with the slow tests)
@pytest.mark.parametrize(
    "args, words",
    [pytest.param(a, w, marks=[pytest.mark.variant_walk] if "--variant" in a else [], id=" ".join(a)[:50]) for a, w in BAD_INPUTS],
)
def test_bad_input_in_process(cli, args, words):
    if "--variant" in args:  # its walk loaded (or compiled, saying so) before the run: its stderr is the one line
        from chesskit.board.board import Board

        Board(variant=args[args.index("--variant") + 1]).warm_up()
    result = cli(*args)
    one_line(result, 2, *words)
    assert result.stdout == ""


@pytest.mark.parametrize(
    "args, line",
    [
        (["suite", "--max-depth", "x"], "chesskit: bad --max-depth 'x': must be an integer >= 0"),
        (["debug", "startpos", "2", "--fen-depth", "-1"], "chesskit: bad --fen-depth '-1': must be an integer >= 0"),
        (["fuzz", "--script", "x", "--depth", "0"], "chesskit: bad --depth '0': must be an integer >= 1"),
        (["perft", "startpos", "x"], "chesskit: bad depth 'x': DEPTH must be an integer >= 0"),
    ],
)
def test_a_bad_depth_option_is_named_once(cli, args, line):
    # it said "bad --max-depth 'x': --max-depth must be ...", the option twice in one line
    result = cli(*args)
    assert result.exit_code == 2 and result.stderr.strip() == line and result.stdout == ""


@pytest.mark.parametrize(
    "args, line",
    [
        (["perft", "startpos", "-1"], "DEPTH must be an integer >= 0"),
        (["divide", "startpos", "-1"], "DEPTH must be an integer >= 1 (divide splits the count by the first move)"),
        (["compare", "startpos", "-2", "--script", "x"], "DEPTH must be an integer >= 1 (compare starts from a divide)"),
        (["explore", "startpos", "-1", "--json"], "DEPTH must be an integer >= 1 (explore shows a divide)"),
    ],
)
def test_a_negative_depth_is_told_the_commands_rule(cli, args, line):
    # click takes `-1` for an option; the line said ">= 0" for every command, and 0 was then refused
    result = cli(*args)
    assert result.exit_code == 2 and result.stderr.strip() == f"chesskit: bad depth '{args[2]}': {line}"


@pytest.mark.parametrize(
    "args, words",
    [BAD_INPUTS[0], BAD_INPUTS[7], BAD_INPUTS[9], BAD_INPUTS[13], BAD_INPUTS[16], BAD_INPUTS[-1]],
)
def test_bad_input_as_a_process(run_module, args, words):
    proc = run_module(*args)
    one_line(proc, 2, *words)
    assert proc.stdout == ""


@pytest.mark.parametrize(
    "position, why",
    [
        (b"\xff\xfe", "byte 0xff at column 1"),  # it said "unknown position '\\udcff\\udcfe'"
        (b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\xe9 w KQkq - 0 1", "byte 0xe9 at column 43"),
    ],
)
def test_a_position_that_is_not_utf8_says_which_byte(run_module, position, why):
    proc = run_module("perft", os.fsdecode(position), "1")  # the bytes reach chesskit as the shell passes them
    one_line(proc, 2, f"the position is not UTF-8 text ({why})")
    assert "udc" not in proc.stderr


def test_bad_input_through_the_entry_point(run_entry_point):
    proc = run_entry_point("perft", "startpos", "3", "--moves", "e7e5")
    one_line(proc, 2, "illegal move 'e7e5'")
    assert proc.stdout == ""


def test_illegal_move_lists_every_legal_move(cli):
    result = cli("perft", "kiwipete", "1", "--moves", "e1e2")
    assert result.exit_code == 2
    line = result.stderr.strip()
    legal = line.split("legal moves: ")[1].split()
    assert len(legal) == 48 and legal == sorted(legal)


def check_line_error(exit_code: int, stdout: str, stderr: str, words: list[str]) -> None:
    """A suite line that cannot be run: exit 2, one stderr line naming it, and the run went
    on (the good line before it was counted, the bad one is an ERROR line on stdout)."""
    assert exit_code == 2, stderr
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("chesskit: 1 line could not be run (first: ")
    for word in words:
        assert word in lines[0]
    assert any(line.startswith("ERROR ") and words[0] in line for line in stdout.splitlines())


def test_unreadable_suite_line_names_file_and_line(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.epd").write_text(f"# a suite\n{GOOD_LINE}\n{GOOD_LINE.replace('D1 20', 'D1 many')}\n")
    result = cli("suite", "broken.epd")
    check_line_error(result.exit_code, result.stdout, result.stderr, ["broken.epd:3:", "D1", "'many'"])
    assert result.stdout.startswith("ok ")


def test_bad_fen_in_a_suite_names_file_and_line(run_module, tmp_path):
    path = tmp_path / "broken.epd"
    path.write_text(f"\n\n{GOOD_LINE.replace(' w ', ' white ')}\n")
    proc = run_module("suite", str(path), cwd=tmp_path)
    check_line_error(proc.returncode, proc.stdout, proc.stderr, ["broken.epd:3:", "side to move"])


def test_a_suite_with_no_count_checked_does_not_say_all_match(cli, tmp_path):
    # its one line is bad: the summary said "0 counts of 0 positions checked ...: 0 passed, all match"
    (tmp_path / "s.epd").write_text(GOOD_LINE.replace(" w ", " white ") + "\n")
    result = cli("suite", str(tmp_path / "s.epd"))
    assert result.exit_code == 2
    assert "no count checked in " in result.stdout and "1 line not run (errors)" in result.stdout
    assert "all match" not in result.stdout


@pytest.mark.parametrize(
    "error, code",
    [(MismatchError("counts differ"), 1), (EngineError("stockfish died"), 3)],
)
def test_error_boundary_exit_codes(error, code):
    assert boundary.error_line(error) == (str(error), code)


def test_internal_error_is_one_line_without_traceback(cli, monkeypatch):
    from chesskit.cli import perft_cmd

    def broken(*args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(perft_cmd, "load_board", broken)
    result = cli("perft", "startpos", "1")
    assert result.exit_code == boundary.INTERNAL_ERROR
    assert result.stderr.startswith("chesskit: internal error: ZeroDivisionError: division by zero")
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------------ limits, empty flags, near-miss ids, unusable files


@pytest.mark.parametrize(
    "args, words",
    [
        # a huge DEPTH used to die of MemoryError (exit 70) sizing the move stacks
        (["perft", "kiwipete", "99999999999999999999"], ["bad depth", "at most 100"]),
        (["divide", "startpos", "101"], ["bad depth '101'", "at most 100"]),
        (["debug", "startpos", "5000"], ["at most 100"]),
        (["compare", "startpos", "200", "--engine", "stockfish"], ["at most 100"]),
        # clocks beyond the board's integers overflowed (exit 70) or wrapped negative
        (["perft", "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999999", "1"], ["fullmove number", "too large"]),
        (["show", "4k3/8/8/8/8/8/8/4K3 w - - 9223372036854775808 1"], ["halfmove clock", "too large"]),
        # click's IntRange said "'abc' is not a valid integer range"
        (["perft", "startpos", "1", "--threads", "abc"], ["--threads", "'abc' is not an integer"]),
        (["bench", "--depth-offset", "x"], ["--depth-offset", "'x' is not an integer"]),
        # --timeout inf and 1e10 overflowed the engine's waits (exit 70)
        (["compare", "startpos", "2", "--engine", "stockfish", "--timeout", "inf"], ["bad --timeout 'inf'"]),
        (["compare", "startpos", "2", "--engine", "stockfish", "--timeout", "1e10"], ["up to 1000000"]),
        (["suite", "--engine", "stockfish", "--timeout", "nan"], ["bad --timeout 'nan'"]),
        # without an engine a bad --timeout ran (exit 0): it is bad input all the same
        (["suite", "--timeout", "abc"], ["bad --timeout 'abc'"]),
        (["suite", "--timeout", "-1"], ["bad --timeout '-1'"]),
        (["explore", "startpos", "2", "--timeout", "-1", "--json"], ["bad --timeout '-1'"]),
        (["fuzz", "--timeout", "nan"], ["bad --timeout 'nan'"]),
        # an unbalanced quote in the engine command was a ValueError (exit 70)
        (["compare", "startpos", "2", "--engine", "stockfish 'x"], ["bad --engine command", "quotation"]),
        # an empty flag read as "got none"; in suite it silently ran chesskit instead
        (["compare", "startpos", "2", "--engine", ""], ["--engine is empty"]),
        (["compare", "startpos", "2", "--script", " "], ["--script is empty"]),
        (["suite", "--engine", ""], ["--engine is empty"]),
        # 'did you mean 'startpos' or 'startpos'?'
        (["perft", "Startpos", "1"], ["did you mean 'startpos'?"]),
        (["perft", "KIWIPETE", "1"], ["did you mean 'kiwipete'?"]),
        # --junit checked before the run, not after it
        (["suite", "--junit", ""], ["--junit needs a file name"]),
        (["suite", "--junit", "/no/such/folder/out.xml"], ["cannot write --junit", "no such folder"]),
        # '-' wrote a file named '-' (by convention it is stdout, which the suite's own output holds)
        (["suite", "--junit", "-"], ["cannot write --junit -", "'-' is not stdout here", "./- for a file named '-'"]),
    ],
)
def test_bad_input_is_one_line_exit_2(cli, args, words):
    result = cli(*args)
    one_line(result, 2, *words)
    assert result.stdout == ""


def test_unknown_id_suggests_each_name_once(cli):
    line = one_line(cli("perft", "Startpos", "1"), 2)
    assert line.endswith("(did you mean 'startpos'?)")


def test_unknown_id_lists_the_standard_positions_first(cli):
    line = one_line(cli("perft", "nonesuch", "1"), 2)
    assert "try: startpos, kiwipete" in line


@pytest.mark.parametrize("fen", ["rnbqkbnr w KQkq - 0 1", "xxxxxxxx w - - 0 1", "8 w - -"])
def test_a_fen_without_slashes_is_told_its_placement_field(cli, fen):
    # it was "unknown position ...: not a FEN, 'startpos', or a suite id"
    one_line(cli("perft", fen, "1"), 2, "invalid FEN: piece placement: expected 8 ranks separated by '/', found 1")


@pytest.mark.parametrize(
    "position, given",
    [
        ("startpos moves e2e4 e7e5", "'startpos' --moves 'e2e4 e7e5'"),
        ("position startpos moves e2e4", "'startpos' --moves 'e2e4'"),
        (f"position fen {KIWI} moves e1g1", f"'{KIWI}' --moves 'e1g1'"),
        (f"{KIWI} moves e1g1", f"'{KIWI}' --moves 'e1g1'"),
        ("position startpos", "'startpos'"),
    ],
)
def test_a_uci_position_command_is_told_to_give_its_moves_apart(cli, position, given):
    # it was told the FEN's ranks or fields were wrong ("expected 8 ranks ... found 1")
    for command in ("perft", "divide"):
        one_line(cli(command, position, "2"), 2, "is UCI's position command", f"--moves: {given}")


def test_two_words_are_still_an_unknown_id(cli):
    one_line(cli("perft", "kiwi pete", "1"), 2, "unknown position 'kiwi pete'", "did you mean 'kiwipete'")


def test_quote_hint_only_when_a_fen_was_split(cli):
    line = one_line(cli("show", "startpos", "3"), 2, "unexpected extra argument")
    assert "quote it" not in line
    one_line(cli("perft", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "1"), 2, "quote it")


def test_junit_to_a_directory_fails_before_running(cli, tmp_path):
    (tmp_path / "s.epd").write_text(GOOD_LINE + "\n")
    result = cli("suite", str(tmp_path / "s.epd"), "--junit", str(tmp_path))
    one_line(result, 2, "is a directory")
    assert result.stdout == ""  # nothing was run


def test_a_fifo_is_not_taken_for_a_missing_suite_file(cli, tmp_path):
    fifo = tmp_path / "pipe.epd"
    os.mkfifo(fifo)
    one_line(cli("suite", str(fifo)), 2, "not a regular file")


def test_out_of_memory_has_its_own_exit_code_not_a_bug(cli, monkeypatch):
    """Running out of memory is neither a mismatch (1) nor a bug (70): exit 4 (issue 14)."""
    from chesskit.cli import perft_cmd

    def huge(*args):
        raise MemoryError("Unable to allocate 1.00 TiB for an array")

    monkeypatch.setattr(perft_cmd, "load_board", huge)
    line = one_line(cli("perft", "startpos", "1", "--hash", "1048576"), 4, "out of memory", "--hash")
    assert "internal error" not in line


def test_a_hash_table_larger_than_memory_is_bad_input(cli, monkeypatch):
    from chesskit.core import hashtable as tt  # where Board takes allocate from

    # within the machine's memory (more is refused before: tests/board/test_tablesize.py),
    # but the allocation fails
    monkeypatch.setattr(tt, "allocate", allocate_at_most(8, "Unable to allocate 16.0 MiB for an array"))
    one_line(cli("perft", "startpos", "5", "--hash", "16"), 2, "hash table of 16 MiB does not fit")


def test_an_illegal_uci_move_is_not_called_a_notation_error(cli):
    line = one_line(cli("perft", "startpos", "1", "--moves", "e2e5"), 2, "illegal move 'e2e5'")
    assert "not a UCI move" not in line


@pytest.mark.parametrize(
    "spec, example",
    [("tests/engines/eng_correct.py", "tests/engines/eng_correct.py:Adapter"), ("x.py:", "x.py:Adapter"), (":A", "myengine.py:A")],
)
@pytest.mark.parametrize("command", [["compare", "kiwipete", "1"], ["compare", "kiwipete", "1", "--bisect"], ["fuzz"], ["suite"]])
def test_a_python_adapter_without_its_attribute_is_bad_input(cli, command, spec, example):
    # `--python file.py` (the ':Adapter' left out) said "engine 'file.py' must be MODULE:ATTR"
    # with exit 3, an engine failure (125 with --bisect: git bisect skipped every commit)
    one_line(cli(*command, "--python", spec), 2, f"--python {spec!r} must be MODULE:ATTR", f"such as {example!r}")


def test_an_enormous_position_is_not_echoed_whole(cli):
    # a 100,000-character POSITION came back as one 100 KB stderr line
    result = cli("perft", "x" * 100_000, "1")
    line = one_line(result, 2, "unknown position 'xxx", "characters left out", "not a FEN, 'startpos', or a suite id")
    assert len(line) < 4100


@pytest.mark.parametrize(
    "option, words",
    [
        (["--workers", "2"], "the cluster options are for the CPU walk"),
        (["--stats"], "--stats is for the CPU walk"),
        (["--all-depths"], "--all-depths is for the CPU walk"),  # it named --stats, which it implies
    ],
)
def test_device_gpu_refuses_a_cpu_option_in_one_grammatical_line(cli, option, words):
    # it said "the cluster options is for the CPU walk"; refused before any GPU is looked for
    one_line(cli("perft", "startpos", "1", "--device", "gpu", *option), 2, "--device gpu counts nodes only", words)


@pytest.mark.parametrize("option, words", [(["--hash", "4"], "--hash is for the CPU walk"), (["--threads", "2"], "--threads is for")])
def test_bench_on_the_gpu_refuses_the_cpu_walks_table_and_threads(cli, option, words):
    # QA 42a D2: bench took them and its JSON said "hash_mb": 4, "threads": 2, unused
    one_line(cli("bench", "--device", "gpu", "--depth-offset", "-5", *option), 2, "--device gpu counts nodes only", words)


def test_without_colour_the_boards_mark_their_squares_with_brackets(cli, monkeypatch):
    # QA 41c #6: under NO_COLOR the marked squares (a missing move's, the last move's) were
    # drawn as grey shades that read as the ordinary light and dark squares
    import io

    from rich.console import Console

    from chesskit.cli import output

    screen = io.StringIO()
    monkeypatch.setattr(output, "console", lambda stderr=False: Console(file=screen, width=80, force_terminal=True, no_color=True))
    monkeypatch.setattr(output, "stdout_is_terminal", lambda: True)
    result = cli("compare", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "1", "--script", str(ENGINES / "bug_no_ep.py"))
    assert result.exit_code == 1
    drawn = re.sub(r"\x1b\[[0-9;]*m", "", screen.getvalue())
    assert "6 " in drawn and "( )" in drawn and "(♙)" in drawn  # e5f6: the pawn's square and f6
    assert "(x) missing move" in drawn
    screen.truncate(0)
    assert cli("show", "startpos", "--moves", "e2e4").exit_code == 0
    drawn = re.sub(r"\x1b\[[0-9;]*m", "", screen.getvalue())
    assert "[♙]" in drawn and "[ ]" in drawn  # the last move's squares, e4 and e2
