#!/usr/bin/env python3
"""A fake engine for every perft dialect, over python-chess (tests only).

    --loop uci|console      a UCI loop (uci/uciok, isready, setoption, position ...) or a
                            console that never says uciok (it still reads `position fen`)
    --command perft|divide|go-perft   the command that asks for perft
    --total-only            print only the total (Ethereal's `perft N`)
    --san                   moves in SAN (Nf3, O-O, e8=Q) instead of UCI
    --line colon|space|dash|vice|numbered   divide lines: `e2e4: 20`, `e2e4 20`, `e2e4 - 20`,
                            `move 1 : e2e4 : 20`, `1. e2e4 20`
    --total stockfish|nodes|total|perft|vice|bare|none   the total line: `Nodes searched: N`,
                            `Nodes: N`, `Total: N`, `Perft(D) = N`, `Test Complete : N nodes
                            visited in 0ms`, `N`, or no total at all
    --bug NAME              move generation from bug_NAME.Adapter
    --threaded              answer `isready` before the perft answer (as Fairy-Stockfish does)
    --ignore-position       never follow `position fen` (stays at the start position)
    --oneshot FEN DEPTH [MOVES]   answer once from the command line and exit
    --ready-midway          answer `isready` in the middle of the divide, the rest 0.3 s later
                            (a divide thread still printing: issue 27 item 10)
    --prompt TEXT           a console that prints TEXT without a line end before reading each
                            command, and no header line before its answers
    --total-first           print the total line before the divide lines
    --depth-echo            print the depth as a bare number before the answer
    --overflow BITS         counts kept in signed BITS-bit integers, which wrap: `--overflow 8`
                            prints startpos 2 as `Nodes searched: -112` (an int32 at perft 7)
    --garbage-from DEPTH    from DEPTH on, answer `Computing... done` and nothing more (no count)
    --ethereal              as Ethereal: `go perft 1` starts a search (info, bestmove), and a
                            command it does not know gets no reply at all
    --stubborn SECONDS      with --ethereal, as Sjaak II: the search `go` starts ignores `stop`
                            and ends (bestmove) after SECONDS
    --slow SECONDS          think this long before each perft answer (a banner line first;
                            with --threaded, after `readyok`)

Banners, timings and `Unknown command` replies are printed around the answers, as real
engines do.  With $FAKE_PERFT_LOG set, every command received is appended to that file.
"""

import argparse
import importlib
import time

import chess

import engine_stdin
import pchelper

LINES = {
    "colon": "{move}: {count}",
    "space": "{move} {count}",
    "dash": "{move} - {count}",
    "vice": "move {n} : {move} : {count}",
    "numbered": "{n}. {move} {count}",
}
TOTALS = {
    "stockfish": "Nodes searched: {total}",
    "nodes": "Nodes: {total}",
    "total": "Total: {total}",
    "perft": "Perft({depth}) = {total}",
    "vice": "Test Complete : {total} nodes visited in 0ms",
    "bare": "{total}",
}


def out(text: str) -> None:
    print(text, flush=True)


def name_of(board: chess.Board, uci: str, san: bool) -> str:
    if not san:
        return uci
    try:
        return board.san(chess.Move.from_uci(uci))
    except (ValueError, AssertionError):  # an illegal move of a buggy engine
        return uci


def answer(args, adapter, fen: str, moves: list[str], depth: int, chess960: bool) -> list[str]:
    if args.garbage_from and depth >= args.garbage_from:
        return ["Computing... done"]
    adapter.set_fen(fen, chess960=chess960)
    for move in moves:
        adapter.push(move)
    result = pchelper.divide(adapter, depth)
    total = sum(result.values())
    if args.null_move:  # a generator that lists the null move as a move: `0000: 1`, counted in the total
        result, total = {**result, "0000": 1}, total + 1
    if args.overflow:  # a signed counter of that many bits, wrapped (an int32 past 2^31 - 1)
        half = 1 << (args.overflow - 1)
        result, total = {move: (count + half) % (2 * half) - half for move, count in result.items()}, (total + half) % (2 * half) - half
    if args.thousands:  # counts grouped in thousands, `a2a3: 2,186` and `Nodes searched: 97,862`
        result, total = {move: f"{count:,}" for move, count in result.items()}, f"{total:,}"
    lines = [] if args.prompt else [f"Perft to depth {depth}"]
    if args.depth_echo:
        lines.append(str(depth))
    if args.total_first:
        lines.append(TOTALS["bare" if args.total == "none" else args.total].format(depth=depth, total=total))
    if not args.total_only:
        for n, (move, count) in enumerate(result.items(), 1):
            lines.append(LINES[args.line].format(n=n, move=name_of(adapter.board, move, args.san), count=count))
        lines.append("")
    if (args.total != "none" or args.total_only) and not args.total_first:
        lines.append(TOTALS["bare" if args.total == "none" else args.total].format(depth=depth, total=total))
    lines.append("time 0 ms")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loop", default="uci", choices=["uci", "console"])
    parser.add_argument("--command", default="perft", choices=["perft", "divide", "go-perft"])
    parser.add_argument("--total-only", action="store_true")
    parser.add_argument("--san", action="store_true")
    parser.add_argument("--line", default="colon", choices=sorted(LINES))
    parser.add_argument("--total", default="nodes", choices=[*sorted(TOTALS), "none"])
    parser.add_argument("--bug")
    parser.add_argument("--threaded", action="store_true")
    parser.add_argument("--ignore-position", action="store_true")
    parser.add_argument("--oneshot", nargs="+", metavar="ARG")
    parser.add_argument("--ready-midway", action="store_true")
    parser.add_argument("--prompt")
    parser.add_argument("--total-first", action="store_true")
    parser.add_argument("--depth-echo", action="store_true")
    parser.add_argument("--slow", type=float, default=0.0)
    parser.add_argument("--thousands", action="store_true")
    parser.add_argument("--null-move", action="store_true")
    parser.add_argument("--overflow", type=int)
    parser.add_argument("--garbage-from", type=int)
    parser.add_argument("--ethereal", action="store_true")
    parser.add_argument("--stubborn", type=float, default=0.0)
    args = parser.parse_args()
    adapter = importlib.import_module(f"bug_{args.bug}").Adapter() if args.bug else pchelper.Adapter()

    if args.oneshot:
        fen, depth = args.oneshot[0], int(args.oneshot[1])
        moves = args.oneshot[2].split() if len(args.oneshot) > 2 else []
        out("fake_perft one-shot")
        for line in answer(args, adapter, fen, moves, depth, pchelper.looks_chess960(fen)):
            out(line)
        return

    fen, moves, chess960 = chess.STARTING_FEN, [], False
    verb = args.command.split("-")
    out(f"fake_perft ({args.loop}) ready")
    pending: list[str] = []
    for line in engine_stdin.commands("FAKE_PERFT_LOG", args.prompt):
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uci" and args.loop == "uci":
            out("id name FakePerft")
            out("option name Hash type spin default 16 min 1 max 1024")
            out("option name UCI_Chess960 type check default false")
            out("uciok")
        elif command == "isready" and args.loop == "uci":
            half = len(pending) // 2 if args.ready_midway else 0
            for text in pending[:half]:
                out(text)
            out("readyok")
            if args.slow and pending:  # the thread thinks after readyok
                time.sleep(args.slow)
            if half:
                time.sleep(0.3)
            for text in pending[half:]:  # the threaded answer comes after readyok
                out(text)
            pending = []
        elif command == "setoption" and args.loop == "uci":
            if "UCI_Chess960" in tokens:
                chess960 = tokens[-1].lower() == "true"
        elif command == "position" and not args.ignore_position:
            at = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen = chess.STARTING_FEN if tokens[1] == "startpos" else " ".join(tokens[2:at])
            moves = tokens[at + 1 :]
        elif tokens[: len(verb)] == verb and len(tokens) == len(verb) + 1:
            if args.slow and not (args.threaded and args.loop == "uci"):
                out("thinking ...")
                time.sleep(args.slow)
            lines = answer(args, adapter, fen, moves, int(tokens[-1]), chess960)
            if (args.threaded or args.ready_midway) and args.loop == "uci":
                pending = lines
            else:
                for text in lines:
                    out(text)
        elif command == "quit":
            break
        elif command == "go" and args.ethereal:
            out("info depth 1 seldepth 1 multipv 1 score cp 83 time 0 nodes 6 pv g1f3")
            time.sleep(args.stubborn)  # reads nothing meanwhile: a `stop` waits
            out("bestmove g1f3")
        elif command != "ucinewgame" and not args.ethereal:
            out(f"Unknown command: {line.strip()}")


if __name__ == "__main__":
    main()
