"""Which documents a game exports, the request-body models, and the hooks that add documents."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from importlib.metadata import entry_points
from typing import cast

from pydantic import BaseModel

from tabletop._action import GameAction
from tabletop._definition import GameDefinition
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState
from tabletop._parser import literal_tag
from tabletop._request import ENGINE_ASSIGNED_FIELDS, request_model
from tabletop._state import GameState, PlayerState
from tabletop.schemas._generator import Document, SchemaExportError, model_document, union_document
from tabletop.views import view_documents

__all__ = [
    "COMMON_FOLDER",
    "PRODUCER_ENTRY_POINT_GROUP",
    "SERVER_ASSIGNED_FIELDS",
    "DocumentProducer",
    "common_documents",
    "game_documents",
    "game_title",
    "plain_model",
    "register_common_document",
    "register_document_producer",
    "registered_producers",
    "request_model",
]

COMMON_FOLDER = "common"
"""The folder (under the schemas root) of the shared base models."""

PRODUCER_ENTRY_POINT_GROUP = "tabletop.schema_documents"
"""Entry-point group of extra document producers (each entry point names a DocumentProducer)."""

SERVER_ASSIGNED_FIELDS = ENGINE_ASSIGNED_FIELDS
"""Action fields a client never sends; request-body schemas leave them out and the parser
refuses them: ``source``, ``created_at``, ``reveals_info`` and ``metadata``.

A client sends ``id``, ``game_id``, ``type``, ``player_id``, the action's payload fields and,
optionally, the pins ``index`` and ``simultaneous_group_id`` (which the engine checks).
"""

DocumentProducer = Callable[[GameDefinition[AnyState, GameConfig]], Mapping[str, type[BaseModel]]]
"""Adds documents to a game's export: maps a path under ``schemas/<game>/`` (ending in ``.json``,
e.g. ``views/player.json``) to the plain model exported there. Return ``{}`` for games it does
not concern."""

_PRODUCERS: list[DocumentProducer] = [view_documents]
_COMMON_MODELS: dict[str, tuple[type[BaseModel], str | None]] = {
    "game.json": (Game[GameConfig], "Game"),
    "game_action.json": (GameAction, None),
    "game_state.json": (GameState[PlayerState, str], "GameState"),  # type: ignore[type-var]  # machine_state as text
    "player_state.json": (PlayerState, None),
}
_BUILT_IN = re.compile(r"^(state|player_state|config|action|request)\.json$|^(actions|requests)/")
_PATH = re.compile(r"^[a-z0-9_][a-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*\.json$")


def register_document_producer(producer: DocumentProducer) -> DocumentProducer:
    """Add documents to every game's export (usable as a decorator).

    Producers registered here, and those named by entry points in the
    ``tabletop.schema_documents`` group, run on every export, in registration order.
    """
    if producer not in _PRODUCERS:
        _PRODUCERS.append(producer)
    return producer


def register_common_document(path: str, model: type[BaseModel], *, title: str | None = None) -> None:
    """Export ``model`` as ``schemas/common/<path>`` (a shared base model or component).

    Args:
        path: Where under ``schemas/common/``, ending in ``.json``.
        model: The plain model to export.
        title: The type name clients get (default: the model's name).

    Raises:
        SchemaExportError: The path is malformed or already holds another model.
    """
    _check_path(path, "common")
    if path in _COMMON_MODELS and _COMMON_MODELS[path][0] is not model:
        msg = f"common/{path} already exports {_COMMON_MODELS[path][0].__qualname__}"
        raise SchemaExportError(msg)
    _COMMON_MODELS[path] = (model, title)


def registered_producers() -> list[DocumentProducer]:
    """The registered producers, then those found through entry points."""
    found = [cast(DocumentProducer, entry.load()) for entry in entry_points(group=PRODUCER_ENTRY_POINT_GROUP)]
    return [*_PRODUCERS, *(producer for producer in found if producer not in _PRODUCERS)]


def _check_path(path: str, where: str) -> None:
    if not _PATH.match(path) or ".." in path:
        msg = f"{where}: document path {path!r} must be a relative, lower-case path ending in .json"
        raise SchemaExportError(msg)


def plain_model(model: type[BaseModel]) -> type[BaseModel]:
    """The plain model behind a hydrated class (the class itself if it is plain)."""
    plain = getattr(model, "__plain_model__", model)
    assert isinstance(plain, type)
    return plain


def game_title(name: str) -> str:
    """The type-name prefix of a game: ``"tic-tac-toe"`` -> ``"TicTacToe"``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def _tagged(actions: Iterable[type[BaseModel]]) -> list[tuple[str, type[BaseModel]]]:
    tagged = []
    for action in actions:
        tag = literal_tag(action)
        assert tag is not None  # GameDefinition checked every action's tag
        tagged.append((tag, plain_model(action)))
    return tagged


def game_documents(
    definition: GameDefinition[AnyState, GameConfig], producers: Iterable[DocumentProducer] = ()
) -> dict[str, Document]:
    """Every document of one game, by path under ``schemas/<game>/``.

    Raises:
        SchemaExportError: A model cannot be exported, or a producer returned a bad path.
    """
    title = game_title(definition.name)
    actions = _tagged(definition.actions)
    requests = [
        (tag, request_model(action)) for tag, action in actions if not getattr(action, "system_only", False)
    ]
    documents: dict[str, Document] = {
        "state.json": model_document(plain_model(definition.state_type)),
        "player_state.json": model_document(plain_model(definition.player_state_type)),
        "config.json": model_document(definition.config_type),
        "action.json": union_document(
            [action for _, action in actions],
            title=f"{title}Action",
            description=f"Any {definition.name} action, as the server records it; discriminated on `type`.",
        ),
        "request.json": union_document(
            [request for _, request in requests],
            title=f"{title}ActionRequest",
            description=f"Any {definition.name} action request body; discriminated on `type`.",
        ),
    }
    documents.update({f"actions/{tag}.json": model_document(action) for tag, action in actions})
    documents.update({f"requests/{tag}.json": model_document(request) for tag, request in requests})
    for producer in producers:
        for path, model in producer(definition).items():
            _check_path(path, definition.name)
            if _BUILT_IN.match(path) or path in documents:
                msg = f"{definition.name}: a producer's document {path!r} clashes with a built-in one"
                raise SchemaExportError(msg)
            documents[path] = model_document(plain_model(model))
    return documents


def common_documents() -> dict[str, Document]:
    """The shared base models, by path under ``schemas/common/``."""
    return {
        path: model_document(model, title=title) for path, (model, title) in sorted(_COMMON_MODELS.items())
    }
