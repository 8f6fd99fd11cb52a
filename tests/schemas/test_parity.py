"""Parity: the generated Python models judge payloads exactly as the source models do.

For every installed game and every exported document, a corpus of payloads recorded from seeded
random playouts (plus each one stripped to its required fields) must be accepted by the source
model, by the generated model and by the JSON Schema itself, and come back as identical JSON;
schema-guided mutations of them (wrong tag, missing field, extra field, nested extra field, value
out of range, wrong type, null) must be rejected by all three.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Annotated, Union, cast

import orjson
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from tabletop import AnyState, GameConfig, GameDefinition
from tabletop.games import available, load
from tabletop.schemas import Recording, record_playout, request_model
from tabletop.schemas._codegen import module_name

AnyDefinition = GameDefinition[AnyState, GameConfig]
Json = object
Path_ = tuple[str | int, ...]
SEEDS = (1, 2)


@dataclass(frozen=True)
class Case:
    """One payload and whether it is valid."""

    name: str
    payload: Json
    valid: bool
    recorded: bool = False


@dataclass(frozen=True)
class Target:
    """One exported document: how the source models read it."""

    path: str
    validate: Callable[[Json], Json]
    payloads: Sequence[Json]
    tag_has_a_default: bool = False


def _dump(model: BaseModel) -> Json:
    return model.model_dump(mode="json", by_alias=True)


def _model_reader(model: type[BaseModel]) -> Callable[[Json], Json]:
    return lambda payload: _dump(model.model_validate(payload))


def _union_reader(validate: Callable[[Json], BaseModel]) -> Callable[[Json], Json]:
    return lambda payload: _dump(validate(payload))


def _targets(definition: AnyDefinition, recordings: list[Recording]) -> list[Target]:
    states = [state for recording in recordings for state in recording.states]
    states = [*states[:: max(1, len(states) // 6)], recordings[0].states[-1]]
    actions = [action for recording in recordings for action in recording.actions]
    requests = [request for recording in recordings for request in recording.requests]
    stamped = [{**action, "created_at": "2024-05-01T12:00:00Z"} for action in actions[:1]]
    grouped = [{**request, "simultaneous_group_id": "round-1"} for request in requests[:1]]
    plain_actions = {tag: action.__plain_model__ for tag, action in definition.action_by_type.items()}
    requests_by_tag = {tag: request_model(plain_actions[tag]) for tag in definition.parser.player_types}
    request_union: object = (
        next(iter(requests_by_tag.values()))
        if len(requests_by_tag) == 1
        else Annotated[Union[tuple(requests_by_tag.values())], Field(discriminator="type")]  # noqa: UP007
    )
    targets = [
        Target("state.json", _model_reader(definition.state_type.__plain_model__), states),  # type: ignore[attr-defined]
        Target(
            "player_state.json",
            _model_reader(definition.player_state_type),
            [
                player
                for state in states[:3]
                for player in cast(list[Json], cast(dict[str, Json], state)["players"])
            ],
        ),
        Target("config.json", _model_reader(definition.config_type), [recordings[0].config]),
        Target("action.json", _union_reader(definition.parser.adapter.validate_python), [*actions, *stamped]),
        Target(
            "request.json",
            _union_reader(TypeAdapter(cast(type[BaseModel], request_union)).validate_python),
            [*requests, *grouped],
        ),
    ]
    for tag, plain in plain_actions.items():
        of_tag = [action for action in actions if cast(dict[str, Json], action)["type"] == tag]
        targets.append(
            Target(f"actions/{tag}.json", _model_reader(plain), of_tag[:5], tag_has_a_default=True)
        )
        if tag in requests_by_tag:
            of_tag = [request for request in requests if cast(dict[str, Json], request)["type"] == tag]
            targets.append(Target(f"requests/{tag}.json", _model_reader(requests_by_tag[tag]), of_tag[:5]))
    return targets


# -- schema-guided mutations ---------------------------------------------------------------------


def _resolve(schema: dict[str, Json], defs: dict[str, Json]) -> dict[str, Json]:
    while True:
        if "$ref" in schema:
            schema = cast(dict[str, Json], defs[str(schema["$ref"]).rsplit("/", 1)[-1]])
        elif isinstance(schema.get("allOf"), list) and len(cast(list[Json], schema["allOf"])) == 1:
            schema = cast(list[dict[str, Json]], schema["allOf"])[0]
        else:
            return schema


def _describing(schema: dict[str, Json], value: Json, defs: dict[str, Json]) -> dict[str, Json]:
    """The branch of ``schema`` that describes ``value``."""
    schema = _resolve(schema, defs)
    branches = schema.get("oneOf", schema.get("anyOf"))
    if not isinstance(branches, list):
        return schema
    for branch in branches:
        resolved = _resolve(branch, defs)
        if (value is None) == (resolved.get("type") == "null"):
            tag = cast(dict[str, Json], resolved.get("properties", {})).get("type")
            if isinstance(value, dict) and isinstance(tag, dict) and tag.get("const") != value.get("type"):
                continue
            return resolved
    return schema


def _walk(
    value: Json, schema: dict[str, Json], defs: dict[str, Json], path: Path_ = ()
) -> Iterator[tuple[Path_, Json, dict[str, Json]]]:
    described = _describing(schema, value, defs)
    yield path, value, described
    properties = cast(dict[str, dict[str, Json]], described.get("properties", {}))
    extra = described.get("additionalProperties")
    if isinstance(value, dict):
        for key, child in value.items():
            child_schema = properties.get(key, extra if isinstance(extra, dict) else None)
            if child_schema is not None:
                yield from _walk(child, child_schema, defs, (*path, key))
    elif isinstance(value, list) and isinstance(described.get("items"), dict):
        for index, child in enumerate(value):
            yield from _walk(child, cast(dict[str, Json], described["items"]), defs, (*path, index))


def _set(payload: Json, path: Path_, value: Json) -> Json:
    changed = copy.deepcopy(payload)
    node = changed
    for part in path[:-1]:
        node = node[part]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    return changed


def _nullable(schema: dict[str, Json]) -> bool:
    kinds = schema.get("type")
    return kinds == "null" or (isinstance(kinds, list) and "null" in kinds) or "anyOf" in schema


def mutations(payload: Json, document: dict[str, Json], *, tag_has_a_default: bool) -> Iterator[Case]:
    """Invalid variants of a valid payload, found by walking it along its schema."""
    defs = cast(dict[str, Json], document.get("$defs", {}))
    nodes = list(_walk(payload, document, defs))
    root = nodes[0][2]
    assert isinstance(payload, dict)
    if "type" in payload:
        yield Case("wrong tag", {**payload, "type": "NoSuchAction"}, valid=False)
    for name in cast(list[str], root.get("required", [])):
        if name == "type" and tag_has_a_default:
            continue  # the plain model defaults its tag; the exported schema requires it on purpose
        yield Case(f"missing {name}", {k: v for k, v in payload.items() if k != name}, valid=False)
    yield Case("extra field", {**payload, "unexpected_field": 1}, valid=False)
    found: set[str] = set()
    for path, value, schema in nodes[1:]:
        where = ".".join(map(str, path))
        if (
            "nested extra" not in found
            and isinstance(value, dict)
            and schema.get("additionalProperties") is False
        ):
            found.add("nested extra")
            yield Case(
                f"nested extra field in {where}", _set(payload, path, {**value, "unexpected": 1}), valid=False
            )
        if isinstance(value, int) and not isinstance(value, bool):
            for bound, step in (("minimum", -1), ("maximum", 1)):
                if bound not in found and isinstance(schema.get(bound), int):
                    found.add(bound)
                    out_of_range = cast(int, schema[bound]) + step
                    yield Case(f"{where} {bound} {step:+}", _set(payload, path, out_of_range), valid=False)
            if "int" not in found:
                found.add("int")
                yield Case(f"{where} not a number", _set(payload, path, "not-a-number"), valid=False)
        if isinstance(value, str) and "str" not in found and "enum" not in schema and "const" not in schema:
            found.add("str")
            yield Case(f"{where} not a string", _set(payload, path, ["not", "a", "string"]), valid=False)
        if len(path) == 1 and value is not None and "null" not in found and not _nullable(schema):
            found.add("null")
            yield Case(f"{where} null", _set(payload, path, None), valid=False)


def minimal(payload: Json, document: dict[str, Json]) -> Json:
    """The payload with every optional top-level field left out (so defaults fill them in)."""
    assert isinstance(payload, dict)
    defs = cast(dict[str, Json], document.get("$defs", {}))
    required = set(cast(list[str], _describing(document, payload, defs).get("required", [])))
    return {key: value for key, value in payload.items() if key in required}


# -- the test ------------------------------------------------------------------------------------


def _verdict(read: Callable[[Json], Json], payload: Json) -> Json | ValidationError:
    try:
        return read(payload)
    except ValidationError as error:
        return error


def _canonical(value: Json) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _recordings(definition: AnyDefinition) -> list[Recording]:
    return [record_playout(definition, seed=seed, max_actions=40) for seed in SEEDS]


@pytest.mark.parametrize("game", available())
def test_generated_models_agree_with_the_source_models(
    game: str, exported: dict[str, bytes], client: dict[str, ModuleType]
) -> None:
    definition = load(game)
    module = client[module_name(game)]
    problems: list[str] = []
    counts = {"valid": 0, "invalid": 0}
    for target in _targets(definition, _recordings(definition)):
        document = json.loads(exported[f"{game}/{target.path}"])
        generated = getattr(module, document["title"])
        assert isinstance(generated, type) and issubclass(generated, BaseModel)
        validator = Draft202012Validator(document)
        cases = [
            Case(f"recorded #{i}", payload, valid=True, recorded=True)
            for i, payload in enumerate(target.payloads)
        ]
        if target.payloads:
            first = target.payloads[0]
            cases.append(Case("required fields only", minimal(first, document), valid=True))
            cases += mutations(first, document, tag_has_a_default=target.tag_has_a_default)
        for case in cases:
            label = f"{target.path} [{case.name}]"
            source = _verdict(target.validate, case.payload)
            mirror = _verdict(_model_reader(generated), case.payload)
            schema_says = validator.is_valid(case.payload)
            counts["valid" if case.valid else "invalid"] += 1
            if case.valid:
                if (
                    isinstance(source, ValidationError)
                    or isinstance(mirror, ValidationError)
                    or not schema_says
                ):
                    problems.append(
                        f"{label}: source {source!r:.200}, generated {mirror!r:.200}, schema {schema_says}"
                    )
                elif _canonical(source) != _canonical(mirror):
                    problems.append(
                        f"{label}: round trip differs:\n  {_canonical(source)!r}\n  {_canonical(mirror)!r}"
                    )
                elif case.recorded and _canonical(mirror) != _canonical(case.payload):
                    problems.append(f"{label}: the generated model changed the payload")
            elif not (
                isinstance(source, ValidationError)
                and isinstance(mirror, ValidationError)
                and not schema_says
            ):
                accepted = [
                    n
                    for n, ok in (
                        ("source", not isinstance(source, ValidationError)),
                        ("generated", not isinstance(mirror, ValidationError)),
                        ("schema", schema_says),
                    )
                    if ok
                ]
                problems.append(f"{label}: accepted by {', '.join(accepted)}")
    assert not problems, "\n".join(problems)
    assert counts["valid"] >= 10 and counts["invalid"] >= 20, counts
