"""Profile the compiled perft walk with Linux ``perf``, its functions named: for docs/benchmarks.md.

    perf record -F 4000 -o walk.data taskset -c 1 python tools/walk_profile.py FEN DEPTH [--repeat N] [--hash MIB]
    perf report -i walk.data --no-children --sort sym

The walk's machine code is loaded from chesskit's cache by LLVM's loader (``core/native.py``)
into anonymous memory, where ``perf`` finds no symbol: every sample shows as a bare address.
This script loads the walk as a run does, then writes ``/tmp/perf-PID.map``, the file
``perf report`` reads for code without a symbol table: each function of the saved object,
named (``movegen.generate_at``, ``replies._gained``, ...) at the address it was loaded to.
A global function's address comes from LLVM; a local one (numba's helpers are local) is
found by its first bytes among the process's executable mappings. Then it counts
``DEPTH`` ``--repeat`` times on one thread (``--hash``: with a table of that many MiB) and
prints the count.

What the walk inlines (the count, the copy-make, the reply change) shows as the walk's own
time. Needs a cache this process can save to: the walk must come from its saved object.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import struct
import sys

_SHT_SYMTAB = 2
_STT_FUNC = 2
_STB_GLOBAL = 1


def elf_functions(code: bytes) -> list[tuple[str, bool, bytes]]:
    """The functions of an ELF64 little-endian relocatable object: (name, global, bytes as
    saved: calls and loads not yet relocated)."""
    shoff, = struct.unpack_from("<Q", code, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", code, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", code, shoff + i * shentsize) for i in range(shnum)]
    out = []
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind != _SHT_SYMTAB:
            continue
        strings = sections[link]
        for at in range(offset, offset + size, entsize):
            st_name, info, _other, shndx, value, sym_size = struct.unpack_from("<IBBHQQ", code, at)
            if info & 15 != _STT_FUNC or sym_size == 0 or not 0 < shndx < len(sections):
                continue
            start = strings[4] + st_name
            name = code[start: code.index(b"\0", start)].decode()
            body_at = sections[shndx][4] + value
            out.append((name, info >> 4 == _STB_GLOBAL, code[body_at: body_at + sym_size]))
    return out


def short_name(name: str) -> str:
    """``movegen.generate_at`` for numba's ``_ZN8chesskit4core7movegen11generate_atB3v16B40c8t...``."""
    if not name.startswith("_ZN"):
        return name
    rest, parts = name[3:], []
    while rest[:1].isdigit():
        digits = re.match(r"\d+", rest).group()
        rest = rest[len(digits):]
        parts.append(rest[: int(digits)])
        rest = rest[int(digits):]
    parts = [p for p in parts if p not in ("chesskit", "core")]
    return ".".join(parts).replace("c_entry._3clocals_3e.", "") or name


def _executable_memory() -> list[tuple[int, bytes]]:
    """The process's anonymous executable mappings and their bytes (where LLVM put the walk)."""
    blobs = []
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb") as mem:
        for line in maps:
            fields = line.split()
            if "x" not in fields[1] or len(fields) >= 6:
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            try:
                mem.seek(start)
                blobs.append((start, mem.read(end - start)))
            except OSError:
                continue
    return blobs


def write_map(engine, code: bytes) -> list[tuple[int, int, str]]:
    """Write ``/tmp/perf-PID.map`` for the walk's object ``code`` loaded by ``engine``;
    return its rows (address, size, name)."""
    blobs = _executable_memory()
    rows = []
    for name, is_global, body in elf_functions(code):
        address = engine.get_function_address(name) if is_global else 0
        if not address:
            for start, blob in blobs:
                i = blob.find(body[:24])
                if i >= 0:
                    address = start + i
                    break
        if address:
            rows.append((address, len(body), short_name(name)))
    rows.sort()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for address, size, name in rows:
            out.write(f"{address:x} {size:x} {name}\n")
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fen")
    parser.add_argument("depth", type=int)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--hash", type=float, default=0, help="MiB of transposition table (0: none)")
    args = parser.parse_args(argv)

    from chesskit.board.board import Board
    from chesskit.core import native

    board = Board(args.fen)
    board.perft(1)  # loads (or builds and saves) the walk
    path = native._paths(0)[0]
    if not native._engines or not path.exists():
        print("walk_profile: the walk was not loaded from a saved object (a cache this process can save to is needed)", file=sys.stderr)
        return 2
    rows = write_map(native._engines[-1], path.read_bytes())
    print(f"walk_profile: {len(rows)} functions of {path.name} mapped in /tmp/perf-{os.getpid()}.map", file=sys.stderr)
    nodes = 0
    for _ in range(args.repeat):
        nodes = board.perft(args.depth, hash_mb=args.hash)
    print(nodes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
