"""Roll and RollDie: a roll queues the die's chance point; 2 and up add to the turn total, a 1 loses it."""

from collections.abc import Callable

import pytest
from tabletop import GameAction, IllegalActionError, Prng
from tabletop.testing import ForcedChance, GameHarness
from tabletop_pig import definition
from tabletop_pig.actions.roll import HydratedRoll
from tabletop_pig.actions.roll_die import HydratedRollDie, RollDieMetadata
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import HydratedPigGameState, PigGameState

Harness = GameHarness[HydratedPigGameState, PigConfig]
Rig = Callable[[PigGameState, int], None]


def _die(harness: Harness, face: int | None) -> HydratedRollDie:
    return HydratedRollDie.model_validate(
        {"id": "d1", "game_id": "game-1", "source": "system", "player_id": "p1", "outcome": face}
    )


@pytest.mark.parametrize("face", [2, 3, 4, 5, 6])
def test_a_face_above_one_adds_to_the_turn_total(harness: Harness, face: int) -> None:
    ctx = harness.context()
    ctx.state.turn_total = 10
    die = _die(harness, face)
    die.apply(ctx)
    assert (ctx.state.turn_total, ctx.state.die.face) == (10 + face, face)
    assert die.metadata == RollDieMetadata(turn_total=10 + face, busted=False)
    assert ctx.state.player("p1").score == 0 and harness.state.turn_total == 0  # the harness is untouched


def test_a_one_loses_the_turn_total(harness: Harness) -> None:
    ctx = harness.context()
    ctx.state.turn_total = 17
    ctx.state.player("p1").score = 30
    die = _die(harness, 1)
    die.apply(ctx)
    assert (ctx.state.turn_total, ctx.state.die.face) == (0, 1)
    assert die.metadata == RollDieMetadata(turn_total=0, busted=True)
    assert ctx.state.player("p1").score == 30  # banked points are safe


@pytest.mark.parametrize("sides", [2, 6, 20])
def test_the_faces_are_equally_likely_and_the_space_is_the_die(sides: int) -> None:
    harness = GameHarness(definition, players=2, config=PigConfig(dice_outcomes=sides))
    faces = list(range(1, sides + 1))
    assert _die(harness, None).chances(harness.context()) == [(face, 1) for face in faces]
    assert HydratedRollDie.chance_space(harness.game) == faces
    assert harness.state.die.sides == sides


def test_a_roll_queues_the_die_and_counts_a_move(harness: Harness) -> None:
    ctx = harness.context()
    roll = harness.action(HydratedRoll, "p1")
    roll.apply(ctx)
    (queued,) = ctx.queue
    assert isinstance(queued, HydratedRollDie) and (queued.player_id, queued.outcome) == ("p1", None)
    assert ctx.state.moves == 1 and ctx.state.turn_total == 0


def test_the_face_is_the_second_draw_of_the_state_prng(harness: Harness, rig: Rig) -> None:
    rig(harness.state, 5)
    ahead = Prng(harness.state.prng)
    die_id = ahead.rand_id()
    assert ahead.rand_int(6) == 4  # the face: the position among the six equally likely ones
    result = harness.run(harness.action(HydratedRoll, "p1"))
    roll, die = result.actions
    assert isinstance(roll, HydratedRoll) and isinstance(die, HydratedRollDie)
    assert (die.source, die.outcome, die.index) == ("system", 5, 1)
    assert die.metadata == RollDieMetadata(turn_total=5, busted=False)
    assert die.id == die_id and result.state.prng.invocations == ahead.state.invocations
    assert result.state.active_player_ids == ["p1"] and result.state.turn_total == 5


def test_forced_faces_pass_the_turn_on_a_one() -> None:
    harness = GameHarness(definition, players=2, chance=ForcedChance([4, 1]))
    harness.play(harness.action(HydratedRoll, "p1"))
    state = harness.play(harness.action(HydratedRoll, "p1"))
    assert (state.active_player_ids, state.turn_total, state.player("p1").score) == (["p2"], 0, 0)


def test_a_face_the_die_does_not_have_is_refused() -> None:
    harness = GameHarness(definition, players=2, chance=ForcedChance([7]))
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedRoll, "p1"))
    assert caught.value.code == "impossible-chance-outcome"
    assert harness.state.model_dump_json() == before


def test_a_player_may_not_roll_out_of_turn(harness: Harness) -> None:
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedRoll, "p2"))
    assert (caught.value.code, caught.value.path) == ("player-not-active", "player_id")
    assert harness.state.model_dump_json() == before


@pytest.mark.parametrize(
    ("raw", "code", "path"),
    [
        ({"type": "Roll", "face": 6}, "unexpected-field", "face"),
        ({"type": "RollDie", "outcome": 6}, "system-only", "type"),
    ],
)
def test_a_client_cannot_choose_the_face(
    harness: Harness, raw: dict[str, object], code: str, path: str
) -> None:
    with pytest.raises(IllegalActionError) as caught:
        harness.play({"id": "x1", "game_id": "game-1", "player_id": "p1", **raw})
    assert (caught.value.code, caught.value.path) == (code, path)


@pytest.mark.parametrize("turn_total", [0, 12])
def test_the_player_on_turn_may_always_roll(harness: Harness, turn_total: int) -> None:
    harness.state.turn_total = turn_total
    engine, state, game = harness.engine, harness.state, harness.game
    assert [(a.type, a.player_id, a.id) for a in HydratedRoll.enumerate(state, "p1")] == [("Roll", "p1", "")]
    assert [a.type for a in engine.legal_actions(state, "p1", game)][:1] == ["Roll"]
    assert engine.legal_actions(state, "p2", game) == []


def test_must_hold_at_target_refuses_a_roll_that_could_only_risk_the_win() -> None:
    config = PigConfig(target=20, must_hold_at_target=True)
    harness = GameHarness(definition, players=2, config=config)
    harness.state.player("p1").score = 15
    harness.state.turn_total = 5
    assert [a.type for a in harness.legal_actions("p1")] == ["Hold"]
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedRoll, "p1"))
    assert caught.value.code == "must-hold"


def test_the_action_space_holds_every_enumerated_roll(harness: Harness) -> None:
    space = HydratedRoll.action_space(harness.game)
    assert space == [{}]  # a Roll carries no payload: one integer code for OpenSpiel/PettingZoo
    for action in HydratedRoll.enumerate(harness.state, "p1"):
        assert action.model_dump(mode="json", exclude=set(GameAction.model_fields) | {"metadata"}) in space
