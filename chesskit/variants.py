"""The chess variants chesskit counts, by name: the one registry every layer reads.

Pure Python (base layer, no numba). Each variant has a canonical name (as Fairy-Stockfish's
``UCI_Variant`` spells it), an integer id (the core compiles one walk per rule set id), its
start FEN (python-chess's dialect), what its positions hold (pockets, check counters, royal
kings) and the names python-chess and Fairy-Stockfish give it.

``find("Three-check")`` reads any name a user, lichess, python-chess
(``chess.variant.find_variant``) or Fairy-Stockfish writes: case, ``-``, ``_`` and spaces
are ignored, and a ``960`` suffix (``atomic960``, ``chess960``) asks for Chess960 castling
where the variant castles. An unknown name is an ``InputError`` that lists the known ones.

``giveaway`` and ``antichess`` share one rule set (``rules == "antichess"``): giveaway
starts with castling rights, antichess without. python-chess's ``suicide`` is not an
alias: its stalemate rule differs. Not hashed into the compile cache's name (like
``geometry.py``): the ids below are part of the core's contract and never change.
"""

from __future__ import annotations

from dataclasses import dataclass

from chesskit.errors import InputError
from chesskit.geometry import START_FEN

_START_PLACEMENT, _START_REST = START_FEN.split(" ", 1)  # "w KQkq - 0 1"


@dataclass(frozen=True)
class Variant:
    name: str  # canonical: Fairy-Stockfish's UCI_Variant name
    id: int  # the core's id of this name (chess = 0)
    start_fen: str  # python-chess's dialect (``[]`` pockets, ``3+3`` checks)
    rules: str  # the rule set's canonical name (giveaway: "antichess")
    pockets: bool  # crazyhouse: captured pieces go to a pocket and are dropped
    checks: bool  # 3check: check counters, three checks win
    kings: bool  # the king is royal (check, checkmate); False: antichess, giveaway
    castles: bool  # the rules have castling (so a 960 form means something)
    pychess: str  # python-chess's ``uci_variant`` (``chess.variant.find_variant`` reads it)
    fairy: str  # Fairy-Stockfish's UCI_Variant value
    aliases: tuple[str, ...]  # other names (normalised by ``normalise``)

    @property
    def rules_id(self) -> int:
        """The id the core compiles for: one per rule set (giveaway's is antichess's)."""
        return BY_NAME[self.rules].id


def _variant(name, vid, start, *, rules=None, pockets=False, checks=False, kings=True, castles=True, aliases=()):
    return Variant(name, vid, start, rules or name, pockets, checks, kings, castles, name, name, tuple(aliases))


VARIANTS: tuple[Variant, ...] = (
    _variant(
        "chess", 0, START_FEN,
        # python-chess's names for its standard board ("Illegal", "From Position": lichess's setups)
        aliases=("standard", "normal", "classical", "illegal", "fromposition"),
    ),
    _variant("atomic", 1, START_FEN, aliases=("atom", "atomicchess")),
    _variant(
        "crazyhouse", 2, f"{_START_PLACEMENT}[] {_START_REST}", pockets=True,
        aliases=("zh", "house", "crazy house"),
    ),
    _variant("kingofthehill", 3, START_FEN, aliases=("koth", "king of the hill")),
    _variant(
        "3check", 4, START_FEN.replace(" - ", " - 3+3 "), checks=True,
        aliases=("threecheck", "three-check", "3-check", "three check chess", "threecheckchess"),
    ),
    _variant(
        "antichess", 5, START_FEN.replace(" KQkq ", " - "), kings=False, castles=False,
        aliases=("anti", "anti chess"),
    ),
    _variant(
        "giveaway", 6, START_FEN, rules="antichess", kings=False,
        aliases=("give away", "giveaway chess", "give away chess"),
    ),
    _variant(
        "horde", 7, "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        aliases=("horde chess",),
    ),
    _variant(
        "racingkings", 8, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", castles=False,
        aliases=("racing kings", "racing", "race"),
    ),
)
BY_NAME = {v.name: v for v in VARIANTS}
BY_ID = {v.id: v for v in VARIANTS}
NAMES = tuple(v.name for v in VARIANTS)
CHESS = BY_NAME["chess"]


def normalise(name: str) -> str:
    """``"King-of the_Hill" -> "kingofthehill"``: lower case, without ``-``, ``_`` and spaces."""
    return "".join(ch for ch in name.lower() if ch not in "-_ ")


_LOOKUP: dict[str, Variant] = {}
for _v in VARIANTS:
    for _alias in (_v.name, *_v.aliases):
        _LOOKUP[normalise(_alias)] = _v
del _v, _alias


# names of Chess960 itself that carry no "960" suffix (normalised)
_CHESS960_NAMES = frozenset({"fischerandom", "fischerrandom"})


def known_names() -> str:
    """The canonical names and their 960 forms, for an error message."""
    forms = [*NAMES, *(f"{v.name}960" for v in VARIANTS if v.castles)]
    return ", ".join(forms)


def find(name: str) -> tuple[Variant, bool]:
    """``(variant, chess960)`` for any accepted name: ``find("atomic960") == (atomic, True)``,
    ``find("KOTH") == (kingofthehill, False)``; an unknown name raises ``InputError``."""
    key = normalise(name)
    if key in _LOOKUP:
        return _LOOKUP[key], False
    if key in _CHESS960_NAMES:  # Fairy-Stockfish's UCI_Variant name for chess960
        return _LOOKUP["chess"], True
    if key.endswith("960"):
        variant = _LOOKUP.get(key[:-3])
        if variant is not None:
            check_960(variant, name)
            return variant, True
    other = _OTHER_RULES.get(key)
    if other is not None:  # a name users try for a variant chesskit has: not "unknown"
        raise InputError(f"variant {name!r} is not supported: {other}; known variants: {known_names()}")
    raise InputError(f"unknown variant {name!r}; known variants: {known_names()}")


# names of rules close to a supported variant's, left out on purpose, and why
_OTHER_RULES = {
    "suicide": "python-chess's suicide differs from antichess in its stalemate rule (give antichess or giveaway)",
    "losers": "Fairy-Stockfish's losers keeps the king royal (a check must be answered), where antichess's king is a plain piece",
}


def check_960(variant: Variant, name: str) -> None:
    """Refuse Chess960 for ``variant`` (asked for by ``name``, or with a flag beside it) when
    its rules have no castling: Chess960 changes nothing but castling."""
    if not variant.castles:
        raise InputError(f"variant {name!r}: {variant.name} has no castling, so it has no Chess960 form")


def get(name: str) -> Variant:
    """The variant of a canonical name or alias (no 960 form): ``get("zh").name == "crazyhouse"``."""
    variant, chess960 = find(name)
    if chess960:
        raise InputError(f"variant {name!r}: give Chess960 as its own flag here, not in the name")
    return variant


def a_position(name: str) -> str:
    """``"an atomic position"``, ``"a crazyhouse position"``: the rules' name with its article."""
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name} position"
