#!/usr/bin/env python3
"""A correct engine: python-chess's own move generation, for agreement tests."""

from pchelper import Adapter, perftree_main

__all__ = ["Adapter"]

if __name__ == "__main__":
    perftree_main(Adapter)
