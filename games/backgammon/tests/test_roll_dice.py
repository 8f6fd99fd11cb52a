"""RollDice: the opening roll (no doubles) picks who starts; later rolls go to the opponent."""

import pytest
from tabletop import IllegalActionError, Prng
from tabletop.testing import GameHarness
from tabletop_backgammon.actions.roll_dice import HydratedRollDice, RollDiceMetadata
from tabletop_backgammon.components.rules import ORDERED_ROLLS
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState

Harness = GameHarness[HydratedBackgammonGameState, BackgammonConfig]


def test_the_opening_roll_is_recorded_and_gives_the_starter_the_dice(harness: Harness) -> None:
    (roll,) = harness.recorded(HydratedRollDice)
    assert roll.metadata is not None and roll.metadata.opening
    first, second = roll.metadata.dice
    assert first != second and roll.metadata.outcome < 30
    assert roll.metadata.mover == ("p1", "p2")[roll.metadata.outcome % 2]
    assert harness.state.active_player_ids == [roll.metadata.mover] == [harness.state.mover]
    assert harness.state.dice == harness.state.unused == [first, second]


def test_a_later_roll_is_the_next_prng_draw_for_the_opponent(harness: Harness) -> None:
    ctx = harness.context()
    mover = str(ctx.state.mover)
    expected = int(Prng(ctx.state.prng.model_copy()).random() * 36)
    action = harness.action(HydratedRollDice, None)
    action.apply(ctx)
    opponent = ctx.state.opponent(mover)
    assert action.metadata == RollDiceMetadata(
        dice=list(ORDERED_ROLLS[expected]), mover=opponent, opening=False, outcome=expected
    )
    assert ctx.state.active_player_ids == [opponent] and ctx.state.unused == list(ORDERED_ROLLS[expected])


def test_all_36_rolls_are_distinct_pairs_with_the_doubles_last() -> None:
    assert len(set(ORDERED_ROLLS)) == 36
    assert all(a != b for a, b in ORDERED_ROLLS[:30]) and all(a == b for a, b in ORDERED_ROLLS[30:])


def test_players_cannot_roll(harness: Harness) -> None:
    player = str(harness.state.mover)
    with pytest.raises(IllegalActionError) as refused:
        harness.run({"id": "x1", "game_id": "game-1", "type": "RollDice", "player_id": player})
    assert refused.value.code == "system-only"
