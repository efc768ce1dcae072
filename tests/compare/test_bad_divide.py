"""An engine whose divide lists a move twice or a null move (0000): its move generation is
wrong at that node, a finding (exit 1) that names the move and the position, the same in
compare (every kind of engine), suite --engine and fuzz; it was exit 3, 'engine failed',
with a different message per back end ('listed move twice', 'cannot parse', 'not a UCI
move string', 'the difference is 0000: 1'). The pytest plugin: tests/api/test_pytest_plugin.py."""

from __future__ import annotations

import json
import sys

import pytest
from helpers import ENGINES

BAD = ENGINES / "bad_divide.py"
KINGS = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
SUMMARY = {"twice": "generates e1f2 twice after (start) (4k3/8/8/8/8/8/8/4K3 w - - 0 1)",
           "null": "generates a null move (0000) after (start) (4k3/8/8/8/8/8/8/4K3 w - - 0 1)"}  # fmt: skip
EXTRA = {"twice": "e1f2 (listed twice)", "null": "0000"}
KIND = {"twice": "listed twice", "null": "null move"}

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def engine_args(form: str, kind: str) -> list[str]:
    if form == "script":
        return ["--script", str(BAD)]
    if form == "uci":
        return ["--engine", f"{sys.executable} {BAD} --uci"]
    return ["--python", f"{BAD}:{kind.capitalize()}"]


@pytest.fixture(params=["twice", "null"])
def kind(request, monkeypatch):
    monkeypatch.setenv("BAD_DIVIDE", request.param)
    return request.param


@pytest.mark.parametrize("form", ["script", "python", "uci"])
def test_compare_reports_the_move_and_the_node(cli, kind, form):
    result = cli("compare", KINGS, "2", *engine_args(form, kind), "--json")
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert (report["agree"], report["kind"], report["path"], report["fen"]) == (False, "moves", [], KINGS)
    assert report["missing"] == [] and report["extra"] == [EXTRA[kind]]
    [note] = report["notes"]
    assert (note["move"], note["side"], note["kinds"]) == (EXTRA[kind], "extra", [KIND[kind]])
    text = cli("compare", KINGS, "2", *engine_args(form, kind))
    assert text.exit_code == 1
    assert text.stderr.strip().endswith(SUMMARY[kind]) and text.stderr.count("\n") == 1
    assert f"hint: {note['hint']}" in text.stdout
    # the note's line names the move once and its kind once ("e1f2 (listed twice) listed twice" before)
    assert f"  {EXTRA[kind].split()[0]:<6} {KIND[kind]}" in text.stdout.splitlines()


@pytest.mark.parametrize("form", ["script", "python", "uci"])
def test_the_descent_names_the_node_below_a_clean_root(cli, kind, form, monkeypatch):
    """Only black's move lists are wrong: the root's divide has the right moves and wrong
    counts, and the descent goes down the first differing move to the node that shows it."""
    monkeypatch.setenv("BAD_DIVIDE_BLACK", "1")
    result = cli("compare", KINGS, "2", *engine_args(form, kind), "--json")
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["steps"][0]["path"] == [] and len(report["path"]) == 1
    extra = {"twice": "e8f8 (listed twice)", "null": "0000"}[kind]  # python-chess lists e8f8 first
    assert report["extra"] == [extra] and report["fen"].split()[1] == "b"
    assert report["steps"][1]["theirs"][extra] == 1


def test_suite_with_the_engine_is_a_mismatch_with_the_finding(cli, kind, tmp_path):
    suite = tmp_path / "kings.epd"
    suite.write_text(f'{KINGS} ;D1 5 ;D2 25 ;id "kings"\n')
    result = cli("suite", str(suite), *engine_args("script", kind), "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["positions"]["mismatched"] == 1 and data["positions"]["engine_errors"] == 0
    compared = next(r["compare"] for r in data["results"] if "compare" in r)
    assert compared["extra"] == [EXTRA[kind]] and compared["path"] == []


def test_fuzz_reports_it_as_a_finding(cli, kind):
    result = cli("fuzz", *engine_args("python", kind), "--seed", "1", "--positions", "2", "--depth", "1", "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["extra"] == [EXTRA[kind].replace("e1f2", "e8f8")] and data["engine_errors"] == []
