"""What a timeout means: the framework's defaults and a game's own declaration, as pure functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from tabletop._state import GameResult, GameState, PlayerState
from tabletop.clocks._control import TimeoutPolicy

__all__ = [
    "BotMove",
    "ExpiryRules",
    "Forfeit",
    "PassMove",
    "TimeoutOutcome",
    "decide_timeout",
    "default_forfeit",
    "forfeit_rule",
]

StateT = TypeVar("StateT", bound=GameState[PlayerState, StrEnum])


@dataclass(frozen=True, slots=True)
class Forfeit:
    """The seat loses on time; the match ends with this result.

    Attributes:
        result: The match's result.
        winners: The winners' player ids.
    """

    result: GameResult
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PassMove:
    """The seat plays the game's pass action.

    Attributes:
        body: The action's payload and ``type`` (the host adds the envelope).
    """

    body: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot chooses one move for the seat, from the seat's view."""


TimeoutOutcome = Forfeit | PassMove | BotMove
"""What the host does about one timeout."""


def default_forfeit(state: GameState[PlayerState, StrEnum], player_id: str) -> Forfeit:
    """The framework's forfeit rule: every other seat wins (with nobody left, the match is abandoned)."""
    others = tuple(player.player_id for player in state.players if player.player_id != player_id)
    if not others:
        return Forfeit(GameResult.ABANDONED, ())
    return Forfeit(GameResult.WIN, others)


@dataclass(frozen=True, slots=True)
class ExpiryRules(Generic[StateT]):
    """A game's own handling of timeouts (``GameDefinition(expiry=...)``); pure functions of the state.

    Attributes:
        pass_action: The action a seat plays under the ``pass`` policy: its ``type`` and payload
            (e.g. ``{"type": "Hold"}``), or None when the seat cannot pass now (the bot plays).
        forfeit: Who wins when a seat forfeits on time (default: :func:`default_forfeit`).
    """

    pass_action: Callable[[StateT, str], Mapping[str, object] | None] | None = None
    forfeit: Callable[[StateT, str], Forfeit] | None = None


def forfeit_rule(rules: ExpiryRules[StateT] | None) -> Callable[[StateT, str], Forfeit]:
    """The game's forfeit rule, else the framework's default (:func:`default_forfeit`)."""
    if rules is not None and rules.forfeit is not None:
        return rules.forfeit
    return default_forfeit


def decide_timeout(
    policy: TimeoutPolicy, rules: ExpiryRules[StateT] | None, state: StateT, player_id: str
) -> TimeoutOutcome:
    """What a timeout of ``player_id`` in ``state`` means under ``policy`` and the game's ``rules``.

    ``pass`` without a pass action (none declared, or none now) falls back to the bot.
    """
    if policy.on_timeout == "forfeit":
        return forfeit_rule(rules)(state, player_id)
    if policy.on_timeout == "pass" and rules is not None and rules.pass_action is not None:
        body = rules.pass_action(state, player_id)
        if body is not None:
            return PassMove(body)
    return BotMove()
