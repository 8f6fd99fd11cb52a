"""The text SQLite stores a time as: ``sqlite_time`` writes what SQLAlchemy's ``DateTime`` does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from random import Random

from tabletop_server.storage._convert import SQLITE_TIME, sqlite_time


def test_sqlite_time_is_strftime_of_the_stored_format() -> None:
    random = Random(27)
    moments = [datetime.min, datetime(999, 12, 31, 23, 59, 59, 999_999), datetime(1000, 1, 1), datetime.max]
    moments += [datetime(2026, 11, 29, 19, 51, 14), datetime(2026, 11, 29, 19, 51, 14, 7, tzinfo=UTC)]
    for _ in range(2_000):
        moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=random.randrange(10**17))
        moments.append(moment if random.random() < 0.5 else moment.replace(tzinfo=None))
    moments.append(datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=timezone(timedelta(hours=2))))  # (wall time)
    for moment in moments:
        assert sqlite_time(moment) == moment.strftime(SQLITE_TIME), moment
        assert sqlite_time(moment) == moment.strftime(SQLITE_TIME)  # (kept, the second time)
