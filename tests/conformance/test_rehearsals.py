"""Rehearsals of every installed game: matches recorded mid-game under earlier logic versions.

Each one is migrated to the installed version along the game's declared migrations and played
to the end by random bots, with the state's model, hydration, checksum, JSON Schema and the
game's invariants checked, and every seat's and a spectator's view and log checked for leaks,
after every action. A game that declares a migration from a version keeps rehearsals of it.
Record one with ``tabletop rehearsal record MATCH_ID --name NAME`` (see the release how-to).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tabletop.games import available, load
from tabletop.versions import load_rehearsal, play_rehearsal, rehearsal_dir, rehearsal_files

GAMES = available()
SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def _discovered(name: str) -> list[Path]:
    try:
        return rehearsal_files(rehearsal_dir(name))
    except LookupError:
        return []


REHEARSALS = [path for name in GAMES for path in _discovered(name)]


@pytest.mark.parametrize(
    "path", REHEARSALS, ids=[f"{p.parents[3].name}-{p.parent.name}-{p.stem}" for p in REHEARSALS]
)
def test_the_rehearsal_migrates_and_plays_to_the_end(path: Path) -> None:
    rehearsal = load_rehearsal(path)
    assert (path.parent.name, path.stem) == (rehearsal.logic_version, rehearsal.name)
    definition = load(rehearsal.game)
    for bot_seed in range(2):  # two different endings of the same recorded position
        report = play_rehearsal(rehearsal, definition, bot_seed=bot_seed, schemas=SCHEMAS)
        assert (report.from_version, report.to_version) == (rehearsal.logic_version, definition.logic_version)
        assert report.actions_played > 0 and report.result in {"win", "draw"}
        assert report.migrated_actions == len(rehearsal.actions)


@pytest.mark.parametrize("name", GAMES)
def test_every_version_a_migration_starts_from_has_rehearsals(name: str) -> None:
    definition = load(name)
    recorded = {path.parent.name for path in _discovered(name)}
    missing = sorted({step.from_version for step in definition.migrations} - recorded)
    assert not missing, (
        f"{name} declares migrations from {', '.join(missing)} without rehearsals of them in "
        f"{rehearsal_dir(name)}: record matches stopped mid-game under the old version "
        "(`tabletop rehearsal record MATCH_ID --name NAME`)"
    )
