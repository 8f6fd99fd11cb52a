"""Fixtures of the notification tests: a server that polls its outbox often, and a receiver."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tabletop_fixtures.live_server import Api, LiveServer, live_server
from tabletop_fixtures.receiver import Receiver, receiver

FAST_OUTBOX = {
    "webhook_poll_seconds": 0.05,
    "webhook_retry_seconds": 0.1,
    "webhook_timeout": 2.0,
    "webhook_max_attempts": 3,
}
"""Settings that make deliveries and their retries quick (the tests wait on conditions)."""


@pytest.fixture
def server(migrated_url: str) -> Iterator[LiveServer]:
    """A server over each database, delivering webhooks promptly."""
    with live_server(migrated_url, **FAST_OUTBOX) as running:
        yield running


@pytest.fixture
def api(server: LiveServer) -> Iterator[Api]:
    """A client of ``server``."""
    client = Api(server.url)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def hook() -> Iterator[Receiver]:
    """A webhook receiver on loopback."""
    with receiver() as running:
        yield running
