"""The transposition table's size: a default nobody chose fits under ``ulimit -v`` and
shrinks, silently, to what can be allocated; a ``--hash`` larger than the machine's memory,
or than the room ``ulimit -v`` leaves, is refused with one line and exit 2."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import chess
import pytest

from chesskit.board import tablesize
from chesskit.errors import InputError
from helpers import allocate_at_most, one_line, pc_perft, subprocess_env

# black to move is checkmated: perft of any depth is 0 (python-chess agrees, below), so a
# perft 9 (a 2 GiB default table) runs in no time
MATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
LIMIT_KIB = 1_500_000  # `ulimit -v 1500000`: room for chesskit, not for a 2 GiB table


def test_the_mated_position_counts_zero_for_python_chess():
    assert pc_perft(chess.Board(MATED), 9) == 0


def test_the_default_takes_at_most_half_the_room_ulimit_leaves():
    plenty = 1 << 30
    assert tablesize.default_table_mb(9, plenty, room_mb=plenty) == 2048
    assert tablesize.default_table_mb(9, plenty, room_mb=1200) == 512  # half of 1200: 512
    assert tablesize.default_table_mb(9, 2000, room_mb=1200) == 256  # a quarter of 2000 is less
    assert tablesize.default_table_mb(9, plenty, room_mb=0) == 1  # never below 1 MiB


def test_a_default_that_cannot_be_allocated_is_halved_until_it_can(monkeypatch):
    from chesskit.core import hashtable

    tried = []
    monkeypatch.setattr(hashtable, "allocate", allocate_at_most(300, tried=tried))
    assert tablesize.fitting_mb(2048) == 256
    assert tried == [2048, 1024, 512, 256]
    tried.clear()
    monkeypatch.setattr(hashtable, "allocate", lambda mb: (_ for _ in ()).throw(MemoryError()))
    assert tablesize.fitting_mb(64) == 0  # not even 1 MiB: no table, the same counts


def test_the_cli_default_shrinks_silently_when_it_cannot_be_allocated(cli, monkeypatch):
    """The default once failed as "a hash table of 2048 MiB does not fit in this machine's
    memory", exit 2: blaming the user for a size they never gave."""
    from chesskit.core import hashtable

    monkeypatch.setattr(hashtable, "allocate", allocate_at_most(16))  # the default here: 64 MiB
    for command in ("perft", "divide"):
        result = cli(command, MATED, "9", "--json")
        assert result.exit_code == 0, result.stderr
        assert result.stderr == ""
        assert json.loads(result.stdout)["nodes"] == 0


def _limited(entry_point, *args) -> subprocess.CompletedProcess:
    """``chesskit ARGS`` under ``ulimit -v LIMIT_KIB``."""

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT_KIB * 1024, resource.RLIM_INFINITY))

    return subprocess.run(
        [entry_point, *args], capture_output=True, text=True, env=subprocess_env(), timeout=600, preexec_fn=limit
    )


@pytest.mark.parametrize("command", ["perft", "divide"])
def test_the_default_fits_under_ulimit_v(entry_point, command):
    result = _limited(entry_point, command, MATED, "9", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["nodes"] == 0


_ESTIMATED_UNDER_LIMIT = """
from chesskit.api.counting import table_mb
from chesskit.board import Board, tablesize
print(table_mb(None, 9, Board()), tablesize.address_room_mb())
"""


def test_the_estimated_default_fits_under_ulimit_v():
    """startpos 9's estimated tree wants 2 GiB (``test_the_default_follows_the_trees_size``);
    under the limit it takes at most half the room left, and a table of it is allocated."""

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT_KIB * 1024, resource.RLIM_INFINITY))

    done = subprocess.run([sys.executable, "-c", _ESTIMATED_UNDER_LIMIT], capture_output=True, text=True,
                          env=subprocess_env(), timeout=600, preexec_fn=limit)
    assert done.returncode == 0, done.stderr
    size, room = (int(word) for word in done.stdout.split())
    assert 1 <= size <= room // 2 < 1024


def test_a_hash_beyond_what_ulimit_v_leaves_is_refused(entry_point):
    one_line(_limited(entry_point, "perft", MATED, "9", "--hash", "2048"), 2, "--hash 2048 MiB", "ulimit -v")


def _beyond_memory() -> int:
    """A quarter more than the machine's memory (``MemTotal``), in MiB."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            total = next(int(line.split()[1]) // 1024 for line in meminfo if line.startswith("MemTotal:"))
    except (OSError, StopIteration):
        pytest.skip("no MemTotal in /proc/meminfo here (not Linux)")
    return total + total // 4  # its power of two (the table made of it) may well fit


@pytest.mark.parametrize(
    "args",
    [
        ["perft", "startpos", "3"],
        ["divide", "startpos", "3"],
        ["suite", "--max-nodes", "1e3"],
        ["bench", "--depth-offset", "-5"],
    ],
    ids=["perft", "divide", "suite", "bench"],
)
def test_a_hash_beyond_the_machines_memory_is_refused(cli, args):
    """It was shrunk to a power of two that fits (--hash 30000 on 24 GiB ran a 16 GiB
    table), or refused only when that did not fit, though the README says it is refused."""
    size = _beyond_memory()
    if args[0] == "bench" and size > 65536:
        pytest.skip("bench takes --hash up to 65536 MiB, less than this machine's memory")
    if size > 1 << 20:
        pytest.skip("--hash takes up to 1 TiB, less than this machine's memory")
    one_line(cli(*args, "--hash", str(size)), 2, f"--hash {size} MiB", "more than this machine's memory")


def test_a_hash_that_fits_is_taken_as_given(cli):
    result = cli("perft", "startpos", "3", "--hash", "1", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["nodes"] == 8902


def test_a_hash_beyond_the_memory_available_now_is_refused_before_the_run(cli, monkeypatch):
    """Within MemTotal but over MemAvailable, the table was mapped and the run started; its
    pages are backed only as the walk touches them, so the out-of-memory killer would end it
    later, with no line."""
    monkeypatch.setattr(tablesize, "memory_total_mb", lambda: 1 << 20)
    monkeypatch.setattr(tablesize, "memory_available_mb", lambda: 100)
    for args in (["perft", "startpos", "3"], ["suite", "--max-nodes", "1e3"]):
        one_line(cli(*args, "--hash", "200"), 2, "--hash 200 MiB", "100 MiB of memory available")
    result = cli("perft", "startpos", "3", "--hash", "64", "--json")  # what fits is taken as given
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["nodes"] == 8902


def _cgroup_tree(tmp_path, membership: str, files: dict[str, str]):
    """A fake /sys/fs/cgroup under ``tmp_path`` (``files``: path -> content) and a fake
    /proc/self/cgroup; ``tablesize.cgroup_room_mb`` reading them."""
    import functools

    for name, content in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(content + "\n")
    (tmp_path / "self-cgroup").write_text(membership)
    return functools.partial(tablesize.cgroup_room_mb, root=str(tmp_path), membership=str(tmp_path / "self-cgroup"))


MIB = 1 << 20


def test_the_cgroup_v2_limit_is_read_up_the_tree(tmp_path):
    room = _cgroup_tree(tmp_path, "0::/box/job\n", {
        "memory.max": "max", "memory.current": str(900 * MIB),  # the root: no limit
        "box/memory.max": str(6000 * MIB), "box/memory.current": str(2000 * MIB),  # 4000 left
        "box/job/memory.max": "max", "box/job/memory.current": str(1000 * MIB),
    })
    assert room() == 4000
    (tmp_path / "box/job/memory.max").write_text(str(2500 * MIB))
    assert room() == 1500  # the tighter limit below
    (tmp_path / "box/memory.max").write_text("max\n")
    (tmp_path / "box/job/memory.max").write_text("max\n")
    assert room() is None  # no limit anywhere


def test_the_cgroup_v1_memory_limit_is_read(tmp_path):
    room = _cgroup_tree(tmp_path, "4:memory:/api/7f\n3:cpuset:/\n0::/\n", {
        "memory/memory.limit_in_bytes": "9223372036854771712", "memory/memory.usage_in_bytes": "5",  # unlimited
        "memory/api/7f/memory.limit_in_bytes": str(3072 * MIB), "memory/api/7f/memory.usage_in_bytes": str(1024 * MIB),
    })
    assert room() == 2048


def test_no_cgroup_files_means_no_limit(tmp_path):
    assert _cgroup_tree(tmp_path, "0::/\n", {})() is None
    assert tablesize.cgroup_room_mb(membership=str(tmp_path / "absent")) is None


def test_the_default_table_fits_in_what_the_cgroup_allows(tmp_path, monkeypatch):
    """Under a container's 3 GiB limit on a machine with more memory available, the
    default of depth 10 takes half of the container's room (it took half of the machine's)."""
    room = _cgroup_tree(tmp_path, "0::/\n", {"memory.max": str(3072 * MIB), "memory.current": str(72 * MIB)})
    monkeypatch.setattr(tablesize, "_machine_available_mb", lambda: 20_000)
    monkeypatch.setattr(tablesize, "cgroup_room_mb", room)
    assert tablesize.memory_available_mb() == 3000
    assert tablesize.default_table_mb(10, room_mb=None) == 1024  # half of 3000 is 1500: 1024
    monkeypatch.setattr(tablesize, "cgroup_room_mb", lambda: None)
    assert tablesize.default_table_mb(10, room_mb=None) == 8192  # half of 20000: 8 GiB


def test_a_refused_size_is_written_as_typed():
    # 1048576 read "1.04858e+06 MiB"
    with pytest.raises(InputError, match=r"^--hash 1048576 MiB is more than"):
        tablesize.check_request(1048576)


def test_the_default_follows_the_trees_size_from_depth_7():
    """From depth 7 on, 1 MiB per 2^29 estimated leaves (the nearest power of two), at least
    the depth-7 table, within the same caps; below depth 7 the depth alone decides."""
    plenty = 1 << 20
    per = tablesize.LEAVES_PER_MB
    # the estimates of startpos 8, Kiwipete 7 and startpos 9 (``estimated_leaves``)
    assert tablesize.default_table_mb(8, plenty, plenty, leaves=47_585_643_155) == 64  # by depth: 256
    assert tablesize.default_table_mb(7, plenty, plenty, leaves=297_291_432_375) == 512  # by depth: 64
    assert tablesize.default_table_mb(9, plenty, plenty, leaves=1_054_565_633_271) == 2048
    assert tablesize.default_table_mb(9, plenty, plenty, leaves=0) == 64  # a mated position: the floor
    assert tablesize.default_table_mb(6, plenty, plenty, leaves=10**15) == 16  # below depth 7: by depth
    assert tablesize.default_table_mb(10, 22 * 1024, plenty, leaves=23 * 10**12) == 8192  # half of 22 GiB
    assert tablesize.default_table_mb(8, 2000, plenty, leaves=10**13) == 256  # a quarter of 2000 MiB
    # the nearest power of two: 191 rounds down to 128, 192 up to 256
    assert tablesize.default_table_mb(8, plenty, plenty, leaves=191 * per) == 128
    assert tablesize.default_table_mb(8, plenty, plenty, leaves=192 * per) == 256


def test_the_estimate_uses_a_few_shallow_counts():
    asked = []

    def startpos(k):
        asked.append(k)
        return [1, 20, 400, 8902, 197281, 4865609][k]

    assert tablesize.estimated_leaves(startpos, 8) == 197281**5 // 8902**4
    assert asked == [1, 2, 3, 4]  # never deeper than SHALLOW_DEPTH
    asked.clear()

    def bushy(k):
        asked.append(k)
        return 3000**k

    assert tablesize.estimated_leaves(bushy, 7) == 3000**7  # the ratio of the last two counts
    assert asked == [1, 2]  # 9 million leaves at depth 2: past SHALLOW_LEAVES, no deeper count
    asked.clear()

    def mated(k):
        asked.append(k)
        return 0

    assert tablesize.estimated_leaves(mated, 9) == 0 and asked == [1]


@pytest.mark.parametrize(
    "fen, depth, size",
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 8, 64),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 7, 512),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 9, 64),  # pos3: 50 G leaves, by depth 2 GiB
    ],
)
def test_perfts_default_table_is_sized_by_the_positions_tree(monkeypatch, fen, depth, size):
    from chesskit.api.counting import table_mb
    from chesskit.board import Board

    monkeypatch.setattr(tablesize, "memory_available_mb", lambda: 1 << 20)
    monkeypatch.setattr(tablesize, "address_room_mb", lambda: None)
    monkeypatch.setattr(tablesize, "fitting_mb", lambda mb: mb)  # nothing allocated here
    assert table_mb(None, depth, Board(fen)) == size
    assert table_mb(None, depth) == tablesize.default_table_mb(depth)  # no position: by depth
