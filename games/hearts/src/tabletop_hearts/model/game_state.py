"""Hearts' state, its queries (the legal plays above all), and its initializer."""

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext, Model, StateHandler
from tabletop.components import Card, Rank, Suit

from tabletop_hearts.components.cards import (
    PLAYERS,
    PassDirection,
    card_key,
    card_points,
    is_queen_of_spades,
    rank_value,
)
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig, HeartsRules
from tabletop_hearts.model.player_state import HeartsPlayerState


class PlayedCard(Model):
    """A card played to a trick, and by whom (public)."""

    player_id: str
    """Who played it."""
    card: Card
    """The card."""


class Trick(Model):
    """A finished trick: its four cards in the order played, who took it and its points."""

    cards: list[PlayedCard] = Field(min_length=PLAYERS, max_length=PLAYERS)
    """The cards in the order played; the first is the lead."""
    winner_id: str
    """Who played the highest card of the suit led, and took the trick (and leads the next)."""
    points: int
    """The trick's points: 1 a heart, 13 the queen of spades, -10 the jack of diamonds with ``jd_bonus``."""


class DealRecord(Model):
    """A finished deal: its pass direction, each player's points and totals, and the moon."""

    number: int = Field(ge=1)
    """The deal's number, from 1."""
    pass_direction: PassDirection
    """Where the cards went before play."""
    points: dict[str, int]
    """Each player's points for the deal (moon and bonuses settled), by player id, in seating order."""
    scores: dict[str, int]
    """Each player's total after the deal, by player id, in seating order."""
    moon_shooter_id: str | None = None
    """Who took every heart and the queen of spades (0 points for them, 26 for each other), if anyone."""


class HeartsGameState(GameState[HeartsPlayerState, MachineState]):
    """Hearts' state: the deal under way (pass, trick on the table, finished tricks) and past deals."""

    rules: HeartsRules = Field(default_factory=HeartsRules)
    """The game's rule options (copied from its config: the state's queries read them)."""
    deal_number: int = Field(default=0, ge=0)
    """The deal under way, from 1 (0 before the first deal)."""
    pass_direction: PassDirection = PassDirection.NONE
    """Where this deal's cards are passed."""
    hearts_broken: bool = False
    """True once hearts may be led (always, without ``must_break_hearts``)."""
    trick: list[PlayedCard] = Field(default_factory=list)
    """The trick on the table, in the order played (empty between tricks)."""
    tricks: list[Trick] = Field(default_factory=list)
    """This deal's finished tricks, oldest first."""
    deals: list[DealRecord] = Field(default_factory=list)
    """Every finished deal, oldest first."""


class HydratedHeartsGameState(HeartsGameState, Hydrated[HeartsGameState]):
    """Hearts' state with its queries."""

    @property
    def cards_played(self) -> int:
        """Cards played this deal: four per finished trick and those on the table."""
        return len(self.tricks) * PLAYERS + len(self.trick)

    def led_suit(self) -> Suit | None:
        """The suit led to the trick on the table; None if nobody has led it yet."""
        return self.trick[0].card.suit if self.trick else None

    def receiver_of(self, player_id: str) -> str:
        """Who gets ``player_id``'s passed cards this deal (``player_id`` itself if nobody passes)."""
        ids = [player.player_id for player in self.players]
        return ids[(ids.index(player_id) + self.pass_direction.offset) % len(ids)]

    def holder_of(self, card: Card) -> str | None:
        """Who holds ``card`` now; None once it has been played."""
        key = card_key(card)
        return next((p.player_id for p in self.players if any(card_key(c) == key for c in p.hand)), None)

    def legal_plays(self, player_id: str) -> list[Card]:
        """The cards ``player_id`` may play now, in hand order (OpenSpiel's rules, option by option).

        Follow suit if you can. The first lead is the two of clubs (any club with
        ``can_lead_any_club``). On the first trick, with ``no_pts_on_first_trick``, no heart and
        no queen of spades unless the hand holds nothing else. A lead may not be a heart before
        hearts are broken unless the hand holds nothing else; with
        ``can_lead_hearts_instead_of_qs`` a hand of hearts and the queen of spades may lead either.
        """
        hand = self.player(player_id).hand
        led = self.led_suit()
        if led is not None:
            follow = [card for card in hand if card.suit is led]
            if follow:
                return follow
        rules = self.rules
        played = self.cards_played
        if played == 0:
            two = next((card for card in hand if card.suit is Suit.CLUBS and card.rank is Rank.TWO), None)
            if two is None:
                return []
            clubs = [card for card in hand if card.suit is Suit.CLUBS] if rules.can_lead_any_club else []
            return clubs or [two]
        if rules.no_pts_on_first_trick and played < PLAYERS:
            safe = [card for card in hand if not is_queen_of_spades(card) and card.suit is not Suit.HEARTS]
            if safe:
                return safe
        if led is None:
            leads = [card for card in hand if card.suit is not Suit.HEARTS or self.hearts_broken]
            if rules.can_lead_hearts_instead_of_qs and len(leads) == 1 and is_queen_of_spades(leads[0]):
                leads = []
            if leads:
                return leads
        return list(hand)

    def trick_winner(self) -> PlayedCard:
        """The card taking the trick on the table so far: the highest of the suit led."""
        led = self.trick[0].card.suit
        return max((play for play in self.trick if play.card.suit is led), key=lambda p: rank_value(p.card))

    def trick_points(self) -> int:
        """The points of the cards on the table."""
        return sum(card_points(play.card, jd_bonus=self.rules.jd_bonus) for play in self.trick)

    def leaders(self) -> list[str]:
        """Ids of the players with the lowest total, in seating order."""
        best = min(player.score for player in self.players)
        return [player.player_id for player in self.players if player.score == best]


Ctx = MachineContext[HydratedHeartsGameState, HeartsConfig]
"""What handlers and actions see: the working state, the game, the PRNG."""
Handler = StateHandler[HydratedHeartsGameState, HeartsConfig]
"""The base class of every state handler of Hearts."""


def setup(ctx: Ctx) -> None:
    """Copy the rule options into the state; the first deal is the Dealing state's (see ``deal``)."""
    ctx.state.rules = ctx.config.rules()
