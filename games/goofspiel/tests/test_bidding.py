"""Bidding: each round turns up the next prize; both players are active until both have bid."""

from collections.abc import Callable, Mapping

import pytest
from tabletop import ActionSource
from tabletop.testing import GameHarness
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.actions.reveal_prize import HydratedRevealPrize
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState
from tabletop_goofspiel.state_handlers.bidding import Bidding

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


def test_the_game_starts_with_the_first_prize_up_and_both_players_active(make_harness: MakeHarness) -> None:
    harness = make_harness(prizes=[8])
    state = harness.state
    assert state.machine_state is MachineState.BIDDING
    assert state.active_player_ids == ["p1", "p2"]
    assert state.prize == 8  # the start's one chance point
    assert state.prizes_left == [card for card in range(1, 14) if card != 8]
    auction = state.current_auction()
    assert (auction.participants, auction.bids) == (["p1", "p2"], [])
    assert state.round_number == 1


def _between_rounds(state: HydratedGoofspielGameState) -> None:
    state.prize, state.auction, state.active_player_ids = None, None, []


def test_enter_without_a_prize_queues_its_chance_point_and_lets_nobody_act(harness: Harness) -> None:
    ctx = harness.context()
    _between_rounds(ctx.state)
    Bidding().enter(ctx)
    (queued,) = ctx.queue
    assert isinstance(queued, HydratedRevealPrize) and queued.source is ActionSource.SYSTEM
    assert (ctx.state.prize, ctx.state.auction, ctx.state.active_player_ids) == (None, None, [])
    assert harness.engine.valid_action_types(ctx.state, "p1", harness.game) == []


def test_the_revealed_prize_opens_the_round(harness: Harness) -> None:
    ctx = harness.context()
    _between_rounds(ctx.state)
    prize = HydratedRevealPrize.model_validate({"id": "s1", "game_id": "game-1", "outcome": 11})
    prize.apply(ctx)
    assert Bidding().on_action(prize, ctx) is MachineState.BIDDING  # entered again: the round opens
    Bidding().enter(ctx)
    assert ctx.state.prize == 11 and not ctx.queue
    assert ctx.state.active_player_ids == ["p1", "p2"]
    assert ctx.state.current_auction().waiting_for == ["p1", "p2"]


@pytest.mark.parametrize(("order", "first", "second"), [("descending", 5, 4), ("ascending", 1, 2)])
def test_a_fixed_order_turns_up_the_prizes_without_chance(
    make_harness: MakeHarness, play_round: PlayRound, order: str, first: int, second: int
) -> None:
    harness = make_harness(cards=5, points_order=order, prizes=[])  # any chance point would fail
    assert harness.state.prize == first
    result = harness.run(harness.action(HydratedBid, "p1", card=1))
    result = harness.run(harness.action(HydratedBid, "p2", card=2))
    assert [action.type for action in result.actions] == ["Bid", "Reveal"]
    assert harness.state.prize == second
    assert harness.state.active_player_ids == ["p1", "p2"]


def test_entering_again_after_a_bid_leaves_the_open_round_alone(harness: Harness) -> None:
    ctx = harness.context()
    harness.action(HydratedBid, "p1", card=4).apply(ctx)
    before = ctx.state.model_dump_json()
    Bidding().enter(ctx)
    assert ctx.state.model_dump_json() == before


def test_only_a_player_who_has_not_bid_may_bid(harness: Harness, play_round: PlayRound) -> None:
    engine, game = harness.engine, harness.game
    assert engine.valid_action_types(harness.state, "p1", game) == ["Bid"]
    assert engine.valid_action_types(harness.state, "p2", game) == ["Bid"]
    play_round(harness, {"p2": 3})
    assert engine.valid_action_types(harness.state, "p2", game) == []
    assert engine.valid_action_types(harness.state, "p1", game) == ["Bid"]
    assert harness.legal_actions("p2") == []
    assert len(harness.legal_actions("p1")) == 13


def test_on_action_waits_for_the_second_bid(harness: Harness) -> None:
    ctx = harness.context()
    action = harness.action(HydratedBid, "p2", card=4)
    action.apply(ctx)
    assert Bidding().on_action(action, ctx) is MachineState.BIDDING
    assert not ctx.queue


def test_on_action_queues_a_revealing_system_action_once_both_bids_are_in(harness: Harness) -> None:
    ctx = harness.context()
    for player_id, card in [("p2", 4), ("p1", 9)]:
        action = harness.action(HydratedBid, player_id, card=card)
        action.apply(ctx)
    assert Bidding().on_action(action, ctx) is MachineState.REVEALING
    (queued,) = ctx.queue
    assert isinstance(queued, HydratedReveal)
    assert (queued.source, queued.reveals_info, queued.player_id) == (ActionSource.SYSTEM, True, None)


def test_after_the_reveal_the_next_prize_comes_up(make_harness: MakeHarness, play_round: PlayRound) -> None:
    harness = make_harness(prizes=[13, 2])
    state = play_round(harness, {"p1": 1, "p2": 2})
    assert state.machine_state is MachineState.BIDDING
    assert (state.rounds[0].prize, state.prize, state.round_number) == (13, 2, 2)
    assert state.prizes_left == [1, *range(3, 13)]
    assert state.active_player_ids == ["p1", "p2"]
    assert state.current_auction().bids == []
