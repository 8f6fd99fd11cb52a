"""A tiny game of declared chance points: a hidden deal one card at a time, then a loaded die.

The game deals two cards from a four-card deck (1 to 4) to each of two seats, one ``DealCard``
chance point per card (the card is owner-only). Then ``p1`` ``Roll``s: a ``RollDie`` chance
point comes up 1, 2 or 3 with weights 1, 1 and 2 and is added to ``p1``'s hand total. The higher
total wins (``p2`` on a tie).
"""

from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import Field
from tabletop import (
    ChanceAction,
    ChanceOutcomes,
    Game,
    GameAction,
    GameConfig,
    GameDefinition,
    GameState,
    HydratedAction,
    HydratedChanceAction,
    MachineContext,
    PlayerState,
    StateHandler,
    TerminalHandler,
)
from tabletop.views import HostOnly, Owner, OwnerOnly

DECK = (1, 2, 3, 4)
"""The cards, in the chance space's order."""
DIE = ((1, 1), (2, 1), (3, 2))
"""The loaded die's faces and weights."""


class Phase(StrEnum):
    DEALING = "Dealing"
    PLAYING = "Playing"
    OVER = "Over"


class Kind(StrEnum):
    DEAL_CARD = "DealCard"
    ROLL = "Roll"
    ROLL_DIE = "RollDie"


class DealConfig(GameConfig):
    pass


class DealPlayer(PlayerState):
    hand: Annotated[list[int], OwnerOnly()] = Field(default_factory=list)
    """The cards dealt to the seat; only its owner sees them."""


class DealState(GameState[DealPlayer, Phase]):
    deck: Annotated[list[int], HostOnly()] = Field(default_factory=lambda: list(DECK))
    """The cards not dealt yet, in no particular order (nobody draws from it but chance)."""
    bonus: int | None = None
    """What the die added to p1's total, once rolled."""


Ctx = MachineContext[DealState, DealConfig]


class DealCard(ChanceAction):
    type: Literal[Kind.DEAL_CARD] = Kind.DEAL_CARD
    """Tag."""
    to: Annotated[str, Owner()]
    """The seat dealt to (not acting: nobody is active during the deal)."""
    outcome: Annotated[int | None, OwnerOnly()] = None
    """The card dealt; only the seat dealt to sees it."""


class HydratedDealCard(DealCard, HydratedChanceAction[DealCard, DealState, DealConfig]):
    def chances(self, ctx: Ctx) -> ChanceOutcomes:
        return [(card, 1) for card in DECK if card in ctx.state.deck]

    @classmethod
    def chance_space(cls, game: Game[DealConfig]) -> list[int]:
        return list(DECK)

    def apply(self, ctx: Ctx) -> None:
        assert self.outcome is not None
        ctx.state.deck.remove(self.outcome)
        ctx.state.player(self.to).hand.append(self.outcome)


class Roll(GameAction):
    type: Literal[Kind.ROLL] = Kind.ROLL
    """Tag."""
    player_id: str
    """Who rolls."""


class HydratedRoll(Roll, HydratedAction[Roll, DealState, DealConfig]):
    def apply(self, ctx: Ctx) -> None:
        ctx.add_system_action(HydratedRollDie, player_id=self.player_id)

    @classmethod
    def enumerate(cls, state: DealState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]


class RollDie(ChanceAction):
    type: Literal[Kind.ROLL_DIE] = Kind.ROLL_DIE
    """Tag."""
    player_id: str | None = None
    """Who rolled."""
    outcome: int | None = None
    """The face; public."""


class HydratedRollDie(RollDie, HydratedChanceAction[RollDie, DealState, DealConfig]):
    def chances(self, ctx: Ctx) -> ChanceOutcomes:
        return DIE

    @classmethod
    def chance_space(cls, game: Game[DealConfig]) -> list[int]:
        return [face for face, _ in DIE]

    def apply(self, ctx: Ctx) -> None:
        ctx.state.bonus = self.outcome


class Dealing(StateHandler[DealState, DealConfig]):
    accepts = (Kind.DEAL_CARD,)
    transitions_to = (Phase.PLAYING,)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = []
        for _ in range(2):
            for player in ctx.state.players:
                ctx.add_system_action(HydratedDealCard, to=player.player_id)

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase | None:
        return Phase.PLAYING if not any(len(p.hand) < 2 for p in ctx.state.players) else None


class Playing(StateHandler[DealState, DealConfig]):
    accepts = (Kind.ROLL, Kind.ROLL_DIE)
    transitions_to = (Phase.OVER,)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = [ctx.state.players[0].player_id]

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase | None:
        return Phase.OVER if ctx.state.bonus is not None else None


class Over(TerminalHandler[DealState, DealConfig]):
    def enter(self, ctx: Ctx) -> None:
        first, second = ctx.state.players
        bonus = ctx.state.bonus or 0
        ctx.end_game([first.player_id if sum(first.hand) + bonus > sum(second.hand) else second.player_id])


definition: GameDefinition[DealState, DealConfig] = GameDefinition(
    name="chance-deal",
    state_type=DealState,
    config_type=DealConfig,
    machine_states=Phase,
    initial_state=Phase.DEALING,
    action_types=Kind,
    actions=[HydratedDealCard, HydratedRoll, HydratedRollDie],
    handlers={Phase.DEALING: Dealing(), Phase.PLAYING: Playing(), Phase.OVER: Over()},
    min_players=2,
    max_players=2,
)
