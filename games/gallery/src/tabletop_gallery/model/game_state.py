"""Gallery's state, its queries, and its initializer."""

from typing import Annotated

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext, Model, StateHandler
from tabletop.components import (
    DrawBag,
    FixedPriceAuction,
    HydratedDrawBag,
    HydratedFixedPriceAuction,
    HydratedOnceAroundAuction,
    HydratedOpenAuction,
    HydratedRoundManager,
    HydratedSealedBidAuction,
    OnceAroundAuction,
    OpenAuction,
    RoundManager,
    SealedBidAuction,
    bidding_order,
)
from tabletop.views import CountOnly

from tabletop_gallery.components.paintings import Artist, AuctionKind, Painting, gallery_deck
from tabletop_gallery.components.rules import ROUND_ENDING_COUNT, ROUNDS, STARTING_MONEY
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.player_state import GalleryPlayerState

Auction = Annotated[
    OpenAuction | OnceAroundAuction | SealedBidAuction | FixedPriceAuction, Field(discriminator="kind")
]
"""The auction running on the lot: one of the framework's auction components, by ``kind``."""
HydratedAuction = (
    HydratedOpenAuction | HydratedOnceAroundAuction | HydratedSealedBidAuction | HydratedFixedPriceAuction
)
"""An :data:`Auction` with its behaviour."""


def _no_paintings_played() -> dict[str, int]:
    return dict.fromkeys((artist.value for artist in Artist), 0)


def _rounds() -> RoundManager:
    return RoundManager(max_rounds=ROUNDS)


class Lot(Model):
    """What is on the block: one painting, or a double's pair, and who auctions it."""

    auctioneer_id: str
    """Who sells it: who played it, or who added the second painting of a double."""
    paintings: list[Painting] = Field(min_length=1, max_length=2)
    """The painting played, then the second painting of a double once added."""
    kind: AuctionKind
    """How the lot is sold: the first card's kind, or the second card's once a double is paired."""
    offered_to: list[str] = Field(default_factory=list)
    """A double waiting for its second painting: who may still add one, the one asked first."""
    price: int | None = None
    """A fixed-price lot's price, once the auctioneer has set it."""


class GalleryGameState(GameState[GalleryPlayerState, MachineState]):
    """Gallery's state: the deck, the round, the lot and its auction, the artists' values, the bank."""

    deck: Annotated[DrawBag[Painting], CountOnly()] = Field(default_factory=DrawBag[Painting])
    """The undealt paintings, shuffled at setup; views show only how many (``deck_count``)."""
    rounds: RoundManager = Field(default_factory=_rounds)
    """The four rounds: which one runs, and the action indexes they spanned."""
    played: dict[str, int] = Field(default_factory=_no_paintings_played)
    """Paintings of each artist (by name) put up for auction this round (the ranking counts them)."""
    values: list[dict[str, int]] = Field(default_factory=list)
    """Per ended round, oldest first: the value each artist (by name) was given (30, 20, 10 or 0)."""
    lot: Lot | None = None
    """What is on the block now, if anything."""
    auction: Auction | None = None
    """The lot's auction while it runs (none for a double waiting for its pair)."""
    discard: list[Painting] = Field(default_factory=list)
    """Paintings out of the game: sold to the bank, worthless at a round's end, or ending a round."""
    bank_paid: int = Field(default=0, ge=0)
    """Money the bank has paid players so far (paintings sold at rounds' ends)."""
    bank_received: int = Field(default=0, ge=0)
    """Money players have paid the bank so far (auctioneers buying their own lots)."""


class HydratedGalleryGameState(GalleryGameState, Hydrated[GalleryGameState]):
    """Gallery's state with its queries."""

    deck: Annotated[HydratedDrawBag[Painting], CountOnly()] = Field(default_factory=HydratedDrawBag[Painting])
    """The undealt paintings, shuffled at setup; views show only how many (``deck_count``)."""
    rounds: HydratedRoundManager = Field(default_factory=lambda: HydratedRoundManager(max_rounds=ROUNDS))
    """The four rounds: which one runs, and the action indexes they spanned."""
    auction: (
        Annotated[
            HydratedOpenAuction
            | HydratedOnceAroundAuction
            | HydratedSealedBidAuction
            | HydratedFixedPriceAuction,
            Field(discriminator="kind"),
        ]
        | None
    ) = None
    """The lot's auction while it runs (none for a double waiting for its pair)."""

    @property
    def round_number(self) -> int:
        """The round being played (or, between rounds, the last one started); 0 before the first."""
        return self.rounds.round_count

    def current_lot(self) -> Lot:
        """The lot on the block.

        Raises:
            ValueError: Nothing is on the block.
        """
        if self.lot is None:
            msg = "nothing is on the block"
            raise ValueError(msg)
        return self.lot

    def current_auction(self) -> HydratedAuction:
        """The auction running on the lot.

        Raises:
            ValueError: No auction runs.
        """
        if self.auction is None:
            msg = "no auction runs"
            raise ValueError(msg)
        return self.auction

    def bid_order(self, auctioneer_id: str, *, auctioneer_bids: bool = True) -> list[str]:
        """The seats from the auctioneer's left, the auctioneer last (or left out)."""
        return bidding_order(self.turn_manager.turn_order, auctioneer_id, seller_bids=auctioneer_bids)

    def anyone_holds_paintings(self) -> bool:
        """True if some player still has a painting in hand."""
        return any(player.hand for player in self.players)

    def value_of(self, artist: Artist) -> int:
        """The sum of every value ``artist`` has been given in the ended rounds."""
        return sum(awarded[artist] for awarded in self.values)

    def money_in_play(self) -> int:
        """The money all players hold together: public, since every payment to or from the bank is."""
        return STARTING_MONEY * len(self.players) + self.bank_paid - self.bank_received

    def leaders(self) -> list[str]:
        """Ids of the richest players, in seating order."""
        richest = max(player.money for player in self.players)
        return [player.player_id for player in self.players if player.money == richest]


Ctx = MachineContext[HydratedGalleryGameState, GalleryConfig]
"""What handlers and actions see: the working state, the game, the PRNG."""
Handler = StateHandler[HydratedGalleryGameState, GalleryConfig]
"""The base class of every state handler of Gallery."""


def setup(ctx: Ctx) -> None:
    """Shuffle the 70 paintings into the deck with the PRNG; each round deals from it (see Deal)."""
    ctx.state.deck.shuffle_in(gallery_deck(), ctx.prng)


AUCTION_STATES = {
    AuctionKind.OPEN: MachineState.OPEN_BIDDING,
    AuctionKind.ONCE_AROUND: MachineState.ONCE_AROUND_BIDDING,
    AuctionKind.SEALED: MachineState.SEALED_BIDDING,
    AuctionKind.FIXED_PRICE: MachineState.PRICE_SETTING,
    AuctionKind.DOUBLE: MachineState.DOUBLE_OFFER,
}
"""The machine state that runs each kind of auction (a double first waits for its pair)."""


def after_put_up(state: HydratedGalleryGameState) -> MachineState:
    """Where the game goes once a painting is put up: the lot's auction, or the round's end."""
    return MachineState.ROUND_END if state.lot is None else AUCTION_STATES[state.current_lot().kind]


def put_up(state: HydratedGalleryGameState, player_id: str, painting: Painting) -> bool:
    """Move ``painting`` from the player's hand onto the block and count it for its artist.

    If it is the fifth painting of its artist this round, the round ends at once: the whole
    lot (the painting, and a double's first card if it is the pair's second) is discarded
    unsold and the block is cleared. Returns True if so. A double put up alone is offered for
    pairing to its auctioneer, then to the others from their left.
    """
    hand = state.player(player_id).hand
    hand.remove(painting)
    state.played[painting.artist] += 1
    lot = state.lot
    if lot is None:
        state.lot = lot = Lot(auctioneer_id=player_id, paintings=[painting], kind=painting.kind)
        if painting.kind is AuctionKind.DOUBLE:  # its auctioneer is asked for a second one first
            lot.offered_to = [player_id, *state.bid_order(player_id, auctioneer_bids=False)]
    else:
        lot.paintings.append(painting)
        lot.kind = painting.kind
        lot.auctioneer_id = player_id
        lot.offered_to = []
    if state.played[painting.artist] < ROUND_ENDING_COUNT:
        return False
    state.discard.extend(lot.paintings)
    state.lot = None
    return True
