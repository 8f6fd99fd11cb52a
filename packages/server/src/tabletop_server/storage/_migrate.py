"""Schema migrations (Alembic, shipped in ``tabletop_server/migrations``), run from code."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from tabletop_server.storage._base import _unavailable
from tabletop_server.storage._engines import StoreOptions, open_engines
from tabletop_server.storage._url import normalize_url

__all__ = ["alembic_config", "current_revision", "head_revision", "upgrade"]

SCRIPT_LOCATION = "tabletop_server:migrations"
ADVISORY_LOCK = 0x7AB1E70
"""PostgreSQL advisory lock id held while migrating, so workers starting together take turns."""


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration for the shipped migrations, running on ``connection``."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration's revision id."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package ships its migrations
        msg = "no migrations found in tabletop_server/migrations"
        raise RuntimeError(msg)
    return head


def current_revision(url: str | None = None) -> str | None:
    """The revision the database's schema is at (None: never migrated)."""
    engines = open_engines(normalize_url(url), StoreOptions(pool_size=1, max_overflow=0))
    try:
        with _unavailable(), engines.reader.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engines.dispose()


def upgrade(url: str | None = None, revision: str = "head") -> str | None:
    """Bring the database's schema to ``revision`` (default: the newest), in one transaction.

    Safe to call on every start, also from several workers at once (SQLite: the write lock;
    PostgreSQL: an advisory lock). The default SQLite file's folder is created.

    Args:
        url: The database URL (see ``Store``); None for the default SQLite file.
        revision: The target revision.

    Returns:
        The revision the schema is at afterwards.

    Raises:
        StorageUnavailableError: The database cannot be reached.
        ValueError: The URL is unusable.
    """
    engines = open_engines(normalize_url(url), StoreOptions(pool_size=1, max_overflow=0))
    try:
        with _unavailable(), engines.writer.begin() as connection:
            if engines.dialect == "postgresql":
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({ADVISORY_LOCK})")
            command.upgrade(alembic_config(connection), revision)
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engines.dispose()
