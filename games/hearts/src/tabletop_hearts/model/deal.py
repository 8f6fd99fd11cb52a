"""The deal: the one place where Hearts draws randomness."""

from tabletop_hearts.components.cards import DECK, HAND_SIZE, PassDirection, sort_key
from tabletop_hearts.model.game_state import Ctx


def deal(ctx: Ctx) -> None:
    """Start the next deal: shuffle the 52 cards with the state's PRNG and deal them one at a time.

    Card ``i`` of the shuffled deck goes to seat ``i mod 4`` (the first seat first), as OpenSpiel
    deals; hands are then sorted. Resets everything a deal keeps (pass, tricks, points, hearts
    broken) and sets the deal's pass direction by its number.
    """
    state = ctx.state
    state.deal_number += 1
    state.pass_direction = PassDirection.for_deal(state.deal_number, pass_cards=state.rules.pass_cards)
    state.hearts_broken = not state.rules.must_break_hearts
    state.trick = []
    state.tricks = []
    cards = ctx.prng.shuffled(list(DECK))
    seats = len(state.players)
    for index, player in enumerate(state.players):
        player.hand = sorted(cards[index::seats][:HAND_SIZE], key=sort_key)
        player.passed = []
        player.has_passed = False
        player.received = []
        player.points = 0
        player.tricks_won = 0
