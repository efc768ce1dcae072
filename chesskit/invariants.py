"""The debug checker's invariants and injectable faults: one table of codes and names.

The compiled walk (``chesskit/core/check.py``) reports a violated invariant by its code
and tests inject a fault by its code; ``chesskit debug`` and its JSON name them. Pure
Python, so the CLI can list the names without loading numba; the core reads the codes
from here (``chesskit/core/__init__.py`` hashes this file into the compile cache's name).
"""

# invariant code -> stable name (the codes 1..17 are the compiled walk's; 0 is "no violation")
INVARIANTS = {
    1: "one-king-each",
    2: "colours-disjoint",
    3: "occupancy-union",
    4: "bitboards-match-squares",
    5: "zobrist-key",
    6: "castling-rights-placement",
    7: "castling-rights-update",
    8: "ep-square",
    9: "halfmove-clock",
    10: "fullmove-number",
    11: "side-to-move",
    12: "mover-not-in-check",
    13: "movegen-matches-oracle",
    14: "bulk-count",
    15: "history-depth",
    16: "unmake-restores-state",
    17: "move-applied",
}
CODES = {name: code for code, name in INVARIANTS.items()}

# checked in Python (chesskit/board/debug.py), not by the compiled walk
FEN_ROUND_TRIP = "fen-round-trip"
INVARIANT_NAMES = (*INVARIANTS.values(), FEN_ROUND_TRIP)

OK = 0
ONE_KING_EACH = CODES["one-king-each"]
COLOURS_DISJOINT = CODES["colours-disjoint"]
OCCUPANCY_UNION = CODES["occupancy-union"]
BITBOARDS_MATCH_SQUARES = CODES["bitboards-match-squares"]
ZOBRIST_KEY = CODES["zobrist-key"]
CASTLING_RIGHTS_PLACEMENT = CODES["castling-rights-placement"]
CASTLING_RIGHTS_UPDATE = CODES["castling-rights-update"]
EP_SQUARE = CODES["ep-square"]
HALFMOVE_CLOCK = CODES["halfmove-clock"]
FULLMOVE_NUMBER = CODES["fullmove-number"]
SIDE_TO_MOVE = CODES["side-to-move"]
MOVER_NOT_IN_CHECK = CODES["mover-not-in-check"]
MOVEGEN_MATCHES_ORACLE = CODES["movegen-matches-oracle"]
BULK_COUNT = CODES["bulk-count"]
HISTORY_DEPTH = CODES["history-depth"]
UNMAKE_RESTORES_STATE = CODES["unmake-restores-state"]
MOVE_APPLIED = CODES["move-applied"]

# injectable fault (tests, ``run_checks(inject=...)``) -> code; 0 is none
FAULTS = {
    "drop-square": 1,  # make leaves the moved piece out of the square array
    "colour-overlap": 2,  # make also marks the moved piece as the other colour's
    "occupancy-extra": 3,  # make leaves the from-square in the occupancy
    "extra-king": 4,  # make leaves a king bit behind on the from-square
    "corrupt-key": 5,  # make corrupts the Zobrist key
    "keep-castling": 6,  # make forgets to clear castling rights
    "lose-castling": 7,  # make clears rights it should keep
    "keep-ep": 8,  # make forgets to clear the en-passant square
    "halfmove-not-reset": 9,  # make forgets to reset the clock on pawn moves and captures
    "fullmove-not-advanced": 10,  # make forgets to advance the fullmove number after Black's move
    "side-not-flipped": 11,  # make forgets to flip the side to move (key flipped anyway)
    "illegal-move": 12,  # the generator also emits a move that leaves its king attacked
    "drop-move": 13,  # the generator loses its last move
    "bulk-count-off": 14,  # the count-only mode counts one too many
    "ply-not-popped": 15,  # unmake forgets to pop the history stack
    "unmake-forgets-clock": 16,  # unmake forgets to restore the halfmove clock
    "ep-pawn-stays": 17,  # make forgets to remove the pawn taken en passant
}

F_NONE = 0
F_DROP_SQUARE = FAULTS["drop-square"]
F_COLOUR_OVERLAP = FAULTS["colour-overlap"]
F_OCC_EXTRA = FAULTS["occupancy-extra"]
F_EXTRA_KING = FAULTS["extra-king"]
F_KEY = FAULTS["corrupt-key"]
F_KEEP_CASTLING = FAULTS["keep-castling"]
F_LOSE_CASTLING = FAULTS["lose-castling"]
F_KEEP_EP = FAULTS["keep-ep"]
F_HALFMOVE = FAULTS["halfmove-not-reset"]
F_FULLMOVE = FAULTS["fullmove-not-advanced"]
F_SIDE = FAULTS["side-not-flipped"]
F_ILLEGAL_MOVE = FAULTS["illegal-move"]
F_DROP_MOVE = FAULTS["drop-move"]
F_BULK = FAULTS["bulk-count-off"]
F_PLY = FAULTS["ply-not-popped"]
F_UNMAKE_CLOCK = FAULTS["unmake-forgets-clock"]
F_EP_PAWN_STAYS = FAULTS["ep-pawn-stays"]
