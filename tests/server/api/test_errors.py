"""Every error class gets its code and status, in the one error shape, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from tabletop_fixtures.live_server import Api


def _state(api: Api, match_id: str, tokens: dict[str, str]) -> object:
    """Everything a client can observe of a match (to check a refusal changed nothing)."""
    info = api.match(match_id)
    views = {player: api.view(match_id, token) for player, token in tokens.items()}
    return info["index"], info["checksum"], info["status"], views, api.actions(match_id)["actions"]


@pytest.fixture
def api(shared_api: Api) -> Api:
    """One server per module and database: every test here works on a match of its own."""
    return shared_api


@pytest.fixture
def ttt(api: Api) -> tuple[str, dict[str, str]]:
    """A tic-tac-toe match with both seats taken; p1 to move."""
    match = api.create("tic-tac-toe", 2, seed=3)
    tokens = {player: api.join(match["id"], player) for player in ("p1", "p2")}
    return match["id"], tokens


def _square(x: int, y: int) -> dict[str, object]:
    return {"type": "PlaceMark", "square": {"x": x, "y": y}}


Request = Callable[[Api, str, dict[str, str]], httpx.Response]

CASES: list[tuple[str, Request, int, str, str | None]] = [
    (
        "bad JSON",
        lambda api, m, t: api.http.post(
            f"/api/matches/{m}/actions/PlaceMark", content=b'{"square": ', headers=api.auth(t["p1"])
        ),
        400,
        "invalid-json",
        None,
    ),
    (
        "not an object",
        lambda api, m, t: api.http.post(
            f"/api/matches/{m}/actions/PlaceMark", content=b"[1, 2]", headers=api.auth(t["p1"])
        ),
        400,
        "not-an-object",
        None,
    ),
    (
        "wrong type",
        lambda api, m, t: api.post_action(m, t["p1"], {"type": "PlaceMark", "square": {"x": "one", "y": 0}}),
        400,
        "invalid-value",
        "square.x",
    ),
    (
        "extra field",
        lambda api, m, t: api.post_action(m, t["p1"], {**_square(0, 0), "extra": 1}),
        400,
        "unexpected-field",
        "extra",
    ),
    (
        "host-assigned field",
        lambda api, m, t: api.post_action(m, t["p1"], {**_square(0, 0), "reveals_info": True}),
        400,
        "unexpected-field",
        "reveals_info",
    ),
    (
        "missing field",
        lambda api, m, t: api.post_action(m, t["p1"], {"type": "PlaceMark"}),
        400,
        "missing-field",
        "square",
    ),
    (
        "another seat's player id",
        lambda api, m, t: api.post_action(m, t["p2"], {**_square(0, 0), "player_id": "p1"}),
        403,
        "wrong-seat",
        "player_id",
    ),
    (
        "not the seat's turn",
        lambda api, m, t: api.post_action(m, t["p2"], _square(0, 0)),
        403,
        "player-not-active",
        "player_id",
    ),
    ("no token", lambda api, m, t: api.post_action(m, None, _square(0, 0)), 401, "missing-token", None),
    (
        "unknown token",
        lambda api, m, t: api.post_action(m, "not-a-token", _square(0, 0)),
        401,
        "invalid-token",
        None,
    ),
    (
        "another match's id",
        lambda api, m, t: api.post_action(m, t["p1"], {**_square(0, 0), "game_id": "m_other"}),
        400,
        "wrong-game",
        "game_id",
    ),
    (
        "stale index",
        lambda api, m, t: api.post_action(m, t["p1"], {**_square(0, 0), "index": 5}),
        409,
        "stale-index",
        "index",
    ),
    (
        "stale If-Match",
        lambda api, m, t: api.post_action(m, t["p1"], _square(0, 0), headers={"If-Match": '"4"'}),
        409,
        "stale-index",
        "index",
    ),
    ("off the board", lambda api, m, t: api.post_action(m, t["p1"], _square(7, 0)), 422, None, None),  # type: ignore[list-item]
    (
        "major logic version",
        lambda api, m, t: api.post_action(
            m, t["p1"], _square(0, 0), headers={"X-Tabletop-Logic-Version": "99.0.0"}
        ),
        409,
        "incompatible-logic-version",
        "X-Tabletop-Logic-Version",
    ),
    (
        "oversized body",
        lambda api, m, t: api.http.post(
            f"/api/matches/{m}/actions/PlaceMark",
            content=b'{"pad": "' + b"x" * 70_000 + b'"}',
            headers=api.auth(t["p1"]),
        ),
        413,
        "payload-too-large",
        None,
    ),
    (
        "unknown action type",
        lambda api, m, t: api.post_action(m, t["p1"], {"type": "Jump"}),
        400,
        "unknown-action-type",
        "type",
    ),
    (
        "another game's action type",
        lambda api, m, t: api.post_action(m, t["p1"], {"type": "Ask", "target_player_id": "p2", "rank": "7"}),
        400,
        "unknown-action-type",
        "type",
    ),
    (
        "unknown match",
        lambda api, m, t: api.post_action("m_nope", t["p1"], _square(0, 0)),
        404,
        "unknown-match",
        None,
    ),
    (
        "an overlong action id",
        lambda api, m, t: api.post_action(m, t["p1"], {**_square(0, 0), "id": "x" * 65}),
        400,
        "invalid-value",
        "id",
    ),
    (
        "an index past any integer column",
        lambda api, m, t: api.http.get(f"/api/matches/{m}/actions", params={"after": str(10**30)}),
        400,
        "invalid-value",
        "after",
    ),
    ("unknown route", lambda api, m, t: api.http.get(f"/api/matches/{m}/nowhere"), 404, "not-found", None),
    (
        "wrong method",
        lambda api, m, t: api.http.put(f"/api/matches/{m}/view"),
        405,
        "method-not-allowed",
        None,
    ),
    (
        "bad query",
        lambda api, m, t: api.http.get(f"/api/matches/{m}/actions", params={"after": "soon"}),
        400,
        "invalid-value",
        "after",
    ),
    ("seat taken", lambda api, m, t: api.http.post(f"/api/matches/{m}/seats/p1"), 409, "seat-taken", None),
    (
        "unknown seat",
        lambda api, m, t: api.http.post(f"/api/matches/{m}/seats/p9"),
        404,
        "unknown-seat",
        None,
    ),
    ("spectator undo", lambda api, m, t: api.http.post(f"/api/matches/{m}/undo"), 401, "missing-token", None),
    (
        "nothing to undo",
        lambda api, m, t: api.http.post(f"/api/matches/{m}/undo", headers=api.auth(t["p1"])),
        409,
        "undo-not-allowed",
        None,
    ),
]


@pytest.mark.parametrize(
    ("name", "request_", "status", "code", "path"), CASES, ids=[case[0] for case in CASES]
)
def test_every_error_has_its_code_and_status_and_changes_nothing(
    api: Api,
    ttt: tuple[str, dict[str, str]],
    name: str,
    request_: Request,
    status: int,
    code: str | None,
    path: str | None,
) -> None:
    match_id, tokens = ttt
    before = _state(api, match_id, tokens)
    response = request_(api, match_id, tokens)
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"code", "message", "path"} and isinstance(body["message"], str)
    if code is not None:
        assert body["code"] == code
    if path is not None:
        assert body["path"] == path
    assert _state(api, match_id, tokens) == before


def test_a_stale_index_says_what_the_client_missed(api: Api, ttt: tuple[str, dict[str, str]]) -> None:
    match_id, tokens = ttt
    api.ok(api.post_action(match_id, tokens["p1"], {**_square(0, 0), "index": 0}))
    api.ok(api.post_action(match_id, tokens["p2"], {**_square(1, 0), "index": 1}))
    response = api.post_action(match_id, tokens["p1"], {**_square(2, 0), "index": 0})
    assert response.status_code == 409
    assert response.json() | {"message": ""} == {
        "code": "stale-index",
        "message": "",
        "path": "index",
        "index": 2,
        "missed": 2,
    }


def test_a_finished_match_refuses_every_action(api: Api, ttt: tuple[str, dict[str, str]]) -> None:
    match_id, tokens = ttt
    for player, (x, y) in [("p1", (0, 0)), ("p2", (0, 1)), ("p1", (1, 0)), ("p2", (1, 1)), ("p1", (2, 0))]:
        api.ok(api.post_action(match_id, tokens[player], _square(x, y)))
    assert api.match(match_id)["status"] == "finished"
    before = _state(api, match_id, tokens)
    for player in ("p1", "p2"):
        response = api.post_action(match_id, tokens[player], _square(2, 2))
        assert (response.status_code, response.json()["code"]) == (409, "game-over")
    assert _state(api, match_id, tokens) == before


def test_a_retried_action_id_returns_the_original_result_once(
    api: Api, ttt: tuple[str, dict[str, str]]
) -> None:
    match_id, tokens = ttt
    first = api.ok(api.post_action(match_id, tokens["p1"], {**_square(1, 1), "id": "retry-me"}))
    again = api.ok(api.post_action(match_id, tokens["p1"], {**_square(1, 1), "id": "retry-me"}))
    assert again["actions"] == first["actions"] and again["index"] == first["index"] == 1
    assert [a["id"] for a in api.actions(match_id)["actions"]] == ["retry-me"]
    other_seat = api.ok(api.post_action(match_id, tokens["p2"], {**_square(0, 0), "id": "retry-me"}))
    assert other_seat["index"] == 2  # action ids are idempotency keys scoped to the seat sending them
    assert [(a["id"], a["player_id"]) for a in api.actions(match_id)["actions"]] == [
        ("retry-me", "p1"),
        ("retry-me", "p2"),
    ]


@pytest.mark.parametrize("p2_moved", [False, True], ids=["rules refuse it", "rules accept it"])
def test_an_action_id_reused_for_another_action_is_a_typed_conflict(
    api: Api, ttt: tuple[str, dict[str, str]], p2_moved: bool
) -> None:
    match_id, tokens = ttt
    api.ok(api.post_action(match_id, tokens["p1"], {**_square(1, 1), "id": "once-only"}))
    if p2_moved:  # p1's other move would be legal now: only the recorded id stops it
        api.ok(api.post_action(match_id, tokens["p2"], _square(0, 0)))
    before = _state(api, match_id, tokens)
    body = {**_square(2, 2), "id": "once-only"}
    response = api.http.post(
        f"/api/matches/{match_id}/actions/PlaceMark", json=body, headers=api.auth(tokens["p1"])
    )
    assert (response.status_code, response.json()["code"], response.json()["path"]) == (
        409,
        "idempotency-key-reused",
        "id",
    )
    assert _state(api, match_id, tokens) == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess", "seats": [{}, {}]}, 404, "unknown-game"),
        ({"game": "tic-tac-toe", "seats": [{}]}, 400, "invalid-seats"),
        ({"game": "tic-tac-toe", "seats": [{}, {}], "config": {"size": 9}}, 400, "invalid-config"),
        ({"game": "tic-tac-toe", "seats": [{}, {}], "seed": -1}, 400, "invalid-value"),
        ({"game": "tic-tac-toe", "seats": [{}, {}], "prng_key": "00" * 16}, 400, "unexpected-field"),
        ({"game": "tic-tac-toe", "seats": [{}, {"bot": {"kind": "oracle"}}]}, 400, "invalid-value"),
    ],
)
def test_creating_a_match_refuses_bad_requests(
    api: Api, body: dict[str, object], status: int, code: str
) -> None:
    before = api.ok(api.http.get("/api/matches"))["matches"]
    response = api.http.post("/api/matches", json=body)
    assert (response.status_code, response.json()["code"]) == (status, code), response.text
    assert api.ok(api.http.get("/api/matches"))["matches"] == before
