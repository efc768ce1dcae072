"""The names of standard chess's perft counters (``--stats``), in the order of the compiled
rows (``chesskit/core/stats.py``; a variant's rows, ``core/vstats.py``, begin with them):
one owner for ``counters.py`` (standard chess) and ``vcounters.py`` (the variants, which
adds its own names after these)."""

COUNTERS = (
    "nodes",
    "captures",
    "en_passant",
    "castles",
    "promotions",
    "checks",
    "discovery_checks",
    "double_checks",
    "checkmates",
)
