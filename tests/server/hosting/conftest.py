"""Fixtures of the hosting tests (fairness, history, rematch): a real server on each database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tabletop_fixtures.live_server import Api, LiveServer, live_server


@pytest.fixture
def server(migrated_url: str) -> Iterator[LiveServer]:
    """The server on a fresh, migrated database (SQLite and PostgreSQL)."""
    with live_server(migrated_url) as running:
        yield running


@pytest.fixture
def api(server: LiveServer) -> Iterator[Api]:
    """A client of ``server``."""
    client = Api(server.url)
    try:
        yield client
    finally:
        client.close()
