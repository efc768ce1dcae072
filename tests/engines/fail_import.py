"""A Python adapter module that cannot be imported."""

raise ImportError("this adapter needs libfoo")
