"""The ``LISTEN``/``NOTIFY`` hub: woken on commit only, reconnects and resyncs, hands over bot turns."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import psycopg
import pytest
from tabletop_server.events import LISTENER_APPLICATION_NAME, InProcessHub, MatchChange, PostgresHub, hub_for
from tabletop_server.storage import Store, notify_change, upgrade


@pytest.fixture
def hub(postgres_url: str) -> Iterator[PostgresHub]:
    """A started hub on a fresh, migrated database (bot turns handed over after 0.2 s)."""
    upgrade(postgres_url)
    started = PostgresHub(postgres_url, takeover_delay=0.2, reconnect_delay=0.1)
    started.start()
    assert started.listening
    try:
        yield started
    finally:
        started.close()


def _notify(url: str, match_id: str, head: int, *, bots: bool, commit: bool = True) -> None:
    with Store(url) as store, store._engines.writer.connect() as connection:
        transaction = connection.begin()
        notify_change(connection, match_id, head, bot_may_move=bots)
        if commit:
            transaction.commit()
        else:
            transaction.rollback()


def test_the_hub_follows_the_database_url(tmp_path: object, postgres_url: str) -> None:
    assert isinstance(hub_for(postgres_url), PostgresHub)
    assert type(hub_for(f"sqlite:///{tmp_path}/x.sqlite3")) is InProcessHub


def test_an_idle_listener_still_shows_as_listening_after_its_keepalive_query(
    hub: PostgresHub, postgres_url: str
) -> None:
    """The serve-workers test counted sessions whose last query was ``LISTEN``: an idle listener
    runs ``SELECT 1`` every second, after which only its application name shows it listens."""
    database = postgres_url.rsplit("/", 1)[1]
    statement = (
        "SELECT query FROM pg_stat_activity"
        " WHERE datname = %s AND application_name = %s AND pid <> pg_backend_pid()"
    )
    deadline = time.monotonic() + 60
    with psycopg.connect(postgres_url.replace("+psycopg", ""), autocommit=True) as connection:
        while True:
            queries = [row[0] for row in connection.execute(statement, (database, LISTENER_APPLICATION_NAME))]
            if queries == ["SELECT 1"]:
                break  # the keepalive ran: the session is found by its name, not its last query
            assert len(queries) == 1 and time.monotonic() < deadline, queries
            time.sleep(0.1)
    assert hub.listening


def test_a_committed_change_wakes_the_match_streams_and_a_rolled_back_one_does_not(
    hub: PostgresHub, postgres_url: str
) -> None:
    async def scenario() -> tuple[bool, bool, bool]:
        mine, other = hub.subscribe("m1"), hub.subscribe("m2")
        await asyncio.to_thread(_notify, postgres_url, "m1", 3, bots=False, commit=False)
        rolled_back = await mine.wait(0.5)
        await asyncio.to_thread(_notify, postgres_url, "m1", 4, bots=False)
        committed = await mine.wait(5)
        elsewhere = await other.wait(0.3)
        mine.close()
        other.close()
        return rolled_back, committed, elsewhere

    assert asyncio.run(scenario()) == (False, True, False)


def test_after_losing_its_connection_the_listener_reconnects_and_wakes_every_stream(
    hub: PostgresHub, postgres_url: str
) -> None:
    reconnected = threading.Event()
    hub.on_reconnect.append(reconnected.set)
    database = postgres_url.rsplit("/", 1)[1]

    async def scenario() -> tuple[bool, bool]:
        subscription = hub.subscribe("m1")
        admin = postgres_url.replace("+psycopg", "").rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND query LIKE 'LISTEN %%'",
                (database,),
            )
        woke = await subscription.wait(10)
        await asyncio.to_thread(_notify, postgres_url, "m1", 9, bots=False)
        after = await subscription.wait(5)  # and it hears new changes again
        subscription.close()
        return woke, after

    assert asyncio.run(scenario()) == (True, True)
    assert reconnected.wait(5)


def test_another_workers_bot_turn_is_handed_over_unless_a_newer_change_or_our_own_write_came(
    hub: PostgresHub, postgres_url: str
) -> None:
    handed: list[str] = []
    done = threading.Event()

    def take(match_id: str) -> None:
        handed.append(match_id)
        done.set()

    hub.on_bot_turn.append(take)
    hub.publish(MatchChange("ours", 2))  # this worker wrote it: its own runner plays the bot
    _notify(postgres_url, "ours", 2, bots=True)
    _notify(postgres_url, "moved-on", 1, bots=True)
    _notify(postgres_url, "moved-on", 2, bots=False)  # the bot moved: nothing to take over
    _notify(postgres_url, "no-bots", 5, bots=False)
    _notify(postgres_url, "orphan", 7, bots=True)  # the writer died before its bot moved
    assert done.wait(5)
    threading.Event().wait(0.5)
    assert handed == ["orphan"]
