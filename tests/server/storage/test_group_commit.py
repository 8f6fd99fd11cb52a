"""Writes from the event loop: the ones waiting together commit together, and one write's
refusal (a moved head, a recorded action id) fails only that write."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import JsonValue
from tabletop import AnyState
from tabletop_fixtures.stored_matches import StoredTable, update_of
from tabletop_server.storage import (
    DuplicateActionIdError,
    HeadMovedError,
    MatchRow,
    MatchUpdate,
    NewAction,
    Store,
    StoreOptions,
    hash_token,
    upgrade,
)


def _add(table: StoredTable, match: MatchRow, action_id: str) -> tuple[MatchUpdate, list[NewAction]]:
    state = table.state(match)
    player = state.active_player_ids[0]
    body: dict[str, JsonValue] = {
        "type": "AddAmount",
        "amount": 1,
        "id": action_id,
        "game_id": match.id,
        "player_id": player,
    }
    result = table.engine.run(body, state, table.game(match.id))
    return update_of(result.state), [NewAction.from_action(a, action_id) for a in result.actions]


def _total(table: StoredTable, match: MatchRow) -> int:
    state: AnyState = table.state(match)
    total = state.total  # type: ignore[attr-defined]
    assert isinstance(total, int)
    return total


def test_writes_waiting_together_commit_and_fail_one_by_one(store: Store) -> None:
    table = StoredTable(store, "sample", players=2)
    rows = [table.create(f"m{n}") for n in range(6)]
    stale = rows[0]
    store.append(stale, *_add(table, stale, "first"))  # m0 moves on: ``stale`` is now behind
    writes = [(row, *_add(table, row, f"a{n}")) for n, row in enumerate(rows)]
    again = store.get_match("m1")
    writes.append((again, *_add(table, again, "a1")))  # m1's id again, on its current head

    async def all_at_once() -> list[MatchRow | BaseException]:
        return await asyncio.gather(
            *(store.append_async(row, update, actions) for row, update, actions in writes),
            return_exceptions=True,
        )

    outcomes = asyncio.run(all_at_once())
    assert isinstance(outcomes[0], HeadMovedError)
    assert all(isinstance(o, MatchRow) and o.head == 1 for o in outcomes[2:6])
    m1 = [outcomes[1], outcomes[6]]  # two writes of m1 from head 0, with the same action id
    assert sum(isinstance(o, MatchRow) for o in m1) == 1
    assert sum(isinstance(o, (DuplicateActionIdError, HeadMovedError)) for o in m1) == 1
    for n in range(6):
        stored = store.get_match(f"m{n}")
        assert stored.head == 1 and stored.revision == 1 and _total(table, stored) == 1
        assert [a.action_id for a in store.actions(f"m{n}")] == ["first" if n == 0 else f"a{n}"]


@pytest.mark.parametrize("held", [True, False])
def test_a_write_checks_the_seat_token_in_the_same_statement(store: Store, held: bool) -> None:
    table = StoredTable(store, "sample", players=2)
    match = table.create("m1")
    token_hash = hash_token("token")
    store.claim_seat("m1", "p1", token_hash)
    if not held:
        store.release_seat("m1", "p1", "token")
    update, actions = _add(table, match, "x")
    if held:
        assert store.append(match, update, actions, seat=("p1", token_hash)).head == 1
    else:
        with pytest.raises(HeadMovedError):
            store.append(match, update, actions, seat=("p1", token_hash))
        assert store.get_match("m1").head == 0 and store.actions("m1") == []


def test_synchronous_commit_is_the_operators_setting(postgres_url: str) -> None:
    """A PostgreSQL setting: on unless the operator relaxes it."""
    upgrade(postgres_url)
    migrated_url = postgres_url
    with Store(migrated_url) as default, default._engines.writer.connect() as connection:
        assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
    relaxed = Store(migrated_url, options=StoreOptions(synchronous_commit="off"))
    with relaxed, relaxed._engines.writer.connect() as connection:
        assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
