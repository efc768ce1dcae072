"""conftest's own fixtures. ``no_leftover_children`` blames a test only for the children it
left: a child the process already had (multiprocessing's resource tracker, which an earlier
test in the same pytest-xdist worker started and which lives as long as the process) made
every later engine test fail after a 30 s wait."""

from __future__ import annotations

import pytest


@pytest.fixture
def process_lifetime_child():
    """multiprocessing's resource tracker, running before the test (as an earlier test in
    the same worker leaves it)."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


@pytest.mark.usefixtures("process_lifetime_child", "no_leftover_children")
def test_a_child_from_before_the_test_is_not_a_leftover():
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # already running: this test starts nothing
