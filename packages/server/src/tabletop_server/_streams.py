"""One server-sent event stream: a match seen from one perspective, gap-free and resumable.

Event ids are action indices. The stream remembers how many actions its client has and the id
of the last one; every wake-up it reads what is new from the action log, so a notification
that is coalesced (or a hub that drops one) never loses an event. If the log was cut back (an
undo), the stream sends a ``reset`` with a fresh view.

An ``update`` sends what changed, not the whole view: each event has a *document* (its
``ViewResponse`` plus ``actions``, the new projected actions; ``[]`` for a ``snapshot`` or
``reset``), and an update carries a delta (``tabletop_server.events.make_delta``) from one of the
last :data:`HISTORY` documents this connection sent, whichever gives the shortest: ``{"base":
<event id>, "patch": <delta>}``. The first event of a resumed connection has no base (``"base":
null``, the patch is the whole document). The stream only ever diffs documents it sent to this
perspective, so a delta holds nothing the seat's own full view would not.

A seat's stream is bound to the seat token that minted its stream token: once that token no
longer holds the seat (the seat was left, or taken again with another token), the stream sends
an ``end`` event (``{code, message, path}``, code ``invalid-token``) and closes. A stream whose
first read fails (the database is unreachable or times out) is answered with an ``end`` event at
once (code ``storage-unavailable``), and its single-use token is not spent: the token is used
only once the first event is ready.

Streams of one match that are in step (same perspective, same position, same last documents)
share each step's work: it is computed once (:class:`tabletop_server.events.SharedSteps`) and
the same encoded frame is written to each of them.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator
from dataclasses import dataclass

import orjson
from starlette.concurrency import run_in_threadpool

from tabletop_server._clock_rules import clock_key
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch
from tabletop_server._metrics import stream_closed, stream_opened
from tabletop_server._runtime import JsonDict, action_json, load_action, perspective_of
from tabletop_server._service import MatchService
from tabletop_server.events import SharedSteps, Subscription, make_delta
from tabletop_server.storage import StorageError

__all__ = ["END_EVENT", "HISTORY", "MatchStream", "StreamStep", "end_frame", "format_event"]

HISTORY = 3
"""How many of its last documents a connection may diff an update against (clients keep at least as many)."""

END_EVENT = "end"
"""The event that closes a stream, with ``{code, message, path}``: ``invalid-token`` (the seat
token that opened it no longer holds the seat: do not reconnect with it) or
``storage-unavailable`` (reconnect later)."""

Sent = tuple[tuple[int, JsonDict], ...]


RETRY_SECONDS = 1.0
"""How soon a stream whose read failed looks again (see ``StreamStep.failed``)."""

_NOT_RUNNABLE = frozenset({"logic-version-unavailable", "migration-failed", "migration-invalid"})


def format_event(event: str, data: object, event_id: int | None = None) -> bytes:
    """One SSE frame (``id``, ``event``, one ``data`` line of JSON)."""
    head = b"" if event_id is None else b"id: %d\n" % event_id
    return head + b"event: " + event.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n"


def end_frame(error: ApiError) -> bytes:
    """The ``end`` event of a stream closed because of ``error``."""
    return format_event(END_EVENT, {"code": error.code, "message": error.message, "path": error.path})


@dataclass(frozen=True, slots=True)
class _Position:
    head: int
    last_id: str | None
    logic_version: str | None = None
    """The logic version of the last document sent: a migration since makes the next event a ``reset``."""


@dataclass(frozen=True, slots=True)
class StreamStep:
    """What one wake-up of a stream sends, and where it leaves the stream.

    Attributes:
        frame: The encoded event (empty: nothing new).
        position: The stream's position after it.
        sent: The stream's last documents after it (the bases of its next deltas).
        failed: The database failed while it read: the stream looks again after
            ``RETRY_SECONDS``, not only at the match's next change (there may be none: its
            players may be waiting for the very update it could not read).
    """

    frame: bytes
    position: _Position
    sent: Sent
    failed: bool = False


class SeatLostError(ApiError):
    """The seat token that opened the stream no longer holds its seat."""

    def __init__(self) -> None:
        super().__init__("invalid-token", "the seat token that opened this stream no longer holds the seat")


class MatchStream:
    """The events of one match for one perspective.

    Args:
        service: The matches service.
        subscription: The hub subscription that wakes the stream.
        match_id: The match.
        player_id: The seat, or None for a spectator.
        last_event_id: The client's ``Last-Event-ID`` (the index of the last action it has), or None.
        keepalive: Seconds between keep-alive comments when nothing happens.
        seat_token_hash: The hash of the seat token the stream is bound to (None: a spectator).
        shared: Where in-step streams of the worker share their steps (None: not shared).
    """

    def __init__(
        self,
        service: MatchService,
        subscription: Subscription,
        match_id: str,
        player_id: str | None,
        last_event_id: int | None,
        keepalive: float,
        *,
        seat_token_hash: str | None = None,
        shared: SharedSteps[StreamStep] | None = None,
    ) -> None:
        self.service = service
        self.subscription = subscription
        self.match_id = match_id
        self.player_id = player_id
        self.last_event_id = last_event_id
        self.keepalive = keepalive
        self.seat_token_hash = seat_token_hash
        self.shared = shared
        self._sent: deque[tuple[int, JsonDict]] = deque(maxlen=HISTORY)
        self._position = _Position(0, None)
        self._failed = False

    def first(self) -> bytes:
        """The first frame (a ``snapshot``, or what a resumed client missed); blocking.

        Raises:
            ApiError: The match is unknown, the seat is lost, or the database failed.
        """
        if self.last_event_id is None:
            step = self._snapshot("snapshot", self._load())
        else:
            step = self._resume(self.last_event_id)
        self._apply(step)
        return step.frame or b": connected\n\n"

    async def events(self, first: bytes) -> AsyncGenerator[bytes, None]:
        """``first``, then the stream's frames until the client goes away or the stream ends."""
        stream_opened()
        try:
            yield first
            while True:
                looking = self._failed  # (the last read failed: look again soon, woken or not)
                wait = min(RETRY_SECONDS, self.keepalive) if looking else self.keepalive
                woke = await self.subscription.wait(wait)
                try:
                    if not woke and not looking:
                        # a lost notification must not keep a lost seat's stream open
                        await run_in_threadpool(self._check_seat)
                        yield b": keep-alive\n\n"
                        continue
                    since = self.subscription.changed_at if woke else asyncio.get_running_loop().time()
                    step = await self._step(since)  # (a look again shares no step that failed)
                    if not woke and not step.frame:
                        yield b": keep-alive\n\n"
                except SeatLostError as error:
                    yield end_frame(error)
                    return
                except ApiError as error:
                    if error.code in _NOT_RUNNABLE:  # migrated past this worker's code: the client
                        return  # reconnects (with Last-Event-ID) and gets a ``reset``
                    raise
                self._apply(step)
                if step.frame:
                    yield step.frame
        finally:
            stream_closed()
            self.subscription.close()

    async def _step(self, since: float) -> StreamStep:
        """The step of a wake-up for a change notified at ``since`` (shared with the streams in
        step with this one, from a computation that started after the change)."""
        position, sent = self._position, tuple(self._sent)
        if self.shared is None:
            return await run_in_threadpool(self._catch_up, position, sent)
        key = (
            self.match_id,
            self.player_id,
            self.seat_token_hash,
            position,
            tuple(event_id for event_id, _ in sent),
        )
        return await self.shared.run(key, since, lambda: run_in_threadpool(self._catch_up, position, sent))

    def _check_seat(self) -> None:
        if self.player_id is None:
            return
        try:
            self._load()
        except SeatLostError:
            raise
        except (ApiError, StorageError):  # a fault: check again at the next wake-up
            return

    def _apply(self, step: StreamStep) -> None:
        self._position = step.position
        self._sent = deque(step.sent, maxlen=HISTORY)
        self._failed = step.failed

    def _load(self) -> LoadedMatch:
        """The match now; raises :class:`SeatLostError` if the stream's seat token lost its seat."""
        match = self.service.load(self.match_id)
        if self.player_id is not None and (
            self.seat_token_hash is None or match.holder(self.seat_token_hash) != self.player_id
        ):
            raise SeatLostError
        return match

    def _snapshot(self, event: str, match: LoadedMatch) -> StreamStep:
        view = self.service.view_of(match, self.player_id)
        last = self._last_id(match.row.head, match.row.base_index)
        event_id = match.row.head - 1
        sent: Sent = ((event_id, {**view, "actions": []}),)
        return StreamStep(
            format_event(event, view, event_id),
            _Position(match.row.head, last, match.row.logic_version),
            sent,
        )

    def _last_id(self, head: int, base_index: int) -> str | None:
        if head <= base_index:
            return None
        rows = self.service.store.actions(self.match_id, after=head - 2, limit=1)
        return rows[0].action_id if rows else None

    def _resume(self, last_event_id: int) -> StreamStep:
        match = self._load()
        row = match.row
        if last_event_id + 1 > row.head or last_event_id + 1 < row.base_index:
            return self._snapshot("reset", match)
        if row.migrated_from is not None and last_event_id + 1 <= row.base_index:
            return self._snapshot("reset", match)  # the client's documents may be of the version before
        return self._update(match, _Position(last_event_id + 1, None, row.logic_version), (), verify=False)

    def _catch_up(self, position: _Position, sent: Sent) -> StreamStep:
        """The next step (an empty frame: nothing new). Raises the match's ``unavailable`` error
        when it now runs a logic version this worker has no code for (another worker migrated it
        during a rolling upgrade): the stream ends, and the client's reconnection gets a ``reset``."""
        try:
            match = self._load()
            return self._update(match, position, sent, verify=True)
        except ApiError as error:
            if isinstance(error, SeatLostError) or error.code in _NOT_RUNNABLE:
                raise
            return StreamStep(b"", position, sent, failed=True)  # a fault mid-stream: look again soon
        except StorageError:
            return StreamStep(b"", position, sent, failed=True)

    def _update(self, match: LoadedMatch, position: _Position, sent: Sent, *, verify: bool) -> StreamStep:
        row = match.row
        if row.logic_version != position.logic_version and match.unavailable is not None:
            raise match.unavailable  # migrated to a version this worker cannot run: end the stream
        if row.head < position.head or row.logic_version != position.logic_version:
            return self._snapshot("reset", match)
        checked = verify and position.last_id is not None and position.head - 1 >= row.base_index
        after = position.head - 2 if checked else position.head - 1
        rows = self.service.store.actions(self.match_id, after=after)
        if checked:
            if not rows or rows[0].action_id != position.last_id:
                return self._snapshot("reset", match)
            rows = rows[1:]
        rows = [action for action in rows if action.index < row.head]
        if not rows:
            return self._unchanged(match, position, sent)
        perspective = perspective_of(self.player_id)
        actions = [action_json(load_action(match.entry, action.json), perspective) for action in rows]
        last = rows[-1]
        if last.index != row.head - 1:  # the log was cut while we read: start over from a view
            return self._snapshot("reset", match)
        document: JsonDict = {**self.service.view_of(match, self.player_id), "actions": list(actions)}
        frame = format_event("update", _delta(sent, document), last.index)
        kept = (*sent, (last.index, document))[-HISTORY:]
        return StreamStep(frame, _Position(last.index + 1, last.action_id, row.logic_version), kept)

    def _unchanged(self, match: LoadedMatch, position: _Position, sent: Sent) -> StreamStep:
        """No new action: a ``reset`` if the match's status changed without one (its creator
        ended it), a ``clock`` event (the ``ClockView``) if its clock changed, else nothing."""
        if not sent or self.service.clock_view is None:
            return StreamStep(b"", position, sent)
        event_id, last = sent[-1]
        if last.get("status") != match.row.status:
            return self._snapshot("reset", match)
        clock = self.service.clock_view(match)
        if clock is None or clock_key(clock) == clock_key(last.get("clock")):
            return StreamStep(b"", position, sent)
        if _index_of(clock) > position.head:  # a clock of actions written since: their update carries it
            return StreamStep(b"", position, sent)
        kept = (*sent[:-1], (event_id, {**last, "clock": clock}))
        return StreamStep(format_event("clock", clock), position, kept)


def _index_of(clock: object) -> int:
    """The match head a clock view is at."""
    index = clock.get("index") if isinstance(clock, dict) else None
    return index if isinstance(index, int) else 0


def _delta(sent: Sent, document: JsonDict) -> JsonDict:
    """The shortest ``{"base", "patch"}`` from a document this connection sent (or none)."""
    best: JsonDict = {"base": None, "patch": [document]}
    size = len(orjson.dumps(best))
    for event_id, previous in reversed(sent):
        candidate: JsonDict = {"base": event_id, "patch": make_delta(previous, document)}
        length = len(orjson.dumps(candidate))
        if length < size:
            best, size = candidate, length
    return best
