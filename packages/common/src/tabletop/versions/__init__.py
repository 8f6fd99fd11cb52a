"""Logic versions: migrating stored matches to the installed version, and rehearsals of old ones.

A game declares :class:`tabletop.Migration` steps (``GameDefinition(migrations=...)``), one per
version step, over the stored state document and, where the action schema changed, over recorded
action documents. A host moves a stored match to the installed version with
:func:`migrate_state` (and :func:`migrate_action` for its log): the result is checked against the
installed state schema and the game's invariants before anything is stored. A *rehearsal* is a
match recorded mid-game under an earlier version; :func:`play_rehearsal` migrates it and plays it
to the end with bots, checking invariants and views after every action.

Example:
    >>> from tabletop.games import load
    >>> from tabletop.versions import migration_path
    >>> [(step.from_version, step.to_version) for step in migration_path(load("go-fish"), "2.0.0")]
    [('2.0.0', '3.0.0'), ('3.0.0', '4.0.0'), ('4.0.0', '5.0.0')]
"""

from tabletop._migration import Document, Migration, MigrationError
from tabletop._semver import next_versions, parse_version
from tabletop.versions._path import migrate_action, migrate_state, migration_path
from tabletop.versions._rehearsal import (
    Rehearsal,
    RehearsalReport,
    load_rehearsal,
    play_rehearsal,
    record_rehearsal,
    rehearsal_dir,
    rehearsal_files,
    save_rehearsal,
)

__all__ = [
    "Document",
    "Migration",
    "MigrationError",
    "Rehearsal",
    "RehearsalReport",
    "load_rehearsal",
    "migrate_action",
    "migrate_state",
    "migration_path",
    "next_versions",
    "parse_version",
    "play_rehearsal",
    "record_rehearsal",
    "rehearsal_dir",
    "rehearsal_files",
    "save_rehearsal",
]
