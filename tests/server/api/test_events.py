"""Server-sent events: every event in order, each perspective only what it may see, resumable."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from tabletop import UNKEYED, AnyState, GameAction, GameEngine, Player
from tabletop.games import load
from tabletop.views import SPECTATOR, LeakChecker, Perspective
from tabletop_fixtures.live_server import Api, Event, EventReader, LiveServer, open_stream
from tabletop_server.storage import Store

_NOT_SUBMITTED = {"source", "created_at", "reveals_info", "metadata", "index", "simultaneous_group_id"}


def _true_history(store: Store, match_id: str) -> tuple[dict[int, AnyState], dict[int, GameAction]]:
    """The true state after every submission (by action count) and every true action (by index)."""
    row, seats = store.get_match_and_seats(match_id)
    definition = load(row.game)
    engine = GameEngine(definition)
    game = definition.game_type(
        id=row.id,
        type_id=row.game,
        players=[Player(id=s.player_id, name=s.name) for s in seats],
        config=definition.config_type.model_validate(row.config),
        seed=row.seed,
    )
    state = engine.start(game, prng_key=row.prng_key if row.prng_key is not None else UNKEYED).state
    states = {state.action_count: state}
    actions: dict[int, GameAction] = {}
    for stored in store.actions(match_id):
        data = orjson.loads(stored.json)
        actions[stored.index] = definition.action_by_type[data["type"]].model_validate(data)
        if data["source"] == "user":
            body = {k: v for k, v in data.items() if k not in _NOT_SUBMITTED}
            state = engine.run(body, state, game).state
            states[state.action_count] = state
    return states, actions


def _play_some(api: Api, match_id: str, tokens: dict[str, str], rng: random.Random, limit: int) -> None:
    for _ in range(limit):
        views = {player: api.view(match_id, token) for player, token in tokens.items()}
        if next(iter(views.values()))["status"] == "finished":
            return
        player = rng.choice([p for p, view in views.items() if view["legal_actions"]])
        api.ok(api.post_action(match_id, tokens[player], rng.choice(views[player]["legal_actions"])))


def _drain(reader: EventReader, head: int) -> list[Event]:
    events = [reader.next()]
    while events[-1].data["index"] < head:
        events.append(reader.next())
    return events


def _strings(value: object) -> set[str]:
    """Every string (and key) in a JSON value: what a delta on the wire may say."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    if isinstance(value, dict):
        return set(value).union(*map(_strings, value.values()))
    return set()


def _check_stream(events: list[Event], head: int, first_index: int) -> list[dict[str, Any]]:
    """Event ids are action indices, in order; the actions cover the log exactly once."""
    ids = [event.id for event in events if event.id is not None]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    actions = [action for event in events if event.event == "update" for action in event.data["actions"]]
    assert [action["index"] for action in actions] == list(range(first_index, head))
    for event in events:
        assert event.id == event.data["index"] - 1
    return actions


@pytest.mark.parametrize("game", ["go-fish", "goofspiel"])
def test_two_seats_and_a_spectator_get_every_event_in_order_and_only_what_they_may_see(
    server: LiveServer, api: Api, game: str
) -> None:
    match = api.create(game, 2, seed=5)
    match_id = match["id"]
    tokens = {player: api.join(match_id, player) for player in ("p1", "p2")}
    perspectives: dict[Perspective, str | None] = {"p1": tokens["p1"], "p2": tokens["p2"], SPECTATOR: None}
    readers = {who: open_stream(api, match_id, token) for who, token in perspectives.items()}
    snapshots = {who: reader.next() for who, reader in readers.items()}
    start = match["index"]
    assert all(s.event == "snapshot" and s.data["index"] == start for s in snapshots.values())

    _play_some(api, match_id, tokens, random.Random(3), 1000)
    final = api.match(match_id)
    assert final["status"] == "finished"
    head = final["index"]
    store: Store = server.app.state.service.store
    states, true_actions = _true_history(store, match_id)
    key = store.get_match(match_id).prng_key
    assert key is not None

    for who, reader in readers.items():
        events = [snapshots[who], *_drain(reader, head)]
        actions = _check_stream(events, head, start)
        perspective = who
        for event in events:
            assert key not in event.raw
            checker = LeakChecker(states[event.data["index"]])
            leaks = checker.find(orjson.dumps(event.data["view"]), perspective)
            assert leaks == [], (who, event.id, leaks)
            assert _strings(orjson.loads(event.raw)) <= _strings(event.data) | {"~", "base", "patch"}
        for action in actions:
            leaks = LeakChecker(true_actions[action["index"]]).find(orjson.dumps(action), perspective)
            assert leaks == [], (who, action["index"], leaks)
        assert reader.events.empty()  # nothing beyond the head, nothing twice
        reader.close()


def test_a_reconnect_with_last_event_id_loses_nothing(server: LiveServer, api: Api) -> None:
    match = api.create("go-fish", 2, seed=9)
    match_id = match["id"]
    tokens = {player: api.join(match_id, player) for player in ("p1", "p2")}
    rng = random.Random(4)
    reader = open_stream(api, match_id, tokens["p1"])
    first = [reader.next()]
    _play_some(api, match_id, tokens, rng, 5)
    middle = api.match(match_id)["index"]
    first += _drain(reader, middle)
    reader.close()
    last_id = first[-1].id
    assert last_id == middle - 1

    _play_some(api, match_id, tokens, rng, 6)  # played while p1 is away
    away = api.match(match_id)["index"]
    assert away > middle
    again = open_stream(api, match_id, tokens["p1"], last_event_id=last_id)
    resumed = _drain(again, away)
    assert resumed[0].event == "update" and resumed[0].data["actions"][0]["index"] == middle
    _play_some(api, match_id, tokens, rng, 3)  # and live again
    end = api.match(match_id)["index"]
    resumed += _drain(again, end)
    again.close()
    actions = _check_stream(first + resumed, end, match["index"])
    assert len(actions) == end - match["index"]


def test_a_stream_token_works_once_and_only_for_its_match(server: LiveServer, api: Api) -> None:
    match = api.create("tic-tac-toe", 2)
    other = api.create("tic-tac-toe", 2)
    token = api.stream_token(match["id"])
    wrong = api.http.get(f"/api/matches/{other['id']}/events", params={"stream_token": token})
    assert (wrong.status_code, wrong.json()["code"]) == (401, "invalid-stream-token")
    token = api.stream_token(match["id"])
    reader = open_stream(api, match["id"])
    assert reader.next().event == "snapshot"
    reader.close()
    first = EventReader(f"{api.url}/api/matches/{match['id']}/events", {"stream_token": token}).start()
    assert first.next().event == "snapshot"
    first.close()
    reused = api.http.get(f"/api/matches/{match['id']}/events", params={"stream_token": token})
    assert (reused.status_code, reused.json()["code"]) == (401, "invalid-stream-token")
    missing = api.http.get(f"/api/matches/{match['id']}/events")
    assert missing.status_code == 400 and missing.json()["path"] == "stream_token"


def test_an_update_sends_what_changed_and_rebuilds_the_seats_view(server: LiveServer, api: Api) -> None:
    match_id = api.create("tic-tac-toe", 2, seed=1)["id"]
    tokens = {player: api.join(match_id, player) for player in ("p1", "p2")}
    reader = open_stream(api, match_id, tokens["p1"])
    events = [reader.next()]
    _play_some(api, match_id, tokens, random.Random(2), 9)
    head = api.match(match_id)["index"]
    events += _drain(reader, head)
    reader.close()
    sent: list[int] = []
    for event in events:
        assert event.id is not None
        if event.event == "update":
            wire = orjson.loads(event.raw)
            assert set(wire) == {"base", "patch"}
            assert wire["base"] in sent[-3:]  # one of the last documents this connection sent
            assert len(event.raw) < len(orjson.dumps(event.data)) / 2  # not the whole view again
        sent.append(event.id)
    view = api.view(match_id, tokens["p1"])
    assert {**events[-1].data, "actions": None} == {**view, "actions": None}


def test_a_resumed_stream_sends_its_first_update_whole(server: LiveServer, api: Api) -> None:
    match_id = api.create("tic-tac-toe", 2, seed=1)["id"]
    tokens = {player: api.join(match_id, player) for player in ("p1", "p2")}
    _play_some(api, match_id, tokens, random.Random(5), 2)
    reader = open_stream(api, match_id, tokens["p2"], last_event_id=0)
    first = reader.next()
    reader.close()
    assert first.event == "update" and first.id == 1
    assert orjson.loads(first.raw) == {"base": None, "patch": [first.data]}  # nothing to build on yet
    assert [action["index"] for action in first.data["actions"]] == [1]
    assert {**first.data, "actions": None} == {**api.view(match_id, tokens["p2"]), "actions": None}
