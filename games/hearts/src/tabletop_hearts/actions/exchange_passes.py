"""ExchangePasses: the system hands every player the three cards passed to them."""

from typing import Literal

from tabletop import GameAction, HydratedAction, IllegalActionError

from tabletop_hearts.components.cards import card_key, sort_key
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import Ctx, HydratedHeartsGameState


class ExchangePasses(GameAction):
    """Every pass lands at once: each player's three cards go to the receiver of this deal's direction."""

    system_only = True

    type: Literal[ActionType.EXCHANGE_PASSES] = ActionType.EXCHANGE_PASSES
    """The action tag."""


class HydratedExchangePasses(
    ExchangePasses, HydratedAction[ExchangePasses, HydratedHeartsGameState, HeartsConfig]
):
    """ExchangePasses' rules: queued by the game once all four passes are in."""

    def check(self, ctx: Ctx) -> None:
        """Code ``passes-missing``: some player has not passed yet."""
        if not all(player.has_passed for player in ctx.state.players):
            raise IllegalActionError("passes-missing", "not every player has passed")

    def apply(self, ctx: Ctx) -> None:
        """Move every passed card from its passer's hand to its receiver's (``received``)."""
        state = ctx.state
        for player in state.players:
            passed = {card_key(card) for card in player.passed}
            player.hand = [card for card in player.hand if card_key(card) not in passed]
        for player in state.players:
            receiver = state.player(state.receiver_of(player.player_id))
            receiver.received = list(player.passed)
            receiver.hand = sorted([*receiver.hand, *player.passed], key=sort_key)
