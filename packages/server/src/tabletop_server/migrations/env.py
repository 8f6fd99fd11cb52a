"""Alembic's environment: migrate the connection ``upgrade`` passes in (or the configured URL)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from tabletop_server.storage._tables import metadata
from tabletop_server.storage._url import normalize_url


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def run() -> None:
    """Run the migrations online: on the given connection, else on ``sqlalchemy.url``."""
    config = context.config
    connection = config.attributes.get("connection")
    if context.is_offline_mode():
        url = normalize_url(config.get_main_option("sqlalchemy.url"))
        context.configure(url=url, target_metadata=metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    if isinstance(connection, Connection):
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(normalize_url(config.get_main_option("sqlalchemy.url")))
    try:
        with engine.begin() as own:
            _configure(own)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


run()
