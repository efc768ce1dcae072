#!/usr/bin/env python3
"""A UCI engine (python-chess's counts, answered as Stockfish does) that fails on one position:
the engines under development that crash, hang or abort exactly where it matters.

    fail_on.py --fault FAULT --on PLACEMENT [--depth D] [--move M] [--moves "M1 M2"] [--bug NAME]

On `go perft` of a position whose root FEN (`position fen F`, before its moves) has the
placement PLACEMENT, at depth D if given (any depth otherwise), after exactly the moves
"M1 M2" if given (any otherwise: compare's descent asks with moves, a suite without):

    segv      kills itself with SIGSEGV before answering
    abort     prints the divide lines up to move M (a root move), then calls abort()
    hang      sleeps for ever (until killed)
    exit0     prints the divide lines up to move M, then exits with code 0
    fork      forks a child that sleeps holding stdout, prints the lines up to M, exits 1:
              the output never ends while the child lives
    garbage   prints `e2e4 - 20` instead of the divide

Every other question is answered right (with --bug NAME, with bug_NAME's move generation). The pids of the processes that a hang or a fork
leaves (this one, the child) are appended to $CHESSKIT_HANG_PIDFILE, so a test can check
that they were killed.
"""

import argparse
import importlib
import os
import signal
import sys
import time

import chess

import pchelper


def out(text: str) -> None:
    print(text, flush=True)


def note_pids(*pids: int) -> None:
    pidfile = os.environ.get("CHESSKIT_HANG_PIDFILE")
    if pidfile:
        with open(pidfile, "a") as f:
            f.write(" ".join(str(pid) for pid in pids) + "\n")


def answer(result: dict[str, int], fault: str | None, stop_at: str | None) -> None:
    """The divide, Stockfish's way; with a fault, up to ``stop_at`` (included) and then the fault."""
    if fault == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if fault == "hang":
        note_pids(os.getpid())
        time.sleep(3600)
    if fault == "garbage":
        out("e2e4 - 20")
        return
    if fault == "fork":
        child = os.fork()
        if child == 0:  # holds stdout open, and lives on
            time.sleep(3600)
            os._exit(0)
        note_pids(child)
    for move, count in result.items():
        if fault is not None and stop_at in (None, move):
            if fault == "abort":
                os.abort()
            sys.exit(0 if fault == "exit0" else 1)
        out(f"{move}: {count}")
    out("")
    out(f"Nodes searched: {sum(result.values())}")
    out("")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault", required=True, choices=["segv", "abort", "hang", "exit0", "fork", "garbage"])
    parser.add_argument("--on", required=True, help="the placement field of the position that fails")
    parser.add_argument("--depth", type=int)
    parser.add_argument("--move")
    parser.add_argument("--moves")
    parser.add_argument("--bug")
    args = parser.parse_args()
    adapter = importlib.import_module(f"bug_{args.bug}").Adapter() if args.bug else pchelper.Adapter()
    chess960, fen, moves = False, chess.STARTING_FEN, []
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uci":
            out("id name FailOn")
            out("option name UCI_Chess960 type check default false")
            out("uciok")
        elif command == "isready":
            out("readyok")
        elif command == "setoption" and tokens[2:3] == ["UCI_Chess960"]:
            chess960 = tokens[-1].lower() == "true"
        elif command == "position":
            at = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen = chess.STARTING_FEN if tokens[1] == "startpos" else " ".join(tokens[2:at])
            moves = tokens[at + 1 :]
        elif command == "go" and tokens[1:2] == ["perft"]:
            depth = int(tokens[2])
            adapter.set_fen(fen, chess960=chess960)
            for move in moves:
                adapter.push(move)
            hit = fen.split()[0] == args.on and args.depth in (None, depth) and args.moves in (None, " ".join(moves))
            answer(pchelper.divide(adapter, depth), args.fault if hit else None, args.move)
        elif command == "quit":
            break


if __name__ == "__main__":
    main()
