"""Pictures of a hunt: the SVG board (``svg``) and the self-contained HTML report of
``compare``, ``fuzz`` and ``suite`` (``html``), built from the same data their ``--json``
carries (``chesskit.report.html`` says which keys it reads).

May import: the base, ``core`` and ``board`` (to replay a move path into the FEN of each
step). Never compare, suites, fuzz or the CLI: the report knows their JSON, not their code.
"""
