"""Fixtures of the API tests: a real server on a loopback port over each database, and a client.

``server``/``api`` give each test a fresh database (``database_url``: SQLite and PostgreSQL);
``shared_api`` shares one server per module and database, for tests that each work on a match of
their own (the error classes), so they do not pay a server start each.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tabletop_fixtures.live_server import Api, LiveServer, live_server


@pytest.fixture
def server(migrated_url: str) -> Iterator[LiveServer]:
    """The server on a fresh, migrated database (SQLite and PostgreSQL, via ``database_url``)."""
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


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shared_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """One server per test module and database kind."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('shared') / 'tabletop.sqlite3'}"
        with live_server(url) as running:
            yield running
        return
    postgres = request.getfixturevalue("postgres_server")
    url = postgres.create_database()
    try:
        with live_server(url) as running:
            yield running
    finally:
        postgres.drop_database(url)


@pytest.fixture
def shared_api(shared_server: LiveServer) -> Iterator[Api]:
    """A client of ``shared_server``."""
    client = Api(shared_server.url)
    try:
        yield client
    finally:
        client.close()
