"""Revealing: nobody acts while the system reveals; then the next round, or the end of the game."""

import pytest
from tabletop.testing import GameHarness
from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState
from tabletop_goofspiel.state_handlers.revealing import Revealing

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]


def test_enter_makes_nobody_active(harness: Harness) -> None:
    ctx = harness.context()
    Revealing().enter(ctx)
    assert ctx.state.active_player_ids == []
    assert harness.engine.valid_action_types(ctx.state, "p1", harness.game) == []


@pytest.mark.parametrize(
    ("deck", "following"),
    [([5, 2], MachineState.BIDDING), ([1], MachineState.BIDDING), ([], MachineState.GAME_OVER)],
)
def test_on_action_plays_on_while_prizes_are_left(
    harness: Harness, deck: list[int], following: MachineState
) -> None:
    ctx = harness.context()
    ctx.state.prize_deck = deck
    assert Revealing().on_action(harness.action(HydratedReveal), ctx) is following


def test_only_reveal_is_accepted() -> None:
    assert [str(action_type) for action_type in Revealing.accepts] == ["Reveal"]
