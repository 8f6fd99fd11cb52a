"""The breaking-change guard, on a fixture game whose models each test changes.

The "dial" game is built from a :class:`Variant`; the baseline is exported first, then a changed
variant is exported over it. A change must come with the logic-version bump it needs: major for
anything that can make a valid payload invalid, at least minor for additions.
"""

from __future__ import annotations

import subprocess
import types
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field, create_model
from tabletop import (
    AnyState,
    GameAction,
    GameConfig,
    GameDefinition,
    GameState,
    HydratedAction,
    Model,
    PlayerState,
    StateHandler,
    TerminalHandler,
)
from tabletop.schemas import (
    BreakingChangeError,
    ChangeLevel,
    SchemaExportError,
    SchemasOutOfDateError,
    check_schemas,
    committed_schemas,
    compare_exports,
    export_schemas,
    render_schemas,
)

AnyDefinition = GameDefinition[AnyState, GameConfig]


class Phase(StrEnum):
    PLAY = "Play"
    DONE = "Done"


class Kind(StrEnum):
    MOVE = "Move"
    HINT = "Hint"


class KindWithoutHint(StrEnum):
    MOVE = "Move"


class KindWithTempo(StrEnum):
    MOVE = "Move"
    HINT = "Hint"
    TEMPO = "Tempo"


class DialConfig(GameConfig):
    """The dial's options."""


class DialPlayer(PlayerState):
    """A seat at the dial."""


def knob(notches: int) -> type[BaseModel]:
    """The dial's knob, a nested model (referenced from the state through a described field)."""
    return create_model(
        "Knob",
        __base__=Model,
        __doc__="The dial's knob.",
        __module__=__name__,
        notches=(int, Field(default=1, ge=1, le=notches, description="How many notches.")),
    )


@dataclass(frozen=True)
class Variant:
    """One version of the dial game's models."""

    version: str = "1.0.0"
    total: bool = True
    bonus: Literal["absent", "optional", "required"] = "absent"
    max_steps: int = 6
    nullable_label: bool = True
    moods: tuple[str, ...] = ("calm", "angry", "sly")
    kinds: type[StrEnum] = Kind
    notches: int = 12
    state_doc: str = "The dial's state."


def _action(tag: str, doc: str, **fields: object) -> type[HydratedAction[GameAction, AnyState, GameConfig]]:
    plain: type[BaseModel] = create_model(  # type: ignore[call-overload]
        tag,
        __base__=GameAction,
        __doc__=doc,
        __module__=__name__,
        type=(Literal.__getitem__(tag), Field(default=tag, description="The tag.")),
        player_id=(str, Field(description="Who acts.")),
        **fields,
    )
    bases = (plain, HydratedAction[plain, AnyState, GameConfig])
    return types.new_class(f"Hydrated{tag}", bases, exec_body=lambda ns: ns.update(__module__=__name__))


def dial(variant: Variant) -> AnyDefinition:
    """Assemble the dial game as ``variant`` describes it."""
    state_fields: dict[str, object] = {
        "mood": (Literal.__getitem__(variant.moods), Field(default="calm", description="The mood.")),
        "knob": (knob(variant.notches), Field(description="The knob.")),
    }
    if variant.total:
        state_fields["total"] = (int, Field(default=0, description="Where the dial points."))
    if variant.bonus != "absent":
        optional = variant.bonus == "optional"
        bonus = (
            Field(default=0, description="Extra points.") if optional else Field(description="Extra points.")
        )
        state_fields["bonus"] = (int, bonus)
    state = create_model(  # type: ignore[call-overload]
        "DialState",
        __base__=GameState[DialPlayer, Phase],
        __doc__=variant.state_doc,
        __module__=__name__,
        **state_fields,
    )
    label = (str | None, None) if variant.nullable_label else (str, "")
    move = _action(
        "Move",
        "Turn the dial.",
        steps=(int, Field(ge=1, le=variant.max_steps, description="How far.")),
        label=(label[0], Field(default=label[1], description="A note.")),
    )
    hint, tempo = _action("Hint", "Ask for a hint."), _action("Tempo", "Speed up.")
    by_tag = {"Move": move, "Hint": hint, "Tempo": tempo}
    kinds = list(variant.kinds)
    playing = type(
        "Playing", (StateHandler,), {"accepts": tuple(kinds), "transitions_to": (Phase.PLAY, Phase.DONE)}
    )
    return GameDefinition(
        name="dial",
        state_type=state,
        config_type=DialConfig,
        machine_states=Phase,
        initial_state=Phase.PLAY,
        action_types=variant.kinds,
        actions=[by_tag[str(kind)] for kind in kinds],
        handlers={Phase.PLAY: playing(), Phase.DONE: TerminalHandler()},
        logic_version=variant.version,
    )


BASELINE = Variant()

MAJOR, MINOR = ChangeLevel.MAJOR, ChangeLevel.MINOR
CHANGES = {
    "field removed": (Variant(total=False), MAJOR, "DialState: field 'total' removed"),
    "bound narrowed": (Variant(max_steps=3), MAJOR, "Move.steps: maximum changed from 6 to 3"),
    "nested bound narrowed": (Variant(notches=10), MAJOR, "Knob.notches: maximum changed from 12 to 10"),
    "type narrowed": (Variant(nullable_label=False), MAJOR, "Move.label: no longer accepts null"),
    "enum value removed": (Variant(moods=("calm", "sly")), MAJOR, 'DialState.mood: value "angry" removed'),
    "action type removed": (Variant(kinds=KindWithoutHint), MAJOR, "action type 'Hint' removed"),
    "required field added": (Variant(bonus="required"), MAJOR, "required field 'bonus' added"),
    "optional field added": (Variant(bonus="optional"), MINOR, "optional field 'bonus' added"),
    "action type added": (Variant(kinds=KindWithTempo), MINOR, "action type 'Tempo' added"),
    "bound widened": (Variant(max_steps=9), MINOR, "Move.steps: maximum changed from 6 to 9"),
    "enum value added": (Variant(moods=("calm", "angry", "sly", "bold")), MINOR, 'value "bold" added'),
}
NEEDS_A_BUMP = [name for name, (_, level, _) in CHANGES.items() if level is not ChangeLevel.PATCH]


@pytest.fixture(scope="module")
def baseline() -> dict[str, bytes]:
    """The baseline dial export, rendered once."""
    return render_schemas([dial(BASELINE)], producers=())


@pytest.fixture
def root(tmp_path: Path, baseline: dict[str, bytes]) -> Path:
    """A schemas folder holding the baseline dial export."""
    for path, data in baseline.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    return tmp_path


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.json"))}


@pytest.mark.parametrize("name", list(CHANGES))
def test_compare_exports_names_each_change_with_the_bump_it_needs(
    baseline: dict[str, bytes], name: str
) -> None:
    variant, level, message = CHANGES[name]
    changes = compare_exports(baseline, render_schemas([dial(variant)], producers=()))
    found = [change for change in changes if message in str(change)]
    assert found, f"{message!r} not among {[str(c) for c in changes]}"
    assert {change.level for change in found} == {level}
    assert max(changes, key=lambda c: ["patch", "minor", "major"].index(c.level)).level is level


@pytest.mark.parametrize("name", NEEDS_A_BUMP)
def test_an_export_without_the_needed_bump_is_refused_and_writes_nothing(root: Path, name: str) -> None:
    variant, level, message = CHANGES[name]
    before = _snapshot(root)
    with pytest.raises(BreakingChangeError, match="needs a") as caught:
        export_schemas(root, [dial(variant)], producers=())
    assert message in str(caught.value)
    assert f"needs a {level} bump" in str(caught.value)
    assert "logic 1.0.0 -> 1.0.0" in str(caught.value)
    assert _snapshot(root) == before


@pytest.mark.parametrize("name", NEEDS_A_BUMP)
def test_the_needed_bump_lets_the_export_through(root: Path, name: str) -> None:
    variant, level, _ = CHANGES[name]
    bumped = replace(variant, version="2.0.0" if level is ChangeLevel.MAJOR else "1.1.0")
    files = export_schemas(root, [dial(bumped)], producers=())
    assert _snapshot(root) == files
    assert b'"logic_version": "%s"' % bumped.version.encode() in files["index.json"]


def test_a_minor_bump_is_not_enough_for_a_breaking_change(root: Path) -> None:
    with pytest.raises(BreakingChangeError, match=r"field 'total' removed.*needs a major bump"):
        export_schemas(root, [dial(Variant(total=False, version="1.1.0"))], producers=())


def test_a_description_change_needs_no_bump(root: Path) -> None:
    variant = Variant(state_doc="The dial's whole state.")
    changes = compare_exports(_snapshot(root), render_schemas([dial(variant)], producers=()))
    assert [(c.where, c.message, c.level) for c in changes] == [
        ("DialState", "description changed", ChangeLevel.PATCH)
    ]
    export_schemas(root, [dial(variant)], producers=())
    check_schemas(root, [dial(variant)], producers=())


def test_several_changes_are_all_named_once(root: Path) -> None:
    variant = Variant(total=False, max_steps=3, kinds=KindWithoutHint)
    with pytest.raises(BreakingChangeError) as caught:
        export_schemas(root, [dial(variant)], producers=())
    text = str(caught.value)
    for message in (
        "dial: DialState: field 'total' removed",
        "dial: Move.steps: maximum changed from 6 to 3",
        "dial: MoveRequest.steps: maximum changed from 6 to 3",
        "dial: action type 'Hint' removed",
    ):
        assert text.count(message) == 1, text


def test_a_version_going_down_is_refused(root: Path) -> None:
    with pytest.raises(BreakingChangeError, match=r"logic version went down \(logic 1.0.0 -> 0.9.0\)"):
        export_schemas(root, [dial(Variant(version="0.9.0"))], producers=())


def test_a_version_that_is_not_semantic_is_an_error(root: Path) -> None:
    with pytest.raises(SchemaExportError, match=r"'v2' is not MAJOR\.MINOR\.PATCH"):
        export_schemas(root, [dial(Variant(version="v2"))], producers=())


def test_check_names_stale_files_and_the_bumps_they_need(root: Path) -> None:
    with pytest.raises(SchemasOutOfDateError) as caught:
        check_schemas(root, [dial(Variant(total=False))], producers=())
    error = caught.value
    assert "dial/state.json differs" in error.files
    assert [str(change) for change in error.changes] == ["dial: DialState: field 'total' removed (major)"]
    assert "tabletop schemas export" in str(error)


def test_a_new_game_needs_no_bump_and_a_removed_one_is_not_a_change(root: Path) -> None:
    from tabletop.games import load

    both = export_schemas(root, [dial(BASELINE), load("sample")], producers=())
    assert "sample/state.json" in both
    assert compare_exports(both, render_schemas([dial(BASELINE)], producers=())) == []


def _git(repo: Path, *args: str) -> None:
    identity = ("-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false")
    subprocess.run(["git", *identity, "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git work tree with a first commit that holds no schemas yet."""
    _git(tmp_path, "init", "--quiet")
    (tmp_path / "README.md").write_text("a game repository\n")
    _git(tmp_path, "add", "README.md")
    _git(tmp_path, "commit", "--quiet", "-m", "start")
    return tmp_path


def test_in_a_git_work_tree_the_guard_compares_with_the_committed_export(repo: Path) -> None:
    root = repo / "schemas"
    export_schemas(root, [dial(BASELINE)], producers=())
    assert committed_schemas(root) == {}
    changed = Variant(total=False)
    export_schemas(root, [dial(changed)], producers=())  # never committed: free to change
    _git(repo, "add", "schemas")
    _git(repo, "commit", "--quiet", "-m", "schemas")
    assert committed_schemas(root) == _snapshot(root)
    with pytest.raises(BreakingChangeError, match=r"optional field 'total' added \(minor\)"):
        export_schemas(root, [dial(BASELINE)], producers=())
    with pytest.raises(SchemasOutOfDateError, match=r"optional field 'total' added \(minor\)"):
        check_schemas(root, [dial(BASELINE)], producers=())
    export_schemas(root, [dial(replace(BASELINE, version="1.1.0"))], producers=())
