"""The JSON of a clock: its ``ClockView`` (``clock_json``), each seat's time left as the clock's
rules (``due_of``, ``remaining_of``) give it, for every kind of control, running or finished; and
the text it is stored as (``state_text``), pydantic's own."""

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
    SeatClock,
    TimeControl,
    advance_clock,
    due_of,
    remaining_of,
    start_clock,
    take_seats,
)
from tabletop_server._clock_time import clock_json, shown_settings, state_text


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


@pytest.mark.parametrize("control", [PerTurn(seconds=60), ChessClock(main_seconds=300, increment_seconds=2)])
def test_a_clock_is_stored_as_pydantic_dumps_it(control: TimeControl) -> None:
    seats = ["p1", "p2", "p3"]
    clocks = [start_clock(control, seats, ["p1"], 1_764_445_874_000, waiting=["p3"])]
    clocks.append(
        advance_clock(control, clocks[-1], now_ms=1_764_445_875_000, acted=["p1"], active=seats[1:])
    )
    clocks.append(take_seats(clocks[-1], ["p3"], now_ms=1_764_445_876_000, active=seats[1:]))
    clocks.append(
        advance_clock(control, clocks[-1], now_ms=1_764_445_877_000, timed_out=["p2"], active=["p3"])
    )
    for clock in clocks:
        read = ClockState.model_validate_json(clock.model_dump_json())  # (as a worker reads it back)
        assert state_text(clock) == clock.model_dump_json() == state_text(read)
    for player_id in ["é", "\x00\x1f\x7f", '"\\/', "\u2028", "😀", "\b\f\n\r\t", ""]:
        seat = SeatClock(bank_ms=None, since_ms=2**62, timeouts=3, waiting=True)
        made = ClockState(seats={player_id: seat, "p1": SeatClock(bank_ms=0)})
        assert state_text(made) == made.model_dump_json()
