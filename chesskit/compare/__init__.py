"""The compare machinery: the automatic descent to the first differing node
(``descent``), what kind of move was missed or invented (``classify``), the full-state
comparison with a Python adapter (``statecmp``), and the external engines with their
dialects (``engines``).

May import: ``chesskit.vocab``, ``chesskit.errors``, ``chesskit.timer``, ``chesskit.core``
and ``chesskit.board``. Never suites, the cluster or the CLI.
"""
