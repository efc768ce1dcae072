"""The command-line interface: click wiring in ``main``, one module per command,
rendering and the error boundary in ``output``.

The top layer: may import every other package; nothing imports it.
"""
