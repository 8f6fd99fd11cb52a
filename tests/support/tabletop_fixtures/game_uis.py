"""The games that have a UI project (an npm workspace ``games-ui/<game>-ui``), for the browser tests."""

from __future__ import annotations

import json

from tabletop_fixtures.browser import ROOT

__all__ = ["UI_GAMES", "WORKSPACES"]

WORKSPACES: list[str] = json.loads((ROOT / "games-ui" / "package.json").read_text(encoding="utf-8"))[
    "workspaces"
]
UI_GAMES = sorted(project.removesuffix("-ui") for project in WORKSPACES if project.endswith("-ui"))
"""Every game whose UI project is an npm workspace (``make new-game`` adds a generated game's)."""
