"""PlayCard: play a card of your hand to the trick on the table."""

from collections.abc import Sequence
from typing import Literal, Self

from pydantic import JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError, Model
from tabletop.components import Card, Suit

from tabletop_hearts.components.cards import DECK, PLAYERS, TRICKS, TWO_OF_CLUBS, card_key, is_queen_of_spades
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import Ctx, DealRecord, HydratedHeartsGameState, PlayedCard, Trick
from tabletop_hearts.model.scoring import settle_deal


class PlayCardMetadata(Model):
    """What a PlayCard decided: the trick it finished, and the deal it finished (all public)."""

    trick: Trick | None = None
    """The trick this card finished (who took it, its points); null if the trick goes on."""
    deal: DealRecord | None = None
    """The deal this card finished (points, totals, the moon); null if the deal goes on."""


class PlayCard(GameAction):
    """Play a card to the trick: follow the suit led if you can."""

    type: Literal[ActionType.PLAY_CARD] = ActionType.PLAY_CARD
    """The action tag."""
    player_id: str
    """The player on turn."""
    card: Card
    """A card of the player's hand that the rules allow now."""
    metadata: PlayCardMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedPlayCard(PlayCard, HydratedAction[PlayCard, HydratedHeartsGameState, HeartsConfig]):
    """PlayCard's rules: the legal plays are ``HydratedHeartsGameState.legal_plays``."""

    def check(self, ctx: Ctx) -> None:
        """Codes (path ``card``): ``card-not-in-hand``, ``must-follow-suit``, ``must-lead-two-of-clubs``,
        ``no-points-on-first-trick``, ``hearts-not-broken``."""
        state = ctx.state
        hand = state.player(self.player_id).hand
        card = self.card
        key = card_key(card)
        if all(card_key(held) != key for held in hand):
            raise IllegalActionError(
                "card-not-in-hand", f"{self.player_id!r} does not hold {card.code}", path="card"
            )
        if any(card_key(legal) == key for legal in state.legal_plays(self.player_id)):
            return
        led = state.led_suit()
        if led is not None and any(held.suit is led for held in hand):
            raise IllegalActionError("must-follow-suit", f"follow the suit led: {led.value}", path="card")
        if state.cards_played == 0:
            which = "a club" if state.rules.can_lead_any_club else f"the {TWO_OF_CLUBS.code}"
            raise IllegalActionError("must-lead-two-of-clubs", f"the first lead is {which}", path="card")
        if state.cards_played < PLAYERS and (card.suit is Suit.HEARTS or is_queen_of_spades(card)):
            raise IllegalActionError(
                "no-points-on-first-trick", "no heart and no queen of spades on the first trick", path="card"
            )
        raise IllegalActionError(
            "hearts-not-broken", "hearts may not be led before they are broken", path="card"
        )

    def apply(self, ctx: Ctx) -> None:
        """Play the card; a fourth gives the trick to the highest of the suit led, a 52nd ends the deal."""
        state = ctx.state
        player = state.player(self.player_id)
        key = card_key(self.card)
        player.hand = [card for card in player.hand if card_key(card) != key]
        state.trick.append(PlayedCard(player_id=self.player_id, card=self.card))
        if self.card.suit is Suit.HEARTS or (state.rules.qs_breaks_hearts and is_queen_of_spades(self.card)):
            state.hearts_broken = True
        metadata = PlayCardMetadata()
        if len(state.trick) == PLAYERS:
            winner = state.trick_winner().player_id
            trick = Trick(cards=state.trick, winner_id=winner, points=state.trick_points())
            state.tricks.append(trick)
            state.trick = []
            taker = state.player(winner)
            taker.points += trick.points
            taker.tricks_won += 1
            metadata.trick = trick
            if len(state.tricks) == TRICKS:
                metadata.deal = settle_deal(state)
        self.metadata = metadata

    @classmethod
    def enumerate(cls, state: HydratedHeartsGameState, player_id: str) -> Sequence[Self]:
        """One candidate per legal card."""
        return cls.candidates(state, player_id, "card", state.legal_plays(player_id))

    @classmethod
    def action_space(cls, game: Game[HeartsConfig]) -> list[dict[str, JsonValue]]:
        """Every card of the deck, in hand order."""
        return [{"card": card.model_dump(mode="json")} for card in DECK]
