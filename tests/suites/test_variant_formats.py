"""Suite files in a variant: the rules a file's name gives (python-chess's atomic.perft,
3check.perft, ...), a `.perft` file's `variant NAME` line, and what a bad one does."""

from __future__ import annotations

from pathlib import Path

import pytest

from chesskit.suites.formats import LineError, SuiteRecord, file_variant, read_suite, scan_variant


@pytest.mark.parametrize(
    "name,variant",
    [
        ("atomic.perft", "atomic"),
        ("crazyhouse.perft", "crazyhouse"),
        ("3check.perft", "3check"),
        ("giveaway.perft", "giveaway"),
        ("horde.perft", "horde"),
        ("racingkings.perft", "racingkings"),
        ("crazyhouse960.epd", "crazyhouse"),
        ("chess960.epd", None),
        ("tricky.perft", None),
        ("standard.epd", None),
    ],
)
def test_a_files_name_gives_its_variant(name, variant):
    assert file_variant(Path(name)) == variant


def test_scan_variant_finds_the_operation_without_parsing():
    assert scan_variant('8/8/8/8/8/8/8/K1k5 w - - id "x"; variant atomic; D1 3;') == "atomic"
    assert scan_variant('8/8/8/8/8/8/8/K1k5 w - - variant "3check"; D1 3;') == "3check"
    assert scan_variant('8/8/8/8/8/8/8/K1k5 w - - id "variants"; D1 3;') is None


def test_a_bad_variant_line_is_its_lines_error_and_its_blocks_are_not_run(tmp_path):
    path = tmp_path / "mixed.perft"
    path.write_text(
        "id before\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n"
        "variant nosuch\n"
        "id under\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n"
        "variant chess\n"
        "id after\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n"
    )
    entries = read_suite(path)
    records = [e for e in entries if isinstance(e, SuiteRecord)]
    errors = [e for e in entries if isinstance(e, LineError)]
    assert [r.id for r in records] == ["before", "after"]
    assert all(r.variant == "chess" for r in records)
    assert [(e.lineno, "unknown variant 'nosuch'" in e.message) for e in errors] == [(4, True), (6, False)]
    # the block lost under it was counted nowhere: it is an error of its own, named
    assert (errors[1].id, errors[1].message) == (
        "under",
        "block 'under' is not run: the 'variant' line 4 above it names no variant (its counts are another variant's)",
    )


LOST = (
    "id a1\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n"
    "variant bogus\n"
    "id b1\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\nperft 2 25\n"
    "id b2\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n"
    "variant\n"
    "epd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n"
)


def test_each_block_a_bad_variant_line_loses_is_listed_in_text_json_and_the_api(tmp_path, cli):
    import json

    import chesskit

    path = tmp_path / "v.perft"
    path.write_text(LOST)
    text = cli("suite", str(path))
    assert text.exit_code == 2
    assert "unknown variant ''" in text.stdout and "\"''\"" not in text.stdout  # was quoted twice
    lost = [line for line in text.stdout.splitlines() if "is not run: the 'variant' line" in line]
    assert [line.split(": ")[0].split(":")[-1] for line in lost] == ["6", "10", "13"]
    assert "block 'b1'" in lost[0] and "block 'b2'" in lost[1] and "this block" in lost[2]
    assert "5 errors" in text.stdout
    data = json.loads(cli("suite", str(path), "--json").stdout)
    assert data["errors"] == data["positions"]["errors"] == len(data["error_lines"]) == 5
    assert [(e["line"], e["id"]) for e in data["error_lines"]] == [(4, None), (6, "b1"), (10, "b2"), (12, None), (13, None)]
    result = chesskit.run_suite(str(path))
    assert [(b.line, b.id) for b in result.bad_lines] == [(4, None), (6, "b1"), (10, "b2"), (12, None), (13, None)]


def test_python_chess_variant_files_are_read_in_their_variants(perft_sets):
    for name in ("atomic", "crazyhouse", "3check", "giveaway", "horde", "racingkings"):
        path = perft_sets / f"{name}.perft"
        if not path.is_file():
            pytest.skip(f"{path} is missing: run tools/fetch_perft_sets")
        entries = read_suite(path)
        errors = [e for e in entries if isinstance(e, LineError)]
        assert errors == [], name
        assert {e.variant for e in entries} == {name}
    atomic = {e.id: e for e in read_suite(perft_sets / "atomic.perft")}
    assert atomic["atomic960-castle-1"].chess960 and not atomic["atomic-start"].chess960


def test_the_variant_operation_names_a_lines_rules(tmp_path):
    path = tmp_path / "mine.epd"
    path.write_text(
        'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1 id "c"; variant threecheck; D1 26;\n'
        '1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - id "a"; variant atomic960; D1 25;\n'
        '4k3/8/8/8/8/8/8/4K3 w - - id "s"; D1 5;\n'
    )
    records = {e.id: e for e in read_suite(path)}
    assert (records["c"].variant, records["c"].chess960) == ("3check", False)
    assert (records["a"].variant, records["a"].chess960) == ("atomic", True)
    assert records["s"].variant == "chess"
    assert all(isinstance(e, SuiteRecord) for e in records.values())


def test_the_bundled_variant_suites_read_without_errors():
    folder = Path(__file__).resolve().parents[2] / "positions" / "variants"
    for path in sorted(folder.glob("*.epd")):
        entries = read_suite(path)
        assert [e for e in entries if isinstance(e, LineError)] == [], path.name
        assert {e.variant for e in entries} == {path.stem.removesuffix("960")}


def test_suite_with_an_engine_of_another_variant_names_the_variant_to_give(cli, tmp_path):
    """The engine is set to one variant for the run (standard chess here): a horde line is
    an error for its line, not a count of standard chess held against horde's."""
    path = tmp_path / "horde.epd"
    path.write_text('4k3/8/8/8/8/8/8/P3P2P w - - id "h"; D1 6;\n')
    spec = str(Path(__file__).resolve().parents[1] / "engines" / "eng_correct.py") + ":Adapter"
    result = cli("suite", str(path), "--python", spec)
    assert result.exit_code == 2, result.output
    assert "a horde position, and the engine counts chess (give --variant horde)" in result.output


def test_the_lines_not_run_are_told_in_file_order(cli, tmp_path):
    """A line refused when run (another variant than the engine's, line 1) stands before one
    refused while the file is read (a bad FEN, line 3): "first" and ``error_lines`` follow
    the file (the run's refusals came after the reader's: "first: s.epd:3")."""
    import json

    path = tmp_path / "s.epd"
    path.write_text(
        '4k3/8/8/8/8/8/8/P3P2P w - - id "h"; variant horde; D1 6;\n'
        '4k3/8/8/8/8/8/8/4K3 w - - id "ok"; D1 5;\n'
        "not a fen; D1 20;\n"
    )
    spec = str(Path(__file__).resolve().parents[1] / "engines" / "eng_correct.py") + ":Adapter"
    result = cli("suite", str(path), "--python", spec)
    assert result.exit_code == 2, result.output
    assert f"2 lines could not be run (first: {path}:1: a horde position" in result.stderr
    result = cli("suite", str(path), "--python", spec, "--json")
    assert [line["line"] for line in json.loads(result.stdout)["error_lines"]] == [1, 3]
