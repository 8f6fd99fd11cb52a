"""The low point of a turn, as a pure rule over the clock (the times are arguments: no waiting)."""

from __future__ import annotations

from random import Random

import pytest
from tabletop.clocks import (
    ChessClock,
    ClockState,
    Correspondence,
    NoClock,
    PerTurn,
    TimeControl,
    advance_clock,
    due_of,
    start_clock,
)
from tabletop_server._clock_low import low_of, low_seats, next_point

DAY = 86_400_000


@pytest.mark.parametrize(
    ("control", "low_at"),
    [
        (PerTurn(seconds=60), 48_000),  # the last 12 s of a 60 s turn
        (Correspondence(days=1), DAY - DAY // 5),
        (ChessClock(main_seconds=300), 240_000),  # the bank falls below one minute
        (NoClock(), None),
    ],
)
def test_a_seat_runs_low_in_the_last_fraction_of_its_allowance(
    control: TimeControl, low_at: int | None
) -> None:
    clock = start_clock(control, ["p1", "p2"], active=["p1"], now_ms=0)
    assert low_of(control, clock.seats["p1"], 0.2) == low_at
    assert low_of(control, clock.seats["p2"], 0.2) is None  # not to act
    assert low_of(control, clock.seats["p1"], 0.0) is None  # turned off


def test_the_due_time_is_the_low_point_until_it_passed_then_the_expiry() -> None:
    control = PerTurn(seconds=10)
    clock = start_clock(control, ["p1", "p2"], active=["p1"], now_ms=1_000)
    assert next_point(control, clock, 0.25, after_ms=1_000) == 8_500
    assert low_seats(control, clock, 0.25, floor_ms=8_500, now_ms=8_600) == ["p1"]
    assert next_point(control, clock, 0.25, after_ms=8_600) == 11_000  # announced: the expiry next
    assert low_seats(control, clock, 0.25, floor_ms=11_000, now_ms=11_000) == []  # out of time: no event


def test_a_seat_that_moved_in_time_starts_a_new_turn_and_the_other_seat_runs_low() -> None:
    control = PerTurn(seconds=10)
    clock = start_clock(control, ["p1", "p2"], active=["p1"], now_ms=0)
    moved = advance_clock(control, clock, now_ms=2_000, acted=["p1"], active=["p2"])
    assert low_of(control, moved.seats["p1"], 0.25) is None
    assert next_point(control, moved, 0.25, after_ms=2_000) == 9_500  # p2's low point
    assert low_seats(control, moved, 0.25, floor_ms=9_500, now_ms=9_500) == ["p2"]


def test_a_chess_seat_already_low_at_the_start_of_its_turn_is_not_told_again() -> None:
    control = ChessClock(main_seconds=100)
    clock = start_clock(control, ["p1", "p2"], active=["p1"], now_ms=0)
    clock = advance_clock(control, clock, now_ms=90_000, acted=["p1"], active=["p2"])  # p1: 10 s left
    clock = advance_clock(control, clock, now_ms=91_000, acted=["p2"], active=["p1"])
    assert low_of(control, clock.seats["p1"], 0.2) is None  # below 20 s when its turn started
    assert next_point(control, clock, 0.2, after_ms=91_000) == 101_000  # only its expiry


def _next_point_by_rule(
    control: TimeControl, clock: ClockState, fraction: float, after_ms: int
) -> int | None:
    """``next_point`` as its rule reads: the earliest expiry, or low point (``low_of``) past ``after_ms``."""
    points = [due for seat in clock.seats.values() if (due := due_of(control, seat)) is not None]
    points += [
        low
        for seat in clock.seats.values()
        if (low := low_of(control, seat, fraction)) is not None and low > after_ms
    ]
    return min(points, default=None)


@pytest.mark.parametrize(
    "control", [PerTurn(seconds=60), Correspondence(days=1), ChessClock(main_seconds=300), NoClock()]
)
def test_next_point_is_the_rule_over_every_seat(control: TimeControl) -> None:
    random = Random(27)
    for _ in range(300):
        seats = ["p1", "p2", "p3"]
        clock = start_clock(control, seats, active=random.sample(seats, random.randint(0, 3)), now_ms=0)
        now = random.randint(0, 200_000)
        active = random.sample(seats, random.randint(0, 3))
        clock = advance_clock(control, clock, now_ms=now, acted=random.sample(seats, 1), active=active)
        fraction = random.choice([0.0, 0.1, 0.25, 0.5, 1e-9])
        after = now + random.randint(-100_000, 400_000)
        assert next_point(control, clock, fraction, after) == _next_point_by_rule(
            control, clock, fraction, after
        )
