"""Ending matches, private seats and idempotency records in the store, on both databases."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from tabletop_fixtures.stored_matches import StoredTable
from tabletop_server.storage import (
    IdempotencyKeyReusedError,
    InvalidInviteError,
    InviteRequiredError,
    MatchEndedError,
    MatchFinishedError,
    NewIdempotencyKey,
    NewSeat,
    SeatTakenError,
    Store,
    UnknownMatchError,
    UnknownSeatError,
    hash_token,
    new_token,
)

from tests.server.storage.test_store import new_match_like


def _private(store: Store, match_id: str) -> tuple[str, str]:
    """A private two-seat match; returns (creator token, p1's invite)."""
    creator, invite = new_token(), new_token()
    template = new_match_like(StoredTable(store, "sample").create(f"{match_id}-template"))
    match = replace(template, id=match_id, creator_hash=hash_token(creator), visibility="private")
    store.create_match(match, [NewSeat("p1", "A", invite_hash=hash_token(invite)), NewSeat("p2", "B")])
    return creator, invite


def test_a_private_seat_needs_its_invite_or_the_creator_token(store: Store) -> None:
    creator, invite = _private(store, "m1")
    with pytest.raises(InviteRequiredError):
        store.claim_seat("m1", "p1", hash_token(new_token()))
    with pytest.raises(InvalidInviteError):
        store.claim_seat("m1", "p2", hash_token(new_token()), credential_hash=hash_token(invite))  # p1's
    assert not any(seat.occupied for seat in store.get_seats("m1"))
    assert store.claim_seat("m1", "p1", hash_token(new_token()), credential_hash=hash_token(invite)).occupied
    assert store.claim_seat("m1", "p2", hash_token(new_token()), credential_hash=hash_token(creator)).occupied
    assert store.list_matches(visibility="public") == [store.get_match("m1-template")]


def test_a_vouched_claim_takes_a_free_private_seat_without_a_credential(store: Store) -> None:
    """A rematch's seat holder (vouched for by their old token) takes their private seat; a held
    seat stays refused, as does an unvouched claim."""
    _private(store, "m1")
    with pytest.raises(InviteRequiredError):
        store.claim_seat("m1", "p2", hash_token(new_token()))
    token = hash_token(new_token())
    assert store.claim_seat("m1", "p2", token, vouched=True).token_hash == token
    with pytest.raises(SeatTakenError):
        store.claim_seat("m1", "p2", hash_token(new_token()), vouched=True)
    with pytest.raises(UnknownSeatError):
        store.claim_seat("m1", "p9", hash_token(new_token()), vouched=True)
    assert [seat.token_hash for seat in store.get_seats("m1")] == [None, token]


def test_an_ended_match_refuses_claims_and_ends_once(store: Store) -> None:
    StoredTable(store, "sample").create("m1")
    before = store.get_match("m1")
    ended = store.end_match("m1")
    assert (ended.status, ended.revision, ended.head) == ("ended", before.revision + 1, before.head)
    assert store.end_match("m1") == ended  # ending again changes nothing
    with pytest.raises(MatchEndedError):
        store.claim_seat("m1", "p1", hash_token(new_token()))
    with pytest.raises(UnknownMatchError):
        store.end_match("nope")
    store.create_match(replace(new_match_like(before), id="m2", status="finished"), [NewSeat("p1", "A")])
    with pytest.raises(MatchFinishedError):
        store.end_match("m2")


def test_idempotency_records_answer_until_they_expire(store: Store) -> None:
    StoredTable(store, "sample").create("m1")
    key = NewIdempotencyKey("claim m1 p1", "k" * 16, "h1", ttl=1.0)
    first = hash_token(new_token())
    store.claim_seat("m1", "p1", first, idempotency=key)
    record = store.idempotency_record(key.scope, key.key)
    assert record is not None and (record.match_id, record.player_id, record.token_hash) == (
        "m1",
        "p1",
        first,
    )
    second = hash_token(new_token())
    assert store.claim_seat("m1", "p1", second, idempotency=key).token_hash == second  # a retry
    with pytest.raises(IdempotencyKeyReusedError):
        store.claim_seat("m1", "p1", hash_token(new_token()), idempotency=replace(key, request_hash="h2"))
    deadline = time.monotonic() + 30
    while store.idempotency_record(key.scope, key.key) is not None:  # expired after its ttl
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert store.purge_idempotency_keys() == 1 and store.purge_idempotency_keys() == 0
