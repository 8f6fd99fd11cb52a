"""Roll: the die comes from the state's PRNG; 2 to 6 adds to the turn total, a 1 loses it."""

from collections.abc import Callable

import pytest
from tabletop import GameAction, IllegalActionError, Prng
from tabletop.testing import GameHarness
from tabletop_pig.actions.roll import HydratedRoll, RollMetadata
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import HydratedPigGameState, PigGameState

Harness = GameHarness[HydratedPigGameState, PigConfig]
Rig = Callable[[PigGameState, int], None]


@pytest.mark.parametrize("face", [2, 3, 4, 5, 6])
def test_a_face_above_one_adds_to_the_turn_total(harness: Harness, rig: Rig, face: int) -> None:
    ctx = harness.context()
    ctx.state.turn_total = 10
    rig(ctx.state, face)
    action = harness.action(HydratedRoll, "p1")
    action.apply(ctx)
    assert (ctx.state.turn_total, ctx.state.die.face) == (10 + face, face)
    assert action.metadata == RollMetadata(face=face, turn_total=10 + face, busted=False)
    assert ctx.state.player("p1").score == 0 and harness.state.turn_total == 0  # the harness is untouched


def test_a_one_loses_the_turn_total(harness: Harness, rig: Rig) -> None:
    ctx = harness.context()
    ctx.state.turn_total = 17
    ctx.state.player("p1").score = 30
    rig(ctx.state, 1)
    action = harness.action(HydratedRoll, "p1")
    action.apply(ctx)
    assert (ctx.state.turn_total, ctx.state.die.face) == (0, 1)
    assert action.metadata == RollMetadata(face=1, turn_total=0, busted=True)
    assert ctx.state.player("p1").score == 30  # banked points are safe


def test_the_face_is_the_next_draw_of_the_state_prng(harness: Harness) -> None:
    ctx = harness.context()
    expected = Prng(ctx.state.prng.model_copy()).die_roll(6)
    draws = ctx.state.prng.invocations
    action = harness.action(HydratedRoll, "p1")
    action.apply(ctx)
    assert action.metadata is not None and action.metadata.face == expected
    assert ctx.state.prng.invocations == draws + 1  # exactly one draw per roll


def test_the_engine_records_the_roll_and_keeps_the_turn(harness: Harness, rig: Rig) -> None:
    rig(harness.state, 5)
    result = harness.run(harness.action(HydratedRoll, "p1"))
    (roll,) = result.actions
    assert isinstance(roll, HydratedRoll) and roll.metadata == RollMetadata(
        face=5, turn_total=5, busted=False
    )
    assert result.state.active_player_ids == ["p1"] and result.state.turn_total == 5


def test_the_engine_passes_the_turn_on_a_one(harness: Harness, rig: Rig) -> None:
    rig(harness.state, 4)
    harness.play(harness.action(HydratedRoll, "p1"))
    rig(harness.state, 1)
    state = harness.play(harness.action(HydratedRoll, "p1"))
    assert (state.active_player_ids, state.turn_total, state.player("p1").score) == (["p2"], 0, 0)


def test_a_player_may_not_roll_out_of_turn(harness: Harness) -> None:
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedRoll, "p2"))
    assert (caught.value.code, caught.value.path) == ("player-not-active", "player_id")
    assert harness.state.model_dump_json() == before


def test_a_client_cannot_choose_the_face(harness: Harness) -> None:
    raw = {"id": "x1", "game_id": "game-1", "type": "Roll", "player_id": "p1", "face": 6}
    with pytest.raises(IllegalActionError) as caught:
        harness.play(raw)
    assert (caught.value.code, caught.value.path) == ("unexpected-field", "face")


@pytest.mark.parametrize("turn_total", [0, 12])
def test_the_player_on_turn_may_always_roll(harness: Harness, turn_total: int) -> None:
    harness.state.turn_total = turn_total
    engine, state, game = harness.engine, harness.state, harness.game
    assert [(a.type, a.player_id, a.id) for a in HydratedRoll.enumerate(state, "p1")] == [("Roll", "p1", "")]
    assert [a.type for a in engine.legal_actions(state, "p1", game)][:1] == ["Roll"]
    assert engine.legal_actions(state, "p2", game) == []


def test_the_action_space_holds_every_enumerated_roll(harness: Harness) -> None:
    space = HydratedRoll.action_space(harness.game)
    assert space == [{}]  # a Roll carries no payload: one integer code for OpenSpiel/PettingZoo
    for action in HydratedRoll.enumerate(harness.state, "p1"):
        assert action.model_dump(mode="json", exclude=set(GameAction.model_fields) | {"metadata"}) in space
