"""PassCards: choose three cards of your hand to pass; they are hidden until every pass lands."""

from collections.abc import Sequence
from itertools import combinations
from typing import Annotated, Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError
from tabletop.components import Card
from tabletop.views import OwnerOnly

from tabletop_hearts.components.cards import CARDS_IN_PASS, DECK, card_key
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import Ctx, HydratedHeartsGameState


class PassCards(GameAction):
    """Pass three cards of your hand (to the left, right or across, by deal); all four pass at once."""

    type: Literal[ActionType.PASS_CARDS] = ActionType.PASS_CARDS
    """The action tag."""
    player_id: str
    """The passing player."""
    cards: Annotated[list[Card], OwnerOnly()] = Field(min_length=CARDS_IN_PASS, max_length=CARDS_IN_PASS)
    """Three different cards of the passer's hand. Owner-only: the receiver sees them when the pass lands."""


class HydratedPassCards(PassCards, HydratedAction[PassCards, HydratedHeartsGameState, HeartsConfig]):
    """PassCards' rules: once a deal, three different cards from the hand."""

    def check(self, ctx: Ctx) -> None:
        """Codes ``already-passed``, ``duplicate-card`` and ``card-not-in-hand`` (path ``cards``)."""
        player = ctx.state.player(self.player_id)
        if player.has_passed:
            raise IllegalActionError("already-passed", f"{self.player_id!r} has passed this deal")
        keys = [card_key(card) for card in self.cards]
        if len(set(keys)) != len(keys):
            raise IllegalActionError("duplicate-card", "pass three different cards", path="cards")
        held = {(card.rank, card.suit) for card in player.hand}  # card_key, inlined: 286 checks a seat
        for index, card in enumerate(self.cards):
            if keys[index] not in held:
                raise IllegalActionError(
                    "card-not-in-hand", f"{self.player_id!r} does not hold {card.code}", path=f"cards.{index}"
                )

    def apply(self, ctx: Ctx) -> None:
        """Set the cards aside for the pass; they leave the hand when every pass is in."""
        player = ctx.state.player(self.player_id)
        player.passed = list(self.cards)
        player.has_passed = True

    @classmethod
    def enumerate(cls, state: HydratedHeartsGameState, player_id: str) -> Sequence[Self]:
        """Every three cards of the hand (286 of a full hand), unless the player has passed."""
        player = state.player(player_id)
        if player.has_passed:
            return []
        trios = [list(trio) for trio in combinations(player.hand, CARDS_IN_PASS)]
        return cls.candidates(state, player_id, "cards", trios)  # a search builds only the drawn one

    @classmethod
    def action_space(cls, game: Game[HeartsConfig]) -> list[dict[str, JsonValue]]:
        """Every three cards of the deck, in hand order (22,100 payloads)."""
        dumped = [card.model_dump(mode="json") for card in DECK]
        return [{"cards": list(trio)} for trio in combinations(dumped, CARDS_IN_PASS)]
