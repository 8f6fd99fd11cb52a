"""The outbox in the store: queued in the action's transaction, leased once, purged when old."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tabletop_server.storage import HeadMovedError, OutboxEvent, Store
from tabletop_server.storage._convert import now
from tabletop_server.storage._rows import MatchUpdate, NewAction, NewMatch, NewSeat


def _match(store: Store) -> None:
    new = NewMatch(
        id="m_1",
        game="tic-tac-toe",
        logic_version="1.0.0",
        config={},
        seed=1,
        prng_key=None,
        state_json="{}",
        checksum=0,
        status="in_progress",
        result=None,
        winners=(),
    )
    store.create_match(new, [NewSeat(player_id="p1", name="A"), NewSeat(player_id="p2", name="B")])


def test_a_delivery_is_leased_once_and_old_finished_ones_are_purged(store: Store) -> None:
    _match(store)
    store.register_webhook("m_1", "p2", "wh_1", "http://127.0.0.1:9/x", "whsec_x")
    store.queue("m_1", 3, 4, [OutboxEvent("your-turn", ("p1", "p2"))])  # p1 has no webhook
    [(webhook, event)] = store.due_deliveries(limit=10)
    assert (webhook, event) == ("wh_1", "m_1.4.your-turn.p2")
    job = store.claim_delivery(webhook, event, timedelta(seconds=30))
    assert job is not None and job.secret == "whsec_x" and job.delivery.attempts == 1
    assert store.claim_delivery(webhook, event, timedelta(seconds=30)) is None  # leased: nobody else
    assert store.due_deliveries(limit=10) == []
    store.queue("m_1", 5, 6, [OutboxEvent("your-turn", ("p2",))])
    store.finish_delivery(webhook, event, error=None, retry_at=None)
    assert store.purge_deliveries(now() + timedelta(seconds=1)) == 1  # the delivered one, not the pending
    assert [d.event_id for d in store.deliveries("m_1", "p2")] == ["m_1.6.your-turn.p2"]


def _move(index: int) -> NewAction:
    return NewAction(index, f"a{index}", f"a{index}", "p1", "PlaceMark", "user", False, "{}")


def test_a_write_read_before_a_webhook_was_registered_is_refused_and_its_retry_queues_the_delivery(
    store: Store,
) -> None:
    _match(store)
    before = store.get_match("m_1")
    assert before.webhooks is False  # (the write from it queues nothing: no seat has a webhook)
    store.register_webhook("m_1", "p2", "wh_1", "http://127.0.0.1:9/x", "whsec_x")
    turn = [OutboxEvent("your-turn", ("p2",))]
    with pytest.raises(HeadMovedError):  # its read is out of date: nothing is written
        store.append(before, MatchUpdate("{}", 1), [_move(0)], events=turn)
    assert store.get_match("m_1").head == 0
    again = store.get_match("m_1")
    assert again.webhooks is True
    store.append(again, MatchUpdate("{}", 1), [_move(0)], events=turn)
    assert [d.event_id for d in store.deliveries("m_1", "p2")] == ["m_1.1.your-turn.p2"]


def test_a_write_without_events_is_not_refused_for_a_webhook_registered_since_its_read(store: Store) -> None:
    _match(store)
    before = store.get_match("m_1")
    store.register_webhook("m_1", "p2", "wh_1", "http://127.0.0.1:9/x", "whsec_x")
    assert store.append(before, MatchUpdate("{}", 1), [_move(0)]).head == 1
