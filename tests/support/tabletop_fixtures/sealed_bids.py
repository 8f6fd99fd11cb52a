"""A sealed-bid card game: hidden information and simultaneous bids (fixture for views and the engine).

Every round, each player with cards bids one card from their hand in secret, all at once (one
simultaneous group per round). Once every bid is in, the system reveals them: the highest rank
wins all bid cards' ranks as points (equal ranks: the host's secret tie-break suit decides, or
nobody wins). Then each player draws a card while the deck has one for everyone. The game ends when the hands
are empty; the highest score wins.

Visibility: hands are count-only, a bid is owner-only (in the state and in the ``Bid`` action),
the deck is count-only, the burned cards are order-only, the tie-break suit is host-only, each
player's target is owner-only until the game ends (a custom policy), the deal notes are owned by
their ``author`` (an ``Owner`` field), and a ``Draw``'s card is seen by its drawer only.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import Field, JsonValue
from tabletop import (
    Game,
    GameAction,
    GameConfig,
    GameDefinition,
    GameState,
    Hydrated,
    HydratedAction,
    IllegalActionError,
    MachineContext,
    Model,
    PlayerState,
    StateHandler,
    TerminalHandler,
)
from tabletop.views import CountOnly, CustomVisibility, HostOnly, OrderOnly, Owner, OwnerOnly, Viewer


class Phase(StrEnum):
    BIDDING = "Bidding"
    REVEALING = "Revealing"
    DONE = "Done"


class Kind(StrEnum):
    BID = "Bid"
    REVEAL = "Reveal"
    DRAW = "Draw"


class Suit(StrEnum):
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"


class Card(Model, frozen=True):
    """A playing card."""

    rank: int = Field(ge=1, le=13)
    """1 (ace) to 13 (king)."""
    suit: Suit
    """The suit."""


DECK = [Card(rank=rank, suit=suit) for suit in Suit for rank in range(1, 14)]


class RevealedAtEnd(CustomVisibility):
    """Seen by its owner, and by everyone once the game is over."""

    def visible_to(self, viewer: Viewer) -> bool:
        return viewer.is_owner or getattr(viewer.root, "result", None) is not None


class SealedBidsConfig(GameConfig):
    hand_size: int = Field(default=7, ge=1, le=10)
    """Cards dealt to each player."""
    burn: int = Field(default=2, ge=0, le=5)
    """Cards burned face down before the deal."""


class Bidder(PlayerState):
    hand: Annotated[list[Card], CountOnly()] = Field(default_factory=list)
    """The cards in hand; others see how many."""
    bid: Annotated[Card | None, OwnerOnly()] = None
    """This round's sealed bid, until the reveal."""
    target: Annotated[int, RevealedAtEnd()] = 0
    """A secret target score, public once the game is over."""
    score: int = Field(default=0, ge=0)
    """Points won."""
    won: list[Card] = Field(default_factory=list)
    """Cards won, in order."""


class Note(Model):
    """What one player was told at the deal."""

    author: Annotated[str, Owner()]
    """Whose note it is."""
    text: Annotated[str, OwnerOnly()]
    """The note."""


class SealedBidsState(GameState[Bidder, Phase]):
    deck: Annotated[list[Card], CountOnly()] = Field(default_factory=list)
    """The face-down stock, top last."""
    burned: Annotated[list[Card], OrderOnly()] = Field(default_factory=list)
    """Cards burned face down at the start."""
    tie_break: Annotated[Suit, HostOnly()] = Suit.SPADES
    """The suit that wins a tie of ranks; nobody at the table knows it."""
    notes: dict[str, Note] = Field(default_factory=dict)
    """One deal note per player id."""
    last_bids: dict[str, Card] = Field(default_factory=dict)
    """The bids of the last revealed round, by player id."""


class HydratedBidder(Bidder, Hydrated[Bidder]):
    def has_bid(self) -> bool:
        """True once this round's bid is in (reads an owner-only field)."""
        return self.bid is not None

    @property
    def points(self) -> int:
        """The score (reads a public field)."""
        return self.score


class HydratedSealedBidsState(SealedBidsState, Hydrated[SealedBidsState]):
    def leaders(self) -> list[str]:
        """The players with the highest score (reads public fields only)."""
        best = max(player.score for player in self.players)
        return [player.player_id for player in self.players if player.score == best]

    def cards_in_deck(self) -> int:
        """How many cards are left to draw (reads the count-only deck)."""
        return len(self.deck)


Ctx = MachineContext[SealedBidsState, SealedBidsConfig]


class Bid(GameAction):
    type: Literal[Kind.BID] = Kind.BID
    """Tag."""
    player_id: str
    """Who bids."""
    card: Annotated[Card, OwnerOnly()]
    """The card bid: secret to the bidder."""


class HydratedBid(Bid, HydratedAction[Bid, SealedBidsState, SealedBidsConfig]):
    def check(self, ctx: Ctx) -> None:
        if self.card not in ctx.state.player(self.player_id).hand:
            raise IllegalActionError("not-in-hand", "you can only bid a card in your hand", path="card")

    def apply(self, ctx: Ctx) -> None:
        player = ctx.state.player(self.player_id)
        player.hand.remove(self.card)
        player.bid = self.card

    @classmethod
    def enumerate(cls, state: SealedBidsState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id, card=card) for card in state.player(player_id).hand]

    @classmethod
    def action_space(cls, game: Game[SealedBidsConfig]) -> list[dict[str, JsonValue]]:
        return [{"card": card.model_dump(mode="json")} for card in DECK]


class RevealMetadata(Model):
    """What the reveal showed."""

    bids: dict[str, Card]
    """Every bid, by player id."""
    winner_id: str | None
    """Who took the round, if anyone."""


class Reveal(GameAction):
    type: Literal[Kind.REVEAL] = Kind.REVEAL
    """Tag."""
    metadata: RevealMetadata | None = None
    """The revealed bids."""


class HydratedReveal(Reveal, HydratedAction[Reveal, SealedBidsState, SealedBidsConfig]):
    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        bids = {player.player_id: player.bid for player in state.players if player.bid is not None}
        best = max(card.rank for card in bids.values())
        top = [pid for pid, card in bids.items() if card.rank == best]
        if len(top) > 1:
            top = [pid for pid in top if bids[pid].suit == state.tie_break]
        winner = top[0] if len(top) == 1 else None
        if winner is not None:
            player = state.player(winner)
            player.score += sum(card.rank for card in bids.values())
            player.won.extend(bids.values())
        for player in state.players:
            player.bid = None
        state.last_bids = bids
        self.metadata = RevealMetadata(bids=bids, winner_id=winner)
        if len(state.deck) >= len(state.players):  # everyone draws, or nobody does
            for player in state.players:
                ctx.add_system_action(HydratedDraw, drawer=player.player_id)


class DrawMetadata(Model):
    """What was drawn."""

    card: Annotated[Card, OwnerOnly()]
    """The card drawn: seen by the drawer only."""


class Draw(GameAction):
    type: Literal[Kind.DRAW] = Kind.DRAW
    """Tag."""
    drawer: Annotated[str, Owner()]
    """Who draws (owns the metadata)."""
    metadata: DrawMetadata | None = None
    """The card drawn."""


class HydratedDraw(Draw, HydratedAction[Draw, SealedBidsState, SealedBidsConfig]):
    def apply(self, ctx: Ctx) -> None:
        card = ctx.state.deck.pop()
        ctx.state.player(self.drawer).hand.append(card)
        self.metadata = DrawMetadata(card=card)


class Bidding(StateHandler[SealedBidsState, SealedBidsConfig]):
    accepts = (Kind.BID,)
    transitions_to = (Phase.BIDDING, Phase.REVEALING)

    def enter(self, ctx: Ctx) -> None:
        if ctx.state.simultaneous_group is None:
            ctx.open_simultaneous_group()
        ctx.state.active_player_ids = [p.player_id for p in ctx.state.players if p.hand and p.bid is None]

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
        if any(p.hand and p.bid is None for p in ctx.state.players):
            return Phase.BIDDING  # still waiting for someone's bid
        ctx.close_simultaneous_group()
        ctx.add_system_action(HydratedReveal, reveals_info=True)
        return Phase.REVEALING


class Revealing(StateHandler[SealedBidsState, SealedBidsConfig]):
    accepts = (Kind.REVEAL, Kind.DRAW)
    transitions_to = (Phase.REVEALING, Phase.BIDDING, Phase.DONE)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = []

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
        if ctx.queue:
            return Phase.REVEALING
        return Phase.BIDDING if any(p.hand for p in ctx.state.players) else Phase.DONE


class Done(TerminalHandler[SealedBidsState, SealedBidsConfig]):
    def enter(self, ctx: Ctx) -> None:
        best = max(p.score for p in ctx.state.players)
        ctx.end_game([p.player_id for p in ctx.state.players if p.score == best])


def setup(ctx: Ctx) -> None:
    """Shuffle, burn, deal, then draw the tie-break suit and each player's target."""
    state = ctx.state
    state.deck = ctx.prng.shuffled(DECK)
    for _ in range(ctx.config.burn):
        state.burned.append(state.deck.pop())
    for player in state.players:
        player.hand = [state.deck.pop() for _ in range(ctx.config.hand_size)]
        best = max(card.rank for card in player.hand)
        state.notes[player.player_id] = Note(author=player.player_id, text=f"your best rank is {best}")
    state.tie_break = ctx.prng.pick_random(list(Suit))
    for player in state.players:
        player.target = ctx.prng.rand_range(20, 80)


def make_definition() -> GameDefinition[SealedBidsState, SealedBidsConfig]:
    """The sealed-bids game's definition."""
    return GameDefinition(
        name="sealed-bids",
        state_type=HydratedSealedBidsState,
        config_type=SealedBidsConfig,
        machine_states=Phase,
        initial_state=Phase.BIDDING,
        action_types=Kind,
        actions=[HydratedBid, HydratedReveal, HydratedDraw],
        handlers={Phase.BIDDING: Bidding(), Phase.REVEALING: Revealing(), Phase.DONE: Done()},
        setup=setup,
        min_players=2,
        max_players=4,
    )
