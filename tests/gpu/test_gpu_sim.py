"""``--device gpu`` (issue 24) without a GPU: numba-cuda's simulator runs the kernels on the
CPU (``NUMBA_ENABLE_CUDASIM=1``, set in child processes: it must precede numba's import).
The counts are checked against the bundled files' published or Stockfish counts, and a
divide against python-chess, never against chesskit's CPU walk. The CUDA compile itself
needs a GPU: tools/gpu_check runs these checks there (docs/benchmarks.md)."""

from __future__ import annotations

import json
import subprocess
import sys

import chess
import pytest

from helpers import REPO, need_module, one_line, pc_divide, pc_perft, pip_install, subprocess_env
from chesskit.suites.formats import SuiteRecord, read_suite

need_module("numba_cuda", pip_install("test,gpu"))  # numba's own numba.cuda imports without it: a stub

SIM = {"NUMBA_ENABLE_CUDASIM": "1"}
# (file, id, depth): the perft results positions, Chess960, en-passant pins, promotions,
# and the 271-move board (its move buffer must hold more than 256 moves)
PICKED = [
    ("standard.epd", "startpos", 3), ("standard.epd", "kiwipete", 2), ("standard.epd", "pos3", 3),
    ("standard.epd", "pos4", 2), ("standard.epd", "pos5", 2), ("standard.epd", "pos6", 2),
    ("chess960.epd", "c960-0", 3), ("chess960.epd", "c960-castle-bare-def", 2),
    ("special.epd", "ep-rank-pin-1", 3), ("special.epd", "ep-rank-pin-3", 3),
    ("special.epd", "promo-underpromo-check-1", 2), ("impossible.epd", "too-many-pieces-271-moves", 1),
    ("impossible.epd", "too-many-pieces-271-moves", 2),
]


# few moves (perft 5 is 4,644), and many of them reach the same position by two move orders
# from ply 3 on (the pawns' pushes in either order): repeats inside a level and across slices
REPEATS = "k7/pp6/8/8/8/8/6PP/7K w - - 0 1"


def records(name: str) -> dict[str, SuiteRecord]:
    return {r.id: r for r in read_suite(REPO / "positions" / name) if isinstance(r, SuiteRecord)}


def sim_counts(jobs: list[dict]) -> list:
    done = subprocess.run(
        [sys.executable, str(REPO / "tests" / "gpu" / "sim_counts.py")], input=json.dumps(jobs),
        env={**subprocess_env(), **SIM}, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def job(rec: SuiteRecord, depth: int, **more) -> dict:
    return {"fen": rec.fen, "chess960": rec.chess960, "depth": depth, **more}


@pytest.fixture(scope="module")
def picked():
    files = {name: records(name) for name in {f for f, _, _ in PICKED}}
    recs = [files[f][ident] for f, ident, _ in PICKED]
    jobs = [job(rec, depth) for rec, (_, _, depth) in zip(recs, PICKED)]
    jobs += [{"fen": files["chess960.epd"]["c960-0"].fen, "chess960": True, "depth": 2, "divide": True}]
    return recs, sim_counts(jobs)


@pytest.fixture(scope="module")
def sliced():
    """Counts whose levels do not fit their buffers (about 20 s of CPU in the simulator:
    slow; the default run keeps the picked positions' counts and divide)."""
    files = {"standard.epd": records("standard.epd")}
    # buffers of 4 and 8 positions (32 and 64 leaf moves): the walk splits every level
    jobs = [job(files["standard.epd"]["startpos"], 3, cap=4), job(files["standard.epd"]["kiwipete"], 3, cap=8)]
    jobs += [{"fen": REPEATS, "depth": 5, "cap": 40, "rows": True}]
    return sim_counts(jobs)


def test_counts_equal_the_published_ones(picked):
    recs, got = picked
    for rec, (name, ident, depth), count in zip(recs, PICKED, got):
        assert count == rec.depths[depth], (name, ident, depth)


@pytest.mark.slow
def test_a_level_larger_than_its_buffer_is_counted_in_slices(sliced):
    assert sliced[0] == 8902  # startpos 3, the published count
    assert sliced[1] == 97862  # kiwipete 3


def test_divide_matches_python_chess_chess960(picked):
    recs, got = picked
    c960 = recs[6]
    assert got[len(PICKED)] == pc_divide(c960.fen, 2, chess960=True)


@pytest.mark.slow
def test_repeated_positions_in_a_level_take_their_first_rows_count(sliced):
    """perft 5 of a sparse position, its levels in slices of 40: each level's repeats are
    walked once (``kernels.claim``/``resolve``) and take their owner's count, and a repeat
    of an earlier slice's position its count from the table."""
    count, rows = sliced[2]
    assert count == pc_perft(chess.Board(REPEATS), 5)
    assert rows["aliases"]["2"] > 0 and rows["found"]["2"] > 0, rows


@pytest.mark.slow
def test_a_repeat_that_adds_nothing_is_a_wrong_count():
    """Fault injection: the leaf level's repeats adding nothing gives a smaller count, so
    the count above depends on them (there are repeats there, and they are counted)."""
    right = pc_perft(chess.Board(REPEATS), 5)
    dropped, rows = sim_counts([{"fen": REPEATS, "depth": 5, "cap": 300, "drop_aliases": True, "rows": True}])[0]
    assert rows["aliases"]["2"] > 0, rows
    assert dropped < right


# The every-position test's jobs, in this many tests (one simulator process each): under
# --dist worksteal the workers share them, where one test of all 341 ran 350 s alone at the
# end of CI's slow step on a 2-core Zen 3 guest (2026-12-01).
EVERY_PARTS = 6


def _every_bundled_position() -> list[tuple[dict, tuple]]:
    """Each bundled position at its deepest count of at most 2000 nodes: (job, expected)."""
    out = []
    for path in sorted((REPO / "positions").glob("*.epd")):
        for rec in records(path.name).values():
            fits = [d for d, n in rec.depths.items() if n <= 2000]
            if fits:
                out.append((job(rec, max(fits)), (path.name, rec.id, max(fits), rec.depths[max(fits)])))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("part", range(EVERY_PARTS))
def test_every_bundled_position_at_small_depth(part):
    """Every bundled position at its deepest count of at most 2000 nodes (every
    ``EVERY_PARTS``-th of them, from ``part``)."""
    every = _every_bundled_position()
    assert len(every) > 300
    mine = every[part::EVERY_PARTS]
    got = sim_counts([j for j, _ in mine])
    wrong = [(e, g) for (_, e), g in zip(mine, got) if g != e[3]]
    assert wrong == []


# ------------------------------------------------------------------ the command line


def chesskit(*args: str, env: dict | None = None, code: str | None = None) -> subprocess.CompletedProcess:
    prefix = [sys.executable, "-c", code] if code else [sys.executable, "-m", "chesskit"]
    return subprocess.run(
        [*prefix, *args], env={**subprocess_env(), **(env or {})}, capture_output=True, text=True, timeout=300,
    )


def test_perft_and_divide_on_the_gpu_path():
    done = chesskit("perft", "kiwipete", "2", "--device", "gpu", "--json", env=SIM)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["nodes"] == 2039
    done = chesskit("divide", "startpos", "2", "--device", "gpu", env=SIM)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line]
    assert lines[0] == "a2a3: 20" and lines[-1] == "Nodes searched: 400" and len(lines) == 21


def test_no_gpu_is_one_line_exit_2():
    done = chesskit("perft", "startpos", "2", "--device", "gpu", env={"NUMBA_ENABLE_CUDASIM": "0"})
    if done.returncode == 0:
        pytest.skip("this machine has a usable GPU")
    one_line(done, 2, "--device gpu: no usable GPU")


def test_no_numba_cuda_is_one_line_exit_2_naming_the_extra():
    hide = "import sys; sys.modules['numba.cuda'] = None; from chesskit.cli.main import main; main()"
    done = chesskit("perft", "startpos", "2", "--device", "gpu", code=hide)
    one_line(done, 2, "numba-cuda", "chesskit-perft[gpu]")


@pytest.mark.parametrize("option", [["--stats"], ["--hash", "16"], ["--threads", "2"], ["--workers", "2"]])
def test_options_of_the_cpu_walk_are_refused(option):
    done = chesskit("perft", "startpos", "2", "--device", "gpu", *option, env=SIM)
    one_line(done, 2, "--device gpu counts nodes only")


def test_the_cpu_path_never_loads_cuda():
    code = (
        "import sys; from chesskit.cli.main import main\n"
        "try: main(['perft', 'startpos', '2'])\n"
        "except SystemExit: pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('numba.cuda', 'chesskit.gpu'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], env=subprocess_env(), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


@pytest.mark.slow  # 3-5 s of CPU in the simulator (issue 25: the default run's time)
def test_bench_on_the_gpu_path():
    done = chesskit("bench", "--device", "gpu", "--depth-offset", "-4", "--json", env=SIM)
    assert done.returncode == 0, done.stderr
    rows = {row["id"]: row for row in json.loads(done.stdout)["positions"]}
    published = records("standard.epd")
    for ident, row in rows.items():
        assert row["nodes"] == published[ident].depths[row["depth"]], ident
    assert len(rows) == 6


@pytest.mark.slow
def test_counts_found_in_the_table_at_every_depth_are_right():
    """Small slices (16 rows) make later slices find earlier ones' counts in the table at
    depth 3 as well as 2 (a position of few moves whose transpositions start at ply 3, so
    that depth 6 finds depth-3 counts: the en-passant rank pin's took 115 s of CI's CPU)."""
    count, rows = sim_counts([{"fen": REPEATS, "depth": 6, "cap": 16, "rows": True}])[0]
    assert rows["found"]["3"] > 0 and rows["found"]["2"] > 0, rows
    assert count == pc_perft(chess.Board(REPEATS), 6)


def test_gpu_out_of_memory_is_one_line_exit_4():
    """The driver's out-of-memory error (injected: every GPU allocation fails) is exit 4."""
    inject = (
        "from numba import cuda; from numba.cuda.cudadrv.driver import CudaAPIError\n"
        "def full(*a, **k): raise CudaAPIError(2, 'Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY')\n"
        "cuda.device_array = full; cuda.to_device = full\n"
        "from chesskit.cli.main import main; main()"
    )
    done = chesskit("perft", "startpos", "4", "--device", "gpu", env=SIM, code=inject)
    one_line(done, 4, "out of memory", "GPU")


# ------------------------------------------------------------------ suite --device gpu

# two positions, their counts from python-chess (the en-passant square of the second is live)
SUITE_FENS = ["4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"]


def suite_file(tmp_path, wrong: bool = False):
    lines = []
    for fen in SUITE_FENS:
        counts = [pc_perft(chess.Board(fen), d) for d in (1, 2)]
        if wrong and fen == SUITE_FENS[1]:
            counts[1] += 1
        lines.append(f"{fen} ;D1 {counts[0]} ;D2 {counts[1]}")
    path = tmp_path / "two.epd"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_suite_on_the_gpu_path(tmp_path):
    done = chesskit("suite", str(suite_file(tmp_path)), "--device", "gpu", "--json", env=SIM)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    assert len(results) == 4 and all(r["nodes"] == r["expected"] for r in results)


@pytest.mark.slow  # 3-5 s of CPU in the simulator (issue 25: the default run's time)
def test_suite_on_the_gpu_path_reports_a_mismatch_with_the_gpu_divide(tmp_path):
    """A wrong expected count is a mismatch (exit 1), and its divide, counted on the GPU,
    names the moves; the GPU walk's divide is faked to one wrong move count, so the line
    shows it came from there."""
    fake = (
        "from chesskit.gpu import walk\n"
        "real = walk.Walk.divide\n"
        "def divide(self, board, depth):\n"
        "    counts = real(self, board, depth); counts['e5f6'] += 1000; return counts\n"
        "walk.Walk.divide = divide\n"
        "from chesskit.cli.main import main; main()"
    )
    done = chesskit("suite", str(suite_file(tmp_path, wrong=True)), "--device", "gpu", env=SIM, code=fake)
    assert done.returncode == 1, done.stderr
    assert "e5f6" in done.stdout and str(1000 + pc_divide(SUITE_FENS[1], 2)["e5f6"]) in done.stdout, done.stdout


@pytest.mark.parametrize("option", [["--stats"], ["--threads", "2"], ["--hash", "16"], ["--engine", "stockfish"]])
def test_suite_options_the_gpu_path_does_not_take_are_refused(option, tmp_path):
    done = chesskit("suite", str(suite_file(tmp_path)), "--device", "gpu", *option, env=SIM)
    one_line(done, 2, "--device gpu")


@pytest.mark.slow  # 3-5 s of CPU in the simulator (issue 25: the default run's time)
def test_the_buffers_are_sized_again_for_a_deeper_count():
    """The level buffers are sized for the levels a count keeps (``walk.default_cap``), so a
    deeper count than any before sizes them again (a buffer sized for perft 3 is too big for
    the many levels of perft 10), and a shallower one keeps them; a fixed cap is kept."""
    code = (
        "from chesskit.gpu import walk, open_walk\n"
        "from chesskit.board.board import Board\n"
        "asked = []\n"
        "real = walk.default_cap\n"
        "walk.default_cap = lambda depth, held=0: asked.append(depth) or real(depth, held)\n"
        "w = open_walk(); counts = [w.perft(Board(), d) for d in (2, 3, 1, 3)]\n"
        "fixed = open_walk(64); counts.append(fixed.perft(Board(), 3))\n"
        "print(asked, counts)"
    )
    done = subprocess.run([sys.executable, "-c", code], env={**subprocess_env(), **SIM}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[2,", "3]", "[400,", "8902,", "20,", "8902,", "8902]"]


@pytest.mark.slow  # 3-5 s of CPU in the simulator (issue 25: the default run's time)
def test_the_prefix_sum_on_the_gpu_is_numpys():
    """The scan that lays a level's children out (``Walk._scan``: blocks, their totals
    scanned again, added back), at sizes around its block of 8 threads in the simulator
    (``kernels.SCAN``; 32 until 2026-12-01, whose sizes are kept) and deep enough to recurse
    twice, against numpy's cumsum."""
    code = (
        "import numpy as np; from numba import cuda\n"
        "from chesskit.gpu import open_walk\n"
        "w = open_walk(); rng = np.random.default_rng(7); out = []\n"
        "for n in (1, 7, 8, 9, 31, 32, 33, 1100):\n"
        "    a = rng.integers(0, 219, n).astype(np.int64); d = cuda.to_device(a)\n"
        "    e = cuda.device_array(n, np.int64); w._scan(d, n, e, 0)\n"
        "    out.append(bool((e.copy_to_host() == np.cumsum(a)).all()))\n"
        "print(out)"
    )
    done = subprocess.run([sys.executable, "-c", code], env={**subprocess_env(), **SIM}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[True,"] + ["True,"] * 6 + ["True]"]


@pytest.mark.slow  # 3-5 s of CPU in the simulator (issue 25: the default run's time)
def test_a_variant_is_refused_on_the_gpu_path(tmp_path):
    """The kernels run standard chess's rules: a board of another variant (``Board.variant``,
    set here by hand) is one line, exit 2, for perft; in a suite it is that position's error
    and the others are counted."""
    patch = (
        "from chesskit.board.board import Board\n"
        "real = Board._load\n"  # every way a board is made (Board(fen), a suite's Board.from_setup)
        "def load(self, setup):\n"
        "    real(self, setup)\n"
        "    if self.fen().startswith('4k3/'): self.variant = 'atomic'\n"
        "Board._load = load\n"
        "from chesskit.cli.main import main; main()"
    )
    done = chesskit("perft", SUITE_FENS[0], "2", "--device", "gpu", env=SIM, code=patch)
    one_line(done, 2, "--device gpu counts standard chess and Chess960 only, not atomic")
    done = chesskit("suite", str(suite_file(tmp_path)), "--device", "gpu", "--json", env=SIM, code=patch)
    assert done.returncode == 2, done.stderr
    results = json.loads(done.stdout)["results"]
    assert [r["nodes"] == r["expected"] for r in results] == [True, True]  # the other position
    assert "not atomic" in done.stderr or "not atomic" in done.stdout


def test_suite_with_a_variant_on_the_gpu_path_is_refused(tmp_path):
    done = chesskit("suite", str(suite_file(tmp_path)), "--device", "gpu", "--variant", "atomic", env=SIM)
    one_line(done, 2, "--variant atomic", "--device gpu")
