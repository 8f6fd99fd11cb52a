"""The developer panel's routes: off unless the server runs with ``--dev`` (and then refused with
``404 dev-mode-off``, changing nothing); with it, the full state and each seat's view exactly as
that seat's own ``/view`` shows it, read-only time travel to any index, and a random move for a
seat."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest
from tabletop_fixtures.live_server import Api, live_server


@pytest.fixture
def dev_api(tmp_path: Path) -> Iterator[Api]:
    """A client of a server started with the developer panel on."""
    with live_server(f"sqlite:///{tmp_path / 'dev.sqlite3'}", dev=True) as running:
        client = Api(running.url)
        try:
            yield client
        finally:
            client.close()


@pytest.fixture
def plain_api(tmp_path: Path) -> Iterator[Api]:
    """A client of a server with the default settings (no developer panel)."""
    with live_server(f"sqlite:///{tmp_path / 'plain.sqlite3'}") as running:
        client = Api(running.url)
        try:
            yield client
        finally:
            client.close()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/dev"),
        ("GET", "/api/dev/matches/{id}"),
        ("GET", "/api/dev/matches/{id}?index=0"),
        ("POST", "/api/dev/matches/{id}/bot-move"),
    ],
)
def test_a_server_without_dev_refuses_every_dev_route_and_changes_nothing(
    plain_api: Api, method: str, path: str
) -> None:
    match = plain_api.create("tic-tac-toe")
    plain_api.join(match["id"], "p1")
    before = plain_api.match(match["id"])
    response = plain_api.http.request(
        method, path.format(id=match["id"]), json={} if method == "POST" else None
    )
    assert response.status_code == 404
    assert response.json() == {
        "code": "dev-mode-off",
        "message": "the developer panel is off: start the server with `tabletop serve --dev`",
        "path": None,
    }
    assert plain_api.match(match["id"]) == before


def test_serve_turns_the_panel_on_only_with_its_flag() -> None:
    from tabletop_server import Settings
    from tabletop_server._cli import _settings

    common = {"db": None, "host": None, "port": None, "ui_dir": None, "workers": None}
    assert Settings().dev is False
    on = _settings(argparse.Namespace(**common, dev=True))
    off = _settings(argparse.Namespace(**common, dev=False))
    assert isinstance(on, Settings) and isinstance(off, Settings)
    assert on.dev is True and off.dev is False


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.7", "::"])
def test_serve_refuses_dev_on_a_host_other_than_loopback(
    host: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop_server._cli import _serve

    args = argparse.Namespace(db=None, host=host, port=None, ui_dir=None, workers=None, dev=True)
    assert _serve(args) == 2
    assert f"loopback only, not {host}" in capsys.readouterr().err


def test_the_panel_shows_each_seat_exactly_its_own_view_and_the_full_state(dev_api: Api) -> None:
    assert dev_api.ok(dev_api.http.get("/api/dev")) == {"enabled": True}
    match = dev_api.create("go-fish", 2)
    tokens = {player_id: dev_api.join(match["id"], player_id) for player_id in ("p1", "p2")}
    for _ in range(4):
        dev_api.ok(dev_api.http.post(f"/api/dev/matches/{match['id']}/bot-move", json={}))
    shown = dev_api.ok(dev_api.http.get(f"/api/dev/matches/{match['id']}"))
    head = dev_api.match(match["id"])["index"]
    assert shown["index"] == shown["head"] == head >= 4
    for seat in shown["seats"]:
        assert seat["view"] == dev_api.view(match["id"], tokens[seat["player_id"]])["view"]
    assert shown["spectator"] == dev_api.view(match["id"])["view"]
    # the full state holds what no view does: every hand and the deck
    hands = {player["player_id"]: player["hand"] for player in shown["state"]["players"]}
    assert set(hands) == {"p1", "p2"} and all(isinstance(hand, list) for hand in hands.values())
    assert isinstance(shown["state"]["deck"], list | dict)
    assert [action["index"] for action in shown["actions"]] == list(range(head))


def test_time_travel_replays_any_index_and_writes_nothing(dev_api: Api) -> None:
    match = dev_api.create("pig", 2)
    for player_id in ("p1", "p2"):
        dev_api.join(match["id"], player_id)
    for _ in range(6):
        dev_api.ok(dev_api.http.post(f"/api/dev/matches/{match['id']}/bot-move", json={}))
    before = dev_api.match(match["id"])
    head = before["index"]
    now = dev_api.ok(dev_api.http.get(f"/api/dev/matches/{match['id']}"))
    for index in range(head + 1):
        past = dev_api.ok(dev_api.http.get(f"/api/dev/matches/{match['id']}", params={"index": index}))
        assert past["index"] == index and past["head"] == head
        # the log records each Roll's die (RollDie) after it; replaying a Roll draws its die again
        chance_follows = index < head and past["actions"][index]["type"] == "RollDie"
        assert past["state"]["action_count"] == index + chance_follows
        assert len(past["actions"]) == head  # the whole log, to travel along
    assert (
        dev_api.ok(dev_api.http.get(f"/api/dev/matches/{match['id']}", params={"index": head}))["state"]
        == now["state"]
    )
    assert dev_api.match(match["id"]) == before  # nothing was written
    late = dev_api.http.get(f"/api/dev/matches/{match['id']}", params={"index": head + 1})
    assert late.status_code == 400 and late.json()["code"] == "invalid-index"
    assert dev_api.http.get(f"/api/dev/matches/{match['id']}", params={"index": -1}).status_code == 400
    assert dev_api.http.get("/api/dev/matches/m_nope").json()["code"] == "unknown-match"


def test_let_the_bot_move_plays_a_legal_move_for_the_seat_until_the_game_ends(dev_api: Api) -> None:
    match = dev_api.create("tic-tac-toe")
    for player_id in ("p1", "p2"):
        dev_api.join(match["id"], player_id)
    waiting = dev_api.http.post(f"/api/dev/matches/{match['id']}/bot-move", json={"player_id": "p2"})
    assert waiting.status_code == 409 and waiting.json()["code"] == "no-bot-move"
    unknown = dev_api.http.post(f"/api/dev/matches/{match['id']}/bot-move", json={"player_id": "p9"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown-seat"
    assert dev_api.match(match["id"])["index"] == 0
    movers = []
    for _ in range(9):
        if dev_api.match(match["id"])["status"] == "finished":
            break
        moved = dev_api.ok(dev_api.http.post(f"/api/dev/matches/{match['id']}/bot-move", json={}))
        assert moved["action"]["type"] == "PlaceMark"
        movers.append(moved["player_id"])
        assert moved["index"] == len(movers)
    assert dev_api.match(match["id"])["status"] == "finished"
    assert movers[:2] == ["p1", "p2"]
    over = dev_api.http.post(f"/api/dev/matches/{match['id']}/bot-move", json={})
    assert over.status_code == 409 and over.json()["code"] == "no-bot-move"
