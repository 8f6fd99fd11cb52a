"""Every game that has a UI project, generated or written by hand: the app mounts that game's own
table (not the generic one), and a spectator sees a bot match played to its end on it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop.games import load
from tabletop_fixtures.browser import ROOT, Seat, Server, tid
from tabletop_fixtures.game_uis import UI_GAMES

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


def test_every_ui_project_is_a_workspace_and_registered_in_the_app() -> None:
    folders = sorted(
        p.name.removesuffix("-ui") for p in (ROOT / "games-ui").glob("*-ui") if (p / "package.json").is_file()
    )
    assert folders == UI_GAMES
    registry = (ROOT / "games-ui" / "app" / "src" / "games.ts").read_text(encoding="utf-8")
    imported = set(re.findall(r'from "@tabletop/([\w-]+)-ui";', registry))
    assert imported == set(UI_GAMES)


@pytest.mark.parametrize("game", UI_GAMES)
def test_a_spectator_sees_a_bot_match_to_its_end_on_the_games_own_table(
    game: str, server: Server, open_seat: OpenSeat
) -> None:
    definition = load(game)
    seats: list[dict[str, object]] = [
        {"name": f"Bot {n}", "bot": {"kind": "random"}} for n in range(1, max(2, definition.min_players) + 1)
    ]
    match_id = server.create_match(game, seats[: definition.max_players])
    watcher = open_seat("watcher")
    watcher.goto(f"#/match/{match_id}/watch")
    expect(watcher.page.locator(tid(f"game-{game}"))).to_be_visible(timeout=30_000)
    expect(watcher.page.locator(tid("game-generic"))).to_have_count(0)
    watcher.page.wait_for_function(
        "() => document.querySelector('[data-testid=match-page]')?.dataset.status === 'finished'",
        timeout=120_000,
    )
    expect(watcher.page.locator(tid("result"))).to_contain_text("Game over")
    assert watcher.page.locator(tid("log-entry")).count() > 0
    assert server.match(match_id)["status"] == "finished"
