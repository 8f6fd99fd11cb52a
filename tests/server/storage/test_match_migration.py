"""A migration is one compare-and-set write: one writer stores it, the others see its revision.

The match is a Go Fish 2.0.0 rehearsal stored as a host stored it (state, seats, log).
"""

from __future__ import annotations

import threading
from pathlib import Path

import orjson
import pytest
from tabletop.versions import load_rehearsal
from tabletop_server import GameRegistry
from tabletop_server._upgrade import resolve_version
from tabletop_server.storage import HeadMovedError, MatchRow, MatchUpdate, NewAction, NewMatch, NewSeat, Store

REHEARSAL = (
    Path(__file__).resolve().parents[3] / "games/go-fish/tests/rehearsals/2.0.0/two-players-midgame.json"
)


def _stored_2_0_0(store: Store, match_id: str = "m_old") -> MatchRow:
    rehearsal = load_rehearsal(REHEARSAL)
    state = dict(rehearsal.state, game_id=match_id)
    match = rehearsal.match
    log = [
        NewAction(
            index=int(str(action["index"])),
            action_id=str(action["id"]),
            submission_id=None,
            player_id=action.get("player_id"),  # type: ignore[arg-type]
            type=str(action["type"]),
            source=str(action["source"]),
            reveals_info=bool(action.get("reveals_info")),
            json=orjson.dumps({**action, "game_id": match_id}).decode(),
        )
        for action in rehearsal.actions
    ]
    players = match["players"]
    assert isinstance(players, list)
    seats = [NewSeat(player_id=str(p["id"]), name=str(p["name"])) for p in players]  # type: ignore[index, call-overload]
    key = state["prng"]["key"]  # type: ignore[index, call-overload]
    return store.create_match(
        NewMatch(
            id=match_id,
            game="go-fish",
            logic_version="2.0.0",
            config={},
            seed=int(str(match["seed"])),
            prng_key=str(key),
            state_json=orjson.dumps(state).decode(),
            checksum=int(str(state["action_checksum"])),
        ),
        seats,
        log,
    )


def test_a_migration_moves_the_base_records_the_version_and_rewrites_the_given_actions(store: Store) -> None:
    row = _stored_2_0_0(store)
    change = MatchUpdate(state_json='{"migrated": true}', checksum=row.checksum)
    first, second = store.actions(row.id)[:2]
    migrated = store.migrate(row, "3.0.0", change, [(first.index, '{"rewritten": 1}')])
    stored = store.get_match(row.id)
    assert stored == migrated
    assert (stored.logic_version, stored.migrated_from, stored.revision) == (
        "3.0.0",
        "2.0.0",
        row.revision + 1,
    )
    assert (stored.base_index, stored.base_state_json, stored.head) == (row.head, change.state_json, row.head)
    assert stored.migrated_at is not None
    assert store.actions(row.id)[0].json == '{"rewritten": 1}'
    assert store.actions(row.id)[1] == second  # the others as they were
    with pytest.raises(HeadMovedError):
        store.migrate(row, "3.0.0", change)  # the same stale read loses


def test_concurrent_loads_migrate_once_and_all_see_the_migrated_match(store: Store) -> None:
    row = _stored_2_0_0(store)
    seats = store.get_seats(row.id)
    registry = GameRegistry()
    announced: list[MatchRow] = []
    loaded: list[str] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def load() -> None:
        try:
            barrier.wait(timeout=30)
            match = resolve_version(registry, store, row, seats, announced.append)
            loaded.append(match.row.logic_version)
            assert match.unavailable is None and match.state.action_count == row.head
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=load) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert loaded == [registry.get("go-fish").definition.logic_version] * 4  # migrated to the installed one
    assert len(announced) == 1  # one writer won; the others re-read its revision
    assert store.get_match(row.id).revision == row.revision + 1
