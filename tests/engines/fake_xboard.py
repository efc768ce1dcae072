#!/usr/bin/env python3
"""A fake xboard (CECP) engine over python-chess, answering perft as real ones do (tests only).

    --format sjeng      `perft N`: `Raw nodes for depth N: X` and `Time : 0.00` (Sjeng 11.2)
    --format sjaak      `perft N [P]`: a `depth nodes time nps` row for every depth 1..N; with a
                        print depth P, before each row the root moves in long algebraic
                        (`Ng1-f3`, `e7xd8=Q`, `O-O`) with their count and a running total,
                        illegal king moves listed with 0 (Sjaak II 1.4.1)
    --format divide     `divide N`: `e2e4: 20` lines, then `Nodes: X`
    --no-setboard       no setboard feature: the position comes in `edit` mode
    --usermove          feature usermove=1: moves come as `usermove e2e4`
    --no-ping           no ping feature (no `pong`)
    --done0             say `feature done=0` first and the features half a second later
    --prompt TEXT       print TEXT before answer lines (Sjeng's `Sjeng: ` in a console)
    --bug NAME          move generation from bug_NAME.Adapter
    --uci               also a UCI loop (uci/uciok, isready, position, a total-only `perft N`)
                        until `xboard`, as Sjaak II; in xboard mode `isready` is refused a
                        little late (a refusal that lands after the handshake)
    --uci960            with --uci: its UCI loop offers UCI_Chess960 and counts Chess960 with it
                        on (Sjaak II's does; its xboard loop has no Chess960 chesskit sets)

Out of force mode it plays the side to move after `setboard` when that is its side (black
after `new`), as Sjeng and Sjaak II do: a GUI that forgets `force` counts the wrong position.
Unknown commands get `Error (unknown command): ...`, refused moves `Illegal move: ...`.
With $FAKE_PERFT_LOG set, every command received is appended to that file.
"""

import argparse
import importlib
import time

import chess

import engine_stdin
import pchelper


def out(text: str) -> None:
    print(text, flush=True)


def long_algebraic(board: chess.Board, move: chess.Move) -> str:
    if board.is_castling(move):
        return "O-O-O" if chess.square_file(move.to_square) < chess.square_file(move.from_square) else "O-O"
    piece = board.piece_at(move.from_square)
    letter = "" if piece.piece_type == chess.PAWN else piece.symbol().upper()
    sep = "x" if board.is_capture(move) else "-"
    promo = f"={chess.piece_symbol(move.promotion).upper()}" if move.promotion else ""
    return f"{letter}{chess.square_name(move.from_square)}{sep}{chess.square_name(move.to_square)}{promo}"


def sjaak_rows(adapter, depth: int, split: bool) -> list[str]:
    lines = []
    board = adapter.board
    for d in range(1, depth + 1):
        total = 0
        if split:
            counts = pchelper.divide(adapter, d)
            legal = set(counts)
            rows = []
            for move in board.pseudo_legal_moves:  # illegal king moves listed with 0
                uci = move.uci()
                if uci in legal or board.piece_type_at(move.from_square) == chess.KING:
                    rows.append((long_algebraic(board, move), counts.get(uci, 0)))
            for name, count in rows:
                total += count
                lines.append(f"  {name:>8} {count:>10} {total:>10}")
        else:
            total = pchelper.perft(adapter, d)
        lines.append(f" {d} {total:>10}  0.00   1234567.89nps")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--format", default="sjeng", choices=["sjeng", "sjaak", "divide"])
    parser.add_argument("--no-setboard", action="store_true")
    parser.add_argument("--usermove", action="store_true")
    parser.add_argument("--no-ping", action="store_true")
    parser.add_argument("--done0", action="store_true")
    parser.add_argument("--prompt", default="")
    parser.add_argument("--bug")
    parser.add_argument("--uci", action="store_true")
    parser.add_argument("--uci960", action="store_true")
    args = parser.parse_args()
    adapter = importlib.import_module(f"bug_{args.bug}").Adapter() if args.bug else pchelper.Adapter()
    force, engine_side, editing, edit_color = False, chess.BLACK, False, chess.WHITE
    uci = args.uci
    chess960 = False
    out("FakeXboard 1.0 (type 'help')")
    for line in engine_stdin.commands("FAKE_PERFT_LOG"):
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        board = adapter.board
        if editing:
            if command == ".":
                editing = False
            elif command == "#":
                board.clear_board()
            elif command == "c":
                edit_color = not edit_color
            else:
                piece = chess.Piece.from_symbol(command[0] if edit_color else command[0].lower())
                board.set_piece_at(chess.parse_square(command[1:3]), piece)
            if not editing:  # castling rights from kings and rooks on their squares, as CECP says
                rights = ""
                for right, king, rook in (("K", "Ke1", "Rh1"), ("Q", "Ke1", "Ra1"), ("k", "ke8", "rh8"), ("q", "ke8", "ra8")):
                    if board.piece_at(chess.parse_square(king[1:])) == chess.Piece.from_symbol(king[0]) and board.piece_at(
                        chess.parse_square(rook[1:])
                    ) == chess.Piece.from_symbol(rook[0]):
                        rights += right
                board.set_castling_fen(rights or "-")
                board.ep_square = None
            continue
        if uci:
            if command == "uci":
                out("id name FakeXboard")
                if args.uci960:
                    out("option name UCI_Chess960 type check default false")
                out("uciok")
            elif command == "setoption" and tokens[2:3] == ["UCI_Chess960"]:
                chess960 = tokens[-1] == "true"
            elif command == "isready":
                out("readyok")
            elif command == "position" and "fen" in tokens:
                at = tokens.index("moves") if "moves" in tokens else len(tokens)
                adapter.set_fen(" ".join(tokens[2:at]), chess960=chess960)
                for move in tokens[at + 1 :]:
                    adapter.push(move)
            elif command == "perft" and len(tokens) == 2:
                out(f"Nodes: {pchelper.perft(adapter, int(tokens[1]))}")
            elif command == "xboard":
                uci = False
            elif command != "ucinewgame":
                out(f"Unknown command: {line.strip()}")
            continue
        if command == "xboard":
            continue
        if command == "isready" and args.uci:
            time.sleep(0.3)
            out("Error (Illegal move or unknown command): isready")
            continue
        if command == "protover":
            features = ["myname=\"FakeXboard 1.0\""]
            features.append(f"setboard={0 if args.no_setboard else 1}")
            features.append(f"usermove={1 if args.usermove else 0}")
            features.append(f"ping={0 if args.no_ping else 1}")
            if args.done0:
                out("feature done=0")
                time.sleep(0.5)
            out("feature " + " ".join(features) + " san=0")
            out('feature option="Hash -spin 16 1 1024"')
            out("feature done=1")
        elif command in ("accepted", "rejected", "post", "nopost", "hard", "easy", "random", "level"):
            continue
        elif command == "new":
            adapter.set_fen(chess.STARTING_FEN)
            force, engine_side = False, chess.BLACK
        elif command == "force":
            force = True
        elif command == "edit":
            editing, edit_color = True, chess.WHITE
        elif command == "setboard":
            try:
                adapter.set_fen(" ".join(tokens[1:]))
            except ValueError as err:
                out(f"Error (bad FEN): {err}")
                continue
            if not force and adapter.board.turn == engine_side:  # it plays its move
                move = next(iter(adapter.board.legal_moves), None)
                if move is not None:
                    out(f"move {move.uci()}")
                    adapter.push(move.uci())
        elif command == "ping" and not args.no_ping:
            out(f"pong {tokens[1] if len(tokens) > 1 else ''}".strip())
        elif command == "perft" and args.format in ("sjeng", "sjaak") and len(tokens) > 1:
            depth = int(tokens[1])
            if args.format == "sjeng":
                out(f"{args.prompt}Raw nodes for depth {depth}: {pchelper.perft(adapter, depth)}")
                out("Time : 0.00")
            else:
                for text in sjaak_rows(adapter, depth, len(tokens) > 2):
                    out(text)
        elif command == "divide" and args.format == "divide" and len(tokens) > 1:
            result = pchelper.divide(adapter, int(tokens[1]))
            for move, count in result.items():
                out(f"{move}: {count}")
            out(f"Nodes: {sum(result.values())}")
        elif command == "quit":
            break
        else:
            move = tokens[1] if command == "usermove" and args.usermove and len(tokens) > 1 else command
            if move in adapter.legal_moves():
                adapter.push(move)
                continue
            if len(move) in (4, 5) and move[0] in "abcdefgh" and move[1] in "12345678":
                out(f"{args.prompt}Illegal move: {move}")
            else:
                out(f"Error (unknown command): {line.strip()}")


if __name__ == "__main__":
    main()
