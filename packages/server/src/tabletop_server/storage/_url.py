"""Database URLs: the default embedded SQLite file, and normalising what users type."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url

__all__ = ["DATA_DIR_ENV", "default_database_url", "normalize_url"]

DATA_DIR_ENV = "TABLETOP_DATA_DIR"
"""Environment variable naming the folder of the default SQLite database."""

DEFAULT_DATA_DIR = ".tabletop"
"""The default database's folder when ``TABLETOP_DATA_DIR`` is not set (relative to the working
directory)."""

DEFAULT_FILE = "tabletop.sqlite3"


def default_database_url() -> str:
    """The embedded SQLite database used when no URL is given.

    ``$TABLETOP_DATA_DIR/tabletop.sqlite3`` if that variable is set, else
    ``./.tabletop/tabletop.sqlite3`` relative to the working directory. The folder is created
    when the store opens it.
    """
    folder = Path(os.environ.get(DATA_DIR_ENV) or DEFAULT_DATA_DIR)
    return f"sqlite:///{(folder / DEFAULT_FILE).absolute()}"


def normalize_url(url: str | None) -> URL:
    """Parse a database URL as users write it.

    ``None`` or ``""`` is the default SQLite file; ``postgresql://`` and ``postgres://`` use the
    psycopg 3 driver (``postgresql+psycopg://``); a string without ``://`` is a SQLite file path.

    Raises:
        ValueError: The URL cannot be parsed, names an unsupported database, or is an in-memory
            SQLite database (the store needs a file: its readers and its writer are separate
            connections).
    """
    text = url or default_database_url()
    if "://" not in text:
        text = f"sqlite:///{Path(text).absolute()}"
    try:
        parsed = make_url(text)
    except Exception as error:  # sqlalchemy raises ArgumentError; keep the message, hide the URL
        msg = f"cannot read the database URL: {error}"
        raise ValueError(msg) from None
    backend = parsed.get_backend_name()
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg")
    if backend == "sqlite":
        if parsed.drivername != "sqlite":
            parsed = parsed.set(drivername="sqlite")
        if not parsed.database or parsed.database == ":memory:" or parsed.query.get("mode") == "memory":
            msg = "an in-memory SQLite database is not supported: give a file (sqlite:///path)"
            raise ValueError(msg)
        return parsed
    msg = f"unsupported database {backend!r}: use sqlite:///FILE or postgresql://..."
    raise ValueError(msg)
