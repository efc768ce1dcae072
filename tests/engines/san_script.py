#!/usr/bin/env python3
"""A correct perftree script that writes its moves in SAN (`Nf3 20`, `O-O 1`, `e8=Q+ 3`),
or with ``--long`` in long algebraic (`Ng1-f3 20`): the same script serves ``--script``
and ``--engine-cmd 'san_script.py {depth} "{fen}" "{moves}"'`` (issue 26 item 7)."""

import sys

import chess

import pchelper


def main() -> None:
    args = sys.argv[1:]
    long = args[:1] == ["--long"]
    if long:
        args = args[1:]
    depth, fen = int(args[0]), args[1]
    moves = args[2].split() if len(args) > 2 else []
    adapter = pchelper.Adapter()
    adapter.set_fen(fen, chess960=pchelper.looks_chess960(fen))
    for move in moves:
        adapter.push(move)
    result = pchelper.divide(adapter, depth)
    board = adapter.board
    for uci, count in result.items():
        move = chess.Move.from_uci(uci)
        print(f"{board.lan(move) if long else board.san(move)} {count}")
    print()
    print(sum(result.values()))


if __name__ == "__main__":
    main()
