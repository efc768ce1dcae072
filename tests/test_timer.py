"""Timer: a fake clock makes every expectation exact."""

import time

import pytest

from chesskit.timer import Timer, format_seconds


class FakeClock:
    def __init__(self, now: float = 100.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock():
    return FakeClock()


def test_new_timer_is_stopped_at_zero(clock):
    t = Timer(clock=clock)
    assert not t.running
    assert t.elapsed_s == 0.0
    assert t.elapsed_ms == 0.0
    assert t.display() == "00:00:00.00"


def test_start_stop_measures_the_interval(clock):
    t = Timer(clock=clock)
    t.start()
    clock.advance(1.25)
    assert t.stop() == pytest.approx(1.25)
    assert t.elapsed_s == pytest.approx(1.25)
    assert t.elapsed_ms == pytest.approx(1250.0)


def test_elapsed_is_readable_while_running(clock):
    t = Timer(clock=clock).start()
    clock.advance(2.0)
    assert t.running
    assert t.elapsed_s == pytest.approx(2.0)
    clock.advance(1.0)
    assert t.elapsed_ms == pytest.approx(3000.0)


def test_stopped_timer_does_not_advance(clock):
    t = Timer(clock=clock).start()
    clock.advance(1.0)
    t.stop()
    clock.advance(50.0)
    assert t.elapsed_s == pytest.approx(1.0)


def test_start_stop_pairs_accumulate(clock):
    t = Timer(clock=clock)
    t.start()
    clock.advance(1.0)
    t.stop()
    clock.advance(10.0)  # not counted
    t.start()
    clock.advance(0.5)
    t.stop()
    assert t.elapsed_s == pytest.approx(1.5)


def test_start_while_running_and_stop_while_stopped_are_no_ops(clock):
    t = Timer(clock=clock).start()
    clock.advance(1.0)
    t.start()
    clock.advance(1.0)
    assert t.stop() == pytest.approx(2.0)
    assert t.stop() == pytest.approx(2.0)


def test_reset_zeroes_and_stops(clock):
    t = Timer(clock=clock).start()
    clock.advance(3.0)
    t.reset()
    assert not t.running
    assert t.elapsed_s == 0.0
    clock.advance(3.0)
    assert t.elapsed_s == 0.0


def test_context_manager_starts_and_stops(clock):
    with Timer(clock=clock) as t:
        assert t.running
        clock.advance(0.75)
    assert not t.running
    assert t.elapsed_s == pytest.approx(0.75)


def test_str_is_display(clock):
    t = Timer(clock=clock).start()
    clock.advance(3723.456)
    assert str(t) == t.display() == "01:02:03.45"


@pytest.mark.parametrize(
    "seconds, shown",
    [
        (0.0, "00:00:00.00"),
        (0.009, "00:00:00.00"),  # hundredths are truncated, not rounded
        (0.29, "00:00:00.29"),  # and not lost to float error
        (59.999, "00:00:59.99"),
        (60.0, "00:01:00.00"),
        (3599.99, "00:59:59.99"),
        (3600.0, "01:00:00.00"),
        (100 * 3600 + 1.5, "100:00:01.50"),
        (-1.0, "00:00:00.00"),
    ],
)
def test_format_seconds(seconds, shown):
    assert format_seconds(seconds) == shown


def test_default_clock_is_perf_counter():
    t = Timer()
    assert t._clock is time.perf_counter
    with t:
        pass
    assert t.elapsed_s >= 0.0
