"""The variant names registry (chesskit/variants.py), checked against python-chess's and
Fairy-Stockfish's own names and start positions (independent oracles)."""

from __future__ import annotations

import chess
import chess.variant
import pytest

from chesskit import variants
from chesskit.errors import InputError

import pyffish


def test_ids_are_the_contracts():
    assert [(v.name, v.id) for v in variants.VARIANTS] == [
        ("chess", 0), ("atomic", 1), ("crazyhouse", 2), ("kingofthehill", 3), ("3check", 4),
        ("antichess", 5), ("giveaway", 6), ("horde", 7), ("racingkings", 8),
    ]
    assert variants.get("giveaway").rules_id == variants.get("antichess").id == 5
    assert variants.get("atomic").rules_id == 1


@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.name)
def test_start_fens_are_the_oracles(variant):
    # python-chess writes the same start FEN, Fairy-Stockfish too (its UCI_Variant name)
    board = chess.variant.find_variant(variant.pychess)()
    assert board.fen() == variant.start_fen
    assert pyffish.start_fen(variant.fairy) == variant.start_fen
    assert board.uci_variant == variant.pychess


@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.name)
def test_every_python_chess_alias_is_read(variant):
    cls = chess.variant.find_variant(variant.pychess)
    for alias in cls.aliases:
        assert variants.find(alias) == (variant, False), alias


@pytest.mark.parametrize(
    "name, canonical, chess960",
    [
        ("standard", "chess", False), ("Normal", "chess", False), ("koth", "kingofthehill", False),
        ("King-of-the-Hill", "kingofthehill", False), ("threecheck", "3check", False),
        ("three_check", "3check", False), ("3-check", "3check", False), ("anti", "antichess", False),
        ("ZH", "crazyhouse", False), ("house", "crazyhouse", False), ("racingKings", "racingkings", False),
        ("atomic960", "atomic", True), ("crazyhouse960", "crazyhouse", True), ("chess960", "chess", True),
        ("koth960", "kingofthehill", True), ("giveaway960", "giveaway", True),
        # Fairy-Stockfish's UCI_Variant name of Chess960 was an unknown variant
        ("fischerandom", "chess", True), ("FischerRandom", "chess", True),
    ],
)
def test_aliases_and_960_forms(name, canonical, chess960):
    variant, is960 = variants.find(name)
    assert (variant.name, is960) == (canonical, chess960)


@pytest.mark.parametrize("name", ["suicide", "losers", "shogi", "", "960", "racingkings960", "antichess960"])
def test_unknown_names_list_the_known_ones(name):
    with pytest.raises(InputError) as err:
        variants.find(name)
    text = str(err.value)
    assert repr(name) in text
    if "no castling" not in text:
        assert "atomic, crazyhouse, kingofthehill, 3check, antichess, giveaway, horde, racingkings" in text
        assert "atomic960" in text


def test_features():
    has = {v.name: (v.pockets, v.checks, v.kings) for v in variants.VARIANTS}
    assert has["crazyhouse"] == (True, False, True)
    assert has["3check"] == (False, True, True)
    assert has["antichess"] == has["giveaway"] == (False, False, False)
    assert has["chess"] == has["horde"] == (False, False, True)


@pytest.mark.parametrize("name, why", [
    ("suicide", "python-chess's suicide differs from antichess in its stalemate rule (give antichess or giveaway)"),
    ("Losers", "Fairy-Stockfish's losers keeps the king royal"),
])
def test_rules_close_to_a_supported_variant_are_said_to_be_left_out_not_unknown(name, why):
    # QA 41b: `--variant suicide` was "unknown", as if chesskit had never heard of it
    with pytest.raises(InputError) as err:
        variants.find(name)
    assert str(err.value).startswith(f"variant {name!r} is not supported: {why}") and "unknown" not in str(err.value)
