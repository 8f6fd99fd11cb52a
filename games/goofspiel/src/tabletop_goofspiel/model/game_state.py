"""Goofspiel's state, its queries, and its initializer."""

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext, Model
from tabletop.components import HydratedSealedBidAuction, SealedBidAuction

from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.player_state import GoofspielPlayerState


class PrizeRound(Model):
    """One resolved round: the prize, both bids (public once revealed) and who took the prize."""

    round: int = Field(ge=1)
    """The round's number, counting from 1."""
    prize: int = Field(ge=1)
    """The prize card that was up."""
    bids: dict[str, int]
    """The card each player bid, by player id, in seating order."""
    winner_id: str | None = None
    """Who bid higher and took the prize's points; None if the bids tied and the prize was discarded."""


class GoofspielGameState(GameState[GoofspielPlayerState, MachineState]):
    """Goofspiel's state: the prize up for bidding, the secret bids and past rounds.

    The prizes not up yet are not in the state in any order: the prizes 1..N minus those up and
    past; with random order, the next one is decided only when its ``RevealPrize`` chance point is.
    """

    prize: int | None = None
    """The prize card up for bidding this round; None between rounds and once the game is over."""
    auction: SealedBidAuction | None = None
    """This round's sealed bids, one per player; each amount is owner-only (the Reveal shows them)."""
    rounds: list[PrizeRound] = Field(default_factory=list)
    """Every resolved round, oldest first, with its revealed bids."""


class HydratedGoofspielGameState(GoofspielGameState, Hydrated[GoofspielGameState]):
    """Goofspiel's state with its queries."""

    auction: HydratedSealedBidAuction | None = None
    """This round's sealed bids, one per player; each amount is owner-only (the Reveal shows them)."""

    @property
    def round_number(self) -> int:
        """The number of the round being bid for (or, between rounds, of the last one resolved)."""
        return len(self.rounds) + (1 if self.prize is not None else 0)

    @property
    def cards(self) -> int:
        """N, the game's number of cards: a hand (bid cards leave it at the reveal) plus the rounds."""
        return len(self.players[0].hand) + len(self.rounds) if self.players else 0

    @property
    def prizes_left(self) -> list[int]:
        """The prizes not turned up yet, ascending (public: 1..N minus the prizes seen)."""
        seen = {record.prize for record in self.rounds} | ({self.prize} if self.prize is not None else set())
        return [card for card in range(1, self.cards + 1) if card not in seen]

    @property
    def discarded(self) -> list[int]:
        """The prizes discarded on tied bids, in the order they came up."""
        return [record.prize for record in self.rounds if record.winner_id is None]

    def current_auction(self) -> HydratedSealedBidAuction:
        """This round's sealed-bid auction.

        Raises:
            ValueError: No prize is up for bidding (the state is between rounds or the game is over).
        """
        if self.auction is None:
            msg = "no prize is up for bidding"
            raise ValueError(msg)
        return self.auction

    def leaders(self) -> list[str]:
        """Ids of the players with the highest score, in seating order."""
        best = max(player.score for player in self.players)
        return [player.player_id for player in self.players if player.score == best]


Ctx = MachineContext[HydratedGoofspielGameState, GoofspielConfig]


def setup(ctx: Ctx) -> None:
    """Deal each player the cards 1..N (draws nothing: the prizes come up in ``Bidding``)."""
    cards = list(range(1, ctx.config.cards + 1))
    for player in ctx.state.players:
        player.hand = list(cards)
