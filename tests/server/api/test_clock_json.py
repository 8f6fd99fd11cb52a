"""The ``ClockView`` JSON of a clock (``clock_json``): each seat's time left as the clock's rules
(``due_of``, ``remaining_of``) give it, for every kind of control, running or finished."""

from __future__ import annotations

from datetime import UTC, datetime
from random import Random

import orjson
import pytest
from pydantic import JsonValue
from tabletop.clocks import (
    ChessClock,
    ClockSettings,
    ClockState,
    Correspondence,
    NoClock,
    PerTurn,
    TimeControl,
    advance_clock,
    due_of,
    remaining_of,
    start_clock,
)
from tabletop_server._clock_time import clock_json, shown_settings


def _by_rule(
    control: TimeControl,
    clock: ClockState,
    head: int,
    away: frozenset[str],
    in_progress: bool,
    moment: datetime,
) -> JsonValue:
    """``clock_json`` as the rules read, seat by seat."""
    now_ms = round(moment.timestamp() * 1000)
    seats: list[JsonValue] = []
    for player_id, seat in clock.seats.items():
        due = due_of(control, seat) if in_progress else None
        seats.append(
            {
                "player_id": player_id,
                "remaining_ms": remaining_of(control, seat, now_ms),
                "running": due is not None,
                "due_at": None if due is None else datetime.fromtimestamp(due / 1000, UTC).isoformat(),
                "timeouts": seat.timeouts,
                "away": player_id in away,
            }
        )
    settings = ClockSettings(control=control).model_dump(mode="json")
    return {**shown_settings(settings), "index": head, "server_time": moment.isoformat(), "seats": seats}


@pytest.mark.parametrize(
    "control",
    [
        PerTurn(seconds=60),
        Correspondence(days=1),
        ChessClock(main_seconds=300, increment_seconds=2),
        NoClock(),
    ],
)
def test_the_clock_view_is_the_rules_seat_by_seat(control: TimeControl) -> None:
    random = Random(27)
    shown = shown_settings(ClockSettings(control=control).model_dump(mode="json"))
    seats = ["p1", "p2", "p3"]
    for _ in range(300):
        start = 1_764_445_874_000 + random.randint(0, 10**6)
        clock = start_clock(control, seats, random.sample(seats, 2), start, waiting=random.sample(seats, 1))
        now = start + random.randint(0, 400_000)
        active = random.sample(seats, random.randint(0, 3))
        clock = advance_clock(control, clock, now_ms=now, acted=random.sample(seats, 1), active=active)
        moment = datetime.fromtimestamp((now + random.randint(-1_000, 400_000)) / 1000, UTC)
        away = frozenset(random.sample(seats, random.randint(0, 2)))
        for in_progress in (True, False):
            made = clock_json(control, shown, clock, 7, away, in_progress, moment)
            assert orjson.dumps(made) == orjson.dumps(_by_rule(control, clock, 7, away, in_progress, moment))
