#!/usr/bin/env python3
"""Move generators that list a move twice or a null move (0000): python-chess's moves, and

    twice   the first legal move of every position is generated twice (counted twice)
    null    every position that has a legal move also generates 0000, a null move
            (python-chess plays it: the other side to move, nothing moved)

One file in every form: a Python adapter (``bad_divide.py:Twice``, ``:Null``), a perftree
script (``bad_divide.py DEPTH FEN MOVES``) and a UCI engine answering ``go perft`` as
Stockfish does (``bad_divide.py --uci``); the two take the kind from $BAD_DIVIDE (``twice``
or ``null``, default ``twice``). With $BAD_DIVIDE_BLACK set, only positions with black to
move have the bug (the root's own divide is then clean when white is to move).
"""

import os
import sys

import chess

import engine_stdin
import pchelper


def _buggy(board) -> bool:
    return not os.environ.get("BAD_DIVIDE_BLACK") or board.turn == chess.BLACK


class Twice(pchelper.Adapter):
    def legal_moves(self):
        moves = super().legal_moves()
        return moves[:1] + moves if _buggy(self.board) else moves


class Null(pchelper.Adapter):
    def legal_moves(self):
        moves = super().legal_moves()
        return moves + ["0000"] if moves and _buggy(self.board) else moves


def divide_rows(adapter, depth: int) -> list[tuple[str, int]]:
    """The divide as the engine prints it: every generated move, duplicates kept."""
    rows = []
    for move in adapter.legal_moves():
        adapter.push(move)
        rows.append((move, pchelper.perft(adapter, depth - 1)))
        adapter.pop()
    return rows


def uci(adapter) -> None:
    fen, moves = chess.STARTING_FEN, []
    for line in engine_stdin.commands("FAKE_UCI_LOG"):
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] == "uci":
            print("id name BadDivide\noption name UCI_Chess960 type check default false\nuciok", flush=True)
        elif tokens[0] == "isready":
            print("readyok", flush=True)
        elif tokens[0] == "position":
            at = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen = chess.STARTING_FEN if tokens[1] == "startpos" else " ".join(tokens[2:at])
            moves = tokens[at + 1 :]
        elif tokens[:2] == ["go", "perft"]:
            adapter.set_fen(fen)
            for move in moves:
                adapter.push(move)
            rows = divide_rows(adapter, int(tokens[2]))
            text = "".join(f"{move}: {count}\n" for move, count in rows)
            print(f"{text}\nNodes searched: {sum(count for _, count in rows)}\n", flush=True)
        elif tokens[0] == "quit":
            break


def main() -> None:
    args = sys.argv[1:]
    adapter = {"twice": Twice, "null": Null}[os.environ.get("BAD_DIVIDE", "twice")]()
    if args == ["--uci"]:
        uci(adapter)
        return
    depth, fen = int(args[0]), args[1]
    adapter.set_fen(fen, chess960=pchelper.looks_chess960(fen))
    for move in (args[2].split() if len(args) > 2 else []):
        adapter.push(move)
    rows = divide_rows(adapter, depth)
    print("".join(f"{move} {count}\n" for move, count in rows))
    print(sum(count for _, count in rows))


if __name__ == "__main__":
    main()
