"""The deal: the one place where Hearts' randomness enters, as 52 declared chance points."""

from tabletop_hearts.actions.deal_card import HydratedDealCard
from tabletop_hearts.components.cards import DECK, PassDirection
from tabletop_hearts.model.game_state import Ctx


def deal(ctx: Ctx) -> None:
    """Start the next deal: reset what a deal keeps and queue one ``DealCard`` per card.

    Card ``i`` goes to seat ``i mod 4`` (the first seat first), as OpenSpiel deals; the engine
    decides each card among those not dealt yet. Sets the deal's number and its pass direction.
    """
    state = ctx.state
    state.deal_number += 1
    state.pass_direction = PassDirection.for_deal(state.deal_number, pass_cards=state.rules.pass_cards)
    state.hearts_broken = not state.rules.must_break_hearts
    state.trick = []
    state.tricks = []
    for player in state.players:
        player.hand = []
        player.passed = []
        player.has_passed = False
        player.received = []
        player.points = 0
        player.tricks_won = 0
    seats = [player.player_id for player in state.players]
    for index in range(len(DECK)):
        ctx.add_system_action(HydratedDealCard, to=seats[index % len(seats)])


def dealt(ctx: Ctx) -> bool:
    """True once the 52 cards of the deal are in the hands."""
    return sum(len(player.hand) for player in ctx.state.players) == len(DECK)
