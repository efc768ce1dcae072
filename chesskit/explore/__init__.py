"""``chesskit explore``: walking the divide tree by hand.

``state`` holds where the explorer stands and what it has counted (UI-free, shared by the
two front ends), ``san`` writes moves in SAN, ``text`` the plain-text tables, ``repl`` the
line mode, and ``app`` the full-screen Textual app (the only module that imports Textual).
"""
