"""The API's routers, one per concern; ``create_app`` includes them under ``/api``."""

from tabletop_server.routers import (
    clocks,
    dev,
    events,
    games,
    history,
    matches,
    play,
    rematch,
    seats,
    webhooks,
)

__all__ = ["clocks", "dev", "events", "games", "history", "matches", "play", "rematch", "seats", "webhooks"]
