"""``tabletop db upgrade [--db URL]``: bring the database's schema to the newest migration.

The server's ``_cli`` registers the subcommand (importing this module only when it runs).
"""

from __future__ import annotations

import argparse
import sys

from tabletop_server.storage._errors import StorageError
from tabletop_server.storage._migrate import upgrade
from tabletop_server.storage._url import normalize_url

__all__ = ["upgrade_command"]


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
