"""Compare the perft walk's machine code between two checkouts, for docs/benchmarks.md: a
change meant to cost nothing (one owner for a rule, inlined) should leave the walk's
instructions as they were.

    PYTHONPATH=BEFORE python tools/walk_asm.py dump before.s
    PYTHONPATH=AFTER  python tools/walk_asm.py dump after.s
    python tools/walk_asm.py compare before.s after.s

``dump`` compiles the walk (``perft.c_entry``, not cached) in this process and writes its
assembly, the functions it calls (``child_key``, the table probes) included. ``compare``
prints, per function, the instruction counts and whether the sequences of instructions are
the same once stack offsets and numba's mangled-name versions are set aside, then the lines
that differ. Instruction counts are a check on the code, not a measure of speed.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys

_FUNCTION = re.compile(r"^([_A-Za-z][^\s:]*):\s*$")


def dump(path: str) -> None:
    from chesskit.core.perft import c_entry

    walk = c_entry(cache=False)
    with open(path, "w") as out:
        out.write(walk._library.get_asm_str())


def _short(name: str) -> str:
    return re.sub(r"B\d+v\d+B.*", "", name)[:70]


def functions(path: str) -> dict[str, list[str]]:
    """Each function's instructions, normalised (labels, stack offsets, name versions)."""
    out: dict[str, list[str]] = {}
    current = None
    for line in open(path):
        match = _FUNCTION.match(line)
        if match:
            current = _short(match.group(1))
            out[current] = []
        elif current and line.startswith("\t") and not line.lstrip().startswith("."):
            text = re.sub(r"-?\d+\(%rsp\)", "N(%rsp)", line.strip())
            text = re.sub(r"B\d+v\d+B", "BvB", text)
            out[current].append(re.sub(r"\.LBB\d+_\d+", "L", text))
    return out


def compare(before: str, after: str) -> None:
    a, b = functions(before), functions(after)
    for name in sorted(set(a) | set(b)):
        x, y = a.get(name, []), b.get(name, [])
        same = "same instructions" if x == y else "differs"
        print(f"{name:70} {len(x):5} {len(y):5}  {same}")
    for name in sorted(set(a) & set(b)):
        if a[name] != b[name]:
            print(f"\n--- {name}")
            sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(a[name], b[name], n=1, lineterm=""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("dump").add_argument("out")
    cmp = sub.add_parser("compare")
    cmp.add_argument("before")
    cmp.add_argument("after")
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.out)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()
