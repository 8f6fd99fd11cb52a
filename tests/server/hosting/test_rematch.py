"""Rematch: one call makes the next match; every seat claims its new seat with its old token."""

from __future__ import annotations

from tabletop_fixtures.live_server import Api

from tests.server.hosting.play import play_to_the_end


def _rematch(api: Api, match_id: str, token: str | None) -> dict[str, object]:
    response = api.http.post(f"/api/matches/{match_id}/rematch", headers=api.auth(token))
    return api.ok(response)  # type: ignore[no-any-return]


def test_a_rematch_has_the_same_game_config_and_seats_and_links_both_ways(api: Api) -> None:
    match = api.create("pig", [{"name": "Ann"}, {"name": "Bob"}], config={"target": 10})
    match_id = match["id"]
    tokens = {p: api.join(match_id, p) for p in ("p1", "p2")}
    too_early = api.http.post(f"/api/matches/{match_id}/rematch", headers=api.auth(tokens["p1"]))
    assert (too_early.status_code, too_early.json()["code"]) == (409, "not-finished")
    play_to_the_end(api, match_id, tokens, seed=1)
    first = _rematch(api, match_id, tokens["p1"])
    second = _rematch(api, match_id, tokens["p2"])
    new = first["match"]
    assert isinstance(new, dict)
    assert second["match"]["id"] == new["id"] != match_id  # type: ignore[index]
    assert (new["game"], new["config"], new["status"], new["index"]) == (
        "pig",
        api.match(match_id)["config"],
        "in_progress",
        0,
    )
    assert new["config"]["target"] == 10
    assert [(s["player_id"], s["name"], s["bot"]) for s in new["seats"]] == [
        ("p1", "Ann", None),
        ("p2", "Bob", None),
    ]
    assert new["rematch"] == {"previous": match_id, "next": None}
    assert api.match(match_id)["rematch"] == {"previous": None, "next": new["id"]}  # what spectators follow
    assert new["fairness"]["commitment"] != api.match(match_id)["fairness"]["commitment"]  # a new key
    for player, answer in (("p1", first), ("p2", second)):
        view = api.view(str(new["id"]), str(answer["token"]))
        assert view["player_id"] == player
    spectator = api.http.post(f"/api/matches/{match_id}/rematch")
    assert (spectator.status_code, spectator.json()["code"]) == (401, "missing-token")
    listed = {m["id"]: m for m in api.ok(api.http.get("/api/matches"))["matches"]}
    assert listed[match_id]["rematch"]["next"] == new["id"]


def test_bots_stay_bots_in_the_rematch(api: Api) -> None:
    match = api.create("tic-tac-toe", [{"name": "Ann"}, {"name": "Robo", "bot": {"kind": "random"}}], seed=3)
    match_id = match["id"]
    token = api.join(match_id, "p1")
    play_to_the_end(api, match_id, {"p1": token}, seed=2)
    answer = _rematch(api, match_id, token)
    new = answer["match"]
    assert isinstance(new, dict)
    assert new["seats"][0]["bot"] is None
    assert new["seats"][1]["bot"]["kind"] == "random"  # the bot seat plays the rematch too
    assert answer["player_id"] == "p1"
