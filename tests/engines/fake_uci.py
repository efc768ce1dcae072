#!/usr/bin/env python3
"""A minimal UCI engine over python-chess, so the UCI back end is tested without Stockfish.

Speaks uci / isready / setoption / ucinewgame / position / go perft / quit and
answers `go perft` the way Stockfish does (`move: count`, blank, `Nodes searched: N`).

    --bug NAME      move generation from bug_NAME.Adapter instead of the correct one
    --no-960        do not offer the UCI_Chess960 option
    --bad-sum       report `Nodes searched` one too high
    --chatty        surround the divide with info lines, info strings and blank lines
    --crash-on-go   print one divide line, then exit with code 2
    --ignore-fen    ignore `position fen ...` silently (it knows `position startpos` only):
                    it counts the start position, or the last `position startpos moves ...`
    --keep-castling a position without castling rights keeps the last rights it was given
                    where its kings and rooks still stand (state kept between positions:
                    a fresh process counts the same position right)
    --slow-uci S    sleep S seconds before it answers 'uci'
    --late-uci      answer 'uci' only when the next command comes: a UCI engine slower to
                    start than chesskit waits, its handshake read after the wait whatever
                    the machine's load (a --slow-uci's sleep counts from the 'uci' it read)
    --variants      offer UCI_Variant (the lichess variants, python-chess's boards: correct)
    --search-forever  answer `go perft N` with a search that never ends and ignores `stop`
                    (printing info lines), and count with a bare `perft N` instead
    --slow-go S     sleep S seconds before it answers each `go perft`

With $FAKE_UCI_LOG set, every command received is appended to that file.
"""

import argparse
import importlib
import sys
import time

import chess

import engine_stdin
import pchelper
import vpchelper


def out(text: str) -> None:
    print(text, flush=True)


def option_value(tokens: list[str]) -> tuple[str, str]:
    """`setoption name Clear Hash` / `setoption name Hash value 32` -> (name, value)."""
    rest = tokens[2:]
    if "value" in rest:
        at = rest.index("value")
        return " ".join(rest[:at]), " ".join(rest[at + 1 :])
    return " ".join(rest), ""


def handshake(args) -> None:
    out("id name FakeUCI" + (f" ({args.bug})" if args.bug else ""))
    out("id author chesskit tests")
    out("option name Hash type spin default 16 min 1 max 1024")
    out("option name Clear Hash type button")
    if not args.no_960:
        out("option name UCI_Chess960 type check default false")
    if args.variants:
        out("option name UCI_Variant type combo default chess var " + " var ".join(VARIANTS))
    out("uciok")


VARIANTS = ("chess", "atomic", "crazyhouse", "kingofthehill", "3check", "antichess", "horde", "racingkings")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bug")
    parser.add_argument("--no-960", action="store_true")
    parser.add_argument("--bad-sum", action="store_true")
    parser.add_argument("--chatty", action="store_true")
    parser.add_argument("--crash-on-go", action="store_true")
    parser.add_argument("--ignore-fen", action="store_true")
    parser.add_argument("--keep-castling", action="store_true")
    parser.add_argument("--slow-uci", type=float, default=0.0)  # seconds before it answers 'uci'
    parser.add_argument("--late-uci", action="store_true")
    parser.add_argument("--variants", action="store_true")
    parser.add_argument("--search-forever", action="store_true")
    parser.add_argument("--slow-go", type=float, default=0.0)
    args = parser.parse_args()
    variant = "chess"
    adapter = importlib.import_module(f"bug_{args.bug}").Adapter() if args.bug else pchelper.Adapter()
    chess960, fen, moves = False, chess.STARTING_FEN, []
    kept = 0  # --keep-castling: the last castling rights given
    owed = False  # --late-uci: 'uci' read, not answered yet

    for line in engine_stdin.commands("FAKE_UCI_LOG"):
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if owed:
            handshake(args)
            owed = False
        if command == "uci" and args.late_uci:
            owed = True
        elif command == "uci":
            time.sleep(args.slow_uci)
            handshake(args)
        elif command == "isready":
            out("readyok")
        elif command == "setoption":
            name, value = option_value(tokens)
            if name.lower() == "uci_chess960":
                chess960 = value.lower() == "true"
            elif name.lower() == "uci_variant" and args.variants:
                variant = value
                adapter = vpchelper.Adapter() if variant != "chess" else adapter
        elif command == "position" and args.ignore_fen and tokens[1:2] == ["fen"]:
            pass  # silently, as an engine that only knows the start position may
        elif command == "position":
            at = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen = chess.STARTING_FEN if tokens[1] == "startpos" else " ".join(tokens[2:at])
            moves = tokens[at + 1 :]
        elif command == "go" and args.search_forever:
            for depth in range(1, 10**9):  # never reads `stop`
                out(f"info depth {depth} score cp 0 nodes {depth * 100} pv e2e4")
                time.sleep(0.05)
        elif (command == "go" and tokens[1:2] == ["perft"]) or (command == "perft" and args.search_forever):
            tokens = ["go", *tokens] if command == "perft" else tokens
            time.sleep(args.slow_go)
            adapter.set_fen(fen, chess960=chess960, **({"variant": variant} if variant != "chess" else {}))
            if args.keep_castling:
                if not adapter.board.castling_rights:
                    adapter.board.castling_rights = kept
                    adapter.board.castling_rights = adapter.board.clean_castling_rights()
                kept = adapter.board.castling_rights or kept
            for move in moves:
                adapter.push(move)
            result = pchelper.divide(adapter, int(tokens[2]))
            if args.chatty:
                out("info string NNUE evaluation using nn-fake.nnue enabled")
                out("")
                out("info depth 1 nodes 0")
            for move, count in result.items():
                out(f"{move}: {count}")
                if args.crash_on_go:
                    print("fake_uci: simulated crash", file=sys.stderr, flush=True)
                    sys.exit(2)
            out("")
            out(f"Nodes searched: {sum(result.values()) + (1 if args.bad_sum else 0)}")
            out("")
        elif command == "quit":
            break
        elif command != "ucinewgame":
            out(f"Unknown command: {line.strip()}")


if __name__ == "__main__":
    main()
