"""RollDice: a chance point; the opening roll (no doubles) picks who starts, later rolls go to the
opponent of the player who moved."""

import pytest
from tabletop import IllegalActionError
from tabletop.testing import ForcedChance, GameHarness
from tabletop_backgammon import definition
from tabletop_backgammon.actions.move import HydratedMove
from tabletop_backgammon.actions.roll_dice import HydratedRollDice, RollDiceMetadata
from tabletop_backgammon.components.rules import ORDERED_ROLLS
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState

Harness = GameHarness[HydratedBackgammonGameState, BackgammonConfig]


def test_the_opening_roll_is_recorded_and_gives_the_starter_the_dice(harness: Harness) -> None:
    (roll,) = harness.recorded(HydratedRollDice)
    assert roll.outcome is not None and roll.outcome < 30 and roll.metadata is not None
    first, second = roll.metadata.dice
    assert first != second and roll.metadata.opening
    assert roll.metadata.mover == ("p1", "p2")[roll.outcome % 2]
    assert harness.state.active_player_ids == [roll.metadata.mover] == [harness.state.mover]
    assert harness.state.dice == harness.state.unused == [first, second]


OPENINGS = [(0, "p1", [1, 2]), (1, "p2", [2, 1]), (29, "p2", [6, 5])]


@pytest.mark.parametrize(("outcome", "starter", "dice"), OPENINGS)
def test_an_even_opening_outcome_lets_white_start(outcome: int, starter: str, dice: list[int]) -> None:
    harness = GameHarness(definition, players=2, chance=ForcedChance([outcome]))
    assert (harness.state.mover, harness.state.dice) == (starter, dice)


def test_a_later_roll_goes_to_the_opponent() -> None:
    # White opens 6-5 (outcome 28): 1->7 with the 6... any two steps end the turn.
    harness = GameHarness(definition, players=2, chance=ForcedChance([28]))
    first = harness.legal_actions("p1")[0]
    harness.run(first)
    harness.chance = ForcedChance([35])  # Black rolls 6-6
    second = harness.legal_actions("p1")[0]
    result = harness.run(second)
    (roll,) = [action for action in result.actions if isinstance(action, HydratedRollDice)]
    assert roll.outcome == 35 and roll.metadata == RollDiceMetadata(dice=[6, 6], mover="p2", opening=False)
    assert harness.state.active_player_ids == ["p2"] and harness.state.unused == [6, 6]
    assert isinstance(first, HydratedMove) and isinstance(second, HydratedMove)


def test_the_opening_offers_30_outcomes_and_later_rolls_36(harness: Harness) -> None:
    ctx = harness.context()
    roll = harness.action(HydratedRollDice, None)
    assert [weight for _, weight in roll.chances(ctx)] == [1] * 36  # a mover exists: a regular roll
    ctx.state.mover = None
    assert [outcome for outcome, _ in roll.chances(ctx)] == list(range(30))
    assert HydratedRollDice.chance_space(harness.game) == list(range(36))


def test_all_36_rolls_are_distinct_pairs_with_the_doubles_last() -> None:
    assert len(set(ORDERED_ROLLS)) == 36
    assert all(a != b for a, b in ORDERED_ROLLS[:30]) and all(a == b for a, b in ORDERED_ROLLS[30:])


def test_players_cannot_roll(harness: Harness) -> None:
    player = str(harness.state.mover)
    with pytest.raises(IllegalActionError) as refused:
        harness.run({"id": "x1", "game_id": "game-1", "type": "RollDice", "player_id": player})
    assert refused.value.code == "system-only"
