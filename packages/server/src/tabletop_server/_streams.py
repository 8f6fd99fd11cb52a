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
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass

import orjson
from starlette.concurrency import run_in_threadpool

from tabletop_server._errors import ApiError
from tabletop_server._metrics import stream_closed, stream_opened
from tabletop_server._runtime import JsonDict, action_json, load_action, perspective_of
from tabletop_server._service import MatchService
from tabletop_server.events import Subscription, make_delta
from tabletop_server.storage import StorageError

__all__ = ["HISTORY", "MatchStream", "format_event"]

HISTORY = 3
"""How many of its last documents a connection may diff an update against (clients keep at least as many)."""


_NOT_RUNNABLE = frozenset({"logic-version-unavailable", "migration-failed", "migration-invalid"})


def format_event(event: str, data: object, event_id: int | None = None) -> bytes:
    """One SSE frame (``id``, ``event``, one ``data`` line of JSON)."""
    head = b"" if event_id is None else b"id: %d\n" % event_id
    return head + b"event: " + event.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n"


@dataclass
class _Position:
    head: int
    last_id: str | None
    logic_version: str | None = None
    """The logic version of the last document sent: a migration since makes the next event a ``reset``."""


class MatchStream:
    """The events of one match for one perspective.

    Args:
        service: The matches service.
        subscription: The hub subscription that wakes the stream.
        match_id: The match.
        player_id: The seat, or None for a spectator.
        last_event_id: The client's ``Last-Event-ID`` (the index of the last action it has), or None.
        keepalive: Seconds between keep-alive comments when nothing happens.
    """

    def __init__(
        self,
        service: MatchService,
        subscription: Subscription,
        match_id: str,
        player_id: str | None,
        last_event_id: int | None,
        keepalive: float,
    ) -> None:
        self.service = service
        self.subscription = subscription
        self.match_id = match_id
        self.player_id = player_id
        self.last_event_id = last_event_id
        self.keepalive = keepalive
        self._sent: deque[tuple[int, JsonDict]] = deque(maxlen=HISTORY)

    async def events(self) -> AsyncIterator[bytes]:
        """The stream's frames, until the client goes away."""
        stream_opened()
        try:
            if self.last_event_id is None:
                frame, position = await run_in_threadpool(self._snapshot, "snapshot")
            else:
                frame, position = await run_in_threadpool(self._resume, self.last_event_id)
            yield frame if frame else b": connected\n\n"
            while True:
                woke = await self.subscription.wait(self.keepalive)
                if not woke:
                    yield b": keep-alive\n\n"
                    continue
                caught_up, position = await run_in_threadpool(self._catch_up, position)
                if caught_up is None:  # migrated past this worker's code: the client reconnects
                    return
                if caught_up:
                    yield caught_up
        finally:
            stream_closed()
            self.subscription.close()

    def _snapshot(self, event: str) -> tuple[bytes, _Position]:
        match = self.service.load(self.match_id)
        view = self.service.view_of(match, self.player_id)
        last = self._last_id(match.row.head, match.row.base_index)
        event_id = match.row.head - 1
        self._sent.clear()
        self._sent.append((event_id, {**view, "actions": []}))
        return format_event(event, view, event_id), _Position(match.row.head, last, match.row.logic_version)

    def _last_id(self, head: int, base_index: int) -> str | None:
        if head <= base_index:
            return None
        rows = self.service.store.actions(self.match_id, after=head - 2, limit=1)
        return rows[0].action_id if rows else None

    def _resume(self, last_event_id: int) -> tuple[bytes, _Position]:
        match = self.service.load(self.match_id)
        row = match.row
        if last_event_id + 1 > row.head or last_event_id + 1 < row.base_index:
            return self._snapshot("reset")
        if row.migrated_from is not None and last_event_id + 1 <= row.base_index:
            return self._snapshot("reset")  # the client's documents may be of the version before
        return self._update(_Position(last_event_id + 1, None, row.logic_version), verify=False)

    def _catch_up(self, position: _Position) -> tuple[bytes | None, _Position]:
        """The next frame (empty: nothing new); None when the match now runs a logic version this
        worker has no code for (another worker migrated it during a rolling upgrade): the stream
        ends, and the client's reconnection (with ``Last-Event-ID``) gets a ``reset``."""
        try:
            return self._update(position, verify=True)
        except ApiError as error:
            return (None if error.code in _NOT_RUNNABLE else b""), position
        except StorageError:
            return b"", position

    def _update(self, position: _Position, *, verify: bool) -> tuple[bytes, _Position]:
        match = self.service.load(self.match_id)
        row = match.row
        if row.logic_version != position.logic_version and match.unavailable is not None:
            raise match.unavailable  # migrated to a version this worker cannot run: end the stream
        if row.head < position.head or row.logic_version != position.logic_version:
            return self._snapshot("reset")
        checked = verify and position.last_id is not None and position.head - 1 >= row.base_index
        after = position.head - 2 if checked else position.head - 1
        rows = self.service.store.actions(self.match_id, after=after)
        if checked:
            if not rows or rows[0].action_id != position.last_id:
                return self._snapshot("reset")
            rows = rows[1:]
        rows = [action for action in rows if action.index < row.head]
        if not rows:
            return b"", position
        perspective = perspective_of(self.player_id)
        actions = [action_json(load_action(match.entry, action.json), perspective) for action in rows]
        last = rows[-1]
        if last.index != row.head - 1:  # the log was cut while we read: start over from a view
            return self._snapshot("reset")
        document: JsonDict = {**self.service.view_of(match, self.player_id), "actions": list(actions)}
        frame = format_event("update", self._delta(document), last.index)
        self._sent.append((last.index, document))
        return frame, _Position(last.index + 1, last.action_id, row.logic_version)

    def _delta(self, document: JsonDict) -> JsonDict:
        """The shortest ``{"base", "patch"}`` from a document this connection sent (or none)."""
        best: JsonDict = {"base": None, "patch": [document]}
        size = len(orjson.dumps(best))
        for event_id, sent in reversed(self._sent):
            candidate: JsonDict = {"base": event_id, "patch": make_delta(sent, document)}
            length = len(orjson.dumps(candidate))
            if length < size:
                best, size = candidate, length
        return best
