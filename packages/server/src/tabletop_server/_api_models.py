"""The request and response bodies of the HTTP API (see ``packages/server/API.md``)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import Field, JsonValue
from tabletop import Model
from tabletop.clocks import ClockSettings

from tabletop_server._host_models import Fairness, RematchLinks

__all__ = [
    "ActionResponse",
    "ActionsPage",
    "BotKind",
    "BotSpec",
    "ClockOptions",
    "ClockReport",
    "ClockView",
    "CreateMatch",
    "CreatedMatch",
    "ForkRequest",
    "ForkResult",
    "GameInfo",
    "GamesList",
    "Invite",
    "JoinRequest",
    "JoinResult",
    "MatchInfo",
    "MatchList",
    "MatchStatus",
    "ParentRef",
    "SeatClockView",
    "SeatInfo",
    "SeatRequest",
    "StandIn",
    "StandInRequest",
    "StreamToken",
    "TimeoutInfo",
    "ViewResponse",
    "Visibility",
]

Id = str


class BotKind(StrEnum):
    """How a bot seat chooses its actions."""

    RANDOM = "random"
    MCTS = "mcts"


class BotSpec(Model):
    """A seat the server plays."""

    kind: BotKind = BotKind.RANDOM
    """``random``: uniformly among the legal actions; ``mcts``: Monte Carlo tree search."""
    iterations: int = Field(default=200, ge=1, le=5000)
    """The MCTS budget: search iterations per decision (ignored by ``random``)."""


NAME_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
"""A display name holds no control character (C0, DEL or C1: NUL, escapes, line breaks)."""


class SeatRequest(Model):
    """One seat of a new match."""

    name: str = Field(default="", max_length=64, pattern=NAME_PATTERN)
    """Display name (default: ``Player N``)."""
    bot: BotSpec | None = None
    """Set to make the seat a bot the server plays."""


Visibility = Literal["public", "private"]
"""Who may find a match and take its free seats."""


class CreateMatch(Model):
    """Start a match of an installed game."""

    game: str = Field(max_length=64)
    """The game's registry name (``GET /api/games``)."""
    seats: list[SeatRequest] = Field(min_length=1, max_length=16)
    """The seats in seating order; their ids are ``p1``..``pN``."""
    config: dict[str, JsonValue] = Field(default_factory=dict)
    """The game's config (its config schema); omitted options take their defaults."""
    seed: int | None = Field(default=None, ge=0, le=0xFFFFFFFF)
    """Seed for a reproducible match; default: a random one. The server always adds a secret key."""
    visibility: Visibility = "public"
    """``public``: listed, and a free seat is open to anyone; ``private``: not listed, and a seat
    is claimed only with its invite secret or the creator token."""
    clock: ClockSettings | None = None
    """The match's time control and timeout policy (default: no clock)."""


class ClockOptions(Model):
    """What a game allows of clocks."""

    time_controls: list[str]
    """The ``type`` of every time control a match may choose (``CreateMatch.clock.control``)."""
    timeout_policies: list[str]
    """The ``on_timeout`` policies it may choose (``pass`` only for a game with a pass action)."""


class SeatClockView(Model):
    """One seat's clock as of the server's time."""

    player_id: Id
    """The seat."""
    remaining_ms: int | None
    """Milliseconds left: a running seat's until its due time, a chess seat's bank when waiting
    (null: a waiting seat of a per-turn or correspondence clock)."""
    running: bool
    """True while the seat is to act and its time runs."""
    due_at: datetime | None
    """When its time runs out (null when not running)."""
    timeouts: int
    """Its consecutive timeouts."""
    away: bool
    """True while a bot plays for the seat."""


class ClockView(Model):
    """A match's clock, as of the server's time."""

    control: dict[str, JsonValue]
    """The time control (``TimeControl``)."""
    policy: dict[str, JsonValue]
    """The timeout policy (``TimeoutPolicy``)."""
    index: int
    """The action count the clock is at (it catches up with a write within moments)."""
    server_time: datetime
    """The server's time when it answered: count down from ``remaining_ms`` relative to it."""
    seats: list[SeatClockView]
    """Every seat's clock, in seating order."""


class TimeoutInfo(Model):
    """A recorded timeout: what the server observed and what it did."""

    index: int
    """The action count when the seat's time ran out."""
    player_id: Id
    """The seat."""
    due_at: datetime
    """When its time ran out."""
    observed_at: datetime
    """When the server handled it."""
    policy: str
    """The policy in force: ``bot``, ``pass`` or ``forfeit``."""
    outcome: str
    """``bot``, ``pass``, ``forfeit``, or ``superseded`` (the match moved on first)."""
    action_id: str | None
    """The action played for the seat, if any."""


class StandInRequest(Model):
    """Handing a seat to a bot."""

    bot: BotSpec = Field(default_factory=BotSpec)
    """The bot that plays for the seat."""


class StandIn(Model):
    """A bot playing for a seat."""

    player_id: Id
    """The seat."""
    bot: BotSpec
    """The bot."""
    reason: Literal["seat", "creator", "timeouts"]
    """Who handed it over: the seat's holder, the creator, or the timeout policy."""


class ClockReport(Model):
    """A match's clock, its timeouts and the seats bots play for."""

    clock: ClockView | None
    """The clock (null without a time control)."""
    timeouts: list[TimeoutInfo]
    """Every recorded timeout, oldest first."""
    stand_ins: list[StandIn]
    """The seats bots play for."""


class GameInfo(Model):
    """An installed game."""

    name: str
    """Registry name, used in URLs and ``CreateMatch.game``."""
    title: str
    """Display title."""
    description: str
    """One line about the game."""
    min_players: int
    """Fewest seats."""
    max_players: int
    """Most seats."""
    logic_version: str
    """Semantic version of the rules; send it as ``X-Tabletop-Logic-Version`` to be told of a major change."""
    config_schema: dict[str, JsonValue]
    """JSON Schema of the game's config."""
    action_types: list[str]
    """The action types a player may send (system-only actions left out)."""
    hidden_information: bool
    """True if seats see different views."""
    clocks: ClockOptions
    """The time controls and timeout policies a match of the game may choose."""


class GamesList(Model):
    """Every installed game."""

    games: list[GameInfo]
    """Sorted by name."""


MatchStatus = Literal["in_progress", "finished", "ended"]
"""``ended``: its creator or an operator ended it before it finished."""


class SeatInfo(Model):
    """A seat of a match."""

    player_id: Id
    """``p1``..``pN``."""
    name: str
    """Display name."""
    bot: BotSpec | None
    """The bot playing it, if any."""
    occupied: bool
    """True if a player holds its token (or a bot plays it)."""


class ParentRef(Model):
    """Where a fork came from."""

    match_id: Id
    """The match it was forked from."""
    index: int
    """The number of the parent's actions it started from."""


class MatchInfo(Model):
    """A match's public metadata."""

    id: Id
    """The match id (also the game id in its actions)."""
    game: str
    """The game's registry name."""
    logic_version: str
    """The game logic version the match runs: the one it was created with, or the one it was last
    migrated to."""
    status: MatchStatus
    """``in_progress``, ``finished``, or ``ended`` (ended by its creator or an operator)."""
    visibility: Visibility
    """``public`` (listed; free seats open to anyone) or ``private`` (seats need an invite)."""
    config: dict[str, JsonValue]
    """The game's config."""
    index: int
    """The number of recorded actions (the next action's index)."""
    checksum: int
    """Running checksum of the recorded actions."""
    seats: list[SeatInfo]
    """The seats, in seating order."""
    result: str | None
    """``win`` or ``draw`` once finished."""
    winners: list[str]
    """The winners' player ids once finished."""
    parent: ParentRef | None
    """For a fork: the parent match and action count."""
    created_at: datetime
    """When the match was created."""
    updated_at: datetime
    """When it last changed."""
    migrated_from: str | None
    """The logic version it ran before its last migration to ``logic_version``; null if never migrated."""
    migrated_at: datetime | None
    """When it was last migrated; null if never."""
    replay_base: int
    """The index its replay starts from: 0, a fork's start, or the action count at its last
    migration (undo and fork never reach behind it)."""
    clock: ClockView | None = None
    """The match's clock (``GET /api/matches/{id}`` only; null without a time control)."""
    fairness: Fairness
    """The commitment to its secret chance key, and the key once it is over (``tabletop verify``)."""
    rematch: RematchLinks
    """The match it is the rematch of, and its rematch once asked for."""


class Invite(Model):
    """A seat's invite: the secret that claims it (kept only hashed by the server)."""

    player_id: Id
    """The seat."""
    invite: str
    """Send it as ``invite`` when claiming the seat."""
    link: str
    """The lobby UI's join link for it (a URL fragment: the secret never reaches a server log)."""


class CreatedMatch(MatchInfo):
    """A new match, with the secrets only its creator gets (returned once; stored hashed)."""

    creator_token: str
    """Ends the match (``Authorization: Bearer``) and claims any free seat (as ``invite``)."""
    invites: list[Invite]
    """One per human seat, in seating order."""


class MatchList(Model):
    """Matches, newest first."""

    matches: list[MatchInfo]
    """The matches."""


class JoinRequest(Model):
    """Taking a seat."""

    name: str | None = Field(default=None, max_length=64, pattern=NAME_PATTERN)
    """Display name to set (default: keep the seat's)."""
    invite: str | None = Field(default=None, max_length=128)
    """The seat's invite secret, or the creator token: needed for a private match's seat."""


class JoinResult(Model):
    """A seat token, returned once."""

    player_id: Id
    """The seat taken."""
    token: str
    """Send it as ``Authorization: Bearer <token>``; the server keeps only its hash."""


class ViewResponse(Model):
    """What one perspective sees of a match now."""

    match_id: Id
    """The match."""
    player_id: Id | None
    """The caller's seat, or null for a spectator."""
    index: int
    """The number of recorded actions."""
    checksum: int
    """Running checksum of the recorded actions."""
    status: MatchStatus
    """``in_progress``, ``finished`` or ``ended``."""
    logic_version: str
    """The game logic version the match runs (a ``reset`` event after a migration carries the new one)."""
    view: dict[str, JsonValue]
    """The projected view of the state for this perspective."""
    valid_action_types: list[str]
    """The action types the seat may send now."""
    legal_actions: list[dict[str, JsonValue]] | None
    """The concrete legal actions (bodies without ``id``), or null where a type cannot enumerate."""
    can_undo: bool
    """True if the seat may undo its last action now."""
    clock: ClockView | None = None
    """The match's clock as of the server's time; null without a time control."""


class ActionResponse(ViewResponse):
    """An accepted action: the new view plus what the submission recorded."""

    actions: list[dict[str, JsonValue]]
    """The projected actions recorded: the submitted one, then the system actions it caused."""


class ActionsPage(Model):
    """A projected slice of the action log."""

    actions: list[dict[str, JsonValue]]
    """Projected actions with index above ``after``, in order: at most ``limit`` of them."""
    index: int
    """The number of recorded actions."""
    next_after: int | None = None
    """Pass as ``after`` to read the next page; null when this page reaches the last action."""


class ForkRequest(Model):
    """Forking a match."""

    index: int | None = Field(default=None, ge=0)
    """Keep the first ``index`` actions (default: all of them)."""


class ForkResult(Model):
    """A new match forked from another."""

    match: MatchInfo
    """The fork."""
    tokens: dict[str, str]
    """A token for every human seat of the fork, all for the forker."""


class StreamToken(Model):
    """A single-use, short-lived token for ``GET .../events``."""

    stream_token: str
    """Pass as ``?stream_token=``."""
    expires_in: float
    """Seconds it stays valid."""
