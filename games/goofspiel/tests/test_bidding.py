"""Bidding: each round turns up the next prize; both players are active until both have bid."""

from collections.abc import Callable, Mapping

from tabletop import ActionSource
from tabletop.testing import GameHarness
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState
from tabletop_goofspiel.state_handlers.bidding import Bidding

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


def test_the_game_starts_with_the_first_prize_up_and_both_players_active(harness: Harness) -> None:
    state = harness.state
    assert state.machine_state is MachineState.BIDDING
    assert state.active_player_ids == ["p1", "p2"]
    assert state.prize is not None and state.prize not in state.prize_deck
    assert sorted([state.prize, *state.prize_deck]) == list(range(1, 14))
    auction = state.current_auction()
    assert (auction.participants, auction.bids) == (["p1", "p2"], [])
    assert state.round_number == 1


def _between_rounds(state: HydratedGoofspielGameState) -> None:
    state.prize, state.auction, state.active_player_ids = None, None, []


def test_enter_opens_a_round_with_the_top_prize(harness: Harness) -> None:
    ctx = harness.context()
    _between_rounds(ctx.state)
    deck = list(ctx.state.prize_deck)
    Bidding().enter(ctx)
    assert ctx.state.prize == deck[0]
    assert ctx.state.prize_deck == deck[1:]
    assert ctx.state.active_player_ids == ["p1", "p2"]
    assert ctx.state.current_auction().waiting_for == ["p1", "p2"]


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


def test_after_the_reveal_the_next_prize_comes_up(harness: Harness, play_round: PlayRound) -> None:
    deck = list(harness.state.prize_deck)
    state = play_round(harness, {"p1": 1, "p2": 2})
    assert state.machine_state is MachineState.BIDDING
    assert (state.prize, state.prize_deck, state.round_number) == (deck[0], deck[1:], 2)
    assert state.active_player_ids == ["p1", "p2"]
    assert state.current_auction().bids == []
