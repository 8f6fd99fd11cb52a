"""The export: which files, their shape conventions, determinism, the index, and the check."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Generic, Literal, TypeVar, cast

import pytest
from pydantic import BaseModel, Field
from tabletop import ActionParser, AnyState, GameConfig, GameDefinition, IllegalActionError, Model
from tabletop.games import available, load
from tabletop.schemas import (
    SERVER_ASSIGNED_FIELDS,
    DocumentProducer,
    SchemaExportError,
    SchemasOutOfDateError,
    check_schemas,
    export_schemas,
    register_document_producer,
    render_schemas,
)
from tabletop.schemas import _documents as documents_module

Json = object
AnyDefinition = GameDefinition[AnyState, GameConfig]


def _nodes(node: Json, path: str = "") -> Iterator[tuple[str, dict[str, Json]]]:
    """Every schema object inside a document, with a readable path."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _nodes(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _nodes(value, f"{path}/{index}")


def _documents(files: Mapping[str, bytes]) -> dict[str, dict[str, Json]]:
    return {path: json.loads(data) for path, data in files.items() if path != "index.json"}


def test_every_installed_game_exports_its_documents(exported: dict[str, bytes]) -> None:
    for name in available():
        definition = load(name)
        expected = {"state", "player_state", "config", "action", "request"}
        expected |= {f"actions/{tag}" for tag in definition.action_by_type}
        expected |= {f"requests/{tag}" for tag in definition.parser.player_types}
        produced = {
            path.removeprefix(f"{name}/").removesuffix(".json")
            for path in exported
            if path.startswith(f"{name}/")
        }
        assert expected <= produced, expected - produced
    common = {path for path in exported if path.startswith("common/")}
    assert common == {f"common/{n}.json" for n in ("game", "game_action", "game_state", "player_state")}


def test_the_index_pins_every_file_by_digest_and_each_game_by_logic_version(
    exported: dict[str, bytes],
) -> None:
    index = json.loads(exported["index.json"])
    listed = dict(index["common"]["files"])
    for name in available():
        assert index["games"][name]["logic_version"] == load(name).logic_version
        listed |= index["games"][name]["files"]
    assert set(listed) == set(exported) - {"index.json"}
    for path, digest in listed.items():
        assert hashlib.sha256(exported[path]).hexdigest() == digest, path


def test_output_is_canonical_and_deterministic(exported: dict[str, bytes]) -> None:
    assert render_schemas() == exported
    for path, data in exported.items():
        assert data.endswith(b"\n") and not data.endswith(b"\n\n"), path
        canonical = json.dumps(json.loads(data), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        assert data.decode() == canonical, path


def test_every_model_is_closed_and_fields_carry_no_title(exported: dict[str, bytes]) -> None:
    for path, document in _documents(exported).items():
        for where, node in _nodes(document):
            if "properties" in node:
                assert node.get("additionalProperties") is False, f"{path}{where} is open"
                for name, field in cast(dict[str, dict[str, Json]], node["properties"]).items():
                    assert "title" not in field, f"{path}{where}/properties/{name} has a title"
            if "$ref" in node:
                assert set(node) == {"$ref"}, (
                    f"{path}{where}: keywords beside $ref make generators invent types"
                )
            title = node.get("title")
            assert not (isinstance(title, str) and title.startswith("Hydrated")), f"{path}{where}: {title}"


def test_every_field_has_a_description(exported: dict[str, bytes]) -> None:
    missing = [
        f"{path}{where}/{name}"
        for path, document in _documents(exported).items()
        for where, node in _nodes(document)
        for name, field in cast(dict[str, dict[str, Json]], node.get("properties", {})).items()
        if not field.get("description")
    ]
    assert not missing, missing


@pytest.mark.parametrize("game", available())
def test_actions_are_a_discriminated_union_with_required_tags(game: str, exported: dict[str, bytes]) -> None:
    definition = load(game)
    for union_path, folder in (("action", "actions"), ("request", "requests")):
        union = json.loads(exported[f"{game}/{union_path}.json"])
        mapping = union["discriminator"]["mapping"]
        assert union["discriminator"]["propertyName"] == "type"
        # Requests: only the action types a player may send (system-only ones are the game's).
        sendable = definition.action_by_type if union_path == "action" else definition.parser.player_types
        assert set(mapping) == set(sendable)
        assert [branch["$ref"] for branch in union["oneOf"]] == list(mapping.values())
        for tag, ref in mapping.items():
            branch = union["$defs"][ref.rsplit("/", 1)[-1]]
            single = json.loads(exported[f"{game}/{folder}/{tag}.json"])
            assert {k: v for k, v in single.items() if k != "$defs"} == branch
            assert branch["properties"]["type"] == {
                "const": tag,
                "description": branch["properties"]["type"]["description"],
                "type": "string",
            }
            assert "type" in branch["required"]


@pytest.mark.parametrize("game", available())
def test_request_bodies_leave_out_server_assigned_fields(game: str, exported: dict[str, bytes]) -> None:
    definition = load(game)
    for tag, action in definition.action_by_type.items():
        if tag not in definition.parser.player_types:
            assert f"{game}/requests/{tag}.json" not in exported  # system-only: never a request
            continue
        request = json.loads(exported[f"{game}/requests/{tag}.json"])
        recorded = json.loads(exported[f"{game}/actions/{tag}.json"])
        assert request["title"] == f"{recorded['title']}Request"
        assert set(request["properties"]) == set(recorded["properties"]) - SERVER_ASSIGNED_FIELDS
        assert {"id", "game_id", "type"} <= set(request["required"])
        assert set(action.model_fields) >= set(request["properties"])


@pytest.mark.parametrize("game", available())
def test_enums_are_exported_by_value(game: str, exported: dict[str, bytes]) -> None:
    definition = load(game)
    state = json.loads(exported[f"{game}/state.json"])
    machine = state["$defs"][definition.machine_states.__name__]
    assert machine["enum"] == [member.value for member in definition.machine_states]
    assert state["title"] == definition.state_type.__plain_model__.__name__  # type: ignore[attr-defined]


def test_export_then_check_passes_and_a_stale_file_is_named(tmp_path: Path) -> None:
    export_schemas(tmp_path)
    check_schemas(tmp_path)
    (tmp_path / "sample" / "state.json").write_text("{}\n")
    (tmp_path / "sample" / "config.json").unlink()
    with pytest.raises(SchemasOutOfDateError) as caught:
        check_schemas(tmp_path)
    assert caught.value.files == ("sample/config.json is missing", "sample/state.json differs")
    export_schemas(tmp_path)
    check_schemas(tmp_path)


def test_files_of_a_game_no_longer_exported_are_reported_and_then_removed(tmp_path: Path) -> None:
    export_schemas(tmp_path)
    sample_only = [load("sample")]
    with pytest.raises(SchemasOutOfDateError) as caught:
        check_schemas(tmp_path, sample_only)
    others = [name for name in available() if name != "sample"]
    assert all(any(line.startswith(f"{name}/") for line in caught.value.files) for name in others)
    export_schemas(tmp_path, sample_only)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["common", "index.json", "sample"]
    check_schemas(tmp_path, sample_only)


class SpectatorView(Model):
    """What a spectator sees of the sample game."""

    total: int = Field(ge=0)
    """The shared total."""


def _views(definition: AnyDefinition) -> dict[str, type[BaseModel]]:
    return {"views/spectator.json": SpectatorView} if definition.name == "sample" else {}


def test_a_producer_adds_documents_that_are_indexed_and_checked(tmp_path: Path) -> None:
    files = export_schemas(tmp_path, [load("sample")], producers=[_views])
    view = json.loads(files["sample/views/spectator.json"])
    assert view["title"] == "SpectatorView"
    assert view["properties"]["total"] == {
        "description": "The shared total.",
        "minimum": 0,
        "type": "integer",
    }
    assert "sample/views/spectator.json" in json.loads(files["index.json"])["games"]["sample"]["files"]
    with pytest.raises(SchemasOutOfDateError, match=r"sample/views/spectator\.json is no longer exported"):
        check_schemas(tmp_path, [load("sample")], producers=[])


def test_registered_producers_run_on_every_export(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(documents_module, "_PRODUCERS", [])
    producer: DocumentProducer = register_document_producer(_views)
    assert producer is _views
    assert "sample/views/spectator.json" in render_schemas([load("sample")])


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ("state.json", "clashes with a built-in"),
        ("actions/Extra.json", "clashes"),
        ("../escape.json", "must be a relative"),
    ],
)
def test_a_producer_cannot_replace_built_in_documents_or_escape(path: str, problem: str) -> None:
    def producer(definition: AnyDefinition) -> dict[str, type[BaseModel]]:
        return {path: SpectatorView}

    with pytest.raises(SchemaExportError, match=problem):
        render_schemas([load("sample")], producers=[producer])


def test_a_hydrated_class_inside_an_exported_model_is_refused() -> None:
    hydrated_state = load("sample").state_type

    class Leaky(Model):
        """A view that embeds a hydrated state by mistake."""

        state: hydrated_state  # type: ignore[valid-type]
        """The state."""

    def producer(definition: AnyDefinition) -> dict[str, type[BaseModel]]:
        return {"views/leaky.json": Leaky}

    with pytest.raises(SchemaExportError, match="HydratedSampleGameState is a hydrated class"):
        render_schemas([load("sample")], producers=[producer])


def test_one_name_for_two_different_schemas_is_refused() -> None:
    class Turn(Model):
        """Not the turn manager's Turn."""

        kind: Literal["other"] = "other"
        """Which kind."""

    class Holder(Model):
        """Holds the other Turn."""

        turn: Turn
        """The other turn."""

    def producer(definition: AnyDefinition) -> dict[str, type[BaseModel]]:
        return {"views/holder.json": Holder}

    with pytest.raises(SchemaExportError, match="'Turn' means another schema"):
        render_schemas([load("sample")], producers=[producer])


def test_the_public_surface_is_explicit() -> None:
    import tabletop.schemas

    exported = tabletop.schemas.__all__
    assert len(set(exported)) == len(exported)
    assert all(hasattr(tabletop.schemas, name) for name in exported)


PairT = TypeVar("PairT")


class Pair(Model, Generic[PairT]):
    """Two values of one kind."""

    left: PairT
    """The first value."""
    right: PairT
    """The second value."""


class Pairs(Model):
    """Holds two parametrizations of one generic model."""

    numbers: Pair[int]
    """Two numbers."""
    names: Pair[str] | None = None
    """Two names, if any."""


def test_a_parametrized_generic_gets_one_stable_generator_friendly_name() -> None:
    def producer(definition: AnyDefinition) -> dict[str, type[BaseModel]]:
        return {"views/pairs.json": Pairs}

    files = render_schemas([load("sample")], producers=[producer])
    document = json.loads(files["sample/views/pairs.json"])
    assert {key: value["title"] for key, value in document["$defs"].items()} == {
        "PairInt": "PairInt",
        "PairStr": "PairStr",
    }
    assert document["$defs"]["PairInt"]["description"] == "Two values of one kind."
    assert document["properties"]["numbers"]["allOf"] == [{"$ref": "#/$defs/PairInt"}]


def test_the_engine_requires_the_tag_the_schema_requires_even_for_a_single_action() -> None:
    action = load("sample").action_by_type["Pass"]
    parser = ActionParser([action])
    with pytest.raises(IllegalActionError) as caught:
        parser.parse({"id": "a1", "game_id": "game-1", "player_id": "p1"})
    assert caught.value.code == "missing-action-type"
    assert parser.parse({"id": "a1", "game_id": "game-1", "player_id": "p1", "type": "Pass"}).type == "Pass"
