"""Time controls and timeout policies: what a match's clock allows, chosen at its creation."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from tabletop._model import Model

__all__ = [
    "ChessClock",
    "ClockSettings",
    "Correspondence",
    "NoClock",
    "PerTurn",
    "TimeControl",
    "TimeoutPolicy",
    "control_types",
]

DAY_MS = 86_400_000
"""Milliseconds in a day."""


class NoClock(Model):
    """No time limit (the default): the match waits for its players."""

    type: Literal["none"] = "none"
    """The kind of time control."""


class PerTurn(Model):
    """A fixed time for every decision: the seat's timer starts again each time it is to act."""

    type: Literal["per-turn"] = "per-turn"
    """The kind of time control."""
    seconds: float = Field(gt=0, le=86_400)
    """Seconds a seat has for each decision."""


class ChessClock(Model):
    """A chess clock: a bank of main time per seat, running while the seat is to act, plus an
    increment added after each of its actions (Fischer)."""

    type: Literal["chess"] = "chess"
    """The kind of time control."""
    main_seconds: float = Field(gt=0, le=86_400)
    """Each seat's time for the whole match."""
    increment_seconds: float = Field(default=0, ge=0, le=3_600)
    """Added to a seat's bank after each of its actions."""


class Correspondence(Model):
    """Correspondence play: days per decision, for matches played over days or weeks."""

    type: Literal["correspondence"] = "correspondence"
    """The kind of time control."""
    days: float = Field(default=1, gt=0, le=30)
    """Days a seat has for each decision."""


TimeControl = Annotated[NoClock | PerTurn | ChessClock | Correspondence, Field(discriminator="type")]
"""A match's time control, told apart by ``type``."""


def control_types() -> list[str]:
    """The ``type`` of every time control, in declaration order."""
    return ["none", "per-turn", "chess", "correspondence"]


class TimeoutPolicy(Model):
    """What happens when a seat's time runs out."""

    on_timeout: Literal["bot", "pass", "forfeit"] = "forfeit"
    """``bot``: a random bot plays one move for the seat, from the seat's view; ``pass``: the
    game's declared pass action (a game without one: the bot); ``forfeit``: the seat loses and
    the game's forfeit rule decides who wins."""
    away_after: int | None = Field(default=None, ge=1, le=100)
    """After this many consecutive timeouts of a seat, a bot takes the seat over until its
    holder takes it back (None: never)."""


class ClockSettings(Model):
    """A match's time control and timeout policy, as chosen at creation."""

    control: TimeControl = Field(default_factory=NoClock)
    """The time control."""
    policy: TimeoutPolicy = Field(default_factory=TimeoutPolicy)
    """What a timeout means."""
