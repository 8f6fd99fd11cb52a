"""Duel: rock-paper-scissors with simultaneous, secret picks (for bot tests; not registered).

Both players are active at once; a player who has picked is no longer active. Once both have
picked, the game ends: rock beats scissors, scissors beat paper, paper beats rock.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Literal, Self

from pydantic import BaseModel, Field
from tabletop import (
    GameAction,
    GameConfig,
    GameDefinition,
    GameState,
    Hydrated,
    HydratedAction,
    MachineContext,
    PlayerState,
    StateHandler,
    TerminalHandler,
)

Sign = Literal["rock", "paper", "scissors"]
SIGNS: tuple[Sign, ...] = ("rock", "paper", "scissors")
BEATS: dict[str, str] = {"rock": "scissors", "scissors": "paper", "paper": "rock"}


class Phase(StrEnum):
    PICKING = "Picking"
    DONE = "Done"


class Kind(StrEnum):
    PICK = "Pick"


class DuelConfig(GameConfig):
    """Duel has no options."""


class DuelState(GameState[PlayerState, Phase]):
    picks: dict[str, Sign] = Field(default_factory=dict)
    """Each player's secret pick, once made."""


class HydratedDuelState(DuelState, Hydrated[DuelState]):
    pass


Ctx = MachineContext[HydratedDuelState, DuelConfig]


class Pick(GameAction):
    type: Literal[Kind.PICK] = Kind.PICK
    """Tag."""
    player_id: str
    """Who picks."""
    sign: Sign
    """The secret pick."""


class HydratedPick(Pick, HydratedAction[Pick, HydratedDuelState, DuelConfig]):
    def apply(self, ctx: Ctx) -> None:
        ctx.state.picks[self.player_id] = self.sign

    @classmethod
    def enumerate(cls, state: HydratedDuelState, player_id: str) -> list[Self]:
        if not state.is_active(player_id) or player_id in state.picks:
            return []
        return [cls.candidate(state, player_id, sign=sign) for sign in SIGNS]


class Picking(StateHandler[HydratedDuelState, DuelConfig]):
    accepts = (Kind.PICK,)
    transitions_to = (Phase.PICKING, Phase.DONE)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = [
            p.player_id for p in ctx.state.players if p.player_id not in ctx.state.picks
        ]

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
        return Phase.DONE if len(ctx.state.picks) == len(ctx.state.players) else Phase.PICKING


class Done(TerminalHandler[HydratedDuelState, DuelConfig]):
    def enter(self, ctx: Ctx) -> None:
        first, second = (p.player_id for p in ctx.state.players)
        a, b = ctx.state.picks[first], ctx.state.picks[second]
        ctx.end_game([first] if BEATS[a] == b else [second] if BEATS[b] == a else [])


definition = GameDefinition(
    name="duel",
    state_type=HydratedDuelState,
    config_type=DuelConfig,
    machine_states=Phase,
    initial_state=Phase.PICKING,
    action_types=Kind,
    actions=[HydratedPick],
    handlers={Phase.PICKING: Picking(), Phase.DONE: Done()},
    min_players=2,
    max_players=2,
)


def view(state: HydratedDuelState, seat: str) -> HydratedDuelState:
    """What ``seat`` may see: its own pick only."""
    return HydratedDuelState.hydrate(
        {**state.model_dump(), "picks": {p: s for p, s in state.picks.items() if p == seat}}
    )


def determinize(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedDuelState:
    """A full state for ``seat``'s view: opponents who are done picked a sign at random."""
    seen = HydratedDuelState.hydrate(view.model_dump())
    picks = dict(seen.picks)
    for player in seen.players:
        done = player.player_id not in seen.active_player_ids
        if player.player_id != seat and done and player.player_id not in picks:
            picks[player.player_id] = rng.choice(SIGNS)
    return HydratedDuelState.hydrate({**seen.model_dump(), "picks": picks})
