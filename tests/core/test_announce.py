"""The notice that a compile is under way (``chesskit.core.api.announce``): said for the
walks compiled on first use besides the move generator (``--stats``, ``debug``), only
when neither the process nor the compile cache has them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from chesskit.core import check, stats, vstats
from chesskit.core.api import announce
from helpers import without


def _entry(index: str | None, signatures=()):
    cache = SimpleNamespace(_cache_file=SimpleNamespace(_index_path=index)) if index is not None else None
    return SimpleNamespace(signatures=list(signatures), _cache=cache)


def test_said_once_when_the_cache_has_no_index_for_it(tmp_path, capsys):
    announce(_entry(str(tmp_path / "stats.stats_walk-110.py311.nbi")), "the leaf counters (--stats)")
    err = capsys.readouterr().err
    assert err.startswith("chesskit: compiling the leaf counters (--stats), ") and err.count("\n") == 1


def test_silent_when_cached_compiled_or_unknown(tmp_path, capsys):
    index = tmp_path / "x.nbi"
    index.write_bytes(b"")
    announce(_entry(str(index)), "x")  # in the cache
    announce(_entry(str(tmp_path / "y.nbi"), signatures=["(int64,)"]), "x")  # compiled in this process
    announce(_entry(None), "x")  # another numba: nothing to go by
    announce(object(), "x")
    assert capsys.readouterr().err == ""


def test_the_real_entries_have_what_it_reads():
    # numba's private API: the cache's index file of each walk compiled on first use
    for entry in (stats.stats_walk, stats.divide_stats, check.check_walk, vstats.entry(1)):
        assert isinstance(entry._cache._cache_file._index_path, str)
        assert callable(entry._cache._cache_file._load_index)


def test_said_when_the_cached_index_fails_its_check(tmp_path, capsys):
    # a damaged or another version's index (numbaguard reads it as empty) was compiled again
    # in a silent pause of seconds
    index = tmp_path / "stats.stats_walk-110.py311.nbi"
    index.write_bytes(b"damaged")
    entry = _entry(str(index))
    entry._cache._cache_file._load_index = dict  # what numbaguard makes of a file in doubt: {}
    announce(entry, "the leaf counters (--stats)")
    assert capsys.readouterr().err == (
        "chesskit: compiling the leaf counters (--stats) again: its cached copy failed its check "
        "(damaged, or another version's)\n"
    )
    entry._cache._cache_file._load_index = lambda: {"sig": "entry"}  # intact: said nothing
    announce(entry, "the leaf counters (--stats)")
    assert capsys.readouterr().err == ""


def test_a_variants_walk_compiled_again_is_named_as_its_first_compile_is(monkeypatch, capsys):
    # a damaged atomic walk was rebuilt saying "compiling the variant's move generator again",
    # where its first compile said "compiling the atomic move generator"
    from chesskit.board.board import Board
    from chesskit.core import native

    from chesskit.core.vstate import IDS

    board = Board(variant="atomic")
    Board().perft(1)  # the standard walk, loaded (warm_up runs it)
    monkeypatch.setattr(native, "_walks", without(native._walks, IDS["atomic"]))  # the stub's walk is not left behind
    monkeypatch.setattr(native, "load", lambda variant=0: None)  # its saved copy failed its check
    monkeypatch.setattr(native, "build", lambda variant=0: "built")
    monkeypatch.setattr(native, "is_saved", lambda variant=0: True)
    board.warm_up()
    err = capsys.readouterr().err
    assert err.startswith("chesskit: compiling the atomic move generator again") and err.count("\n") == 1
    assert "the variant's" not in err


@pytest.mark.parametrize("cache_kept", [True, False])
def test_a_variants_first_compile_is_said_by_every_command_as_the_standard_walks_is(monkeypatch, capsys, cache_kept):
    # only `perft` (through Board.warm_up) said "compiling the horde move generator": show,
    # compare, suite and chesskit.perft(..., variant=...) on a cache without it paused for
    # seconds in silence; and with no compile cache kept (the standard walk: "every run (no
    # compile cache is kept)") even warm_up said nothing
    from chesskit.core import native
    from chesskit.core.vstate import IDS, RULES

    rules = RULES[IDS["horde"]]
    monkeypatch.setattr(native, "_walks", without(native._walks, rules))  # the stub's walk is not left behind
    monkeypatch.setattr(native, "load", lambda variant=0: None)
    monkeypatch.setattr(native, "build", lambda variant=0: "built")
    monkeypatch.setattr(native, "_numba_holds_it", lambda: False)
    if cache_kept:
        monkeypatch.setattr(native, "is_saved", lambda variant=0: False)
    else:
        monkeypatch.setattr(native, "CACHE", None)
    assert native.walk(rules) == "built"  # as the variant's move maker first asks for it
    assert native.walk(rules) == "built"  # once per process
    err = capsys.readouterr().err
    assert err.startswith("chesskit: compiling the horde move generator, ") and err.count("\n") == 1, err
    assert ("every run (no compile cache is kept)" in err) == (not cache_kept), err
