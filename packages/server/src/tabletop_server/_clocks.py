"""Clocks of hosted matches: keeping each clocked match's clock and enforcing its deadlines.

The clock itself is the pure value of :mod:`tabletop.clocks`; this module feeds it the times the
server recorded. A match's clock is stored in the transaction that creates it, and every action's
write stores the clock as of that write in its own transaction (``step``: computed from the time
the store records the write, from the clock this worker remembers at the match's head), so a
clocked action costs no extra transaction. A worker that does not know the clock at the head (the
match was written by another worker, or this one restarted) has its thread catch up from the log
after the commit, from the action rows' own ``created_at``. A human seat's clock waits until a
player first takes the seat: the claim's own transaction starts it (``claim``: a compare-and-set
on the clock this worker knows), or, where the worker does not know it, makes the clock due so a
keeper starts it (``seat_taken`` at once, or any worker's sweep). The same thread looks, every ``poll``
seconds (and at once on start, so a deadline that passed while the server was down is handled
then), for clocks that are due or lag behind their match: it leases them (``Store.lease_clocks``:
``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so of several workers exactly one takes a clock), brings
each up to date, and handles what fell due. A seat's low point (``_clock_low``) queues one
``clock-low`` event. An expiry is a timeout recorded once per (match, head, seat) with what the
server observed, then what the match's policy and the game's rules make of it
(:func:`tabletop.clocks.decide_timeout`): a bot's move for the seat, chosen from the seat's view,
the game's pass action, or a forfeit (``_clock_expiry``). Moves are submitted pinned to the head
the keeper saw, so a move that raced a player's is refused, never played twice.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from tabletop import Game, GameConfig
from tabletop._machine import AnyState
from tabletop.clocks import (
    ClockSettings,
    ClockState,
    Forfeit,
    advance_clock,
    decide_timeout,
    next_due,
    start_clock,
    take_seats,
)

from tabletop_server._clock_book import KNOWN_LIMIT, UNKNOWN, ClockBook, Now, utc_now
from tabletop_server._clock_expiry import announce_low, away_after_timeouts, forfeit, play_for
from tabletop_server._clock_time import (
    TIMEOUT_PREFIX,
    KnownClock,
    active_in,
    active_seats,
    at_ms,
    shown_settings,
    state_text,
    taken_since,
    to_ms,
    waiting_due,
)
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch
from tabletop_server._registry import GameEntry
from tabletop_server._service import MatchService
from tabletop_server.events import MatchChange
from tabletop_server.storage import (
    ClaimClock,
    ClockClaim,
    ClockWrite,
    MatchRow,
    NewAction,
    NewClock,
    StorageError,
    TimeoutRow,
)

__all__ = ["TIMEOUT_PREFIX", "ClockKeeper", "active_seats", "to_ms"]

logger = logging.getLogger("tabletop_server.clocks")

LEASE = timedelta(seconds=30)
"""How long a worker holds a clock it took; a worker killed mid-way leaves it to another after."""


class ClockKeeper(ClockBook):
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
        low_fraction: float = 0.0,
        now: Now = utc_now,
        poke_bots: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(service, low_fraction=low_fraction, now=now)
        self.poll = poll
        self.poke_bots = poke_bots
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._steps: dict[str, tuple[int, datetime, ClockState, tuple[str, ...]]] = {}
        """Clocks computed for a write (head, time) before its commit: ``played`` keeps them."""
        self._started: dict[str, tuple[str, ClockState]] = {}
        """Clocks computed for a claim (with their JSON) before its commit: ``seat_taken`` keeps
        the one the claim stored, not parsed again."""
        self.expired = 0
        """Timeouts this worker handled (tests and metrics)."""
        service.after_write.append(self.changed)
        service.after_join.append(self.seat_taken)
        service.after_play.append(self.played)
        service.clock_view = self.view
        service.clock_new = self.create
        service.clock_step = self.step
        service.clock_claim = self.claim

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
                    self.refresh(match_id)
                except Exception:
                    logger.exception("clock of match %s failed", match_id)
                deadline = 0.0 if not self._queue.empty() else min(self.poll, 0.05)

    # -- creation and writes ------------------------------------------------------------------------

    def create(
        self,
        match_id: str,
        entry: GameEntry,
        game: Game[GameConfig],
        state: AnyState,
        head: int,
        settings: ClockSettings,
    ) -> NewClock | None:
        """The clock of a match about to be created, stored in its creation's transaction (None
        without a time control)."""
        if settings.control.type == "none":
            self._remember(match_id, None)
            return None
        players = [player.player_id for player in state.players]
        active = active_in(entry, game, state, "in_progress" if state.result is None else "finished")
        waiting = [player.id for player in game.players if player.is_human]  # until someone joins

        dumped = settings.model_dump(mode="json")
        shown = shown_settings(dumped)

        def at(stamp: datetime) -> tuple[str, datetime | None]:
            now_ms = to_ms(stamp)
            clock = start_clock(settings.control, players, active, now_ms, waiting=waiting)
            self._remember(match_id, KnownClock(settings, clock, head, shown, active=tuple(active)))
            return state_text(clock), self._due(settings, clock, now_ms)

        return NewClock(dumped, head, at)

    def step(
        self, match: LoadedMatch, state: AnyState, status: str, recorded: Sequence[NewAction]
    ) -> ClockWrite | None:
        """The clock after a write of ``recorded`` from ``match`` to ``state``, computed at the time
        the store records it and stored in the write's transaction (None: no clock, or this worker
        does not know it at the match's head: its thread catches up from the log after the commit)."""
        match_id = match.row.id
        with self._lock:
            known = self._known.get(match_id, UNKNOWN)
        if (
            not isinstance(known, KnownClock)
            or known.head != match.row.head
            or taken_since(known.clock, match)
        ):
            return None  # (a seat taken since: the keeper's thread starts its clock, then this write's)
        acted = [a.player_id for a in recorded if a.source == "user" and a.player_id]
        timed: list[str] = []
        if any(a.action_id.startswith(TIMEOUT_PREFIX) for a in recorded):  # (a move played for a seat)
            acted, timed = [], acted
        active = active_in(match.entry, match.game, state, status)
        head = match.row.head + len(recorded)
        control = known.settings.control

        def at(stamp: datetime) -> tuple[str, datetime | None]:
            now_ms = to_ms(stamp)
            clock = advance_clock(
                control, known.clock, now_ms=now_ms, acted=acted, timed_out=timed, active=active
            )
            with self._lock:
                if len(self._steps) >= KNOWN_LIMIT:
                    self._steps.clear()
                self._steps[match_id] = (head, stamp, clock, tuple(active))
            due = None
            if status == "in_progress":
                due = waiting_due(clock, active, stamp, self._due(known.settings, clock, now_ms))
            return state_text(clock), due

        return at

    def played(self, match: LoadedMatch, recorded: Sequence[NewAction]) -> None:
        """A write committed (``match`` as written): keep the clock ``step`` computed for it."""
        match_id = match.row.id
        with self._lock:
            stepped = self._steps.pop(match_id, None)
            known = self._known.get(match_id, UNKNOWN)
            if stepped is None or not isinstance(known, KnownClock):
                return
            head, stamp, clock, active = stepped
            if head == match.row.head and stamp == match.row.updated_at:  # (known: no new entry)
                kept = KnownClock(known.settings, clock, head, known.shown, known.away, active)
                self._known[match_id] = kept

    def claim(self, match_id: str, player_id: str) -> ClaimClock:
        """What claiming the seat does to the match's clock, in the claim's transaction: start the
        seat's clock if it waits for its player and this worker knows the clock and who is to act
        (``"unknown"`` otherwise: the claim makes the clock due and ``seat_taken`` catches up)."""
        with self._lock:
            known = self._known.get(match_id, UNKNOWN)
        if known is None:
            return "none"
        if not isinstance(known, KnownClock) or known.active is None:
            return "unknown"
        seat = known.clock.seats.get(player_id)
        if seat is None or not seat.waiting:  # (a seat never waits again once it stopped)
            return "none"
        active = known.active

        def at(stamp: datetime) -> tuple[str, datetime | None]:
            now_ms = to_ms(stamp)
            clock = take_seats(known.clock, [player_id], now_ms=now_ms, active=active)
            dumped = state_text(clock)
            with self._lock:
                if len(self._started) >= KNOWN_LIMIT:
                    self._started.clear()
                self._started[match_id] = (dumped, clock)
            return dumped, self._due(known.settings, clock, now_ms)

        return ClockClaim(known.head, state_text(known.clock), at)

    def seat_taken(self, match_id: str, clock: ClaimClock) -> None:
        """A player took a seat (committed): keep the clock the claim started, or start the seat's
        clock now if it was waiting for them (the claim also made the clock due, so a keeper does
        it anyway if this fails)."""
        if clock == "none":
            return
        if isinstance(clock, ClockClaim) and clock.started is not None:
            with self._lock:
                known = self._known.get(match_id, UNKNOWN)
                made = self._started.pop(match_id, None)
            if isinstance(known, KnownClock) and known.head == clock.head:
                if made is not None and made[0] == clock.started:  # (the clock ``at`` made for it)
                    started = made[1]
                else:
                    started = ClockState.model_validate_json(clock.started)
                self._remember(match_id, replace(known, clock=started))
            self.service.hub.publish(MatchChange(match_id, clock.head))  # streams send the new clock
            return
        try:
            self.refresh(match_id)
        except (ApiError, StorageError) as error:
            logger.warning("clock of match %s: %s", match_id, error)

    def changed(self, row: MatchRow) -> None:
        """A write of the match committed (from any thread): bring its clock up to date, unless
        the write stored it (``step``) or the match has none."""
        with self._lock:
            known = self._known.get(row.id, UNKNOWN)
        if known is None or (isinstance(known, KnownClock) and known.head == row.head):
            return
        self._queue.put(row.id)

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
        found = self._refresh(match_id)  # also ends the lease when the clock is saved
        if found is None:
            self.service.store.release_clock(match_id)
            return 0
        known, stored_due = found
        match = self.service.load(match_id)
        moment = self.now()
        control = known.settings.control
        due = next_due(control, known.clock)
        if match.row.status != "in_progress" or due is None:
            if stored_due is not None and match.row.status == "in_progress":  # nothing runs: nothing is due
                self.service.store.save_clock(match_id, state_text(known.clock), known.head, None)
            else:
                self.service.store.release_clock(match_id)
            return 0
        if due[0] > to_ms(moment):
            if stored_due is not None and stored_due <= moment:
                now_ms = to_ms(moment)
                due_next = self._due(known.settings, known.clock, now_ms)
                announce_low(
                    self.service.store, match, known, self.low_fraction, stored_due, now_ms, due_next
                )
            else:
                self.service.store.release_clock(match_id)
            return 0
        player_id = due[1]
        entry = TimeoutRow(
            index=match.row.head,
            player_id=player_id,
            due_at=at_ms(due[0]),
            observed_at=moment,
            policy=known.settings.policy.on_timeout,
            outcome="pending",
            action_id=None,
        )
        outcome = decide_timeout(known.settings.policy, match.entry.definition.expiry, match.state, player_id)
        if isinstance(outcome, Forfeit):
            done = forfeit(self.service, match, entry)
        else:
            done = play_for(self.service, match, entry, outcome)
        if done:
            self.expired += 1
            if away_after_timeouts(self.service, match_id, player_id, known.settings.policy, known.clock):
                self.service.cache.drop(match_id)
                if self.poke_bots is not None:
                    self.poke_bots(match_id)
        self.refresh(match_id)
        self.service.store.release_clock(match_id)  # (the move's write stored the clock, lease kept)
        return 1 if done else 0
