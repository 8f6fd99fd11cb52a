"""What a game allows of clocks: the time controls and timeout policies a match may choose."""

from __future__ import annotations

from pydantic import JsonValue
from tabletop.clocks import ClockSettings, control_types

from tabletop_server._errors import ApiError
from tabletop_server._registry import GameEntry
from tabletop_server._runtime import JsonDict

__all__ = ["check_clock", "clock_key", "clock_options"]


def clock_options(entry: GameEntry) -> JsonDict:
    """The ``ClockOptions`` JSON of a game: every time control; ``pass`` only for a game that
    declares a pass action (``GameDefinition(expiry=ExpiryRules(pass_action=...))``)."""
    expiry = entry.definition.expiry
    policies = ["forfeit", "bot"]
    if expiry is not None and expiry.pass_action is not None:
        policies.append("pass")
    return {"time_controls": list(control_types()), "timeout_policies": list(policies)}


def check_clock(entry: GameEntry, settings: ClockSettings | None) -> None:
    """Refuse a clock the game does not allow.

    Raises:
        ApiError: ``timeout-policy-unsupported`` (400): ``pass`` for a game without a pass action.
    """
    if settings is None:
        return
    allowed = clock_options(entry)["timeout_policies"]
    assert isinstance(allowed, list)
    if settings.policy.on_timeout not in allowed:
        raise ApiError(
            "timeout-policy-unsupported",
            f"{entry.name} declares no pass action: choose one of {', '.join(map(str, allowed))}",
            path="clock.policy.on_timeout",
        )


def clock_key(clock: JsonValue) -> JsonValue:
    """What identifies a clock's content apart from the passing time (streams send a ``clock``
    event when it changes)."""
    if not isinstance(clock, dict):
        return None
    seats = clock.get("seats")
    kept: list[JsonValue] = []
    if isinstance(seats, list):
        for seat in seats:
            if isinstance(seat, dict):
                kept.append(
                    [seat.get("player_id"), seat.get("due_at"), seat.get("timeouts"), seat.get("away")]
                )
    return [clock.get("index"), kept]
