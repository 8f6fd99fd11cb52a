"""Shared fixtures of the server tests: real databases (SQLite files and a PostgreSQL server).

``database_url`` is parametrized over ``sqlite`` and ``postgresql`` (a fresh empty database per
test on one PostgreSQL server per session, see ``tabletop_fixtures.postgres``); ``store`` is an
open ``Store`` on it, migrated. ``tabletop`` and the server are imported inside the fixtures: a
conftest is imported before typeguard's plugin instruments the packages.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from tabletop_fixtures.postgres import database_url, postgres_server, postgres_url

if TYPE_CHECKING:
    from tabletop_server.storage import Store

__all__ = ["database_url", "migrated_url", "postgres_server", "postgres_url", "store"]


@pytest.fixture
def migrated_url(database_url: str) -> str:
    """``database_url`` with the schema migrated to the newest revision."""
    from tabletop_server.storage import upgrade

    upgrade(database_url)
    return database_url


@pytest.fixture
def store(migrated_url: str) -> Iterator[Store]:
    """An open store on a migrated, empty database (closed after the test)."""
    from tabletop_server.storage import Store

    opened = Store(migrated_url)
    try:
        yield opened
    finally:
        opened.close()
