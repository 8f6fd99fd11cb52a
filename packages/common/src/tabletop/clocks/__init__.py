"""Clocks for hosted matches, as a pure library: time controls, the clock value and timeout rules.

A host passes the times it observed into these functions; nothing here reads a clock, so a
match's clock follows from its recorded times alone. A seat that loses on time is recorded as
:class:`TimeExpired`, an action every game's log may hold (``GameEngine.record`` applies it).
"""

from tabletop.clocks._clock import (
    ClockState,
    SeatClock,
    advance_clock,
    due_of,
    next_due,
    remaining_of,
    start_clock,
    take_seats,
)
from tabletop.clocks._control import (
    ChessClock,
    ClockSettings,
    Correspondence,
    NoClock,
    PerTurn,
    TimeControl,
    TimeoutPolicy,
    control_types,
)
from tabletop.clocks._expired import TimeExpired, TimeExpiredMetadata
from tabletop.clocks._expiry import (
    BotMove,
    ExpiryRules,
    Forfeit,
    PassMove,
    TimeoutOutcome,
    decide_timeout,
    default_forfeit,
)

__all__ = [
    "BotMove",
    "ChessClock",
    "ClockSettings",
    "ClockState",
    "Correspondence",
    "ExpiryRules",
    "Forfeit",
    "NoClock",
    "PassMove",
    "PerTurn",
    "SeatClock",
    "TimeControl",
    "TimeExpired",
    "TimeExpiredMetadata",
    "TimeoutOutcome",
    "TimeoutPolicy",
    "advance_clock",
    "control_types",
    "decide_timeout",
    "default_forfeit",
    "due_of",
    "next_due",
    "remaining_of",
    "start_clock",
    "take_seats",
]
