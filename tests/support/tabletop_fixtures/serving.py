"""A real server on a given set of games: the upgrade tests run the old code, then the new code."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

import uvicorn

from tabletop_fixtures.live_server import LiveServer, free_port

if TYPE_CHECKING:
    from tabletop import AnyState, GameConfig, GameDefinition
    from tabletop_server import EventHub

__all__ = ["serving"]


@contextmanager
def serving(
    database_url: str,
    games: Mapping[str, GameDefinition[AnyState, GameConfig]] | None = None,
    hub: EventHub | None = None,
) -> Iterator[LiveServer]:
    """A real server on a free loopback port hosting ``games`` (default: the installed games),
    stopped (as a restart stops it) when the block ends; ``hub`` shares announcements between
    two servers in one process (two workers of one deployment)."""
    from tabletop_server import GameRegistry, Settings, create_app

    registry = GameRegistry(games)
    settings = Settings(db=database_url, ui_dir=None, keepalive_seconds=1.0)
    app = create_app(settings, registry=registry, hub=hub)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2, lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="tabletop-upgrade-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            msg = "the server did not start"
            raise RuntimeError(msg)
        time.sleep(0.01)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", app, server)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
