"""The API's routers, one per concern; ``create_app`` includes them under ``/api``."""

from tabletop_server.routers import clocks, events, games, history, matches, play, seats

__all__ = ["clocks", "events", "games", "history", "matches", "play", "seats"]
