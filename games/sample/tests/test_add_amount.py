"""AddAmount: adds to the total and the player's score, records prior and new totals."""

import pytest
from tabletop import IllegalActionError
from tabletop.testing import GameHarness
from tabletop_sample.actions.add_amount import HydratedAddAmount
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState

SampleHarness = GameHarness[HydratedSampleGameState, SampleConfig]


def test_apply_adds_to_total_and_score_and_records_metadata(harness: SampleHarness) -> None:
    ctx = harness.context()
    player = ctx.state.active_player_ids[0]
    action = harness.action(HydratedAddAmount, player, amount=3)
    action.apply(ctx)
    assert ctx.state.total == 3
    assert ctx.state.player(player).score == 3
    assert ctx.state.player(player).amount == 2
    assert action.metadata is not None
    assert (action.metadata.prior_total, action.metadata.new_total) == (0, 3)


def test_check_rejects_more_than_the_player_has_left(harness: SampleHarness) -> None:
    ctx = harness.context()
    player = ctx.state.active_player_ids[0]
    ctx.state.player(player).amount = 2
    with pytest.raises(IllegalActionError) as caught:
        harness.action(HydratedAddAmount, player, amount=3).check(ctx)
    assert (caught.value.code, caught.value.path) == ("amount-too-large", "amount")


@pytest.mark.parametrize("amount", [0, 6, -1])
def test_amounts_outside_one_to_five_are_rejected_at_the_boundary(
    harness: SampleHarness, amount: int
) -> None:
    player = harness.state.active_player_ids[0]
    payload = {"id": "x", "game_id": "game-1", "type": "AddAmount", "player_id": player, "amount": amount}
    with pytest.raises(IllegalActionError) as caught:
        harness.play(payload)
    assert (caught.value.code, caught.value.path) == ("invalid-value", "amount")


def test_enumerate_offers_one_action_per_amount_left(harness: SampleHarness) -> None:
    state = harness.state
    player = state.active_player_ids[0]
    other = next(p.player_id for p in state.players if p.player_id != player)
    assert [a.amount for a in HydratedAddAmount.enumerate(state, player)] == [1, 2, 3, 4, 5]
    assert HydratedAddAmount.enumerate(state, other) == []
    assert HydratedAddAmount.can_add_amount(state, player)
    assert not HydratedAddAmount.can_add_amount(state, other)
