"""The store's connection handling: read and write transactions, database errors made typed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal, Self

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from tabletop_server.storage._engines import Engines, StoreOptions, open_engines
from tabletop_server.storage._errors import StorageUnavailableError
from tabletop_server.storage._url import normalize_url

__all__ = ["StoreBase"]


class StoreBase:
    """Opens the engines and runs transactions; the public ``Store`` adds the operations."""

    def __init__(self, url: str | None = None, *, options: StoreOptions | None = None) -> None:
        self._url = normalize_url(url)
        self._options = options or StoreOptions()
        self._engines: Engines = open_engines(self._url, self._options)

    @property
    def url(self) -> str:
        """The database URL in use (password hidden)."""
        return self._url.render_as_string(hide_password=True)

    @property
    def dialect(self) -> Literal["sqlite", "postgresql"]:
        """Which database the store talks to."""
        return self._engines.dialect

    def close(self) -> None:
        """Close every pooled connection. The store must not be used afterwards."""
        self._engines.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A read transaction (a consistent snapshot; SQLite: deferred, never takes the write lock)."""
        with _unavailable(), self._engines.reader.begin() as connection:
            yield connection

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A write transaction (SQLite: ``BEGIN IMMEDIATE`` on the single writer connection)."""
        with _unavailable(), self._engines.writer.begin() as connection:
            yield connection


@contextmanager
def _unavailable() -> Iterator[None]:
    try:
        yield
    except PoolTimeout as error:
        raise StorageUnavailableError(f"no database connection free: {error}") from error
    except (OperationalError, InterfaceError, ProgrammingError) as error:  # down, or not migrated
        raise StorageUnavailableError(f"the database is unavailable: {_reason(error)}") from error


def _reason(error: DBAPIError) -> str:
    text = str(error.orig) if error.orig is not None else type(error).__name__
    return text.strip().splitlines()[0] if text.strip() else type(error).__name__
