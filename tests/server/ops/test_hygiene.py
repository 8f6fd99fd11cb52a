"""Input hygiene at the boundary: unreadable bodies and control characters in names get typed errors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tabletop_fixtures.live_server import Api, live_server


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    url = f"sqlite:///{tmp_path_factory.mktemp('hygiene') / 'tabletop.sqlite3'}"
    with live_server(url) as running:
        client = Api(running.url)
        yield client
        client.close()


@pytest.mark.parametrize("body", [b'{"game": "\xff"}', b"\xff{}", b'{"seats": [{"name": "\xc3"}]}'])
@pytest.mark.parametrize("route", ["/api/matches", "fork", "seat"])
def test_a_body_that_is_not_utf8_json_is_invalid_json(api: Api, body: bytes, route: str) -> None:
    match = api.create("tic-tac-toe")
    path = {
        "/api/matches": "/api/matches",
        "fork": f"/api/matches/{match['id']}/fork",
        "seat": f"/api/matches/{match['id']}/seats/p1",
    }[route]
    response = api.http.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "invalid-json"
    assert set(error) == {"code", "message", "path"}
    assert api.match(match["id"])["seats"][0]["occupied"] is False  # nothing changed


CONTROL = ["\x00", "a\x00b", "\x1b[31mred", "line\nbreak", "tab\t", "\x7f", "\x85", "\u009b2J"]


@pytest.mark.parametrize("name", CONTROL)
def test_a_new_seat_name_with_a_control_character_is_refused(api: Api, name: str) -> None:
    before = len(api.http.get("/api/matches", params={"limit": 500}).json()["matches"])
    body = {"game": "tic-tac-toe", "seats": [{"name": "Ann"}, {"name": name}]}
    response = api.http.post("/api/matches", json=body)
    assert response.status_code == 400, response.text
    assert response.json() == {
        "code": "invalid-value",
        "message": "a name may not hold control characters (NUL, escapes, line breaks)",
        "path": "seats.1.name",
    }
    assert len(api.http.get("/api/matches", params={"limit": 500}).json()["matches"]) == before


@pytest.mark.parametrize("name", CONTROL)
def test_a_claimed_seat_name_with_a_control_character_is_refused(api: Api, name: str) -> None:
    match = api.create("tic-tac-toe")
    response = api.http.post(f"/api/matches/{match['id']}/seats/p1", json={"name": name})
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "invalid-value"
    assert response.json()["path"] == "name"
    seat = api.match(match["id"])["seats"][0]
    assert seat == {**seat, "name": "Seat 1", "occupied": False}


@pytest.mark.parametrize("name", ["Zoë", "<b>bold</b> & 'quotes'", "名前", "🙂 emoji", ""])
def test_printable_names_with_markup_and_any_script_are_kept_as_sent(api: Api, name: str) -> None:
    match = api.create("tic-tac-toe", [{"name": name}, {"name": "B"}])
    assert match["seats"][0]["name"] == (name or "Player 1")
    response = api.http.post(f"/api/matches/{match['id']}/seats/p2", json={"name": name})
    assert response.status_code == 201
    assert api.match(match["id"])["seats"][1]["name"] == name
