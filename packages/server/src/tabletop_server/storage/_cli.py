"""``tabletop db upgrade [--db URL]``: bring the database's schema to the newest migration;
``tabletop db matches end ID [--db URL]``: end a match as an operator.

The server's ``_cli`` registers the subcommand (importing this module only when it runs).
"""

from __future__ import annotations

import argparse
import sys

from tabletop_server.storage._errors import StorageError
from tabletop_server.storage._migrate import upgrade
from tabletop_server.storage._url import normalize_url

__all__ = ["end_command", "upgrade_command"]


def upgrade_command(args: argparse.Namespace) -> int:
    """Run ``tabletop db upgrade`` for ``args.db`` (None: the default SQLite file); the exit code."""
    try:
        shown = normalize_url(args.db).render_as_string(hide_password=True)
        revision = upgrade(args.db)
    except (StorageError, ValueError) as error:
        print(f"tabletop db upgrade: {error}", file=sys.stderr)
        return 1
    print(f"{shown}: schema at revision {revision}")
    return 0


def end_command(args: argparse.Namespace) -> int:
    """Run ``tabletop db matches end ID`` for ``args.db``: the match takes no more writes and its
    bots stop (a running server sees it at its next read of the match). The exit code: 0 when
    the match is ended (also if it was already), 1 otherwise."""
    from tabletop_server.storage._store import Store

    try:
        with Store(args.db) as store:
            row = store.end_match(args.match_id)
    except (StorageError, ValueError) as error:
        print(f"tabletop db matches end: {error}", file=sys.stderr)
        return 1
    print(f"match {row.id} ({row.game}, {row.head} actions): {row.status}")
    return 0
