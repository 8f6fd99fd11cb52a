"""Races on one match, on both databases: compare-and-set loses and duplicates nothing."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TypeVar

from pydantic import JsonValue
from tabletop import AnyState
from tabletop_fixtures.stored_matches import StoredTable, Submitted
from tabletop_server.storage import (
    InvalidStreamTokenError,
    MatchRow,
    NewClock,
    NewSeat,
    SeatTakenError,
    Store,
    hash_token,
    new_token,
)

from tests.server.storage.test_store import new_match_like

T = TypeVar("T")

THREADS = 8
SUBMISSIONS = 25


def race(count: int, work: Callable[[int], T]) -> list[T | Exception]:
    """Run ``work(0..count-1)`` on ``count`` threads released together; results or exceptions."""
    barrier = threading.Barrier(count)

    def run(n: int) -> T | Exception:
        barrier.wait()
        try:
            return work(n)
        except Exception as error:  # the outcome is what the test inspects
            return error

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_concurrent_submissions_lose_and_duplicate_nothing(store: Store) -> None:
    table = StoredTable(store, "sample", players=3)
    table.create("m1")
    adds = {f"t{t}-{n}" for t in range(THREADS) for n in range(0, SUBMISSIONS, 10)}

    def submit_all(thread: int) -> list[Submitted]:
        done = []
        for n in range(SUBMISSIONS):
            action_id = f"t{thread}-{n}"

            def choose(state: AnyState, player: str, add: bool = action_id in adds) -> dict[str, JsonValue]:
                return {"type": "AddAmount", "amount": 1} if add else {"type": "Pass"}

            done.append(table.submit("m1", action_id, choose))
        return done

    outcomes = race(THREADS, submit_all)
    assert not [o for o in outcomes if isinstance(o, Exception)]
    submitted = [s for o in outcomes if not isinstance(o, Exception) for s in o]
    final = store.get_match("m1")
    rows = store.actions("m1")
    user = [r for r in rows if r.source == "user"]
    assert len(submitted) == THREADS * SUBMISSIONS == len(user)
    assert Counter(r.action_id for r in user) == Counter(
        f"t{t}-{n}" for t in range(THREADS) for n in range(SUBMISSIONS)
    )
    assert [r.index for r in rows] == list(range(final.head)) and final.revision == len(submitted)
    state = table.state(final)
    assert state.action_count == final.head and state.total == len(adds)  # type: ignore[attr-defined]
    assert table.replay("m1", rows) == state
    assert sum(s.attempts for s in submitted) > len(submitted)  # the threads did collide and retry


def test_one_of_many_racing_claims_gets_the_seat(store: Store) -> None:
    StoredTable(store, "sample").create("m1")
    tokens = [new_token() for _ in range(THREADS)]
    outcomes = race(THREADS, lambda n: store.claim_seat("m1", "p1", hash_token(tokens[n])))
    winners = [n for n, o in enumerate(outcomes) if not isinstance(o, Exception)]
    assert len(winners) == 1
    assert all(isinstance(o, SeatTakenError) for n, o in enumerate(outcomes) if n not in winners)
    assert store.find_seat("m1", tokens[winners[0]]) is not None
    assert [store.find_seat("m1", t) for n, t in enumerate(tokens) if n not in winners] == [None] * (
        THREADS - 1
    )


def test_a_stream_token_redeemed_by_racing_clients_works_once(store: Store) -> None:
    StoredTable(store, "sample").create("m1")
    token = store.create_stream_token("m1", None)
    outcomes = race(THREADS, lambda n: store.redeem_stream_token("m1", token))
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert sum(isinstance(o, InvalidStreamTokenError) for o in outcomes) == THREADS - 1


def test_concurrent_rematches_store_one_match_with_its_clock_and_nothing_else(store: Store) -> None:
    previous = StoredTable(store, "sample").create("m1")
    seats = [NewSeat(seat.player_id, seat.name, seat.bot) for seat in store.get_seats("m1")]
    settings: dict[str, JsonValue] = {"control": {"type": "per-turn", "seconds": 5}}

    def rematch(n: int) -> MatchRow | None:
        clock = NewClock(settings, 0, lambda _stamp: (f'{{"n": {n}}}', None))
        return store.create_rematch("m1", replace(new_match_like(previous), id=f"r{n}"), seats, clock=clock)

    made = race(THREADS, rematch)
    stored = [row for row in made if isinstance(row, MatchRow)]
    assert len(stored) == 1 and made.count(None) == THREADS - 1, made
    winner = stored[0].id
    assert store.rematch_links("m1") == (None, winner)
    clock = store.get_clock(winner)
    assert clock is not None and (clock.settings, clock.state_json) == (settings, f'{{"n": {winner[1:]}}}')
    losers = [f"r{n}" for n in range(THREADS) if f"r{n}" != winner]
    assert all(store.get_clock(loser) is None and not store.get_seats(loser) for loser in losers)
