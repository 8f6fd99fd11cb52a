"""``GET /api/games``: each game's display title and description, and labelled config options."""

from __future__ import annotations

from pathlib import Path

import httpx
from tabletop.games import load
from tabletop_fixtures.live_server import live_server


def test_the_lobby_gets_each_games_title_description_and_labelled_options(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as server:
        games = {game["name"]: game for game in httpx.get(f"{server.url}/api/games").json()["games"]}
    titles = {name: game["title"] for name, game in games.items()}
    assert {titles[name] for name in ("go-fish", "tic-tac-toe", "pig")} == {"Go Fish", "Tic-tac-toe", "Pig"}
    for name, game in games.items():
        definition = load(name)
        assert (game["title"], game["description"]) == (definition.title, definition.description)
        assert game["description"], f"{name} declares no description"
    options = games["sample"]["config_schema"]["properties"]
    assert options["big_totals_allowed"]["title"] == "Big totals allowed"  # a label, not the raw key
    assert options["big_totals_allowed"]["description"].startswith("Play to BIG_MAX_TOTAL")  # its docstring
    assert games["pig"]["config_schema"]["properties"]["target"]["title"] == "Target"
