"""``tabletop db matches --outdated`` and ``tabletop rehearsal record``: stored matches and versions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import orjson
from sqlalchemy.exc import SQLAlchemyError
from tabletop.versions import record_rehearsal, rehearsal_dir, save_rehearsal

from tabletop_server._errors import ApiError
from tabletop_server._registry import GameRegistry
from tabletop_server._runtime import build_game
from tabletop_server._upgrade import outdated_counts, version_status
from tabletop_server.storage import StorageError, Store

__all__ = ["matches_command", "record_command"]


def matches_command(args: argparse.Namespace) -> int:
    """``tabletop db matches [--outdated] [--db URL]``: stored matches by game and version."""
    registry = GameRegistry()
    try:
        store = Store(args.db)
    except (StorageError, ValueError) as error:
        print(f"tabletop db matches: {error}", file=sys.stderr)
        return 1
    try:
        return _list(registry, store, outdated=args.outdated)
    except (StorageError, SQLAlchemyError) as error:
        first = str(error).splitlines()[0]
        print(f"tabletop db matches: {first} (run `tabletop db upgrade` first?)", file=sys.stderr)
        return 1
    finally:
        store.close()


def _list(registry: GameRegistry, store: Store, *, outdated: bool) -> int:
    """Print the matches per game and version (or, ``outdated``, each outdated match)."""
    if not outdated:
        for game, version, status, count in store.version_counts():
            print(f"{game}\t{version}\t{status}\t{count}\t{version_status(registry, game, version)}")
        return 0
    counts = outdated_counts(registry, store)
    if not counts:
        print("every stored match runs its game's installed logic version")
        return 0
    print("match\tgame\tlogic_version\tstatus\tactions\tupgrade")
    for game, version, upgrade_status, _, _ in counts:
        for row in store.matches_at(game, version):
            print(f"{row.id}\t{game}\t{version}\t{row.status}\t{row.head}\t{upgrade_status}")
    return 0


def record_command(args: argparse.Namespace) -> int:
    """``tabletop rehearsal record MATCH_ID --name NAME [--db URL] [--out DIR]``: save a stored
    match (under the logic version it runs) as a rehearsal of its game."""
    registry = GameRegistry()
    try:
        store = Store(args.db)
    except (StorageError, ValueError) as error:
        print(f"tabletop rehearsal record: {error}", file=sys.stderr)
        return 1
    try:
        row, seats = store.get_match_and_seats(args.match_id)
        entry = registry.frozen(row.game, row.logic_version) or registry.get(row.game)
        seat_list = [(seat.player_id, seat.name, seat.bot is None) for seat in seats]
        game = build_game(entry, row.id, seat_list, row.config, row.seed)
        actions = [orjson.loads(action.json) for action in store.actions(row.id)]
        rehearsal = record_rehearsal(
            args.name,
            entry.definition,
            game,
            row.state_json,
            actions,
            logic_version=row.logic_version,
            description=args.description,
        )
        folder: Path = args.out if args.out is not None else rehearsal_dir(row.game)
        path = save_rehearsal(rehearsal, folder)
    except (StorageError, ApiError, LookupError, ValueError) as error:
        print(f"tabletop rehearsal record: {error}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if row.status != "in_progress":
        print("tabletop rehearsal record: note: the match is over; a rehearsal is best stopped mid-game")
    print(f"wrote {path} ({row.game} {row.logic_version}, {row.head} actions)")
    return 0
