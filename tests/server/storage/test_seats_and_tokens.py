"""Seats (claim, release, token lookup) and single-use stream tokens, on both databases."""

from __future__ import annotations

import re
import types
from datetime import timedelta

import pytest
import tabletop_server.storage._tokens as tokens
from tabletop_fixtures.stored_matches import StoredTable
from tabletop_server.storage import (
    InvalidStreamTokenError,
    SeatIsBotError,
    SeatNotHeldError,
    SeatTakenError,
    StorageUnavailableError,
    Store,
    StoreOptions,
    UnknownMatchError,
    UnknownSeatError,
    hash_token,
    new_match_id,
    new_token,
    same_hash,
)


def test_tokens_are_random_and_stored_as_hashes() -> None:
    first, second = new_token(), new_token()
    assert first != second and len(first) >= 43
    assert len(hash_token(first)) == 64 and hash_token(first) != first
    assert same_hash(first, hash_token(first)) and not same_hash(second, hash_token(first))
    assert not same_hash(first, None)


@pytest.mark.parametrize(
    "milliseconds", [(1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000), (0, 1, 16**12 - 1)]
)
def test_match_ids_sort_in_creation_order_and_stay_unguessable(
    monkeypatch: pytest.MonkeyPatch, milliseconds: tuple[int, ...]
) -> None:
    made = []
    for ms in milliseconds:
        monkeypatch.setattr(tokens, "time", types.SimpleNamespace(time_ns=lambda ms=ms: ms * 1_000_000 + 999))
        made.append(new_match_id())
    assert made == sorted(made) and len(set(made)) == len(made)
    assert all(re.fullmatch(r"m_[0-9a-f]{12}[0-9a-f]{16}", match_id) for match_id in made)
    same_moment = {new_match_id() for _ in range(2000)}  # one millisecond: 64 random bits tell them apart
    assert len(same_moment) == 2000
    assert len({match_id[14:] for match_id in same_moment}) == 2000


def test_a_claimed_seat_is_held_by_its_token_until_released(store: Store) -> None:
    StoredTable(store, "sample", players=3).create("m1", bots=["p3"])
    token = new_token()
    seat = store.claim_seat("m1", "p1", hash_token(token), name="Ann")
    assert (seat.player_id, seat.name, seat.occupied) == ("p1", "Ann", True)
    assert seat.token_hash == hash_token(token) and token not in repr(store.get_seats("m1"))
    assert store.find_seat("m1", token) == seat
    assert store.find_seat("m1", new_token()) is None and store.find_seat("other", token) is None
    with pytest.raises(SeatTakenError):
        store.claim_seat("m1", "p1", hash_token(new_token()))
    with pytest.raises(SeatIsBotError):
        store.claim_seat("m1", "p3", hash_token(new_token()))
    with pytest.raises(UnknownSeatError):
        store.claim_seat("m1", "p9", hash_token(new_token()))
    with pytest.raises(UnknownMatchError):
        store.claim_seat("nope", "p1", hash_token(new_token()))
    with pytest.raises(SeatNotHeldError):
        store.release_seat("m1", "p1", new_token())
    with pytest.raises(SeatIsBotError):
        store.release_seat("m1", "p3", token)
    freed = store.release_seat("m1", "p1", token)
    assert (freed.token_hash, freed.occupied, freed.name) == (None, False, "Ann")
    assert store.find_seat("m1", token) is None and store.get_seats("m1")[0] == freed
    again = new_token()
    assert store.claim_seat("m1", "p1", hash_token(again)).name == "Ann"


def test_a_stream_token_works_once_for_its_match_and_seat(store: Store) -> None:
    table = StoredTable(store, "sample")
    table.create("m1")
    table.create("m2")
    held = new_token()
    store.claim_seat("m1", "p2", hash_token(held))
    seat_token = store.create_stream_token("m1", "p2", seat_token_hash=hash_token(held))
    spectator_token = store.create_stream_token("m1", None)
    with pytest.raises(InvalidStreamTokenError):
        store.redeem_stream_token("m2", seat_token)  # another match's token is refused ...
    grant = store.redeem_stream_token("m1", seat_token)  # ... and not used up by that
    assert (grant.match_id, grant.player_id) == ("m1", "p2")
    with pytest.raises(InvalidStreamTokenError) as used:
        store.redeem_stream_token("m1", seat_token)
    assert used.value.code == "invalid-stream-token"
    assert store.redeem_stream_token("m1", spectator_token).player_id is None
    with pytest.raises(InvalidStreamTokenError):
        store.redeem_stream_token("m1", new_token())
    with pytest.raises(UnknownMatchError):
        store.create_stream_token("nope", None)


def test_a_seat_stream_token_works_only_while_its_seat_token_holds_the_seat(store: Store) -> None:
    StoredTable(store, "sample").create("m1")
    first, second = new_token(), new_token()
    store.claim_seat("m1", "p1", hash_token(first))
    minted = [store.create_stream_token("m1", "p1", seat_token_hash=hash_token(first)) for _ in range(2)]
    unbound = store.create_stream_token("m1", "p1")  # a seat's token must name its seat token
    assert store.check_stream_token("m1", minted[0]).seat_token_hash == hash_token(first)
    store.release_seat("m1", "p1", first)
    store.claim_seat("m1", "p1", hash_token(second))  # someone else holds the seat now
    for token in (*minted, unbound):
        with pytest.raises(InvalidStreamTokenError):
            store.check_stream_token("m1", token)
        with pytest.raises(InvalidStreamTokenError):
            store.redeem_stream_token("m1", token)
    fresh = store.create_stream_token("m1", "p1", seat_token_hash=hash_token(second))
    assert store.check_stream_token("m1", fresh).player_id == "p1"  # checking does not use it
    assert store.redeem_stream_token("m1", fresh).seat_token_hash == hash_token(second)


def test_an_expired_stream_token_is_refused_and_purged(store: Store) -> None:
    StoredTable(store, "sample").create("m1")
    held = new_token()
    store.claim_seat("m1", "p1", hash_token(held))
    bound = hash_token(held)
    expired = store.create_stream_token("m1", "p1", ttl=timedelta(0), seat_token_hash=bound)
    live = store.create_stream_token("m1", "p1", ttl=timedelta(minutes=5), seat_token_hash=bound)
    used = store.create_stream_token("m1", "p1", seat_token_hash=bound)
    store.redeem_stream_token("m1", used)
    with pytest.raises(InvalidStreamTokenError):
        store.redeem_stream_token("m1", expired)
    assert store.purge_stream_tokens() == 2
    assert store.redeem_stream_token("m1", live).player_id == "p1"


def test_an_unreachable_database_is_a_typed_error() -> None:
    store = Store("postgresql://tabletop@127.0.0.1:1/none", options=StoreOptions(connect_timeout=2))
    try:
        with pytest.raises(StorageUnavailableError) as unavailable:
            store.get_match("m1")
    finally:
        store.close()
    assert unavailable.value.code == "storage-unavailable"
