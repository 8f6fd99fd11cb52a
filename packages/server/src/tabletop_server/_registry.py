"""The installed games the server hosts: definitions, engines and the per-action request bodies."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import cast

from pydantic import BaseModel
from tabletop import GameConfig, GameDefinition, GameEngine
from tabletop._machine import AnyState
from tabletop.games import ENTRY_POINT_GROUP, load_all
from tabletop.schemas import TabletopJsonSchema, game_title, request_model
from tabletop.views import action_view_type, view_type

from tabletop_server._errors import ApiError

__all__ = ["GameEntry", "GameRegistry", "JsonSchema"]

JsonSchema = dict[str, object]
"""A JSON Schema as a decoded JSON object."""

Definition = GameDefinition[AnyState, GameConfig]
Engine = GameEngine[AnyState, GameConfig]

_CLIENT_OPTIONAL = ("id", "game_id", "type", "player_id")
"""Request fields the server fills in when a body leaves them out."""


def _summary(name: str) -> str:
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == name and entry.dist is not None:
            return str(entry.dist.metadata["Summary"] or "")
    return ""


def _display_title(name: str) -> str:
    text = name.replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:]


def _body_schema(request: type[BaseModel], prefix: str) -> tuple[JsonSchema, dict[str, JsonSchema]]:
    """The HTTP body schema of one action: its request schema with the server-filled fields
    optional and the optional ``index`` pin; nested definitions renamed ``<prefix><Name>``."""
    template = f"#/components/schemas/{prefix}{{model}}"
    schema = request.model_json_schema(ref_template=template, schema_generator=TabletopJsonSchema)
    defs = cast(dict[str, JsonSchema], schema.pop("$defs", {}))
    required = [name for name in cast(list[str], schema.get("required", [])) if name not in _CLIENT_OPTIONAL]
    schema["required"] = required
    properties = cast(dict[str, JsonSchema], schema.setdefault("properties", {}))
    for name in _CLIENT_OPTIONAL:
        if name in properties:
            properties[name] = {**properties[name]}
            properties[name]["description"] = (
                f"{properties[name].get('description', '')} Optional: the server fills it in"
                + (" (a fresh id)." if name == "id" else " from the seat token and the match.")
            ).strip()
    properties["index"] = {
        "type": ["integer", "null"],
        "minimum": 0,
        "default": None,
        "description": "Optimistic-concurrency pin: accepted only if the match has exactly this many "
        "actions recorded (else 409 stale-index).",
    }
    return schema, {f"{prefix}{name}": value for name, value in defs.items()}


def _warm_view_plans(definition: Definition) -> None:
    """Derive the game's view types once, up front: request threads then only read the caches."""
    view_type(definition.state_type)
    view_type(definition.state_type, spectator=True)
    for action in definition.actions:
        action_view_type(action)


@dataclass(frozen=True)
class GameEntry:
    """One hosted game.

    Attributes:
        name: The registry name (entry-point name).
        definition: The game definition.
        engine: The engine running it.
        title: Display title (the definition's ``title``).
        description: One line about the game (the definition's ``description``, else the
            package's summary).
        user_action_types: The action types a player may send (system-only ones left out).
        hidden_information: True if the state declares fields some seat may not see.
        body_schemas: The OpenAPI request body schema of each user action type.
        schema_components: Named schemas the body schemas refer to (prefixed by the game).
    """

    name: str
    definition: Definition
    engine: Engine
    title: str
    description: str
    user_action_types: tuple[str, ...]
    hidden_information: bool
    body_schemas: Mapping[str, JsonSchema] = field(default_factory=dict)
    schema_components: Mapping[str, JsonSchema] = field(default_factory=dict)

    @property
    def schema_prefix(self) -> str:
        """The prefix of this game's OpenAPI component names (``"GoFish"``)."""
        return game_title(self.name)

    def config_schema(self) -> JsonSchema:
        """The JSON Schema of the game's config model, each option with a label for a form.

        Each property's ``title`` is its label (the field's own ``title=``, else its name in
        words: ``big_totals_allowed`` is "Big totals allowed") and its ``description`` the help
        text (the field's docstring).
        """
        config_type = self.definition.config_type
        schema = config_type.model_json_schema(schema_generator=TabletopJsonSchema)
        properties = cast(dict[str, JsonSchema], schema.get("properties", {}))
        for key, option in properties.items():
            field = config_type.model_fields.get(key)
            option["title"] = field.title if field is not None and field.title else _display_title(key)
        return schema

    @classmethod
    def build(cls, name: str, definition: Definition) -> GameEntry:
        """Describe an installed game for the server."""
        prefix = game_title(name)
        user_types: list[str] = []
        bodies: dict[str, JsonSchema] = {}
        components: dict[str, JsonSchema] = {}
        _warm_view_plans(definition)
        for tag, action in definition.action_by_type.items():
            if getattr(action, "system_only", False) or not (
                action.has_action_space() or action.is_enumerable()
            ):
                continue  # a system-only action: no client sends it
            user_types.append(tag)
            schema, defs = _body_schema(request_model(action), prefix)
            schema["title"] = f"{prefix}{tag}Request"
            bodies[tag] = schema
            components.update(defs)
        return cls(
            name=name,
            definition=definition,
            engine=GameEngine(definition),
            title=definition.title,
            description=definition.description or _summary(name),
            user_action_types=tuple(user_types),
            hidden_information=definition.hidden_information,
            body_schemas=bodies,
            schema_components=components,
        )


class GameRegistry:
    """Every game the server hosts, by name.

    Args:
        definitions: The games; by default every installed game (``tabletop.games`` entry points).
    """

    def __init__(self, definitions: Mapping[str, Definition] | None = None) -> None:
        found = load_all() if definitions is None else dict(definitions)
        self._entries = {name: GameEntry.build(name, found[name]) for name in sorted(found)}
        self._frozen = {
            (name, version): GameEntry.build(name, frozen)
            for name in sorted(found)
            for version, frozen in found[name].frozen_versions.items()
        }

    def frozen(self, name: str, logic_version: str) -> GameEntry | None:
        """The frozen copy of ``name`` at ``logic_version`` the game keeps runnable, or None."""
        return self._frozen.get((name, logic_version))

    def find(self, name: str) -> GameEntry | None:
        """The game called ``name``, or None."""
        return self._entries.get(name)

    def entries(self) -> list[GameEntry]:
        """Every hosted game, sorted by name."""
        return list(self._entries.values())

    def get(self, name: str) -> GameEntry:
        """The game called ``name``.

        Raises:
            ApiError: No such game (``unknown-game``).
        """
        entry = self._entries.get(name)
        if entry is None:
            raise ApiError("unknown-game", f"no installed game is called {name[:80]!r}", path="game")
        return entry
