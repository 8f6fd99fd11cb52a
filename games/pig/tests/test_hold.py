"""Hold: bank the turn total into your score and pass the turn; only after rolling something."""

import pytest
from tabletop import GameAction, IllegalActionError
from tabletop.testing import GameHarness
from tabletop_pig.actions.hold import HoldMetadata, HydratedHold
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import HydratedPigGameState

Harness = GameHarness[HydratedPigGameState, PigConfig]


def test_apply_banks_the_turn_total(harness: Harness) -> None:
    ctx = harness.context()
    ctx.state.player("p1").score = 40
    ctx.state.turn_total = 13
    action = harness.action(HydratedHold, "p1")
    action.check(ctx)
    action.apply(ctx)
    assert (ctx.state.player("p1").score, ctx.state.turn_total) == (53, 0)
    assert action.metadata == HoldMetadata(banked=13, score=53)
    assert ctx.state.player("p2").score == 0 and harness.state.player("p1").score == 0


def test_check_refuses_to_hold_before_rolling(harness: Harness) -> None:
    ctx = harness.context()
    with pytest.raises(IllegalActionError) as caught:
        harness.action(HydratedHold, "p1").check(ctx)
    assert (caught.value.code, caught.value.path) == ("nothing-to-hold", None)


def test_the_engine_refuses_an_empty_hold_and_changes_nothing(harness: Harness) -> None:
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedHold, "p1"))
    assert caught.value.code == "nothing-to-hold"
    assert harness.state.model_dump_json() == before


def test_a_player_may_not_hold_out_of_turn(harness: Harness) -> None:
    harness.state.turn_total = 8  # p1's points: p2 cannot bank them
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedHold, "p2"))
    assert (caught.value.code, caught.value.path) == ("player-not-active", "player_id")


def test_the_engine_banks_and_passes_the_turn(harness: Harness) -> None:
    harness.state.turn_total = 9
    result = harness.run(harness.action(HydratedHold, "p1"))
    (hold,) = result.actions
    assert isinstance(hold, HydratedHold) and hold.metadata == HoldMetadata(banked=9, score=9)
    state = result.state
    assert (state.player("p1").score, state.turn_total, state.active_player_ids) == (9, 0, ["p2"])


@pytest.mark.parametrize(("turn_total", "offered"), [(0, False), (5, True)])
def test_a_hold_is_legal_only_with_points_to_bank(harness: Harness, turn_total: int, offered: bool) -> None:
    harness.state.turn_total = turn_total
    expected = [("Hold", "p1")] if offered else []
    assert [(a.type, a.player_id) for a in HydratedHold.enumerate(harness.state, "p1")] == [("Hold", "p1")]
    legal = harness.engine.legal_actions(harness.state, "p1", harness.game)
    assert [(a.type, a.player_id) for a in legal if a.type == "Hold"] == expected


def test_the_action_space_holds_every_enumerated_hold(harness: Harness) -> None:
    state = harness.engine.copy_state(harness.state)
    state.turn_total = 5
    space = HydratedHold.action_space(harness.game)
    assert space == [{}]
    (action,) = HydratedHold.enumerate(state, "p1")
    assert action.model_dump(mode="json", exclude=set(GameAction.model_fields) | {"metadata"}) in space
