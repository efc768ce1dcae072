"""Keeping a suite's workers busy and its end short (issue 23 target 3): a worker is given
the next batch once it has answered, even where the run has not asked for its answers
yet; the results due are taken only when more batches than the window's room wait, the
shares of batches started while reading not counted; and the ``--json`` results encoded
as the counts come are exactly ``json.dumps`` of the whole object. The expected counts
are the bundled suites' published ones, not chesskit's own."""

from __future__ import annotations

import json
import time
from concurrent.futures import Future
from types import SimpleNamespace

import pytest

from chesskit.cli.suite_render import JsonResults, json_data, json_text
from chesskit.suites import procs
from chesskit.suites.procs import Workers
from chesskit.suites.runner import _Share, _Window
from chesskit.suites.session import execute, prepare

from helpers import REPO

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


@pytest.mark.skipif(not procs.AVAILABLE, reason="worker processes are forked on Linux only")
def test_the_next_payload_goes_to_the_worker_that_has_answered():
    workers = Workers(2, time.sleep)
    try:
        busy = workers.submit(30)  # the first worker sleeps through the test
        quick = workers.submit(0)
        assert busy._worker is workers.workers[0] and quick._worker is workers.workers[1]
        assert workers.workers[1].poller.poll(10_000)  # its answer has come; nobody has asked for it
        following = workers.submit(0)
        assert following._worker is workers.workers[1]  # not the one still busy
        assert following.result() is None and quick.done()
    finally:
        workers.close()


def _done(value) -> Future:
    future: Future = Future()
    future.set_result(value)
    return future


def _share(future: Future, at: int) -> _Share:
    return _Share(future, at, [SimpleNamespace(name=f"task {at}")])


def test_the_window_counts_the_batches_submitted_not_the_shares():
    window = _Window(room=2)
    started = _done([SimpleNamespace(n=i) for i in range(5)])  # a batch started while reading
    for at in range(5):
        window.add_share(_share(started, at))
    assert list(window.due()) == []  # five shares: nothing asked for yet
    window.add([(_done(["a"]), []), (_done(["b"]), [])])
    assert list(window.due()) == []  # two batches wait: the room
    window.add([(_done(["c"]), [])])
    taken = list(window.due())  # three: up to the first batch, in order
    assert [getattr(r, "n", r) for r in taken] == [0, 1, 2, 3, 4, "a"]
    assert [r.task.name for r in taken[:5]] == [f"task {at}" for at in range(5)]  # re-labelled
    assert window.queued == 2 and [window.next(), window.next()] == [["b"], ["c"]] and not window


def _mixed(tmp_path):
    """standard.epd's first lines, one count wrong (a divide and a regression in the JSON),
    a bad line, a position that cannot arise in a game (notes), a tagged one."""
    lines = [line for line in (REPO / "positions" / "standard.epd").read_text().splitlines() if line and line[0] != "#"]
    wrong = lines[0].replace("D2 400", "D2 401")
    assert wrong != lines[0]
    suite = tmp_path / "mixed.epd"
    suite.write_text(
        "\n".join([wrong, "rnbqkbnr/pppppppp/8/8 w - -", *lines[1:5], f'{START} id "tagged"; tags "ep"; D1 20; D2 400;',
                   '7k/8/8/8/8/8/PPPPPPPP/QQQQQQQK w - - id "seven queens"; D1 16;']) + "\n"
    )
    return suite


@pytest.mark.parametrize("threads", [1, 2])
def test_the_results_encoded_during_the_run_are_the_whole_objects_json(tmp_path, monkeypatch, threads):
    monkeypatch.setattr(JsonResults, "CHUNK", 4)  # several chunks, one of them short
    encoded = JsonResults()
    outcome = execute(prepare([_mixed(tmp_path)], max_depth=3), threads=threads, on_result=encoded.add)
    assert outcome.failed and outcome.errors and outcome.noted and len(outcome.results) % 4
    text = json_text(outcome, None, encoded)
    assert text == json.dumps(json_data(outcome))
    assert any("divide" in entry and entry["regression"] for entry in json.loads(text)["results"])


def test_results_that_are_not_the_outcomes_are_not_used(tmp_path):
    outcome = execute(prepare([_mixed(tmp_path)], max_depth=2))
    short = JsonResults()
    for result in outcome.results[:-1]:
        short.add(result)
    assert json_text(outcome, None, short) == json.dumps(json_data(outcome))
