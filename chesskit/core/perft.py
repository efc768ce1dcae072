"""perft and move lists in the compiled core (divide and the parallel split are in
``chesskit/board/threads.py``, in Python).

The tree walk uses an explicit stack (per level: a move-buffer row, the move count, the
next index and the running subtotal) instead of recursion: numba cannot cache a
recursive function, and the loop is faster. The last ply is counted in bulk (popcounts
of target sets, no moves made), and a quiet move or a capture that provably leaves the
replies as they would be if its side passed, or changes them only by what the other side's
pieces gain and lose, takes that count (made once for the node) plus its change
(``replies.py``); those whose change is none are not even listed: the move list counts
them in a lump (``movegen.generate_at`` with the lump masks ``replies.sensitive_squares``
writes), and the node adds the count once per lumped move (startpos 6 20% faster, pos6 5
8%: docs/benchmarks.md, 2026-11-29, late).
Interior nodes two or more plies above the leaves are looked up in and stored to the
transposition table ``tt`` (an empty array disables it):
a node's children are looked up by keys computed from their moves (``makemove.child_keys_at``),
their buckets fetched ahead of their probes (``tt.fetch_at``: children 0 to ``AHEAD`` at the
first probe, then child ``i + AHEAD``'s as child ``i`` is probed), and a child found is never
made.
A node is stored by two keys (``tt.py``): key 1 is the state's (bb[KEY], kept by make);
key 2 lives only here, in ``keys`` beside key 1 (row ``level``, words ``2j`` and
``2j + 1`` for move ``j``): computed from scratch where the table's part of the tree
begins (``position.compute_key2``), and carried down from parent to child by
``child_keys``.

The walk's arrays are views of memory it is handed as pointers (``carray``), which numba
counts no references to: counting them costs a third of the time in the bulk-counting
loop (``noref.py``). ``entry.py`` allocates them in Python and holds them until it
returns, and calls it through ``native.py``. The calls the walk makes in its loops (the move
list, a leaf parent's masks, the table, the children's keys: the ``*_at`` functions) take
those pointers and sizes, not arrays: each array argument of a call costs numba's reference
counting and seven words of arguments (startpos 8 with a 256 MiB table 12% faster, the
one-core bench 3-5%: docs/benchmarks.md, 2026-11-29 night).

``walk`` is the only function a perft compiles (a first run's compile is most of its
time): it makes a task's first moves itself (the ``prefix``), lists moves for the
thread pool and for ``Board`` (depth 0), and counts.
"""

from numba import carray

from .bitboard import ZERO

from .makemove import child_keys_at, make, make_for_count, unmake
from .movegen import LUMP_SHIFT, NO_LUMPS, WRITTEN, _generate, generate_at
from .position import BB_SIZE, KEY, MAX_MOVES, ST_SIZE, STM, compute_key2
from .replies import LUMP_ROW, NOT_SHARED, pass_copy, reply_change, sensitive_squares_at
from .tt import fetch_at, probe_at, store_at
from .walkargs import numba_signature

# how many children ahead of its probe a child's bucket is fetched. Fetching all of a node's
# children at once made the first probes wait on the later fetches: a prefetch whose address
# misses the TLB holds up the instructions behind it until its page walk is done (a nested
# one on a virtual machine); one fetch per probe spreads those walks over the work between
# (startpos 9, 2 GiB, one thread: 117 against 123 CPU s; docs/benchmarks.md)
AHEAD = 8


def c_entry(cache=False):
    """The walk, compiled by numba as a C function on each call (``walkargs.ARGS`` is
    its signature: each array a pointer and its sizes). Not cached by numba: its machine
    code must be at hand to be saved (``native.py``; ``cache=True`` where it cannot be
    saved or loaded, so numba's cache serves the next run), and written as the C function itself
    rather than a wrapper around a jitted walk, the first run optimises and generates its
    code once, not twice (about 4 s less compile).

    After making the moves of ``prefix``: perft(``depth``) for depth >= 1, or with depth
    0 the number of legal moves, written to ``moves[len(prefix)]``. Every move made is
    taken back before it returns, except with depth -1: then the prefix's moves are made
    and left made (``entry.play``, a board's move without loading numba). ``moves`` has ``len(prefix) + depth + 1`` rows.

    The core's one entry point for perft, move lists and the thread pool's tasks (one
    function to compile on a first run instead of four). The prefix moves are levels of
    the walk with one forced move each: their subtotals are not their nodes' perft, so
    they are never stored in or looked up from the table."""
    from numba import cfunc, types

    @cfunc(numba_signature(types), cache=cache)  # its parameters are ``walkargs.parameters()``
    def walk(T_, nT, bb_, board_, st_, hist_, hkeys_, nhist, prefix_, nprefix, depth, tt_, ntt,
             moves_, nrows, keys_, nmoves_, index_, acc_, scratch_, leaf_bb_, leaf_st_):
        T = carray(T_, (nT,))
        bb, board, st = carray(bb_, (BB_SIZE,)), carray(board_, (64,)), carray(st_, (ST_SIZE,))
        hist, hkeys = carray(hist_, (nhist, 4)), carray(hkeys_, (nhist, 2))
        prefix = carray(prefix_, (nprefix,))
        moves, keys = carray(moves_, (nrows, MAX_MOVES)), carray(keys_, (nrows, 2 * MAX_MOVES))
        nmoves, index, acc = carray(nmoves_, (nrows,)), carray(index_, (nrows,)), carray(acc_, (nrows,))
        scratch = carray(scratch_, (MAX_MOVES,))
        leaf_bb, leaf_st = carray(leaf_bb_, (BB_SIZE,)), carray(leaf_st_, (ST_SIZE,))
        forced = prefix.shape[0]
        plies = forced + depth
        hashing = ntt > 0
        root2 = compute_key2(bb, board, st) if hashing and forced == 0 else ZERO  # key 2 at level 0
        if hashing and forced == 0 and depth >= 2:
            hit = probe_at(tt_, ntt, bb[KEY], root2, depth)
            if hit >= 0:
                return hit
        level = 0
        entering = True
        while level >= 0:
            if entering:
                if level == forced and depth < 0:
                    return 0  # depth -1 (``entry.play``): the prefix's moves stay made
                # a new node, ``plies - level`` plies above the leaves: its moves
                entering = False
                index[level] = 0
                acc[level] = 0
                if level < forced:
                    moves[level, 0] = prefix[level]
                    nmoves[level] = 1
                    if hashing and level + 1 == forced and plies - level >= 3:
                        k, k2 = child_keys_at(T_, nT, bb_, board_, st_, compute_key2(bb, board, st), prefix[level])
                        keys[level, 0] = k
                        keys[level, 1] = k2
                elif plies - level == 2:
                    # the node above the last ply: count the replies with this side passing
                    # first (no moves made) and find which of this side's moves leave that
                    # count as it is, or change it by what it knows; then list the moves but
                    # those left as they are, which ``generate_at`` only counts (they take the
                    # count, the lump); copy-make each of the others that its change does not
                    # cover on scratch arrays and count its replies in bulk
                    total = 0  # a local, not acc[level]: no store per move
                    us = st[STM] & 1
                    passed = -1  # the replies with this side passing (j = -1), when counted
                    reach = ZERO  # what T's sliders and pawns reach, once known
                    lumps = NO_LUMPS  # where the lump masks are in this node's row of ``keys``, once known
                    n = 0
                    j = -1
                    while j < n:
                        if j < 0:
                            counted = pass_copy(T, bb, st, leaf_bb, leaf_st)
                        else:
                            mv = moves[level, j]
                            change = reply_change(T, bb, board, us, mv, reach, keys[level]) if passed >= 0 else NOT_SHARED
                            counted = change == NOT_SHARED
                            if counted:
                                make_for_count(T, bb, board, st, mv, leaf_bb, leaf_st)
                            else:
                                total += passed + change
                        if counted:
                            # one call site: one inlined copy of the count (first-run compile time)
                            c = _generate(T, leaf_bb, board, leaf_st, scratch, True)
                            if j < 0:
                                passed = c
                                # the masks go to this node's row of ``keys``: unused two plies above the leaves
                                reach = sensitive_squares_at(T_, nT, bb_, st_, keys_, level * 2 * MAX_MOVES)
                                lumps = level * 2 * MAX_MOVES + LUMP_ROW
                            else:
                                total += c
                        if j < 0:
                            n = generate_at(T_, nT, bb_, board_, st_, moves_, level * MAX_MOVES, keys_, lumps)
                            total = passed * (n >> LUMP_SHIFT)  # no lump in check, where passed is -1
                            n &= WRITTEN
                            nmoves[level] = n
                        j += 1
                    acc[level] = total
                    index[level] = n
                else:
                    # the move list is a call (``generate_at``, compiled by the first run's
                    # second core while this walk compiles: a first run 0.3 s shorter) and only
                    # the counting mode is inlined, once, above: the list is made once per node
                    # above the last ply, the count once per leaf parent's move (a call there
                    # measured no slower: docs/benchmarks.md)
                    n = generate_at(T_, nT, bb_, board_, st_, moves_, level * MAX_MOVES, keys_, NO_LUMPS)
                    nmoves[level] = n
                    if plies - level < 2:
                        acc[level] = n  # perft 1, or the move list (depth 0)
                        index[level] = n
                    elif hashing:
                        # children that are looked up: their keys from their moves, and all
                        # their buckets asked for before the first probe waits on memory
                        own2 = root2 if level == 0 else keys[level - 1, 2 * index[level - 1] - 1]
                        for j in range(n):
                            k, k2 = child_keys_at(T_, nT, bb_, board_, st_, own2, moves[level, j])
                            keys[level, 2 * j] = k
                            keys[level, 2 * j + 1] = k2
            i = index[level]
            if i < nmoves[level]:
                index[level] = i + 1
                left = plies - level - 1
                if hashing and level >= forced and left >= 2:
                    # the buckets of children 0 to AHEAD at the first probe, then child i + AHEAD's
                    for j in range(i + AHEAD if i else 0, min(i + AHEAD + 1, nmoves[level])):
                        fetch_at(tt_, ntt, keys[level, 2 * j], left)
                hit = probe_at(tt_, ntt, keys[level, 2 * i], keys[level, 2 * i + 1], left) if hashing and level + 1 >= forced and left >= 2 else -1
                if hit >= 0:
                    acc[level] += hit  # a child found is never made
                else:
                    make(T, bb, board, st, hist, hkeys, moves[level, i])
                    level += 1
                    entering = True
            else:
                if hashing and level >= forced and plies - level >= 2:
                    own2 = root2 if level == 0 else keys[level - 1, 2 * index[level - 1] - 1]
                    store_at(tt_, ntt, bb[KEY], own2, plies - level, acc[level])
                if level > 0:
                    acc[level - 1] += acc[level]
                    unmake(bb, board, st, hist, hkeys)
                level -= 1
        return acc[0]

    return walk
