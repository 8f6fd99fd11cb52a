"""The matches service: everything the routes do, as plain synchronous calls on the store.

Routes run these in the thread pool; nothing here touches the event loop. Every write of a
match reads it, runs the pure engine, and writes under the store's compare-and-set guard,
re-reading and re-running on a conflict (or answering ``409 stale-index`` when the client pinned
an index).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from functools import partial
from typing import ParamSpec, TypeVar, cast

from pydantic import JsonValue
from tabletop import Game, GameConfig
from tabletop._machine import AnyState
from tabletop.clocks import ClockSettings

from tabletop_server._cache import MatchCache
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch, match_info
from tabletop_server._registry import GameEntry, GameRegistry
from tabletop_server._runtime import (
    JsonDict,
    action_json,
    legal_action_bodies,
    load_action,
    perspective_of,
    view_json,
)
from tabletop_server._settings import Settings
from tabletop_server._undo import UNDO_WINDOW, UndoCheck, undo_check
from tabletop_server._upgrade import resolve_version
from tabletop_server.events import EventHub, MatchChange, StreamCounter
from tabletop_server.storage import (
    ENDED,
    ClaimClock,
    ClockWrite,
    MatchRow,
    NewAction,
    NewClock,
    StorageError,
    Store,
    hash_token,
)

__all__ = ["MAX_LOG_PAGE", "MatchService", "bearer_token", "storage_error"]

MAX_LOG_PAGE = 1000
"""The most actions one ``GET .../actions`` answers (its ``limit``, and the default)."""

P = ParamSpec("P")
T = TypeVar("T")


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None without one (a spectator).

    Raises:
        ApiError: A header that is not ``Bearer <token>`` (``invalid-token``).
    """
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("invalid-token", "send the seat token as 'Authorization: Bearer <token>'")
    return token.strip()


def storage_error(error: StorageError) -> ApiError:
    """The API error of a storage refusal (its code passes through)."""
    return ApiError(error.code, error.message)


class MatchService:
    """Matches, seats, views and logs over one store.

    Args:
        settings: The server settings.
        registry: The hosted games.
        store: The database.
        hub: Where changes are announced.
    """

    def __init__(self, settings: Settings, registry: GameRegistry, store: Store, hub: EventHub) -> None:
        self.settings = settings
        self.registry = registry
        self.store = store
        self.hub = hub
        self.cache = MatchCache(settings.match_cache_size)
        """Hydrated matches at the revision last seen: a hint for writes (see ``_cache``)."""
        self.on_change: list[Callable[[str], None]] = []
        """Called (from any thread) with the id of a match with bot seats after each committed
        write: the bot runner."""
        self.streams = StreamCounter()
        """The worker's open event streams (``open``) and dropped slow clients (``dropped``)."""
        self.admit_bots: Callable[[], None] | None = None
        """Raises ``ApiError("bots-busy")`` when no new bot work fits (the bot runner's ``admit``);
        called before a match with bot seats is created or forked."""
        self.after_write: list[Callable[[MatchRow], None]] = []
        """Called (from any thread) with the row of every match after each committed write: the
        clock keeper (``tabletop_server._clocks``)."""
        self.after_join: list[Callable[[str, ClaimClock], None]] = []
        """Called with the match's id and what the claim did to its clock after a seat was taken
        (committed): the clock keeper, which starts the seat's clock if the claim could not."""
        self.clock_claim: Callable[[str, str], ClaimClock] | None = None
        """What claiming a seat does to the match's clock (the clock keeper's ``claim``)."""
        self.after_play: list[Callable[[LoadedMatch, Sequence[NewAction]], None]] = []
        """Called on the action path with the match as written and the actions recorded, before
        it is announced: the clock keeper moves the clock on in memory."""
        self.clock_view: Callable[[LoadedMatch], JsonValue] | None = None
        """The ``clock`` of a match's views and info (the clock keeper's ``view``)."""
        self.clock_new: (
            Callable[[str, GameEntry, Game[GameConfig], AnyState, int, ClockSettings], NewClock | None] | None
        ) = None
        """The clock of a match about to be created, stored in its creation's transaction (the
        clock keeper's ``create``; None without a time control)."""
        self.clock_step: Callable[[LoadedMatch, AnyState, str, Sequence[NewAction]], ClockWrite | None] | None
        self.clock_step = None
        """The clock after an action's write, stored in its transaction (the clock keeper's ``step``)."""

    # -- reading ------------------------------------------------------------------------------

    def load(self, match_id: str) -> LoadedMatch:
        """The match as stored now (one read; the hydrated state is reused from the cache when
        the revision is the cached one).

        Raises:
            ApiError: No such match (``unknown-match``).
        """
        try:
            row, seats = self.store.get_match_and_seats(match_id)
        except StorageError as error:
            raise storage_error(error) from None
        known = self.cache.get(match_id)
        if known is not None and known.row.logic_version == row.logic_version:
            match = known.reread(row, seats)
        else:  # the version decides the code that runs it (or migrates it first)
            try:
                match = resolve_version(self.registry, self.store, row, seats, self.announce)
            except StorageError as error:
                raise storage_error(error) from None
        self.cache.put(match)
        return match

    async def load_async(self, match_id: str) -> LoadedMatch:
        """``load`` for the event loop (SQLite reads are local and short: inline; PostgreSQL's
        go to a thread)."""
        return await self.io(self.load, match_id)

    async def io(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a blocking call for the event loop (SQLite: inline; PostgreSQL: in a thread)."""
        if self.store.dialect == "sqlite":
            return work(*args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(None, partial(work, *args, **kwargs))

    def cached(self, match_id: str) -> LoadedMatch | None:
        """The match as this worker last saw it, or None (no database read: a hint for writes,
        which the compare-and-set checks)."""
        return self.cache.get(match_id)

    def remember(self, match: LoadedMatch) -> None:
        """Keep ``match`` (just written or read) for the next request."""
        self.cache.put(match)

    def announce(self, row: MatchRow) -> None:
        """Tell streams and the bot runner that the match changed (after the commit)."""
        self.cache.drop(row.id, unless_revision=row.revision)
        self.hub.publish(MatchChange(row.id, row.head))
        for hook in self.after_write:
            hook(row)
        if row.has_bots and row.status == "in_progress":
            for listener in self.on_change:
                listener(row.id)

    def authenticate(self, match_id: str, authorization: str | None) -> str | None:
        """The seat a bearer token holds in the match; None without a token (a spectator).

        Raises:
            ApiError: A token that holds no seat of the match (``invalid-token``), or an
                ``Authorization`` header that is not ``Bearer <token>``.
        """
        token = bearer_token(authorization)
        if token is None:
            return None
        try:
            seat = self.store.find_seat(match_id, token)
        except StorageError as error:
            raise storage_error(error) from None
        if seat is None:
            self.load(match_id)  # an unknown match is a 404, not a 401
            raise ApiError("invalid-token", "the token holds no seat of this match")
        return seat.player_id

    def undo_state(self, match: LoadedMatch, player_id: str | None) -> UndoCheck:
        """Whether ``player_id`` may undo now (``tabletop_server._undo.undo_check`` on the log's tail)."""
        if player_id is None or match.row.status != "in_progress" or match.unavailable is not None:
            return UndoCheck(False, match.row.head, "nothing to undo")
        if match.row.head <= match.row.base_index:  # nothing recorded since: no log to read
            return undo_check(match.row, (), player_id)
        after = max(match.row.base_index, match.row.head - UNDO_WINDOW) - 1
        return undo_check(match.row, self.store.undo_tail(match.row.id, player_id, after=after), player_id)

    def view_of(self, match: LoadedMatch, player_id: str | None, *, can_undo: bool | None = None) -> JsonDict:
        """The ``ViewResponse`` JSON of a match for one perspective."""
        state = match.state
        valid: list[str] = []
        legal: list[JsonDict] | None = []
        if player_id is not None and match.unavailable is None and match.row.status != ENDED:
            valid, legal = legal_action_bodies(match.entry, state, match.game, player_id)
        if can_undo is None:
            can_undo = self.undo_state(match, player_id).allowed
        return {
            "match_id": match.row.id,
            "player_id": player_id,
            "index": match.row.head,
            "checksum": match.row.checksum,
            "status": match.row.status,
            "logic_version": match.row.logic_version,
            "view": view_json(state, perspective_of(player_id)),
            "valid_action_types": list(valid),
            "legal_actions": cast(JsonValue, legal),
            "can_undo": can_undo,
            "clock": None if self.clock_view is None else self.clock_view(match),
        }

    def view(self, match_id: str, player_id: str | None) -> JsonDict:
        """The view of ``player_id`` (None: a spectator's)."""
        return self.view_of(self.load(match_id), player_id)

    def view_for(self, match_id: str, authorization: str | None) -> JsonDict:
        """``GET .../view``: the view of the seat the bearer token holds (one read of the match
        and its seats), or the spectator's without a token.

        Raises:
            ApiError: No such match; a token that holds no seat of it (``invalid-token``).
        """
        token = bearer_token(authorization)
        match = self.load(match_id)
        player_id = None
        if token is not None:
            player_id = match.holder(hash_token(token))
            if player_id is None:
                raise ApiError("invalid-token", "the token holds no seat of this match")
        return self.view_of(match, player_id)

    def actions_page(
        self, match_id: str, player_id: str | None, after: int, limit: int = MAX_LOG_PAGE
    ) -> JsonDict:
        """``GET .../actions?after=N&limit=M``: at most ``limit`` projected actions after index
        ``after``, and where the next page starts (``next_after``, null at the end)."""
        match = self.load(match_id)
        head = match.row.head
        rows = [row for row in self.store.actions(match_id, after=after, limit=limit) if row.index < head]
        perspective = perspective_of(player_id)
        try:
            projected: list[JsonValue] = [
                action_json(load_action(match.entry, row.json), perspective) for row in rows
            ]
        except ValueError:
            if match.unavailable is None:
                raise
            raise match.unavailable from None
        more = len(rows) == limit and rows[-1].index < head - 1
        return {"actions": projected, "index": head, "next_after": rows[-1].index if more else None}

    def info(self, match_id: str) -> JsonDict:
        """``GET /api/matches/{id}``."""
        match = self.load(match_id)
        info = match_info(match.row, match.seats, self.store.rematch_links(match_id))
        info["clock"] = None if self.clock_view is None else self.clock_view(match)
        return info

    def list_matches(self, game: str | None, status: str | None, limit: int) -> JsonDict:
        """``GET /api/matches``: the public matches, newest first (a private match is found only
        through its id, as its invite links carry it)."""
        rows = self.store.list_matches(game=game, status=status, limit=limit, visibility="public")
        seats = self.store.seats_of(row.id for row in rows)
        links = self.store.links_of(row.id for row in rows)
        return {"matches": [match_info(row, seats[row.id], links[row.id]) for row in rows]}

    def entry_of(self, match: LoadedMatch) -> GameEntry:
        """The game of a loaded match."""
        return match.entry
