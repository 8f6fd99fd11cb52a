"""The store on real databases (SQLite file and PostgreSQL): matches, logs, guards, undo, fork."""

from __future__ import annotations

from dataclasses import replace

import pytest
import tabletop_server.storage as storage
from pydantic import JsonValue
from tabletop import AnyState
from tabletop_fixtures.stored_matches import Choose, StoredTable, request_body, update_of
from tabletop_server._undo import undo_check
from tabletop_server.storage import (
    DuplicateActionIdError,
    DuplicateMatchError,
    HeadMovedError,
    IndexOutOfRangeError,
    MatchRow,
    MatchUpdate,
    NewAction,
    NewMatch,
    NewSeat,
    Store,
    UnknownMatchError,
)


def add_one(state: AnyState, player: str) -> dict[str, JsonValue]:
    """The sample game's AddAmount of 1."""
    return {"type": "AddAmount", "amount": 1}


def place_first(table: StoredTable) -> Choose:
    """Tic-tac-toe: the first legal PlaceMark of the player on turn."""

    def choose(state: AnyState, player: str) -> dict[str, JsonValue]:
        legal = table.engine.legal_actions(state, player, table.game(state.game_id))[0]
        return {"type": "PlaceMark", "square": legal.model_dump(mode="json")["square"]}

    return choose


def test_public_surface_is_exactly_all() -> None:
    public = {name for name in vars(storage) if not name.startswith("_")}
    assert public - {"annotations"} == set(storage.__all__)


def test_a_created_match_reads_back_with_its_seats_and_start_log(store: Store) -> None:
    table = StoredTable(store, "sample", players=3)
    created = table.create("m1", bots=["p3"])
    read, seats = store.get_match_and_seats("m1")
    assert read == created
    assert (read.game, read.head, read.revision, read.status, read.has_bots) == (
        "sample",
        0,
        0,
        "in_progress",
        True,
    )
    assert read.created_at.tzinfo is not None and read.created_at == created.created_at
    assert [(s.player_id, s.position, s.bot, s.occupied) for s in seats] == [
        ("p1", 0, None, False),
        ("p2", 1, None, False),
        ("p3", 2, {"kind": "random"}, True),
    ]
    assert table.state(read) == table.engine.start(table.game("m1")).state
    with pytest.raises(UnknownMatchError) as missing:
        store.get_match("nope")
    assert missing.value.code == "unknown-match"


def test_a_match_stored_with_every_field_reads_back_the_same_on_every_path(store: Store) -> None:
    """SQLite stores a new match through its driver, PostgreSQL through SQLAlchemy: either way,
    the driver's read and SQLAlchemy's give back exactly what was stored."""
    table = StoredTable(store, "sample")
    parent = table.create("parent")
    new = NewMatch(
        id="m-every-field",
        game="sample",
        logic_version=table.definition.logic_version,
        config={"title": "Zoë’s “table” ✓", "nested": {"list": [1, 2.5, None, True, "x"]}, "big": 2**53 + 1},
        seed=2**32 - 1,
        prng_key="ab" * 16,
        state_json=parent.state_json,
        checksum=2**62 + 5,
        status="finished",
        result="win",
        winners=("p2",),
        parent_id="parent",
        parent_index=0,
        base_state_json=parent.state_json,
        base_index=3,
        creator_hash="c" * 64,
        visibility="private",
    )
    seats = [
        NewSeat("p1", "Ünïcode “name” 🎲", None, invite_hash="i" * 64),
        NewSeat("p2", "Bot", {"kind": "mcts", "iterations": 200, "options": {"c": 1.4, "名": [None]}}),
    ]
    created = store.create_match(new, seats)
    read, read_seats = store.get_match_and_seats(new.id)
    assert read == created == store.get_match(new.id)
    assert store.list_matches(visibility="private") == [created]
    assert (read.config, read.winners, read.head, read.has_bots) == (new.config, ("p2",), 3, True)
    assert read_seats == store.get_seats(new.id)
    assert [(s.position, s.name, s.bot, s.token_hash, s.invite_hash) for s in read_seats] == [
        (0, "Ünïcode “name” 🎲", None, None, "i" * 64),
        (1, "Bot", {"kind": "mcts", "iterations": 200, "options": {"c": 1.4, "名": [None]}}, None, None),
    ]


def test_a_match_id_is_stored_once(store: Store) -> None:
    table = StoredTable(store, "sample")
    table.create("m1")
    with pytest.raises(DuplicateMatchError):
        table.create("m1")
    assert store.get_seats("m1")[0].player_id == "p1" and len(store.list_matches()) == 1


def test_list_filters_by_game_and_status_newest_first(store: Store) -> None:
    sample, ttt = StoredTable(store, "sample"), StoredTable(store, "tic-tac-toe")
    sample.create("s1")
    ttt.create("t1")
    ttt.create("t2")
    finished = store.get_match("t2")
    store.append(
        finished,
        replace(update_of(ttt.state(finished)), status="finished"),
        [NewAction(0, "x", "x", "p1", "PlaceMark", "user", False, "{}")],
    )
    assert [m.id for m in store.list_matches()] == ["t2", "t1", "s1"]
    assert [m.id for m in store.list_matches(game="tic-tac-toe")] == ["t2", "t1"]
    assert [m.id for m in store.list_matches(status="in_progress")] == ["t1", "s1"]
    assert [m.id for m in store.list_matches(game="sample", status="finished")] == []
    assert [m.id for m in store.list_matches(limit=1, offset=1)] == ["t1"]
    assert {k: [s.player_id for s in v] for k, v in store.seats_of(["t1", "s1"]).items()} == {
        "t1": ["p1", "p2"],
        "s1": ["p1", "p2"],
    }


def test_append_advances_head_and_records_the_submission(store: Store) -> None:
    table = StoredTable(store, "tic-tac-toe")
    table.create("m1")
    done = table.submit("m1", "a1", place_first(table))
    assert (done.match.head, done.match.revision, done.attempts) == (1, 1, 1)
    assert store.get_match("m1") == done.match
    rows = store.actions("m1")
    assert [(r.index, r.action_id, r.submission_id, r.player_id, r.source) for r in rows] == [
        (0, "a1", "a1", "p1", "user")
    ]
    assert store.action_by_id("m1", "a1", "p1") == rows[0] and store.action_by_id("m1", "zz", "p1") is None
    assert store.action_by_id("m1", "a1", "p2") is None  # action ids are scoped to the seat
    assert store.submission("m1", "a1", "p1") == rows and store.submission("m1", "a1", "p2") == []
    table.submit("m1", "a2", place_first(table))
    assert [r.index for r in store.actions("m1", after=0)] == [1]
    assert table.state(store.get_match("m1")) == table.replay("m1", store.actions("m1"))


def test_a_stale_write_raises_head_moved_and_changes_nothing(store: Store) -> None:
    table = StoredTable(store, "sample")
    table.create("m1")
    stale = store.get_match("m1")
    table.submit("m1", "a1", add_one)
    now = store.get_match("m1")
    with pytest.raises(HeadMovedError) as moved:
        store.append(
            stale,
            update_of(table.state(stale)),
            [NewAction(0, "b1", "b1", "p1", "Pass", "user", False, "{}")],
        )
    assert (moved.value.code, moved.value.expected_head, moved.value.head) == ("stale-index", 0, 1)
    assert moved.value.revision == now.revision
    assert store.get_match("m1") == now and [r.action_id for r in store.actions("m1")] == ["a1"]


def test_an_action_id_is_recorded_once_per_match(store: Store) -> None:
    table = StoredTable(store, "sample")
    table.create("m1")
    table.create("m2")
    table.submit("m1", "a1", add_one)
    again = store.get_match("m1")
    sender = store.actions("m1")[0].player_id
    row = NewAction(again.head, "a1", "a1", sender, "Pass", "user", False, "{}")
    with pytest.raises(DuplicateActionIdError) as duplicate:
        store.append(again, update_of(table.state(again)), [row])
    assert duplicate.value.action_id == "a1" and store.get_match("m1") == again
    other = "p1" if sender == "p2" else "p2"  # action ids are scoped to the seat that sends them
    other_row = NewAction(again.head, "a1", "a1", other, "Pass", "user", False, "{}")
    again = store.append(again, update_of(table.state(again)), [other_row])
    table.submit("m2", "a1", add_one)  # the same id in another match is another action
    assert store.action_by_id("m2", "a1", sender) is not None
    twice = [NewAction(again.head + n, "b1", "b1", "p1", "Pass", "user", False, "{}") for n in range(2)]
    with pytest.raises(DuplicateActionIdError):
        store.append(again, update_of(table.state(again)), twice)
    assert store.get_match("m1") == again


def test_seat_ids_are_unique_per_match(store: Store) -> None:
    match = StoredTable(store, "sample").create("m1")
    seats = [NewSeat("p1", "A"), NewSeat("p1", "B")]
    with pytest.raises(ValueError, match="not unique"):
        store.create_match(replace(new_match_like(match), id="m2"), seats)
    with pytest.raises(ValueError, match="not unique"):
        store.fork_match(match, 0, replace(new_match_like(match), id="m3"), seats)
    assert [m.id for m in store.list_matches()] == ["m1"]


def test_indices_must_follow_the_head(store: Store) -> None:
    table = StoredTable(store, "sample")
    match = table.create("m1")
    with pytest.raises(ValueError, match="index 1, expected 0"):
        store.append(
            match, update_of(table.state(match)), [NewAction(1, "a", "a", None, "Pass", "user", False, "{}")]
        )
    with pytest.raises(ValueError, match="at least one"):
        store.append(match, update_of(table.state(match)), [])
    assert store.get_match("m1") == match


def test_rewind_cuts_the_log_under_the_guard(store: Store) -> None:
    table = StoredTable(store, "sample")
    start = table.create("m1")
    for n in range(3):
        table.submit("m1", f"a{n}", add_one)
    before = store.get_match("m1")
    rows = store.actions("m1")
    rewound_state = table.replay("m1", rows[:1])
    rewound = store.rewind(before, 1, update_of(rewound_state))
    assert (rewound.head, rewound.revision) == (1, before.revision + 1)
    assert store.get_match("m1") == rewound and [r.action_id for r in store.actions("m1")] == ["a0"]
    assert store.submission("m1", "a2", "p1") == []
    with pytest.raises(HeadMovedError):  # the pre-undo read is stale, though a later head may match
        store.rewind(before, 0, update_of(table.state(start)))
    with pytest.raises(IndexOutOfRangeError):
        store.rewind(rewound, 2, update_of(rewound_state))
    table.submit("m1", "a1", add_one)
    table.submit("m1", "a2", add_one)
    assert store.get_match("m1").head == before.head
    with pytest.raises(HeadMovedError):  # same head as `before`, but not the same match (no ABA)
        store.append(
            before, update_of(rewound_state), [NewAction(3, "x", "x", "p1", "Pass", "user", False, "{}")]
        )


def first_legal(table: StoredTable) -> Choose:
    """Any game: the first legal action of the player on turn."""

    def choose(state: AnyState, player: str) -> dict[str, JsonValue]:
        legal = table.engine.legal_actions(state, player, table.game(state.game_id))
        return request_body(legal[0].model_dump_json(), table.engine)

    return choose


@pytest.mark.parametrize("game", ["goofspiel", "go-fish", "tic-tac-toe"])
def test_the_undo_tail_is_the_log_from_the_seats_last_user_action_and_judges_as_the_log_does(
    store: Store, game: str
) -> None:
    table = StoredTable(store, game)
    match = table.create("m1")
    choose = first_legal(table)
    for step in range(8):
        if match.status != "in_progress":
            break
        match = table.submit("m1", f"a{step}", choose).match
        log = store.actions("m1")
        for player in ("p1", "p2"):
            for after in range(-1, match.head):
                rows = [row for row in log if row.index > after]
                own = [n for n, row in enumerate(rows) if row.source == "user" and row.player_id == player]
                expected = rows[own[-1] :] if own else rows
                tail = store.undo_tail("m1", player, after=after)
                assert [(r.index, r.player_id, r.source, r.reveals_info) for r in tail] == [
                    (r.index, r.player_id, r.source, r.reveals_info) for r in expected
                ]
                assert [r.simultaneous_group_id for r in tail if r.source == "user"] == [
                    r.simultaneous_group_id for r in expected if r.source == "user"
                ]
                assert undo_check(match, tail, player) == undo_check(match, rows, player)
    if game == "goofspiel":  # the bids of one round share a group, which the tail carries
        assert any(row.simultaneous_group_id for row in store.undo_tail("m1", "p1", after=-1))
    assert store.undo_tail("nope", "p1", after=-1) == []


def test_a_fork_copies_the_log_up_to_its_point(store: Store) -> None:
    table = StoredTable(store, "sample")
    table.create("m1")
    for n in range(4):
        table.submit("m1", f"a{n}", add_one)
    parent = store.get_match("m1")
    state_at_2 = table.replay("m1", store.actions("m1")[:2])
    fork = NewMatch(
        id="f1", game="sample", logic_version="1.0.0", config={}, seed=7, prng_key=None,
        state_json=state_at_2.model_dump_json(), checksum=state_at_2.action_checksum,
    )  # fmt: skip
    forked = store.fork_match(parent, 2, fork, store_seats(store, "m1"))
    assert (forked.parent_id, forked.parent_index, forked.head, forked.base_index) == ("m1", 2, 2, 0)
    assert [(r.index, r.action_id) for r in store.actions("f1")] == [(0, "a0"), (1, "a1")]
    assert [r.json for r in store.actions("f1")] == [r.json for r in store.actions("m1")[:2]]
    assert store.get_match("m1") == parent  # the parent is untouched
    with pytest.raises(IndexOutOfRangeError):
        store.fork_match(parent, 5, replace(fork, id="f2"), [])
    table.submit("m1", "a4", add_one)
    with pytest.raises(HeadMovedError):
        store.fork_match(parent, 2, replace(fork, id="f2"), [])
    with pytest.raises(DuplicateMatchError):
        store.fork_match(store.get_match("m1"), 2, fork, [])


def test_a_fork_from_a_base_state_starts_with_an_empty_log(store: Store) -> None:
    table = StoredTable(store, "sample")
    table.create("m1")
    for n in range(3):
        table.submit("m1", f"a{n}", add_one)
    parent = store.get_match("m1")
    base = table.state(parent).model_dump_json()
    fork = NewMatch(
        id="f1", game="sample", logic_version="1.0.0", config={}, seed=7, prng_key=None,
        state_json=base, checksum=0, base_state_json=base,
    )  # fmt: skip
    forked = store.fork_match(parent, 3, fork, [])
    assert (forked.head, forked.base_index, forked.base_state_json) == (3, 3, base)
    assert store.actions("f1") == []
    with pytest.raises(IndexOutOfRangeError):  # nothing before a fork's base can be cut or forked
        store.rewind(forked, 2, MatchUpdate(base, 0))
    rewritten = [NewAction(0, "r0", None, "p1", "AddAmount", "user", False, "{}")]
    with pytest.raises(ValueError, match="empty log"):
        store.fork_match(parent, 3, replace(fork, id="f2"), [], rewritten)


def new_match_like(match: MatchRow) -> NewMatch:
    """A new match with the game, state and seed of a stored one."""
    return NewMatch(
        id=match.id, game=match.game, logic_version=match.logic_version, config=match.config, seed=match.seed,
        prng_key=None, state_json=match.state_json, checksum=match.checksum,
    )  # fmt: skip


def store_seats(store: Store, match_id: str) -> list[storage.NewSeat]:
    """The seats of a match, as seats of a new one."""
    return [storage.NewSeat(s.player_id, s.name, s.bot) for s in store.get_seats(match_id)]
