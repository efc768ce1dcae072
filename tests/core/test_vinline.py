"""What a variant's walk inlines (issue 22, compile time), read from the Python code: no
compile, so it runs in the default run.

numba pastes a copy of an ``inline="always"`` function at every call site, and does so
before it prunes the branches of its caller's arguments: the walk's hooks that chose the
rule set with ``if vid == ...`` pasted every variant's generator into every variant's walk,
three times over (kingofthehill's walk took 100 s of CPU to compile, atomic's 6 minutes).
The walk of each rule set must inline its own rule set's code only, each hook once, and
standard generation (``movegen._generate``) no more often than the standard walk does (once
for the node, once for the last ply's count)."""

from __future__ import annotations

import dis
from collections import Counter

import pytest

from chesskit.core import movegen, vgen, vstats, vwalk
from chesskit.core.vstate import NAMES, RULES

RULE_SETS = sorted(set(vgen.GENERATE))


def _inline_target(obj):
    options = getattr(obj, "targetoptions", None)
    return obj if options and options.get("inline") == "always" else None


def inlined(function, counts=None) -> Counter:
    """How many copies of each ``inline="always"`` function numba pastes into ``function``
    (counted through the copies it pastes, as numba inlines each callee's callees first),
    every call site counted, whatever branch it is in."""
    counts = Counter() if counts is None else counts
    cells = dict(zip(function.__code__.co_freevars, (c.cell_contents for c in function.__closure__ or ())))
    loaded = None
    for ins in dis.get_instructions(function):
        if ins.opname == "LOAD_GLOBAL":
            loaded = function.__globals__.get(ins.argval)
        elif ins.opname == "LOAD_DEREF":
            loaded = cells.get(ins.argval)
        elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and loaded is not None:
            loaded = getattr(loaded, ins.argval, None)
        else:
            loaded = None
            continue
        target = _inline_target(loaded)
        if target is not None:
            counts[target.py_func] += 1
            inlined(target.py_func, counts)
    return counts


def test_the_counter_sees_every_branch():
    """A hook choosing the rule set at run time (the walk's shape before issue 22's fix)
    carries every generator it names: the counter sees each."""
    g0, g1 = vgen.GENERATE[RULE_SETS[0]], vgen.GENERATE[RULE_SETS[-1]]

    def switch(vid, T, bb, board, st, out, count_only):
        if vid == 1:
            return g0(T, bb, board, st, out, count_only)
        return g1(T, bb, board, st, out, count_only)

    counts = inlined(switch)
    assert counts[g0.py_func] == 1 and counts[g1.py_func] == 1
    assert counts[movegen._generate.py_func] >= 1


@pytest.mark.parametrize("vid", RULE_SETS, ids=[NAMES[v] for v in RULE_SETS])
def test_a_variant_walk_inlines_only_its_own_rules(vid):
    counts = inlined(vwalk.walk_function(vid))
    others = {vgen.GENERATE[v].py_func for v in RULE_SETS if vgen.GENERATE[v] is not vgen.GENERATE[vid]}
    own = set(inlined(vgen.GENERATE[vid].py_func)) | {vgen.GENERATE[vid].py_func}
    assert not (others - own) & set(counts), f"{NAMES[vid]}'s walk inlines another rule set's generator"
    # its generator at most twice: the node, and inside the last ply's count
    assert 1 <= counts[vgen.GENERATE[vid].py_func] <= 2
    assert counts[movegen._generate.py_func] <= 2


def test_every_rule_set_has_a_walk_and_giveaway_shares_antichess():
    assert {RULES[v] for v in range(1, len(NAMES))} == set(RULE_SETS)
    with pytest.raises(ValueError):
        vwalk.walk_function(0)


@pytest.mark.parametrize("vid", RULE_SETS, ids=[NAMES[v] for v in RULE_SETS])
def test_a_variant_counters_walk_inlines_only_its_own_rules(vid):
    """The --stats walk (core/vstats.py) likewise: its rule set's generator twice (the
    node's moves, the replies that decide a mate or antichess's no-moves win), no other's."""
    counts = inlined(vstats.walk_function(vid))
    others = {vgen.GENERATE[v].py_func for v in RULE_SETS if vgen.GENERATE[v] is not vgen.GENERATE[vid]}
    assert not others & set(counts), f"{NAMES[vid]}'s counters walk inlines another rule set's generator"
    assert counts[vgen.GENERATE[vid].py_func] == 2
    assert counts[movegen._generate.py_func] <= 2


def test_the_counters_walk_has_no_run_time_rule_choice():
    with pytest.raises(ValueError):
        vstats.walk_function(0)
    with pytest.raises(ValueError):
        vstats.walk_function(6)  # giveaway runs antichess's
