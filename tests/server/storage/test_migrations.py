"""Migrations: the shipped revisions build exactly the tables the code describes, on both databases."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect
from tabletop._cli import main
from tabletop_server.storage import (
    StorageUnavailableError,
    Store,
    current_revision,
    default_database_url,
    head_revision,
    metadata,
    normalize_url,
    upgrade,
)


def test_upgrade_builds_the_schema_of_the_metadata(database_url: str) -> None:
    assert current_revision(database_url) is None
    assert upgrade(database_url) == head_revision()
    engine = create_engine(normalize_url(database_url))
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, metadata) == []
            tables = set(inspect(connection).get_table_names())
    finally:
        engine.dispose()
    assert tables == {
        "alembic_version",
        "matches",
        "seats",
        "actions",
        "snapshots",
        "stream_tokens",
        "idempotency_keys",
        "clocks",
        "timeouts",
        "stand_ins",
        "webhooks",
        "webhook_deliveries",
        "rematches",
    }


def test_upgrade_is_idempotent_and_keeps_data(database_url: str) -> None:
    upgrade(database_url)
    with Store(database_url) as store:
        assert store.list_matches() == []
    assert upgrade(database_url) == head_revision() == current_revision(database_url)


def test_db_upgrade_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    assert main(["db", "upgrade", "--db", url]) == 0
    assert f"schema at revision {head_revision()}" in capsys.readouterr().out
    assert current_revision(url) == head_revision()
    assert main(["db", "upgrade", "--db", "mysql://host/db"]) == 1
    assert "unsupported database 'mysql'" in capsys.readouterr().err


def test_the_default_database_lives_in_the_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'data' / 'tabletop.sqlite3'}"
    upgrade(None)  # creates the folder on demand
    assert (tmp_path / "data" / "tabletop.sqlite3").is_file()
    monkeypatch.delenv("TABLETOP_DATA_DIR")
    monkeypatch.chdir(tmp_path)
    assert default_database_url() == f"sqlite:///{tmp_path / '.tabletop' / 'tabletop.sqlite3'}"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u:pw@h:5432/db", "postgresql+psycopg://u:***@h:5432/db"),
        ("postgres://h/db", "postgresql+psycopg://h/db"),
        ("postgresql+psycopg://h/db", "postgresql+psycopg://h/db"),
        ("sqlite:////tmp/x.sqlite3", "sqlite:////tmp/x.sqlite3"),
        ("/tmp/y.sqlite3", "sqlite:////tmp/y.sqlite3"),
    ],
)
def test_urls_are_normalised(given: str, expected: str) -> None:
    assert normalize_url(given).render_as_string(hide_password=True) == expected


@pytest.mark.parametrize(
    "url", ["sqlite://", "sqlite:///:memory:", "mysql://h/db", "://x", "postgresql://h:abc/db"]
)
def test_unusable_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError, match=r"memory|unsupported|cannot read"):
        normalize_url(url)


def test_a_store_on_an_unmigrated_database_fails_with_a_typed_error(database_url: str) -> None:
    with Store(database_url) as store, pytest.raises(StorageUnavailableError, match="matches"):
        store.get_match("m1")
