"""Admission: the framework's checks on a submitted state, game and action, before any handler."""

from __future__ import annotations

from typing import TypeVar

from tabletop._action import ActionSource, GameAction
from tabletop._errors import IllegalActionError
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState

ConfigT = TypeVar("ConfigT", bound=GameConfig)

__all__ = ["admit", "mismatch"]


def mismatch(state: AnyState, game: Game[ConfigT]) -> list[str]:
    """Why ``game`` is not ``state``'s game (empty if it is)."""
    seats = [seat.id for seat in game.players]
    players = [player.player_id for player in state.players]
    if game.id == state.game_id and seats == players:
        return []
    problems = []
    if game.id != state.game_id:
        problems.append(f"the game is {game.id!r}, the state belongs to {state.game_id!r}")
    if seats != players:
        problems.append(f"the game seats {seats}, the state has players {players}")
    return problems


def admit(action: GameAction, state: AnyState) -> None:
    """Raise :class:`IllegalActionError` if ``state`` may not record ``action`` now.

    The framework's own rules, before the handler's: the game is not over, the action has an
    id and is for this game, names the open simultaneous group (if any), expects the current
    index (or lags inside the open group), and its player is active. A user action is then
    recorded with the open group's id.
    """
    # Fields are read from __dict__: a pydantic model's __getattr__ hook makes every attribute
    # read cost more, and the engine reads a dozen per action.
    fields = state.__dict__
    given = action.__dict__
    if fields["result"] is not None:
        raise IllegalActionError("game-over", "the game is over")
    if not given["id"]:
        raise IllegalActionError("missing-id", "the action has no id", path="id")
    if given["game_id"] != fields["game_id"]:
        raise IllegalActionError(
            "wrong-game",
            f"action is for game {given['game_id']!r}, not {fields['game_id']!r}",
            path="game_id",
        )
    group = fields["simultaneous_group"]
    in_group = False
    user = given["source"] == ActionSource.USER
    if user:
        named = given["simultaneous_group_id"]
        if named is not None and (group is None or named != group.id):
            open_now = "no group is open" if group is None else f"the open group is {group.id!r}"
            raise IllegalActionError(
                "wrong-simultaneous-group",
                f"action names simultaneous group {named!r}, but {open_now}",
                path="simultaneous_group_id",
            )
        in_group = named is not None
    index = given["index"]
    count = fields["action_count"]
    if index is not None and index != count:
        lagging_in_group = in_group and group is not None and group.start_index <= index < count
        if not lagging_in_group:
            raise IllegalActionError(
                "stale-index",
                f"action expects index {index}, but {count} actions are recorded",
                path="index",
            )
    player_id = given["player_id"]
    if player_id is not None and not state.is_active(player_id):
        code = (
            "player-not-active" if any(p.player_id == player_id for p in state.players) else "unknown-player"
        )
        raise IllegalActionError(code, f"player {player_id!r} may not act now", path="player_id")
    if group is not None and user:
        action.simultaneous_group_id = group.id
