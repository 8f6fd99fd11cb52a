"""Dealing: 52 chance points deal the cards one at a time while nobody may act, then the pass."""

from tabletop import UNKEYED
from tabletop._engine import resume_paused, start_paused
from tabletop.testing import GameHarness, make_game
from tabletop_hearts.actions.deal_card import HydratedDealCard
from tabletop_hearts.components.cards import DECK, card_key
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import HydratedHeartsGameState

Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]
SEATS = ["p1", "p2", "p3", "p4"]


def test_the_deal_gives_card_i_to_seat_i_mod_4_and_every_card_once(harness: Harness) -> None:
    deals = harness.recorded(HydratedDealCard)
    assert len(deals) == len(DECK) == 52
    assert [deal.to for deal in deals] == [SEATS[i % 4] for i in range(52)]  # as OpenSpiel deals
    assert sorted(card_key(deal.outcome) for deal in deals if deal.outcome) == sorted(
        card_key(c) for c in DECK
    )
    for seat in SEATS:  # each hand is what was dealt to it, kept in hand order
        hand = harness.state.player(seat).hand
        assert sorted(map(card_key, hand)) == sorted(
            card_key(d.outcome) for d in deals if d.to == seat and d.outcome
        )
        assert len(hand) == 13
    assert harness.state.machine_state == MachineState.PASSING


def test_nobody_may_act_while_the_cards_are_dealt() -> None:
    from tabletop import GameEngine, MachineContext
    from tabletop_hearts import definition

    engine = GameEngine(definition)
    game = make_game(definition, players=4, seed=7)
    paused = start_paused(engine, game, UNKEYED)  # stopped at the first card, still undecided
    state = paused.state
    for dealt in range(52):
        assert state.machine_state == MachineState.DEALING and state.active_player_ids == []
        assert not any(engine.legal_actions(state, seat, game) for seat in SEATS)
        assert sum(len(player.hand) for player in state.players) == dealt
        pending = paused.pending[0]
        assert isinstance(pending, HydratedDealCard) and pending.to == SEATS[dealt % 4]
        chances = pending.chances(MachineContext(state, game))
        assert len(chances) == 52 - dealt  # every card not dealt yet, equally likely
        assert {weight for _, weight in chances} == {1}
        paused = resume_paused(engine, paused.pending, chances[-1][0], state, game)
    assert state.machine_state == MachineState.PASSING and state.active_player_ids == SEATS
    assert all(len(player.hand) == 13 for player in state.players)
