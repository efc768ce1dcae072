"""How a piece is drawn as text, one owner for every board a terminal shows (``show`` and
``compare`` in ``chesskit.cli.boardview``, the explorer in ``chesskit.explore.app``).

Pure data, in the base layer: no import, and not hashed into the compile cache's name
(as ``chesskit.vocab`` is), so an edit here recompiles nothing.
"""

from __future__ import annotations

# Outlined figurines for White, solid for Black, both drawn in black: readable on light
# and dark squares alike, in any colour mode. Keyed by FEN letter.
FIGURINES = dict(zip("KQRBNPkqrbnp", "♔♕♖♗♘♙♚♛♜♝♞♟"))
