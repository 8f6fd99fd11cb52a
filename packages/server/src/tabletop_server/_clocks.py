"""Clocks of hosted matches: keeping each clocked match's clock and enforcing its deadlines.

The clock itself is the pure value of :mod:`tabletop.clocks`; this module feeds it the times the
server recorded. After every committed write of a clocked match (``MatchService.announce``) the
keeper's thread brings the match's ``clocks`` row up to the new head, from the action rows' own
``created_at`` (the time the server recorded each write), and stores the next due time. The same
thread looks, every ``poll`` seconds (and at once on start, so a deadline that passed while the
server was down is handled then), for clocks that are due or lag behind their match: it leases
them (``Store.lease_clocks``: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so of several workers
exactly one takes a clock), brings each up to date, and handles the expiry: a timeout recorded
once per (match, head, seat) with what the server observed, then what the match's policy and the
game's rules make of it (:func:`tabletop.clocks.decide_timeout`): a bot's move for the seat, chosen
from the seat's view, the game's pass action, or a forfeit. Moves are submitted pinned to the head
the keeper saw, so a move that raced a player's is refused, never played twice.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from pydantic import JsonValue
from tabletop.bots._hosted import DecisionRequest, decide
from tabletop.clocks import (
    BotMove,
    ClockSettings,
    ClockState,
    Forfeit,
    PassMove,
    advance_clock,
    decide_timeout,
    due_of,
    next_due,
    remaining_of,
    start_clock,
)

from tabletop_server._api_models import BotKind, BotSpec
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch
from tabletop_server._play import Submission, submit
from tabletop_server._service import MatchService
from tabletop_server.events import MatchChange
from tabletop_server.storage import ActionRow, ClockRow, MatchUpdate, NewAction, StorageError, TimeoutRow

__all__ = ["TIMEOUT_PREFIX", "ClockKeeper", "active_seats", "to_ms"]

logger = logging.getLogger("tabletop_server.clocks")

TIMEOUT_PREFIX = "timeout-"
"""The action id prefix of a move the server played for a seat whose time ran out."""

KNOWN_LIMIT = 100_000
"""Matches whose clock (or lack of one) a worker remembers; beyond it, it starts over."""

LEASE = timedelta(seconds=30)
"""How long a worker holds a clock it took; a worker killed mid-way leaves it to another after."""

Now = Callable[[], datetime]

_UNKNOWN = object()
"""Marker: the keeper has not looked at the match yet."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


def to_ms(moment: datetime) -> int:
    """Milliseconds since the epoch."""
    return round(moment.timestamp() * 1000)


def _at(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def active_seats(match: LoadedMatch) -> list[str]:
    """The seats with a move to make now (a seat that acted in an open simultaneous group waits)."""
    if match.row.status != "in_progress":
        return []
    engine = match.entry.engine
    state = match.state
    return [pid for pid in state.active_player_ids if engine.valid_action_types(state, pid, match.game)]


@dataclass(frozen=True, slots=True)
class _Known:
    """A clocked match's settings and its clock as last stored or computed."""

    settings: ClockSettings
    clock: ClockState
    head: int
    away: frozenset[str] = frozenset()
    """The seats bots stand in for, as last read."""


class ClockKeeper:
    """Keeps the clocks of one worker's matches and enforces their deadlines.

    Args:
        service: The matches service (the keeper hooks into its writes and views).
        poll: Seconds between looks for due clocks.
        now: The server's clock (injectable for tests).
        poke_bots: Wakes the bot runner for a match (a seat handed to a bot).
    """

    def __init__(
        self,
        service: MatchService,
        *,
        poll: float = 0.5,
        now: Now = _utc_now,
        poke_bots: Callable[[str], None] | None = None,
    ) -> None:
        self.service = service
        self.poll = poll
        self.now = now
        self.poke_bots = poke_bots
        self._known: dict[str, _Known | None] = {}
        """Clocked matches' settings and clocks (None: a match without a clock)."""
        self._lock = threading.Lock()
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._dirty: dict[str, _Known] = {}
        """Clocks computed in memory on the action path and not stored yet (the thread stores them)."""
        self.expired = 0
        """Timeouts this worker handled (tests and metrics)."""
        service.after_write.append(self.changed)
        service.after_play.append(self.played)
        service.clock_view = self.view

    # -- life -------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the keeper's thread (it first handles what fell due while the server was down)."""
        self._thread = threading.Thread(target=self._run, name="tabletop-clocks", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread (a clock it leased is taken by another worker when the lease ends)."""
        self._stop.set()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.flush()
                self.sweep()
            except Exception:  # a fault (the database away): look again at the next tick
                logger.exception("clock sweep failed")
            deadline = self.poll
            while not self._stop.is_set():
                try:
                    match_id = self._queue.get(timeout=deadline)
                except queue.Empty:
                    break
                if match_id is None:
                    return
                try:
                    self._store_or_refresh(match_id)
                except Exception:
                    logger.exception("clock of match %s failed", match_id)
                deadline = 0.0 if not self._queue.empty() else min(self.poll, 0.05)

    # -- creation and writes ------------------------------------------------------------------------

    def create(self, match: LoadedMatch, settings: ClockSettings) -> None:
        """Start the clock of a match just created (no-op without a time control)."""
        if settings.control.type == "none":
            self._remember(match.row.id, None)
            return
        players = [player.player_id for player in match.state.players]
        clock = start_clock(settings.control, players, active_seats(match), to_ms(match.row.created_at))
        due = next_due(settings.control, clock)
        self.service.store.create_clock(
            match.row.id,
            settings.model_dump(mode="json"),
            clock.model_dump_json(),
            None if due is None else _at(due[0]),
        )
        self._remember(match.row.id, _Known(settings, clock, match.row.head))

    def played(self, match: LoadedMatch, recorded: Sequence[NewAction]) -> None:
        """Actions were written (``match`` as written): the clock moves on in memory at once, from
        the time the store recorded them, and the keeper's thread stores it (no read here)."""
        with self._lock:
            known = self._known.get(match.row.id, _UNKNOWN)
        if not isinstance(known, _Known) or known.head != match.row.head - len(recorded):
            return  # unknown here, or behind: ``changed`` has the thread catch up from the log
        acted = [a.player_id for a in recorded if a.source == "user" and a.player_id]
        timed = [p for p in acted if any(a.action_id.startswith(TIMEOUT_PREFIX) for a in recorded)]
        clock = advance_clock(
            known.settings.control,
            known.clock,
            now_ms=to_ms(match.row.updated_at),
            acted=[p for p in acted if p not in timed],
            timed_out=timed,
            active=active_seats(match),
        )
        updated = _Known(known.settings, clock, match.row.head, known.away)
        self._remember(match.row.id, updated)
        with self._lock:
            self._dirty[match.row.id] = updated  # stored with the others at the next tick

    def changed(self, match_id: str) -> None:
        """A write of the match committed (from any thread): bring its clock up to date."""
        with self._lock:
            known = self._known.get(match_id, _UNKNOWN)
            pending = match_id in self._dirty
        if known is None or pending:  # no clock (the common case), or ``played`` moved it on
            return
        self._queue.put(match_id)

    def _store_or_refresh(self, match_id: str) -> None:
        """The thread's work for a match: catch up from the log, unless ``played`` moved it on."""
        with self._lock:
            pending = match_id in self._dirty
        if not pending:
            self.refresh(match_id)

    def flush(self) -> None:
        """Store, in one transaction, every clock ``played`` moved on since the last tick (at most
        one write per ``poll`` for all of them, off the action path). A worker that stops first
        loses nothing: the sweep finds those clocks behind their match and catches up from the log."""
        with self._lock:
            dirty, self._dirty = self._dirty, {}
        if not dirty:
            return
        updates = []
        for match_id, known in dirty.items():
            due = next_due(known.settings.control, known.clock)
            updates.append(
                (match_id, known.clock.model_dump_json(), known.head, None if due is None else _at(due[0]))
            )
        self.service.store.save_clocks(updates)

    def _settings(self, match_id: str) -> tuple[_Known | None, ClockRow | None]:
        with self._lock:
            if match_id in self._known and self._known[match_id] is None:
                return None, None
        row = self.service.store.get_clock(match_id)
        if row is None:
            self._remember(match_id, None)
            return None, None
        found = _Known(
            ClockSettings.model_validate(row.settings),
            ClockState.model_validate_json(row.state_json),
            row.head,
            self._away(match_id),
        )
        self._remember(match_id, found)
        return found, row

    def _away(self, match_id: str) -> frozenset[str]:
        return frozenset(stand_in.player_id for stand_in in self.service.store.stand_ins(match_id))

    def _remember(self, match_id: str, known: _Known | None) -> None:
        with self._lock:
            if len(self._known) >= KNOWN_LIMIT and match_id not in self._known:
                self._known.clear()
            self._known[match_id] = known

    def refresh(self, match_id: str) -> _Known | None:
        """Bring the stored clock up to the match's head (from the recorded actions' times)."""
        known, row = self._settings(match_id)
        if known is None or row is None:
            return None
        match = self.service.load(match_id)
        if row.head == match.row.head and match.row.status == "in_progress":
            return known  # (``_settings`` read the stand-ins again)
        updated = replace(self._caught_up(match, known), away=known.away)
        due = next_due(known.settings.control, updated.clock) if match.row.status == "in_progress" else None
        self.service.store.save_clock(
            match_id, updated.clock.model_dump_json(), updated.head, None if due is None else _at(due[0])
        )
        self._remember(match_id, updated)
        self.service.hub.publish(MatchChange(match_id, match.row.head))  # streams send the new clock
        return updated

    def _caught_up(self, match: LoadedMatch, known: _Known) -> _Known:
        """The clock at the match's head: each write since the stored clock's head, at the time the
        server recorded it (a write's actions share one ``created_at``)."""
        head = match.row.head
        if head < known.head:  # an undo cut the log: the clock restarts for whoever is to act
            clock = advance_clock(
                known.settings.control,
                known.clock,
                now_ms=to_ms(match.row.updated_at),
                active=active_seats(match),
            )
            return _Known(known.settings, clock, head)
        rows = [
            row for row in self.service.store.actions(match.row.id, after=known.head - 1) if row.index < head
        ]
        writes = _writes(rows)
        clock = known.clock
        final = active_seats(match)
        for n, write in enumerate(writes):
            acted = [r.player_id for r in write if r.source == "user" and r.player_id and not _timed_out(r)]
            timed = [r.player_id for r in write if r.source == "user" and r.player_id and _timed_out(r)]
            nxt = writes[n + 1] if n + 1 < len(writes) else None
            active = (
                final if nxt is None else [r.player_id for r in nxt if r.source == "user" and r.player_id]
            )
            clock = advance_clock(
                known.settings.control,
                clock,
                now_ms=to_ms(write[0].created_at),
                acted=acted,
                timed_out=timed,
                active=active,
            )
        if not writes and match.row.status != "in_progress":
            clock = advance_clock(
                known.settings.control, clock, now_ms=to_ms(match.row.updated_at), active=[]
            )
        return _Known(known.settings, clock, head)

    # -- deadlines ----------------------------------------------------------------------------------

    def sweep(self) -> int:
        """Handle every clock that is due (or lags behind its match) and that no other worker
        holds: returns how many timeouts were handled."""
        moment = self.now()
        candidates = self.service.store.due_clocks(moment)
        handled = 0
        for row in self.service.store.lease_clocks(candidates, moment, LEASE):
            try:
                handled += self._expire(row.match_id)
            except (ApiError, StorageError) as error:
                logger.warning("clock of match %s: %s", row.match_id, error)
                self.service.store.release_clock(row.match_id)
        return handled

    def _expire(self, match_id: str) -> int:
        known = self.refresh(match_id)  # also ends the lease when the clock is saved
        if known is None:
            self.service.store.release_clock(match_id)
            return 0
        match = self.service.load(match_id)
        moment = self.now()
        control = known.settings.control
        due = next_due(control, known.clock)
        if match.row.status != "in_progress" or due is None or due[0] > to_ms(moment):
            self.service.store.release_clock(match_id)
            return 0
        player_id = due[1]
        entry = TimeoutRow(
            index=match.row.head,
            player_id=player_id,
            due_at=_at(due[0]),
            observed_at=moment,
            policy=known.settings.policy.on_timeout,
            outcome="pending",
            action_id=None,
        )
        outcome = decide_timeout(known.settings.policy, match.entry.definition.expiry, match.state, player_id)
        if isinstance(outcome, Forfeit):
            done = self._forfeit(match, entry, outcome)
        else:
            done = self._play_for(match, entry, outcome)
        if done:
            self.expired += 1
            self._maybe_away(match_id, player_id, known)
        self.refresh(match_id)
        return 1 if done else 0

    def _forfeit(self, match: LoadedMatch, entry: TimeoutRow, outcome: Forfeit) -> bool:
        row = match.row
        change = MatchUpdate(
            state_json=row.state_json,
            checksum=row.checksum,
            status="finished",
            result=outcome.result.value,
            winners=outcome.winners,
        )
        recorded = replace(entry, outcome="forfeit")
        if not self.service.store.forfeit(row, change, recorded):
            return False
        self.service.cache.drop(row.id)
        self.service.hub.publish(MatchChange(row.id, row.head))
        return True

    def _play_for(self, match: LoadedMatch, entry: TimeoutRow, outcome: PassMove | BotMove) -> bool:
        """Record the timeout (once), then play the pass or the bot's move for the seat."""
        player_id = entry.player_id
        kind = "pass" if isinstance(outcome, PassMove) else "bot"
        if not self.service.store.record_timeout(match.row.id, replace(entry, outcome=kind)):
            return False  # another worker handled this very timeout
        if isinstance(outcome, PassMove):
            body: dict[str, object] = dict(outcome.body)
        else:
            request = DecisionRequest(
                game=match.entry.name,
                state_json=match.row.state_json,
                game_json=match.game.model_dump_json(),
                player_id=player_id,
                kind=BotKind.RANDOM.value,
                iterations=1,
                time_limit=1.0,
                seed=secrets.randbits(64),
            )
            action = decide(match.entry.engine, match.state, match.game, request)
            if action is None:
                self.service.store.settle_timeout(match.row.id, entry.index, player_id, "superseded", None)
                return False
            body = action.model_dump(mode="json", exclude=_ENVELOPE)
        action_id = TIMEOUT_PREFIX + secrets.token_urlsafe(12)
        body.update(id=action_id, player_id=player_id, game_id=match.row.id, index=match.row.head)
        try:
            submit(self.service, match.row.id, player_id, str(body["type"]), Submission(body, match.row.head))
        except ApiError as error:
            logger.info("timeout move of %s in %s refused: %s", player_id, match.row.id, error.code)
            self.service.store.settle_timeout(match.row.id, entry.index, player_id, "superseded", None)
            return False
        self.service.store.settle_timeout(match.row.id, entry.index, player_id, kind, action_id)
        return True

    def _maybe_away(self, match_id: str, player_id: str, known: _Known) -> None:
        """After ``away_after`` consecutive timeouts, a bot takes the seat over."""
        limit = known.settings.policy.away_after
        if limit is None:
            return
        seat = known.clock.seats.get(player_id)
        count = (0 if seat is None else seat.timeouts) + 1
        if count >= limit and self.service.store.put_stand_in(
            match_id, player_id, BotSpec().model_dump(mode="json"), "timeouts"
        ):
            self.service.cache.drop(match_id)
            if self.poke_bots is not None:
                self.poke_bots(match_id)

    # -- views ----------------------------------------------------------------------------------------

    def view(self, match: LoadedMatch) -> JsonValue:
        """The ``ClockView`` JSON of a match (None without a clock): each seat's time left as of
        the server's clock, and the server's time."""
        match_id = match.row.id
        with self._lock:
            cached = self._known.get(match_id, _UNKNOWN)
        if cached is None:
            return None
        known = cached if isinstance(cached, _Known) and cached.head == match.row.head else None
        if known is None:
            known, _ = self._settings(match_id)
            if known is None:
                return None
        moment = self.now()
        now_ms = to_ms(moment)
        control = known.settings.control
        away = known.away
        seats: list[JsonValue] = []
        for player_id, seat in known.clock.seats.items():
            due = due_of(control, seat) if match.row.status == "in_progress" else None
            seats.append(
                {
                    "player_id": player_id,
                    "remaining_ms": remaining_of(control, seat, now_ms),
                    "running": due is not None,
                    "due_at": None if due is None else _at(due).isoformat(),
                    "timeouts": seat.timeouts,
                    "away": player_id in away,
                }
            )
        return {
            "control": known.settings.control.model_dump(mode="json"),
            "policy": known.settings.policy.model_dump(mode="json"),
            "index": known.head,
            "server_time": moment.isoformat(),
            "seats": seats,
        }


_ENVELOPE = {
    "source",
    "index",
    "created_at",
    "reveals_info",
    "metadata",
    "simultaneous_group_id",
    "id",
    "game_id",
}


def _timed_out(row: ActionRow) -> bool:
    return (row.submission_id or row.action_id).startswith(TIMEOUT_PREFIX)


def _writes(rows: Sequence[ActionRow]) -> list[list[ActionRow]]:
    """The action rows grouped by the write that recorded them (one ``created_at`` per write)."""
    groups: list[list[ActionRow]] = []
    for row in rows:
        if groups and groups[-1][0].created_at == row.created_at:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups
