"""A real PostgreSQL server for tests: initdb + pg_ctl in a temp folder, loopback only.

``initdb`` refuses to run as root, so as root the binaries run as the ``postgres`` user
(``runuser -u postgres --``). The binaries are looked up on the PATH, then in
``/usr/lib/postgresql/*/bin`` (Debian's ``postgresql`` package; ``.ci/run`` installs it when
missing). Where none can be found the PostgreSQL tests are skipped, and the run's summary says so
in capitals (``POSTGRESQL TESTS SKIPPED: ...``, from the skip reports: see ``SKIP_REASON``).

Fixtures (import them into a conftest): ``postgres_server`` (one per session), ``postgres_url``
(a fresh, empty database per test) and ``database_url`` (parametrized: ``sqlite`` and
``postgresql``, both empty).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

__all__ = [
    "SKIP_REASON",
    "PostgresServer",
    "database_url",
    "find_binaries",
    "postgres_server",
    "postgres_url",
    "start_postgres",
]

USER = "tabletop"
"""The superuser initdb creates (trust authentication, loopback only)."""

SKIP_REASON = "initdb/pg_ctl not found on PATH or in /usr/lib/postgresql/*/bin (install postgresql)"
"""The PostgreSQL tests' skip reason, which the run's summary looks for in the skip reports."""


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on the PATH, else the newest Debian install."""
    initdb = shutil.which("initdb")
    if initdb is not None and shutil.which("pg_ctl") is not None:
        return Path(initdb).parent
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    for folder in reversed(candidates):
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class PostgresServer:
    """A running throwaway PostgreSQL server.

    Attributes:
        folder: Its temp folder (data directory, socket, log).
        port: Its loopback port.
        binaries: The folder of ``initdb``/``pg_ctl``.
    """

    folder: Path
    port: int
    binaries: Path
    databases: list[str] = field(default_factory=list)

    def url(self, database: str = "postgres") -> str:
        """A SQLAlchemy URL of one of its databases (psycopg 3 driver)."""
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def _admin(self) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(
            host="127.0.0.1",
            port=self.port,
            user=USER,
            dbname="postgres",
            autocommit=True,
            connect_timeout=10,
        )

    def create_database(self) -> str:
        """Create a fresh empty database; returns its URL."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        with self._admin() as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        self.databases.append(name)
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop a database made by ``create_database`` (closing its connections)."""
        name = url.rsplit("/", 1)[1]
        with self._admin() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def restart(self) -> None:
        """Restart the server (``pg_ctl restart -m fast``: every connection is dropped), same port."""
        data, log = str(self.folder / "data"), str(self.folder / "log")
        _run(self.binaries / "pg_ctl", "-D", data, "-l", log, "-m", "fast", "-w", "restart")

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        _run(
            self.binaries / "pg_ctl",
            "-D",
            str(self.folder / "data"),
            "-m",
            "immediate",
            "-w",
            "stop",
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def _as_postgres() -> list[str]:
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def _run(*command: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    args = [*_as_postgres(), *(str(part) for part in command)]
    result = subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)
    if check and result.returncode != 0:
        msg = f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
        raise RuntimeError(msg)
    return result


def start_postgres(binaries: Path) -> PostgresServer:
    """Initialise and start a server in a new temp folder on a free loopback port (fsync off).

    Raises:
        RuntimeError: initdb or pg_ctl failed (their output is in the message).
    """
    folder = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, user="postgres")
    data = folder / "data"
    try:
        _run(binaries / "initdb", "-A", "trust", "-U", USER, "-D", data, "--no-sync", "-E", "UTF8")
    except (OSError, RuntimeError):
        shutil.rmtree(folder, ignore_errors=True)
        raise
    last: RuntimeError | None = None
    for _attempt in range(3):  # a port picked as free can be taken before the server binds it
        port = _free_port()
        options = f"-k {folder} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
        result = _run(
            binaries / "pg_ctl", "-D", data, "-o", options, "-l", folder / "log", "-w", "start", check=False
        )
        if result.returncode == 0:
            return PostgresServer(folder, port, binaries)
        log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
        last = RuntimeError(f"pg_ctl start failed:\n{result.stdout}\n{result.stderr}\n{log[-2000:]}")
    shutil.rmtree(folder, ignore_errors=True)
    raise last or RuntimeError("pg_ctl start failed")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole session (skipped, loudly, if it is not installed)."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(SKIP_REASON)
    server = start_postgres(binaries)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh empty database on the session's server, dropped after the test."""
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file in ``tmp_path``, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tabletop.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url
