"""JSON Schema generation with the conventions client generators handle well.

Differences from pydantic's default generator:

- no per-field ``title`` (titles stay on models and enums, where they name generated types);
- a model's ``type`` tag (``type`` narrowed to one ``Literal``, as actions do) is required and
  has no default, so generated client types carry a non-optional tag;
- a default factory that takes no argument is called, so the default shows in the schema;
- a parametrized generic model (``SquareBoard[str]``) is named ``SquareBoardStr`` (title and
  ``$defs`` key alike) and described by its origin's docstring;
- a hydrated class inside an exported model is refused: exports describe plain models only.

Documents are plain JSON values (``dict``/``list``/``str``/``int``/``float``/``bool``/``None``);
:func:`dump_document` gives their canonical bytes (sorted keys, two-space indent, final newline).
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Sequence
from typing import cast, no_type_check

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue, models_json_schema
from pydantic_core import core_schema

from tabletop._errors import TabletopError
from tabletop._parser import literal_tag

__all__ = [
    "Document",
    "SchemaExportError",
    "TabletopJsonSchema",
    "dump_document",
    "model_document",
    "type_name",
    "union_document",
]

Document = dict[str, object]
"""One exported JSON Schema document (a decoded JSON object)."""


class SchemaExportError(TabletopError):
    """The models cannot be exported as client-ready schemas (the message says which and why)."""


def type_name(name: str) -> str:
    """A generator-friendly type name: ``"SquareBoard[str]"`` -> ``"SquareBoardStr"``."""
    if "[" not in name:
        return name
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


class TabletopJsonSchema(GenerateJsonSchema):
    """pydantic's JSON Schema generator with tabletop's export conventions (see the module doc)."""

    def normalize_name(self, name: str) -> str:
        """Name a parametrized generic's definition like its title (``SquareBoardStr``)."""
        if "[" in name and "." not in name and ":" not in name:
            return type_name(name)
        return super().normalize_name(name)

    def field_title_should_be_set(self, schema: object) -> bool:
        """Never title fields: titles name types, and field titles make generators invent aliases."""
        return False

    @no_type_check  # run-time checkers would walk the whole core schema on every call
    def get_default_value(self, schema: core_schema.WithDefaultSchema) -> object:
        """Call argument-less default factories, so ``Field(default_factory=list)`` shows ``[]``."""
        factory = schema.get("default_factory")
        if factory is not None and not schema.get("default_factory_takes_data", False):
            return factory()
        return super().get_default_value(schema)

    @no_type_check  # run-time checkers would walk the whole core schema on every call
    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        """Refuse hydrated classes; name parametrized generics after their origin."""
        cls = cast(type[BaseModel], schema["cls"])
        if "__plain_model__" in vars(cls):
            msg = (
                f"{cls.__qualname__} is a hydrated class; exported schemas describe plain models "
                f"(use {vars(cls)['__plain_model__'].__qualname__} in plain model fields)"
            )
            raise SchemaExportError(msg)
        json_schema = super().model_schema(schema)
        if literal_tag(cls) is not None:  # a discriminated model's tag: required, no default
            properties = json_schema.get("properties", {})
            if "type" in properties:
                properties["type"].pop("default", None)
                required = {*json_schema.get("required", ()), "type"}
                json_schema["required"] = [name for name in properties if name in required]
        origin = cls.__pydantic_generic_metadata__["origin"]
        if origin is not None and "title" not in cls.model_config:
            json_schema["title"] = type_name(cls.__name__)
            if origin.__doc__ and "description" not in json_schema:
                json_schema["description"] = inspect.cleandoc(origin.__doc__)
        return json_schema


_SCALARS = frozenset({"integer", "number", "string", "boolean"})
_SCALAR_KEYWORDS = frozenset(
    {"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    | {"minLength", "maxLength", "pattern", "format"}
)


def _nullable_scalar(node: dict[str, object]) -> dict[str, object] | None:
    """``anyOf: [{type: T, <T's constraints>}, {type: null}]`` as ``type: [T, null]``, if it is that."""
    branches = node.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2 or {"type": "null"} not in branches:
        return None
    (scalar,) = [branch for branch in branches if branch != {"type": "null"}]
    if not isinstance(scalar, dict) or scalar.get("type") not in _SCALARS or set(scalar) - _SCALAR_KEYWORDS:
        return None
    merged = {key: value for key, value in node.items() if key != "anyOf"}
    if set(merged) & set(scalar):
        return None
    return {**merged, **scalar, "type": [scalar["type"], "null"]}


def _normalize(node: object) -> object:
    """Reshape what generators misread, keeping the meaning.

    - Keywords beside a ``$ref`` (a field's description, default) move onto an ``allOf``
      wrapper: generators treat ``{"$ref": X, "description": ...}`` as a new type named ``X1``.
    - A nullable scalar becomes ``type: [T, "null"]`` with T's constraints beside it, instead of
      an ``anyOf`` that generators turn into a wrapper class per field.
    """
    if isinstance(node, list):
        return [_normalize(item) for item in node]
    if not isinstance(node, dict):
        return node
    normalized = {key: _normalize(value) for key, value in node.items()}
    if "$ref" in normalized and len(normalized) > 1:
        ref = normalized.pop("$ref")
        normalized["allOf"] = [{"$ref": ref}]
    return _nullable_scalar(normalized) or normalized


def model_document(model: type[BaseModel], *, title: str | None = None) -> Document:
    """The validation-mode JSON Schema of one model, with its nested models under ``$defs``."""
    document = cast(Document, _normalize(model.model_json_schema(schema_generator=TabletopJsonSchema)))
    if title is not None:
        document["title"] = title
    return document


def union_document(
    models: Sequence[type[BaseModel]], *, title: str, description: str, discriminator: str = "type"
) -> Document:
    """A ``oneOf`` over ``models`` with a ``discriminator`` mapping each tag to its model.

    The branches are sorted by tag, like the mapping once the document is dumped with sorted
    keys: the document does not depend on the order the models are given in.

    Raises:
        SchemaExportError: A model does not narrow ``discriminator`` to one literal tag.
    """
    if discriminator != "type":  # literal_tag reads the action convention
        msg = f"only 'type' discriminated unions are exported, not {discriminator!r}"
        raise SchemaExportError(msg)
    tagged: dict[str, type[BaseModel]] = {}
    for model in models:
        tag = literal_tag(model)
        if tag is None:
            msg = f"{model.__qualname__} does not narrow {discriminator!r} to one literal tag"
            raise SchemaExportError(msg)
        tagged[tag] = model
    ordered = sorted(tagged.items())
    refs, definitions = models_json_schema(
        [(model, "validation") for _, model in ordered], schema_generator=TabletopJsonSchema
    )
    branches = [cast(dict[str, str], refs[(model, "validation")]) for _, model in ordered]
    return {
        "$defs": _normalize(definitions.get("$defs", {})),
        "description": description,
        "discriminator": {
            "mapping": {tag: branch["$ref"] for (tag, _), branch in zip(ordered, branches, strict=True)},
            "propertyName": discriminator,
        },
        "oneOf": branches,
        "title": title,
    }


def dump_document(document: object) -> bytes:
    """Canonical bytes of a JSON document: sorted keys, two-space indent, newline at the end."""
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
