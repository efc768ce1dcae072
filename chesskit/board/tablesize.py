"""The default transposition table size of a perft: by its depth and the machine's memory.

A perft of depth d stores about one entry per distinct position two or more plies above
the leaves; from the start position there are 72 thousand of them at depth 6, 0.8 million
at depth 7, 9.4 million at depth 8 and 96 million at depth 9 (10 bytes each two plies
above the leaves, 16 bytes above them: ``core/tt.py``), and the
table pays for each page it touches (zeroing, and on a virtual machine often the host
backing it), so the size grows with the depth: ×4 per ply from 1 MiB at depth 4 and
below to 256 MiB at depth 8, then ×8 per ply (the distinct positions grow about tenfold a
ply there): 2 GiB at depth 9, which ran faster than 1 GiB and no slower than 4 GiB
(docs/benchmarks.md has the measurements behind it). It never takes more than a quarter of
the memory available (``MemAvailable`` in /proc/meminfo, else the free physical pages, and
never more than a container's memory limit leaves: ``cgroup_room_mb``), from depth 10 on
half of it (startpos 10 has 988 million positions two plies above the leaves: on a 24 GiB
machine 8 GiB holds 61% of them, 4 GiB 31%), and at most 1 GiB where none of them can be
read; under an address-space limit (``ulimit -v``) never more than half of
the room the limit leaves. The default is the user's choice of nobody: ``fitting_mb``
shrinks it, silently, to what can be allocated.

The depth alone misjudges the trees that branch more than the start position's: Kiwipete 7
(374 G leaves) ran in 17.0 s with 512 MiB and 22.8 s with the depth's 64 MiB, pos6 7 in
9.3 s with 256 MiB and 11.9 s with 64, while startpos 8 (85 G) ran faster with 64 MiB than
with its 256 (a table that fits the processor's cache answers sooner: docs/benchmarks.md,
2026-11-30). So from depth ``ESTIMATE_FROM`` on, where the caller has the position, the
default follows the tree's size: one MiB per ``LEAVES_PER_MB`` leaves of perft(depth) as
``estimated_leaves`` guesses it from a few shallow counts (the nearest power of two, never
less than the depth's table at ``ESTIMATE_FROM``), then the same caps.

A size the user gives (``--hash``) is taken as given, except that more than the machine's
memory (``MemTotal``), than the memory available now (``MemAvailable``: the table's pages
are backed only as the walk first touches them, so a larger one maps and starts, and the
kernel's out-of-memory killer ends the run later, with no line), or than the room
``ulimit -v`` leaves, is refused (exit 2) before anything runs: ``check_request``.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from chesskit.errors import InputError

# the table of a depth-4 perft and shallower; each further ply multiplies it by GROWTH,
# and from depth DEEP_FROM on by DEEP_GROWTH
SMALLEST_MB = 1
GROWTH = 4
DEEP_FROM = 8
DEEP_GROWTH = 8
# at most this share of the available memory, and from depth HALF_FROM on this one (the
# positions two plies above the leaves of startpos 10 would fill 10 GiB: docs/benchmarks.md)
MEMORY_SHARE = 4
HALF_FROM = 10
DEEP_MEMORY_SHARE = 2
# from this depth on the default follows the tree's estimated size (``estimated_leaves``):
# one MiB per LEAVES_PER_MB leaves, at least the depth's table at this depth (64 MiB)
ESTIMATE_FROM = 7
# the largest tree a perft counts, as ``estimated_leaves`` guesses it: 2^61, a factor of
# eight under 2^64, what the walk's 64-bit counts hold (read as unsigned: ``core/walkargs.as_count``);
# the guess can be several times low (a bare king in a corner, whose moves grow with depth:
# 5.6 times at KvK 24)
LARGEST_TREE = 1 << 61
LEAVES_PER_MB = 1 << 29
# the shallow counts of the estimate: up to this depth, or until one passes this many leaves
SHALLOW_DEPTH = 4
SHALLOW_LEAVES = 1 << 21
# the cap where the available memory cannot be read
UNKNOWN_MEMORY_CAP_MB = 1024
# at most this share of the address space left under `ulimit -v` (the rest: the pool's
# thread stacks, the compiled code, Python's own growth)
ROOM_SHARE = 2


def default_table_mb(
    depth: int, available_mb: int | None = None, room_mb: int | None = None, leaves: int | None = None
) -> int:
    """The table size in MiB for a perft of ``depth`` (a power of two, at least 1 MiB)
    with ``available_mb`` MiB of memory available and ``room_mb`` MiB of address space
    left under ``ulimit -v`` (None: read them from the system; no limit reads as None);
    ``leaves``: the tree's estimated size (``estimated_leaves``), which the default follows
    from depth ``ESTIMATE_FROM`` on (None: by depth only)."""
    want = _by_depth(depth)
    if leaves is not None and depth >= ESTIMATE_FROM:
        per_size = max(1, leaves // LEAVES_PER_MB)
        # the nearest power of two: down from under 1.5 times one, else up
        nearest = 1 << (per_size.bit_length() - 1)
        if per_size * 2 >= nearest * 3:
            nearest *= 2
        want = max(_by_depth(ESTIMATE_FROM), nearest)
    if available_mb is None:
        available_mb = memory_available_mb()
    if room_mb is None:
        room_mb = address_room_mb()
    share = DEEP_MEMORY_SHARE if depth >= HALF_FROM else MEMORY_SHARE
    cap = UNKNOWN_MEMORY_CAP_MB if available_mb is None else available_mb // share
    if room_mb is not None:
        cap = min(cap, room_mb // ROOM_SHARE)
    size = min(want, max(cap, SMALLEST_MB))
    return 1 << (size.bit_length() - 1)  # round down to a power of two


def _by_depth(depth: int) -> int:
    """The table in MiB for a perft of ``depth`` by its depth alone."""
    return SMALLEST_MB * GROWTH ** max(0, min(depth, DEEP_FROM) - 4) * DEEP_GROWTH ** max(0, depth - DEEP_FROM)


def estimated_leaves(perft: Callable[[int], int], depth: int) -> int:
    """perft(``depth``) guessed from shallow counts (``perft(k)``, the position's count at
    depth k): the last shallow count, up to depth ``SHALLOW_DEPTH`` or the first past
    ``SHALLOW_LEAVES`` leaves (a few milliseconds), times its ratio to the one before for
    each further ply. Startpos 8 guessed 48 G (85 G), Kiwipete 7 296 G (374 G)."""
    before, count, k = 1, 1, 0
    while k < min(depth, SHALLOW_DEPTH) and count <= SHALLOW_LEAVES:
        before, count = count, perft(k + 1)
        k += 1
        if count == 0:
            return 0
    plies = depth - k
    return count * count**plies // before**plies  # exact: Python's integers


def board_default_mb(board, depth: int) -> int:
    """The default table in MiB for a perft of ``depth`` of ``board``: by its depth, from
    depth ``ESTIMATE_FROM`` on by the tree's size guessed from ``board``'s shallow counts,
    shrunk to what can be allocated now."""
    leaves = None
    if depth >= ESTIMATE_FROM:
        leaves = estimated_leaves(lambda k: board.perft(k, threads=1), depth)
    return fitting_mb(default_table_mb(depth, leaves=leaves))


def fitting_mb(size_mb: int) -> int:
    """``size_mb`` (a default, never the user's size), halved until a table of it can be
    allocated now; 0 (no table: the counts are the same) when not even 1 MiB can."""
    from chesskit.core.hashtable import allocate

    while size_mb >= SMALLEST_MB:
        try:
            allocate(size_mb)  # freed at once: only whether it can be mapped is asked
        except MemoryError:
            size_mb //= 2
            continue
        return size_mb
    return 0


def check_request(hash_mb: float) -> None:
    """Refuse (InputError, exit 2) a ``--hash`` larger than the machine's memory, than the
    memory available now or than the address space that ``ulimit -v`` leaves; a size that
    fits is taken as given."""
    asked = mib_text(hash_mb)
    total = memory_total_mb()
    if total is not None and hash_mb > total:
        raise InputError(
            f"--hash {asked} MiB is more than this machine's memory ({total} MiB): give a smaller --hash"
        )
    available = memory_available_mb()
    if available is not None and hash_mb > available:
        raise InputError(
            f"--hash {asked} MiB is more than the {available} MiB of memory available now: the run "
            f"would not fit; give a smaller --hash"
        )
    room = address_room_mb()
    if room is not None and hash_mb > room:
        raise InputError(
            f"--hash {asked} MiB is more than the {room} MiB of address space that ulimit -v "
            f"leaves: give a smaller --hash"
        )


def mib_text(size: float) -> str:
    """A size in MiB as typed: 1048576, not 1.04858e+06 (``:g``); 0.5 as 0.5."""
    return f"{size:.0f}" if float(size).is_integer() else f"{size:g}"


def memory_total_mb() -> int | None:
    """The machine's physical memory in MiB, or None where it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    except (AttributeError, OSError, ValueError):
        return None


def address_room_mb() -> int | None:
    """The address space in MiB that ``ulimit -v`` (RLIMIT_AS) leaves this process, or None
    where there is no limit (or it cannot be read)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    if soft == resource.RLIM_INFINITY:
        return None
    used = 0
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    used = int(line.split()[1]) * 1024  # the figure is in kB
                    break
    except (OSError, ValueError, IndexError):
        pass
    return max(0, soft - used) // (1 << 20)


def memory_available_mb() -> int | None:
    """The memory available for new allocations in MiB (the machine's, lowered to what a
    cgroup memory limit leaves: ``cgroup_room_mb``), or None where it cannot be read."""
    machine = _machine_available_mb()
    room = cgroup_room_mb()
    if room is None:
        return machine
    return room if machine is None else min(machine, room)


def _machine_available_mb() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024  # the figure is in kB
    except (OSError, ValueError, IndexError):
        pass
    try:  # other Unix systems: the free physical pages
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    except (AttributeError, OSError, ValueError):
        return None


# a cgroup v1 limit this large is no limit (the kernel's "unlimited", rounded to pages)
_V1_UNLIMITED = 1 << 60


def cgroup_room_mb(root: str = "/sys/fs/cgroup", membership: str = "/proc/self/cgroup") -> int | None:
    """The memory in MiB that this process's cgroups still allow it (a container's limit:
    past it the kernel's out-of-memory killer ends the run, with no line), or None where
    no limit is set or none can be read. The least room, limit less usage, over the
    process's cgroup and the cgroups above it (a limit anywhere up the tree applies):
    cgroup v2 (``memory.max``, ``memory.current`` under ``root``, the group named by the
    ``0::`` line of ``membership``) and v1 (``memory.limit_in_bytes``,
    ``memory.usage_in_bytes`` under ``root``/memory, the ``memory`` controller's line)."""
    try:
        with open(membership, encoding="ascii") as lines:
            groups = [line.rstrip("\n").split(":", 2) for line in lines]
    except OSError:
        return None
    rooms = []
    for fields in groups:
        if len(fields) != 3:
            continue
        _, controllers, path = fields
        if controllers == "":  # v2: the unified hierarchy
            rooms += _rooms(root, path, "memory.max", "memory.current")
        elif "memory" in controllers.split(","):  # v1
            rooms += _rooms(os.path.join(root, "memory"), path, "memory.limit_in_bytes", "memory.usage_in_bytes")
    return min(rooms) >> 20 if rooms else None


def _rooms(base: str, path: str, limit_file: str, usage_file: str) -> list[int]:
    """Limit less usage in bytes of each group from ``path`` up to the hierarchy's root
    (those that set a limit and can be read)."""
    found = []
    parts = [p for p in path.split("/") if p]
    for depth in range(len(parts), -1, -1):
        folder = os.path.join(base, *parts[:depth])
        try:
            with open(os.path.join(folder, limit_file), encoding="ascii") as f:
                limit = f.read().strip()
            if limit == "max" or int(limit) >= _V1_UNLIMITED:
                continue
            with open(os.path.join(folder, usage_file), encoding="ascii") as f:
                used = int(f.read().strip())
        except (OSError, ValueError):
            continue
        found.append(max(0, int(limit) - used))
    return found
