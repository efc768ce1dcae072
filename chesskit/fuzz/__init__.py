"""``chesskit fuzz``: search for positions where an engine's perft disagrees with chesskit's.

``sources`` generates positions (random play, unusual material, steered special cases,
mutated suite positions) from one seeded ``random.Random``; ``shrink`` cuts a failing
position down to the fewest pieces that still show the disagreement; ``run`` is the loop
that ties them to compare's descent.

May import: ``chesskit.vocab``, ``chesskit.errors``, ``chesskit.timer``, ``chesskit.core``,
``chesskit.board``, ``chesskit.compare`` and ``chesskit.suites`` (the bundled positions).
Never the cluster or the CLI.
"""
