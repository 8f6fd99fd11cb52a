"""The engine as the server uses it: starting, loading, replaying and projecting one match.

Everything here is pure (no storage, no HTTP): a match's rows go in, states and JSON come out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

import orjson
from pydantic import JsonValue
from tabletop import UNKEYED, Game, GameAction, GameConfig, Player, RunResult
from tabletop._machine import AnyState, HydratedAction
from tabletop.schemas import SERVER_ASSIGNED_FIELDS
from tabletop.views import SPECTATOR, Perspective, project, project_action

from tabletop_server._errors import ApiError
from tabletop_server._registry import GameEntry

__all__ = [
    "Action",
    "JsonDict",
    "action_json",
    "build_game",
    "legal_action_bodies",
    "load_action",
    "load_state",
    "perspective_of",
    "replay",
    "request_body",
    "start_game",
    "view_json",
]

Action = HydratedAction[GameAction, AnyState, GameConfig]
JsonDict = dict[str, JsonValue]

_NOT_IN_BODIES = SERVER_ASSIGNED_FIELDS | {"id", "game_id", "index", "simultaneous_group_id"}


def perspective_of(player_id: str | None) -> Perspective:
    """The projection perspective of a seat, or the spectator's for None."""
    return SPECTATOR if player_id is None else player_id


def build_game(
    entry: GameEntry, match_id: str, seats: Sequence[tuple[str, str, bool]], config: JsonDict, seed: int
) -> Game[GameConfig]:
    """The engine's ``Game`` of a match.

    Args:
        entry: The game.
        match_id: The match id (the game id of its actions).
        seats: ``(player_id, name, is_human)`` in seating order.
        config: The config's JSON form.
        seed: The match's seed.

    Raises:
        ApiError: The config does not fit the game's config model (``invalid-config``).
    """
    try:
        typed = entry.definition.config_type.model_validate(config)
    except ValueError as error:
        raise ApiError("invalid-config", str(error).splitlines()[0][:200], path="config") from None
    players = [Player(id=pid, name=name, is_human=human) for pid, name, human in seats]
    return entry.definition.game_type(
        id=match_id, type_id=entry.name, players=players, config=typed, seed=seed
    )


def start_game(
    entry: GameEntry, game: Game[GameConfig], prng_key: str | None
) -> RunResult[AnyState, GameConfig]:
    """Start ``game`` with the host-only ``prng_key``."""
    return entry.engine.start(game, prng_key=prng_key if prng_key is not None else UNKEYED)


def load_state(entry: GameEntry, state_json: str | bytes) -> AnyState:
    """The hydrated state stored as ``state_json`` (validated by the engine where it can)."""
    loader = getattr(entry.engine, "load_state", None)
    if loader is not None:
        return cast(AnyState, loader(state_json))
    return entry.definition.state_type.model_validate_json(state_json)


def load_action(entry: GameEntry, action_json: str | bytes) -> Action:
    """A recorded action from its stored JSON (by its own class, not the client parser)."""
    kind = orjson.loads(action_json)["type"]
    return entry.definition.action_by_type[kind].model_validate_json(action_json)


def replay(
    entry: GameEntry,
    game: Game[GameConfig],
    prng_key: str | None,
    actions: Iterable[Action],
    *,
    base_state_json: str | None = None,
    stop: int | None = None,
) -> AnyState:
    """The state after replaying the user actions of a log from the start (or a fork's base).

    The game's system actions are not submitted: the engine records them again as the user
    actions cause them. A host action (a ``TimeExpired``) is recorded again as it was. ``stop``
    replays only actions with a smaller index.
    """
    if base_state_json is None:
        state = start_game(entry, game, prng_key).state
    else:
        state = load_state(entry, base_state_json)
        state.game_id = game.id
    engine = entry.engine
    for action in actions:
        if stop is not None and action.index is not None and action.index >= stop:
            break
        if action.host_action:  # a loss on time: the host's own record, submitted again
            state = engine.record(action, state, game, in_place=True).state
            continue
        if action.source.value != "user":
            continue
        submitted = action.model_dump(exclude=set(SERVER_ASSIGNED_FIELDS) | {"metadata"})
        submitted.pop("simultaneous_group_id", None)
        state = engine.run(submitted, state, game, in_place=True).state
    return state


def action_json(action: GameAction, perspective: Perspective) -> JsonDict:
    """The action as ``perspective`` may see it, as JSON."""
    return cast(JsonDict, project_action(action, perspective).model_dump(mode="json"))


def request_body(action: GameAction) -> JsonDict:
    """The action as a client would send it: without the fields the engine or server assigns
    (``id``, ``game_id``, ``index``, the group, ``source``, ``metadata``, ...)."""
    return cast(JsonDict, action.model_dump(mode="json", exclude=set(_NOT_IN_BODIES)))


def legal_action_bodies(
    entry: GameEntry, state: AnyState, game: Game[GameConfig], player_id: str
) -> tuple[list[str], list[JsonDict] | None]:
    """The action types ``player_id`` may send now, and the concrete legal bodies.

    The bodies are null when a valid type cannot enumerate its actions.
    """
    engine = entry.engine
    user_types = set(entry.user_action_types)
    valid = [kind for kind in engine.valid_action_types(state, player_id, game) if kind in user_types]
    if not valid:
        return [], []
    by_type = entry.definition.action_by_type
    if not all(by_type[kind].is_enumerable() for kind in valid):
        return valid, None
    bodies: list[JsonDict] = []
    for action in engine.legal_actions(state, player_id, game):
        if action.type in user_types:
            bodies.append(request_body(action))
    return valid, bodies


def view_json(state: AnyState, perspective: Perspective) -> JsonDict:
    """The projected view of ``state`` for ``perspective``, as JSON."""
    return cast(JsonDict, project(state, perspective).model_dump(mode="json"))
