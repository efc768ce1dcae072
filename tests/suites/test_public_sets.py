"""``chesskit suite`` on python-chess's published perft sets, read as they are published.

The files (tricky.perft; random.perft, 6,838 positions from Rookie 2.0 via python-chess;
chess960.perft, 960 positions) come from python-chess 1.11.2's sdist, which .ci/run fetches
into a cache folder named by $CHESSKIT_PERFT_SETS (GPL: never committed here). Their own
counts are the expected ones; python-chess recounts a few of them as a second, independent
oracle. Samples are random but seeded, and bounded by --max-nodes so the tests stay short.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

MAX_NODES = 100_000


def blocks(path: Path) -> list[dict]:
    """The file's positions as the test reads them (not with chesskit's reader):
    ``{"id", "epd", "line", "perft": {depth: count}, "text"}``."""
    found: list[dict] = []
    for lineno, line in enumerate(path.read_text().split("\n"), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, value = line.split(None, 1)
        if keyword == "id":
            found.append({"id": value, "perft": {}, "text": [line]})
        elif keyword == "epd":
            found[-1].update(epd=value, line=lineno)
            found[-1]["text"].append(line)
        elif keyword == "perft":
            depth, count = map(int, value.split())
            found[-1]["perft"][depth] = count
            found[-1]["text"].append(line)
    return found


def run_suite(cli, path: Path, *args: str) -> tuple[int, dict]:
    result = cli("suite", str(path), "--json", "--max-nodes", str(MAX_NODES), *args)
    assert result.exit_code in (0, 1, 2), result.output
    return result.exit_code, json.loads(result.stdout)


def sample(perft_sets: Path, name: str, size: int, tmp_path: Path, seed: int) -> tuple[Path, list[dict]]:
    chosen = random.Random(seed).sample(blocks(perft_sets / name), size)
    path = tmp_path / name  # the same name: chess960.perft is read in Chess960 mode
    path.write_text("\n\n".join("\n".join(b["text"]) for b in chosen) + "\n")
    return path, chosen


def python_chess_perft(epd: str, depth: int, chess960: bool) -> int:
    import chess

    board = chess.Board(chess960=chess960)
    board.set_epd(epd)

    def count(d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += count(d - 1)
            board.pop()
        return total

    return count(depth)


def test_tricky_perft_every_line_matches(cli, perft_sets):
    """Every position of tricky.perft matches all its counts within the limit, the six
    that cannot arise in a game (counted, with a note each) included."""
    path = perft_sets / "tricky.perft"
    code, data = run_suite(cli, path)
    assert (code, data["failed"], data["errors"]) == (0, 0, 0), data["error_lines"]
    expected = blocks(path)
    wanted = {(b["id"], d): n for b in expected for d, n in b["perft"].items() if n <= MAX_NODES}
    assert {(r["id"], r["depth"]): r["nodes"] for r in data["results"]} == wanted
    noted = {r["line"] for r in data["results"] if r["notes"]}
    assert len(noted) == 6 and noted <= {b["line"] for b in expected}


def test_tricky_perft_strict_reports_those_six_lines_and_runs_the_rest(cli, perft_sets):
    path = perft_sets / "tricky.perft"
    code, data = run_suite(cli, path, "--strict")
    assert (code, data["failed"], data["errors"]) == (2, 0, 6)
    assert all(e["error"].startswith("invalid FEN: ") for e in data["error_lines"])
    expected = blocks(path)
    errored = {e["line"] for e in data["error_lines"]}
    assert errored <= {b["line"] for b in expected}
    assert {r["id"] for r in data["results"]} == {b["id"] for b in expected if b["line"] not in errored}


@pytest.mark.parametrize("name, size, chess960", [("random.perft", 150, False), ("chess960.perft", 60, True)])
def test_a_random_sample_matches_the_published_counts(cli, perft_sets, tmp_path, name, size, chess960):
    seed = 20261123
    path, chosen = sample(perft_sets, name, size, tmp_path, seed)
    code, data = run_suite(cli, path)
    assert (code, data["failed"], data["errors"]) == (0, 0, 0), [r for r in data["results"] if not r["ok"]]
    wanted = sorted((b["id"], d, n) for b in chosen for d, n in b["perft"].items() if n <= MAX_NODES)
    assert sorted((r["id"], r["depth"], r["nodes"]) for r in data["results"]) == wanted
    # python-chess, an independent move generator, agrees with the file on a few of them
    for block in chosen[:4]:
        assert python_chess_perft(block["epd"], 2, chess960) == block["perft"][2], block["id"]


def test_a_sample_gives_the_same_results_on_one_thread_and_all(cli, perft_sets, tmp_path):
    path, _ = sample(perft_sets, "random.perft", 60, tmp_path, seed=7)
    _, one = run_suite(cli, path, "--threads", "1", "--hash", "0")
    _, many = run_suite(cli, path, "--threads", "4")
    assert [(r["id"], r["depth"], r["nodes"]) for r in many["results"]] == [
        (r["id"], r["depth"], r["nodes"]) for r in one["results"]
    ]
