"""The names of standard chess's perft counters (``--stats``), in the order of the compiled
rows (``chesskit/core/stats.py``; a variant's rows, ``core/vstats.py``, begin with them):
one owner for ``counters.py`` (standard chess) and ``vcounters.py`` (the variants, which
adds its own names after these), and for the ``S<n>`` operand's grammar, which a suite
file's reader checks without loading either (numpy)."""

from chesskit.errors import InputError

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

_CHECKS = ("checks", "discovery_checks", "double_checks", "checkmates")
_MOVES = ("captures", "en_passant", "castles", "promotions")
# the counters of each rule set's rows, "nodes" left out
VARIANT_COUNTERS = {
    "atomic": (*_MOVES, *_CHECKS, "exploded_pieces", "king_explosions"),
    "crazyhouse": (*_MOVES, *_CHECKS, "drops", "drop_checks", "promoted_captures"),
    "kingofthehill": (*_MOVES, *_CHECKS, "goal_reached"),
    "3check": (*_MOVES, *_CHECKS, "third_checks"),
    "antichess": (*_MOVES, "king_promotions", "no_pieces", "no_moves"),
    "giveaway": (*_MOVES, "king_promotions", "no_pieces", "no_moves"),
    "horde": (*_MOVES, *_CHECKS, "no_pieces"),
    "racingkings": ("captures", "goal_reached"),
}


def names_of(variant: str) -> tuple[str, ...]:
    """"nodes" and the counters of ``variant`` (canonical name; standard chess: ``COUNTERS``)."""
    return COUNTERS if variant == "chess" else ("nodes", *VARIANT_COUNTERS[variant])


def parse_stat_opcode(text: str, names: tuple[str, ...] = COUNTERS) -> dict[str, int]:
    """``'captures=34 checks=12'`` -> ``{"captures": 34, "checks": 12}``.

    The operand of an ``S<n>`` EPD opcode: space-separated ``name=count`` pairs, any
    subset of ``names`` (the counters of the line's variant, ``counter_names``; ``nodes``
    too). Raises InputError on anything else.
    """
    found: dict[str, int] = {}
    for item in text.replace(",", " ").split():
        name, sep, value = item.partition("=")
        if not sep or name not in names:
            known = ", ".join(names)
            raise InputError(f"bad statistics item {item!r}: expected name=count with a name among {known}")
        # ASCII digits only ('²'.isdigit() is True but int('²') fails), and a bounded
        # number of them: a count has at most 20 digits
        if not (value.isascii() and value.isdigit() and len(value) <= 20):
            raise InputError(f"bad statistics item {item!r}: {value!r} is not a non-negative integer of at most 20 digits")
        found[name] = int(value)
    if not found:
        raise InputError("empty statistics opcode: expected name=count pairs such as 'captures=34'")
    return found
