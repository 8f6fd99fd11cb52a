"""Retries of a failing delivery: each waits what the documented backoff says, then it is failed.

The how-to "Run asynchronous matches": the first retry after ``webhook_retry_seconds``, each later
one twice as long, at most an hour, no jitter; after ``webhook_max_attempts`` attempts the
delivery is ``failed`` and listed so. The test's courier runs on a stopped clock it moves itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from tabletop_fixtures.receiver import Receiver
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
)

MOMENT = timedelta(milliseconds=1)


@pytest.mark.parametrize(
    ("retry_seconds", "max_attempts", "waits"),
    [
        pytest.param(2.0, 1, [], id="no-retry"),
        pytest.param(1.5, 3, [1.5, 3.0], id="doubling"),
        pytest.param(1000.0, 5, [1000.0, 2000.0, 3600.0, 3600.0], id="capped-at-an-hour"),
    ],
)
def test_each_retry_waits_the_backoff_and_after_the_last_attempt_the_delivery_is_listed_failed(
    migrated_url: str, hook: Receiver, retry_seconds: float, max_attempts: int, waits: list[float]
) -> None:
    settings = Settings(
        db=migrated_url,
        webhook_retry_seconds=retry_seconds,
        webhook_max_attempts=max_attempts,
        webhook_concurrency=1,
    )
    with quiet_server(migrated_url) as api:
        match_id, tokens = seated(api)
        register(api, match_id, tokens["p2"], hook.url)
        hook.fail_next = 100
        play_one(api, match_id, tokens["p1"])
        store = Store(migrated_url)
        courier: Courier | None = None
        try:
            [queued] = store.deliveries(match_id, "p2")
            clock = StoppedClock(queued.next_attempt_at)
            courier = Courier(store, settings, now=clock)
            for attempt, wait in enumerate([*waits, None], start=1):
                assert courier.run_once() == 1, f"attempt {attempt} was due"
                row = recorded(store, match_id, "p2", attempt)
                assert hook.requests_seen == attempt
                assert row.last_error == "HTTP 500"
                if wait is None:
                    break
                assert row.status == "pending"
                assert row.next_attempt_at == clock.at + timedelta(seconds=wait)
                clock.at = row.next_attempt_at - MOMENT
                assert courier.run_once() == 0, f"attempt {attempt + 1} started before its time"
                clock.at = row.next_attempt_at
            assert (row.status, row.attempts) == ("failed", max_attempts)
            clock.at += timedelta(days=365)
            assert courier.run_once() == 0  # failed for good: never tried again
            assert hook.requests_seen == max_attempts
            assert [d.answered for d in hook.got] == [500] * max_attempts
            assert {d.body for d in hook.got} == {hook.got[0].body}  # one event, the same bytes

            [listed] = deliveries(api, match_id, tokens["p2"])
            assert listed["event_id"] == queued.event_id
            assert (listed["status"], listed["attempts"], listed["last_error"]) == (
                "failed",
                max_attempts,
                "HTTP 500",
            )
            assert datetime.fromisoformat(str(listed["next_attempt_at"])) == row.next_attempt_at
        finally:
            if courier is not None:
                courier.close()
            store.close()


def test_an_answer_that_is_not_http_is_a_failed_attempt_retried_then_failed(
    migrated_url: str, hook: Receiver
) -> None:
    settings = Settings(db=migrated_url, webhook_retry_seconds=5.0, webhook_max_attempts=2)
    with quiet_server(migrated_url) as api:
        match_id, tokens = seated(api)
        register(api, match_id, tokens["p2"], hook.url)
        hook.garble = 100
        play_one(api, match_id, tokens["p1"])
        store = Store(migrated_url)
        courier: Courier | None = None
        try:
            [queued] = store.deliveries(match_id, "p2")
            clock = StoppedClock(queued.next_attempt_at)
            courier = Courier(store, settings, now=clock)
            assert courier.run_once() == 1
            first = recorded(store, match_id, "p2", 1)  # recorded at once, not left to its lease
            assert first.status == "pending"
            assert str(first.last_error).startswith("BadStatusLine")
            assert first.next_attempt_at == clock.at + timedelta(seconds=5)
            clock.at = first.next_attempt_at
            assert courier.run_once() == 1
            last = recorded(store, match_id, "p2", 2)
            assert (last.status, last.attempts) == ("failed", 2)
            clock.at += timedelta(days=1)  # (past any lease too)
            assert courier.run_once() == 0
            assert hook.requests_seen == 2
            [listed] = deliveries(api, match_id, tokens["p2"])
            assert (listed["status"], listed["attempts"]) == ("failed", 2)
        finally:
            if courier is not None:
                courier.close()
            store.close()
