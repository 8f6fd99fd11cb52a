"""A receiver that takes a delivery and never answers: nobody waits for it but its own sender.

Asserted by what happens while the receiver still holds the request (its handler blocked on an
event the test sets later), never by how long anything took: the seats' next actions are
accepted, another match's event and the same seat's next one are delivered by the other senders,
and the held attempt is still in flight. The attempt itself ends at the delivery timeout, counted
as a failed attempt and due again after the backoff; the event then arrives with the same id.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from tabletop_fixtures.live_server import Api, live_server
from tabletop_fixtures.receiver import Receiver, receiver
from tabletop_server import Settings
from tabletop_server._outbox import Courier
from tabletop_server.storage import Store

from tests.server.notify.hooks import (
    StoppedClock,
    deliveries,
    play_one,
    quiet_server,
    recorded,
    register,
    seated,
    until,
)

PATIENT_OUTBOX = {
    "webhook_poll_seconds": 0.05,
    "webhook_retry_seconds": 0.1,
    "webhook_timeout": 60.0,
    "webhook_concurrency": 2,
}
"""A prompt outbox whose senders wait as long as allowed for an answer: the held attempt is still in
flight however slowly the test runs; one of the two senders is held, the other does the rest."""


@pytest.fixture
def healthy() -> Iterator[Receiver]:
    """A second receiver, answering at once."""
    with receiver() as running:
        yield running


def test_a_held_delivery_slows_neither_its_seats_next_actions_nor_other_deliveries(
    migrated_url: str, hook: Receiver, healthy: Receiver
) -> None:
    with live_server(migrated_url, **PATIENT_OUTBOX) as server:
        api = Api(server.url)
        try:
            match_id, tokens = seated(api)
            register(api, match_id, tokens["p2"], hook.url)
            other_id, others = seated(api)
            register(api, other_id, others["p2"], healthy.url)
            hook.hold = 1
            play_one(api, match_id, tokens["p1"])  # p2's turn: the event the receiver holds
            until(lambda: len(hook.arrived) == 1, "the first event sent")
            [held] = hook.arrived
            assert held.held and held.event["player_id"] == "p2"

            # While the receiver holds it (its handler waits for hook.release):
            play_one(api, match_id, tokens["p2"])  # the seat it is for plays on
            play_one(api, match_id, tokens["p1"])  # and it is p2's turn again: a second event
            assert api.match(match_id)["index"] == 3
            play_one(api, other_id, others["p1"])
            [other] = healthy.wait_for(1)
            assert other.event["match_id"] == other_id
            [later] = hook.wait_for(1)  # p2's second event, past the first one still held
            assert later.event["id"] != held.event["id"]
            assert later.event["index"] == 3
            first = {d["event_id"]: d for d in deliveries(api, match_id, tokens["p2"])}[held.event["id"]]
            assert (first["status"], first["attempts"], first["last_error"]) == ("pending", 1, None)
            assert not hook.hung_up  # its sender is still waiting for the answer
            assert not hook.release.is_set()

            hook.release.set()  # the receiver drops the held request unanswered

            def listed() -> dict[object, dict[str, object]]:
                return {d["event_id"]: d for d in deliveries(api, match_id, tokens["p2"])}

            until(lambda: listed()[held.event["id"]]["status"] == "delivered", "the held event delivered")
            assert listed()[held.event["id"]]["attempts"] == 2
            assert (listed()[later.event["id"]]["status"], listed()[later.event["id"]]["attempts"]) == (
                "delivered",
                1,
            )
            [other_row] = deliveries(api, other_id, others["p2"])
            assert (other_row["status"], other_row["attempts"]) == ("delivered", 1)
            again = [a for a in hook.arrived if a.event["id"] == held.event["id"]]
            assert [a.held for a in again] == [True, False]  # the held attempt, then one retry
            assert {a.body for a in again} == {held.body}  # the same event, byte for byte
            assert [d.event["id"] for d in hook.got] == [later.event["id"], held.event["id"]]
        finally:
            hook.release.set()  # (a failing test must not leave the server's sender held)
            api.close()


@pytest.mark.parametrize("hang", ["silent", "trickling"])
def test_an_attempt_at_a_hanging_receiver_ends_at_the_timeout_and_is_tried_again_after_the_backoff(
    migrated_url: str, hook: Receiver, hang: str
) -> None:
    """``silent``: it never sends a byte; ``trickling``: a status line, then a header a byte at a
    time, each sooner than the timeout, never finishing (the socket timeout alone, which bounds
    each read, would wait for it for ever)."""
    settings = Settings(db=migrated_url, webhook_timeout=0.3, webhook_retry_seconds=30.0)
    with quiet_server(migrated_url) as api:
        match_id, tokens = seated(api)
        register(api, match_id, tokens["p2"], hook.url)
        if hang == "silent":
            hook.hold = 1
        else:
            hook.trickle = 1
        play_one(api, match_id, tokens["p1"])
        store = Store(migrated_url)
        courier: Courier | None = None
        try:
            [queued] = store.deliveries(match_id, "p2")
            clock = StoppedClock(queued.next_attempt_at)
            courier = Courier(store, settings, now=clock)
            assert courier.run_once() == 1
            failed = recorded(store, match_id, "p2", 1)
            # It ended though the receiver never answered and still keeps the request open.
            assert not hook.release.is_set()
            assert hook.got == []
            [hanging] = hook.arrived
            assert (hanging.held, hanging.trickled) == (hang == "silent", hang == "trickling")
            until(lambda: hook.hung_up == [hanging], "the receiver sees the sender hang up")
            assert failed.status == "pending"
            assert str(failed.last_error).startswith("TimeoutError")
            assert failed.next_attempt_at == clock.at + timedelta(seconds=30)

            clock.at = failed.next_attempt_at - timedelta(milliseconds=1)
            assert courier.run_once() == 0
            clock.at = failed.next_attempt_at
            assert courier.run_once() == 1  # the receiver answers this one at once
            delivered = recorded(store, match_id, "p2", 2)
            assert (delivered.status, delivered.last_error) == ("delivered", None)
            [answered] = hook.got
            assert answered.body == hanging.body
            [listed] = deliveries(api, match_id, tokens["p2"])
            assert (listed["event_id"], listed["status"], listed["attempts"]) == (
                queued.event_id,
                "delivered",
                2,
            )
        finally:
            hook.release.set()  # (a failing test must not leave the courier's sender held)
            if courier is not None:
                courier.close()
            store.close()
