"""Bid: play a card from your hand, face down, for the prize that is up."""

from typing import Annotated, Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError, Model
from tabletop.views import OwnerOnly

from tabletop_goofspiel.components.cards import MAX_CARDS
from tabletop_goofspiel.definition.actions import ActionType
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState


class BidMetadata(Model):
    """What a Bid was for (the card itself stays secret until the reveal)."""

    round: int = Field(ge=1)
    """The round the bid was made in."""
    prize: int = Field(ge=1)
    """The prize card the bid was for."""


class Bid(GameAction):
    """Bid a card from your hand for the prize that is up; the card is secret until both have bid."""

    type: Literal[ActionType.BID] = ActionType.BID
    """The action tag."""
    player_id: str
    """The acting player."""
    card: Annotated[int, OwnerOnly()] = Field(ge=1, le=MAX_CARDS)
    """The card bid: one of the bidder's unspent cards. Owner-only: the Reveal shows it to everyone."""
    metadata: BidMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedBid(Bid, HydratedAction[Bid, HydratedGoofspielGameState, GoofspielConfig]):
    """Bid's rules: once a round, a card still in the bidder's hand."""

    @staticmethod
    def can_bid(state: HydratedGoofspielGameState, player_id: str) -> bool:
        """True if ``player_id`` is active, a prize is up and they have not bid for it yet."""
        auction = state.auction
        return (
            state.is_active(player_id)
            and auction is not None
            and player_id in auction.participants
            and not auction.has_bid(player_id)
        )

    def check(self, ctx: Ctx) -> None:
        """Codes: the auction's (``already-bid``, ``not-participant``), then ``card-not-in-hand``."""
        ctx.state.current_auction().check_bid(self.player_id, self.card)
        if self.card not in ctx.state.player(self.player_id).hand:
            raise IllegalActionError(
                "card-not-in-hand", f"{self.player_id!r} has no card {self.card} left", path="card"
            )

    def apply(self, ctx: Ctx) -> None:
        """Seal the bid in this round's auction; the card leaves the hand at the reveal."""
        state = ctx.state
        state.current_auction().bid(self.player_id, self.card)
        assert state.prize is not None
        self.metadata = BidMetadata(round=state.round_number, prize=state.prize)

    @classmethod
    def enumerate(cls, state: HydratedGoofspielGameState, player_id: str) -> list[Self]:
        """One candidate per card in the hand, unless the player has already bid this round."""
        if not cls.can_bid(state, player_id):
            return []
        return [cls.candidate(state, player_id, card=card) for card in state.player(player_id).hand]

    @classmethod
    def action_space(cls, game: Game[GoofspielConfig]) -> list[dict[str, JsonValue]]:
        """Every card of the game: ``[{"card": 1}, ..., {"card": N}]``."""
        return [{"card": card} for card in range(1, game.config.cards + 1)]
