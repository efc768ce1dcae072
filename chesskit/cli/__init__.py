"""The command-line interface: click wiring in ``main``, one module per command,
rendering and the error boundary in ``output``; what several commands share has a
module of its own (``options``, ``engine_options``, ``boardview``, ``perft_view``).

The top layer: may import every other package; nothing imports it.
"""
