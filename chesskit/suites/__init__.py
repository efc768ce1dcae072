"""Suites: reading suite files, EPD and ``.perft``, a position or an error per line
(``formats``), resolving POSITION arguments and finding the bundled ``positions/``
(``positions``), running suites with chesskit or an engine (``runner``), chesskit's own
estimate of a count, which bounds the work whatever a file says (``estimate``), JUnit XML
(``junit``), the fixed benchmark workload (``bench``) and the whole check callable from
Python (``session``: ``prepare``, ``execute``, ``Outcome``).

May import: ``chesskit.vocab``, ``chesskit.errors``, ``chesskit.timer``, ``chesskit.core``,
``chesskit.board`` and ``chesskit.compare``. Never the cluster or the CLI.
"""
