"""A stream whose match has not moved sends a ``clock`` event only for a clock at its own actions.

The keeper may already hold the clock of actions written after the stream's last wake-up (their
notification is on its way); sending it as a ``clock`` event would show the stream's client a clock
ahead of the actions it has. That clock arrives with those actions' ``update`` instead.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from tabletop_server._runtime import JsonDict
from tabletop_server._streams import MatchStream, _Position


def _stream(clock: JsonDict | None) -> MatchStream:
    service: Any = SimpleNamespace(clock_view=lambda match: clock)
    subscription: Any = SimpleNamespace()
    return MatchStream(service, subscription, "m_1", "p1", None, 15.0)


def _clock(index: int, due_at: str) -> JsonDict:
    seat: JsonDict = {"player_id": "p1", "due_at": due_at, "timeouts": 0, "away": False}
    return {"index": index, "server_time": "t", "seats": [seat]}


@pytest.mark.parametrize(("clock_index", "sent_event"), [(4, True), (5, False), (9, False)])
def test_a_clock_event_never_runs_ahead_of_the_streams_actions(clock_index: int, sent_event: bool) -> None:
    match: Any = SimpleNamespace(row=SimpleNamespace(status="in_progress"))
    last: JsonDict = {"status": "in_progress", "clock": _clock(4, "2026-11-29T12:00:00Z")}
    sent = ((3, last),)  # the stream has sent actions 0..3 (its head is 4)
    clock = _clock(clock_index, "2026-11-29T12:05:00Z")  # another seat's turn: a new due time
    step = _stream(clock)._unchanged(match, _Position(4, "a3"), sent)
    assert bool(step.frame) is sent_event
    if sent_event:
        assert step.frame.startswith(b"event: clock\n")
        assert step.sent[-1][1]["clock"] == clock  # the next delta's base carries it
    else:
        assert step.sent == sent  # nothing sent, nothing remembered: the update brings it
    assert step.position == _Position(4, "a3")
