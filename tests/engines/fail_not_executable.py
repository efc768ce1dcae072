#!/usr/bin/env python3
"""Never runs: this file is deliberately not executable (mode 644)."""

print("e2e4 1")
