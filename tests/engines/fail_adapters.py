"""Python adapters that fail in the ways PythonEngine must report (and one plain one)."""

import time

import chess

import pchelper


class RaisesInPush(pchelper.Adapter):
    """push() raises on the first capture."""

    def push(self, uci):
        if self.board.is_capture(chess.Move.from_uci(uci)):
            raise ValueError(f"capture {uci} not implemented\nsecond line")
        super().push(uci)


class RaisesInCheck(pchelper.Adapter):
    """legal_moves() raises whenever the side to move is in check (never at kiwipete's root)."""

    def legal_moves(self):
        if self.board.is_check():
            raise RuntimeError("in check")
        return super().legal_moves()


class HangsInLegalMoves(pchelper.Adapter):
    def legal_moves(self):
        time.sleep(60)
        return super().legal_moves()


class NoPop:
    def set_fen(self, fen):
        pass

    def legal_moves(self):
        return []

    def push(self, uci):
        pass


class BadMoves(pchelper.Adapter):
    def legal_moves(self):
        return [12, 28]


class ExitsInSetFen(pchelper.Adapter):
    def set_fen(self, fen, chess960=False):
        raise SystemExit(4)


class Plain:
    """Correct, but with the bare protocol: set_fen(fen) only and no fen()."""

    def __init__(self):
        self.board = chess.Board()

    def set_fen(self, fen):
        self.board = chess.Board(fen)

    def legal_moves(self):
        return (move.uci() for move in self.board.legal_moves)

    def push(self, uci):
        self.board.push_uci(uci)

    def pop(self):
        self.board.pop()


def factory_raises():
    raise RuntimeError("license key missing")


NOT_CALLABLE = 42
