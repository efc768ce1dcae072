"""Damage the compile cache at random, run chesskit, and check every count (issue 27).

    python tools/cache_stress.py [--seed 1] [--cases 40] [--source FOLDER] [--json]

Each case copies a good cache folder (the walk's object and manifest, the attack table
and its manifest, numba's index and data files, the stats counters' among them), damages
one to three of its files or folders at random, then runs one chesskit command on it
and compares what it prints with published counts (chessprogramming wiki, Perft
Results). The damages: truncate, flip bits, append garbage, empty, swap two files,
replace by a FIFO, a folder, a link to /dev/zero, to another cache file or to nowhere,
make it writable by others, or (as root) give it to the user ``nobody``; the folder
itself can be opened to others or given away too. A case fails on a wrong or missing
count, on exit 70 or any non-zero exit, and on a hang (``--timeout`` seconds).

``--source`` names a good keyed cache folder to start from (the tests pass the session's);
without it one is built in a temporary folder (a first run: a compile). Exit 0 when every
case held, 1 otherwise; the summary says how many cases of each damage and command ran.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pwd
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
SUITE = f"""rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400 ;D3 8902
{KIWIPETE.rsplit(" ", 2)[0]} ;D1 48 ;D2 2039 ;D3 97862
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - ;D1 14 ;D2 191 ;D3 2812 ;D4 43238
"""
# command, what its stdout must contain (published counts)
COMMANDS = {
    "perft kiwipete 3": (["perft", "kiwipete", "3"], ["Nodes searched: 97862"]),
    "perft startpos 3 --stats": (["perft", "startpos", "3", "--stats"], ["8902"]),
    "divide startpos 2": (["divide", "startpos", "2"], ["Nodes searched: 400"]),
    "suite": (["suite", "{suite}"], []),  # exit 0 means every count matched
}
DAMAGES = ["truncate", "flip", "garbage", "empty", "swap", "fifo", "folder", "link to /dev/zero",
           "link to another file", "dangling link", "others can write", "owned by nobody"]
FOLDER_DAMAGES = ["others can write", "owned by nobody"]


def _nobody() -> tuple[int, int] | None:
    if os.geteuid() != 0:
        return None
    try:
        user = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return user.pw_uid, user.pw_gid


def _env(base: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["CHESSKIT_CACHE_DIR"] = str(base)
    for name in ("NUMBA_CACHE_DIR", "CHESSKIT_DEBUG", "CHESSKIT_SLIDERS"):
        env.pop(name, None)
    return env


def chesskit(base: Path, args: list[str], timeout: float) -> subprocess.CompletedProcess | None:
    """The command's result, or None when it ran past ``timeout`` (a hang)."""
    try:
        return subprocess.run([sys.executable, "-m", "chesskit", *args], env=_env(base), capture_output=True,
                              text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


def good_cache(work: Path, source: Path | None, timeout: float) -> Path:
    """A good cache folder of this build with the walk and the stats counters compiled
    (``source`` is copied first when it is this build's)."""
    base = work / "good"
    base.mkdir(mode=0o700)
    name = subprocess.run([sys.executable, "-c", "import chesskit.core as c; print(c.cache_dir().name)"],
                          env=_env(base), capture_output=True, text=True, check=True).stdout.strip()
    if source is not None and source.name == name:
        shutil.copytree(source, base / name, symlinks=True, dirs_exist_ok=True)  # (the name query made it)
    for args in (["perft", "startpos", "2"], ["perft", "startpos", "2", "--stats"]):
        done = chesskit(base, args, timeout)
        if done is None or done.returncode != 0:
            raise SystemExit(f"cache_stress: cannot build a good cache: {done and done.stderr}")
    return base / name


def damage(rng: random.Random, path: Path, how: str, others: list[Path], nobody) -> None:
    """Apply one damage to the cache file ``path``."""
    if how in ("truncate", "flip", "garbage", "empty") and path.is_file() and not path.is_symlink():
        data = bytearray(path.read_bytes())
        if how == "truncate":
            data = data[: rng.randrange(0, max(1, len(data)))]
        elif how == "flip":
            for _ in range(rng.randint(1, 8)):
                if data:
                    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif how == "garbage":
            data += rng.randbytes(rng.randint(1, 4096))
        else:
            data = bytearray()
        mode = path.stat().st_mode
        path.write_bytes(bytes(data))
        os.chmod(path, mode)
        return
    if how == "swap":
        other = rng.choice(others)
        if other != path and other.is_file() and path.is_file():
            a, b = path.read_bytes(), other.read_bytes()
            path.write_bytes(b)
            other.write_bytes(a)
        return
    if how == "others can write":
        if not path.is_symlink():
            os.chmod(path, 0o777 if path.is_dir() else rng.choice([0o666, 0o620, 0o602]))
        return
    if how == "owned by nobody":
        os.chown(path, *nobody, follow_symlinks=False)
        return
    _remove(path)
    if how == "fifo":
        os.mkfifo(path, 0o600)
    elif how == "folder":
        path.mkdir(mode=0o700)
    elif how == "link to /dev/zero":
        os.symlink("/dev/zero", path)
    elif how == "link to another file":
        os.symlink(rng.choice(others), path)
    elif how == "dangling link":
        os.symlink(path.parent / "no-such-file", path)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _kinds(folder: Path) -> dict[str, list[Path]]:
    """The cache's files by kind (damage picks a kind first, so the rare ones get hit)."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    kinds = {
        "walk object": [p for p in files if p.name.startswith("walk-") and p.suffix == ".o"],
        "walk manifest": [p for p in files if p.name.startswith("walk-") and p.suffix == ".json"],
        "table": [p for p in files if p.name == "attack-table.npy"],
        "table manifest": [p for p in files if p.name == "attack-table.json"],
        "numba index": [p for p in files if p.suffix == ".nbi"],
        "numba data": [p for p in files if p.suffix == ".nbc"],
        "folder": [folder, *(p for p in folder.iterdir() if p.is_dir())],
    }
    return {kind: paths for kind, paths in kinds.items() if paths}


def check(done: subprocess.CompletedProcess | None, expected: list[str]) -> str | None:
    """What went wrong with one run, or None."""
    if done is None:
        return "hang"
    if done.returncode == 70 or "internal error" in done.stderr:
        return "exit 70"
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    for text in expected:
        if text not in done.stdout:
            return f"wrong count: {text!r} not in {done.stdout.strip()[-300:]!r}"
    return None


def run(seed: int, cases: int, source: Path | None, timeout: float, show=None) -> dict:
    rng = random.Random(seed)
    nobody = _nobody()
    work = Path(tempfile.mkdtemp(prefix="chesskit-stress-"))
    try:
        suite = work / "suite.epd"
        suite.write_text(SUITE)
        good = good_cache(work, source, timeout)
        results, tally = [], collections.Counter()
        for case in range(cases):
            base = work / f"case{case}"
            base.mkdir(mode=0o700)
            folder = base / good.name
            shutil.copytree(good, folder, symlinks=True)
            kinds = _kinds(folder)
            done_to = []
            for _ in range(rng.randint(1, 3)):
                kind = rng.choice(sorted(kinds))
                path = rng.choice(kinds[kind])
                how = rng.choice(FOLDER_DAMAGES if kind == "folder" else DAMAGES)
                if how == "owned by nobody" and nobody is None:  # only root can give a file away
                    how = "others can write"
                if not os.path.lexists(path):
                    continue
                others = [p for paths in kinds.values() for p in paths if p.is_file() and p != path] or [path]
                damage(rng, path, how, others, nobody)
                done_to.append(f"{kind}: {how}")
                tally[how] += 1
            name = rng.choice(sorted(COMMANDS))
            args, expected = COMMANDS[name]
            args = [a.format(suite=suite) for a in args]
            start = time.monotonic()
            done = chesskit(base, args, timeout)
            problem = check(done, expected)
            tally[name] += 1
            results.append({"case": case, "damage": done_to, "command": name, "seconds": round(time.monotonic() - start, 1),
                            "problem": problem})
            if show is not None:
                show(results[-1])
            shutil.rmtree(base, ignore_errors=True)
        return {"seed": seed, "cases": cases, "failed": [r for r in results if r["problem"]],
                "tally": dict(sorted(tally.items())), "results": results}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=40)
    parser.add_argument("--source", type=Path, help="a good keyed cache folder to start from")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before a run counts as a hang")
    parser.add_argument("--json", action="store_true", help="print the whole report as JSON")
    options = parser.parse_args()
    def show(result):
        print(f"case {result['case']}: {result['command']} after {', '.join(result['damage']) or 'nothing'}: "
              f"{result['problem'] or 'ok'} ({result['seconds']} s)", flush=True)

    report = run(options.seed, options.cases, options.source, options.timeout, None if options.json else show)
    if options.json:
        print(json.dumps(report))
    else:
        print(f"{report['cases']} cases, {len(report['failed'])} failed; {report['tally']}")
    sys.exit(1 if report["failed"] else 0)


if __name__ == "__main__":
    main()
