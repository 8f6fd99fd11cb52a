"""The breaking-change guard, on a fixture game whose models each test changes.

The "dial" game is built from a :class:`Variant`; the baseline is exported first, then a changed
variant is exported over it. A change must come with the logic-version bump it needs, judged by
the direction its document travels: in a request (client -> server), major for anything an old
client sends that may be refused now, minor for what only widens it; in an output (server ->
clients: state, actions as recorded), major for anything an old, closed client may refuse or
misread (every added field, a widened value), minor for what only narrows it.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import types
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field, ValidationError, create_model
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
    Direction,
    SchemaExportError,
    SchemasOutOfDateError,
    check_schemas,
    committed_schemas,
    compare_exports,
    direction_of,
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
    speed_option: bool = False


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
    config: type[GameConfig] = DialConfig
    if variant.speed_option:
        config = create_model(
            "DialConfig",
            __base__=GameConfig,
            __doc__=DialConfig.__doc__,
            __module__=__name__,
            speed=(int, Field(default=1, ge=1, le=3, description="Notches per step.")),
        )
    return GameDefinition(
        name="dial",
        state_type=state,
        config_type=config,
        machine_states=Phase,
        initial_state=Phase.PLAY,
        action_types=variant.kinds,
        actions=[by_tag[str(kind)] for kind in kinds],
        handlers={Phase.PLAY: playing(), Phase.DONE: TerminalHandler()},
        logic_version=variant.version,
    )


BASELINE = Variant()

MAJOR, MINOR = ChangeLevel.MAJOR, ChangeLevel.MINOR
# name: (variant, the bump the whole change needs, a message it names, that message's level)
CHANGES = {
    # both directions (the action is sent as a request and recorded as an output)
    "field removed": (Variant(total=False), MAJOR, "DialState: field 'total' removed", MAJOR),
    "bound narrowed": (Variant(max_steps=3), MAJOR, "MoveRequest.steps: maximum changed from 6 to 3", MAJOR),
    "type narrowed": (
        Variant(nullable_label=False),
        MAJOR,
        "MoveRequest.label: no longer accepts null",
        MAJOR,
    ),
    "action type removed": (
        Variant(kinds=KindWithoutHint),
        MAJOR,
        "action type 'Hint' removed (major, request)",
        MAJOR,
    ),
    "bound widened": (Variant(max_steps=9), MAJOR, "Move.steps: maximum changed from 6 to 9", MAJOR),
    "action type added": (Variant(kinds=KindWithTempo), MAJOR, "action type 'Tempo' added (major", MAJOR),
    # outputs only: the server sends it, old clients read it
    "required field added": (Variant(bonus="required"), MAJOR, "required field 'bonus' added", MAJOR),
    "optional output field added": (Variant(bonus="optional"), MAJOR, "optional field 'bonus' added", MAJOR),
    "output enum value added": (
        Variant(moods=("calm", "angry", "sly", "bold")),
        MAJOR,
        'value "bold" added',
        MAJOR,
    ),
    "output enum value removed": (
        Variant(moods=("calm", "sly")),
        MINOR,
        'DialState.mood: value "angry" removed',
        MINOR,
    ),
    "output bound narrowed": (
        Variant(notches=10),
        MINOR,
        "Knob.notches: maximum changed from 12 to 10",
        MINOR,
    ),
    # requests only: old clients send it, the server reads it
    "optional request field added": (
        Variant(speed_option=True),
        MINOR,
        "optional field 'speed' added",
        MINOR,
    ),
}
NEEDS_A_BUMP = [name for name, (_, level, _, _) in CHANGES.items() if level is not ChangeLevel.PATCH]


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
    variant, level, message, message_level = CHANGES[name]
    changes = compare_exports(baseline, render_schemas([dial(variant)], producers=()))
    found = [change for change in changes if message in str(change)]
    assert found, f"{message!r} not among {[str(c) for c in changes]}"
    assert {change.level for change in found} == {message_level}
    assert max(changes, key=lambda c: ["patch", "minor", "major"].index(c.level)).level is level


@pytest.mark.parametrize("name", NEEDS_A_BUMP)
def test_an_export_without_the_needed_bump_is_refused_and_writes_nothing(root: Path, name: str) -> None:
    variant, level, message, message_level = CHANGES[name]
    before = _snapshot(root)
    with pytest.raises(BreakingChangeError, match="needs a") as caught:
        export_schemas(root, [dial(variant)], producers=())
    if message_level is level:
        assert message in str(caught.value)
    assert f"needs a {level} bump" in str(caught.value)
    assert "logic 1.0.0 -> 1.0.0" in str(caught.value)
    assert _snapshot(root) == before


@pytest.mark.parametrize("name", NEEDS_A_BUMP)
def test_the_needed_bump_lets_the_export_through(root: Path, name: str) -> None:
    variant, level, _, _ = CHANGES[name]
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
        "dial: DialState: field 'total' removed (major, output)",
        "dial: Move.steps: maximum changed from 6 to 3 (minor, output)",
        "dial: MoveRequest.steps: maximum changed from 6 to 3 (major, request)",
        "dial: action type 'Hint' removed (major, request)",
        "dial: action type 'Hint' removed (minor, output)",
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
    assert [str(change) for change in error.changes] == [
        "dial: DialState: field 'total' removed (major, output)"
    ]
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
    with pytest.raises(BreakingChangeError, match=r"optional field 'total' added \(major, output\)"):
        export_schemas(root, [dial(BASELINE)], producers=())
    with pytest.raises(SchemasOutOfDateError, match=r"optional field 'total' added \(major, output\)"):
        check_schemas(root, [dial(BASELINE)], producers=())
    export_schemas(root, [dial(replace(BASELINE, version="2.0.0"))], producers=())


@pytest.mark.parametrize(
    ("path", "direction"),
    [
        ("request.json", Direction.REQUEST),
        ("requests/Move.json", Direction.REQUEST),
        ("config.json", Direction.REQUEST),
        ("state.json", Direction.OUTPUT),
        ("player_state.json", Direction.OUTPUT),
        ("action.json", Direction.OUTPUT),
        ("actions/Move.json", Direction.OUTPUT),
        ("views/player.json", Direction.OUTPUT),
    ],
)
def test_each_document_is_judged_by_its_direction(path: str, direction: Direction) -> None:
    assert direction_of(path) is direction


def test_one_change_is_judged_per_direction(baseline: dict[str, bytes]) -> None:
    """Move's bound, narrowed: old clients may send what is refused now; reading it is harmless."""
    changes = compare_exports(baseline, render_schemas([dial(Variant(max_steps=3))], producers=()))
    judged = {(c.where, c.direction, c.level) for c in changes if c.where.endswith(".steps")}
    assert judged == {
        ("MoveRequest.steps", Direction.REQUEST, MAJOR),
        ("Move.steps", Direction.OUTPUT, MINOR),
    }
    widened = compare_exports(baseline, render_schemas([dial(Variant(max_steps=9))], producers=()))
    judged = {(c.where, c.direction, c.level) for c in widened if c.where.endswith(".steps")}
    assert judged == {
        ("MoveRequest.steps", Direction.REQUEST, MINOR),
        ("Move.steps", Direction.OUTPUT, MAJOR),
    }


def test_generated_output_models_refuse_what_the_guard_calls_major(
    baseline: dict[str, bytes], tmp_path: Path
) -> None:
    """The guard and the generated client agree: an old client refuses a new optional state field."""
    from tabletop.schemas import generate_python

    old_root = tmp_path / "old"
    for path, data in baseline.items():
        (old_root / path).parent.mkdir(parents=True, exist_ok=True)
        (old_root / path).write_bytes(data)
    generated = generate_python(tmp_path / "old_client", old_root)
    module = next(path for path in generated if path.name == "dial.py")
    spec = importlib.util.spec_from_file_location("old_dial_client", module)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded
    try:
        spec.loader.exec_module(loaded)
    finally:
        del sys.modules[spec.name]
    old_state = loaded.DialState
    assert isinstance(old_state, type) and issubclass(old_state, BaseModel)
    new_state = dial(Variant(bonus="optional")).state_type
    game = {"knob": {"notches": 1}, "players": [{"player_id": "p1"}], "id": "s", "game_id": "g"}
    sent = new_state.model_validate(game | {"prng": {"seed": 1}, "machine_state": "Play"})
    payload = sent.model_dump(mode="json")
    assert "bonus" in payload
    with pytest.raises(ValidationError):  # the old, closed client cannot read the new state
        old_state.model_validate(payload)
    changes = compare_exports(baseline, render_schemas([dial(Variant(bonus="optional"))], producers=()))
    assert [c.level for c in changes if "bonus" in c.message] == [MAJOR]
