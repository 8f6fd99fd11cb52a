"""Declared migrations: paths between logic versions, checked results, typed refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from tabletop import GameDefinition, GameDefinitionError, Migration, MigrationError
from tabletop.games import load
from tabletop.versions import (
    Document,
    load_rehearsal,
    migrate_action,
    migrate_state,
    migration_path,
    next_versions,
    parse_version,
)
from tabletop_fixtures.go_fish_2 import definition as go_fish_2
from tabletop_go_fish.definition.migrations import books_record_their_turn

GO_FISH = load("go-fish")
THREE_TO_FOUR, FOUR_TO_FIVE = GO_FISH.migrations[1:]
"""Go Fish's real steps from 3.0.0 to the installed 5.0.0 (the tests below vary the step before them)."""
REHEARSAL = (
    Path(__file__).resolve().parents[2] / "games/go-fish/tests/rehearsals/2.0.0/two-players-midgame.json"
)


def _old_state() -> Document:
    return load_rehearsal(REHEARSAL).state


def _books(state: Document) -> list[list[str]]:
    """The books of each player of a 2.0.0 state document (bare ranks)."""
    players: Any = state["players"]
    return [list(player["books"]) for player in players]


def _with(definition: GameDefinition, **changes: object) -> GameDefinition:  # type: ignore[type-arg]
    """A copy of ``definition`` with some arguments changed (a test double of a release)."""
    arguments: dict[str, object] = {
        "name": definition.name,
        "state_type": definition.state_type,
        "config_type": definition.config_type,
        "initial_state": definition.initial_state,
        "handlers": definition.handlers,
        "actions": definition.actions,
        "setup": definition.setup,
        "min_players": definition.min_players,
        "max_players": definition.max_players,
        "logic_version": definition.logic_version,
        "determinizer": definition.determinizer,
        "invariants": definition.invariants,
        "migrations": definition.migrations,
    }
    arguments.update(changes)
    return GameDefinition(**arguments)  # type: ignore[arg-type, type-var]


def _release(first: Migration) -> GameDefinition:  # type: ignore[type-arg]
    """Go Fish with ``first`` as its step from 2.0.0, then its real steps to 5.0.0."""
    return _with(GO_FISH, migrations=[first, THREE_TO_FOUR, FOUR_TO_FIVE])


def test_go_fish_declares_steps_from_2_to_3_to_4_to_5() -> None:
    assert [(s.from_version, s.to_version) for s in migration_path(GO_FISH, "2.0.0") or []] == [
        ("2.0.0", "3.0.0"),
        ("3.0.0", "4.0.0"),
        ("4.0.0", "5.0.0"),
    ]
    assert [(s.from_version, s.to_version) for s in migration_path(GO_FISH, "3.0.0") or []] == [
        ("3.0.0", "4.0.0"),
        ("4.0.0", "5.0.0"),
    ]
    assert [(s.from_version, s.to_version) for s in migration_path(GO_FISH, "4.0.0") or []] == [
        ("4.0.0", "5.0.0")
    ]
    assert FOUR_TO_FIVE.state is None and FOUR_TO_FIVE.action is None  # documents read as they are
    assert migration_path(GO_FISH, "5.0.0") == []
    assert migration_path(GO_FISH, "1.0.0") is None  # no step starts there
    assert migration_path(GO_FISH, "6.0.0") is None  # newer than installed: never downgraded


def test_a_2_0_0_state_migrates_to_books_with_unknown_turns_and_passes_the_invariants() -> None:
    old = _old_state()
    ranks = _books(old)
    state, path = migrate_state(GO_FISH, old, "2.0.0")
    assert len(path) == 3
    migrated = orjson.loads(state.model_dump_json())
    assert [player["books"] for player in migrated["players"]] == [
        [{"rank": rank, "turn": None} for rank in books] for books in ranks
    ]
    assert any(ranks)
    assert _books(old) == ranks  # the caller's document is untouched


def test_an_unknown_version_has_no_path_and_the_error_names_both_versions() -> None:
    with pytest.raises(MigrationError) as raised:
        migrate_state(GO_FISH, _old_state(), "1.4.0")
    assert raised.value.code == "logic-version-unavailable"
    assert "1.4.0" in raised.value.message and "5.0.0" in raised.value.message


def test_a_migration_that_raises_is_migration_failed() -> None:
    def broken(state: Document) -> Document:
        raise KeyError("books")

    release = _release(Migration("2.0.0", "3.0.0", state=broken))
    with pytest.raises(MigrationError) as raised:
        migrate_state(release, _old_state(), "2.0.0")
    assert raised.value.code == "migration-failed" and "KeyError" in raised.value.message


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        (lambda state: state, "books"),  # forgot the books: the schema refuses bare ranks
        (lambda state: {**books_record_their_turn(state), "deck": {"items": []}}, "nowhere"),  # lost cards
    ],
    ids=["schema", "invariants"],
)
def test_a_migration_whose_result_is_invalid_is_migration_invalid(step: object, problem: str) -> None:
    release = _release(Migration("2.0.0", "3.0.0", state=step))  # type: ignore[arg-type]
    with pytest.raises(MigrationError) as raised:
        migrate_state(release, _old_state(), "2.0.0")
    assert raised.value.code == "migration-invalid"
    assert any(problem in line for line in raised.value.problems), raised.value.problems


def test_an_older_patch_of_the_installed_minor_needs_no_declared_step() -> None:
    patched = _with(GO_FISH, logic_version="5.0.2")
    assert [(s.from_version, s.to_version) for s in migration_path(patched, "5.0.0") or []] == [
        ("5.0.0", "5.0.2")
    ]
    assert [s.to_version for s in migration_path(patched, "4.0.0") or []] == ["5.0.0", "5.0.2"]
    assert migration_path(patched, "5.0.3") is None  # a newer patch: never downgraded
    assert migration_path(_with(GO_FISH, logic_version="5.1.0"), "5.0.0") is None  # a minor needs its step


def test_steps_chain_in_order() -> None:
    seen: list[str] = []

    def step(name: str, inner: object = None) -> object:
        def run(state: Document) -> Document:
            seen.append(name)
            return books_record_their_turn(state) if inner else state

        return run

    release = _with(
        GO_FISH,
        logic_version="5.1.0",
        migrations=[
            Migration("5.0.0", "5.1.0", state=step("second")),  # type: ignore[arg-type]
            Migration("2.0.0", "3.0.0", state=step("first", True)),  # type: ignore[arg-type]
            THREE_TO_FOUR,
            FOUR_TO_FIVE,  # (no state function: nothing to run)
        ],
    )
    state, path = migrate_state(release, _old_state(), "2.0.0")
    assert (seen, [s.to_version for s in path]) == (
        ["first", "second"],
        ["3.0.0", "4.0.0", "5.0.0", "5.1.0"],
    )
    assert state.action_count > 0


def test_recorded_actions_migrate_along_the_steps_that_declare_it_and_are_checked() -> None:
    ask = next(a for a in load_rehearsal(REHEARSAL).actions if a["type"] == "Ask")

    def rename_target(action: Document) -> Document:
        return {**action, "target_player_id": "p2"}

    moved = migrate_action(
        GO_FISH, ask, [Migration("2.0.0", "3.0.0", state=books_record_their_turn, action=rename_target)]
    )
    assert moved["target_player_id"] == "p2" and moved["id"] == ask["id"]
    assert (
        migrate_action(
            GO_FISH, orjson.dumps(ask), [Migration("2.0.0", "3.0.0", state=books_record_their_turn)]
        )
        == ask
    )

    def breaks(action: Document) -> Document:
        return {**action, "rank": "eleven"}

    with pytest.raises(MigrationError) as raised:
        migrate_action(
            GO_FISH, ask, [Migration("2.0.0", "3.0.0", state=books_record_their_turn, action=breaks)]
        )
    assert raised.value.code == "migration-invalid" and any(
        line.startswith("rank") for line in raised.value.problems
    )


@pytest.mark.parametrize(
    ("migrations", "problem"),
    [
        (
            [Migration("2.0.0", "6.0.0", state=books_record_their_turn)],
            "leads past the installed logic version",
        ),
        ([Migration("3.0.0", "2.0.0", state=books_record_their_turn)], "does not lead to a later version"),
        ([Migration("2.0", "3.0.0", state=books_record_their_turn)], "is not MAJOR.MINOR.PATCH"),
        (
            [Migration("2.0.0", "3.0.0", state=books_record_their_turn)] * 2,
            "two migrations start from 2.0.0",
        ),
    ],
)
def test_the_definition_names_every_bad_migration(migrations: list[Migration], problem: str) -> None:
    with pytest.raises(GameDefinitionError) as raised:
        _with(GO_FISH, migrations=migrations)
    assert any(problem in line for line in raised.value.problems), raised.value.problems


def test_a_frozen_copy_must_be_an_earlier_version_of_the_same_game() -> None:
    kept = _with(GO_FISH, frozen_versions=[go_fish_2])
    assert kept.frozen_versions == {"2.0.0": go_fish_2}
    with pytest.raises(GameDefinitionError) as raised:
        _with(GO_FISH, frozen_versions=[load("tic-tac-toe")])
    assert any("of another game" in line for line in raised.value.problems)


def test_versions_parse_and_name_the_next_bumps() -> None:
    assert parse_version("2.10.1") == (2, 10, 1)
    assert next_versions("2.10.1") == ("2.11.0", "3.0.0")
    with pytest.raises(ValueError, match=r"MAJOR\.MINOR\.PATCH"):
        parse_version("v2")


def test_the_package_example_runs() -> None:
    import doctest

    import tabletop.versions

    failures, tried = doctest.testmod(tabletop.versions)
    assert (failures, tried > 0) == (0, True)
